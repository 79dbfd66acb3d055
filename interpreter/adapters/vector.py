"""Many games of one ruleset stepped together, for agents that learn: states, legal-action
masks, observations, rewards and ends in numpy arrays, one call a step for the batch.

Where the native back-end is built, a step runs in C over the whole batch: each game's
ply made from its id (or a chain's hop, native/hops.c), its outcome and returns, its
legal ids as a mask and its observation tensor written into the arrays. Without a C
compiler the same arrays are filled in Python, a game at a time: the same results,
slower. The ids are ActionSpace's
and the tensors Observer's (the same program of planes drives both).

Autoreset is Gymnasium's next-step mode: a game that ended (or was cut at `max_plies`)
starts again at the next step, whose id for it is not read. An id that is not legal
raises IllegalActionError, or with `illegal_reward=R` ends its game where it stands, the
player to move getting R (the others 0).
"""

from __future__ import annotations

import ctypes
import sys
import threading
from typing import TYPE_CHECKING, Any, NoReturn

from interpreter.adapters import game_length
from interpreter.runtime.action_ids import ActionSpace
from interpreter.runtime.actions import Shape
from interpreter.runtime.game import Game, IllegalActionError
from interpreter.runtime.observation import (CHAIN_AT, COUNTS, EQUALS, MASK, NOTHING, ROUTE, VALUE,
                                              Observer, numpy)
from interpreter.search.analysis import SplitMix

if TYPE_CHECKING:
    import numpy as np

_ILLEGAL = -5  # vector.c's RC_ERR_ILLEGAL
_P = ctypes.c_void_p


def steps_in_c(game: Game) -> bool:
    """Whether the game's C can make its plies from their ids: the native back-end is
    built, and its batches' library too (built here on the first ask)."""
    from interpreter.native.build import NativeUnavailable  # noqa: PLC0415 - only with C

    if game.native is None:
        return False
    try:
        game.native.vector
    except NativeUnavailable:
        return False
    return True


class VectorGames:
    """`num_envs` games of `game`: `reset()` and `step(ids)` fill `observations` (float32,
    (num_envs, *observer.shape)), `masks` (int8, (num_envs, ids)), `rewards` (float32, each
    player's return on the step a game ended), `terminated`, `truncated` (bool) and
    `to_move`. `native` says whether steps run in C."""

    def __init__(self, game: Game, num_envs: int, *, perspective: str = "mover", grid: bool = False,
                 max_plies: int | None = None, native: bool | None = None,
                 illegal_reward: float | None = None) -> None:
        np = numpy()
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, found {num_envs}")
        self.game, self.num_envs = game, num_envs
        self.space = ActionSpace(game)
        self.observer = Observer(game, perspective, grid)
        self.max_plies = game_length(game.ruleset) if max_plies is None else max_plies
        self.illegal_reward = illegal_reward
        can = steps_in_c(game)
        if native and not can:
            raise ValueError(f"{game.title}: no native vectorised games here (the native back-end is not built)")
        self.native = can if native is None else native
        n, players = num_envs, len(game.players)
        self.observations = np.zeros((n, *self.observer.shape), np.float32)
        self.masks = np.zeros((n, self.space.size), np.int8)
        self.rewards = np.zeros((n, players), np.float32)
        self.terminated = np.zeros(n, np.bool_)
        self.truncated = np.zeros(n, np.bool_)
        self.plies = np.zeros(n, np.int64)
        self._engine = _Native(self) if self.native else _Python(self)

    @property
    def to_move(self) -> "np.ndarray":
        """Whose turn it is in each game (a player's index)."""
        return self._engine.to_move()

    def reset(self) -> None:
        """Every game at its start."""
        self.rewards[:] = 0
        self.terminated[:] = self.truncated[:] = False
        self.plies[:] = 0
        self._engine.reset()

    def step(self, ids: Any) -> None:
        """One ply in each game, `ids[i]` in game i (read only where the game goes on);
        IllegalActionError naming the first game whose id is not legal there."""
        np = numpy()
        ids = np.ascontiguousarray(ids, dtype=np.int64).reshape(self.num_envs)
        restart = self.terminated | self.truncated
        if self.illegal_reward is None:
            out = np.flatnonzero(~restart & ((ids < 0) | (ids >= self.space.size)))
            if len(out):
                i = int(out[0])
                raise IllegalActionError(f"game {i}: action id {ids[i]} is out of range "
                                         f"0..{self.space.size - 1}")
        self._engine.step(ids, restart)

    def states(self) -> list[tuple[int, ...]]:
        """Each game's state, as the Game's tuples."""
        return self._engine.states()

    def prefixes(self) -> list[tuple[int, ...]]:
        """Each game's chain begun: the ids of its hops so far (empty between plies)."""
        return self._engine.prefixes()

    def random_ids(self, seed: int) -> "np.ndarray":
        """A uniformly random legal id in each game (-1 in a game over), drawn from `seed`:
        random play without a pass over the masks, which is most of its cost when a game
        has many ids. The same ids for the same seed, in C or in Python."""
        return self._engine.random_ids(seed & (1 << 64) - 1)


