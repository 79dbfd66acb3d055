"""The swap of the players (search/player_swap.py): which games have one, and solves that
keep a position and its image as one against solves that keep both."""

from __future__ import annotations

import functools
import os
import sys

import pytest

from dsl.load import load
from interpreter.apps import cli
from interpreter.native import build as native_build
from interpreter.runtime.game import Game
from interpreter.search import native_solve
from interpreter.search.progress import Progress
from interpreter.search.player_swap import player_swap, swap_state
from interpreter.search.solver import Solution, solve
from interpreter.search.symmetry import board_symmetries

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.test_native import ruleset_files, load_text  # noqa: E402,F401 - the fixture
from tests.test_unmoves import SIX_SMALL, SMALL_3_A_SIDE  # noqa: E402


def small() -> Game:
    return Game(load_text(SMALL_3_A_SIDE, "small.game"))


def test_3_a_side_swaps_north_and_south_across_the_middle_row():
    g = Game(load("3-a-side"))
    sw = player_swap(g, board_symmetries(g))
    assert sw is not None
    assert sw.types == (1, 0, 2)  # South's men and North's exchanged, the ball kept
    b = g.board
    # each vertex to the one in the same column of the mirrored row, each goal to the other
    assert {b.names[c]: b.names[sw.cells[c]] for c in range(b.size)
            if b.names[c] in ("e2", "g4", "d1", "b3", "north_goal")} == \
        {"e2": "e6", "g4": "g4", "d1": "d7", "b3": "b5", "north_goal": "south_goal"}
    start = g.initial_state()
    image = swap_state(g, start, sw)
    assert g.state_to_text(image) == g.state_to_text(start).replace(" South", " North")


@pytest.mark.parametrize("name", ["three-musketeers", "dodgem", "kalah"])
def test_games_whose_players_differ_have_none(name):
    # the musketeers are not the enemy (and the rules name both kinds), Dodgem's cars drive
    # different ways (its rules name red and blue), Kalah keeps stores (counts)
    g = Game(load(name))
    assert player_swap(g, board_symmetries(g)) is None


def test_3_spot_exchanges_red_and_blue_across_the_middle_file():
    # each player owns a kind of its own that no rule names (`move own piece`)
    g = Game(load("3-spot"))
    sw = player_swap(g, board_symmetries(g))
    assert sw is not None and sw.types == (1, 0, 2)  # blue and red exchanged, white kept
    assert [g.board.names[c] for c in sw.cells] == ["c1", "b1", "a1", "c2", "b2", "a2", "c3", "b3", "a3"]
    # Blue has moved c1+c2 to c2+c3 (mirrored: a2+a3, made red) and leads by 3 to 1
    s = g.state_from_text("..B/RWB/RW. Blue ply=2 score=3,1")
    assert g.state_to_text(swap_state(g, s, sw)) == "R../RWB/.WB Red ply=2 score=1,3"


def test_a_rule_that_names_a_players_kind_leaves_no_swap():
    # the same rules, but a ply that names red: the kinds may be treated apart
    text = open(load("3-spot").path).read().replace("ply white: move white anywhere",
                                                    "ply white: move white anywhere where count(red) >= 0")
    g = Game(load_text(text, "named.game"))
    assert player_swap(g, board_symmetries(g)) is None


def test_reserves_and_per_player_variables_are_exchanged():
    # the small morris: reserves of 4 men and `placed per player`
    g = Game(load_text(SIX_SMALL, "six.game"))
    sw = player_swap(g, board_symmetries(g))
    assert sw is not None and sw.types == (1, 0)
    s = g.apply_unchecked(g.initial_state(), g.legal_actions(g.initial_state())[0])
    # White has placed a man (reserves White's first): Black has, and White is to move
    assert (g.state_to_text(s), g.state_to_text(swap_state(g, s, sw))) == (
        ".../.../W.. Black ply=1 placed=1,0 reserve.man=3,4",
        ".../.../B.. White ply=1 placed=0,1 reserve.man=4,3")


