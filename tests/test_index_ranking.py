"""The native index ranks each piece type over the cells it can stand on
(search/index_ranking.py, solver/index.c): smaller blocks, the same solution, files
written before there were rankings still read, and a damaged ranking refused."""

from __future__ import annotations

import io
import json
import os
import sys

import pytest

from dsl.load import load_text
from interpreter.native import build as native_build
from interpreter.runtime.game import Game
from interpreter.search import index_ranking, native_solve
from interpreter.search.native_solve import block_shapes
from interpreter.search.player_swap import player_swap
from interpreter.search.solution import Solution
from interpreter.search.solution_file import SolutionFileError
from interpreter.search.solver import solve
from interpreter.search.symmetry import board_symmetries

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.test_native_solver import same_solution  # noqa: E402
from tests.test_unmoves import MORRIS, SMALL_3_A_SIDE, _native  # noqa: E402

pytestmark = pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")


@pytest.fixture(scope="module")
def small():
    return Game(load_text(SMALL_3_A_SIDE, "s.game"), backend="native")


def test_men_are_ranked_off_the_goals(small):
    # 19 cells, 2 of them goals: a man of each side among the 17 others (the second among
    # 16), the ball among the 17 cells the men leave
    kept = _native(small, [], copy_limit=0)
    sizes = {s.size for s in block_shapes(small.native.solver, kept._handle)}
    assert sizes == {17 * 16 * 17}  # every block holds one man a side and the ball
    rs = small.ruleset
    goals = sum(1 << c for c in rs.regions["goals"])
    off = ((1 << 19) - 1) & ~goals
    assert kept.ranking == index_ranking.Ranking((0, 1, 2), (off, off, (1 << 19) - 1))
    assert kept.header()["ranking"] == {"order": [0, 1, 2], "cells": [format(off, "x")] * 2 + ["7ffff"]}


def test_a_game_whose_types_reach_every_cell_keeps_its_index_and_files():
    g = Game(load_text('game "Row"\nboard square 3 x 3\nplayers X, O\npiece mark: owner each, symbol X/O\n'
                       'ply put: place own mark onto empty\nend full: draw if count(empty) == 0\n', "row.game"),
             backend="native")
    kept = _native(g, [], copy_limit=0)
    assert kept.ranking == index_ranking.Ranking((0, 1), ((1 << 9) - 1,) * 2)
    assert "ranking" not in kept.header()


def test_the_cells_are_closed_under_the_symmetries():
    # men never on the west column; an east-west mirror (given: the rules have none) brings
    # them there
    rs = load_text('game "Hill"\nboard square 3 x 3\nregion west: a1, a2, a3\nplayers A, B\n'
                   'piece man: owner each, symbol M/m\nsetup man of A: b1\nsetup man of B: b3\n'
                   'ply go: move own man step onto empty - west\nend x: mover wins if count(empty) == 0\n',
                   "hill.game")
    west = sum(1 << rs.board.index[c] for c in ("a1", "a2", "a3"))
    full = (1 << 9) - 1
    assert index_ranking.ranking(rs, [1, 1], [0, 0], 0, []).cells == (full & ~west,) * 2
    flip = {"a": "c", "b": "b", "c": "a"}
    mirror = [tuple(rs.board.index[flip[n[0]] + n[1:]] for n in rs.board.names)]
    assert index_ranking.ranking(rs, [1, 1], [0, 0], 0, mirror).cells == (full, full)


def test_a_file_written_before_rankings_reads_as_it_was(small, tmp_path, monkeypatch):
    copied = _native(small, [])
    monkeypatch.setattr(native_solve, "index_ranking", lambda game, perms, start=None, swap=None: index_ranking.unknown(
        game.ruleset, [1, 1, 1], [0, 0, 0]))
    old = _native(small, [], copy_limit=0)
    assert {s.size for s in block_shapes(small.native.solver, old._handle)} == {19 * 18 * 17}
    path = str(tmp_path / "old.sol")
    old.save(path, compress=False)
    old.save(path + "6", compress=True)
    monkeypatch.undo()
    for p in (path, path + "6"):
        assert "ranking" not in _header(p)
        back = Solution.load(p, small)
        assert back.ranking == index_ranking.unknown(small.ruleset, [1, 1, 1], [0, 0, 0])
        for i in range(0, len(copied), 53):
            s = copied.position(i)
            assert back.lookup(s) == copied.lookup(s)


