"""The native solve out of core (solver/arena.c, solver/tiers.c): the blocks' arrays in a
temporary file, held a tier at a time. Every way gives the same solution as the solve in
memory; a tiered solve holds less; the tiers come from the model (dsl/monotone.py)."""

from __future__ import annotations

import io
import os
import sys

import pytest

from dsl.load import load
from dsl.monotone import tier_weights
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
from tests.test_sparse_blocks import DENSE, WAYS, _body  # noqa: E402

pytestmark = pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")


def _native(game, perms=(), **kw):
    kw.setdefault("depth_first", 0)  # reachability's blocks, in memory or out of core
    return native_solve.solve_native(game, game.initial_state(), list(perms), Progress(False), None,
                                     kw.pop("max_memory", None), **kw)


@pytest.mark.parametrize("name", ["tic-tac-toe", "connect-four-4x4", "domineering", "musketeers",
                                  "breakthrough-3x4", "dodgem",
                                  pytest.param("dodgem-4x4", marks=pytest.mark.slow), "three-mens-morris"])
def test_out_of_core_solves_as_in_memory(name):
    # one pass (placements: tiers rising; captures: falling), retrograde over arcs, un-moves;
    # dense, sparse, and sparse blocks kept as lists
    rs = load_text(SMALL_MUSKETEERS, "m43.game") if name == "musketeers" else load(name)
    game = Game(rs, backend="native")
    perms = [] if name == "domineering" else board_symmetries(game, start=game.initial_state())
    for way in [DENSE, {}] + WAYS:
        memory = _native(game, perms, out_of_core=0, **way)
        disk = _native(game, perms, out_of_core=1, **way)
        assert memory.stats.tier_bytes == 0
        assert disk.stats.tier_bytes > 0 or way.get("sparse_stays")  # (lists in memory)
        assert (disk.stats.one_pass, disk.stats.unmoves) == (memory.stats.one_pass, memory.stats.unmoves)
        same_solution(memory, disk)


def test_the_tiers_come_from_the_model():
    # 1: no rule adds one (captured only); -1: no rule removes one (put down only); 0: both,
    # or neither to go by
    assert tier_weights(load("three-musketeers")) == [1, 1]
    assert tier_weights(load("tic-tac-toe")) == [-1, -1]
    assert tier_weights(load("domineering")) == [-1, -1]
    # men are captured or crowned; kings are crowned and captured
    assert tier_weights(load("english-draughts")) == [1, 1, 0, 0]
    # men are placed, then captured
    assert tier_weights(load("nine-mens-morris")) == [0, 0]
    # 3-A-Side's match sets the board up again after a goal
    assert tier_weights(load("3-a-side")) == [1, 1, 1]
    assert tier_weights(load("3-a-side-match")) == [0, 0, 0]
    # placed, never removed, and one kind never placed at all (a constant count)
    text = ('game "Stones"\nboard square 3 x 1\nplayers A, B\npiece stone: owner each, symbol S/s\n'
            'piece rock: owner B, symbol R\nsetup rock: a1\nply put: place own stone onto empty\n'
            'end full: draw if count(empty) == 0\n')
    assert tier_weights(load_text(text, "stones.game")) == [-1, -1, 0]


def test_a_tier_the_model_misread_hands_the_solve_to_python(monkeypatch):
    # tic-tac-toe's marks counted as if never added: the first ply raises the tier, the C
    # stops before it marks the child, and the Python solver gives the same solution
    game = Game(load("tic-tac-toe"), backend="native")
    monkeypatch.setattr(native_solve, "tier_weights", lambda rs: [1, 1])
    err = io.StringIO()
    sol = solve(game, out_of_core=True, stream=err)
    assert err.getvalue() == ("rulecraft: solving in Python, as the native solver cannot: a ply "
                              "raised the tier the model gave (dsl/monotone.py)\n")
    assert not sol.stats.one_pass and sol.stats.tier_bytes == 0
    monkeypatch.undo()
    same_solution(solve(Game(load("tic-tac-toe"))), sol)


def test_a_cap_the_solve_in_memory_passes_is_met_out_of_core():
    # Connect Four 4 x 5: in memory the solve needs more than 40 MiB; a tier at a time,
    # far less. By default the solve runs again out of core, with a notice.
    game = Game(load("connect-four-4x5"), backend="native")
    cap = 40 << 20
    with pytest.raises(SolveError) as e:
        _native(game, max_memory=cap, out_of_core=0)
    assert e.value.limit == "memory"
    disk = _native(game, max_memory=cap, out_of_core=1)
    assert disk.stats.peak_bytes <= cap and disk.stats.tier_bytes > 0
    err = io.StringIO()
    auto = solve(game, max_memory=cap, stream=err)
    assert err.getvalue() == ("rulecraft: the solve would pass the memory cap of 40.0 MiB in memory: "
                              "solving again out of core, a tier at a time, its blocks in a "
                              "temporary file ($TMPDIR; --out-of-core starts so)\n")
    same_solution(disk, auto)
    assert auto.lookup(game.initial_state()) == ("draw", None)
    with pytest.raises(SolveError) as e:
        _native(game, max_memory=8 << 20, out_of_core=1)
    assert str(e.value).endswith("the solve would need more than the memory cap of 8.0 MiB")


