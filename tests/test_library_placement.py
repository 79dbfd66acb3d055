"""Independent checks of the placement and alignment games in rulesets/library/.

Each game is also written here a second time, as a small reference implementation in
plain Python made from the rules in the game file's header (bitmask boards; nothing of
rulecraft is used for the rules). The two are then compared:

- perft (the number of ply sequences of length 1..d, a finished game having no plies),
  on rulecraft's Python and native back-ends;
- the legal plies (as text), the outcome and the solved value of every position met on
  seeded random games, played on both back-ends in step with the reference;
- the solved value and remoteness of the start (and the number of positions reachable),
  from a memoized negamax of the reference against rulecraft's solver; where a value is
  published (John Tromp's Connect Four table, the m,n,k-game results, Notakto, ...) it is
  asserted as well, with its source in a comment.

Games too large for the default run (a few million positions) are solved in the tests
marked slow: `pytest -m slow tests/test_library_placement.py`.
"""

from __future__ import annotations

import functools
import importlib.resources
import os
import random
import sys
from dataclasses import dataclass

import pytest

from rulecraft import load_game, perft
from interpreter.native import build as native_build
from interpreter.search.proof import proof_value, prove
from interpreter.search.solver import solve

LIBRARY = importlib.resources.files("rulesets") / "library"
HAVE_CC = native_build.compiler() is not None
NEEDS_CC = pytest.mark.skipif(not HAVE_CC, reason="no C compiler here")
BACKENDS = ["python", pytest.param("native", marks=NEEDS_CC)]


def game_path(name: str) -> str:
    """The library game's file, from the installed `rulesets` package."""
    return os.path.join(str(LIBRARY), name + ".game")


@functools.lru_cache(maxsize=None)
def rulecraft_game(name: str, backend: str):
    return load_game(game_path(name), backend=backend)


@functools.lru_cache(maxsize=None)
def rulecraft_solution(name: str):
    """The game solved by rulecraft's solver: the Python one where it is quick (a small
    game solves in less time than its native solver takes to build), else the native one
    when there is a compiler."""
    native = HAVE_CC and not CASES[name].python_solve
    return solve(rulecraft_game(name, "native" if native else "python"), max_memory=None)


# ------------------------------------------------------------------ the reference games

WIN, DRAW, LOSE = 1, 0, -1
NAMES = {WIN: "win", DRAW: "draw", LOSE: "lose"}


