"""Sparse blocks in the native solver (solver/sparse.c): a block whose positions are few
among its indices is kept as a hash set, then a sorted list, not as bitsets. Every way of
keeping the blocks gives the same solution: the same positions, values, remoteness, arcs
and levels, and the same solution file."""

from __future__ import annotations

import json
import os
import struct
import sys

import pytest

from dsl.load import load
from interpreter.native import build as native_build
from interpreter.runtime.game import Game
from interpreter.search import native_solve
from interpreter.search.progress import Progress
from interpreter.search.solution import Solution
from interpreter.search.solver import SolveError, solve
from interpreter.search.symmetry import board_symmetries

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.test_native import ruleset_files, load_text  # noqa: E402,F401 - the fixture
from tests.test_native_solver import SMALL_MUSKETEERS, same_solution  # noqa: E402
from tests.test_unmoves import VARIANTS  # noqa: E402

pytestmark = pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")

DENSE = {"sparse_above": 1 << 41}  # no block starts sparse
# every block starts sparse; turns dense past one index in 64, or stays sparse
WAYS = [{"sparse_above": 0}, {"sparse_above": 0, "sparse_stays": True}]


def _native(game, perms, **kw):
    kw.setdefault("depth_first", 0)  # reachability's blocks, sparse or dense
    return native_solve.solve_native(game, game.initial_state(), perms, Progress(False), None,
                                     kw.pop("max_memory", None), **kw)


# (the morris and the clock, more games by un-moves, with -m slow: each builds a solver)
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in ("morris", "clock") else n
                                  for n in ["morris", "clock", "memory", "3-a-side", "balanced"]])
def test_sparse_blocks_solve_cyclic_games_as_the_python_solver(name):
    # the un-move solve (its frontiers and tallies by local id in a sparse block), and the
    # retrograde solve over arcs ("memory" has too many child blocks for un-moves)
    rs = load_text(VARIANTS[name], f"{name}.game")
    nat = Game(rs, backend="native")
    perms = board_symmetries(nat, start=nat.initial_state())
    py = solve(Game(rs), symmetry=perms)
    for way in WAYS:
        for more in ({}, {"arcs_only": True}, {"tally_room": 0}, {"tally_most": 1}):
            sol = _native(nat, perms, **way, **more)
            assert sol.stats.sparse_blocks > 0 or not way.get("sparse_stays")
            assert sol.stats.unmoves == (name != "memory" and not more.get("arcs_only"))
            same_solution(py, sol)


def test_tallies_kept_while_sparse_or_let_go_when_a_block_turns_dense():
    # room for a few tallies only: blocks that turn dense past the room let theirs go, and
    # their children are counted again (the arcs counted once, as ever)
    rs = load_text(VARIANTS["3-a-side"], "3-a-side.game")
    nat = Game(rs, backend="native")
    base = _native(nat, [], **DENSE)
    for room in (0, 500, 3000, 20000):
        same_solution(base, _native(nat, [], sparse_above=0, tally_room=room))


@pytest.mark.parametrize("name", ["domineering", "connect-four-4x4", "tic-tac-toe"])
def test_sparse_blocks_solve_acyclic_games_in_one_pass(name):
    game = Game(load(name), backend="native")
    py = solve(Game(load(name)))
    for way in [DENSE, {}] + WAYS:
        sol = _native(game, [], **way)
        assert sol.stats.one_pass
        same_solution(py, sol)
    deep = _native(game, [], depth_first=1)  # its blocks made lists or bitsets at the end
    assert deep.stats.depth_first and (deep.stats.sparse_blocks > 0 or name == "tic-tac-toe")
    same_solution(py, deep)