def test_a_rule_for_one_player_only_leaves_no_swap():
    # North's men may not kick along the links: the players differ
    text = SMALL_3_A_SIDE.replace(
        "where count(own man & adjacent(from)) >= 1",
        "where count(own man & adjacent(from)) >= 1 and mover == South")
    g = Game(load_text(text, "one-sided.game"))
    assert player_swap(g, board_symmetries(g)) is None


@pytest.mark.parametrize("symmetry", [False, True])
def test_a_swapped_solve_holds_half_the_positions_with_the_same_values(symmetry):
    g = small()
    both = solve(g, symmetry=symmetry)
    one = solve(g, symmetry=symmetry, swap_players=True)
    # a position and its image differ (the other player moves), and the image of a
    # reachable position is reachable here: the classes are pairs
    assert len(both) == 2 * len(one) == (17_184 if not symmetry else 8_612)
    assert one.stats.symmetries == 2 * both.stats.symmetries
    for key in both.keys:
        s = both.codec.unpack(key)
        assert one.lookup(s) == both.lookup(s), g.state_to_text(s)
    s = g.initial_state()
    assert [(p.text, p.value, p.remoteness) for p in one.analyze(s)] == \
        [(p.text, p.value, p.remoteness) for p in both.analyze(s)]


def test_a_swapped_solution_is_saved_and_read(tmp_path):
    g = small()
    one = solve(g, symmetry=True, swap_players=True)
    path = str(tmp_path / "s.sol")
    one.save(path)
    back = Solution.load(path, g)
    assert back.canon.swap.swap == one.canon.swap.swap
    assert list(back.keys) == list(one.keys)
    assert all(back.lookup(s) == one.lookup(s) for s in map(one.codec.unpack, one.keys))


def test_the_command_line_says_when_the_players_differ(capsys):
    assert cli.main(["solve", "tic-tac-toe-misere", "--swap-players", "--symmetry", "-q",
                     "--backend", "python"]) == 0
    out, err = capsys.readouterr()
    assert err == ""  # X and O play alike: swapped positions are kept as one
    assert "16 symmetries" in out
    assert cli.main(["solve", "three-musketeers", "--swap-players", "--max-positions", "10",
                     "-q"]) == 2
    err = capsys.readouterr().err
    assert err.splitlines() == [
        "rulecraft: the rules of Three Musketeers do not treat the two players alike: solving "
        "without exchanging them",
        "rulecraft solve: error: more than 10 positions are reachable (--max-positions)"]


