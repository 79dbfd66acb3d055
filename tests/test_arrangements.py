"""The native solve of every arrangement (interpreter/native/solver/arrangements.c,
`solve(..., arrangements=True)`, `rulecraft solve --arrangements`): no reachability; plies
counted, not children; what a decided position takes from its predecessors' counts weighed
by the symmetries that keep each. Every position a solve by reachability holds has the
same value and remoteness; the positions counted are the arrangements, worked out by hand
below. (tests/test_handwritten_solver.py checks every arrangement of 3-A-Side with one man
a side against a solver written by hand.)"""

from __future__ import annotations

import os
import sys

import pytest

from dsl.load import load, load_text
from interpreter.apps import cli
from interpreter.native import build as native_build
from interpreter.runtime.game import Game
from interpreter.search import native_solve
from interpreter.search.player_swap import player_swap
from interpreter.search.progress import Progress
from interpreter.search.solver import SolveError, solve
from interpreter.search.symmetry import board_symmetries
from interpreter.search.solution import Solution
from interpreter.search.verify import verify

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.test_reads import _alike  # noqa: E402
from tests.test_unmoves import VARIANTS  # noqa: E402

pytestmark = pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")

ONE_MAN = 'variant of "3-a-side"\ngame "3-A-Side, 1 a side"\nsetup man of North: g2\nsetup man of South: g6\n'


def _solve(game: Game, symmetry: bool, swap: bool, arrangements: bool, threads: int = 1):
    start = game.initial_state()
    perms = board_symmetries(game, start=start) if symmetry else []
    sw = player_swap(game, perms, start=start) if swap else None
    return native_solve.solve_native(game, start, perms, Progress(False), None, None,
                                     threads=threads, swap=sw, arrangements=arrangements)


