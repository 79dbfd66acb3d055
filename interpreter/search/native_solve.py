"""The exact solver in C (solver.c): the configuration it takes, its run, its result as a
`Solution` like the Python solver's (search/solver.py), with the same positions, values and
remoteness. Past `COPY_LIMIT` positions the result stays in C: a `NativeSolution` answers
from the solver's tables and saves them as a solution file of format 5, which
`open_index` maps back (solution_index.c), or past 1 GiB of format 6, in compressed
chunks that a `BlockSolution` reads as lookups need them (block_file.py,
block_solution.py).

What the index cannot hold (more than one piece of a type covering several cells, a key
wider than 128 bits, a wide type standing on another), and any error the rules raise,
make `solve_native` raise `NativeSolveUnsupported`: the caller solves in Python instead,
which then gives the exact message of a rule's error.
"""

from __future__ import annotations

import ctypes
import os
import weakref
from array import array
from typing import Any

from dsl.monotone import tier_weights
from dsl.placements import placements

from interpreter.runtime.game import Game, State
from interpreter.search.codec import Codec, OutOfMemory, SolveError, slot_range
from interpreter.search.index_ranking import Ranking, from_header, ranking, unknown
from interpreter.search.memory import format_bytes
from interpreter.search.progress import Progress
from interpreter.search.solution import Solution, SolveStats, Value
from interpreter.search.block_file import BlockShape, write_blocks
from interpreter.search.solution_file import (COMPRESS_ABOVE, DRAW, INDEX_FORMAT, VALUE_NAMES,
                                              fingerprint, index_header, register_index_reader,
                                              uint32_array, write_index)
from interpreter.search.native_config import SolveSlot, SolveType, config_layout, solve_config
from interpreter.search.player_swap import (KeySwap, PlayerSwap, swap_field, swap_of, swap_slots,
    tier_weights_under)
from interpreter.search.symmetry import Canonicalizer, Perm
from interpreter.search.wide_keys import WideKeys
from interpreter.native.build import NativeUnavailable, one_line
from interpreter.native.library import WORD, NativeLibrary

MAX_KEY_BITS = 128
# positions a solve copies into a Python `Solution` (about 13 bytes each, and 24 more while
# sorting them); past it, a `NativeSolution` answers from the C tables
COPY_LIMIT = 50_000_000
MAX_THREADS = 64  # the native solver's most (solver/base.c, SV_MAX_THREADS; tested the same)
# the solver's error codes (rulecraft.h's RC_ERR_MEMORY, solver/base.c's SV_ERR_*; tested the same)
ERR_MEMORY, ERR_STOP, ERR_POSITIONS = -4, -12, -13
ERR_INDEX, ERR_BLOCKS = -10, -11  # what the index cannot hold: the Python solve says so
ERR_DISK = -16  # the file of a solve out of core could not be made or grown

_CALLBACK = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_char_p)


class NativeSolveUnsupported(Exception):
    """The native solver cannot take this game or start (the message says why).

    `notice`: whether the Python solve that follows should say so; not when the C stopped
    on what the Python solver will report as an error of its own (a rule's error, a value
    out of range, the memory cap)."""

    def __init__(self, message: str, notice: bool = True):
        super().__init__(message)
        self.notice = notice


