"""The native solver's depth-first solve (solver/depth_first.c): each position solved when
first reached, from its children's values, with no reachability pass. It must give what
reachability and the one-pass solve give (positions, values, remoteness, arcs, levels and
the same solution file), and hand the game to them on a cycle or at the memory cap."""

from __future__ import annotations

import json
import os
import sys

import pytest

from dsl.load import load
from interpreter.native import build as native_build
from interpreter.runtime.game import Game
from interpreter.search import native_solve
from interpreter.search.progress import Progress
from interpreter.search.solver import SolveError, solve
from interpreter.search.symmetry import board_symmetries

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.test_native import ruleset_files, load_text  # noqa: E402,F401 - the fixture
from tests.test_native_solver import SMALL_MUSKETEERS, same_solution  # noqa: E402

pytestmark = pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")


def _native(game, perms=(), **kw):
    return native_solve.solve_native(game, game.initial_state(), list(perms), Progress(False),
                                     kw.pop("max_positions", None), kw.pop("max_memory", None), **kw)


def _body(data: bytes) -> bytes:
    """A solution file of format 5 without its header (which has the solve's time) and
    checksum."""
    at = 12 + int.from_bytes(data[8:12], "little")
    assert json.loads(data[12:at])["format"] == 5
    return data[at:-32]


@pytest.mark.parametrize("name", ["tic-tac-toe", "musketeers", "domineering",
                                  pytest.param("connect-four-4x4", marks=pytest.mark.slow)])
def test_the_depth_first_solve_gives_the_one_pass_solution_and_file(tmp_path, name):
    rs = load_text(SMALL_MUSKETEERS, "m.game") if name == "musketeers" else load(name)
    game = Game(rs, backend="native")
    perms = board_symmetries(game, start=game.initial_state()) if name == "tic-tac-toe" else []
    deep = _native(game, perms)
    one = _native(game, perms, depth_first=0)
    assert deep.stats.depth_first and not deep.stats.one_pass and deep.stats.enumerate_seconds == 0
    assert one.stats.one_pass and not one.stats.depth_first
    same_solution(one, deep)
    same_solution(solve(Game(rs), symmetry=perms), deep)
    files = []
    for depth_first in (1, 0):  # kept in C: the index itself saved
        path = tmp_path / f"{depth_first}.sol"
        _native(game, perms, copy_limit=0, depth_first=depth_first).save(str(path), compress=False)
        files.append(_body(path.read_bytes()))
    assert files[0] == files[1]


def test_a_cycle_hands_the_solve_to_reachability():
    # 3-Spot's pieces come back to where they stood: the first such child gives up
    game = Game(load("3-spot"), backend="native")
    tried = _native(game, depth_first=1)
    plain = _native(game, depth_first=0)
    assert not tried.stats.depth_first and tried.stats.unmoves == plain.stats.unmoves
    same_solution(plain, tried)


def test_the_memory_cap_hands_the_solve_to_reachability():
    # Connect Four 4 x 4's depth-first solve needs about 12 MB (a page of values for most
    # positions), reachability and the one pass about 3
    game = Game(load("connect-four-4x4"), backend="native")
    free = _native(game)
    capped = _native(game, max_memory=8 << 20)
    assert free.stats.depth_first and not capped.stats.depth_first and capped.stats.one_pass
    assert capped.stats.peak_bytes <= 8 << 20
    same_solution(free, capped)


def test_the_positions_cap_stops_the_depth_first_solve_as_reachability():
    game = Game(load("connect-four-4x4"), backend="native")
    errors = []
    for depth_first in (1, 0):
        with pytest.raises(SolveError) as e:
            _native(game, max_positions=1000, depth_first=depth_first)
        errors.append((str(e.value), e.value.limit))
    assert errors[0] == errors[1] and errors[0][1] == "positions"


def test_threads_that_help_each_other_solve_the_same():
    # a thread meeting a position another is solving searches it too (its own value, not
    # stored); any number of threads, any timing: the same solution and file
    game = Game(load("tic-tac-toe"), backend="native")
    perms = board_symmetries(game, start=game.initial_state())
    one = _native(game, perms, threads=1)
    for threads in (2, 3, 4, 2, 2):
        many = _native(game, perms, threads=threads)
        assert many.stats.depth_first
        same_solution(one, many)
    c4 = Game(load("connect-four-4x4"), backend="native")
    same_solution(_native(c4, threads=1), _native(c4, threads=4))


def test_pages_that_cost_too_much_a_position_hand_the_solve_to_reachability():
    # Connect Four 4 x 5's stones are ranked among all 20 cells: its positions are sparse
    # in the index, a page of values (4 KiB) written for nearly each; past 256 MiB at more
    # than 128 bytes a position the depth-first solve gives up, and the sparse blocks of
    # reachability hold the positions in tens of megabytes. A draw (John Tromp's table).
    game = Game(load("connect-four-4x5"), backend="native")
    sol = _native(game, copy_limit=0)
    assert not sol.stats.depth_first and sol.stats.one_pass and sol.stats.sparse_blocks > 0
    assert sol.lookup(game.initial_state()).value == "draw"
    same_solution(_native(game, copy_limit=0, depth_first=0), sol)


def test_values_of_a_byte_make_room_for_domineering_5x5():
    # a value a byte: Domineering 5 x 5's pages, past 256 MiB at 2 bytes a value, stay
    # under it (about 235 MB for 723,996 positions), and it is solved depth first; the
    # first player loses (Lachmann, Moore and Rapaport, MSRI 42, 2002), in 12 plies
    game = Game(load("domineering-5x5"), backend="native")
    sol = _native(game, copy_limit=0)
    assert sol.stats.depth_first and sol.stats.peak_bytes < 256 << 20
    assert len(sol) == 723_996 and sol.lookup(game.initial_state()) == ("lose", 12)
    assert sol.counts() == {"win": 436_686, "lose": 287_310, "draw": 0}


SEVENTY = """game "Seventy"

board square 2 x 1
players First, Second
piece stone: owner First, symbol X
setup stone: a1

var plies = 0 in 0..70
ply shuffle: move own stone step onto empty
turn: any or pass
after each ply: plies += 1
end seventy: First wins if plies >= 70
"""


@pytest.mark.parametrize("threads", [1, 2])
def test_a_remoteness_past_a_byte_solves_again_with_two(threads):
    # every play lasts 70 plies and First wins: a remoteness of 70 does not fit a byte's
    # six bits, so the solve starts again with values of 2 bytes (not the two passes).
    # By hand: the start, then two positions (the stone on a1 or b1) after each ply;
    # First to move after 0, 2, ..., 70 plies wins in 70 - plies, Second loses.
    game = Game(load_text(SEVENTY, "seventy.game"), backend="native")
    sol = _native(game, threads=threads)
    assert sol.stats.depth_first and sol.stats.levels == 71
    assert sol.lookup(game.initial_state()) == ("win", 70)
    assert len(sol) == 141 and sol.counts() == {"win": 71, "lose": 70, "draw": 0}
    s = game.initial_state()
    for _ in range(13):
        s = game.apply(s, game.legal_actions(s)[-1])
    assert sol.lookup(s) == ("lose", 57)