class _Python:
    """The batch a game at a time through Game, ActionSpace and Observer."""

    def __init__(self, v: VectorGames) -> None:
        self.v, self.game = v, v.game
        self._states = [self.game.initial_state()] * v.num_envs
        self._prefix: list[tuple[int, ...]] = [()] * v.num_envs

    def to_move(self) -> "np.ndarray":
        return numpy().array([self.game.to_move(s) for s in self._states], numpy().int64)

    def states(self) -> list[tuple[int, ...]]:
        return list(self._states)

    def prefixes(self) -> list[tuple[int, ...]]:
        return list(self._prefix)

    def random_ids(self, seed: int) -> "np.ndarray":
        """As vector.c's rc_vec_random: the same generator, the legal ids in the Game's order."""
        v, out = self.v, []
        for i, (s, prefix) in enumerate(zip(self._states, self._prefix)):
            x = SplitMix(seed, i)
            if prefix or v.space.hops:  # a chain's hops: any legal next id
                ids = v.space.legal_ids(s, prefix)
                out.append(ids[x.next() % len(ids)] if ids else -1)
                continue
            actions = self.game.legal_actions(s)
            out.append(v.space.encode(s, actions[x.next() % len(actions)])[0] if actions else -1)
        return numpy().array(out, numpy().int64)

    def _show(self, i: int) -> None:
        v, s, prefix = self.v, self._states[i], self._prefix[i]
        v.masks[i] = 0
        v.masks[i, v.space.legal_ids(s, prefix)] = 1
        v.observations[i] = v.observer.tensor(s, route=v.space.route(prefix) if prefix else ())

    def reset(self) -> None:
        start = self.game.initial_state()
        for i in range(self.v.num_envs):
            self._states[i], self._prefix[i] = start, ()
            self._show(i)

    def step(self, ids: "np.ndarray", restart: "np.ndarray") -> None:
        v, game = self.v, self.game
        for i in range(v.num_envs):
            v.rewards[i] = 0
            if restart[i]:
                self._states[i], self._prefix[i] = game.initial_state(), ()
                v.plies[i], v.terminated[i], v.truncated[i] = 0, False, False
            else:
                try:
                    state, prefix = v.space.apply_id(self._states[i], self._prefix[i], int(ids[i]))
                except IllegalActionError as e:
                    if v.illegal_reward is None:
                        raise IllegalActionError(f"game {i}: {e}") from None
                    v.rewards[i, game.to_move(self._states[i])] = v.illegal_reward
                    v.terminated[i], v.truncated[i] = True, False
                    self._show(i)
                    v.masks[i] = 0
                    continue
                self._states[i], self._prefix[i] = state, prefix
                if not prefix:
                    v.plies[i] += 1
                    out = game.outcome(state)
                    if out is not None:
                        v.rewards[i] = out.returns(len(game.players))
                    v.terminated[i] = out is not None
                    v.truncated[i] = out is None and 0 < v.max_plies <= v.plies[i]
            self._show(i)


