"""rulecraft's native solves against solvers written by hand for one game each, in
benchmarks/handwritten/ (their own rules, symmetries and index, nothing of rulecraft's).
Three Musketeers: the same value, remoteness, positions and wins from positions of each
side to move. 3-A-Side, with one and two men a side: the same value and remoteness for the
positions rulecraft holds. The benchmark (benchmarks/solve_handwritten.py) times the two;
this checks that they solve the same thing."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from math import comb
from pathlib import Path

import pytest

from dsl.load import load, load_text
from interpreter.runtime.game import Game
from interpreter.search import native_solve
from interpreter.search.player_swap import player_swap
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


# 3-A-Side: benchmarks/handwritten/three_a_side_solve.c, built with fewer men a side (its
# index holds every arrangement, reached or not, seen from the player to move).
TAS_SOURCE = SOURCE.parent / "three_a_side_solve.c"
FEWER_MEN = {
    1: "setup man of North: g2\nsetup man of South: g6\n",
    2: "setup man of North: e2, i2\nsetup man of South: e6, i6\n",
}


def _tas(men: int, tmp: Path) -> Path:
    if CC is None:
        pytest.skip("no C compiler here")
    exe = tmp / f"tas{men}"
    flags = ["-O2", "-Wall", "-Wextra", "-Werror", f"-DMEN={men}"]
    subprocess.run([CC, *flags, "-o", str(exe), str(TAS_SOURCE)], check=True)
    return exe


@pytest.mark.parametrize("men, sample", [
    (1, None),
    pytest.param(2, 200_000, marks=pytest.mark.slow),
])
def test_the_hand_written_3_a_side_solver_agrees(tmp_path, men, sample):
    """Every position rulecraft's solve holds with one man a side (with two: 200,000 drawn
    at random) has the same value and remoteness in both."""
    exe = _tas(men, tmp_path)
    game = Game(load_text(f'variant of "3-a-side"\ngame "3-A-Side, {men} a side"\n{FEWER_MEN[men]}'),
                backend="native")
    start = game.initial_state()
    perms = board_symmetries(game, start=start)
    sol = native_solve.solve_native(game, start, perms, Progress(False), None, None, threads=1)
    which = range(len(sol)) if sample is None else random.Random(men).sample(range(len(sol)), sample)
    held = [sol.position(i) for i in which]
    held = [s for s in held if not game.is_terminal(s)]
    texts = [game.state_to_text(s) for s in held]
    out = subprocess.run([str(exe), texts[0], "--query"], input="\n".join(texts) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()
    assert out[0].startswith("start: ")
    mine = []
    for s in held:
        v = sol.lookup(s)
        mine.append(v.value if v.value == "draw" else f"{v.value} in {v.remoteness}")
    assert out[3:] == mine
    assert {"draw", "win in 1", "lose in 2"} <= set(mine)
    assert len(mine) > (60_000 if sample is None else 190_000)


def test_the_hand_written_3_a_side_solver_refuses_a_bad_position(tmp_path):
    exe = _tas(1, tmp_path)
    run = subprocess.run([str(exe)], capture_output=True, text=True)   # no setup of one man
    assert run.returncode == 2
    assert run.stderr.split(" (")[-1] == ("built with 1 man a side; without POSITION the start is "
                                          "the setup, which has 3)\n")
    run = subprocess.run([str(exe), "..../..N../....../..*../....../..S../..../.. South ply=1", "--query"],
                         input="..../..N../....../...../....../..S../..../*. South ply=1\n",
                         capture_output=True, text=True, check=True)
    assert run.stdout.splitlines()[3:] == ["not a position"]


# Every arrangement, a phase: the ball on one of 35 cells and each side's men on the 34
# others (or the ball in one of 2 goals, the men on 35), in classes of the mirror (N + F)
# / 2, F those it keeps: the ball on its axis (g2, g4, g6) or in a goal, and each side's
# men on the axis or in mirrored pairs (16 pairs off the axis). One man: 18 kept a phase.
# Two: the ball on the axis leaves 2 axis cells, so 1 x 16 + 16 x (1 + 15) = 272 ways; in
# a goal, 3 axis cells: 3 x 16 + 16 x (3 + 15) = 336.
EVERY = {1: (2 * (35 * 34 * 33 + 2 * 35 * 34) + 2 * 18) // 2,
         2: (2 * (35 * comb(34, 2) * comb(32, 2) + 2 * comb(35, 2) * comb(33, 2))
             + 2 * (3 * 272 + 2 * 336)) // 2}


@pytest.mark.parametrize("men, sample", [
    (1, None),
    pytest.param(2, 200_000, marks=pytest.mark.slow),
])
def test_the_hand_written_3_a_side_solver_agrees_on_every_arrangement(tmp_path, men, sample):
    """rulecraft's solve of every arrangement (solver/arrangements.c) holds what the
    hand-written index holds, reached or not: with one man a side (with two: 200,000 drawn
    at random), each position with the ball on the board has the same value and remoteness
    in both; the hand-written solver refuses those with the ball in a goal (rulecraft
    solves them as if play went on: no ply of a position played leads to one)."""
    exe = _tas(men, tmp_path)
    game = Game(load_text(f'variant of "3-a-side"\ngame "3-A-Side, {men} a side"\n{FEWER_MEN[men]}'),
                backend="native")
    start = game.initial_state()
    perms = board_symmetries(game, start=start)
    swap = player_swap(game, perms, start=start)
    sol = native_solve.solve_native(game, start, perms, Progress(False), None, None, threads=1,
                                    swap=swap, arrangements=True)
    assert len(sol) == EVERY[men]
    which = range(len(sol)) if sample is None else random.Random(men).sample(range(len(sol)), sample)
    held = [sol.position(i) for i in which]
    texts = [game.state_to_text(s) for s in held]
    start_text = game.state_to_text(start)
    out = subprocess.run([str(exe), start_text, "--query"], input="\n".join(texts) + "\n",
                         capture_output=True, text=True, check=True).stdout.splitlines()[3:]
    in_goal = {i for i, text in enumerate(texts) if "*" in text.split()[0].split("/")[-1]}
    mine = []
    for i, s in enumerate(held):
        v = sol.lookup(s)
        mine.append("not a position" if i in in_goal else
                    v.value if v.value == "draw" else f"{v.value} in {v.remoteness}")
    assert out == mine
    if sample is None:
        assert len(in_goal) == (2 * 2 * 35 * 34 + 24) // 2  # (12 of them on the axis a phase)
    assert {"draw", "win in 1", "lose in 2"} <= set(mine)
