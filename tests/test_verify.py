"""`verify`: a solution checked position by position against its children."""

from __future__ import annotations

import json

import pytest

from dsl.load import load
from interpreter.apps import cli
from interpreter.runtime.game import Game
from interpreter.native import build as native_build
from interpreter.search import native_solve
from interpreter.search.progress import Progress
from interpreter.search.solution_file import DRAW, LOSE, WIN
from interpreter.search.solver import solve
from interpreter.search.verify import check_position, expected_value, verify


needs_cc = pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")

def test_every_position_of_a_sound_solution_agrees_with_its_children():
    g = Game(load("tic-tac-toe"))
    sol = solve(g)
    report = verify(sol, 10_000)
    assert report.checked == 5478 + 1 and report.problems == []
    assert report.start == ("draw", None)
    # by hand: X to move with two in the top row and the third cell free wins at once
    s = g.state_from_text("XX./OO./... X")
    assert expected_value(sol, s) == ("win", 1) == sol.lookup(s)


def test_a_wrong_value_is_found_with_what_the_children_give():
    g = Game(load("tic-tac-toe"))
    sol = solve(g)
    won = g.state_from_text("XXX/OO./... O")  # X has three in a row: O, to move, has lost
    i = sol._index(won)
    assert (sol.values[i], sol.remoteness[i]) == (LOSE, 0)
    sol.values[i] = DRAW
    assert check_position(sol, won) == ("XXX/OO./... O result=X: the solution says draw, its "
                                        "end gives lose in 0")
    # its parent won by that ply, its only win at once: it disagrees now, and so does the
    # changed position, both found when every position is checked
    parent = g.state_from_text("XX./OO./... X")
    assert check_position(sol, parent).startswith(
        "XX./OO./... X: the solution says win in 1, its children give ")
    problems = verify(sol, 10_000).problems
    assert any(p.startswith("XXX/OO./... O result=X: the solution says draw") for p in problems)
    assert any(p.startswith("XX./OO./... X: the solution says win in 1") for p in problems)


def test_a_remoteness_off_by_one_is_found():
    g = Game(load("tic-tac-toe"))
    sol = solve(g)
    s = g.state_from_text("XX./OO./... X")
    i = sol._index(s)
    assert (sol.values[i], sol.remoteness[i]) == (WIN, 1)
    sol.remoteness[i] = 3
    assert check_position(sol, s) == ("XX./OO./... X: the solution says win in 3, its children "
                                      "give win in 1")


@needs_cc
def test_the_native_index_is_sampled_and_checked_as_any_solution():
    g = Game(load("3-spot"), backend="native")
    kept = native_solve.solve_native(g, g.initial_state(), [], Progress(False), None, None,
                                     copy_limit=0)
    copied = solve(Game(load("3-spot")))
    assert isinstance(kept, native_solve.NativeSolution) and len(kept) == len(copied)
    # position(i) walks every stored position once: the same set as the Python solve's
    assert sorted(copied.codec.pack(kept.position(i)) for i in range(len(kept))) == \
        list(copied.keys)
    with pytest.raises(IndexError):
        kept.position(len(kept))
    report = verify(kept, 3000, seed=4)
    assert report.checked == 3001 and report.problems == []
    assert report.start == ("win", 47)


def test_verify_on_the_command_line(tmp_path, capsys):
    path = str(tmp_path / "ttt.sol")
    assert cli.main(["solve", "tic-tac-toe", "-q", "--save", path]) == 0
    capsys.readouterr()
    assert cli.main(["verify", "tic-tac-toe", "--solution", path, "--samples", "500",
                     "--seed", "3"]) == 0
    assert capsys.readouterr().out == (
        "start: draw (X to move)\n"
        "checked: 501 positions (the start and 500 drawn with seed 3 from the 5,478 the "
        "solution holds), each against its children\n"
        "every one agrees with its children\n")
    assert cli.main(["verify", "tic-tac-toe", "--solution", path, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == {"checked": 5479, "positions": 5478,
                   "start": {"value": "draw", "remoteness": None}, "problems": []}


def test_verify_refuses_a_solution_of_another_game(tmp_path, capsys):
    path = str(tmp_path / "ttt.sol")
    assert cli.main(["solve", "tic-tac-toe", "-q", "--save", path]) == 0
    capsys.readouterr()
    assert cli.main(["verify", "3-spot", "--solution", path]) == 2
    err = capsys.readouterr().err
    assert err == (f"rulecraft verify: error: --solution: {path}: this solution was made for "
                   f"another ruleset ('Tic-tac-toe'), or for another version of this one: "
                   f"solve it again\n")
