"""Exact solving: every position reachable from a start, then retrograde analysis.

Values follow GamesmanClassic's convention, from the point of view of the player to move:
`win`, `lose` or `draw` (infinite play under perfect play, or a draw rule). Remoteness is the
number of plies to the end under perfect play: the winner takes the shortest way, the loser
the longest. Draws have no remoteness (None).

Storage is compact: a position is packed into one integer (`Codec`), reduced to its
canonical form under the board's symmetries when asked (`symmetry.Canonicalizer`), and
the graph is kept as arrays of 32-bit indices (children and parents in CSR form), values
in a bytearray, remoteness in a 32-bit array. The dict from key to index lives only while
positions are enumerated; a finished `Solution` holds sorted keys and answers by binary
search.

Solution files (`Solution.save` / `Solution.load`) are plain binary, little-endian:

    8 bytes   magic b"RCSOLVE1"
    4 bytes   header length H (unsigned)
    H bytes   header, JSON in UTF-8: format, title, players, fingerprint (SHA-256 of the
              ruleset's source texts and state layout), root (the start position's text),
              positions N, key_bytes K, codec (slot widths and biases), symmetries (the
              cell permutations used), seconds
    N * K     keys, ascending, each K bytes unsigned
    N         values, one byte each: 1 win, 2 lose, 3 draw (for the player to move)
    N * 4     remoteness, unsigned 32-bit (0 for draws)
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from array import array
from bisect import bisect_left
from dataclasses import dataclass
from typing import NamedTuple, TextIO

from ..game import Action, Game, State
from .symmetry import Canonicalizer, Perm, board_symmetries

WIN, LOSE, DRAW = 1, 2, 3
VALUE_NAMES = {WIN: "win", LOSE: "lose", DRAW: "draw"}
MAGIC = b"RCSOLVE1"
FORMAT = 1
VAR_BITS = 16  # variables and other counters: -32768..32767


class SolveError(Exception):
    """A solve that cannot be done (too many positions, a state that cannot be packed)."""


class Value(NamedTuple):
    """A position's value for the player to move, and its remoteness (None for a draw)."""

    value: str
    remoteness: int | None


class PlyValue(NamedTuple):
    """One legal ply with its value for the player making it.

    `remoteness` counts plies from the position the ply is made in (the ply included), so
    the best plies carry the position's own value and remoteness.
    """

    action: Action
    text: str
    value: str
    remoteness: int | None


def _uint32_array(n: int = 0) -> array:
    code = "I" if array("I").itemsize == 4 else "L"
    return array(code, bytes(4 * n)) if n else array(code)


class Codec:
    """Packs a state tuple into one non-negative int, the piece masks in the low bits.

    Masks take one bit per cell; the player to move, the phase and the outcome take just
    the bits they need; every other slot (variables, reserves, ...) takes VAR_BITS bits,
    biased so that small negative values fit too.
    """

    def __init__(self, game: Game):
        L = game.layout
        n = game.board.size
        rs = game.ruleset
        phases = len(rs.first_turn or []) + len(rs.turn)
        players = len(game.players)
        self.length = L.length
        self.types = L.types
        self.cells = n
        self.slots: list[tuple[int, int, int, int]] = []  # (slot, shift, bias, width)
        shift = L.types * n
        for i in range(L.types, L.length):
            if i == L.P:
                width, bias = max(1, (players - 1).bit_length()), 0
            elif i == L.PH:
                width, bias = max(1, (phases - 1).bit_length()), 0
            elif i == L.OUT:
                width, bias = (players + 1).bit_length(), 1
            else:
                width, bias = VAR_BITS, 1 << (VAR_BITS - 1)
            self.slots.append((i, shift, bias, width))
            shift += width
        self.bits = shift
        self.key_bytes = (shift + 7) // 8
        self._mask_shifts = [(t, t * n) for t in range(L.types)]
        self._limits = [(i, sh, bias, (1 << w) - 1) for i, sh, bias, w in self.slots]

    def pack(self, state: State) -> int:
        key = 0
        for t, sh in self._mask_shifts:
            key |= state[t] << sh
        for i, sh, bias, lim in self._limits:
            v = state[i] + bias
            if v < 0 or v > lim:
                raise SolveError(f"slot {i} of the state holds {state[i]}, outside what a "
                                 f"solution can store")
            key |= v << sh
        return key

    def unpack(self, key: int) -> State:
        n = self.cells
        full = (1 << n) - 1
        out = [0] * self.length
        for t, sh in self._mask_shifts:
            out[t] = (key >> sh) & full
        for i, sh, bias, lim in self._limits:
            out[i] = ((key >> sh) & lim) - bias
        return tuple(out)

    def describe(self) -> dict:
        return {"types": self.types, "cells": self.cells, "length": self.length,
                "slots": [list(s) for s in self.slots]}


