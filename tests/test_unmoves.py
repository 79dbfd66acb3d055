"""The native solve by un-moves (solver.c, cundo.py) against the Python solver and the
native solve over stored arcs: the same positions, values, remoteness, arcs and levels."""

from __future__ import annotations

import os
import sys
from math import comb

import pytest

from dsl.load import load
from interpreter.runtime.game import Game
from interpreter.native import build as native_build
from interpreter.search import native_solve
from interpreter.native.cundo import exact_landing, game_reversible, lands_checked
from interpreter.runtime.tables import Tables
from dsl.constructs.slide import reverse_path, reverse_steps
from interpreter.search.progress import Progress
from interpreter.search.solver import solve
from interpreter.search.symmetry import board_symmetries
from interpreter.search.verify import verify

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.test_native import ruleset_files, load_text  # noqa: E402,F401 - the fixture
from tests.test_native_solver import same_solution  # noqa: E402

pytestmark = pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")

# 3-A-Side's rules on a hexagon of side 3 (17 vertices, 3 a goal line), one man a side
SMALL_3_A_SIDE = '''game "3-A-Side on a hexagon of side 3, one man a side"
board hexagon 3
remove a3, i3
link b2 -- b4
link h2 -- h4
goal north_goal: c1, e1, g1 by ne, nw
goal south_goal: c5, e5, g5 by se, sw
region goals: north_goal, south_goal
players South, North
piece man: owner each, symbol S/N
piece ball: neutral, symbol "*"
setup man of North: e1
setup man of South: e5
setup ball: e3
ply step: move own man step onto empty - goals
ply kick: move ball slide up to count(own man & adjacent(from))
ply kick_link: move ball step link where count(own man & adjacent(from)) >= 1
turn: any then any
end north_goal: North loses if ball in north_goal
end south_goal: South loses if ball in south_goal
'''

# three men a side stepping on 3 x 3 until one side stands in a line: endless play is
# possible, and the setup keeps the west-east mirror
MORRIS = '''game "Three men moving on 3 x 3"
board square 3 x 3 with diagonals
players X, O
piece man: owner each, symbol X/O
setup man of X: a1, c1, b3
setup man of O: a3, c3, b1
ply go: move own man step onto empty
end line: mover wins if line(3, own man, all, contiguous)
'''
GO = "ply go: move own man step onto empty"
VARIANTS = {
    "morris": MORRIS,
    # two plies a turn: a step or a slide, then a slide or a pass
    "pass": MORRIS.replace(GO, GO + "\nply run: move own man slide orthogonal onto empty\n"
                           "turn: go or run then run or pass"),
    # a variable the plies and `after each ply` change
    "clock": MORRIS.replace(GO, "var clock = 0 in 0..3\n" + GO + " then clock += 1 when clock < 3\n"
                            "after each ply: clock = 0 when clock == 3"),
    # the ply before remembered (more child blocks than the un-move solve follows: arcs)
    "memory": MORRIS.replace(GO, GO + " where not (last_ply(go) and from == last_to)"),
    # a step that never lands on b2 and a slide onto b2 alone: the steps' un-moves are
    # exact (every candidate or none leads to the position) only on the cells off b2
    "landing": MORRIS.replace(GO, "ply go: move own man step onto empty - b2\n"
                              "ply hop: move own man slide orthogonal onto empty & b2"),
    # a step on a condition: each candidate checked by its own plies
    "where": MORRIS.replace(GO, GO + " where count(own man & adjacent(from)) < 2"),
    # a slide of two steps at least, as far as the mover's men next to it allow plus one,
    # onto a target and on a condition that read the position: each candidate checked by
    # its lands function (cundo.py, lands_checked)
    "reach": MORRIS.replace(GO, GO + "\nply run: move own man slide 2 up to count(own man & adjacent(from)) + 1 "
                            "onto empty - b2 where count(opponent's man & adjacent(here)) < 3"),
    "3-a-side": SMALL_3_A_SIDE,
    # the first turn a single ply: a start block of one position, its arcs listed
    "balanced": SMALL_3_A_SIDE.replace("turn: any then any\n",
                                       "turn: any then any\nfirst turn: any\n"),
    # the ball walks (a path that bends), the link kick dropped
    "walk": SMALL_3_A_SIDE.replace("slide up to", "walk up to").replace(
        "ply kick_link: move ball step link where count(own man & adjacent(from)) >= 1\n", ""),
}