class _Native:
    """The batch in C (native/vector.c's rc_vec_*), its states as flat arrays and, where
    plies are chains of hops, each game's chain begun (`pre`, `plen`)."""

    def __init__(self, v: VectorGames) -> None:
        np = numpy()
        self.v = v
        lib = v.game.native
        self.lib = lib
        for name, res, args in (("rc_vec_new", _P, [_P, ctypes.c_int, _P, ctypes.c_int, _P, ctypes.c_int,
                                                    ctypes.c_int]),
                                ("rc_vec_free", None, [_P]),
                                ("rc_vec_observe", ctypes.c_int, [_P, ctypes.c_int, _P, _P, _P, _P, _P]),
                                ("rc_vec_random", ctypes.c_int, [_P, ctypes.c_int, _P, _P, _P, ctypes.c_uint64,
                                                                 _P]),
                                ("rc_vec_step", ctypes.c_int, [_P, ctypes.c_int, _P, _P, _P, _P, _P,
                                                               ctypes.c_int64, _P, _P, ctypes.c_int,
                                                               ctypes.c_float, _P, _P, _P, _P, _P, _P])):
            f = getattr(lib.vector, name)
            f.restype, f.argtypes = res, args
        enc, k = _encoding(v.game, v.space)
        program = _program(v.observer, lib)
        pos, plane = _positions(v.observer)
        self._tables = (enc, program, pos)  # kept alive while the C holds copies anyway
        self.handle = lib.vector.rc_vec_new(enc.ctypes.data, k, program.ctypes.data, len(v.observer.planes),
                                            pos.ctypes.data, plane, v.space.size)
        if not self.handle:
            raise MemoryError("out of memory for the vectorised games' tables")
        self.initial = np.frombuffer(lib.flat(v.game.initial_state()), np.uint64).copy()
        self.flat = np.zeros((v.num_envs, lib.state_len), np.uint64)
        # a chain begun: up to a hop a cell (each hop removes a piece), and how many
        self.pre = np.zeros((v.num_envs, v.space.cells), np.int64) if v.space.hops else None
        self.plen = np.zeros(v.num_envs, np.int32) if v.space.hops else None
        self._chains = (None, None) if self.pre is None else (self.pre.ctypes.data, self.plen.ctypes.data)
        self._player = lib.nc * lib.words + lib.int_slots.index(v.game.layout.P)
        self._bad = ctypes.c_int32(-1)

    def __del__(self) -> None:
        handle, self.handle = getattr(self, "handle", None), None
        if handle:
            self.lib.vector.rc_vec_free(handle)

    def to_move(self) -> "np.ndarray":
        return self.flat[:, self._player].astype(numpy().int64)

    def states(self) -> list[tuple[int, ...]]:
        return [self.lib.unflat((ctypes.c_uint64 * self.lib.state_len)(*row)) for row in self.flat.tolist()]

    def prefixes(self) -> list[tuple[int, ...]]:
        if self.pre is None:
            return [()] * self.v.num_envs
        return [tuple(row[:n]) for row, n in zip(self.pre.tolist(), self.plen.tolist())]

    def random_ids(self, seed: int) -> "np.ndarray":
        out = numpy().zeros(self.v.num_envs, numpy().int64)
        self._check(self.lib.vector.rc_vec_random(self.handle, self.v.num_envs, self.flat.ctypes.data,
                                                  *self._chains, seed, out.ctypes.data))
        return out

    def reset(self) -> None:
        v = self.v
        self.flat[:] = self.initial
        if self.plen is not None:
            self.plen[:] = 0
        self._check(self.lib.vector.rc_vec_observe(self.handle, v.num_envs, self.flat.ctypes.data, *self._chains,
                                                   v.masks.ctypes.data, v.observations.ctypes.data))

    def step(self, ids: "np.ndarray", restart: "np.ndarray") -> None:
        v = self.v
        restart = restart.astype(numpy().uint8)
        e = self.lib.vector.rc_vec_step(self.handle, v.num_envs, self.flat.ctypes.data, *self._chains,
                                        ids.ctypes.data, v.plies.ctypes.data, v.max_plies, self.initial.ctypes.data,
                                        restart.ctypes.data, v.illegal_reward is not None,
                                        v.illegal_reward or 0.0, v.rewards.ctypes.data, v.terminated.ctypes.data,
                                        v.truncated.ctypes.data, v.masks.ctypes.data, v.observations.ctypes.data,
                                        ctypes.byref(self._bad))
        if e == _ILLEGAL:
            i = self._bad.value
            ids_made = self.prefixes()[i] + (int(ids[i]),)
            raise IllegalActionError(f"game {i}: {self.v.space._illegal(self.states()[i], ids_made)}")
        if e:
            i = self._bad.value
            rules_error(self.v.space, e, [(self.states()[i], self.prefixes()[i], int(ids[i]))])

    def _check(self, e: int) -> None:
        """The rules' own error behind the C's error code `e`, found in one of the games."""
        if e:
            rules_error(self.v.space, e, [(s, p, None) for s, p in zip(self.states(), self.prefixes())])


