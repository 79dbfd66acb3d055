"""The movement games of the library (rulesets/library), checked two independent ways.

Each game has a small model here, written in plain Python from the rules in the game's
comment block (not from rulecraft's output, and using nothing of the project): a state is
a board string and the player to move, `moves` lists the states after each legal ply and
`ended` says whether an end rule has decided the game. From the model come perft counts
(move sequences of 1..d plies, a finished game having none) and the solved value of the
start (memoised negamax, or retrograde analysis for games that can go round in circles),
compared with rulecraft's `perft` and `solve` on both back-ends. Published values are
asserted where there are some; each game's file cites them.

The default run takes some 7 s of CPU once the native libraries are built (building the 8
it uses costs some 17 s more, once: they are cached). The native back-end of the other
variants and the large solves are marked slow (`pytest -m slow
tests/test_library_movement.py`, some 3 minutes).
"""

from __future__ import annotations

import functools
import importlib.resources
import itertools
import os
import random
from collections import Counter, deque

import pytest

from interpreter.native import build as native_build
from interpreter.search.solution_file import DRAW, VALUE_NAMES
from interpreter.search.solver import solve
from rulecraft import load_game, perft

LIBRARY = str(importlib.resources.files("rulesets") / "library")

NO_CC = native_build.compiler() is None
NEEDS_CC = pytest.mark.skipif(NO_CC, reason="no C compiler")

# Building a game's native library costs about half a second of the compiler (cached
# afterwards), so the default run tries the native back-end on one game of each family
# (the same rules on other boards are variants of it) and leaves the others to the slow
# run. Its solver costs a few seconds more: the default run solves natively one game that
# ends (by captures), one that repeats (all plies undone) and one that repeats and ends.
NATIVE_DEFAULT = {"hexapawn", "breakthrough-3x4", "clobber-1x6", "toads-and-frogs-5",
                  "pong-hau-kii", "mu-torere", "dodgem", "konane-4x4"}
NATIVE_SOLVE_DEFAULT = {"breakthrough-3x4", "mu-torere", "dodgem"}


def cases(names, slow=(), native_default=NATIVE_DEFAULT):
    """(name, backend) for both back-ends, marked slow where they cost too much."""
    out = []
    for name in sorted(names):
        for backend in ("python", "native"):
            marks = [NEEDS_CC] if backend == "native" else []
            if name in slow or (backend == "native" and name not in native_default):
                marks.append(pytest.mark.slow)
            out.append(pytest.param(name, backend, marks=marks, id=f"{name}-{backend}"))
    return out


def path(name: str) -> str:
    return os.path.join(LIBRARY, name + ".game")


@functools.lru_cache(maxsize=None)
def game(name: str, backend: str):
    return load_game(path(name), backend=backend)




# ------------------------------------------------------------------ generic reference tools

def plies(model, s) -> list:
    """The states after each legal ply of `s`; none once an end rule has decided the game."""
    return [] if model.ended(s) is not None else model.moves(s)


def final_value(model, s) -> str:
    """The value, for the player to move, of a state without plies."""
    v = model.ended(s)
    return model.stuck if v is None else v


def ref_perft(model, depth: int) -> list[int]:
    memo: dict = {}

    def count(s, d: int) -> int:
        key = (s, d)
        if key not in memo:
            kids = plies(model, s)
            memo[key] = len(kids) if d == 1 else sum(count(c, d - 1) for c in kids)
        return memo[key]

    start = model.start()
    return [count(start, d) for d in range(1, depth + 1)]


def ref_negamax(model) -> tuple[str, int | None, dict]:
    """Value and remoteness of the start for the player to move, and those of every reachable
    state, by memoised negamax (for games that cannot repeat a position). The winner takes
    the shortest way, the loser the longest; a draw has no remoteness."""
    memo: dict = {}

    def value(s):
        if s in memo:
            return memo[s]
        kids = plies(model, s)
        if not kids:
            r = (final_value(model, s), 0)
        else:
            vals = [value(c) for c in kids]
            losing = [rem for v, rem in vals if v == "lose"]
            if losing:
                r = ("win", 1 + min(losing))
            elif any(v == "draw" for v, _ in vals):
                r = ("draw", None)
            else:
                r = ("lose", 1 + max(rem for _, rem in vals))
        memo[s] = r
        return r

    v, rem = value(model.start())
    return v, rem, memo


