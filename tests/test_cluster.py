"""Work on a Ray cluster (interpreter/search/cluster.py), simulated on this machine: a head
and a second node (tests/cluster_run.py, run in a process of its own). The solve by tiers
gives the single process's solution bit for bit, even when a worker is killed mid-solve;
the command line solves there; `balance` gives the same report as on local processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cluster_run.py")


@pytest.fixture(scope="module")
def found(tmp_path_factory) -> dict:
    pytest.importorskip("ray")
    out = tmp_path_factory.mktemp("cluster")
    proc = subprocess.run([sys.executable, SCRIPT, str(out)], capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout.splitlines()[-1])


def test_a_solve_on_the_cluster_is_the_single_process_one_bit_for_bit(found):
    # the Python solver's, and the native solver's where there is a C compiler
    got = found["bit_for_bit"]
    assert got.pop("same_file_as_native", True) is True
    assert got == {"same": True, "positions": 33776, "value": ["win", 17], "same_file": True}


def test_a_worker_killed_mid_solve_changes_nothing(found):
    # the task it ran runs again elsewhere (Ray's retries); the solution is the same
    assert found["killed_worker"] == {"killed": 1, "same": True}


def test_solve_on_the_cluster_from_the_command_line(found):
    got = found["command_line"]
    assert got["codes"] == [0, 0] and got["saved"] == ["draw", None]
    assert (got["json"]["value"], got["json"]["positions"]) == ("draw", 5478)


def test_balance_on_the_cluster_gives_the_same_report(found):
    assert found["balance"] == {"codes": [0, 0], "same": True, "games": 12}