class Grid:
    """A width x height board of square cells: cell i is on file i % width (a, b, ...,
    west to east) and rank i // width + 1 (rank 1 the south row)."""

    def __init__(self, width: int, height: int):
        self.w, self.h, self.n = width, height, width * height
        self.full = (1 << self.n) - 1
        self.names = ["abcdefghijklmnopqrstuvwxyz"[i % width] + str(i // width + 1)
                      for i in range(self.n)]

    def at(self, x: int, y: int) -> int | None:
        return y * self.w + x if 0 <= x < self.w and 0 <= y < self.h else None

    def runs(self, k: int) -> list[list[int]]:
        """For each cell, the masks of the runs of k cells in a straight line (a rank, a
        file or a diagonal) through it."""
        through: list[list[int]] = [[] for _ in range(self.n)]
        for y in range(self.h):
            for x in range(self.w):
                for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    cells = [self.at(x + j * dx, y + j * dy) for j in range(k)]
                    if None not in cells:
                        mask = sum(1 << c for c in cells)
                        for c in cells:
                            through[c].append(mask)
        return through

    def neighbours(self) -> list[int]:
        """For each cell, the mask of the cells sharing a side with it."""
        out = []
        for i in range(self.n):
            x, y = i % self.w, i // self.w
            near = (self.at(x + 1, y), self.at(x - 1, y), self.at(x, y + 1), self.at(x, y - 1))
            out.append(sum(1 << c for c in near if c is not None))
        return out


class KInARow:
    """Two players place stones of their own; k of one's stones in a row (rank, file or
    diagonal, next to each other) win, or lose when `misere`; a full board is a draw. With
    `gravity` a stone goes to the lowest empty cell of a file (Connect Four).
    A state is (stones of the player to move, the other's, status): status is None while
    the game goes on, else the game's value for the player to move."""

    def __init__(self, width: int, height: int, k: int, misere: bool = False,
                 gravity: bool = False):
        self.grid = Grid(width, height)
        self.runs = self.grid.runs(k)
        self.misere, self.gravity = misere, gravity

    def start(self):
        return (0, 0, None)

    def status(self, state):
        return state[2]

    def key(self, state) -> int:
        """The state as one number (its status follows from the stones)."""
        return state[0] | state[1] << self.grid.n

    def targets(self, taken: int) -> list[int]:
        g = self.grid
        if not self.gravity:
            return [i for i in range(g.n) if not taken >> i & 1]
        out = []
        for x in range(g.w):  # the lowest empty cell of each file
            for y in range(g.h):
                if not taken >> (y * g.w + x) & 1:
                    out.append(y * g.w + x)
                    break
        return out

    def children(self, state):
        me, other, status = state
        if status is not None:
            return []
        out = []
        for i in self.targets(me | other):
            mine = me | 1 << i
            if any(run & mine == run for run in self.runs[i]):
                after = WIN if self.misere else LOSE  # for the opponent, now to move
            elif mine | other == self.grid.full:
                after = DRAW
            else:
                after = None
            out.append((self.grid.names[i], (other, mine, after)))
        return out


class Notakto:
    """Both players put Xs on a 3x3 board; whoever completes three in a row loses.
    A state is (the Xs, status)."""

    def __init__(self):
        self.grid = Grid(3, 3)
        self.runs = self.grid.runs(3)

    def start(self):
        return (0, None)

    def status(self, state):
        return state[1]

    def key(self, state) -> int:
        return state[0]

    def children(self, state):
        xs, status = state
        if status is not None:
            return []
        out = []
        for i in range(9):
            if not xs >> i & 1:
                new = xs | 1 << i
                lined = any(run & new == run for run in self.runs[i])
                out.append((self.grid.names[i], (new, WIN if lined else None)))
        return out


class NotaktoBoards:
    """Notakto on several 3x3 boards side by side (files a-c, e-g, i-k, ..., one file
    between two boards unused): an X goes on an empty cell of a live board; a board with
    three in a row is dead; whoever kills the last board loses. A state is one number,
    9 bits a board (its Xs)."""

    def __init__(self, boards: int):
        self.boards = boards
        lines = {run for runs in Grid(3, 3).runs(3) for run in runs}  # a board's 8 lines
        self.is_dead = [any(run & xs == run for run in lines) for xs in range(512)]
        letters = "abcdefghijklmnopqrstuvwxyz"
        self.names = [[letters[4 * b + i % 3] + str(i // 3 + 1) for i in range(9)]
                      for b in range(boards)]

    def start(self):
        return 0

    def boards_of(self, state: int) -> list[int]:
        return [state >> 9 * b & 511 for b in range(self.boards)]

    def status(self, state):
        # every board dead: the player who killed the last one lost, the player to move won
        return WIN if all(self.is_dead[xs] for xs in self.boards_of(state)) else None

    def key(self, state) -> int:
        return state

    def children(self, state):
        out = []
        if self.status(state) is not None:
            return out
        for b, xs in enumerate(self.boards_of(state)):
            if not self.is_dead[xs]:
                out.extend((self.names[b][i], state | 1 << 9 * b + i)
                           for i in range(9) if not xs >> i & 1)
        return out


class Wild:
    """Each ply puts an X or an O (the mover's choice) on an empty cell of a 3x3 board;
    three Xs or three Os in a row win (lose, misère); a full board is a draw. A state is
    (the Xs, the Os, status); a ply is written RULE:CELL (cross:b2, nought:b2)."""

    def __init__(self, misere: bool = False):
        self.grid = Grid(3, 3)
        self.runs = self.grid.runs(3)
        self.misere = misere

    def start(self):
        return (0, 0, None)

    def status(self, state):
        return state[2]

    def key(self, state) -> int:
        return state[0] | state[1] << 9

    def children(self, state):
        xs, os_, status = state
        if status is not None:
            return []
        out = []
        for i in range(9):
            if (xs | os_) >> i & 1:
                continue
            for rule, marks, others in (("cross", xs, os_), ("nought", os_, xs)):
                marks |= 1 << i
                if any(run & marks == run for run in self.runs[i]):
                    after = WIN if self.misere else LOSE
                elif marks | others == self.grid.full:
                    after = DRAW
                else:
                    after = None
                child = (marks, others, after) if rule == "cross" else (others, marks, after)
                out.append((f"{rule}:{self.grid.names[i]}", child))
        return out


class SnortCol:
    """Each ply puts one of the mover's pieces on an empty cell not sharing a side with an
    opponent's piece (Snort) or with one of the mover's own (Col); a player who cannot
    place loses. A state is (the pieces of the player to move, the other's)."""

    def __init__(self, width: int, height: int, col: bool):
        self.grid = Grid(width, height)
        self.near = self.grid.neighbours()
        self.col = col

    def start(self):
        return (0, 0)

    def status(self, state):
        return None

    def key(self, state) -> int:
        return state[0] | state[1] << self.grid.n

    def children(self, state):
        me, other = state
        banned = me if self.col else other
        return [(self.grid.names[i], (other, me | 1 << i)) for i in range(self.grid.n)
                if not (me | other) >> i & 1 and not self.near[i] & banned]


class Reference:
    """Perft, exact values and bounded win searches over a reference game."""

    def __init__(self, game):
        self.game = game
        self.values: dict = {}

    def perft(self, depth: int) -> list[int]:
        memo: dict = {}
        children = self.game.children

        def count(state, d: int) -> int:
            key = (state, d)
            if key not in memo:
                kids = children(state)
                memo[key] = len(kids) if d == 1 else sum(count(c, d - 1) for _, c in kids)
            return memo[key]

        return [count(self.game.start(), d) for d in range(1, depth + 1)]

    def value(self, state) -> tuple[int, int | None]:
        """(value, remoteness) for the player to move, by memoized negamax: a win is taken
        by its shortest way, a loss resisted by its longest; a draw has no remoteness."""
        return self.decode(self._code(state))

    # The table holds each position's value and remoteness as one small number (so the
    # slow tests' millions of positions fit in memory): 0 a draw, 1 + r a loss in r
    # plies, 128 + r a win in r plies.
    @staticmethod
    def decode(code: int) -> tuple[int, int | None]:
        return (DRAW, None) if code == 0 else (LOSE, code - 1) if code < 128 else (WIN, code - 128)

    def _code(self, state) -> int:
        key = self.game.key(state)
        got = self.values.get(key)
        if got is not None:
            return got
        status = self.game.status(state)
        if status is not None:
            code = 0 if status == DRAW else 1 if status == LOSE else 128
        else:
            win, draw, loss = None, False, 0  # shortest win, a draw seen, longest loss
            for _, child in self.game.children(state):
                c = self._code(child)
                if 0 < c < 128:  # the opponent loses in c - 1: a win in c
                    win = c if win is None else min(win, c)
                elif c == 0:
                    draw = True
                else:  # the opponent wins in c - 128: a loss in c - 127
                    loss = max(loss, c - 127)
            # no legal ply at all: a loss in 0 plies (code 1)
            code = 128 + win if win is not None else 0 if draw else 1 + loss
        self.values[key] = code
        return code

    def alphabeta(self, order=None) -> int:
        """The start's value alone (WIN, DRAW or LOSE for the first player), by alpha-beta
        with a table of bounds, for games too large for `value`; `order` sorts a
        position's children (text, state) to try the likely best first."""
        table: dict = {}
        game = self.game

        def search(state, alpha: int, beta: int) -> int:
            status = game.status(state)
            if status is not None:
                return status
            key = game.key(state)
            low, high = table.get(key, (LOSE, WIN))
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
            alpha0, beta0 = alpha, beta
            kids = game.children(state)
            if order is not None:
                kids = order(kids)
            best = LOSE  # (no legal ply at all: a loss)
            for _, child in kids:
                v = -search(child, -beta, -alpha)
                if v > best:
                    best = v
                    alpha = max(alpha, v)
                    if alpha >= beta:
                        break
            if best <= alpha0:
                table[key] = (low, best)  # failed low: an upper bound
            elif best >= beta0:
                table[key] = (best, high)  # failed high: a lower bound
            else:
                table[key] = (best, best)
            return best

        return search(game.start(), LOSE, WIN)

    def wins_within(self, plies: int) -> bool:
        """Whether the player to move at the start can force a win within `plies` plies."""
        memo: dict = {}
        game = self.game

        def win(state, p: int) -> bool:
            status = game.status(state)
            if status is not None:
                return status == WIN
            if p == 0:
                return False
            key = (state, p, True)
            if key not in memo:
                memo[key] = any(lose(c, p - 1) for _, c in game.children(state))
            return memo[key]

        def lose(state, p: int) -> bool:
            status = game.status(state)
            if status is not None:
                return status == LOSE
            kids = game.children(state)
            if not kids:
                return True
            if p == 0:
                return False
            key = (state, p, False)
            if key not in memo:
                memo[key] = all(win(c, p - 1) for _, c in kids)
            return memo[key]

        return win(game.start(), plies)


# ---------------------------------------------------------------------------- the games

@dataclass
class Case:
    """A library game, its reference and what is checked by default (the rest is slow)."""

    make: object  # () -> the reference game
    python_depth: int  # perft depths on the Python back-end
    native_depth: int  # ... on the native one (compared with the reference's perft)
    value: str | None = None  # the value published for the first player, if any
    remoteness: int | None = None  # ... and its published remoteness (plies), if any
    solve: bool = True  # solved in the default run (else in the slow tests)
    slow_native_depth: int | None = None  # a deeper perft in the slow tests (default: +2)
    games: int = 10  # seeded random games compared ply by ply
    python_solve: bool = True  # solved on the Python back-end in the default run (else the native)


CASES = {
    # Connect Four 7x6: a first-player win (Allen; Allis 1988), too large to solve here:
    # perft only (see also test_perft_of_connect_four_7x6).
    "connect-four": Case(lambda: KInARow(7, 6, 4, gravity=True), 6, 8, solve=False,
                         slow_native_depth=10, games=10),
    # John Tromp, https://tromp.github.io/c4/c4.html (boards with width + height <= 15,
    # 2006), as tabulated in github.com/ChristopheSteininger/c4's readme: 4x4, 5x4, 4x5 and
    # 5x5 (width x height) are draws; 6x4 is a second-player win (the readme's "Last Move"
    # table: on the 24th and last ply; that remoteness is not checked here).
    "connect-four-4x4": Case(lambda: KInARow(4, 4, 4, gravity=True), 9, 10, "draw",
                             python_solve=False),
    "connect-four-5x4": Case(lambda: KInARow(5, 4, 4, gravity=True), 8, 9, "draw",
                             solve=False),
    "connect-four-4x5": Case(lambda: KInARow(4, 5, 4, gravity=True), 8, 9, "draw",
                             solve=False),
    "connect-four-5x5": Case(lambda: KInARow(5, 5, 4, gravity=True), 7, 8, "draw",
                             solve=False),
    "connect-four-6x4": Case(lambda: KInARow(6, 4, 4, gravity=True), 7, 8, "lose",
                             solve=False),
    # D. Friedman, "Optimal mnk-games" (dfriedman.org/ramblings/2020/12/31/optimal-mnk.html):
    # its "max turns to win" t counts the winner's own plies, so a first-player win takes
    # 2t - 1 plies and a second-player win 2t + 1 (the loser's line comes on the ply after).
    # "3 3 3 Misère Draw":
    "tic-tac-toe-misere": Case(lambda: KInARow(3, 3, 3, misere=True), 6, 9, "draw"),
    # "3 4 3 Normal P1 4" (4 turns: 7 plies); Wikipedia "m,n,k-game": k = 3 wins beyond 3x3.
    "mnk-4x3-k3": Case(lambda: KInARow(4, 3, 3), 5, 7, "win", 7, python_solve=False),
    # "3 4 3 Misère P2 5" (5 turns of the second player: 11 plies).
    "mnk-4x3-k3-misere": Case(lambda: KInARow(4, 3, 3, misere=True), 5, 7, "lose", 11,
                              solve=False),
    # "4 4 3 Normal P1 3" (5 plies), "4 4 3 Misère P2 7" (15 plies), "4 4 4 Normal Draw";
    # Wikipedia "m,n,k-game": the 5,5,4-game is a draw, so the 4,4,4-game is too.
    "mnk-4x4-k3": Case(lambda: KInARow(4, 4, 3), 5, 6, "win", 5, solve=False),
    "mnk-4x4-k3-misere": Case(lambda: KInARow(4, 4, 3, misere=True), 5, 5, "lose", 15,
                              solve=False),
    "mnk-4x4-k4": Case(lambda: KInARow(4, 4, 4), 5, 5, "draw", solve=False),
    # Plambeck and Whitehead, "The Secrets of Notakto" (arXiv:1301.1672): one board is a
    # first-player win.
    "notakto": Case(Notakto, 6, 9, "win"),
    # Wikipedia "Notakto" (after Plambeck and Whitehead): on an even number of boards the
    # second player wins.
    "notakto-two-boards": Case(lambda: NotaktoBoards(2), 4, 6, "lose", solve=False),
    # Wikipedia "Wild tic-tac-toe": a first-player win; misère, the second player can
    # force a draw (so the first player cannot win: checked as "not win" below).
    "wild-tic-tac-toe": Case(Wild, 4, 7, "win"),
    "wild-tic-tac-toe-misere": Case(lambda: Wild(misere=True), 4, 7),
    # Snort and Col on an even x even grid: the second player wins by answering each piece
    # with its image under the half turn about the centre (a symmetry strategy: on such a
    # board a cell's image is never next to it, so the answer is always legal).
    "snort-4x4": Case(lambda: SnortCol(4, 4, col=False), 5, 7, "lose"),
    "col-4x4": Case(lambda: SnortCol(4, 4, col=True), 5, 7, "lose", python_solve=False),
}


@functools.lru_cache(maxsize=None)
def reference(name: str) -> Reference:
    return Reference(CASES[name].make())


@functools.lru_cache(maxsize=None)
def reference_perft(name: str, depth: int) -> tuple[int, ...]:
    return tuple(reference(name).perft(depth))


def reference_value(name: str) -> tuple[str, int | None, int]:
    """The start's value and remoteness for the first player, and the positions reached."""
    ref = reference(name)
    v, r = ref.value(ref.game.start())
    return NAMES[v], r, len(ref.values)


# ------------------------------------------------------------------------------ tests

def test_the_library_files_are_found():
    for name in CASES:
        assert os.path.isfile(game_path(name)), name


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_perft_matches_the_reference(name, backend):
    case = CASES[name]
    depth = case.python_depth if backend == "python" else case.native_depth
    game = rulecraft_game(name, backend)
    start = game.initial_state()
    got = [perft(game, start, d) for d in range(1, depth + 1)]
    assert got == list(reference_perft(name, depth))


def test_perft_of_connect_four_7x6():
    # Counted by hand: every drop is legal for six plies (7^d sequences); at ply 7 a file is
    # full only after the 7 sequences that dropped all six discs into it, which leaves 6
    # drops instead of 7 (7^7 - 7). The reference must agree.
    assert list(reference_perft("connect-four", 7)) == [7, 49, 343, 2401, 16807, 117649, 823536]


def lockstep_games(name: str, backend: str, solution=None) -> int:
    """Seeded random games played on rulecraft and the reference in step: at every
    position the same legal plies (as text), the same outcome and, given a solution, the
    same value and remoteness. Returns the number of positions compared."""
    case = CASES[name]
    game = rulecraft_game(name, backend)
    ref = reference(name)
    rng = random.Random(f"{name}/{backend}")
    seen = 0
    for _ in range(case.games):
        state, rstate, ply = game.initial_state(), ref.game.start(), 0
        while True:
            kids = dict(ref.game.children(rstate))
            texts = sorted(game.action_to_text(state, a) for a in game.legal_actions(state))
            assert texts == sorted(kids), (name, game.state_to_text(state))
            status = ref.game.status(rstate)
            over = status is not None or not kids
            assert game.is_terminal(state) == over, game.state_to_text(state)
            if over:
                to_move = ply % 2
                if status == DRAW:
                    assert game.is_draw(state)
                else:  # a win for the player to move, else a loss (stuck is a loss too)
                    assert game.winner(state) == (to_move if status == WIN else 1 - to_move)
            if solution is not None:
                v, r = ref.value(rstate)
                assert tuple(solution.lookup(state)) == (NAMES[v], r), game.state_to_text(state)
            seen += 1
            if over:
                break
            text = rng.choice(sorted(kids))
            state = game.apply(state, game.action_from_text(state, text))
            rstate = kids[text]
            ply += 1
    return seen


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("name", sorted(CASES))
def test_random_games_match_the_reference(name, backend):
    solution = rulecraft_solution(name) if CASES[name].solve else None
    assert lockstep_games(name, backend, solution) > CASES[name].games


def check_solution(name: str, solution) -> None:
    value, remoteness, positions = reference_value(name)
    start = solution.root
    assert tuple(solution.lookup(start)) == (value, remoteness)
    assert len(solution) == positions
    case = CASES[name]
    if case.value is not None:  # the published value
        assert value == case.value
    if case.remoteness is not None:
        assert remoteness == case.remoteness


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if c.solve))
def test_solved_value_matches_the_reference(name):
    check_solution(name, rulecraft_solution(name))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items()
                                        if c.solve and c.python_solve and HAVE_CC))
