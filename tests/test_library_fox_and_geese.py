"""Fox and Geese (rulesets/library/fox-and-geese.game and its variant fox-and-geese-17),
against a Fox and Geese written here from the rules in the game's opening comment.

The version here shares nothing with rulecraft: its own board (the points of a grid with
its corners cut off, the lines along ranks, files and the diagonals through the points of
even x + y), its own moves (the fox put down, stepping, and jumping geese one after
another; the geese stepping forwards or sideways) and its own end (fewer than four geese:
the fox wins; a player to move without a move loses). A position is (the geese's points,
the fox's point or None before it is put down, the player to move: 0 the fox, 1 the
geese). rulecraft's positions are read from their text, and from their pieces' cells
(checked against the text at every position of the random games).

Compared: perft at several depths, every position along seeded random games (the
positions after every legal ply, the plies written as routes, and the outcome at the end)
on both back-ends, and the solved value of every position of a small version (a 3 x 5
strip of lines with four geese) against a retrograde analysis here.

The default run takes some 15 s once the native libraries are built (each costs some 2 s
the first time: they are cached); perft to depth 9 is marked slow (`pytest -m slow`,
some 80 s).
"""

from __future__ import annotations

import functools
import os
import random
from collections import Counter, deque
from importlib import resources

import pytest

from interpreter import load_game, load_game_from_text, perft
from interpreter.native import build as native_build
from interpreter.search.solution_file import DRAW, VALUE_NAMES
from interpreter.search.solver import solve

LIBRARY = str(resources.files("rulesets") / "library")
NEEDS_CC = pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler")
BACKENDS = ["python", pytest.param("native", marks=NEEDS_CC)]
FILES = "abcdefg"


def path(name: str) -> str:
    return os.path.join(LIBRARY, name + ".game")


@functools.lru_cache(maxsize=None)
def library(name: str, backend: str):
    return load_game(path(name), backend=backend)


# ------------------------------------------------------------------ the version written here

class FoxAndGeese:
    """Fox and Geese on the points of a `width` x `height` grid without its `cut` x `cut`
    corners. Lines join each point to its neighbours along ranks and files, and along the
    diagonals from the points of even x + y (which only meet points of even x + y)."""

    FOX_DIRS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
    GOOSE_DIRS = [(0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)]  # forwards (north) or sideways
    FEW = 4  # the fox wins once fewer geese than this are left

    def __init__(self, width: int, height: int, cut: int, geese: str):
        def inside(x, y):
            return 0 <= x < width and 0 <= y < height and (
                cut <= x < width - cut or cut <= y < height - cut)
        self.points = {(x, y) for x in range(width) for y in range(height) if inside(x, y)}
        self.height = height
        self.geese = frozenset(self.point(n) for n in geese.split())

    @staticmethod
    def point(name: str) -> tuple[int, int]:
        return FILES.index(name[0]), int(name[1:]) - 1

    @staticmethod
    def name(p: tuple[int, int]) -> str:
        return FILES[p[0]] + str(p[1] + 1)

    def line(self, p, d):
        """The next point from p along direction d, if a line is drawn there."""
        if d[0] and d[1] and (p[0] + p[1]) % 2:
            return None
        q = (p[0] + d[0], p[1] + d[1])
        return q if q in self.points else None

    def start(self):
        return (self.geese, None, 0)

    def winner(self, s):
        """0 (the fox) or 1 (the geese) once the game is over, else None."""
        if len(s[0]) < self.FEW:
            return 0
        if not self.plies(s):
            return 1 - s[2]
        return None

    def plies(self, s) -> dict:
        """{position after the ply: the ply written as a route}; one entry per position."""
        geese, fox, me = s
        out: dict = {}
        if len(geese) < self.FEW:
            return out
        if me == 1:
            for g in sorted(geese):
                for d in self.GOOSE_DIRS:
                    q = self.line(g, d)
                    if q is not None and q not in geese and q != fox:
                        out[((geese - {g}) | {q}, fox, 0)] = f"{self.name(g)}-{self.name(q)}"
            return out
        if fox is None:
            for p in sorted(self.points - geese):
                out[(geese, p, 1)] = self.name(p)
            return out
        for d in self.FOX_DIRS:
            q = self.line(fox, d)
            if q is not None and q not in geese:
                out[(geese, q, 1)] = f"{self.name(fox)}-{self.name(q)}"

        def jumps(at, left, route):
            for d in self.FOX_DIRS:
                over = self.line(at, d)
                land = over and self.line(over, d)
                # over a goose still there, onto an empty point; the start stays taken
                if land and over in left and land not in left and land != fox:
                    rest = left - {over}
                    out.setdefault((rest, land, 1), route + "-" + self.name(land))
                    jumps(land, rest, route + "-" + self.name(land))

        jumps(fox, geese, self.name(fox))
        return out

    # -- rulecraft's positions

    def rank(self, y):
        return sorted(x for x, yy in self.points if yy == y)

    def of(self, game, state):
        """A rulecraft position, read from its text, as a position here."""
        words = game.state_to_text(state).split()
        rows, player = words[0].split("/"), words[1]
        geese, fox = set(), None
        assert len(rows) == self.height
        for i, row in enumerate(rows):
            y = self.height - 1 - i
            xs = self.rank(y)
            assert len(row) == len(xs), words[0]
            for x, ch in zip(xs, row):
                if ch == "G":
                    geese.add((x, y))
                elif ch == "F":
                    fox = (x, y)
                else:
                    assert ch == ".", words[0]
        # the fox is in hand until it is put down, and it is never taken
        assert ("reserve.fox=1" in words) == (fox is None), words
        return (frozenset(geese), fox, ["Fox", "Geese"].index(player))

    def cells(self, game, state):
        """The same, read from the pieces' cells (the fox's kind first, then the geese's:
        the order of the file's `piece` lines), which is quicker than the text."""
        names = game.board.names
        fox = [self.point(names[c]) for c in range(game.board.size) if state[0] >> c & 1]
        geese = frozenset(self.point(names[c]) for c in range(game.board.size) if state[1] >> c & 1)
        assert len(fox) <= 1
        return (geese, fox[0] if fox else None, game.to_move(state))

    def text(self, s) -> str:
        """A position here as rulecraft's text, for positions set up by hand."""
        geese, fox, me = s
        rows = ["".join("G" if (x, y) in geese else "F" if (x, y) == fox else "." for x in self.rank(y))
                for y in reversed(range(self.height))]
        return f"{'/'.join(rows)} {['Fox', 'Geese'][me]} reserve.fox={int(fox is None)}"