def test_a_board_and_its_transpose_solve_under_the_same_cap():
    # Domineering 5 x 4 and 4 x 5: most arrangements of dominoes overlap, so a bitset a
    # block holds thousands of indices a position. Kept sparse, each solves in a few
    # megabytes; as bitsets, each needs over 100 MB.
    for size, value in (("5 x 4", ("win", 9)), ("4 x 5", ("lose", 8))):
        text = f'variant of "domineering"\ngame "Domineering ({size})"\nboard square {size}\n'
        game = Game(load_text(text, "d.game"), backend="native")
        sparse = _native(game, [], max_memory=64 << 20)
        assert sparse.lookup(game.initial_state()) == value
        assert sparse.stats.sparse_blocks > 0
        with pytest.raises(SolveError) as e:
            _native(game, [], max_memory=64 << 20, **DENSE)
        assert e.value.limit == "memory"
        same_solution(_native(game, [], **DENSE), sparse)


@pytest.mark.parametrize("compress", [False, True])
def test_a_solution_of_sparse_blocks_saves_as_the_same_file(tmp_path, compress):
    # the file holds each block's bitset: a sparse block's is made from its list
    g = Game(load_text(SMALL_MUSKETEERS, "m43.game"), backend="native")
    files = []
    for way in [DENSE] + WAYS:
        sol = _native(g, [], copy_limit=0, **way)
        path = tmp_path / f"{len(files)}.sol"
        sol.save(str(path), compress=compress)
        files.append(path.read_bytes())
        back = Solution.load(str(path), Game(load_text(SMALL_MUSKETEERS, "m43.game")))
        s = g.initial_state()
        assert back.lookup(s) == sol.lookup(s) == ("win", 17)
        assert back.counts() == sol.counts()
        for a in g.legal_actions(s):
            t = g.apply_unchecked(s, a)
            assert back.analyze(t) == sol.analyze(t)
    bodies = [_body(data) for data in files]
    assert bodies[1] == bodies[0] == bodies[2]


@pytest.mark.parametrize("name", ["musketeers", "3-a-side"])
def test_a_solution_file_lists_its_blocks_in_key_order_on_any_thread_count(tmp_path, name):
    # reachability numbers blocks as its threads find them; the file must not depend on it
    text = SMALL_MUSKETEERS if name == "musketeers" else VARIANTS[name]
    g = Game(load_text(text, f"{name}.game"), backend="native")
    bodies = []
    for threads in (1, 2, 1, 2):
        path = tmp_path / f"{len(bodies)}.sol"
        _native(g, [], copy_limit=0, threads=threads, sparse_above=0).save(str(path), compress=True)
        data = path.read_bytes()
        bodies.append(_body(data))
        at = 12 + int.from_bytes(data[8:12], "little")
        directory = data[at:at + json.loads(data[12:at])["directory_bytes"]]
        n = int.from_bytes(directory[:8], "little")
        entry = (len(directory) - 8) // n
        # each entry: the key's 64-bit words (piece counts, int slots, previous-ply cells;
        # signed, and the cells of a board under 64 cells read alike), then words and count
        keys = [struct.unpack_from(f"<{entry // 8 - 2}q", directory, 8 + k * entry) for k in range(n)]
        assert n > 3 and keys == sorted(keys)
    assert len(set(bodies)) == 1


def _body(data: bytes) -> bytes:
    """A solution file without its header (which has the solve's time) and checksum."""
    at = 12 + int.from_bytes(data[8:12], "little")
    header = json.loads(data[12:at])
    if header["format"] != 6:
        return data[at:-32]
    tables = at + header["directory_bytes"] + 8 * (header["chunks"] + 1 + header["reach_chunks"])
    return data[at:tables] + data[tables + 32:]


def test_a_kept_solution_of_sparse_blocks_answers_lookups_and_positions():
    # past the copy limit the solver's own tables answer: a sparse block's by its list
    g = Game(load_text(SMALL_MUSKETEERS, "m43.game"), backend="native")
    copied = _native(g, [], **DENSE)
    kept = _native(g, [], copy_limit=0, sparse_above=0, sparse_stays=True)
    assert kept.stats.sparse_blocks > 0 and len(kept) == len(copied)
    assert kept.counts() == copied.counts()
    seen = set()
    for d in range(len(kept)):
        s = kept.position(d)
        assert kept.lookup(s) == copied.lookup(s)
        seen.add(g.state_to_text(s))
    assert len(seen) == len(kept)