def _configure(lib: NativeLibrary) -> None:
    """The solver's functions typed for ctypes, once a library; its configuration struct's
    mirror checked against the C's layout. NativeSolveUnsupported if the solver's library
    cannot be built."""
    try:
        c = lib.solver
    except NativeUnavailable as e:
        raise NativeSolveUnsupported(f"its solver cannot be built: {one_line(e)}") from None
    if getattr(c, "_solve_ready", False):
        return
    c.rc_solve_config_layout.restype = ctypes.c_int
    c.rc_solve_config_layout.argtypes = [ctypes.POINTER(ctypes.c_int64)]
    layout = (ctypes.c_int64 * 32)()
    got = list(layout[:c.rc_solve_config_layout(layout)])
    config = solve_config(got[0], got[1])
    if got != config_layout(config, got[0], got[1]):
        raise AssertionError(f"struct rc_solve_config: the C compiler lays it out as {got}, "
                             f"native_solve.py as {config_layout(config, got[0], got[1])}")
    c._solve_config = config
    vp, cfg = ctypes.c_void_p, ctypes.POINTER(config)
    for name, res, args in (
            ("rc_solve_new", vp, [cfg, ctypes.POINTER(ctypes.c_int32),
                                  ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint64)]),
            ("rc_solve_run", ctypes.c_int, [vp, ctypes.POINTER(ctypes.c_uint64), _CALLBACK]),
            ("rc_solve_output", ctypes.c_int, [vp, ctypes.POINTER(ctypes.c_uint64),
                                               ctypes.POINTER(ctypes.c_uint64),
                                               ctypes.POINTER(ctypes.c_uint8),
                                               ctypes.POINTER(ctypes.c_uint32)]),
            ("rc_solve_stats", None, [vp, ctypes.POINTER(ctypes.c_uint64),
                                      ctypes.POINTER(ctypes.c_double)]),
            ("rc_solve_error", ctypes.c_char_p, [vp]),
            ("rc_solve_lookup", ctypes.c_int, [vp, ctypes.POINTER(ctypes.c_uint64),
                                               ctypes.POINTER(ctypes.c_uint32)]),
            ("rc_solve_counts", ctypes.c_int, [vp, ctypes.POINTER(ctypes.c_uint64)]),
            ("rc_solve_position", ctypes.c_int, [vp, ctypes.c_uint64,
                                                 ctypes.POINTER(ctypes.c_uint64)]),
            ("rc_solve_write", ctypes.c_int, [vp, ctypes.c_char_p]),
            ("rc_solve_open", vp, [cfg, ctypes.POINTER(ctypes.c_int32),
                                   ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint64),
                                   ctypes.c_char_p, ctypes.c_uint64, ctypes.c_uint64]),
            ("rc_solve_free", None, [vp]),
            ("rc_solve_blocks", ctypes.c_int, [vp]),
            ("rc_solve_directory", ctypes.c_uint64, [vp, ctypes.POINTER(ctypes.c_uint8)]),
            ("rc_solve_block_bytes", ctypes.c_uint64, [vp, ctypes.c_int]),
            ("rc_solve_block_body", ctypes.c_int, [vp, ctypes.c_int, ctypes.POINTER(ctypes.c_uint8)]),
            ("rc_solve_open_lazy", vp, [cfg, ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(ctypes.c_uint64),
                                        ctypes.POINTER(ctypes.c_uint64), ctypes.c_char_p, ctypes.c_uint64]),
            ("rc_solve_block_info", None, [vp, ctypes.c_int, ctypes.POINTER(ctypes.c_uint64)]),
            ("rc_solve_tally", None, [ctypes.c_char_p, ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64)]),
            ("rc_solve_locate", ctypes.c_int, [vp, ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_uint64)]),
            ("rc_solve_unrank", None, [vp, ctypes.c_int, ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64)])):
        f = getattr(c, name)
        f.restype, f.argtypes = res, args
    c._solve_ready = True


def _types(game: Game) -> tuple[list[int], list[int], list[int]]:
    """Per piece type: size, level, carrier (NativeSolveUnsupported for what the index
    cannot rank)."""
    types = game.ruleset.types
    sizes = [t.size for t in types]
    levels = [t.level for t in types]
    carriers = [-1 if t.carrier is None else t.carrier for t in types]
    for t, ty in enumerate(types):
        if ty.counted:  # its counts would be ints of the block's key: a block per position
            raise NativeSolveUnsupported("a counted kind's pieces are counted cell by cell, which "
                                         "the native index does not rank")
        if ty.size > 1 and ty.level:
            raise NativeSolveUnsupported("a piece covering several cells stands on another")
        if ty.carrier is not None and types[ty.carrier].size > 1:
            raise NativeSolveUnsupported("a piece stands on one covering several cells")
    return sizes, levels, carriers


def index_ranking(game: Game, perms: list[Perm], start: State | None = None,
                  swap: PlayerSwap | None = None) -> Ranking:
    """The ranking of an index of `game`'s positions from `start` (None: the setup) under
    `perms` and `swap` (search/index_ranking.py)."""
    sizes, levels, _ = _types(game)
    wide = 0
    for s in sizes:
        if s > 1:
            for cs in placements(game.board, s):
                wide |= sum(1 << c for c in cs)
    masks = None if start is None else [start[t] for t in range(len(sizes))]
    return ranking(game.ruleset, sizes, levels, wide, perms, masks, swap)