def rules_error(space: ActionSpace, e: int, games: list[tuple[tuple[int, ...], tuple[int, ...], int | None]]) -> NoReturn:
    """Raise the error behind the C's error code `e` (a chain search past its budget, a
    variable out of its range) as the rules word it: each of `games` (a state, its chain
    begun, and the id made there or None) made again in Python, which raises it; a
    NativeError if none does (the C ran out of memory)."""
    for state, prefix, action in games:
        space.legal_ids(state, prefix)
        if action is not None:
            try:
                space.apply_id(state, prefix, action)
            except IllegalActionError:  # (the ply was made: the next position's ids failed)
                pass
    from interpreter.native.library import ERRORS, NativeError
    raise NativeError(ERRORS.get(e, f"error {e}"))


class OneGame:
    """The batch's C on one game at a time (vector.c's rc_one_legal, rc_one_step and
    rc_vec_observe): for an adapter that keeps many states apart, as OpenSpiel's clones.
    A state is the bytes of its flat array, immutable, so a clone shares it; a chain begun
    is the tuple of its hops' ids. Only where the native back-end is built."""

    def __init__(self, game: Game, grid: bool = False) -> None:
        np = numpy()
        self._vec = VectorGames(game, 1, grid=grid, max_plies=0, native=True)  # its handle and tables
        self.grid = grid
        lib = game.native
        self._lib, self._c, self._handle = lib, lib.vector, self._vec._engine.handle
        u64, i64 = ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_int64)
        for name, res, args in (("rc_one_legal", ctypes.c_int, [_P, ctypes.c_char_p, i64, ctypes.c_int, i64]),
                                ("rc_one_step", ctypes.c_int, [_P, ctypes.c_char_p, i64, ctypes.c_int, u64,
                                                               ctypes.c_int64])):
            f = getattr(self._c, name)
            f.restype, f.argtypes = res, args
        cells = self._vec.space.cells
        self._ids = (ctypes.c_int64 * self._vec.space.size)()
        self._pre = (ctypes.c_int64 * cells)()
        self._plen = (ctypes.c_int32 * 1)()
        self._out = (ctypes.c_uint64 * lib.state_len)()
        self._obs = np.zeros(self._vec.observer.shape, np.float32)
        self._player = 8 * self._vec._engine._player
        self._initial = self._vec._engine.initial.tobytes()
        self._lock = threading.Lock()  # for the scratch arrays

    def initial(self) -> bytes:
        return self._initial

    def to_move(self, flat: bytes) -> int:
        return int.from_bytes(flat[self._player:self._player + 8], sys.byteorder)

    def state(self, flat: bytes) -> tuple[int, ...]:
        """The Game's state of a flat array."""
        return self._lib.unflat((ctypes.c_uint64 * self._lib.state_len).from_buffer_copy(flat))

    def _chain(self, prefix: tuple[int, ...]) -> int:
        """The chain begun into the scratch array (the lock held): its length."""
        self._pre[:len(prefix)] = prefix
        self._plen[0] = len(prefix)
        return len(prefix)

    def legal(self, flat: bytes, prefix: tuple[int, ...] = ()) -> list[int]:
        """The legal ids (the next hops of a chain begun), ascending."""
        with self._lock:
            n = self._c.rc_one_legal(self._handle, flat, self._pre, self._chain(prefix), self._ids)
            if n < 0:
                rules_error(self._vec.space, n, [(self.state(flat), prefix, None)])
            return self._ids[:n]

    def observe(self, flat: bytes, prefix: tuple[int, ...] = ()) -> "np.ndarray":
        """The observation tensor, seen by the player to move (a new array)."""
        with self._lock:
            self._chain(prefix)
            e = self._c.rc_vec_observe(self._handle, 1, flat, ctypes.addressof(self._pre),
                                       ctypes.addressof(self._plen), None, self._obs.ctypes.data)
            if e:
                rules_error(self._vec.space, e, [(self.state(flat), prefix, None)])
            return self._obs.copy()

    def apply(self, flat: bytes, prefix: tuple[int, ...], action: int) -> tuple[bytes, tuple[int, ...], bool]:
        """The id `action` made: the state after it and the chain begun (the same state and
        a longer chain while a chain goes on), and whether the game ended there;
        IllegalActionError if no legal ply goes on with it (ActionSpace's message)."""
        with self._lock:
            e = self._c.rc_one_step(self._handle, flat, self._pre, self._chain(prefix), self._out, action)
            if e == _ILLEGAL:
                self._vec.space.decode(self.state(flat), prefix + (action,))  # raises, saying why
            if e < 0:
                rules_error(self._vec.space, e, [(self.state(flat), prefix, action)])
            if e == 2:
                return flat, prefix + (action,), False
            return bytes(self._out), (), e == 1