# 3-A-Side with one man a side: the ball on any of 35 cells or 2 goals, the men on 35
# (34 x 33 ways with the ball on the board, 35 x 34 with it in a goal): 41,650 a player to
# move and phase (2 x 2: 166,600). The mirror keeps those of the ball and men on its axis
# (g2, g4, g6, and the goals for the ball): 18 a player and phase.
@pytest.mark.parametrize("symmetry, swap, arrangements", [
    (False, False, 166_600),
    (True, False, (166_600 + 72) // 2),
    (True, True, (83_300 + 36) // 2),
])
def test_every_arrangement_has_the_values_reachability_gives(symmetry, swap, arrangements):
    game = Game(load_text(ONE_MAN), backend="native")
    reached = _solve(game, symmetry, swap, False)
    every = _solve(game, symmetry, swap, True)
    assert len(every) == arrangements and len(reached) < arrangements
    differ = []
    for i in range(len(reached)):
        s = reached.position(i)
        if not game.is_terminal(s) and reached.lookup(s) != every.lookup(s):
            differ.append(game.state_to_text(s))
    assert differ == []
    assert every.stats.unmoves and every.stats.enumerate_seconds == 0


def test_a_ply_that_ends_in_a_draw_keeps_its_position_from_losing():
    # the ball kicked onto e4 ends the game in a draw: a position whose other
    # plies all lose is a draw, one whose plies all lose at once is lost in 1
    game = Game(load_text(ONE_MAN + "new end beside: draw if ball in e4\n"), backend="native")
    reached, every = _solve(game, True, True, False), _solve(game, True, True, True)
    held = [reached.position(i) for i in range(len(reached))]
    values = [reached.lookup(s) for s in held if not game.is_terminal(s)]
    assert [every.lookup(s) for s in held if not game.is_terminal(s)] == values
    assert sum(v.value == "draw" for v in values) > sum(v.value == "draw" for v in
                                                          _values(ONE_MAN)) > 0


def test_a_turn_s_second_ply_is_counted_apart_where_the_end_rules_ask_whose_turn_is_next():
    # the ball kicked onto e4 loses for the player to move next: the mover after the
    # turn's first ply, the other player after its last (the first pass counts the two
    # phases apart; without that end rule it counts one for both)
    text = ONE_MAN + "new end far: next loses if ball in e4\n"
    game = Game(load_text(text), backend="native")
    for swap in (False, True):
        reached, every = _solve(game, True, swap, False), _solve(game, True, swap, True)
        held = [reached.position(i) for i in range(len(reached))]
        held = [s for s in held if not game.is_terminal(s)]
        assert [every.lookup(s) for s in held] == [reached.lookup(s) for s in held]


# Pong Hau K'i with two plies a turn: the player to move is stuck where the empty cell is
# a3 (or c3) and its two neighbours, a1 and b2 (c1 and b2), are the other player's: two
# placements a player to move, mirror images, so one class a player and phase (4)
PONG_TWICE = 'variant of "pong-hau-kii"\ngame "Pong Hau K\'i, two plies a turn"\nnew turn: any then any\n'


@pytest.mark.parametrize("text, never, stuck", [(ONE_MAN, "ball in g2 and ball in g6", 0),
                                                (PONG_TWICE, "count(stone) > 4", 4)])
def test_the_plies_counted_once_for_both_phases_are_those_counted_apart(text, never, stuck):
    # an end rule that never fires but asks whose turn is next: the first pass then counts
    # each phase's plies itself; the counts, ends and values are the same
    apart_text = text + f"new end never: next loses if {never}\n"
    assert (_alike(text, "once.game"), _alike(apart_text, "apart.game")) == ([-1, 0, -1, 0], [-1] * 4)
    game, apart = Game(load_text(text), backend="native"), Game(load_text(apart_text), backend="native")
    for swap in (False, True):
        once, twice = _solve(game, True, swap, True), _solve(apart, True, swap, True)
        assert (once.stats.edges, once.stats.terminal, once.stats.levels) == \
               (twice.stats.edges, twice.stats.terminal, twice.stats.levels)
        assert (list(once.keys), once.values, list(once.remoteness)) == \
               (list(twice.keys), twice.values, list(twice.remoteness))
        assert once.stats.terminal == stuck


# one man a side on three cells in a row, each stepping east only, two plies a turn: from
# the setup X must step to b1 and is then stuck (the default rule: a stuck player loses),
# so the start is lost in 1; the stuck position is in the block of the turn's second ply,
# whose first count is the first ply's
ONE_WAY = """game "One way"
board square 3 x 1
players X, O
piece man: owner each, symbol X/O
setup man of X: a1
setup man of O: c1
ply go: move own man step e onto empty
turn: any then any
"""


def test_a_stuck_position_of_a_turn_s_second_ply_decides_the_first():
    assert _alike(ONE_WAY, "one-way.game") == [-1, 0, -1, 0]
    game = Game(load_text(ONE_WAY), backend="native")
    every, reached = _solve(game, False, False, True), _solve(game, False, False, False)
    start = game.initial_state()
    assert (every.lookup(start).value, every.lookup(start).remoteness) == ("lose", 1)
    # 3 x 2 placements, each player and phase: 24; the mover stuck on c1 or west of the
    # other man: 4 placements of 6, each player and phase: 16
    assert (len(every), every.stats.terminal) == (24, 16)
    held = [s for s in (reached.position(i) for i in range(len(reached))) if not game.is_terminal(s)]
    assert [every.lookup(s) for s in held] == [reached.lookup(s) for s in held]


def _values(text: str) -> list:
    game = Game(load_text(text), backend="native")
    sol = _solve(game, True, True, False)
    return [sol.lookup(sol.position(i)) for i in range(len(sol))]


@pytest.mark.parametrize("name", ["mu-torere", "pong-hau-kii"])
def test_other_games_of_moves_alone(name):
    # games whose plies move one piece and never take one off: each reached position the same
    game = Game(load(name), backend="native")
    for symmetry in (False, True):
        reached, every = _solve(game, symmetry, False, False), _solve(game, symmetry, False, True)
        held = [reached.position(i) for i in range(len(reached))]
        assert [every.lookup(s) for s in held if not game.is_terminal(s)] == \
               [reached.lookup(s) for s in held if not game.is_terminal(s)]
        assert reached.lookup(game.initial_state()).value == every.lookup(game.initial_state()).value


def test_two_threads_give_the_same_solution():
    game = Game(load_text(ONE_MAN), backend="native")
    one, two = _solve(game, True, True, True, threads=1), _solve(game, True, True, True, threads=2)
    assert (list(one.keys), one.values, list(one.remoteness)) == \
           (list(two.keys), two.values, list(two.remoteness))


def test_an_ended_child_is_valued_by_its_end(capsys):
    # a solve of every arrangement holds no ended position: `analyze` values a ply that
    # ends the game by the end itself (the ball kicked into North's goal wins at once)
    position = "*N../S..../....../...../....../...../..../.. South ply=1"
    game = Game(load_text(ONE_MAN), backend="native")
    sol = solve(game, game.state_from_text(position), symmetry=True, swap_players=True,
                arrangements=True)
    plies = {p.text: (p.value, p.remoteness) for p in sol.analyze(game.state_from_text(position))}
    assert plies["d1-north_goal"] == ("win", 1)
    assert plies["c2-e2"] == ("win", 2)
    assert plies["d1-e2"] == ("draw", None)


def test_a_saved_solution_of_every_arrangement_agrees_with_the_rules(tmp_path):
    # verify checks each position drawn against its children by the Python rules: those
    # no play reaches (the ball in a goal) as much as the others
    game = Game(load_text(ONE_MAN), backend="native")
    solve(game, symmetry=True, swap_players=True, arrangements=True).save(str(tmp_path / "one.sol"))
    sol = Solution.load(str(tmp_path / "one.sol"), Game(load_text(ONE_MAN), backend="python"))
    report = verify(sol, 3000, seed=2)
    assert (report.checked, report.start.value, report.problems) == (3001, "draw", [])


@pytest.mark.parametrize("backend, out_of_core", [("python", None), ("native", True)])
def test_only_the_native_solver_in_memory_solves_every_arrangement(backend, out_of_core):
    game = Game(load_text(ONE_MAN), backend=backend)
    with pytest.raises(SolveError) as e:
        solve(game, arrangements=True, out_of_core=out_of_core)
    assert str(e.value) == "every arrangement is solved by the native solver, in memory, only"


@pytest.mark.parametrize("name, why", [
    ("three-musketeers", "some ply cannot be taken back"),
    ("dodgem", "a ply puts pieces down or takes them off"),
    ("achi", "a ply puts pieces down or takes them off"),
])
def test_games_it_cannot_solve_say_why(name, why):
    game = Game(load(name), backend="native")
    with pytest.raises(SolveError) as e:
        solve(game, arrangements=True)
    assert str(e.value) == f"every arrangement cannot be solved: {why}"


def test_the_cli(capsys, tmp_path):
    game_file = tmp_path / "one.game"
    game_file.write_text(ONE_MAN)
    assert cli.main(["solve", str(game_file), "--arrangements", "--symmetry", "--swap-players", "-q"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "3-A-Side, 1 a side: draw (South to move)"
    assert out[1].startswith("positions: 41,668 (every arrangement), 4 symmetries; ")
    assert "un-moves" in out[1] and "enumerate" not in out[1]
    assert cli.main(["solve", "three-musketeers", "--arrangements", "-q"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == \
        "rulecraft solve: error: every arrangement cannot be solved: some ply cannot be taken back"
    assert cli.main(["solve", str(game_file), "--arrangements", "--max-positions", "1000", "-q"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == \
        "rulecraft solve: error: more than 1,000 arrangements (--max-positions)"


@pytest.mark.parametrize("extra, why", [
    (["--proof"], "--proof searches in Python, in this process, on one thread"),
    (["--tier-dir", "TIERS"], "the solve by tiers runs its tasks in Python, its tiers on disk, "
                              "with no memory cap"),
])
def test_the_cli_refuses_it_where_nothing_takes_it(capsys, tmp_path, extra, why):
    extra = [str(tmp_path / a) if a == "TIERS" else a for a in extra]
    assert cli.main(["solve", "tic-tac-toe", "--arrangements", *extra]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == \
        f"rulecraft solve: error: --arrangements does nothing here: {why}"


@pytest.mark.parametrize("name", ["morris", "pass", "landing", "where", "3-a-side", "balanced", "walk"])
def test_the_un_move_games_of_moves_alone(name):
    # tests/test_unmoves.py's small games whose plies move one piece: passes, two-ply
    # turns, a first turn of one ply, landings a step never makes, conditions, bent paths
    game = Game(load_text(VARIANTS[name], f"{name}.game"), backend="native")
    for symmetry in (False, True):
        reached, every = _solve(game, symmetry, False, False), _solve(game, symmetry, False, True)
        held = [s for s in (reached.position(i) for i in range(len(reached))) if not game.is_terminal(s)]
        assert [every.lookup(s) for s in held] == [reached.lookup(s) for s in held]


@pytest.mark.parametrize("name, why", [
    ("clock", "the rules keep counters or variables"),
    ("memory", "the rules remember the previous ply"),
    ("ended", "the start has ended"),
])
def test_move_games_it_cannot_solve_say_why(name, why):
    # (the ball set up on the point whose end rule gives a draw)
    text = VARIANTS.get(name) or ONE_MAN + "new end middle: draw if ball in g4\n"
    game = Game(load_text(text, f"{name}.game"), backend="native")
    with pytest.raises(SolveError) as e:
        solve(game, arrangements=True)
    assert str(e.value) == f"every arrangement cannot be solved: {why}"