def test_native_solver_agrees(name):
    """The native solve of the games the default tests above solve in Python."""
    check_solution(name, solve(rulecraft_game(name, "native"), max_memory=None))


def test_published_values_of_the_small_games():
    # Tic-tac-toe misère is a draw, Notakto and wild tic-tac-toe first-player wins, and in
    # misère wild tic-tac-toe the second player can force a draw (Wikipedia): the first
    # player does not win.
    assert reference_value("tic-tac-toe-misere")[0] == "draw"
    assert reference_value("notakto")[:2] == ("win", 6)
    assert reference_value("wild-tic-tac-toe")[0] == "win"
    assert reference_value("wild-tic-tac-toe-misere")[0] != "win"
    # the first player's winning first plies: Notakto's centre only (Plambeck & Whitehead)
    sol = rulecraft_solution("notakto")
    best = [p.text for p in sol.analyze(sol.root) if p.value == "win"]
    assert best == ["b2"]


def test_4x4_three_in_a_row_is_won_in_five_plies():
    # The 4,4,3-game's first player wins on their third stone (Friedman's table: 3 turns),
    # and not sooner: a bounded search of the reference and rulecraft's proof search agree.
    ref = reference("mnk-4x4-k3")
    assert ref.wins_within(5) and not ref.wins_within(4)
    game = rulecraft_game("mnk-4x4-k3", "native" if HAVE_CC else "python")
    start = game.initial_state()
    assert prove(game, start, 0, depth_limit=5, max_memory=None).proven is True
    assert prove(game, start, 0, depth_limit=4, max_memory=None).proven is False