def _encoding(game: Game, space: ActionSpace) -> tuple["np.ndarray", int]:
    """vector.c's `enc`: per rule code, base, m0, m1, m2, hops and map0 (see vector.c)."""
    np = numpy()
    n = space.cells
    k = max([len(game.ruleset.types)] + [len(s.directions) for s in space.segments] + [1])
    enc = np.zeros((len(game.rule_infos), 5 + k), np.int64)
    enc[:, 0] = -1
    for rule in space.rules:
        seg = space._segment_of[rule.code]
        shape, w = seg.shape, seg.width
        m = {Shape.MOVE: (n * n, n, 1), Shape.PLACE: (n, 1, 0), Shape.PLACEMENT: (w, 1, 0),
             Shape.WIDE_PLACE: (w, 1, 0), Shape.PUSH: (n * n, n, 1), Shape.PASS: (0, 0, 0),
             Shape.CHAIN: (2 * n * n, 2 * n, 2)}[shape]
        enc[rule.code, :5] = (seg.start, *m, seg.size if shape is Shape.CHAIN else 0)
        if shape is Shape.PUSH:  # its first integer is a direction, not a piece type
            enc[rule.code, 5:5 + len(seg.directions)] = range(len(seg.directions))
            continue
        for i, t in enumerate(space._pieces[rule.code]):
            enc[rule.code, 5 + t] = i
    return enc, k


def _program(observer: Observer, lib: Any) -> "np.ndarray":
    """vector.c's `obs`: the Observer's program in the C state's slot numbers."""
    np = numpy()
    cell = {slot: k for k, slot in enumerate(lib.cell_slots)}
    ints = {slot: j for j, slot in enumerate(lib.int_slots)}
    rows = []
    for ops in observer.program:
        for op, slot, value in ops:
            if op == MASK:
                rows.append((op, cell[slot], 0))
            elif op in (EQUALS, VALUE, COUNTS):
                rows.append((op, ints[slot], value))
            elif op in (NOTHING, ROUTE, CHAIN_AT):
                rows.append((op, 0, 0))
            else:
                raise ValueError(f"no native form for the observation op {op}")
    return np.array(rows or [(0, 0, 0)], np.int64)


def _positions(observer: Observer) -> tuple["np.ndarray", int]:
    """Each cell's place in a plane, and a plane's size (a grid's, or the cells')."""
    np = numpy()
    n = observer.game.board.size
    if not observer.grid:
        return np.arange(n, dtype=np.int64), n
    height, width = observer.grid_shape
    return np.array([r * width + c for r, c in observer.coordinates], np.int64), height * width
