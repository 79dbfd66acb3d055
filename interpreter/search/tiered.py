"""The exact solve by tiers, each tier's work cut into tasks that may run anywhere.

A position's tier is the counts of its pieces of the kinds whose counts only go one way
(dsl/monotone.py), signed so that no ply raises any of them: a ply stays in its tier or
goes to one the tier dominates (no higher, count by count). With the players' swap, the
two counts of each pair of kinds it exchanges are in order, least first: a position and
its image are then in one tier, and the order still never rises.

- **Forward**, a tier is expanded once no tier still to expand dominates it: its
  positions breadth first, each round's frontier cut into tasks (`expand`) that return
  the children in the tier and beyond it. The tiers ready together (a wave) share the
  rounds, their tasks run side by side.
- **Backward**, a tier is solved once every tier it dominates is (again a wave at a
  time): tasks (`children`) list each of its positions' children, in the tier by key and
  beyond it by value and remoteness (read from those tiers' files); the Python solver's
  level-by-level pass then runs within the tier, the children beyond it entering at their
  levels.

Each tier's positions, the entries it gave other tiers, and then its values, are files in
a directory (a path, or an fsspec URL) that every task reads: a run that stopped resumes
from the tiers it finished. The tiers put together are the Python solver's solution,
exactly (the same keys, values, remoteness and counts). `solve_tiered` takes a `run`
function that maps a task over argument tuples: in this process, or on a Ray cluster
(cluster.py).
"""

from __future__ import annotations

import functools
import json
import os
import time
from array import array
from bisect import bisect_left
from typing import Any, Callable, Iterable, NamedTuple

from dsl.monotone import tier_weights

from interpreter.runtime.game import Game, State
from interpreter.search.codec import Codec, SolveError, two_players_only
from interpreter.search.levels import Later, level_pass, reverse
from interpreter.search.native_children import Kids, NativeChildren
from interpreter.search.native_solve import NativeSolveUnsupported
from interpreter.search.player_swap import KeySwap, PlayerSwap, tier_weights_under
from interpreter.search.portable import GameSource, game_from, source_of
from interpreter.search.progress import Progress
from interpreter.search.solution import Solution, SolveStats
from interpreter.search.solution_file import DRAW, LOSE, WIN, fingerprint, uint32_array
from interpreter.search.symmetry import Canonicalizer, Perm

CHUNK = 20_000  # positions a task takes
Tier = tuple[int, ...]
Run = Callable[[Callable[..., Any], list[tuple]], list[Any]]  # a task over argument tuples


class Spec(NamedTuple):
    """What a task needs: the game, the symmetries (and the players' swap, if any), the
    directory of the tier files."""

    game: GameSource
    perms: tuple[tuple[int, ...], ...]
    root: str
    swap: PlayerSwap | None = None


def spec_of(game: Game, perms: list[Perm], root: str, swap: PlayerSwap | None = None) -> Spec:
    """The spec of a solve of `game` under `perms` and `swap`, its files in `root`."""
    return Spec(source_of(game), tuple(tuple(p) for p in perms), root, swap)


class _Side(NamedTuple):  # a task's game: rules, packing, canonical form, tiers, children
    game: Game
    codec: Codec
    canon: Canonicalizer | None
    canonical: Callable[[int], int]
    tier: Callable[[State], Tier]
    key_tier: Callable[[int], Tier]
    kids: Callable[[list[int]], list[Kids]]


@functools.lru_cache(maxsize=4)
def _side(spec: Spec) -> _Side:
    """The game of a spec, built once a process; its children listed in C where the game
    has the native back-end."""
    game = game_from(spec.game)
    codec = Codec(game)
    sw = spec.swap
    key_swap = KeySwap(sw, codec, game) if sw is not None else None
    canon = (Canonicalizer(list(spec.perms), codec.masks, codec.cells, key_swap)
             if len(spec.perms) > 1 or sw is not None else None)
    canonical = canon.canonical if canon else (lambda k: k)
    weighted = [(t, w) for t, w in enumerate(tier_weights_under(tier_weights(game.ruleset), sw)) if w]
    full = (1 << codec.cells) - 1
    shifts = [(w, codec.mask_slots.index(t) * codec.cells) for t, w in weighted]

    kids: Callable[[list[int]], list[Kids]] = functools.partial(_python_kids, game, codec, canonical)
    if game.native is not None:
        try:
            kids = functools.partial(_native_kids, NativeChildren(game, codec, [list(p) for p in spec.perms], sw),
                                     kids)
        except NativeSolveUnsupported:
            pass  # its solver's library cannot be built, or keys are too wide for it
    pairs = _swapped_pairs(weighted, sw)
    return _Side(game, codec, canon, canonical,
                 _in_order(lambda s: tuple(w * s[t].bit_count() for t, w in weighted), pairs),
                 _in_order(_key_tier(shifts, full), pairs), kids)