THIRTEEN = "c1 d1 e1 c2 d2 e2 a3 b3 c3 d3 e3 f3 g3"
MODELS = {
    "fox-and-geese": FoxAndGeese(7, 7, 2, THIRTEEN),
    "fox-and-geese-17": FoxAndGeese(7, 7, 2, THIRTEEN + " a4 b4 f4 g4"),
}


def ref_perft(model, depth: int) -> list[int]:
    memo: dict = {}

    def count(s, d):
        if (s, d) not in memo:
            kids = model.plies(s)
            memo[s, d] = len(kids) if d == 1 else sum(count(c, d - 1) for c in kids)
        return memo[s, d]

    return [count(model.start(), d) for d in range(1, depth + 1)]


def rc_perft(game, depth: int) -> list[int]:
    s = game.initial_state()
    return [perft(game, s, d) for d in range(1, depth + 1)]


@functools.lru_cache(maxsize=None)
def ref_counts(name: str, depth: int) -> list[int]:
    return ref_perft(MODELS[name], depth)


# ------------------------------------------------------------------ the board and the end

def test_the_board_is_the_33_point_cross():
    # The cross's points and lines as here are rulecraft's board's cells and arcs.
    model = MODELS["fox-and-geese"]
    board = library("fox-and-geese", "python").board
    assert len(model.points) == 33 == board.size
    assert sorted(board.names) == sorted(model.name(p) for p in model.points)
    compass = {"e": (1, 0), "w": (-1, 0), "n": (0, 1), "s": (0, -1),
               "ne": (1, 1), "se": (1, -1), "nw": (-1, 1), "sw": (-1, -1)}
    for p in model.points:
        for direction, d in compass.items():
            q = board.neighbour(board.index[model.name(p)], direction)
            assert (None if q is None else board.names[q]) == (model.line(p, d) and model.name(model.line(p, d)))
    degree = {model.name(p): sum(model.line(p, d) is not None for d in model.FOX_DIRS) for p in model.points}
    assert degree["d4"] == 8 and degree["c3"] == 7 and degree["c1"] == 3 and degree["d1"] == 3
    # 52 lines along ranks and files; 20 diagonal: a5-e1, a3-e7, c1-g5, c7-g3, c3-e5, c5-e3
    assert sum(degree.values()) == 2 * (52 + 20)