def test_the_proof_search_refuses_it(capsys):
    assert cli.main(["solve", "tic-tac-toe", "--swap-players", "-q", "--proof"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == \
        "rulecraft solve: error: --swap-players does nothing here: --proof keeps the players apart"


@pytest.mark.parametrize("backend", ["python", "native"])
@pytest.mark.parametrize("name", ["small-3-a-side", "clobber-1x6"])
def test_the_solve_by_tiers_swaps_the_players_too(tmp_path, name, backend):
    # 3-A-Side in one tier; Clobber's tiers by the stones left of each player (the swap
    # exchanges the two counts, whose weights are equal): children listed in Python or C
    if backend == "native" and native_build.compiler() is None:
        pytest.skip("no C compiler here")
    rs = load_text(SMALL_3_A_SIDE, "small.game") if name == "small-3-a-side" else load(name)
    g = Game(rs, backend=backend)
    plain = solve(Game(rs), symmetry=True)
    tiers = solve(g, symmetry=True, swap_players=True, tier_dir=str(tmp_path / "tiers"))
    one = solve(Game(rs), symmetry=True, swap_players=True)
    assert (len(tiers), tiers.stats.edges) == (len(one), one.stats.edges)
    assert list(tiers.keys) == list(one.keys)
    for key in plain.keys:
        s = plain.codec.unpack(key)
        assert tiers.lookup(s) == plain.lookup(s), g.state_to_text(s)


NATIVE_WAYS = [{}, {"arcs_only": True}, {"depth_first": 0}, {"threads": 1}]


@functools.lru_cache(maxsize=None)
def _python_solves(name: str, symmetry: bool) -> tuple[Game, Solution, Solution]:
    """The game on the Python back-end, its Python solve, and that solve with the swap (the
    same for each of the native solver's ways)."""
    py = Game(load_text(SMALL_3_A_SIDE, "small.game") if name == "small-3-a-side" else load(name))
    return py, solve(py, symmetry=symmetry), solve(py, symmetry=symmetry, swap_players=True)


@pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")
@pytest.mark.parametrize("ways", NATIVE_WAYS)
@pytest.mark.parametrize("name, symmetry, counts", [
    # by un-moves (or over arcs): half of 17,184 and of 8,612
    ("small-3-a-side", False, (8_592, 40_528)), ("small-3-a-side", True, (4_306, 20_264)),
    # depth first (or in one pass): no swap of a reached Connect Four position is reached
    # (its other player would have the disc more), so as many as with the mirror alone
    ("connect-four-4x4", True, (80_541, 152_287)),
])
def test_the_native_solver_swaps_the_players_as_the_python_solver(name, symmetry, counts, ways):
    py, plain, ref = _python_solves(name, symmetry)
    nat = Game(py.ruleset, backend="native")
    if name != "small-3-a-side":
        assert (len(plain), plain.stats.edges) == counts
    perms = board_symmetries(py) if symmetry else []
    sw = player_swap(py, perms)
    sol = native_solve.solve_native(nat, nat.initial_state(), perms, Progress(False), None, None,
                                    swap=sw, **ways)
    assert (len(sol), sol.stats.edges) == counts
    assert (len(ref), ref.stats.edges) == counts
    assert list(sol.keys) == list(ref.keys)
    for key in plain.keys:
        s = plain.codec.unpack(key)
        assert sol.lookup(s) == plain.lookup(s), py.state_to_text(s)


@pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")
@pytest.mark.parametrize("compress", [False, True])
def test_the_native_index_of_a_swapped_solve_is_saved_and_read(tmp_path, compress):
    # format 5 (mapped) and 6 (in chunks): the swap in the header, lookups through it
    rs = load_text(SMALL_3_A_SIDE, "small.game")
    py, nat = Game(rs), Game(rs, backend="native")
    perms = board_symmetries(py)
    sol = native_solve.solve_native(nat, nat.initial_state(), perms, Progress(False), None, None,
                                    swap=player_swap(py, perms), copy_limit=0)
    assert isinstance(sol, native_solve.NativeSolution) and len(sol) == 4_306
    path = str(tmp_path / "s.sol")
    sol.save(path, compress=compress)
    back = Solution.load(path, nat)
    assert back.header()["swap"] == {"cells": list(sol.swap.cells), "types": [1, 0, 2]}
    plain = solve(py, symmetry=True)
    for key in plain.keys:
        s = plain.codec.unpack(key)
        assert back.lookup(s) == plain.lookup(s)


@pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")
# (misere tic-tac-toe and Force 3 with -m slow: Connect Four's swap above places too, and
# Achi has reserves)
@pytest.mark.parametrize("name", ["mu-torere", "konane-4x4", "clobber-1x6",
                                  pytest.param("tic-tac-toe-misere", marks=pytest.mark.slow),
                                  pytest.param("force-3", marks=pytest.mark.slow),
                                  "achi", "six-mens-morris-small", "3-spot-score-rule"])
def test_library_games_solved_with_the_swap_keep_every_value(name):
    # Mu Torere by un-moves, Konane and Clobber depth first (captures), misere
    # tic-tac-toe (places); with reserves, exchanged with the types (Force 3 over arcs,
    # Achi by un-moves), and a per-player variable, exchanged between the players (a
    # small morris by un-moves): every position of the solve without the swap has the
    # same value and remoteness in the native solve with it
    rs = load_text(SIX_SMALL, "six.game") if name == "six-mens-morris-small" else load(name)
    py, nat = Game(rs), Game(rs, backend="native")
    assert player_swap(py, board_symmetries(py)) is not None
    plain = solve(py, symmetry=True)
    sol = solve(nat, symmetry=True, swap_players=True)
    assert len(sol) <= len(plain)
    for key in plain.keys:
        s = plain.codec.unpack(key)
        assert sol.lookup(s) == plain.lookup(s), py.state_to_text(s)
