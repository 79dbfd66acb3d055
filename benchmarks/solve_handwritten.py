#!/usr/bin/env python3
"""Three Musketeers solved by rulecraft and by a solver written by hand in C, in one run.

    python benchmarks/solve_handwritten.py [--position TEXT] [--threads N] [--repeat N]
                                           [--timeout S]

The hand-written solver (handwritten/three_musketeers_solve.c: the game's rules in C,
memoised minimax depth first over the classes of the 8 symmetries, a byte a position,
the children's bytes asked of memory before they are searched) is compiled with `cc -O2
-march=native`. Then, in turn, it and `rulecraft solve three-musketeers --all-symmetries
--threads N` (1 by default, as the hand-written one has one thread) each solve the game
from the setup (about 6 and 11 minutes on this 2-core machine), or from `--position`,
`--repeat` times. Reports each run's wall time, CPU time (user and system, every thread's)
and peak resident memory from the kernel's accounting of the child, and the ratio of the
least CPU times; exit 1 if the two differ on the start's value and remoteness, the
positions or the wins (the hand-written solver is an independent check of rulecraft's).
Issue #34 asks for rulecraft at most 1.5 times the hand-written solver's time.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from solve_before_after import LAUNCH, Run, cell, measured

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "handwritten" / "three_musketeers_solve.c"
RULESET = HERE.parent / "rulesets" / "three-musketeers.game"


def compile_solver(out: Path) -> Path:
    """The hand-written solver built into directory `out` (for this CPU where the compiler
    can; plain -O2 where it cannot)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise SystemExit("no C compiler (cc or gcc) on the PATH")
    exe = out / "three_musketeers_solve"
    for flags in (["-march=native"], []):
        if subprocess.run([cc, "-O2", *flags, "-o", str(exe), str(SOURCE)]).returncode == 0:
            return exe
    raise SystemExit(f"{SOURCE.name} did not compile")


def handwritten_result(lines: list[str]) -> tuple:
    """(value, remoteness, positions, wins) from the hand-written solver's output."""
    text = "\n".join(lines)
    start = re.search(r"start: (win|lose) in (\d+)", text)
    count = re.search(r"positions: (\d+) \((\d+) won", text)
    if not start or not count:
        return ("?",)
    return start[1], int(start[2]), int(count[1]), int(count[2])


def rulecraft_result(lines: list[str]) -> tuple:
    """The same from `rulecraft solve`'s output."""
    text = "\n".join(lines).replace(",", "")
    start = re.search(r": (win|lose) for \w+ \(the player to move\) in (\d+) plies", text)
    count = re.search(r"positions: (\d+)", text)
    wins = re.search(r"values: (\d+) win", text)
    if not start or not count or not wins:
        return ("?",)
    return start[1], int(start[2]), int(count[1]), int(wins[1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--position", help="the start, in the text form (default: the setup)")
    ap.add_argument("--threads", type=int, default=1, help="rulecraft's threads (default 1)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each, in turn")
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds a solve may take")
    args = ap.parse_args()
    where = ["--position", args.position] if args.position else []
    rulecraft = [sys.executable, "-c", LAUNCH, "solve", str(RULESET), "--all-symmetries",
                 "--threads", str(args.threads), *where]
    env = dict(os.environ, PYTHONPATH=str(HERE.parent))
    with tempfile.TemporaryDirectory() as tmp:
        handwritten = [str(compile_solver(Path(tmp))), *([args.position] if args.position else [])]
        measured([*rulecraft, "--max-positions", "10"], env, 600.0)  # (its C built, not timed)
        runs: dict[str, list[Run]] = {"hand-written": [], "rulecraft": []}
        results = set()
        for _ in range(args.repeat):
            for name, cmd, read in (("hand-written", handwritten, handwritten_result),
                                    ("rulecraft", rulecraft, rulecraft_result)):
                run, lines = measured(cmd, env, args.timeout)
                runs[name].append(run)
                results.add(read(lines))
                print(f"{name}: {cell(run)}: {read(lines)}", flush=True)
    cpu = {name: min(r.cpu for r in rs) for name, rs in runs.items()}
    print(f"rulecraft / hand-written, least CPU time: {cpu['rulecraft'] / cpu['hand-written']:.2f}x "
          f"({cpu['rulecraft']:,.1f} s against {cpu['hand-written']:,.1f} s)")
    if len(results) != 1 or ("?",) in results:
        print(f"the solves differ: {sorted(results)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