# ------------------------------------------------------------------------- slow tests

# solved in full: a few million positions each, minutes (the others are too large), and
# two smaller games whose solvers the default run leaves unbuilt
SLOW = ["connect-four-4x5", "connect-four-5x4", "mnk-4x4-k3", "mnk-4x4-k3-misere", "mnk-4x4-k4",
        "mnk-4x3-k3-misere", "notakto-two-boards"]


@pytest.mark.slow
@pytest.mark.parametrize("name", SLOW)
def test_slow_solved_value_matches_the_reference(name):
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    reference.cache_clear()  # a fresh reference, freed with its millions of positions after
    solution = solve(rulecraft_game(name, "native" if HAVE_CC else "python"), max_memory=None)
    check_solution(name, solution)
    assert lockstep_games(name, "native" if HAVE_CC else "python", solution) > 0
    reference.cache_clear()


def centre_first(width: int):
    """An order for alpha-beta: Connect Four's drops, the middle files first."""
    def order(kids):
        return sorted(kids, key=lambda kid: abs(2 * (ord(kid[0][0]) - ord("a")) - (width - 1)))
    return order


@pytest.mark.slow
def test_slow_connect_four_6x4_is_a_second_player_win():
    # Tromp's table (see CASES): 6 wide and 4 high is the smallest board won by the second
    # player. Too large to list (some 70 million positions): the reference's alpha-beta
    # and rulecraft's proof-number search each find the value alone (minutes each).
    assert Reference(CASES["connect-four-6x4"].make()).alphabeta(centre_first(6)) == LOSE
    game = rulecraft_game("connect-four-6x4", "native" if HAVE_CC else "python")
    assert proof_value(game, game.initial_state(), symmetry=True, max_memory=None)[0] == "lose"


@pytest.mark.slow
def test_slow_connect_four_5x5_reference_is_a_draw():
    # Tromp's table: 5x5 is a draw. Rulecraft's solvers are not run on it here (some 50
    # million positions to list; a draw needs both players' proof searches): only the
    # reference's alpha-beta is checked against the published value, and rulecraft's
    # rules against the reference's by perft and random games above.
    assert Reference(CASES["connect-four-5x5"].make()).alphabeta(centre_first(5)) == DRAW


@pytest.mark.slow
@NEEDS_CC
@pytest.mark.parametrize("name", sorted(CASES))
def test_slow_deeper_perft(name):
    depth = CASES[name].slow_native_depth or CASES[name].native_depth + 2
    game = rulecraft_game(name, "native")
    got = [perft(game, game.initial_state(), d) for d in range(1, depth + 1)]
    assert got == list(reference_perft(name, depth))