def _header(path: str) -> dict:
    with open(path, "rb") as f:
        head = f.read(12)
        return json.loads(f.read(int.from_bytes(head[8:12], "little")))


@pytest.mark.parametrize("ranking, message", [
    ("cells", "header field 'ranking' must be an object of 'order' and 'cells'"),
    ({"order": [0, 0, 2], "cells": ["1", "1", "1"]},
     "header field 'ranking': its order is not one of the game's 3 piece types, each once"),
    ({"order": [0, 1, 2, "x"], "cells": ["1", "1", "1"]},
     "header field 'ranking': its order is not one of the game's 3 piece types, each once"),
    ({"order": [0, True, 2], "cells": ["1", "1", "1"]},
     "header field 'ranking': its order is not one of the game's 3 piece types, each once"),
    ({"order": [0, 1, 2], "cells": ["1", "1", "fffff"]},
     "header field 'ranking': its cells are not 3 masks of the board's cells, in hexadecimal"),
    ({"order": [0, 1, 2], "cells": ["1", "1", "-1"]},
     "header field 'ranking': its cells are not 3 masks of the board's cells, in hexadecimal"),
    # the ball ranked among cells that leave out the men's
    ({"order": [0, 1, 2], "cells": ["7ffff", "7ffff", "1"]},
     "damaged: piece type 2 is ranked among cells that leave out some of the types ranked before it"),
])
@pytest.mark.parametrize("compress", [False, True])
def test_a_damaged_ranking_is_refused(small, tmp_path, ranking, message, compress):
    kept = _native(small, [], copy_limit=0)
    path = str(tmp_path / "s.sol")
    header = kept.header()
    header["ranking"] = ranking
    with pytest.MonkeyPatch.context() as m:
        m.setattr(type(kept), "header", lambda self: header)
        kept.save(path, compress=compress)
    with pytest.raises(SolutionFileError) as e:
        Solution.load(path, small)
    assert str(e.value) == f"{path}: {message}"


def test_a_piece_off_the_cells_the_analysis_gave_hands_the_solve_to_python(small, monkeypatch):
    # the men's cells taken as their setup's alone: South's first step leaves them
    rs = small.ruleset
    monkeypatch.setattr(index_ranking, "stand_cells", lambda r, start=None: [
        sum(1 << c for c in rs.setup[t]) if t < 2 else (1 << 19) - 1 for t in range(3)])
    err = io.StringIO()
    sol = solve(small, stream=err)
    assert err.getvalue() == ("rulecraft: solving in Python, as the native solver cannot: piece type 0 "
                              "stands on a cell the analysis of the rules says it never reaches "
                              "(dsl/domains.py)\n")
    monkeypatch.undo()
    same_solution(solve(Game(rs)), sol)


def test_an_un_move_off_the_cells_makes_no_position():
    # men never step onto the west column (X starts on a1): a step taken back to a2 or a3
    # is no position of the game, skipped by the un-move solve (not ranked, an error)
    text = MORRIS.replace("players X, O", "region west: a1, a2, a3\nplayers X, O").replace(
        "onto empty", "onto empty - west")
    rs = load_text(text, "west.game")
    un = _native(Game(rs, backend="native"), [])
    assert un.stats.unmoves
    same_solution(solve(Game(rs)), un)


def test_with_the_swap_the_men_south_never_moves_are_ranked_first(small):
    # every position kept has South to move, and its predecessors take back South's plies
    # (a man of South's or the ball): North's men, on as many cells as South's, come first
    start = small.initial_state()
    perms = board_symmetries(small, start=start)
    swap = player_swap(small, perms, start=start)
    assert swap is not None
    assert native_solve.index_ranking(small, perms, start, swap).order == (1, 0, 2)
    assert native_solve.index_ranking(small, perms, start).order == (0, 1, 2)
    kept = _native(small, perms, copy_limit=0, swap=swap)
    assert kept.ranking.order == (1, 0, 2)
    assert kept.header()["ranking"]["order"] == [1, 0, 2]
    # the same values as the Python solver's, whichever side comes first
    same_solution(solve(Game(small.ruleset), symmetry=True, swap_players=True), _native(small, perms, swap=swap))
