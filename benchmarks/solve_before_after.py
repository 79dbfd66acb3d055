#!/usr/bin/env python3
"""Whole solves by two checkouts of the project, one after the other, in one run.

    git worktree add /tmp/before COMMIT
    python benchmarks/solve_before_after.py --before /tmp/before [--after .] [--timeout S]
                                            [--game NAME] [--option OPTION]
                                            [--after-option OPTION] ...

For each game (by default the four of issue #34: Three Musketeers with all 8 symmetries,
3-A-Side with its symmetry, Dodgem 5 x 5, Domineering 5 x 5), `rulecraft solve` runs in
the `before` tree, then in the `after` tree, each in a process of its own (its PYTHONPATH
the tree; the same interpreter and installed dependencies), both on the `after` tree's
ruleset file (a game added since `before` is read by the older code too). Reports each run's wall time,
CPU time (user + system, every thread's) and peak resident memory from the kernel's
accounting of the child, with the solve's first line (the value) and its positions line,
as a Markdown table. A run past `--timeout` seconds is stopped and reported so. Each tree
solves each game once with `--max-positions 10` first, so that building its C is not timed.
`--option` gives both trees' solves an option more, `--after-option` the after tree's
alone (a new one, such as `--swap-players`, that the before tree does not know).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

GAMES = {
    "three-musketeers": ["--all-symmetries"],
    "3-a-side": ["--symmetry"],
    "dodgem-5x5": [],
    "domineering-5x5": [],
}
LAUNCH = "import sys; from interpreter.apps.entry import main; sys.argv[0] = 'rulecraft'; sys.exit(main())"


@dataclass
class Run:
    """One solve's figures."""

    wall: float
    cpu: float
    peak_kib: int
    code: int | None  # None: stopped at the timeout
    value: str
    positions: str


def measured(cmd: list[str], env: dict | None, timeout: float) -> tuple[Run, list[str]]:
    """`cmd` run in a child process of its own, in an empty directory, measured by the
    kernel's accounting of the child (stopped after `timeout` s); its output's lines."""
    with tempfile.TemporaryDirectory() as cwd, tempfile.TemporaryFile("w+") as out:
        t0 = time.perf_counter()
        child = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                 start_new_session=True)
        code: int | None = None
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid:
                code = os.waitstatus_to_exitcode(status)
                break
            if time.perf_counter() - t0 > timeout:
                os.killpg(child.pid, signal.SIGKILL)
                _, _, usage = os.wait4(child.pid, 0)
                break
            time.sleep(0.2)
        child.returncode = code if code is not None else -9  # (reaped here, not by Popen)
        wall = time.perf_counter() - t0
        out.seek(0)
        lines = out.read().splitlines()
    value = lines[0] if lines else ""
    positions = next((line for line in lines if line.startswith("positions:")), "")
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, code, value, positions), lines


def solve(tree: Path, args: list[str], timeout: float) -> Run:
    """`rulecraft solve ARGS` run from source tree `tree` in a child process, measured."""
    env = dict(os.environ, PYTHONPATH=str(tree.resolve()))
    return measured([sys.executable, "-c", LAUNCH, "solve", "-q", *args], env, timeout)[0]


def cell(run: Run) -> str:
    """A run's figures for the table."""
    if run.code is None:
        return f"stopped after {run.wall:,.0f} s (CPU {run.cpu:,.0f} s, {run.peak_kib / 2**20:.2f} GiB)"
    figures = f"{run.wall:,.1f} s, CPU {run.cpu:,.1f} s, {run.peak_kib / 2**20:.2f} GiB"
    return figures if run.code == 0 else f"exit {run.code}: {figures}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", type=Path, required=True, help="the source tree before")
    ap.add_argument("--after", type=Path, default=Path(__file__).resolve().parent.parent)
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds a solve may take")
    ap.add_argument("--game", action="append", choices=sorted(GAMES), help="only these (repeatable)")
    ap.add_argument("--after-option", action="append", default=[], metavar="OPTION",
                    help="an option of `rulecraft solve` the after tree's solves get too, such as "
                         "--swap-players (repeatable)")
    ap.add_argument("--option", action="append", default=[], metavar="OPTION",
                    help="an option of `rulecraft solve` both trees' solves get (repeatable)")
    args = ap.parse_args()
    games = args.game or list(GAMES)
    trees = {"before": args.before, "after": args.after}
    files = {game: str(next(args.after.resolve().glob(f"rulesets/**/{game}.game"))) for game in games}
    more = {"before": args.option, "after": args.option + args.after_option}
    for name, tree in trees.items():
        for game in games:
            solve(tree, [files[game], *GAMES[game], *more[name], "--max-positions", "10"], 600.0)
    print("| game | command | before | after |")
    print("| --- | --- | --- | --- |")
    notes = []
    for game in games:
        cmd = "`" + " ".join(["rulecraft solve", game, *GAMES[game], *args.option]) + "`"
        if args.after_option:
            cmd += f" (after: `{' '.join(args.after_option)}`)"
        runs = {}
        for name, tree in trees.items():
            runs[name] = run = solve(tree, [files[game], *GAMES[game], *more[name]], args.timeout)
            notes.append(f"- {game}, {name} (exit {run.code}): {run.value} / {run.positions}")
        print(f"| {game} | {cmd} | {cell(runs['before'])} | {cell(runs['after'])} |", flush=True)
    print()
    print("\n".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