def fingerprint(game: Game) -> str:
    """A digest of the ruleset's source texts and state layout: a solution fits this game."""
    h = hashlib.sha256()
    for text in sorted(getattr(game.ruleset, "sources", {}).values()):
        h.update(text.encode("utf-8"))
        h.update(b"\0")
    h.update(json.dumps([game.title, game.players, game.board.size, game.layout.length,
                         game.layout.types]).encode("utf-8"))
    return h.hexdigest()


class Progress:
    """Throttled progress lines on stderr, shown only once a solve has run a while."""

    def __init__(self, enabled: bool, stream: TextIO | None = None, delay: float = 1.0):
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.begin = time.perf_counter()
        self.delay = delay
        self.last = 0.0
        self.tty = enabled and getattr(self.stream, "isatty", lambda: False)()
        self.shown = False

    def update(self, text: str) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.begin < self.delay or now - self.last < (0.5 if self.tty else 10.0):
            return
        self.last = now
        line = f"[{now - self.begin:7.1f} s] {text}"
        self.stream.write(("\r" + line + "\033[K") if self.tty else line + "\n")
        self.stream.flush()
        self.shown = True

    def done(self) -> None:
        if self.shown and self.tty:
            self.stream.write("\n")
            self.stream.flush()


@dataclass
class SolveStats:
    positions: int
    edges: int
    terminal: int
    symmetries: int
    enumerate_seconds: float
    retrograde_seconds: float
    levels: int

    @property
    def seconds(self) -> float:
        return self.enumerate_seconds + self.retrograde_seconds

    @property
    def positions_per_second(self) -> float:
        return self.positions / self.seconds if self.seconds > 0 else 0.0


