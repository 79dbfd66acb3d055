"""Board symmetries that the rules cannot tell apart, and canonical forms of positions.

A symmetry is a permutation of the cells (cell i -> perm[i]). It is kept when it is an
automorphism of the board graph (networkx's matcher on the arcs) together with a
consistent relabelling of the arcs' directions, and it preserves everything the rules
refer to:

- every region, setwise (point squares, goals, ...);
- each piece type's setup cells, setwise (unless `setups=False`);
- every cell named in a rule, pointwise;
- every set of directions a rule names (`orthogonal`, `n`, `all`, ...), setwise, and the
  links that have no direction stay links (so steps, slides and lines map to their own kind);
- the placements of pieces covering several cells.

A symmetry maps a position slot by slot as the state layout types them (`layout.SlotKind`):
every slot holding cells (each piece type's mask, and the cells the previous ply left and
reached, in a game that remembers it) is permuted; every other slot is kept: the player to
move, the phase, variables, reserves, the outcome, and the previous ply's rule, which names
a rule, not a direction (a rule's directions are checked above, with the direction sets).

Rules can refer to more than these (a variable holding a cell, say), so each candidate is
also checked on positions from seeded random playouts: the children of the mapped
position must be the mapped children, with the same outcome. A candidate that fails is
dropped.
"""

from __future__ import annotations

import random
import sys
from functools import partial
from typing import Any, Callable, Iterable


from dsl import model
from dsl.model import Ruleset
from dsl.placements import placements as all_placements

from interpreter.runtime.game import Game, State
from interpreter.runtime.tables import cells_of

Perm = tuple[int, ...]

# Candidates are enumerated lazily; a board whose plain graph has more automorphisms than
# this (a pathological one) keeps the first ones found, which is still correct.
MAX_CANDIDATES = 10_000
CHECK_POSITIONS = 200


def _nodes(rs: Ruleset) -> Iterable[Any]:
    """Every motion and expression of the rules (plies, end rules, effects)."""
    effects = list(rs.after)
    for ply in (v for rule in rs.plies for v in rule.variants()):
        yield ply.motion
        yield from (ply.onto, ply.where, getattr(ply.motion, "limit", None))
        effects += ply.effects
    for end in rs.ends:
        yield from (end.player, end.cond)
        effects += end.effects
    for eff in effects:
        yield from model.children(eff)


def referenced(game: Game) -> tuple[set[int], list[frozenset[str]]]:
    """The cells the rules name (regions apart: those are kept setwise), and the sets of
    direction labels they name."""
    rs = game.ruleset
    cells: set[int] = set()
    dir_sets: list[frozenset[str]] = []
    for node in _nodes(rs):
        if isinstance(node, model.Motion):
            if getattr(node, "dirs", None):
                dir_sets.append(frozenset(node.dirs))
            continue
        for e in model.walk(node):
            if isinstance(e, model.Cells) and e.label not in rs.regions:
                cells.update(cells_of(e.mask))
            elif isinstance(e, model.RegionOf):  # each player's cells: kept pointwise, to be safe
                for mask in e.masks:
                    cells.update(cells_of(mask))
            elif isinstance(e, model.Dirs):
                dir_sets.append(frozenset(e.labels))
    return cells, dir_sets


def _label_map(graph, perm: dict[int, int]) -> dict | None:
    """The direction relabelling that `perm` induces on the arcs, if it is consistent."""
    pi: dict = {}
    several = []
    for u, v, ds in graph.edges(data="dirs"):
        d2s = graph.edges[perm[u], perm[v]]["dirs"]
        if len(ds) > 1 or len(d2s) > 1:  # an arc into a goal: checked as a set below
            several.append((ds, d2s))
        elif pi.setdefault(ds[0], d2s[0]) != d2s[0]:
            return None
    if len(set(pi.values())) != len(pi):
        return None
    if any({pi.get(d, d) for d in ds} != set(d2s) for ds, d2s in several):
        return None
    return pi


def candidate_symmetries(game: Game, setups: bool = True) -> list[Perm]:
    """Automorphisms of the board that preserve what the rules refer to (static checks only)."""
    board, rs = game.board, game.ruleset
    n = board.size
    if any(t.size > 1 and u.size > 1 and (t.kind, t.owner) == (u.kind, u.owner)
           for i, t in enumerate(rs.types) for u in rs.types[i + 1:]):
        # Interchangeable wide pieces keep their masks sorted; a cell permutation would not.
        return [tuple(range(n))]
    if rs.counts or rs.tracks:  # counts are kept cell by cell and tracks in order: not mapped here
        return [tuple(range(n))]
    fixed, dir_sets = referenced(game)
    colour: list[tuple] = []
    for c in range(n):
        regions = tuple(sorted(name for name, cs in rs.regions.items() if c in cs))
        setup = tuple(sorted(t for t, cs in rs.setup.items() if c in cs)) if setups else ()
        colour.append((regions, setup, c if c in fixed else -1))
    out = list(automorphisms(game, colour, dir_sets))
    identity = tuple(range(n))
    out.sort(key=lambda p: p != identity)  # identity first
    return out


