"""rulecraft's native solve of Three Musketeers against a solver written by hand for the
game (benchmarks/handwritten/three_musketeers_solve.c: its own rules, symmetries and index,
nothing of rulecraft's): the same value, remoteness, positions and wins from positions of
each side to move. The benchmark (benchmarks/solve_handwritten.py) times the two; this
checks that they solve the same thing."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from dsl.load import load
from interpreter.runtime.game import Game
from interpreter.search import native_solve
from interpreter.search.progress import Progress
from interpreter.search.symmetry import board_symmetries

SOURCE = Path(__file__).resolve().parent.parent / "benchmarks" / "handwritten" / "three_musketeers_solve.c"
CC = shutil.which("cc") or shutil.which("gcc")


@pytest.fixture(scope="module")
def handwritten(tmp_path_factory) -> Path:
    if CC is None:
        pytest.skip("no C compiler here")
    exe = tmp_path_factory.mktemp("hw") / "tm"
    subprocess.run([CC, "-O2", "-Wall", "-Werror", "-o", str(exe), str(SOURCE)], check=True)
    return exe


@pytest.mark.parametrize("position", [
    "o.o.M/o...o/..Moo/o...o/Moo.o Musketeers",
    "oo.oM/o...o/..M.o/o.o.o/M.o.o Enemy",
    "M.o.o/o.o../..M../o...o/Mo..o Musketeers",
])
def test_the_hand_written_solver_agrees(handwritten, position):
    out = subprocess.run([str(handwritten), position], capture_output=True, text=True, check=True).stdout
    start = re.search(r"start: (win|lose) in (\d+)", out)
    count = re.search(r"positions: (\d+) \((\d+) won, (\d+) lost", out)
    game = Game(load("three-musketeers"), backend="native")
    state = game.state_from_text(position)
    perms = board_symmetries(game, setups=False, start=state)
    sol = native_solve.solve_native(game, state, perms, Progress(False), None, None, threads=1, copy_limit=0)
    value = sol.lookup(state)
    counts = sol.counts()
    assert (value.value, value.remoteness) == (start[1], int(start[2]))
    assert (len(sol), counts.get("win", 0), counts.get("lose", 0)) == tuple(int(x) for x in count.groups())


def test_the_hand_written_solver_refuses_a_bad_position(handwritten):
    run = subprocess.run([str(handwritten), "MMMM/"], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.startswith("usage: ")