def ref_retrograde(model) -> tuple[str, int | None, dict]:
    """As ref_negamax, for games that can go round in circles: every reachable state, then
    values propagated back level by level from the finished games; what is left is a draw."""
    start = model.start()
    kids = {start: plies(model, start)}
    queue = deque([start])
    while queue:
        s = queue.popleft()
        for c in kids[s]:
            if c not in kids:
                kids[c] = plies(model, c)
                queue.append(c)
    parents: dict = {s: [] for s in kids}
    for s, cs in kids.items():
        for c in cs:
            parents[c].append(s)
    value: dict = {}
    rem: dict = {}
    left = {s: len(cs) for s, cs in kids.items()}
    levels = [[s for s, cs in kids.items() if not cs]]
    for s in levels[0]:
        value[s], rem[s] = final_value(model, s), 0
    r = 0
    while r < len(levels):
        for s in levels[r]:
            for p in parents[s]:
                if p in value:
                    continue
                if value[s] == "lose":
                    value[p], rem[p] = "win", r + 1
                else:
                    left[p] -= 1
                    if left[p]:
                        continue
                    value[p], rem[p] = "lose", r + 1
                if len(levels) == r + 1:
                    levels.append([])
                levels[r + 1].append(p)
        r += 1
    table = {s: (value[s], rem[s]) if s in value else ("draw", None) for s in kids}
    return table[start][0], table[start][1], table


def rc_perft(name: str, backend: str, depth: int) -> list[int]:
    g = game(name, backend)
    s = g.initial_state()
    return [perft(g, s, d) for d in range(1, depth + 1)]


def histogram(table: dict) -> Counter:
    """How many states have each (value, remoteness)."""
    return Counter(table.values())


def rc_solution(g) -> tuple[str, int | None, Counter]:
    """rulecraft's value and remoteness of the start, and the histogram of its solution."""
    sol = solve(g)
    v = sol.lookup(g.initial_state())
    hist = Counter((VALUE_NAMES[c], None if c == DRAW else r)
                   for c, r in zip(sol.values, sol.remoteness))
    assert sum(hist.values()) == len(sol)
    return v.value, v.remoteness, hist


def rc_solve(name: str, backend: str) -> tuple[str, int | None, Counter]:
    return rc_solution(game(name, backend))


def _put(b: str, changes: dict[int, str]) -> str:
    lst = list(b)
    for i, c in changes.items():
        lst[i] = c
    return "".join(lst)


# ------------------------------------------------------------------ the models

class PawnRace:
    """Hexapawn (diagonal steps only to capture) and Breakthrough (diagonal steps onto empty
    cells too). Cell x + w*y (x the file, y the rank from 0); 'W' goes north from the first
    `rows` ranks, 'B' south from the last; White moves first. A pawn on the far rank wins."""

    stuck = "lose"

    def __init__(self, w: int, h: int, rows: int, breakthrough: bool):
        self.w, self.h, self.rows, self.breakthrough = w, h, rows, breakthrough

    def start(self):
        w, h = self.w, self.h
        b = ["."] * (w * h)
        for y in range(self.rows):
            for x in range(w):
                b[y * w + x] = "W"
                b[(h - 1 - y) * w + x] = "B"
        return "".join(b), 0

    def ended(self, s):
        b, p = s
        if "W" in b[(self.h - 1) * self.w:]:
            winner = 0
        elif "B" in b[:self.w]:
            winner = 1
        else:
            return None
        return "win" if winner == p else "lose"

    def moves(self, s):
        b, p = s
        w, h = self.w, self.h
        me, foe, dy = ("W", "B", 1) if p == 0 else ("B", "W", -1)
        out = []
        for i, c in enumerate(b):
            if c != me:
                continue
            x, y = i % w, i // w
            ny = y + dy
            if not 0 <= ny < h:
                continue
            for dx in (-1, 0, 1):
                nx = x + dx
                if not 0 <= nx < w:
                    continue
                j = ny * w + nx
                t = b[j]
                if t == "." if dx == 0 else (t == foe or (self.breakthrough and t == ".")):
                    out.append((_put(b, {i: ".", j: me}), 1 - p))
        return out