# Six Men's Morris's rules (rulesets/library/six-mens-morris.game), four men a side on
# 3 x 3: placing, stepping and a take while the mover has a line, all taken back (the
# library's take after the ply that made a mill remembers that ply: too many child blocks
# for the un-move solve, which then takes the arcs)
SIX_SMALL = '''game "Morris, four men a side on 3 x 3"
board square 3 x 3
players White, Black
piece man: owner each, reserve 4, symbol W/B
var placed per player = 0 in 0..4
ply place: place own man onto empty then placed[mover] += 1
ply move: move own man step onto empty where placed[mover] == 4
ply remove: take opponent's man where line(3, own man, all, contiguous)
turn: place or move then remove when possible
end two: mover wins if count(opponent's man) + 4 - placed[opponent] < 3
'''


def test_which_games_can_be_taken_back():
    found = {name: game_reversible(load(name)) for name in (
        "3-a-side", "3-a-side-balanced", "3-a-side-free-ball", "3-a-side-match", "three-musketeers",
        "tic-tac-toe", "3-spot", "force-3", "whistling-captures")}
    # the match resets the setup after a goal; Three Musketeers captures by landing;
    # tic-tac-toe only places (a placed piece is lifted back); Force 3 moves other pieces
    # along; 3-Spot's pieces cover two cells; Whistling Captures removes by its effects
    assert found == {"3-a-side": True, "3-a-side-balanced": True, "3-a-side-free-ball": True,
                     "3-a-side-match": False, "three-musketeers": False, "tic-tac-toe": True,
                     "3-spot": False, "force-3": False, "whistling-captures": False}


def test_which_steps_are_taken_back_exactly():
    # a step with no condition and no effect, onto the empty cells among fixed ones, in a
    # game that remembers no ply and compels no capture: its un-moves need no check each
    rs = load("3-a-side")
    plies = {p.name: p for p in rs.plies}
    off_goals = (1 << rs.board.size) - 1 - sum(1 << c for c in rs.board.goals)
    assert exact_landing(rs, plies["step"], 0) == exact_landing(rs, plies["step"], 1) == off_goals
    assert exact_landing(rs, plies["kick"], 0) is None  # a slide: its reverse reach is not exact
    games = {name: load_text(VARIANTS[name], f"{name}.game")
             for name in ("morris", "landing", "where", "clock", "memory")}
    got = {name: exact_landing(v, next(p for p in v.plies if p.name == "go"), 0)
           for name, v in games.items()}
    b2 = 1 << games["landing"].board.index["b2"]  # (the landing variant's steps never end on b2)
    assert got == {"morris": 511, "landing": 511 & ~b2, "where": None, "clock": None, "memory": None}


def test_which_rules_check_a_candidate_without_making_its_plies():
    # a step or a slide with no effect, whose condition and target do not read its path,
    # in a game that remembers no ply and compels no capture
    def checked(text, rule="go"):
        rs = load_text(text, "v.game")
        return lands_checked(rs, next(p for p in rs.plies if p.name == rule))

    rs = load_text(SMALL_3_A_SIDE, "s.game")
    assert [lands_checked(rs, p) for p in rs.plies] == [True, True, True]
    assert checked(VARIANTS["where"]) and checked(VARIANTS["reach"], "run")
    assert not checked(VARIANTS["clock"]) and not checked(VARIANTS["memory"])
    assert not checked(MORRIS.replace(GO, "ply go: move own man slide onto empty where count(path) == 0"))
    assert not checked(VARIANTS["walk"], "kick")  # a walk has no lands function
    assert not checked(MORRIS + "ply hit: move own man step onto opponent's man\ncompulsory capture\n")


def test_a_slide_s_steps_from_each_cell():
    rs = load_text(SMALL_3_A_SIDE, "s.game")
    kick = next(p for p in rs.plies if p.name == "kick")
    steps = reverse_steps(Tables(rs.board), rs.board, kick.motion)
    at = rs.board.index
    goal = at["north_goal"]
    # by hand, on the hexagon of side 3 (rows c1 e1 g1 / b2 d2 f2 h2 / c3 e3 g3 / ...): c1
    # enters North's goal by ne and by nw, one step each way with nothing passed; d2
    # reaches it in two steps by nw (over c1) and by ne (over e1), and e3 in three (over
    # d2 and c1, or f2 and g1): lines that pass other cells, so those plies are made
    assert steps[goal][at["c1"]] == steps[goal][at["e1"]] == 1
    assert steps[goal][at["d2"]] == steps[goal][at["e3"]] == 0
    # e3 to c1 and to g1 is two steps, one line each; e3 to e1 is no line, nor e3 to e3
    assert steps[at["c1"]][at["e3"]] == steps[at["g1"]][at["e3"]] == 2
    assert steps[at["e1"]][at["e3"]] == steps[at["e3"]][at["e3"]] == 0