def _swapped_pairs(weighted: list[tuple[int, int]], sw: PlayerSwap | None) -> list[tuple[int, int]]:
    """The places in a tier of the counts of each two kinds the swap exchanges."""
    if sw is None:
        return []
    at = {t: i for i, (t, _) in enumerate(weighted)}
    return [(i, at[sw.types[t]]) for i, (t, _) in enumerate(weighted) if at.get(sw.types[t], -1) > i]


def _in_order(tier: Callable[[Any], Tier], pairs: list[tuple[int, int]]) -> Callable[[Any], Tier]:
    """`tier` with the counts of each pair in order, least first (the swap's image of a
    position has them the other way round; sorting keeps a count-by-count fall a fall)."""
    if not pairs:
        return tier

    def ordered(x: Any) -> Tier:
        t = list(tier(x))
        for i, j in pairs:
            if t[i] > t[j]:
                t[i], t[j] = t[j], t[i]
        return tuple(t)
    return ordered


def _key_tier(shifts: list[tuple[int, int]], full: int) -> Callable[[int], Tier]:
    """The tier of a packed key, whose type t's cells are at `(key >> shift) & full`: written
    out for one or two counts, the usual tiers, as it runs for every child."""
    if len(shifts) == 1:
        (w, sh), = shifts
        return lambda k: (w * ((k >> sh) & full).bit_count(),)
    if len(shifts) == 2:
        (w0, sh0), (w1, sh1) = shifts
        return lambda k: (w0 * ((k >> sh0) & full).bit_count(), w1 * ((k >> sh1) & full).bit_count())
    return lambda k: tuple(w * ((k >> sh) & full).bit_count() for w, sh in shifts)


def _native_kids(native: NativeChildren, python: Callable[[list[int]], list[Kids]], keys: list[int]) -> list[Kids]:
    """The children in C; in Python where a value is out of range, for its error."""
    try:
        return native.children(keys)
    except NativeSolveUnsupported:
        return python(keys)


def _python_kids(game: Game, codec: Codec, canonical: Callable[[int], int], keys: list[int]) -> list[Kids]:
    """NativeChildren.children, by the game's rules in Python."""
    out: list[Kids] = []
    rules, pack = game.rules, codec.pack
    for k in keys:
        s = codec.unpack(k)
        me = game.to_move(s)
        if game.is_terminal(s):
            out.append((me, DRAW if game.is_draw(s) else WIN if game.winner(s) == me else LOSE, []))
            continue
        made = (rules.apply(s, a) for a in rules.legal(s))
        out.append((me, 0, list(dict.fromkeys((canonical(pack(t)), game.to_move(t)) for t in made))))
    return out


# ------------------------------------------------------------------ files
def _name(kind: str, tier: Tier, source: Tier | None = None) -> str:
    """A tier's file of `kind` (entries: those `source` gave it)."""
    def text(t: Tier) -> str:
        return "_".join(map(str, t)) or "all"
    return f"{kind}-{text(tier)}" + ("" if source is None else f"~{text(source)}")


def _fs(root: str):
    """The fsspec file system of a URL, or None for a local directory."""
    if "://" not in root:
        return None
    import fsspec  # an extra: only URLs need it
    return fsspec.core.url_to_fs(root)[0]


def write_file(root: str, name: str, data: bytes) -> None:
    """`data` as the file `name` of `root`, whole or not at all (written, then renamed)."""
    path, part = f"{root}/{name}", f"{root}/{name}.part"
    fs = _fs(root)
    if fs is None:
        with open(part, "wb") as f:
            f.write(data)
        os.replace(part, path)
    else:
        fs.pipe_file(part, data)
        fs.mv(part, path)


def read_file(root: str, name: str) -> bytes | None:
    """The file `name` of `root`, or None if there is none."""
    fs = _fs(root)
    try:
        if fs is None:
            with open(f"{root}/{name}", "rb") as f:
                return f.read()
        return fs.cat_file(f"{root}/{name}")
    except FileNotFoundError:
        return None


