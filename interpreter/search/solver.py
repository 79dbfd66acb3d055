"""Exact solving: every position reachable from a start, then retrograde analysis.

Values follow GamesmanClassic's convention, from the point of view of the player to move:
`win`, `lose` or `draw` (infinite play under perfect play, or a draw rule). Remoteness is the
number of plies to the end under perfect play: the winner takes the shortest way, the loser
the longest. Draws have no remoteness (None).

Storage is compact: a position is packed into one integer (`codec.Codec`, slot by slot as
the state layout types them), reduced to its
canonical form under the board's symmetries when asked (`symmetry.Canonicalizer`), and
the graph is kept as arrays of 32-bit indices (children and parents in CSR form), values
in a bytearray, remoteness in a 32-bit array. The dict from key to index lives only while
positions are enumerated; a finished `Solution` (solution.py) holds sorted keys and
answers by binary search. Its file format is in solution_file.py.

Memory: `solve` estimates what it will need as the positions are found and stops with a
SolveError past `max_memory` bytes, by default three quarters of the memory available
when it starts (`default_memory_cap`, memory.py).

The names callers import from here (`Solution`, `SolutionFileError`, `parse_size`, ...)
live in those modules and are imported here for them.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from array import array
from itertools import repeat
from typing import NamedTuple, TextIO

from dsl.monotone import tier_weights

from interpreter.runtime.game import Game, State
from interpreter.search.codec import Codec, OutOfMemory, SolveError, two_players_only
from interpreter.search.memory import (AUTO, FALLBACK_MEMORY, available_memory, default_memory_cap,
    format_bytes, memory_limit, parse_size)
from interpreter.search import tiered
from interpreter.search.cluster import ray_run as cluster_run
from interpreter.search.levels import level_pass, reverse
from interpreter.search.native_solve import MAX_THREADS, NativeSolveUnsupported, solve_native
from interpreter.search import block_solution  # noqa: F401 - reads solution files of format 6
from interpreter.search.progress import Progress
from interpreter.search.solution import PlyValue, Solution, SolveStats, Value
from interpreter.search.solution_file import (CHECKSUM_BYTES, DRAW, FORMAT, LOSE, MAGIC,
    MAGIC_STEM, MAX_HEADER, OLD_FORMATS, VALUE_NAMES, WIN, SolutionFileError, fingerprint,
    printable, uint32_array)
from interpreter.search.player_swap import KeySwap, PlayerSwap, player_swap
from interpreter.search.symmetry import Canonicalizer, Perm, board_symmetries, canonicalizer_bytes

__all__ = ["AUTO", "BYTES_PER_EDGE", "BYTES_PER_POSITION", "CHECKSUM_BYTES", "DRAW",
           "FALLBACK_MEMORY", "FORMAT", "LOSE", "MAGIC", "MAGIC_STEM", "MAX_HEADER",
           "OLD_FORMATS", "VALUE_NAMES", "WIN", "Codec", "OutOfMemory", "PlyValue", "Progress",
           "Solution", "SolutionFileError", "SolveError", "SolveStats", "Value",
           "available_memory", "default_memory_cap", "fingerprint", "format_bytes",
           "parse_size", "printable", "solve"]

# What a solve holds a position while it runs, in bytes, beyond its key (measured with
# the bundled games, where the peak comes to 130-210 bytes a position plus 8 an edge:
# the dict from key to index while enumerating, the lists and arrays after), with a margin.
BYTES_PER_POSITION = 150
BYTES_PER_EDGE = 8


# what the solve by tiers takes no notice of (solve's names; the command line's are the
# same with dashes): given with `cluster` or `tier_dir`, an error that says why
NOT_BY_TIERS = ("max_memory", "out_of_core", "threads", "arrangements")
BY_TIERS = "the solve by tiers runs its tasks in Python, its tiers on disk, with no memory cap"


def solve(game: Game, start: State | None = None, *, symmetry: bool | list[Perm] = False,
          progress: bool = False, max_positions: int | None = None,
          max_memory: int | str | None = AUTO, stream: TextIO | None = None,
          out_of_core: bool | None = None, cluster: str | None = None,
          tier_dir: str | None = None, threads: int | None = None,
          swap_players: bool = False, arrangements: bool = False) -> Solution:
    """Solve every position reachable from `start` (the initial position by default).

    `symmetry`: False, True (the board's symmetries, see symmetry.py) or a list of cell
    permutations. `swap_players`: also keep a position and its image with the players
    exchanged as one (player_swap.py), when the rules treat the players alike (else a
    notice, and none). `max_positions`: raise SolveError past this many positions.
    `max_memory`: raise SolveError once the solve's estimated peak memory would pass this
    many bytes; "auto" (the default) is `default_memory_cap()`, None no cap. Running out
    of memory all the same (MemoryError) is a SolveError too.
    `progress`: report on stderr (or `stream`) once the solve has run a second.
    `out_of_core` (native solver): True keeps the blocks in a temporary file in $TMPDIR and
    holds a tier at a time (interpreter/native/solver/tiers.c); None (the default) does so
    when the solve in memory passes `max_memory` while reaching, before its positions come
    round, with a notice; False never.
    `cluster`: a Ray address ("local", "auto", "HOST:PORT"): the solve by tiers
    (tiered.py), its tasks on that cluster, its files in `tier_dir` (a directory every
    node reaches, or an fsspec URL; a run that stopped resumes from it; by default a
    temporary directory, removed after). `tier_dir` alone: the solve by tiers here. The
    solve by tiers has no memory cap: its driver holds the positions of one wave of tiers.
    `threads` (native solver, in this process): how many threads solve, 1 to 64; by
    default 2, or 1 on a machine of one core. The same results whatever their number.
    `max_memory`, `out_of_core` or `threads` with `cluster` or `tier_dir`: a ValueError
    (NOT_BY_TIERS).
    `arrangements` (native solver, in memory): every arrangement of the start's pieces,
    reached or not, by un-moves with no reachability (native/solver/arrangements.c): the
    same values, more positions; a SolveError where the rules do not allow it.
    """
    if max_positions is not None and (isinstance(max_positions, bool)
                                      or not isinstance(max_positions, int) or max_positions < 1):
        raise ValueError(f"max_positions must be a whole number of at least 1, found "
                         f"{max_positions!r}")
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int)
                                or not 1 <= threads <= MAX_THREADS):
        raise ValueError(f"threads must be a whole number from 1 to {MAX_THREADS}, found {threads!r}")
    if cluster is not None or tier_dir is not None:
        given = {"max_memory": max_memory is not AUTO, "out_of_core": out_of_core is not None,
                 "threads": threads is not None, "arrangements": arrangements}
        for name in NOT_BY_TIERS:
            if given[name]:
                raise ValueError(f"{name} does nothing with cluster or tier_dir: {BY_TIERS}")
    if arrangements and (game.native is None or out_of_core):
        raise SolveError("every arrangement is solved by the native solver, in memory, only")
    limit = memory_limit(max_memory)
    try:
        if cluster is not None or tier_dir is not None:
            return _solve_by_tiers(game, start, symmetry, progress, max_positions, stream,
                                   cluster, tier_dir, swap_players)
        return _solve(game, start, symmetry, progress, max_positions, limit, stream, out_of_core,
                      threads, swap_players, arrangements)
    except MemoryError:
        pass  # raised below, once this handler has let go of the solve's frames
    raise OutOfMemory("ran out of memory (the machine had less free memory than the cap "
                      "assumed): give a lower max_memory")


def _solve(game: Game, start: State | None, symmetry: bool | list[Perm], progress: bool,
           max_positions: int | None, max_memory: int | None,
           stream: TextIO | None, out_of_core: bool | None = None,
           threads: int | None = None, swap_players: bool = False,
           arrangements: bool = False) -> Solution:
    """`solve` once its arguments are checked (a MemoryError passes through)."""
    two_players_only(game)
    start = game.initial_state() if start is None else start
    codec = Codec(game)
    perms: list[Perm] = []
    if symmetry is True:
        perms = board_symmetries(game, start=start)
    elif symmetry:
        perms = list(symmetry)
    swap = _swap(game, perms, start, stream) if swap_players else None
    tables = canonicalizer_bytes(perms, codec.masks, codec.cells) if len(perms) > 1 else 0
    if max_memory is not None and tables > max_memory:
        raise SolveError(f"the symmetry tables alone would need more than the memory cap of "
                         f"{format_bytes(max_memory)}", "memory")
    prog = Progress(progress, stream)
    if game.native is not None:
        try:
            sol = _solve_native(game, start, perms, prog, max_positions, max_memory, stream,
                                out_of_core, threads, swap, arrangements)
        except NativeSolveUnsupported as e:
            # solved in Python below (which also gives a rule's error its exact message)
            if e.notice:
                print(f"rulecraft: solving in Python, as the native solver cannot: {e}",
                      file=stream if stream is not None else sys.stderr)
        else:
            prog.done()
            return sol
    key_swap = KeySwap(swap, codec, game) if swap is not None else None
    canon = (Canonicalizer(perms, codec.masks, codec.cells, key_swap)
             if len(perms) > 1 or key_swap is not None else None)
    t0 = time.perf_counter()
    graph = _enumerate(game, start, codec, canon, prog, max_positions, max_memory, tables)
    t1 = time.perf_counter()
    values, rem, level = _retrograde(graph, prog)
    t2 = time.perf_counter()
    prog.done()

    # sorted keys for lookups by binary search
    keys = graph.keys
    order = sorted(range(len(keys)), key=keys.__getitem__)
    if codec.bits <= 64:
        skeys: array | list[int] = array("Q", (keys[k] for k in order))
    else:
        skeys = [keys[k] for k in order]
    svalues = bytearray(values[k] for k in order)
    srem = uint32_array()
    srem.extend(rem[k] for k in order)
    terminal = len(keys) - graph.status.count(0)
    stats = SolveStats(len(keys), len(graph.edges), terminal, canon.order if canon else 1, t1 - t0,
                       t2 - t1, level)
    return Solution(game, codec, canon, skeys, svalues, srem, start, stats, fingerprint(game))


def _swap(game: Game, perms: list[Perm], start: State, stream: TextIO | None) -> PlayerSwap | None:
    """The players' swap of `game` (player_swap.py), or a notice that it has none."""
    swap = player_swap(game, perms, start=start)
    if swap is None:
        print(f"rulecraft: the rules of {game.title} do not treat the two players alike: "
              "solving without exchanging them", file=stream if stream is not None else sys.stderr)
    return swap


def _solve_by_tiers(game: Game, start: State | None, symmetry: bool | list[Perm], progress: bool,
                    max_positions: int | None, stream: TextIO | None, cluster: str | None,
                    tier_dir: str | None, swap_players: bool = False) -> Solution:
    """`solve` by tiers (tiered.py), on a Ray cluster when one is given."""
    start = game.initial_state() if start is None else start
    perms = (board_symmetries(game, start=start) if symmetry is True else list(symmetry or []))
    swap = _swap(game, perms, start, stream) if swap_players else None
    run = tiered.local_run if cluster is None else cluster_run(cluster)
    root = tier_dir if tier_dir is not None else tempfile.mkdtemp(prefix="rulecraft-tiers-")
    try:
        return tiered.solve_tiered(game, start, perms, root, run, Progress(progress, stream),
                                   max_positions, swap=swap)
    finally:
        if tier_dir is None:
            shutil.rmtree(root, ignore_errors=True)


def _solve_native(game: Game, start: State, perms: list[Perm], prog: Progress,
                  max_positions: int | None, max_memory: int | None, stream: TextIO | None,
                  out_of_core: bool | None, threads: int | None = None,
                  swap: PlayerSwap | None = None, arrangements: bool = False) -> Solution:
    """The native solve, in memory or out of core (see `solve`): by default, a solve the
    memory cap stopped while reaching, before any cycle, runs again out of core when the
    model gives it tiers (a tier at a time may then need less). Every arrangement: in
    memory, and what the native solver cannot do is a SolveError (no other solver does it)."""
    if arrangements:
        try:
            return solve_native(game, start, perms, prog, max_positions, max_memory,
                                threads=threads, out_of_core=0, swap=swap, arrangements=True)
        except NativeSolveUnsupported as e:
            raise SolveError(str(e)) from None
    mode = -1 if out_of_core is None else int(out_of_core)
    try:
        return solve_native(game, start, perms, prog, max_positions, max_memory, threads=threads,
                            out_of_core=mode, swap=swap)
    except SolveError as e:
        if (e.limit != "memory" or out_of_core is not None or max_memory is None
                or not e.tiers_may_help or not any(tier_weights(game.ruleset))):
            raise
    print(f"rulecraft: the solve would pass the memory cap of {format_bytes(max_memory)} in "
          "memory: solving again out of core, a tier at a time, its blocks in a temporary "
          "file ($TMPDIR; --out-of-core starts so)", file=stream if stream is not None else sys.stderr)
    return solve_native(game, start, perms, prog, max_positions, max_memory, threads=threads,
                        out_of_core=1, swap=swap)


class _Graph(NamedTuple):
    """The positions found, breadth first: node i's children are edges[offsets[i]:offsets[i+1]]."""

    keys: list[int]
    movers: bytearray  # the player to move
    status: bytearray  # 0 going on, else WIN / LOSE / DRAW for the player to move
    offsets: array
    edges: array
    turns: bytearray | None  # with the players swapped: per arc, 1 if the mover changes on it


def _enumerate(game: Game, start: State, codec: Codec, canon: Canonicalizer | None,
               prog: Progress, max_positions: int | None, max_memory: int | None,
               tables: int) -> _Graph:
    """Every position reachable from `start`; SolveError past `max_positions`, or once the
    solve's estimated peak (`tables` bytes of symmetry tables and more) would pass
    `max_memory` bytes."""
    pack, unpack = codec.pack, codec.unpack
    canonical = canon.canonical if canon is not None else (lambda k: k)
    legal, apply = game.rules.legal, game.rules.apply
    to_move, is_terminal, winner, is_draw = game.to_move, game.is_terminal, game.winner, game.is_draw
    root_key = canonical(pack(start))
    per_position = BYTES_PER_POSITION + 2 * sys.getsizeof(root_key)  # the key and its index

    def check_memory() -> None:  # what follows (parents, values, sorting) is in the estimate
        need = tables + per_position * len(keys) + BYTES_PER_EDGE * len(edges)
        if max_memory is not None and need > max_memory:
            raise SolveError(f"stopped at {len(keys):,} positions: the solve would need more "
                             f"than the memory cap of {format_bytes(max_memory)}", "memory")

    index: dict[int, int] = {root_key: 0}  # freed on return, before the parents are built
    keys: list[int] = [root_key]
    movers, status = bytearray(), bytearray()
    turns = bytearray() if canon is not None and canon.swap is not None else None
    offsets, edges = uint32_array(), uint32_array()
    offsets.append(0)
    get = index.get
    i = 0
    while i < len(keys):
        s = unpack(keys[i])
        me = to_move(s)
        movers.append(me)
        if is_terminal(s):
            status.append(DRAW if is_draw(s) else WIN if winner(s) == me else LOSE)
        else:
            status.append(0)
            # with the players' swap an arc is a child and whether the mover changes on it
            kids = ({(canonical(pack(c)), to_move(c) != me) for c in map(apply, repeat(s), legal(s))}
                    if turns is not None else {canonical(pack(apply(s, a))) for a in legal(s)})
            for kid in kids:
                ck = kid if turns is None else kid[0]
                j = get(ck)
                if j is None:
                    j = len(keys)
                    index[ck] = j
                    keys.append(ck)
                edges.append(j)
                if turns is not None:
                    turns.append(kid[1])
            if max_positions is not None and len(keys) > max_positions:
                raise SolveError(f"more than {max_positions:,} positions are reachable",
                                 "positions")
        offsets.append(len(edges))
        i += 1
        if not i & 1023:
            check_memory()
            if not i & 4095:
                prog.update(f"enumerating: {i:,} expanded, {len(keys):,} found")
    check_memory()
    return _Graph(keys, movers, status, offsets, edges, turns)


def _retrograde(graph: _Graph, prog: Progress) -> tuple[bytearray, array, int]:
    """Values and remoteness of every node, and the number of levels (levels.py)."""
    n, offsets = len(graph.keys), graph.offsets
    start, parents, turns = reverse(n, offsets, graph.edges, graph.turns)
    remaining = uint32_array()
    remaining.extend(offsets[k + 1] - offsets[k] for k in range(n))
    return level_pass(graph.movers, graph.status, remaining, start, parents, prog=prog, turns=turns)
