"""A game's native library, loaded with ctypes: states and actions converted to and from
the flat arrays of the C ABI (docs/DESIGN.md, "The native back-end")."""

from __future__ import annotations

import ctypes
import functools
from array import array
from typing import Sequence

from dsl.model import Ruleset

from interpreter.python.compile import RuleInfo
from interpreter.python.pysource import TooLarge
from interpreter.native.build import NativeTooLarge, NativeUnavailable, build
from interpreter.native.cgen import generate_c
from interpreter.native.csource import MAX_C_BYTES, MAX_C_LINES, MAX_TABLE_BYTES

_U64 = ctypes.POINTER(ctypes.c_uint64)
_I64 = ctypes.POINTER(ctypes.c_int64)
WORD = (1 << 64) - 1

# what each error code the C returns means (the Python back-end raises the real error)
ERRORS = {-2: "a variable left its range", -3: "a chain search passed its budget",
          -4: "out of memory"}


class NativeError(RuntimeError):
    """The native code stopped on an error (see ERRORS)."""


def too_large(rs: Ruleset) -> NativeTooLarge:
    """Why a ruleset is not built natively: its C would take too long to compile."""
    span = rs.plies[0].span if rs.plies else None
    where = f"{span.file}:{span.line}:{span.col}: " if span is not None else f"{rs.path}: "
    return NativeTooLarge(
        f"{where}this ruleset compiles to more C than the native back-end builds in seconds (over "
        f"{MAX_C_LINES:,} lines, {MAX_C_BYTES:,} bytes of code or {MAX_TABLE_BYTES:,} of tables; "
        f"{len(rs.plies)} ply rules, {len(rs.players)} players, {len(rs.types)} piece types); the "
        f"Python back-end runs it (`--backend python`)")