def test_four_geese_are_the_fewest_that_trap_the_fox():
    # The reading of "too few to trap it": with the fox on a point, every neighbour must
    # hold a goose and so must every point beyond a neighbour along its line. The fewest
    # are 4, on the four points at the ends of the arms' middle lines.
    model = MODELS["fox-and-geese"]
    need = {}
    for p in model.points:
        near = [(d, model.line(p, d)) for d in model.FOX_DIRS if model.line(p, d)]
        need[model.name(p)] = len(near) + sum(model.line(q, d) is not None for d, q in near)
    fewest = min(need.values())
    assert fewest == model.FEW == 4
    assert sorted(n for n, k in need.items() if k == fewest) == ["a4", "d1", "d7", "g4"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_four_geese_trap_the_fox_and_a_jump_leaving_three_wins(backend):
    model = MODELS["fox-and-geese"]
    game = library("fox-and-geese", backend)
    P = model.point
    for fox, geese in (("d1", "c1 e1 d2 d3"), ("a4", "a3 a5 b4 c4"), ("d7", "c7 e7 d6 d5"), ("g4", "g3 g5 f4 e4")):
        s = (frozenset(P(g) for g in geese.split()), P(fox), 0)
        assert model.winner(s) == 1
        st = game.state_from_text(model.text(s))
        assert game.is_terminal(st) and game.winner(st) == 1 and game.legal_actions(st) == []
        # the inner goose's guard elsewhere (on c7 or c1): the fox may jump it, leaving
        # three, and wins there and then
        far = P("c7") if fox == "d1" else P("c1")
        s = ((s[0] - {P(geese.split()[-1])}) | {far}, P(fox), 0)
        st = game.state_from_text(model.text(s))
        assert not game.is_terminal(st)
        kids = {model.of(game, game.apply(st, a)): game.apply(st, a) for a in game.legal_actions(st)}
        assert set(kids) == set(model.plies(s))
        won = [k for k in kids if len(k[0]) == 3]
        assert len(won) == 1 and model.winner(won[0]) == 0 and game.winner(kids[won[0]]) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_geese_without_a_move_lose(backend):
    # Geese on the north arm's two top ranks cannot go back, nor sideways off the board:
    # with the fox on a4 they have no move, and the default rule gives the game to the fox.
    model = MODELS["fox-and-geese"]
    game = library("fox-and-geese", backend)
    P = model.point
    s = (frozenset(P(g) for g in "c7 d7 e7 c6 d6 e6".split()), P("a4"), 1)
    assert model.plies(s) == {} and model.winner(s) == 0
    st = game.state_from_text(model.text(s))
    assert game.is_terminal(st) and game.winner(st) == 0


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_fox_jumps_on_may_stop_and_never_lands_where_it_began(backend):
    # The fox on c3 and geese on d3, e4, d5, c4 round the square c3-e3-e5-c5 (d4, its
    # centre, empty): it may step, or jump once, twice or three times either way round;
    # a fourth jump back onto c3 is not a move, the start point staying taken. Capturing
    # is not compulsory.
    model = MODELS["fox-and-geese"]
    game = library("fox-and-geese", backend)
    P = model.point
    s = (frozenset(P(g) for g in "d3 e4 d5 c4 a3 g3".split()), P("c3"), 0)
    st = game.state_from_text(model.text(s))
    texts = sorted(game.action_to_text(st, a) for a in game.legal_actions(st))
    kids = {model.of(game, game.apply(st, a)) for a in game.legal_actions(st)}
    assert kids == set(model.plies(s)) and len(texts) == len(kids)
    assert {"c3-e3", "c3-e3-e5", "c3-e3-e5-c5", "c3-c5", "c3-c5-e5", "c3-c5-e5-e3"} <= set(texts)
    assert {"c3-d4", "c3-d2", "c3-b4", "c3-c2"} <= set(texts)  # steps beside the jumps
    assert all(not t.endswith("-c3") for t in texts)
    assert max(len(s[0]) - len(k[0]) for k in kids) == 3


# ------------------------------------------------------------------ perft

# Default depths: the Python back-end's and the native one's; deeper in the slow run.
PERFT = {"fox-and-geese": (6, 7), "fox-and-geese-17": (5, 7)}
KNOWN = [20, 247, 955, 14697, 68115, 1151727, 5321035]  # both sides must give these


def test_perft_known_counts():
    assert ref_counts("fox-and-geese", 7) == KNOWN


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(MODELS))
def test_perft_against_a_fox_and_geese_written_here(name, backend):
    depth = PERFT[name][backend == "native"]
    assert rc_perft(library(name, backend), depth) == ref_counts(name, depth)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MODELS))
def test_perft_deeper(name):
    want = ref_counts(name, 9)
    if native_build.compiler() is not None:
        assert rc_perft(library(name, "native"), 9) == want
    assert rc_perft(library(name, "python"), 7) == want[:7]


# ------------------------------------------------------------------ random games