class Clobber:
    """A full checkerboard, 'X' (Black) on a1 and the cells of even x + y, 'O' (White)
    elsewhere; White moves first; a stone moves onto an orthogonally adjacent enemy."""

    stuck = "lose"

    def __init__(self, w: int, h: int):
        self.w, self.h = w, h

    def start(self):
        return "".join("X" if (i % self.w + i // self.w) % 2 == 0 else "O"
                       for i in range(self.w * self.h)), 0

    def ended(self, s):
        return None

    def moves(self, s):
        b, p = s
        w, h = self.w, self.h
        me, foe = ("O", "X") if p == 0 else ("X", "O")
        out = []
        for i, c in enumerate(b):
            if c != me:
                continue
            x, y = i % w, i // w
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= nx < w and 0 <= ny < h and b[ny * w + nx] == foe:
                    out.append((_put(b, {i: ".", ny * w + nx: me}), 1 - p))
        return out


class ToadsAndFrogs:
    """A strip; toads ('T', moving first) go east, frogs ('F') west: a step onto an empty
    cell, or a jump over one enemy onto the empty cell beyond."""

    stuck = "lose"

    def __init__(self, strip: str):
        self.strip = strip

    def start(self):
        return self.strip, 0

    def ended(self, s):
        return None

    def moves(self, s):
        b, p = s
        me, foe, d = ("T", "F", 1) if p == 0 else ("F", "T", -1)
        out = []
        for i, c in enumerate(b):
            if c != me:
                continue
            j, k = i + d, i + 2 * d
            if 0 <= j < len(b) and b[j] == ".":
                out.append((_put(b, {i: ".", j: me}), 1 - p))
            elif 0 <= k < len(b) and b[j] == foe and b[k] == ".":
                out.append((_put(b, {i: ".", k: me}), 1 - p))
        return out


class PongHauKi:
    """Points 0 = a1, 1 = c1, 2 = a3, 3 = c3 (the corners) and 4 = b2 (the centre); every
    corner joined to the centre, and the sides a1-c1, a1-a3, c1-c3 (a3-c3 missing). Red
    ('R', moving first) on a1 and c1, Blue ('B') on a3 and c3."""

    stuck = "lose"
    EDGES = [(0, 4), (1, 4), (2, 4), (3, 4), (0, 1), (0, 2), (1, 3)]

    def __init__(self):
        self.nbrs = {i: set() for i in range(5)}
        for a, b in self.EDGES:
            self.nbrs[a].add(b)
            self.nbrs[b].add(a)

    def start(self):
        return "RRBB.", 0

    def ended(self, s):
        return None

    def moves(self, s):
        b, p = s
        me = "RB"[p]
        hole = b.index(".")
        return [(_put(b, {i: ".", hole: me}), 1 - p) for i in sorted(self.nbrs[hole]) if b[i] == me]


class MuTorere:
    """Kewai 0..7 around the circle (a1 b1 c1 c2 c3 b3 a3 a2 in the file), pūtahi 8. Black
    ('X', first) on a1 b1 c1 a2 (0, 1, 2, 7), White ('O') on the others. Along the circle to
    a neighbouring kewai, from the pūtahi to any kewai, into the pūtahi only from a kewai
    with an enemy neighbour on the circle."""

    stuck = "lose"

    def start(self):
        return "XXXOOOOX.", 0

    def ended(self, s):
        return None

    def moves(self, s):
        b, p = s
        me, foe = ("X", "O") if p == 0 else ("O", "X")
        hole = b.index(".")
        out = []
        for i, c in enumerate(b):
            if c != me:
                continue
            if hole == 8:
                ok = b[(i - 1) % 8] == foe or b[(i + 1) % 8] == foe
            else:
                ok = i == 8 or (i - hole) % 8 in (1, 7)
            if ok:
                out.append((_put(b, {i: ".", hole: me}), 1 - p))
        return out

    @staticmethod
    def images(b: str) -> list[str]:
        """The 16 images of a board under the circle's rotations and reflections."""
        return ["".join(b[(r + (-k if flip else k)) % 8] for k in range(8)) + b[8]
                for r in range(8) for flip in (False, True)]


class Dodgem:
    """An n x n board (cell x + n*y); Blue ('B', first) on the west edge but a1, Red ('R')
    on the south edge but a1. Blue drives east, north or south, Red north, east or west,
    onto empty cells; a car on the far edge (Blue's east, Red's north) may leave the board.
    A player without cars has won; the player to move with no ply wins."""

    stuck = "win"

    def __init__(self, n: int):
        self.n = n

    def start(self):
        n = self.n
        b = ["."] * (n * n)
        for k in range(1, n):
            b[k * n] = "B"
            b[k] = "R"
        return "".join(b), 0

    def ended(self, s):
        b, p = s
        if "B" not in b:
            winner = 0
        elif "R" not in b:
            winner = 1
        else:
            return None
        return "win" if winner == p else "lose"

    def moves(self, s):
        b, p = s
        n = self.n
        me = "BR"[p]
        dirs = ((1, 0), (0, 1), (0, -1)) if p == 0 else ((0, 1), (1, 0), (-1, 0))
        out = []
        for i, c in enumerate(b):
            if c != me:
                continue
            x, y = i % n, i // n
            for dx, dy in dirs:
                nx, ny = x + dx, y + dy
                if 0 <= nx < n and 0 <= ny < n:
                    if b[ny * n + nx] == ".":
                        out.append((_put(b, {i: ".", ny * n + nx: me}), 1 - p))
                elif (dx, dy) == dirs[0]:  # forward, off the far edge
                    out.append((_put(b, {i: "."}), 1 - p))
        return out


class Konane:
    """An n x n checkerboard, 'X' (Black, first) on a1 and the cells of even x + y, 'O'
    elsewhere. Black first removes a stone of theirs from a corner or the four centre cells,
    White then one of theirs orthogonally next to the hole; after that a move is one or more
    jumps by one stone in one orthogonal direction, each over an enemy stone (removed) onto
    an empty cell."""

    stuck = "lose"

    def __init__(self, n: int):
        self.n = n
        m = n // 2
        self.opening = {0, n - 1, n * (n - 1), n * n - 1,
                        (m - 1) * n + m - 1, (m - 1) * n + m, m * n + m - 1, m * n + m}

    def start(self):
        n = self.n
        return "".join("X" if (i % n + i // n) % 2 == 0 else "O" for i in range(n * n)), 0

    def ended(self, s):
        return None

    def moves(self, s):
        b, p = s
        n = self.n
        me, foe = ("X", "O") if p == 0 else ("O", "X")
        empty = b.count(".")
        out = []
        if empty == 0:
            return [(_put(b, {i: "."}), 1 - p) for i in sorted(self.opening) if b[i] == me]
        if empty == 1:
            h = b.index(".")
            x, y = h % n, h // n
            for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if 0 <= nx < n and 0 <= ny < n and b[ny * n + nx] == me:
                    out.append((_put(b, {ny * n + nx: "."}), 1 - p))
            return out
        for i, c in enumerate(b):
            if c != me:
                continue
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                cur, board = i, b
                while True:
                    x, y = cur % n, cur // n
                    mx, my, lx, ly = x + dx, y + dy, x + 2 * dx, y + 2 * dy
                    if not (0 <= lx < n and 0 <= ly < n):
                        break
                    mid, land = my * n + mx, ly * n + lx
                    if board[mid] != foe or board[land] != ".":
                        break
                    board = _put(board, {cur: ".", mid: ".", land: me})
                    cur = land
                    out.append((board, 1 - p))
        return out


# ------------------------------------------------------------------ the games

MODELS = {
    "hexapawn": PawnRace(3, 3, 1, breakthrough=False),
    "octopawn": PawnRace(4, 4, 1, breakthrough=False),
    "breakthrough": PawnRace(8, 8, 2, breakthrough=True),
    "breakthrough-3x4": PawnRace(3, 4, 2, breakthrough=True),
    "breakthrough-4x4": PawnRace(4, 4, 2, breakthrough=True),
    "breakthrough-5x5": PawnRace(5, 5, 2, breakthrough=True),
    "clobber": Clobber(6, 5),
    "clobber-4x4": Clobber(4, 4),
    "clobber-1x6": Clobber(6, 1),
    "clobber-1x8": Clobber(8, 1),
    "toads-and-frogs": ToadsAndFrogs("TTT..FFF"),
    "toads-and-frogs-5": ToadsAndFrogs("TT.FF"),
    "pong-hau-kii": PongHauKi(),
    "mu-torere": MuTorere(),
    "dodgem": Dodgem(3),
    "dodgem-4x4": Dodgem(4),
    "dodgem-5x5": Dodgem(5),
    "konane": Konane(6),
    "konane-4x4": Konane(4),
}

# Perft depths: the Python back-end's and the native one's (deeper where it is cheap).
PERFT_DEPTHS = {
    "hexapawn": (8, 8),            # to the end of every game: depth 8 has none
    "octopawn": (8, 10),
    "breakthrough": (3, 4),
    "breakthrough-3x4": (8, 10),
    "breakthrough-4x4": (6, 8),
    "breakthrough-5x5": (4, 5),
    "clobber": (2, 3),
    "clobber-4x4": (4, 5),
    "clobber-1x6": (6, 6),
    "clobber-1x8": (8, 8),
    "toads-and-frogs": (17, 17),   # to the end of every game: none lasts 17 plies
    "toads-and-frogs-5": (6, 6),
    "pong-hau-kii": (16, 24),
    "mu-torere": (12, 16),
    "dodgem": (8, 10),
    "dodgem-4x4": (5, 6),
    "dodgem-5x5": (4, 5),
    "konane": (5, 6),
    "konane-4x4": (10, 10),
}


def test_every_movement_game_of_the_library_is_checked():
    # Each model's game is a file of the installed library, and this file checks them all.
    for name in MODELS:
        assert os.path.isfile(path(name)), name
    assert set(PERFT_DEPTHS) == set(MODELS)


@pytest.mark.parametrize("name,backend", cases(MODELS))
def test_perft_matches_the_reference(name, backend):
    depth = PERFT_DEPTHS[name][backend == "native"]
    assert rc_perft(name, backend, depth) == ref_perft(MODELS[name], depth)


# Some counts written out, which both sides must give: the model and the ruleset cannot
# drift together unnoticed.
KNOWN_PERFT = {
    "hexapawn": [3, 10, 28, 56, 70, 64, 20, 0],
    "toads-and-frogs": [1, 1, 2, 2, 2, 3, 3, 4, 6, 8, 9, 10, 9, 6, 6, 1, 0],
    "toads-and-frogs-5": [1, 1, 1, 1, 1, 0],           # Erickson's forced line, 5 plies
    "pong-hau-kii": [2, 2, 2, 4, 6, 10, 14, 12, 14, 26],  # the first three plies forced
    "breakthrough": [22, 484, 11132],
    "clobber": [49, 2116, 80063],
    "konane-4x4": [4, 12, 16, 52, 120, 376],           # 4 openings, 2 + 2 + 4 + 4 answers
}


@pytest.mark.parametrize("name", sorted(KNOWN_PERFT))
def test_perft_known_counts(name):
    want = KNOWN_PERFT[name]
    assert ref_perft(MODELS[name], len(want)) == want
    assert rc_perft(name, "python", len(want)) == want


# ------------------------------------------------------------------ solved values

# name: (value for the first player, remoteness); published where the game's file says so.
SOLVED = {
    "hexapawn": ("lose", 6),      # Gardner; Wikipedia: White loses in 3 moves
    "octopawn": ("win", 11),      # Wikipedia: a forced win for White
    "breakthrough-3x4": ("lose", 12),
    "breakthrough-4x4": ("lose", 14),  # Little Golem forum: a second-player win in 14 plies
    "clobber-4x4": ("win", 11),
    "clobber-1x6": ("lose", 4),   # Albert et al.: the one even alternating strip lost by the first player
    "clobber-1x8": ("win", 3),
    "toads-and-frogs": ("win", 15),
    "toads-and-frogs-5": ("win", 5),  # Erickson: Left moves first and wins, in 5 forced plies
    "pong-hau-kii": ("draw", None),   # Wikipedia: with perfect play the game never ends
    "mu-torere": ("draw", None),      # Ascher; Dekker: neither player can force a win
    "dodgem": ("win", 19),            # Winning Ways: a first-player win
    "dodgem-4x4": ("draw", None),     # desJardins: the game never ends with perfect play
    "konane-4x4": ("lose", 6),
}
# Millions of positions (breakthrough-4x4 3.2 M, clobber-4x4 0.6 M, dodgem-4x4 0.4 M): each
# takes the reference model and rulecraft's Python solver a minute or more.
SLOW_SOLVES = {"breakthrough-4x4", "clobber-4x4", "dodgem-4x4"}
LOOPY = {"pong-hau-kii", "mu-torere", "dodgem", "dodgem-4x4"}


@functools.lru_cache(maxsize=None)
def reference_solution(name):
    """The start's value and remoteness, and the histogram of every reachable state's."""
    model = MODELS[name]
    v, rem, table = (ref_retrograde if name in LOOPY else ref_negamax)(model)
    return v, rem, histogram(table)


@pytest.mark.parametrize("name,backend", cases(SOLVED, slow=SLOW_SOLVES, native_default=NATIVE_SOLVE_DEFAULT))
def test_solved_value_matches_the_reference(name, backend, native_calls):
    # The value and remoteness of the start, and how many reachable positions have each
    # value and remoteness (so the number of positions too, and every end rule's verdict).
    ref = reference_solution(name)
    assert ref[:2] == SOLVED[name]
    assert rc_solve(name, backend) == ref
    if backend == "native":
        # the native solver did it, not a fallback to Python
        assert native_calls == [sum(ref[2].values())]


def test_published_values():
    # The values the games' files cite, from the reference models alone.
    assert reference_solution("hexapawn")[:2] == ("lose", 6)   # 1.b2 axb2 2.cxb2 c2 3.a2 c1
    assert reference_solution("octopawn")[0] == "win"
    assert reference_solution("clobber-1x6")[0] == "lose"
    assert reference_solution("toads-and-frogs-5")[:2] == ("win", 5)
    assert reference_solution("pong-hau-kii")[0] == "draw"
    assert reference_solution("mu-torere")[0] == "draw"
    assert reference_solution("dodgem")[0] == "win"


@pytest.mark.slow
@NEEDS_CC
def test_dodgem_5x5_is_a_draw():
    # desJardins (1996): with four cars a side neither player can force a win. 164 million
    # positions, past the model here: the native solver's un-moves (a car driven off is
    # put back), about 2 minutes and half a gigabyte on two cores.
    from interpreter.search.solver import solve
    g = game("dodgem-5x5", "native")
    sol = solve(g, max_memory=8 << 30)
    assert sol.stats.unmoves
    assert sol.lookup(g.initial_state()) == ("draw", None)


def test_linear_clobber_strips():
    # Albert, Grossman, Nowakowski and Wolfe's conjecture (proved, arXiv:2509.08985): every
    # even-length alternating strip is a first-player win but the one of length 6. Each strip
    # here is a variant of clobber.game written on the fly, solved by rulecraft and the model.
    from rulecraft import load_game_from_text

    for n in range(2, 13, 2):
        text = (f'variant of "{path("clobber")}"\ngame "Linear Clobber (1 x {n})"\n'
                f'board square {n} x 1\nsetup board:\n  "{" ".join("XO" * (n // 2))}"\n')
        g = load_game_from_text(text, os.path.join(LIBRARY, f"strip-{n}.game"))
        v, rem, table = ref_negamax(Clobber(n, 1))
        assert rc_solution(g) == (v, rem, histogram(table))
        assert v == ("lose" if n == 6 else "win"), n


def test_mu_torere_position_counts():
    # Dekker's 86 game states: the reachable states up to the circle's 16 symmetries, 40
    # boards with either player to move and 6 boards where the player to move has lost.
    # Ascher's 92 inequivalent positions: all 630 boards make 46 classes, either player to move.
    model = MODELS["mu-torere"]
    states = ref_retrograde(model)[2]
    assert len(states) == 1180 == sum(rc_solve("mu-torere", "python")[2].values())
    movers: dict = {}
    for b, p in states:
        movers.setdefault(min(MuTorere.images(b)), set()).add(p)
    assert sum(len(ps) for ps in movers.values()) == 86
    both = [b for b, ps in movers.items() if len(ps) == 2]
    lost = [(b, p) for b, ps in movers.items() if len(ps) == 1 for p in ps]
    assert len(both) == 40 and len(lost) == 6
    assert all(model.moves((b, p)) == [] for b, p in lost)
    boards = set()
    for xs in itertools.combinations(range(9), 4):
        for os_ in itertools.combinations([i for i in range(9) if i not in xs], 4):
            boards.add("".join("X" if i in xs else "O" if i in os_ else "." for i in range(9)))
    assert len(boards) == 630
    assert len({min(MuTorere.images(b)) for b in boards}) * 2 == 92


# ------------------------------------------------------------------ random games

# The rulecraft symbol of each of the model's cells' letters, where they differ.
SYMBOLS = {"hexapawn": {"P": "W", "p": "B"}, "octopawn": {"P": "W", "p": "B"}}
GRID_GAMES = [name for name in MODELS if name not in ("pong-hau-kii", "mu-torere")]


def model_state(g, state, name: str):
    """The model's state for a rulecraft state of a grid game: the position's text has the
    rows from the top, the model's string the ranks from the bottom."""
    rows = g.state_to_text(state).split()[0].split("/")
    sym = SYMBOLS.get(name, {})
    return "".join(sym.get(c, c) for row in reversed(rows) for c in row), g.to_move(state)


@pytest.mark.parametrize("name", GRID_GAMES)
def test_random_games_match_the_reference(name):
    # Random games to their end, deeper than perft reaches: at every position the states
    # after the legal plies are the model's, and the end is the model's verdict.
    g = game(name, "python")
    model = MODELS[name]
    rng = random.Random(name)
    longest = 0
    for _ in range(8 if name == "breakthrough" else 30):
        s = g.initial_state()
        while True:
            ms = model_state(g, s, name)
            actions = g.legal_actions(s)
            kids = [model_state(g, g.apply_unchecked(s, a), name) for a in actions]
            assert sorted(kids) == sorted(plies(model, ms)), g.state_to_text(s)
            if not actions:
                break
            for kid in kids:  # the most stones a ply took, for Kōnane's chains
                longest = max(longest, kid[0].count(".") - ms[0].count("."))
            s = g.apply_unchecked(s, rng.choice(actions))
        won = final_value(model, ms) == "win"
        assert g.winner(s) == (g.to_move(s) if won else 1 - g.to_move(s))
    if name == "konane":
        assert longest >= 2  # some ply jumped twice or more
