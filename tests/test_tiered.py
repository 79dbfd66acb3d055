"""The solve by tiers (interpreter/search/tiered.py), run in this process: the Python
solver's solution exactly, a run that stopped resumed from its files, the tiers checked."""

from __future__ import annotations

import functools
import json
import os
import sys

import pytest

from dsl.load import load
from interpreter.runtime.game import Game
from interpreter.search import tiered
from interpreter.search.player_swap import player_swap
from interpreter.search.solution import Solution
from interpreter.search.solver import SolveError, solve
from interpreter.search.symmetry import board_symmetries

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.test_native import ruleset_files, load_text  # noqa: E402,F401 - the fixture
from tests.test_native_solver import SMALL_MUSKETEERS, same_solution  # noqa: E402
from tests.test_sparse_blocks import _body  # noqa: E402


def _game(name: str) -> Game:
    return Game(load_text(SMALL_MUSKETEERS, "m43.game") if name == "musketeers" else load(name))


@functools.lru_cache(maxsize=None)
def _whole(name: str, symmetric: bool) -> Solution:
    """The Python solver's solution in one piece (the same for the tests below)."""
    game = _game(name)
    return solve(game, symmetry=board_symmetries(game, start=game.initial_state()) if symmetric else [])


@pytest.mark.parametrize("name", ["tic-tac-toe", "musketeers", "breakthrough-3x4", "hexapawn",
                                  "three-mens-morris"])
def test_the_tiers_give_the_python_solvers_solution(name, tmp_path):
    # tiers rising (placements), falling (captures), two kinds a tier (Breakthrough), none
    # at all (the morris: placed, then moved); with the board's symmetries and without
    game = _game(name)
    for perms in ([], board_symmetries(game, start=game.initial_state())):
        root = str(tmp_path / f"t{len(perms)}")
        whole = _whole(name, bool(perms))
        tiers = tiered.solve_tiered(game, game.initial_state(), perms, root, chunk=300)
        same_solution(whole, tiers)
        assert tiers.lookup(game.initial_state()) == whole.lookup(game.initial_state())


needs_cc = pytest.mark.skipif(__import__("interpreter.native.build", fromlist=["compiler"]).compiler() is None,
                              reason="no C compiler here")


@needs_cc
@pytest.mark.parametrize("name", ["tic-tac-toe", "musketeers", "breakthrough-3x4", "three-mens-morris"])
def test_the_tasks_in_c_give_the_python_solvers_solution(name, tmp_path):
    # a game with the native back-end lists its tasks' children in C (native_children.py)
    game = _game(name)
    native = Game(game.ruleset, backend="native")
    for perms in ([], board_symmetries(game, start=game.initial_state())):
        spec = tiered.spec_of(native, perms, str(tmp_path))
        assert tiered._side(spec).kids.func is tiered._native_kids  # C's, not Python's
        whole = _whole(name, bool(perms))
        same_solution(whole, tiered.solve_tiered(native, native.initial_state(), perms,
                                                 str(tmp_path / f"n{len(perms)}"), chunk=300))


@needs_cc
def test_the_children_in_c_are_the_python_rules_children():
    from interpreter.search.native_children import NativeChildren
    game = _game("musketeers")
    perms = board_symmetries(game, start=game.initial_state())
    side = tiered._side(tiered.spec_of(game, perms, "unused"))
    assert side.kids.func is tiered._python_kids  # a game on the Python back-end
    keys = sorted(solve(game, symmetry=perms).keys)[::7]
    native = NativeChildren(Game(game.ruleset, backend="native"), side.codec, perms)
    assert native.children(keys) == side.kids(keys)
    ended = [k for k, (_, status, _) in zip(keys, side.kids(keys)) if status]
    assert ended and all(not kids for _, status, kids in native.children(ended) if status)


def test_a_solution_by_tiers_saves_as_the_same_file(tmp_path):
    game = _game("musketeers")
    files = []
    for sol in (solve(game), solve(game, tier_dir=str(tmp_path / "tiers"))):
        path = tmp_path / f"{len(files)}.sol"
        sol.save(str(path))
        files.append(_body(path.read_bytes()))
    assert files[0] == files[1]
    assert Solution.load(str(path), game).lookup(game.initial_state()) == ("win", 17)


def test_a_run_that_stopped_resumes_from_the_tiers_it_finished(tmp_path):
    game = _game("musketeers")
    root = str(tmp_path / "tiers")
    tasks: list[str] = []

    def counting(fn, items):
        tasks.extend(fn.__name__ for _ in items)
        return tiered.local_run(fn, items)

    whole = tiered.solve_tiered(game, game.initial_state(), [], str(tmp_path / "whole"), counting,
                                chunk=500)
    every = len(tasks)
    tasks.clear()

    def dying(fn, items):  # the driver stops halfway through the values
        if fn is tiered.children and tasks.count("children") >= 10:
            raise KeyboardInterrupt
        return counting(fn, items)

    with pytest.raises(KeyboardInterrupt):
        tiered.solve_tiered(game, game.initial_state(), [], root, dying, chunk=500)
    before = len(tasks)
    tasks.clear()
    again = tiered.solve_tiered(game, game.initial_state(), [], root, counting, chunk=500)
    same_solution(whole, again)
    assert "expand" not in tasks  # every tier was reached before it stopped
    assert 0 < len(tasks) < every <= before + len(tasks)  # (the tier it stopped in, again)