class NativeLibrary:
    """One ruleset's compiled C: legal plies, apply, outcome, perft and playouts."""

    def __init__(self, rs: Ruleset, rules: list[RuleInfo]):
        try:
            gen = generate_c(rs)
        except TooLarge:
            raise too_large(rs) from None
        self.source, self._vector_source, self._solver_source = gen.source, gen.vector_source, gen.solver_source
        self.path = build(gen.source)
        # use_errno: ctypes.get_errno then says why a solution file could not be written
        lib = ctypes.CDLL(str(self.path), use_errno=True)
        info = (ctypes.c_int64 * 6)()
        lib.rc_info(info)
        self.cells, self.words, self.nc, self.ni = info[0], info[1], info[2], info[3]
        if [(r.code, r.name, r.player, r.format) for r in gen.rules] != \
                [(r.code, r.name, r.player, r.format) for r in rules]:
            raise AssertionError("the native and Python back-ends numbered the rules differently")
        self.rules = rules
        self.players = len(rs.players)
        self.cell_slots = gen.layout.cell_slots()
        self.int_slots = [s.index for s in gen.layout.slots if not s.kind.holds_cells]
        self.length = gen.layout.length
        self.state_len = self.nc * self.words + self.ni
        self.action_len = 4 + self.words
        self._widths = [(len(r.format.fields) - (1 if r.format.removes else 0), r.format.removes)
                        for r in rules]
        for name, res, args in (("rc_flat_legal", ctypes.c_int, [_U64, _I64, ctypes.c_int]),
                                ("rc_flat_apply", ctypes.c_int, [_U64, _I64, _U64]),
                                ("rc_flat_outcome", ctypes.c_int, [_U64]),
                                ("rc_perft", ctypes.c_int64, [_U64, ctypes.c_int, ctypes.c_int]),
                                ("rc_playouts", ctypes.c_int, [_U64, ctypes.c_int64, ctypes.c_uint64,
                                                               ctypes.c_int64, ctypes.c_int, _I64])):
            f = getattr(lib, name)
            f.restype, f.argtypes = res, args
        self.lib = lib
        self._cap = 256
        self._acts = (ctypes.c_int64 * (self._cap * self.action_len))()
        self._st = (ctypes.c_uint64 * self.state_len)()
        self._out = (ctypes.c_uint64 * self.state_len)()
        self._act = (ctypes.c_int64 * self.action_len)()

    @property
    def vector(self) -> ctypes.CDLL:
        """The library with the batches (vector.c: rc_vec_*, rc_one_*), built on first use:
        the same game and state layout, so `flat` states serve both."""
        return _loaded(self._vector)

    @property
    def solver(self) -> ctypes.CDLL:
        """The library with the solver (solver.c, solution_index.c), built on first use:
        the same game and state layout, so `flat` states serve both."""
        return _loaded(self._solver)

    # The extra libraries, or why they did not build: a build that failed (a compiler's
    # refusal or its time limit) is not tried again for every batch or state that asks.
    @functools.cached_property
    def _vector(self) -> ctypes.CDLL | NativeUnavailable:
        return _load(self._vector_source)

    @functools.cached_property
    def _solver(self) -> ctypes.CDLL | NativeUnavailable:
        return _load(self._solver_source)

    # ------------------------------------------------------------ conversions
    def _state_in(self, state: Sequence[int], buf) -> None:
        w, k = self.words, 0
        for slot in self.cell_slots:
            v = state[slot]
            for i in range(w):
                buf[k] = (v >> (64 * i)) & WORD
                k += 1
        for slot in self.int_slots:
            buf[k] = state[slot] & WORD
            k += 1

    def _state_out(self, buf) -> tuple[int, ...]:
        out = [0] * self.length
        w, k = self.words, 0
        for slot in self.cell_slots:
            v = 0
            for i in range(w):
                v |= buf[k] << (64 * i)
                k += 1
            out[slot] = v
        for slot in self.int_slots:
            v = buf[k]
            out[slot] = v - (1 << 64) if v >> 63 else v
            k += 1
        return tuple(out)

    def _action_in(self, action: Sequence[int]) -> None:
        buf = self._act
        n, removes = self._widths[action[0]]
        buf[0] = action[0]
        for i in range(3):
            buf[1 + i] = action[1 + i] if i < n else 0
        rem = action[-1] if removes else 0
        for i in range(self.words):
            buf[4 + i] = ((rem >> (64 * i)) & WORD) - (1 << 64 if (rem >> (64 * i + 63)) & 1 else 0)

    def _action_out(self, buf, at: int) -> tuple[int, ...]:
        r = buf[at]
        n, removes = self._widths[r]
        items = (r,) + tuple(buf[at + 1 + i] for i in range(n))
        if not removes:
            return items
        rem = 0
        for i in range(self.words):
            rem |= (buf[at + 4 + i] & WORD) << (64 * i)
        return items + (rem,)

    # ------------------------------------------------------------ the protocol
    def legal(self, state: Sequence[int]) -> list[tuple[int, ...]] | int:
        """The legal actions, or the C's error code."""
        self._state_in(state, self._st)
        while True:
            n = self.lib.rc_flat_legal(self._st, self._acts, self._cap)
            if n <= self._cap:
                break
            self._cap = n
            self._acts = (ctypes.c_int64 * (n * self.action_len))()
        if n < 0:
            return n
        step = self.action_len
        return [self._action_out(self._acts, i * step) for i in range(n)]

    def apply(self, state: Sequence[int], action: Sequence[int]) -> tuple[int, ...] | int:
        """The state after `action`, or the C's error code."""
        self._state_in(state, self._st)
        self._action_in(action)
        e = self.lib.rc_flat_apply(self._st, self._act, self._out)
        return e if e else self._state_out(self._out)

    def outcome(self, state: Sequence[int]) -> int:
        self._state_in(state, self._st)
        return self.lib.rc_flat_outcome(self._st)

    def flat(self, state: Sequence[int]):
        """A state as a fresh flat C array (for the long-running calls, which may run on threads)."""
        buf = (ctypes.c_uint64 * self.state_len)()
        self._state_in(state, buf)
        return buf

    def unflat(self, buf) -> tuple[int, ...]:
        """A flat C array (as `flat` makes) back as a state."""
        return self._state_out(buf)

    def perft(self, state: Sequence[int], depth: int, threads: int = 2) -> int:
        n = self.lib.rc_perft(self.flat(state), depth, threads)
        if n < 0:
            raise NativeError(ERRORS.get(n, f"error {n}"))
        return n

    def playouts(self, state: Sequence[int], games: int, seed: int, max_plies: int,
                 threads: int = 2) -> list[int]:
        """Wins of each player, draws, unfinished games, plies; then, with three players or
        more, the games each player lost (`X loses`)."""
        n = self.players
        stats = (ctypes.c_int64 * (2 * n + 3))()
        e = self.lib.rc_playouts(self.flat(state), games, seed & WORD, max_plies, threads, stats)
        if e:
            raise NativeError(ERRORS.get(e, f"error {e}"))
        return list(stats) if n > 2 else list(stats)[:n + 3]


__all__ = ["NativeError", "NativeLibrary", "array"]


def _load(source: str) -> ctypes.CDLL | NativeUnavailable:
    """The library of `source`, built if need be, or why it could not be."""
    try:
        return ctypes.CDLL(str(build(source)), use_errno=True)
    except NativeUnavailable as e:
        return e


def _loaded(built: ctypes.CDLL | NativeUnavailable) -> ctypes.CDLL:
    if isinstance(built, NativeUnavailable):
        raise built
    return built