def header_ranking(game: Game, header: dict) -> Ranking:
    """The ranking a solution file's header records (none: the one before there were
    rankings); ValueError if it is damaged."""
    if "ranking" not in header:
        sizes, levels, _ = _types(game)
        return unknown(game.ruleset, sizes, levels)
    return from_header(header["ranking"], game.ruleset)


def solve_native(game: Game, start: State, perms: list[Perm], prog: Progress,
                 max_positions: int | None, max_memory: int | None,
                 threads: int | None = None, arcs_only: bool = False, copy_limit: int = COPY_LIMIT,
                 tally_room: int = -1, tally_most: int = -1, sparse_above: int = -1,
                 sparse_stays: bool = False, out_of_core: int = -1, depth_first: int = -1,
                 swap: PlayerSwap | None = None, arrangements: bool = False) -> Solution:
    """Solve every position reachable from `start` in C (see the module docstring); with
    `arrangements`, every arrangement of its pieces instead (solver/arrangements.c).
    `arcs_only`: the retrograde solve over stored arcs, whatever the game. Up to `copy_limit`
    positions the solution is copied into a `Solution`, past it a `NativeSolution` answers.
    `tally_room` (bytes; -1: half the memory cap) and `tally_most` (-1: 251) bound the
    children counts reachability keeps for the un-move solve (solver.c, sv_tally); blocks
    of more than `sparse_above` indices (-1: 65,536; none with un-moves) start sparse, and
    stay so if `sparse_stays` (solver/sparse.c). `out_of_core` 1: the blocks in a file,
    held a tier at a time (solver/tiers.c); -1: so for the one-pass solve when its values
    would pass `max_memory`. `depth_first` 1: the depth-first solve first (solver/depth_first.c;
    reachability after it if it meets a cycle or the cap), 0: never, -1: unless out of core
    or `arcs_only`. `swap`: the players' swap (player_swap.py). Each way, the same results."""
    lib = game.native or NativeLibrary(game.ruleset, game.rule_infos)
    _configure(lib)
    codec = Codec(game)
    if codec.bits > MAX_KEY_BITS:
        raise NativeSolveUnsupported(f"a position takes {codec.bits} bits, past the "
                                     f"{MAX_KEY_BITS} the native solver packs")
    c = lib.solver
    rk = index_ranking(game, perms, start, swap)
    handle = c.rc_solve_new(*solver_arguments(game, lib, codec, perms, rk, swap,
                                        threads=threads or min(2, os.cpu_count() or 1),
                                        max_memory=max_memory or 0, max_positions=max_positions or 0,
                                        arcs_only=int(arcs_only), tally_room=tally_room, tally_most=tally_most,
                                        sparse_above=sparse_above, sparse_stays=int(sparse_stays), out_of_core=out_of_core,
                                        depth_first=depth_first, arrangements=int(arrangements)))
    if not handle:
        raise SolveError("out of memory", "memory")
    interrupted: list[bool] = []
    kept = False

    def report(text: bytes) -> int:
        try:
            prog.update(text.decode())
        except KeyboardInterrupt:
            interrupted.append(True)
            return 1
        return 0

    try:
        err = c.rc_solve_run(handle, lib.flat(start), _CALLBACK(report))
        if interrupted or err == ERR_STOP:
            raise KeyboardInterrupt
        stats, st = _stats(c, handle, (len(perms) or 1) * (2 if swap else 1))
        if err:
            raise _error(err, c.rc_solve_error(handle).decode(), stats, max_positions, max_memory, arrangements)
        n = st.positions
        if n > copy_limit:
            kept = True
            return NativeSolution(game, lib, handle, n, start, st, perms, rk, swap=swap)
        return _copy(game, lib, handle, codec, perms, start, st, swap)
    finally:
        if not kept:
            c.rc_solve_free(handle)