# How the random games end: "taken" (the fox took the geese down to three), "stranded"
# (the geese had no move), "trapped" (the fox had none); each is seen at least once.
ENDS = {"fox-and-geese": {"taken", "stranded"}, "fox-and-geese-17": {"taken", "stranded", "trapped"}}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(MODELS))
def test_random_games_against_a_fox_and_geese_written_here(name, backend):
    """Every position of seeded random games: the positions after the legal plies are the
    ones here, each ply written as a route here is that ply, and the end is the one here.
    In every other game the geese press the fox: each of their plies leaves it the fewest
    plies (ties at random)."""
    model = MODELS[name]
    game = library(name, backend)
    rng = random.Random(name)
    most, ends = 0, set()
    games = 12 if backend == "python" else 4  # the native back-end: the same first games
    for k in range(games):
        s = game.initial_state()
        for _ in range(300):
            ref = model.of(game, s)
            assert model.cells(game, s) == ref
            acts = game.legal_actions(s)
            plies = model.plies(ref)
            after = [game.apply(s, a) for a in acts]
            kids = [model.cells(game, a) for a in after]
            assert len(set(kids)) == len(kids) and set(kids) == set(plies), game.state_to_text(s)
            for kid, route in plies.items():  # any route of a ply names it
                assert model.cells(game, game.apply(s, game.action_from_text(s, route))) == kid
            if not acts:
                break
            most = max([most] + [len(ref[0]) - len(c[0]) for c in kids])
            if k % 2 and ref[2] == 1:
                s = min(after, key=lambda a: (len(game.legal_actions(a)), rng.random()))
            else:
                s = rng.choice(after)
        ref = model.of(game, s)
        assert game.is_terminal(s) == (model.winner(ref) is not None)
        if game.is_terminal(s):
            assert game.winner(s) == model.winner(ref)
            ends.add("trapped" if model.winner(ref) == 1 else "taken" if len(ref[0]) < model.FEW else "stranded")
    if backend == "python":
        assert most >= 2  # some ply took two geese or more
        assert ends == ENDS[name]


# ------------------------------------------------------------------ a small version, solved

STRIP = FoxAndGeese(3, 5, 0, "a1 b1 c1 b2")
STRIP_TEXT = (f'variant of "{path("fox-and-geese")}"\n'
              'game "Fox and Geese (3 x 5 strip)"\n'
              "board square 3 x 5 with alternate diagonals\n"
              "drop remove a1, b1, f1, g1, a2, b2, f2, g2, a6, b6, f6, g6, a7, b7, f7, g7\n"
              "setup goose: a1, b1, c1, b2\n")


def ref_retrograde(model):
    """Value ("win", "lose", "draw" for the player to move) and remoteness of every position
    reachable from the start: the finished ones first, then back ply by ply; what is left
    can be played for ever: a draw."""
    start = model.start()
    kids = {start: list(model.plies(start))}
    todo = deque([start])
    while todo:
        for c in kids[todo.popleft()]:
            if c not in kids:
                kids[c] = list(model.plies(c))
                todo.append(c)
    parents: dict = {s: [] for s in kids}
    for s, cs in kids.items():
        for c in cs:
            parents[c].append(s)
    value, left = {}, {s: len(cs) for s, cs in kids.items()}
    level = []
    for s, cs in kids.items():
        if not cs:
            value[s] = ("win" if model.winner(s) == s[2] else "lose", 0)
            level.append(s)
    r = 0
    while level:
        nxt = []
        for s in level:
            for p in parents[s]:
                if p in value:
                    continue
                if value[s][0] == "lose":
                    value[p] = ("win", r + 1)
                else:
                    left[p] -= 1
                    if left[p]:
                        continue
                    value[p] = ("lose", r + 1)
                nxt.append(p)
        level, r = nxt, r + 1
    return {s: value.get(s, ("draw", None)) for s in kids}


@functools.lru_cache(maxsize=None)
def strip_reference():
    table = ref_retrograde(STRIP)
    return table[STRIP.start()], Counter(table.values())


def test_the_strip_traps_the_fox_with_four_geese_too():
    need = min(sum(1 + (STRIP.line(q, d) is not None) for d in STRIP.FOX_DIRS
                   for q in [STRIP.line(p, d)] if q) for p in STRIP.points)
    assert need == STRIP.FEW


# (on C with -m slow: its solver is built for this test alone)
@pytest.mark.parametrize("backend", ["python", pytest.param("native", marks=[NEEDS_CC, pytest.mark.slow])])
def test_a_small_version_solved_as_here(backend, native_calls):
    # The start is a draw (geese and fox can both shuffle for ever); every position's value
    # and remoteness are compared through their histogram, and so is their number.
    (value, rem), hist = strip_reference()
    assert (value, rem) == ("draw", None)
    assert hist[("win", 1)] and hist[("lose", 0)]  # decided positions too
    game = load_game_from_text(STRIP_TEXT, os.path.join(LIBRARY, "strip.game"), backend=backend)
    sol = solve(game)
    start = sol.lookup(game.initial_state())
    mine = Counter((VALUE_NAMES[c], None if c == DRAW else r) for c, r in zip(sol.values, sol.remoteness))
    assert (start.value, start.remoteness) == (value, rem)
    assert mine == hist
    if backend == "native":
        assert native_calls == [sum(hist.values())]  # the native solver did it