@dataclass
class Solution:
    """The values of every position reachable from `root`; lookups by binary search."""

    game: Game
    codec: Codec
    canon: Canonicalizer | None
    keys: "array | list[int]"  # sorted canonical keys
    values: bytearray
    remoteness: array
    root: State
    stats: SolveStats | None = None
    fingerprint: str = ""

    # ---------------------------------------------------------------- lookups
    def __len__(self) -> int:
        return len(self.values)

    def _index(self, state: State) -> int:
        key = self.codec.pack(state)
        if self.canon is not None:
            key = self.canon.canonical(key)
        i = bisect_left(self.keys, key)
        if i == len(self.keys) or self.keys[i] != key:
            raise KeyError("the position is not among those this solution holds: "
                           + self.game.state_to_text(state))
        return i

    def __contains__(self, state: State) -> bool:
        try:
            self._index(state)
        except (KeyError, SolveError):
            return False
        return True

    def lookup(self, state: State) -> Value:
        """The value and remoteness of `state` for its player to move (KeyError if absent)."""
        i = self._index(state)
        v = self.values[i]
        return Value(VALUE_NAMES[v], None if v == DRAW else self.remoteness[i])

    def value(self, state: State) -> str:
        return self.lookup(state).value

    def analyze(self, state: State) -> list[PlyValue]:
        """Every legal ply of `state` with its value for the player making it."""
        game = self.game
        me = game.to_move(state)
        out = []
        for a in game.legal_actions(state):
            child = game.apply(state, a)
            v, r = self.lookup(child)
            if game.to_move(child) != me and v != "draw":
                v = "win" if v == "lose" else "lose"
            out.append(PlyValue(a, game.action_to_text(state, a), v, None if r is None else r + 1))
        return out

    def best_actions(self, state: State) -> list[Action]:
        """The optimal plies: quickest win, else any draw, else the longest loss."""
        plies = self.analyze(state)
        for want in ("win", "draw", "lose"):
            group = [p for p in plies if p.value == want]
            if group:
                if want == "draw":
                    return [p.action for p in group]
                pick = min if want == "win" else max
                best = pick(p.remoteness for p in group)
                return [p.action for p in group if p.remoteness == best]
        return []

    def counts(self) -> dict[str, int]:
        """How many stored positions are wins, losses and draws for the player to move."""
        return {name: self.values.count(code) for code, name in VALUE_NAMES.items()}

    # ---------------------------------------------------------------- files
    def save(self, path: str) -> None:
        """Write the documented binary format (see this module's docstring)."""
        header = {
            "format": FORMAT,
            "title": self.game.title,
            "players": self.game.players,
            "fingerprint": self.fingerprint or fingerprint(self.game),
            "root": self.game.state_to_text(self.root),
            "positions": len(self.values),
            "key_bytes": self.codec.key_bytes,
            "codec": self.codec.describe(),
            "symmetries": [list(p) for p in (self.canon.perms if self.canon else [])],
            "seconds": round(self.stats.seconds, 3) if self.stats else None,
        }
        blob = json.dumps(header).encode("utf-8")
        kb = self.codec.key_bytes
        with open(path, "wb") as f:
            f.write(MAGIC)
            f.write(len(blob).to_bytes(4, "little"))
            f.write(blob)
            if kb == 8 and isinstance(self.keys, array):
                f.write(_little(self.keys))
            else:
                f.write(b"".join(k.to_bytes(kb, "little") for k in self.keys))
            f.write(bytes(self.values))
            f.write(_little(self.remoteness))

    @classmethod
    def load(cls, path: str, game: Game) -> "Solution":
        """Read a solution file written for `game` (ValueError if it is not one)."""
        with open(path, "rb") as f:
            data = f.read()
        if data[:8] != MAGIC:
            raise ValueError(f"{path}: not a rulecraft solution file")
        hlen = int.from_bytes(data[8:12], "little")
        try:
            header = json.loads(data[12:12 + hlen].decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ValueError(f"{path}: damaged header ({e})") from None
        if header.get("format") != FORMAT:
            raise ValueError(f"{path}: solution format {header.get('format')} is not {FORMAT}")
        if header.get("fingerprint") != fingerprint(game):
            raise ValueError(f"{path}: this solution was made for another ruleset "
                             f"({header.get('title')!r})")
        codec = Codec(game)
        n, kb = int(header["positions"]), int(header["key_bytes"])
        if kb != codec.key_bytes or header.get("codec") != codec.describe():
            raise ValueError(f"{path}: the state layout differs from this game's")
        pos = 12 + hlen
        if len(data) != pos + n * (kb + 5):
            raise ValueError(f"{path}: truncated or damaged ({len(data)} bytes)")
        raw = data[pos:pos + n * kb]
        if kb == 8:
            keys: array | list[int] = array("Q")
            keys.frombytes(raw)
            if sys.byteorder == "big":
                keys.byteswap()
        else:
            keys = [int.from_bytes(raw[i:i + kb], "little") for i in range(0, n * kb, kb)]
        pos += n * kb
        values = bytearray(data[pos:pos + n])
        pos += n
        rem = _uint32_array()
        rem.frombytes(data[pos:pos + 4 * n])
        if sys.byteorder == "big":
            rem.byteswap()
        perms = [tuple(p) for p in header.get("symmetries", [])]
        canon = Canonicalizer(perms, codec.types, codec.cells) if len(perms) > 1 else None
        root = game.state_from_text(header["root"])
        return cls(game, codec, canon, keys, values, rem, root, None, header["fingerprint"])


def _little(arr: array) -> bytes:
    if sys.byteorder == "big":
        arr = array(arr.typecode, arr)
        arr.byteswap()
    return arr.tobytes()


def solve(game: Game, start: State | None = None, *, symmetry: bool | list[Perm] = False,
          progress: bool = False, max_positions: int | None = None,
          stream: TextIO | None = None) -> Solution:
    """Solve every position reachable from `start` (the initial position by default).

    `symmetry`: False, True (the board's symmetries, see symmetry.py) or a list of cell
    permutations. `max_positions`: raise SolveError past this many positions.
    `progress`: report on stderr (or `stream`) once the solve has run a second.
    """
    if len(game.players) != 2:
        raise SolveError("the solver handles two-player games")
    start = game.initial_state() if start is None else start
    codec = Codec(game)
    perms: list[Perm] = []
    if symmetry is True:
        perms = board_symmetries(game, start=start)
    elif symmetry:
        perms = list(symmetry)
    canon = Canonicalizer(perms, codec.types, codec.cells) if len(perms) > 1 else None
    prog = Progress(progress, stream)

    # ---- enumeration, breadth first: node i's children are edges[offsets[i]:offsets[i+1]]
    t0 = time.perf_counter()
    pack, unpack = codec.pack, codec.unpack
    canonical = canon.canonical if canon is not None else (lambda k: k)
    legal, apply = game.legal_actions, game.apply
    to_move, is_terminal, winner, is_draw = game.to_move, game.is_terminal, game.winner, game.is_draw
    root_key = canonical(pack(start))
    index: dict[int, int] = {root_key: 0}
    keys: list[int] = [root_key]
    movers = bytearray()
    status = bytearray()  # 0 going on, else WIN / LOSE / DRAW for the player to move
    offsets = _uint32_array()
    offsets.append(0)
    edges = _uint32_array()
    get = index.get
    i = 0
    while i < len(keys):
        s = unpack(keys[i])
        me = to_move(s)
        movers.append(me)
        if is_terminal(s):
            w = winner(s)
            status.append(DRAW if is_draw(s) else WIN if w == me else LOSE)
        else:
            status.append(0)
            kids = {canonical(pack(apply(s, a))) for a in legal(s)}
            for ck in kids:
                j = get(ck)
                if j is None:
                    j = len(keys)
                    index[ck] = j
                    keys.append(ck)
                edges.append(j)
            if max_positions is not None and len(keys) > max_positions:
                raise SolveError(f"more than {max_positions:,} positions are reachable")
        offsets.append(len(edges))
        i += 1
        if not i & 4095:
            prog.update(f"enumerating: {i:,} expanded, {len(keys):,} found")
    del index
    n = len(keys)
    t1 = time.perf_counter()

    # ---- parents in CSR form
    pcount = _uint32_array(n + 1)
    for j in edges:
        pcount[j + 1] += 1
    for k in range(n):
        pcount[k + 1] += pcount[k]
    fill = array(pcount.typecode, pcount)
    parents = _uint32_array(len(edges))
    for p in range(n):
        for k in range(offsets[p], offsets[p + 1]):
            c = edges[k]
            parents[fill[c]] = p
            fill[c] += 1
    del fill

    # ---- retrograde, level by level, so that the first win found is the quickest and the
    # last child to be refuted gives the longest loss
    values = bytearray(n)
    rem = _uint32_array(n)
    remaining = _uint32_array()
    remaining.extend(offsets[k + 1] - offsets[k] for k in range(n))
    frontier = []
    terminal = 0
    for k in range(n):
        st = status[k]
        if st:
            terminal += 1
            values[k] = st
            if st != DRAW:
                frontier.append(k)
        elif remaining[k] == 0:  # no legal ply and no end rule fired: the mover loses
            values[k] = LOSE
            frontier.append(k)
    level = 0
    solved = len(frontier)
    while frontier:
        nxt = []
        r1 = level + 1
        for c in frontier:
            c_wins = values[c] == WIN
            mc = movers[c]
            for k in range(pcount[c], pcount[c + 1]):
                p = parents[k]
                if values[p]:
                    continue
                if c_wins == (movers[p] == mc):  # the parent's mover wins by moving to c
                    values[p] = WIN
                    rem[p] = r1
                    nxt.append(p)
                else:
                    left = remaining[p] - 1
                    remaining[p] = left
                    if not left:
                        values[p] = LOSE
                        rem[p] = r1
                        nxt.append(p)
        frontier = nxt
        solved += len(nxt)
        level += 1
        prog.update(f"retrograde: level {level}, {solved:,} of {n:,} decided")
    for k in range(n):
        if not values[k]:
            values[k] = DRAW
    t2 = time.perf_counter()
    prog.done()

    # ---- sorted keys for lookups by binary search
    order = sorted(range(n), key=keys.__getitem__)
    if codec.bits <= 64:
        skeys: array | list[int] = array("Q", (keys[k] for k in order))
    else:
        skeys = [keys[k] for k in order]
    svalues = bytearray(values[k] for k in order)
    srem = _uint32_array()
    srem.extend(rem[k] for k in order)
    stats = SolveStats(n, len(edges), terminal, len(perms) or 1, t1 - t0, t2 - t1, level)
    return Solution(game, codec, canon, skeys, svalues, srem, start, stats, fingerprint(game))