def _stats(c: ctypes.CDLL, handle: int, symmetries: int) -> tuple[Any, SolveStats]:
    """rc_solve_stats' figures, and the SolveStats they make."""
    stats = (ctypes.c_uint64 * 11)()
    seconds = (ctypes.c_double * 2)()
    c.rc_solve_stats(handle, stats, seconds)
    return stats, SolveStats(stats[0], stats[1], stats[2], symmetries, seconds[0], seconds[1], stats[3],
                             stats[7] == 1, stats[7] == 2, stats[7] == 3, stats[4], stats[8], stats[9])


def _copy(game: Game, lib: NativeLibrary, handle: int, codec: Codec, perms: list[Perm],
          start: State, st: SolveStats, swap: PlayerSwap | None = None) -> Solution:
    """A solve's positions copied into a `Solution`: keys sorted, values, remoteness."""
    n = st.positions
    lo, hi = (ctypes.c_uint64 * max(1, n))(), (ctypes.c_uint64 * max(1, n))()
    vals, rems = (ctypes.c_uint8 * max(1, n))(), (ctypes.c_uint32 * max(1, n))()
    if lib.solver.rc_solve_output(handle, lo, hi, vals, rems):
        raise SolveError("out of memory while sorting the solution", "memory")
    keys: array | WideKeys
    if codec.bits <= 64:
        keys = array("Q")
        keys.frombytes(memoryview(lo).cast("B")[:8 * n])
    else:
        keys = WideKeys.from_words(memoryview(lo), memoryview(hi), n)
    remoteness = uint32_array()
    remoteness.frombytes(memoryview(rems).cast("B")[:4 * n])
    key_swap = KeySwap(swap, codec, game) if swap is not None else None
    canon = (Canonicalizer(perms, codec.masks, codec.cells, key_swap)
             if len(perms) > 1 or swap is not None else None)
    return Solution(game, codec, canon, keys, bytearray(bytes(vals)[:n]), remoteness, start, st,
                    fingerprint(game))


class NativeSolution(Solution):
    """A solution too large to copy into Python: lookups go to the native solver's tables
    (its block index, bitsets and values, or a solution file of format 5 mapped), which
    live as long as this object."""

    def __init__(self, game: Game, lib: NativeLibrary, handle: int, n: int, start: State,
                 stats: SolveStats | None, perms: list[Perm], ranking: Ranking, fp: str = "",
                 swap: PlayerSwap | None = None):
        super().__init__(game, Codec(game), None, array("Q"), bytearray(), uint32_array(),
                         start, stats, fp or fingerprint(game))
        self._lib, self._handle, self._n, self.perms = lib, handle, n, list(perms)
        self.swap = swap
        self.ranking = ranking
        weakref.finalize(self, lib.solver.rc_solve_free, handle)

    def __len__(self) -> int:
        return self._n

    def _code(self, state: State) -> tuple[int, int]:
        rem = ctypes.c_uint32()
        return self._lib.solver.rc_solve_lookup(self._handle, self._lib.flat(state), ctypes.byref(rem)), rem.value

    def __contains__(self, state: State) -> bool:
        return self._code(state)[0] != 0

    def lookup(self, state: State) -> Value:
        code, rem = self._code(state)
        if not code:
            raise KeyError("the position is not among those this solution holds: "
                           + self.game.state_to_text(state))
        return Value(VALUE_NAMES[code], None if code == DRAW else rem)

    def position(self, i: int) -> State:
        if not 0 <= i < self._n:
            raise IndexError(f"position {i} of a solution of {self._n:,}")
        buf = (ctypes.c_uint64 * self._lib.state_len)()
        self._lib.solver.rc_solve_position(self._handle, i, buf)
        return self._lib.unflat(buf)

    def counts(self) -> dict[str, int]:
        out = (ctypes.c_uint64 * 3)()
        self._lib.solver.rc_solve_counts(self._handle, out)
        return {VALUE_NAMES[code]: out[code - 1] for code in VALUE_NAMES}

    def save(self, path: str, compress: bool | None = None) -> None:
        """Write the native index as a solution file: format 6 (in compressed chunks) if
        `compress`, else format 5 (mapped when read). None: format 6 past COMPRESS_ABOVE
        bytes."""
        c, h = self._lib.solver, self._handle
        if compress is None:
            compress = sum(c.rc_solve_block_bytes(h, k) for k in range(c.rc_solve_blocks(h))) > COMPRESS_ABOVE
        if compress:
            directory = (ctypes.c_uint8 * c.rc_solve_directory(h, None))()
            c.rc_solve_directory(h, directory)
            write_blocks(path, self.header(), bytes(directory), block_shapes(c, h),
                         (self._body(k) for k in range(c.rc_solve_blocks(h))))
            return

        def body(p: str) -> None:
            if c.rc_solve_write(h, os.fsencode(p)):
                err = ctypes.get_errno()
                raise OSError(err, os.strerror(err) if err else "write failed", p)

        write_index(path, self.header(), body)

    def header(self) -> dict:
        """The header of its solution file: format 5's fields, and its ranking when the
        index ranks otherwise than before there were rankings."""
        sizes, levels, _ = _types(self.game)
        head = index_header(self, self.perms)
        if self.swap is not None:
            head["swap"] = swap_field(self.swap)
        if self.ranking != unknown(self.game.ruleset, sizes, levels):
            head["ranking"] = self.ranking.header()
        return head

    def _body(self, k: int) -> bytes:
        buf = (ctypes.c_uint8 * self._lib.solver.rc_solve_block_bytes(self._handle, k))()
        self._lib.solver.rc_solve_block_body(self._handle, k, buf)
        return bytes(buf)