def list_files(root: str) -> list[str]:
    """The names of the files in `root`."""
    fs = _fs(root)
    if fs is None:
        return os.listdir(root)
    return [p.rsplit("/", 1)[-1] for p in fs.ls(root, detail=False)]


def _width(codec: Codec) -> int:
    """Bytes a key takes in a tier file."""
    return 8 if codec.key_bytes <= 8 else codec.key_bytes


def keys_bytes(keys: Iterable[int], width: int) -> bytes:
    """Keys as a tier file holds them: `width` bytes each, little-endian."""
    if width == 8:
        return array("Q", keys).tobytes()
    return b"".join(k.to_bytes(width, "little") for k in keys)


def keys_of(data: bytes, width: int) -> list[int]:
    """The keys of a tier file's bytes."""
    if width == 8:
        a = array("Q")
        a.frombytes(data)
        return a.tolist()
    return [int.from_bytes(data[i:i + width], "little") for i in range(0, len(data), width)]


# ------------------------------------------------------------------ tasks
def expand(spec: Spec, tier: Tier, keys: list[int]) -> tuple[list[int], dict[Tier, list[int]]]:
    """The children of positions `keys` of `tier`: those in the tier, and by tier those
    beyond it (each list without repeats). TierError if a ply raises the tier."""
    side = _side(spec)
    inside: set[int] = set()
    beyond: dict[Tier, set[int]] = {}
    for _, _, kids in side.kids(keys):
        for ck, _ in kids:
            ct = side.key_tier(ck)
            if ct == tier:
                inside.add(ck)
            else:
                _check_below(ct, tier)
                beyond.setdefault(ct, set()).add(ck)
    return list(inside), {t: list(v) for t, v in beyond.items()}


def children(spec: Spec, tier: Tier, keys: list[int]) -> list[tuple[int, int, list[tuple[int, int]],
                                                                    list[tuple[int, int, int]]]]:
    """Per position of `keys` (in `tier`): its mover, its status (0, or its end's value for
    the mover), its distinct children in the tier as (key, 1 if the mover changes on the
    way, else 0), and those beyond it as (mover, value, remoteness), read from their
    tiers' files."""
    side = _side(spec)
    out = []
    for me, status, kids in side.kids(keys):
        inside, beyond = [], []
        for ck, mover in kids:
            ct = side.key_tier(ck)
            if ct == tier:
                inside.append((ck, int(mover != me)))
            else:
                beyond.append(_solved(spec, ct).value_of(ck, mover))
        out.append((me, status, inside, beyond))
    return out


class TierError(SolveError):
    """A ply raised the tier the model gave (dsl/monotone.py misread the rules)."""


def _check_below(child: Tier, parent: Tier) -> None:
    if any(c > p for c, p in zip(child, parent)):
        raise TierError("a ply raised the tier the model gave (dsl/monotone.py)")


class _Solved(NamedTuple):  # a solved tier: sorted keys, values, remoteness
    keys: list[int]
    values: bytes
    rem: array

    def value_of(self, key: int, mover: int) -> tuple[int, int, int]:
        i = bisect_left(self.keys, key)
        return mover, self.values[i], self.rem[i]


@functools.lru_cache(maxsize=64)
def _solved(spec: Spec, tier: Tier) -> _Solved:
    """A solved tier's files, read once a process (lower tiers are read by many tasks)."""
    keys = keys_of(read_file(spec.root, _name("positions", tier)) or b"", _width(_side(spec).codec))
    data = read_file(spec.root, _name("values", tier))
    if data is None:
        raise SolveError(f"the tier {tier} was not solved before a tier above it")
    rem = uint32_array()
    rem.frombytes(data[len(keys):])
    return _Solved(keys, data[:len(keys)], rem)


# ------------------------------------------------------------------ the driver
def local_run(fn: Callable[..., Any], items: list[tuple]) -> list[Any]:
    """Tasks run one after the other in this process."""
    return [fn(*a) for a in items]


