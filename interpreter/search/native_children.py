"""The children of packed positions in C, for the tasks of the solve by tiers (tiered.py).

A game loaded with the native back-end lists a chunk of positions' children in one call
of its solver library (solver/export.c's rc_solve_children): each key unpacked, its end
and plies found, each child made, put in symmetry.Canonicalizer's canonical form and
packed. The same keys, movers and ends as the Python rules give. A child's mover is that
of the child as made: with the players' swap (player_swap.py) the key kept may have the
other player to move, and a key may come with either.
"""

from __future__ import annotations

import ctypes
import weakref

from interpreter.runtime.game import Game
from interpreter.search.codec import Codec
from interpreter.search.native_solve import MAX_KEY_BITS, NativeSolveUnsupported, _configure, solver_arguments
from interpreter.search.player_swap import PlayerSwap
from interpreter.search.symmetry import Perm

WORD = (1 << 64) - 1
Kids = tuple[int, int, list[tuple[int, int]]]  # mover, end (0 or a value for it), (child key, its mover)


class NativeChildren:
    """`children(keys)`: per key, its mover, its end and its distinct children by key."""

    def __init__(self, game: Game, codec: Codec, perms: list[Perm], swap: PlayerSwap | None = None):
        lib = game.native
        if lib is None or codec.bits > MAX_KEY_BITS:
            raise NativeSolveUnsupported("no native library, or keys past what it packs")
        _configure(lib)
        c = self._c = lib.solver
        f = c.rc_solve_children
        P = ctypes.c_void_p
        f.restype, f.argtypes = ctypes.c_int64, [P, ctypes.c_int64] + [P] * 8 + [ctypes.c_int64]
        self._handle = c.rc_solve_new(*solver_arguments(game, lib, codec, perms, swap=swap, threads=1))
        if not self._handle:
            raise MemoryError("out of memory for the native children's tables")
        weakref.finalize(self, c.rc_solve_free, self._handle)
        self._room = 0

    def children(self, keys: list[int]) -> list[Kids]:
        """Each position's mover, end (0 while it goes on, else WIN, LOSE or DRAW for its
        mover) and distinct children (canonical key, mover); NativeSolveUnsupported where a value
        is out of its field's range (the Python rules then say which)."""
        n = len(keys)
        lo = (ctypes.c_uint64 * max(1, n))(*[k & WORD for k in keys])
        hi = (ctypes.c_uint64 * max(1, n))(*[k >> 64 for k in keys])
        mover, status = (ctypes.c_int8 * max(1, n))(), (ctypes.c_int8 * max(1, n))()
        end = (ctypes.c_int64 * max(1, n))()
        room = max(self._room, 16 * n)
        while True:
            klo, khi = (ctypes.c_uint64 * room)(), (ctypes.c_uint64 * room)()
            kmover = (ctypes.c_int8 * room)()
            got = self._c.rc_solve_children(self._handle, n, lo, hi, mover, status, end, klo, khi, kmover, room)
            if got < 0:
                raise NativeSolveUnsupported(f"the native children stopped (error {got})")
            if got <= room:
                break
            room = self._room = got
        out: list[Kids] = []
        at = 0
        los, his, movers = klo[:got], khi[:got], kmover[:got]
        for i in range(n):
            stop = end[i]
            out.append((mover[i], status[i], [(his[q] << 64 | los[q], movers[q]) for q in range(at, stop)]))
            at = stop
        return out