def block_shapes(c: ctypes.CDLL, handle: int) -> list[BlockShape]:
    """Each block's shape (rc_solve_block_info)."""
    out = (ctypes.c_uint64 * 5)()
    shapes = []
    for k in range(c.rc_solve_blocks(handle)):
        c.rc_solve_block_info(handle, k, out)
        shapes.append(BlockShape(*out))
    return shapes


def index_library(game: Game) -> NativeLibrary:
    """The game's native library, its solver ready to read an index; ValueError if the
    native back-end is missing."""
    lib = game.native
    if lib is None:
        try:
            lib = NativeLibrary(game.ruleset, game.rule_infos)
        except NativeUnavailable as e:
            raise ValueError(f"a solution of format 5 or 6 (the native solver's index) is read "
                             f"by the native back-end: {str(e).splitlines()[0]}") from None
    try:
        _configure(lib)
    except NativeSolveUnsupported as e:
        raise ValueError(f"a solution of format 5 or 6 (the native solver's index) is read by "
                         f"the native solver: {e}") from None
    return lib


def opened(game: Game, lib: NativeLibrary, handle: int, perms: list[Perm], root: State, header: dict,
           ranking: Ranking, cls: type[NativeSolution] = NativeSolution, **more: Any) -> NativeSolution:
    """The solution (a `cls`, given `more`) an opened index answers from; ValueError if C
    found it unsound."""
    if not handle:
        raise ValueError("out of memory while opening it")
    message = lib.solver.rc_solve_error(handle).decode()
    if message:
        lib.solver.rc_solve_free(handle)
        raise ValueError(f"damaged: {message}")
    stats = (ctypes.c_uint64 * 11)()
    lib.solver.rc_solve_stats(handle, stats, (ctypes.c_double * 2)())
    return cls(game, lib, handle, stats[0], root, None, perms, ranking, header["fingerprint"],
               swap=swap_of(header), **more)


def open_index(game: Game, path: str, offset: int, size: int, perms: list[Perm], root: State,
               header: dict) -> NativeSolution:
    """The solution whose format-5 body is `size` bytes at `offset` of `path` (its header
    and checksum already checked); ValueError saying what is wrong with the body, or that
    the native back-end is missing."""
    lib = index_library(game)
    rk = header_ranking(game, header)
    handle = lib.solver.rc_solve_open(*solver_arguments(game, lib, Codec(game), perms, rk, swap_of(header),
                                                        threads=1, tally_most=-1),
                                      os.fsencode(path), offset, size)
    return opened(game, lib, handle, perms, root, header, rk)


register_index_reader(INDEX_FORMAT, open_index)