def test_a_slide_passes_the_cells_between():
    rs = load_text(VARIANTS["landing"], "landing.game")
    hop = next(p for p in rs.plies if p.name == "hop")
    path = reverse_path(Tables(rs.board), rs.board, hop.motion)
    at = rs.board.index
    # orthogonal slides on 3 x 3, by hand: a3 to a1 passes a2, c1 to a1 passes b1; a step
    # passes nothing, and b2 is on no orthogonal line of a1
    assert path[at["a1"]][at["a3"]] == 1 << at["a2"]
    assert path[at["a1"]][at["c1"]] == 1 << at["b1"]
    assert path[at["a1"]][at["a2"]] == path[at["a1"]][at["b2"]] == 0
    assert path[at["b2"]][at["b1"]] == 0 and path[at["b3"]][at["b1"]] == 1 << at["b2"]


@pytest.mark.parametrize("name", ["dodgem", "achi", "tapatan", "six-mens-morris-small"])
def test_placed_and_taken_pieces_are_taken_back(name):
    # a placed piece is lifted, a taken one put back on an empty cell: Dodgem drives cars
    # off (`take`), Achi and Tapatan place then step, the small morris places, steps and
    # takes the opponent's men; the same solution as the Python solver's and as the solve
    # over stored arcs
    rs = load_text(SIX_SMALL, "six.game") if name == "six-mens-morris-small" else load(name)
    assert game_reversible(rs)
    nat = Game(rs, backend="native")
    un = _native(nat, [])
    assert un.stats.unmoves
    same_solution(solve(Game(rs)), un)
    same_solution(un, _native(nat, [], arcs_only=True))


def _native(game, perms, **kw):
    return native_solve.solve_native(game, game.initial_state(), perms, Progress(False), None,
                                     None, **kw)


# (the plain morris, which each other morris adds to, and "balanced", which
# test_sparse_blocks.py solves by un-moves, with -m slow: each builds a solver)
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in ("morris", "balanced") else n
                                  for n in VARIANTS])
def test_un_moves_solve_as_the_python_solver_and_the_arcs(name):
    rs = load_text(VARIANTS[name], f"{name}.game")
    assert game_reversible(rs)
    nat = Game(rs, backend="native")
    perms = board_symmetries(nat, start=nat.initial_state())
    assert len(perms) == 2
    for sym in ([], perms):
        py = solve(Game(rs), symmetry=sym)
        un = _native(nat, sym)
        assert un.stats.unmoves == (name != "memory") and not un.stats.one_pass
        same_solution(py, un)
        same_solution(py, _native(nat, sym, arcs_only=True))
        counts = py.counts()
        assert counts["win"] and counts["lose"] and counts["draw"]


@pytest.mark.parametrize("name", ["morris", "pass", "3-a-side", "balanced"])
def test_children_counted_in_reachability_or_again(name):
    # reachability keeps each position's count of distinct children in a byte where there
    # is room (a tally); past the room, or past the count the byte keeps, the counting pass
    # makes the children again: the same solution every way
    rs = load_text(VARIANTS[name], f"{name}.game")
    nat = Game(rs, backend="native")
    perms = board_symmetries(nat, start=nat.initial_state())
    py = solve(Game(rs), symmetry=perms)
    for room, most in ((-1, -1), (0, -1), (-1, 1), (-1, 0)):
        same_solution(py, _native(nat, perms, tally_room=room, tally_most=most))
    # room for one block's tally (a byte per index of a combination of piece counts and
    # turn: three men each among 9 cells, or the ball and one man each among the cells):
    # the other blocks counted again
    n = nat.board.size
    block = comb(9, 3) * comb(6, 3) if name in ("morris", "pass") else n * (n - 1) * (n - 2)
    same_solution(py, _native(nat, perms, tally_room=block))


def test_hand_known_values_of_the_morris_game():
    g = Game(load_text(MORRIS, "morris.game"), backend="native")
    sol = _native(g, [])
    # by hand: X (a1, b1, c2) to move, O on a3, c3 and b2 with no line; c2-c1 makes the
    # first row X's, and no other step makes a line (c3 and b2, on X's other lines, are O's)
    s = g.state_from_text("O.O/.OX/XX. X")
    assert sol.lookup(s) == ("win", 1)
    assert [p.text for p in sol.analyze(s) if p.value == "win" and p.remoteness == 1] == ["c2-c1"]


def test_an_un_move_solution_is_saved_read_and_verified(tmp_path):
    rs = load_text(SMALL_3_A_SIDE, "s.game")
    g = Game(rs, backend="native")
    copied = _native(g, [])
    kept = _native(g, [], copy_limit=0)
    assert isinstance(kept, native_solve.NativeSolution) and kept.stats.unmoves
    path = str(tmp_path / "s.sol")
    kept.save(path)
    back = type(copied).load(path, g)
    assert len(back) == len(copied)
    for i in range(0, len(copied), 97):
        s = copied.position(i)
        assert back.lookup(s) == copied.lookup(s)
    assert verify(back, 3000, seed=2).problems == []
