#!/usr/bin/env python3
"""A game solved by rulecraft and by a solver written by hand in C, in one run.

    python benchmarks/solve_handwritten.py [--game three-musketeers|3-a-side]
                                           [--position TEXT] [--threads N] [--repeat N]
                                           [--timeout S] [--option OPT ...]

The hand-written solvers (in handwritten/, each the game's rules in C and nothing of
rulecraft's) are compiled with `cc -O2 -march=native`:
- three_musketeers_solve.c: memoised minimax depth first over the classes of the 8
  symmetries, a byte a position, the children's bytes asked of memory before they are
  searched; against `rulecraft solve three-musketeers --all-symmetries` (about 6 and 9
  minutes on this 2-core machine). Both report the start's value and remoteness, the
  positions and the wins, which must agree.
- three_a_side_solve.c: retrograde analysis by un-moves over every arrangement (1.88G
  positions, the colour swap), two bytes a position; against `rulecraft solve 3-a-side
  --symmetry --swap-players` (about 6 and 31 minutes). The two count different sets (every
  arrangement, the positions reached), so only the start's value must agree.
  `--option=--arrangements` has rulecraft solve every arrangement too (solver/arrangements.c).
Then, in turn, the hand-written solver and rulecraft (`--threads N`, 1 by default, as the
hand-written ones have one thread) each solve the game from the setup, or from
`--position`, `--repeat` times. Reports each run's wall time, CPU time (user and system,
every thread's) and peak resident memory from the kernel's accounting of the child, and
the ratio of the least CPU times; exit 1 if the two differ (the hand-written solver is an
independent check of rulecraft's). Issue #34 asks for rulecraft at most 1.5 times the
hand-written solver's time.
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
GAMES = {  # name: (hand-written source, rulecraft's options)
    "three-musketeers": ("three_musketeers_solve.c", ["--all-symmetries"]),
    "3-a-side": ("three_a_side_solve.c", ["--symmetry", "--swap-players"]),
}


def compile_solver(source: Path, out: Path) -> Path:
    """The hand-written solver built into directory `out` (for this CPU where the compiler
    can; plain -O2 where it cannot)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        raise SystemExit("no C compiler (cc or gcc) on the PATH")
    exe = out / source.stem
    for flags in (["-march=native"], []):
        if subprocess.run([cc, "-O2", *flags, "-o", str(exe), str(source)]).returncode == 0:
            return exe
    raise SystemExit(f"{source.name} did not compile")


def handwritten_result(lines: list[str]) -> tuple:
    """(value, remoteness, and for Three Musketeers positions, wins) from the hand-written
    solver's output."""
    text = "\n".join(lines)
    start = re.search(r"start: (win|lose|draw)(?: in (\d+))?", text)
    if not start:
        return ("?",)
    count = re.search(r"positions: (\d+) \((\d+) won", text)
    more = (int(count[1]), int(count[2])) if count else ()
    return (start[1], start[2] and int(start[2]), *more)


def rulecraft_result(lines: list[str], counted: bool) -> tuple:
    """The same from `rulecraft solve`'s output (`counted`: with positions and wins)."""
    text = "\n".join(lines).replace(",", "")
    start = re.search(r": (win|lose|draw)(?: for \w+ \(the player to move\) in (\d+) plies)?", text)
    count = re.search(r"positions: (\d+)", text)
    wins = re.search(r"values: (\d+) win", text)
    if not start or (counted and (not count or not wins)):
        return ("?",)
    return (start[1], start[2] and int(start[2]), *((int(count[1]), int(wins[1])) if counted else ()))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(GAMES), default="three-musketeers")
    ap.add_argument("--position", help="the start, in the text form (default: the setup)")
    ap.add_argument("--threads", type=int, default=1, help="rulecraft's threads (default 1)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each, in turn")
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds a solve may take")
    ap.add_argument("--option", action="append", default=[], metavar="OPT",
                    help="one more option of rulecraft's solve (--option=--arrangements)")
    args = ap.parse_args()
    where = ["--position", args.position] if args.position else []
    source, options = GAMES[args.game]
    ruleset = HERE.parent / "rulesets" / f"{args.game}.game"
    rulecraft = [sys.executable, "-c", LAUNCH, "solve", str(ruleset), *options, *args.option,
                 "--threads", str(args.threads), *where]
    counted = args.game == "three-musketeers"
    env = dict(os.environ, PYTHONPATH=str(HERE.parent))
    with tempfile.TemporaryDirectory() as tmp:
        exe = compile_solver(HERE / "handwritten" / source, Path(tmp))
        handwritten = [str(exe), *([args.position] if args.position else [])]
        measured([*rulecraft, "--max-positions", "10"], env, 600.0)  # (its C built, not timed)
        runs: dict[str, list[Run]] = {"hand-written": [], "rulecraft": []}
        results = set()
        for _ in range(args.repeat):
            for name, cmd, read in (("hand-written", handwritten, handwritten_result),
                                    ("rulecraft", rulecraft, lambda ls: rulecraft_result(ls, counted))):
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