def automorphisms(game: Game, colour: list, dir_sets: list[frozenset[str]]) -> Iterable[Perm]:
    """The board's automorphisms that keep each cell's `colour`, relabel the directions
    consistently, keep each of `dir_sets` setwise and map the placements of wide pieces
    onto themselves (at most MAX_CANDIDATES are looked at)."""
    board, rs = game.board, game.ruleset
    n = board.size
    g = board.graph.to_networkx()  # a copy: the colours below are ours, the board is shared
    for c in range(n):
        g.nodes[c]["_rc_colour"] = colour[c]
    from networkx.algorithms.isomorphism import DiGraphMatcher  # only a search needs it

    matcher = DiGraphMatcher(
        g, g,
        node_match=lambda a, b: a["_rc_colour"] == b["_rc_colour"],
        edge_match=lambda a, b: len(a["dirs"]) == len(b["dirs"]))
    placements = {}
    for t in rs.types:
        if t.size > 1 and t.size not in placements:
            placements[t.size] = {sum(1 << c for c in cs) for cs in all_placements(board, t.size)}
    for k, mapping in enumerate(matcher.isomorphisms_iter()):
        if k >= MAX_CANDIDATES:
            break
        pi = _label_map(g, mapping)
        if pi is None:
            continue
        if any(frozenset(pi.get(d, d) for d in ds) != ds for ds in dir_sets):
            continue
        perm = tuple(mapping[c] for c in range(n))
        if any({permute_mask(mk, perm) for mk in masks} != masks
               for masks in placements.values()):
            continue
        yield perm


def permute_mask(mask: int, perm: Perm) -> int:
    """`mask` with each cell c moved to perm[c]."""
    out = 0
    for c in cells_of(mask):
        out |= 1 << perm[c]
    return out


def permute_state(game: Game, state: State, perm: Perm) -> State:
    """The position with every cell i moved to cell perm[i]: each slot that holds cells is
    permuted, the others kept (see the module docstring)."""
    out = list(state)
    for i in game.layout.cell_slots():
        out[i] = permute_mask(state[i], perm)
    return tuple(out)


def commutes(game: Game, state: State, image_of: Callable[[State], State],
             winner_of: Callable[[int | None], int | None] = lambda w: w) -> bool:
    """Whether the map `image_of` commutes with the rules at `state`: the image ends as
    `state` does (its winner `winner_of` the winner of `state`), and its children are the
    images of the children of `state`."""
    image = image_of(state)
    if (game.is_terminal(state), winner_of(game.winner(state)), game.is_draw(state)) != \
            (game.is_terminal(image), game.winner(image), game.is_draw(image)):
        return False
    mapped = {image_of(game.apply_unchecked(state, a)) for a in game.legal_actions(state)}
    direct = {game.apply_unchecked(image, a) for a in game.legal_actions(image)}
    return mapped == direct


def sample_positions(game: Game, count: int, seed: int = 0, start: State | None = None) -> list[State]:
    """Positions met in seeded random playouts (for checking symmetries)."""
    rng = random.Random(seed)
    first = game.initial_state() if start is None else start
    out: list[State] = []
    while len(out) < count:
        s = first
        for _ in range(60):
            out.append(s)
            actions = game.legal_actions(s)
            if not actions or len(out) >= count:
                break
            s = game.apply_unchecked(s, rng.choice(actions))
    return out


def board_symmetries(game: Game, setups: bool = True, start: State | None = None,
                     check_positions: int = CHECK_POSITIONS) -> list[Perm]:
    """The symmetries to use: static candidates that also pass the check on sampled positions."""
    cands = candidate_symmetries(game, setups)
    if len(cands) <= 1:
        return cands
    samples = sample_positions(game, check_positions, seed=1, start=start)
    return [p for i, p in enumerate(cands)
            if i == 0 or all(commutes(game, s, partial(permute_state, game, perm=p)) for s in samples)]


def canonicalizer_bytes(perms: list[Perm], masks: int, cells: int) -> int:
    """About what `Canonicalizer(perms, masks, cells)` takes: a table of 256 ints (each as
    wide as a key's masks) per byte of the masks per symmetry other than the identity."""
    identity = tuple(range(cells))
    others = sum(1 for p in perms if tuple(p) != identity)
    bits = masks * cells
    return others * ((bits + 7) // 8) * 256 * (8 + sys.getsizeof(1 << max(0, bits - 1)))


def byte_tables(where: list[int], bits: int) -> list[list[int]]:
    """For each byte of the low `bits` bits of a key, the image of each of its 256 values
    when bit b goes to bit where[b]."""
    out = []
    for j in range((bits + 7) // 8):
        table = []
        for byte in range(256):
            v = 0
            for b in range(8):
                pos = 8 * j + b
                if byte >> b & 1 and pos < bits:
                    v |= 1 << where[pos]
            table.append(v)
        out.append(table)
    return out


class Canonicalizer:
    """Maps a packed position key to the least key of its images under the symmetries.

    The `masks` slots that hold cells occupy the low `masks * cells` bits of a key, one
    cell a bit (see `codec.Codec`), so a symmetry permutes those bits only; it is applied
    a byte at a time from tables.
    """

    def __init__(self, perms: list[Perm], masks: int, cells: int, swap: Any = None):
        self.swap = swap  # player_swap.KeySwap: applied first when the second player is to move
        self.perms = [tuple(p) for p in perms]
        self.bits = masks * cells
        self.high_mask = ~((1 << self.bits) - 1)
        identity = tuple(range(cells))
        self.tables: list[list[list[int]]] = [
            byte_tables([t * cells + perm[c] for t in range(masks) for c in range(cells)], self.bits)
            for perm in self.perms if perm != identity]

    @property
    def order(self) -> int:
        return max(1, len(self.perms)) * (2 if self.swap is not None else 1)

    def canonical(self, key: int) -> int:
        """The least key among the images of `key` (under a swap of the players, among those
        with the first player to move)."""
        if self.swap is not None and self.swap.second(key):
            key = self.swap.apply(key)
        best = key
        high = key & self.high_mask
        for tabs in self.tables:
            v = high
            k = key
            for tab in tabs:
                v |= tab[k & 255]
                k >>= 8
            if v < best:
                best = v
        return best