def solve_tiered(game: Game, start: State, perms: list[Perm], root: str, run: Run = local_run,
                 prog: Progress | None = None, max_positions: int | None = None,
                 chunk: int = CHUNK, swap: PlayerSwap | None = None) -> Solution:
    """Every position reachable from `start`, solved a tier at a time (the module
    docstring), its files in the directory `root` (made if missing; a run that stopped
    resumes from them), under `perms` and `swap`. `run` maps a task over argument tuples;
    `chunk` positions a task."""
    two_players_only(game)
    prog = prog or Progress(False)
    spec = spec_of(game, perms, root, swap)
    _manifest(spec, game)
    side = _side(spec)
    width = _width(side.codec)
    t0 = time.perf_counter()
    tiers = _forward(spec, side, start, run, prog, max_positions, chunk, width)
    t1 = time.perf_counter()
    edges = terminal = 0
    todo = sorted(tiers)
    while todo:  # a wave: the tiers that dominate none left to solve
        wave = [t for t in todo if not any(_dominates(t, u) for u in todo)]
        todo = [t for t in todo if t not in wave]
        e, t = _backward(spec, wave, run, prog, chunk, width)
        edges, terminal = edges + e, terminal + t
    t2 = time.perf_counter()
    prog.done()
    return _assemble(game, spec, side, sorted(tiers), start, (edges, terminal, t1 - t0, t2 - t1))


def _manifest(spec: Spec, game: Game) -> None:
    """The directory made, and marked as this solve's; SolveError if it holds another's."""
    if _fs(spec.root) is None:
        os.makedirs(spec.root, exist_ok=True)
    # with the swap a tier's counts are kept in order, least first (`_in_order`): a
    # directory written before that names its tiers otherwise, and is another solve's
    swapped = {"swap": spec.swap, "tiers": "in order"} if spec.swap is not None else {}
    mine = json.dumps({"fingerprint": fingerprint(game), "perms": spec.perms} | swapped).encode()
    found = read_file(spec.root, "manifest.json")
    if found is None:
        write_file(spec.root, "manifest.json", mine)
    elif found != mine:
        raise SolveError(f"{spec.root} holds the tiers of another solve (another ruleset or "
                         "other symmetries): give an empty directory")


def _tier_of(name: str, kind: str) -> Tier | None:
    """The tier a file of `kind` is about (entries: the receiving tier), else None."""
    if not name.startswith(kind + "-") or name.endswith(".part"):
        return None
    text = name[len(kind) + 1:].split("~")[0]
    return () if text == "all" else tuple(int(x) for x in text.split("_"))


def _dominates(a: Tier, b: Tier) -> bool:
    """Whether tier `a` is above `b`: no lower in any count, and not the same."""
    return a != b and all(x >= y for x, y in zip(a, b))


def _forward(spec: Spec, side: _Side, start: State, run: Run, prog: Progress,
             max_positions: int | None, chunk: int, width: int) -> dict[Tier, int]:
    """Every tier's positions found and saved, a wave at a time: the tiers no tier left to
    expand dominates, expanded together; each tier's count."""
    names = list_files(spec.root)
    done = {t: len(read_file(spec.root, n) or b"") // width
            for n in names if (t := _tier_of(n, "positions")) is not None}
    entries: dict[Tier, set[int]] = {}
    for n in names:
        t = _tier_of(n, "entries")
        if t is not None and t not in done:
            entries.setdefault(t, set()).update(keys_of(read_file(spec.root, n) or b"", width))
    if side.tier(start) not in done:
        entries.setdefault(side.tier(start), set()).add(side.canonical(side.codec.pack(start)))
    while entries:
        wave = {t: entries[t] for t in entries if not any(_dominates(p, t) for p in entries)}
        given = _reach(spec, wave, run, prog, chunk, sum(done.values()), max_positions)
        for tier, seen in wave.items():
            for t, ks in given[tier].items():  # before its positions, which mark it done
                write_file(spec.root, _name("entries", t, tier), keys_bytes(sorted(ks), width))
                entries.setdefault(t, set()).update(ks)
            write_file(spec.root, _name("positions", tier), keys_bytes(sorted(seen), width))
            done[tier] = len(seen)
            del entries[tier]
    return done


def _reach(spec: Spec, seen: dict[Tier, set[int]], run: Run, prog: Progress, chunk: int,
           before: int, max_positions: int | None) -> dict[Tier, dict[Tier, set[int]]]:
    """The positions of a wave's tiers (`seen`: its entries, completed in place), breadth
    first, each round's frontiers cut into tasks; per tier, the entries it gives others."""
    given: dict[Tier, dict[Tier, set[int]]] = {t: {} for t in seen}
    frontier = {t: sorted(ks) for t, ks in seen.items()}
    while any(frontier.values()):
        items = [(spec, t, f[i:i + chunk]) for t, f in frontier.items() for i in range(0, len(f), chunk)]
        new: dict[Tier, list[int]] = {t: [] for t in seen}
        for (_, tier, _), (inside, beyond) in zip(items, run(expand, items)):
            for k in inside:
                if k not in seen[tier]:
                    seen[tier].add(k)
                    new[tier].append(k)
            for t, ks in beyond.items():
                given[tier].setdefault(t, set()).update(ks)
        frontier = {t: sorted(ks) for t, ks in new.items()}
        found = before + sum(len(ks) for ks in seen.values())
        if max_positions is not None and found > max_positions:
            raise SolveError(f"more than {max_positions:,} positions are reachable", "positions")
        prog.update(f"tiers: reaching {len(seen)} tier(s): {found:,} positions found")
    return given