def solver_arguments(game: Game, lib: NativeLibrary, codec: Codec, perms: list[Perm],
                     rk: Ranking | None = None, swap: PlayerSwap | None = None,
                     **solve: int) -> tuple:
    """rc_solve_new's four arguments (see solver/export.c), for an index ranked by `rk`
    (None: `index_ranking` from the setup): the configuration, a struct
    rc_solve_config (`solve`: its fields threads, max_memory, max_positions, arcs_only,
    tally_room, tally_most, sparse_above, sparse_stays, out_of_core, depth_first and
    arrangements; those not
    given 0), completed with the symmetries' count, the swap of the players (`swap`),
    the piece types and the int slots' key fields; the symmetries (and the swap's cell
    permutation after them), the wide types' placements, the cells each type is ranked
    among."""
    if swap is not None and not swap.involution:
        raise NativeSolveUnsupported("its swap of the players is not its own inverse (sv_swap)")
    sizes, levels, carriers = _types(game)
    rk = rk or index_ranking(game, perms, swap=swap)
    board = game.board
    places = [[sum(1 << c for c in cs) for cs in placements(board, s)] if s > 1 else []
              for s in sizes]
    cfg = lib.solver._solve_config(**solve)
    if (len(cfg.types), len(cfg.slots)) != (len(sizes), len(lib.int_slots)):
        raise AssertionError("the native solver's configuration does not fit the game's types and slots")
    cfg.nperm = len(perms)
    cfg.swap = int(swap is not None)
    weights = tier_weights_under(tier_weights(game.ruleset), swap)
    for t in range(len(sizes)):
        cfg.types[t] = SolveType(sizes[t], levels[t], carriers[t], len(places[t]))
        cfg.order[t] = rk.order[t]
        cfg.swap_type[t] = swap.types[t] if swap is not None else t
        cfg.tier_weight[t] = weights[t]
    by_slot = {f.slot: f for f in codec.fields}
    to = swap_slots(game, swap.types) if swap is not None else None
    for j, slot in enumerate(lib.int_slots):
        cfg.swap_slot[j] = lib.int_slots.index(to[slot]) if to is not None else j
        low, high = slot_range(game, game.layout.slots[slot])
        cfg.slots[j] = SolveSlot(by_slot[slot].shift, low, high)
    words = lib.words
    flat_perm = [c for p in perms for c in p] + (list(swap.cells) if swap is not None else [])
    flat_place = [(m >> (64 * w)) & WORD for ps in places for m in ps for w in range(words)]
    flat_cells = [(m >> (64 * w)) & WORD for m in rk.cells for w in range(words)]
    return (ctypes.byref(cfg),
            (ctypes.c_int32 * max(1, len(flat_perm)))(*flat_perm),
            (ctypes.c_uint64 * max(1, len(flat_place)))(*flat_place),
            (ctypes.c_uint64 * len(flat_cells))(*flat_cells))


def _error(code: int, message: str, stats: Any, max_positions: int | None,
           max_memory: int | None, arrangements: bool = False) -> Exception:
    """What a solver.c error code becomes (the Python solver's messages), given the solve's
    rc_solve_stats. The memory cap's SolveError says in `tiers_may_help` whether a solve
    out of core may need less (solver._solve_native). A solve of every arrangement that
    cannot be done is a SolveError: no other solver does it."""
    found = stats[6]
    if code == ERR_POSITIONS and max_positions is not None and "reachable" in message:
        return SolveError(f"more than {max_positions:,} positions are reachable", "positions")
    if code == ERR_POSITIONS and max_positions is not None and "arrangements" in message:
        return SolveError(f"more than {max_positions:,} arrangements", "positions")
    if code == ERR_MEMORY and max_memory is not None and "memory cap" in message:
        e = SolveError(f"stopped at {found:,} positions: the solve would need more than the "
                       f"memory cap of {format_bytes(max_memory)}", "memory")
        e.tiers_may_help = bool(stats[10])
        return e
    if code == ERR_DISK:
        return SolveError(f"stopped at {found:,} positions: {message}", "disk")
    if code == ERR_MEMORY:  # an allocation failed below the cap: the machine had less
        return OutOfMemory(f"stopped at {found:,} positions: ran out of memory (the machine had less free "
                           "memory than the cap assumed): give a lower max_memory")
    if arrangements:
        return SolveError(message)
    return NativeSolveUnsupported(message, notice=code in (ERR_INDEX, ERR_BLOCKS))