def test_values_past_the_cap_go_out_of_core_after_reaching_in_memory():
    # a cap the solve in memory passes only once it makes room for the values: the blocks
    # reached in memory move out of core for the one-pass solve (out_of_core -1, the
    # default). (Both caps are below 1 MiB, which sizes the solver's table of blocks.)
    game = Game(load_text(SMALL_MUSKETEERS, "m43.game"), backend="native")
    memory = _native(game, max_memory=(1 << 20) - 1, out_of_core=0, **DENSE)
    cap = memory.stats.peak_bytes - len(memory)  # short of half the values' 2 bytes each
    with pytest.raises(SolveError) as e:
        _native(game, max_memory=cap, out_of_core=0, **DENSE)
    assert str(e.value).startswith(f"stopped at {len(memory):,} positions")  # all reached
    auto = _native(game, max_memory=cap, out_of_core=-1, **DENSE)
    assert auto.stats.tier_bytes > 0 and auto.stats.peak_bytes <= cap
    same_solution(memory, auto)


@pytest.mark.parametrize("compress", [False, True])
def test_a_solution_solved_out_of_core_saves_as_the_same_file(tmp_path, compress):
    g = Game(load_text(SMALL_MUSKETEERS, "m43.game"), backend="native")
    bodies = []
    for ooc in (0, 1):
        sol = _native(g, copy_limit=0, out_of_core=ooc)
        path = tmp_path / f"{ooc}.sol"
        sol.save(str(path), compress=compress)
        bodies.append(_body(path.read_bytes()))
        back = Solution.load(str(path), Game(load_text(SMALL_MUSKETEERS, "m43.game")))
        assert back.lookup(g.initial_state()) == sol.lookup(g.initial_state()) == ("win", 17)
        assert back.counts() == sol.counts()
    assert bodies[0] == bodies[1]


def test_a_solve_out_of_core_says_where_its_file_could_not_go(tmp_path, monkeypatch):
    missing = str(tmp_path / "none")
    monkeypatch.setenv("TMPDIR", missing)
    game = Game(load("tic-tac-toe"), backend="native")
    with pytest.raises(SolveError) as e:
        _native(game, out_of_core=1)
    assert str(e.value) == (f"stopped at 0 positions: could not make the solve's file in {missing}: "
                            "No such file or directory (TMPDIR names where it goes)")


def test_a_game_whose_positions_come_round_is_not_solved_twice():
    # Dodgem's cars only leave (tiers), but its positions come round: when the cap stops
    # reachability after the blocks made a cycle, a tier at a time would not need less
    # (the un-move solve holds every block), so the error comes with no second try
    game = Game(load("dodgem-4x4"), backend="native")
    err = io.StringIO()
    with pytest.raises(SolveError) as e:
        solve(game, max_memory=256 << 10, stream=err)
    assert err.getvalue() == ""
    assert str(e.value).startswith("stopped at ")
    assert str(e.value).endswith(" positions: the solve would need more than the memory cap of "
                                 "256.0 KiB")


CAPPED = """
import resource, sys
sys.path.insert(0, {root!r})
from dsl.load import load
from interpreter.runtime.game import Game
from interpreter.search import native_solve
from interpreter.search.progress import Progress
game = Game(load("tic-tac-toe"), backend="native")
game.native.solver  # built (or found in the cache) before the cap: the compiler needs room
used = int(open("/proc/self/statm").read().split()[0]) * resource.getpagesize()
resource.setrlimit(resource.RLIMIT_AS, (used + (512 << 20), resource.RLIM_INFINITY))
sol = native_solve.solve_native(game, game.initial_state(), [], Progress(False), None, None,
                                out_of_core=1, depth_first=0, threads=1)
print(len(sol), sol.lookup(game.initial_state()).value)
"""


def test_a_solve_out_of_core_runs_under_a_cap_on_the_address_space():
    # the file's addresses are reserved as many as there are, down to 16 MiB: 512 MiB to
    # spare once the game is loaded are room enough for tic-tac-toe (at 1 GiB at least,
    # it stopped: "no addresses to map it")
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    run = subprocess.run([sys.executable, "-c", CAPPED.format(root=root)], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["5478", "draw"]