def _backward(spec: Spec, wave: list[Tier], run: Run, prog: Progress, chunk: int,
              width: int) -> tuple[int, int]:
    """The values and remoteness of a wave's tiers (each dominating none left to solve)
    saved, unless a run before saved them; their arcs and ended positions."""
    edges = terminal = 0
    todo: list[tuple[Tier, list[int]]] = []
    for tier in wave:
        saved = read_file(spec.root, _name("counts", tier))
        if saved is not None and read_file(spec.root, _name("values", tier)) is not None:
            e, t = json.loads(saved)
            edges, terminal = edges + e, terminal + t
        else:
            todo.append((tier, keys_of(read_file(spec.root, _name("positions", tier)) or b"", width)))
    items = [(spec, tier, keys[i:i + chunk]) for tier, keys in todo for i in range(0, len(keys), chunk)]
    rows: dict[Tier, list] = {tier: [] for tier, _ in todo}
    for (_, tier, _), part in zip(items, run(children, items)):
        rows[tier].extend(part)
    for tier, keys in todo:
        values, rem = _levels(keys, rows[tier])
        e = sum(len(r[2]) + len(r[3]) for r in rows[tier])
        t = sum(1 for r in rows[tier] if r[1])
        write_file(spec.root, _name("counts", tier), json.dumps([e, t]).encode())
        write_file(spec.root, _name("values", tier), bytes(values) + rem.tobytes())
        edges, terminal = edges + e, terminal + t
        prog.update(f"tiers: solved tier {tier} ({len(keys):,} positions)")
    return edges, terminal


def _levels(keys: list[int], rows: list) -> tuple[bytearray, array]:
    """The Python solver's level-by-level pass (levels.py) within a tier: each child
    beyond the tier, already solved, a node of its own that enters at its level."""
    n = len(keys)
    index = {k: i for i, k in enumerate(keys)}
    movers, status = bytearray(r[0] for r in rows), bytearray(r[1] for r in rows)
    offsets, edges = uint32_array(), uint32_array()
    turns = bytearray()  # per arc: whether the mover changes on it (the swap keeps it apart)
    offsets.append(0)
    later: Later = {}
    beyond = n
    for me, _, inside, outside in rows:
        edges.extend(index[ck] for ck, _ in inside)
        turns.extend(turn for _, turn in inside)
        for mover, value, r in outside:
            edges.append(beyond)
            turns.append(mover != me)
            movers.append(mover)
            status.append(value)
            if value != DRAW:
                later.setdefault(r, []).append(beyond)
            beyond += 1
        offsets.append(len(edges))
    offsets.extend([len(edges)] * (beyond - n))  # (those children have none)
    start, parents, back = reverse(beyond, offsets, edges, turns)
    remaining = uint32_array()
    remaining.extend(len(r[2]) + len(r[3]) for r in rows)
    values, rem, _ = level_pass(movers, status, remaining, start, parents, later, turns=back)
    return values, rem


def _assemble(game: Game, spec: Spec, side: _Side, tiers: list[Tier], start: State,
              figures: tuple[int, int, float, float]) -> Solution:
    """The tiers' files put together as one `Solution`, keys sorted."""
    parts = [_solved(spec, t) for t in tiers]
    order = sorted((k, j, i) for j, part in enumerate(parts) for i, k in enumerate(part.keys))
    keys: array | list[int] = [k for k, _, _ in order]
    if side.codec.bits <= 64:
        keys = array("Q", keys)
    values = bytearray(parts[j].values[i] for _, j, i in order)
    rem = uint32_array()
    rem.extend(parts[j].rem[i] for _, j, i in order)
    decided = [r for v, r in zip(values, rem) if v != DRAW]
    edges, terminal, reach_s, solve_s = figures
    stats = SolveStats(len(keys), edges, terminal, side.canon.order if side.canon else 1, reach_s, solve_s,
                       max(decided) + 1 if decided else 0)
    return Solution(game, side.codec, side.canon, keys, values, rem, start, stats, fingerprint(game))