def test_a_directory_of_another_solve_is_refused(tmp_path):
    root = str(tmp_path / "tiers")
    game = _game("tic-tac-toe")
    tiered.solve_tiered(game, game.initial_state(), [], root)
    other = _game("hexapawn")
    with pytest.raises(SolveError) as e:
        tiered.solve_tiered(other, other.initial_state(), [], root)
    assert str(e.value) == (f"{root} holds the tiers of another solve (another ruleset or other "
                            "symmetries): give an empty directory")


def test_a_tier_the_model_misread_stops_the_solve(tmp_path, monkeypatch):
    # tic-tac-toe's marks counted as if never added: the first ply raises the tier
    monkeypatch.setattr(tiered, "tier_weights", lambda rs: [1, 1])
    tiered._side.cache_clear()
    game = _game("tic-tac-toe")
    with pytest.raises(tiered.TierError) as e:
        tiered.solve_tiered(game, game.initial_state(), [], str(tmp_path / "tiers"))
    assert str(e.value) == "a ply raised the tier the model gave (dsl/monotone.py)"
    tiered._side.cache_clear()


def test_tier_files_may_live_behind_an_fsspec_url():
    pytest.importorskip("fsspec")
    game = _game("tic-tac-toe")
    sol = tiered.solve_tiered(game, game.initial_state(), [], "memory://rulecraft-test/tiers")
    same_solution(solve(game), sol)


def test_the_command_line_solves_by_tiers(tmp_path, capsys):
    from interpreter.apps.entry import main
    assert main(["solve", "tic-tac-toe", "--tier-dir", str(tmp_path / "t"), "-q"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Tic-tac-toe: draw (X to move)\npositions: 5,478; ")
    assert "retrograde" in out.splitlines()[1]
    assert main(["solve", "tic-tac-toe", "--tier-dir", str(tmp_path / "t"), "-q", "--json"]) == 0
    assert '"positions": 5478' in capsys.readouterr().out


def test_a_cluster_without_ray_is_a_usage_error(monkeypatch, capsys):
    from interpreter.apps.entry import main
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails, as where it is missing
    assert main(["solve", "tic-tac-toe", "--cluster", "local", "-q"]) == 2
    assert capsys.readouterr().err == ("rulecraft solve: error: --cluster needs Ray: pip install "
                                       "'rulecraft[cluster]'\n")


def test_a_cluster_that_is_not_there_is_a_usage_error(capsys):
    pytest.importorskip("ray")
    from interpreter.apps.entry import main
    assert main(["solve", "tic-tac-toe", "--cluster", "127.0.0.1:1", "-q"]) == 2
    assert capsys.readouterr().err == ("rulecraft solve: error: could not reach the Ray cluster "
                                       "at 127.0.0.1:1: Connection refused\n")


def test_tiers_that_do_not_dominate_each_other_run_side_by_side(tmp_path):
    # Breakthrough 3 x 4: a capture takes a white or a black man, so tiers such as
    # (5 white, 5 black) and (6 white, 4 black) are reached, and solved, in the same calls
    game = _game("breakthrough-3x4")
    waves: list[tuple[str, set]] = []

    def watching(fn, items):
        waves.append((fn.__name__, {a[1] for a in items}))
        return tiered.local_run(fn, items)

    sol = tiered.solve_tiered(game, game.initial_state(), [], str(tmp_path / "t"), watching)
    same_solution(solve(game), sol)
    assert ("expand", {(5, 5), (6, 4)}) in waves
    assert any(name == "children" and {(5, 5), (6, 4)} <= tiers for name, tiers in waves)


DUEL = """game "Duel"
board square 4 x 4 with diagonals
players White, Black
piece man: owner each, symbol X/O
setup man of White: a1
setup man of Black: d4
ply join: move own man step orthogonal onto empty where count(adjacent(here) & own man) >= 1
  then remove adjacent(here) & opponent's piece
ply go: move own man step onto empty | opponent's piece
turn: any then any
end stuck: draw if no legal ply
"""


def test_the_players_swap_keeps_a_position_and_its_image_in_one_tier(tmp_path):
    # with the swap, a child with Black to move is kept as its image: its counts of white
    # and black men exchanged. Tiers of the counts as they stand rose then: White takes
    # the black man and plays on, in tier (1, 0), then Black is to move, kept as (0, 1).
    # In order, least first, they never rise
    game = Game(load_text(DUEL, "duel.game"))
    swap = player_swap(game, [], start=game.initial_state())
    assert swap is not None
    tiers = tiered.solve_tiered(game, game.initial_state(), [], str(tmp_path / "t"), swap=swap)
    whole = solve(game, swap_players=True)
    same_solution(whole, tiers)
    assert len(tiers) == 512 and tiers.lookup(game.initial_state()) == whole.lookup(game.initial_state())


def test_tiers_of_a_swap_named_the_old_way_are_refused(tmp_path):
    # a directory of a solve with the swap from before its tiers' counts were kept in
    # order (its manifest says nothing of their order) names its tiers otherwise: refused,
    # not resumed
    game = Game(load_text(DUEL, "duel.game"))
    swap = player_swap(game, [], start=game.initial_state())
    root = tmp_path / "t"
    tiered.solve_tiered(game, game.initial_state(), [], str(root), swap=swap)
    manifest = json.loads((root / "manifest.json").read_text())
    old = {k: v for k, v in manifest.items() if k != "tiers"}  # as the code before wrote it
    (root / "manifest.json").write_text(json.dumps(old))
    with pytest.raises(SolveError, match="holds the tiers of another solve"):
        tiered.solve_tiered(game, game.initial_state(), [], str(root), swap=swap)
