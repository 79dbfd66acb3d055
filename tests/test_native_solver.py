"""The native solver against the Python one: the same positions, values and remoteness."""

from __future__ import annotations

import json
import os
import sys

import pytest

from rulecraft.dsl.load import load
from rulecraft.interpreter.game import Game
from rulecraft.interpreter.limits import RuleLimitError
from rulecraft.interpreter.native import build as native_build
from rulecraft.interpreter.native import solve as native_solve
from rulecraft.interpreter.search.solution import Solution
from rulecraft.interpreter.search.solver import SolveError, solve

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.test_native import ROW, cache, generated_rulesets, load_text  # noqa: E402,F401 - the fixture

pytestmark = pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")


@pytest.fixture
def native_calls(monkeypatch):
    """How many solves the native solver finished (it falls back to Python otherwise)."""
    done: list[int] = []
    real = native_solve.solve_native

    def counted(*args, **kwargs):
        sol = real(*args, **kwargs)
        done.append(len(sol))
        return sol

    monkeypatch.setattr(native_solve, "solve_native", counted)
    return done


def same_solution(a: Solution, b: Solution) -> None:
    assert list(a.keys) == list(b.keys)
    assert a.values == b.values
    assert list(a.remoteness) == list(b.remoteness)
    sa, sb = a.stats, b.stats
    assert (sa.positions, sa.edges, sa.terminal, sa.symmetries, sa.levels) == \
           (sb.positions, sb.edges, sb.terminal, sb.symmetries, sb.levels)


@pytest.mark.parametrize("name,symmetry", [("tic-tac-toe", False), ("tic-tac-toe", True),
                                           ("3-spot", False), ("3-spot-score-rule", True),
                                           ("3-spot-optional-white", False), ("force-3", True)])
def test_the_bundled_games_solve_the_same(name, symmetry, native_calls):
    py = solve(Game(load(name)), symmetry=symmetry)
    nat = solve(Game(load(name), backend="native"), symmetry=symmetry)
    assert native_calls == [len(py)]
    same_solution(py, nat)


def test_hand_known_figures(native_calls):
    # tic-tac-toe: 5,478 legal positions, 765 up to the board's 8 symmetries, a draw
    g = Game(load("tic-tac-toe"), backend="native")
    assert len(solve(g)) == 5478 and len(solve(g, symmetry=True)) == 765
    assert solve(g).lookup(g.initial_state()) == ("draw", None)
    # a row of 3 cells, one man each, moving a step: the first to move is blocked at once
    row = ROW.replace("5 x 1", "2 x 1").replace("e1", "b1")
    g = Game(load_text(row, "two.game"), backend="native")
    sol = solve(g)
    assert len(sol) == 1 and sol.lookup(g.initial_state()) == ("lose", 0)
    assert native_calls == [5478, 765, 5478, 1]


@pytest.mark.parametrize("batch", range(3))
def test_generated_rulesets_solve_the_same(batch, native_calls):
    solved = 0
    for text in generated_rulesets(10, 100 + batch):
        results = []
        for backend in ("python", "native"):
            try:
                g = Game(load_text(text, f"s{batch}.game"), backend=backend)
                if len(g.players) != 2:
                    break
                results.append(solve(g, symmetry=True, max_positions=20_000))
            except (SolveError, RuleLimitError) as e:
                results.append(str(e))
        if len(results) == 2:
            if isinstance(results[0], str):
                assert results[0] == results[1]
            else:
                same_solution(*results)
                solved += 1
    assert solved >= 3 and len(native_calls) >= 3


def test_the_caps_stop_a_native_solve_as_a_python_one():
    g = Game(load("force-3"), backend="native")
    with pytest.raises(SolveError, match=r"^more than 1,000 positions are reachable$") as e:
        solve(g, max_positions=1000)
    assert e.value.limit == "positions"
    with pytest.raises(SolveError, match=r"^stopped at [\d,]+ positions: the solve would need "
                                         r"more than the memory cap of 20.0 MiB$") as e:
        solve(g, max_memory=20 << 20)
    assert e.value.limit == "memory"


def test_what_the_index_cannot_hold_is_solved_in_python(native_calls):
    # 12 x 12 cells and two piece types: keys of 288 bits, past the native solver's 128
    big = ROW.replace("5 x 1", "12 x 12").replace("e1", "l12").replace("step", "step orthogonal")
    nat = Game(load_text(big, "big.game"), backend="native")
    a = solve(nat, max_positions=50_000)
    b = solve(Game(load_text(big, "big.game")), max_positions=50_000)
    assert native_calls == []
    same_solution(a, b)


def test_a_rule_error_while_solving_is_the_python_error():
    text = ROW + "var x = 0 in 0..5\nafter each ply: x = x + 1\n"
    errors = []
    for backend in ("python", "native"):
        with pytest.raises(RuleLimitError) as e:
            solve(Game(load_text(text, "t.game"), backend=backend))
        errors.append(str(e.value))
    assert errors[0] == errors[1] and "would be 6, outside its range 0..5" in errors[0]


def test_a_native_solution_is_saved_and_read_as_any(tmp_path):
    path = str(tmp_path / "f3.sol")
    nat = Game(load("force-3"), backend="native")
    sol = solve(nat, symmetry=True)
    sol.save(path)
    py = Game(load("force-3"))
    back = Solution.load(path, py)
    start = py.initial_state()
    assert back.lookup(start) == ("win", 9)
    assert back.best_actions(start) == sol.best_actions(start)


def test_solve_on_the_command_line_with_either_backend(capsys):
    from rulecraft.interpreter import cli
    outs = []
    for b in ("python", "native"):
        assert cli.main(["solve", "3-spot", "--json", "--backend", b]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1] == {"value": "win", "remoteness": 47, "positions": 177233,
                                  "best": ["c1+c2-a3+b3"]}


def test_threads_do_not_change_the_solution():
    g = Game(load("3-spot"), backend="native")
    from rulecraft.interpreter.search.progress import Progress
    one = native_solve.solve_native(g, g.initial_state(), [], Progress(False), None, None, threads=1)
    two = native_solve.solve_native(g, g.initial_state(), [], Progress(False), None, None, threads=2)
    same_solution(one, two)
