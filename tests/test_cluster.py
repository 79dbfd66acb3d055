"""Work on a Ray cluster (interpreter/search/cluster.py). The default run solves on a local
cluster from the command line. With -m slow, on a cluster simulated on this machine (a head
and a second node, tests/cluster_run.py; some 40 s): the solve by tiers gives the single
process's solution bit for bit, even when a worker is killed mid-solve; the command line
solves there; `balance` gives the same report as on local processes. Ray runs in a process
of its own (cluster_run.py says why)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from dsl.load import load
from interpreter.apps import cli
from interpreter.runtime.game import Game
from interpreter.search.solution import Solution

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.test_sparse_blocks import _body  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cluster_run.py")


def test_a_solve_on_a_local_cluster_saves_the_single_process_file(tmp_path):
    pytest.importorskip("ray")
    there, here = str(tmp_path / "there.sol"), str(tmp_path / "here.sol")
    proc = subprocess.run([sys.executable, "-m", "interpreter.apps.entry", "solve", "tic-tac-toe",
                           "--cluster", "local", "--tier-dir", str(tmp_path / "tiers"), "--save", there,
                           "-q"], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert cli.main(["solve", "tic-tac-toe", "--save", here, "-q"]) == 0
    with open(here, "rb") as a, open(there, "rb") as b:
        assert _body(a.read()) == _body(b.read())  # (the headers' seconds differ)
    game = Game(load("tic-tac-toe"))
    assert tuple(Solution.load(there, game).lookup(game.initial_state())) == ("draw", None)


@pytest.fixture(scope="module")
def found(tmp_path_factory) -> dict:
    pytest.importorskip("ray")
    out = tmp_path_factory.mktemp("cluster")
    proc = subprocess.run([sys.executable, SCRIPT, str(out)], capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout.splitlines()[-1])


@pytest.mark.slow
def test_a_solve_on_the_cluster_is_the_single_process_one_bit_for_bit(found):
    # the Python solver's, and the native solver's where there is a C compiler
    got = found["bit_for_bit"]
    assert got.pop("same_file_as_native", True) is True
    assert got == {"same": True, "positions": 33776, "value": ["win", 17], "same_file": True}


@pytest.mark.slow
def test_a_worker_killed_mid_solve_changes_nothing(found):
    # the task it ran runs again elsewhere (Ray's retries); the solution is the same
    assert found["killed_worker"] == {"killed": 1, "same": True}


@pytest.mark.slow
def test_solve_on_the_cluster_from_the_command_line(found):
    got = found["command_line"]
    assert got["codes"] == [0, 0] and got["saved"] == ["draw", None]
    assert (got["json"]["value"], got["json"]["positions"]) == ("draw", 5478)


@pytest.mark.slow
def test_balance_on_the_cluster_gives_the_same_report(found):
    assert found["balance"] == {"codes": [0, 0], "same": True, "games": 12}
