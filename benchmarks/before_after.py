#!/usr/bin/env python3
"""Two installs of rulecraft on the same workloads, in one run, in CPU time.

    python benchmarks/before_after.py --before /path/to/old/venv/bin/python [--rounds N]
                                      [--after PYTHON] [--json] [RULESET ...]

For each bundled ruleset (or those named), each side runs the same three workloads in
a fresh process: a visiting perft (every node applied and expanded) to a fixed depth,
a fixed number of seeded random playouts, and `legal_actions` on positions sampled from
seeded games. The sides take turns, `--rounds` times (default 3), and each figure is
the least CPU time (user + system, `time.process_time` in the worker) over the rounds.
Both sides must give the same counts, or the run stops: the comparison is of one game.
Uses only the API both versions have (`load_game`, `legal_actions`, `apply`).

`--native` compares the native back-end instead: perft (in C, two threads; CPU time
counts both), seeded playouts in C, and the exact solver on the games it solves in
seconds. The libraries are built before the clocks start.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

# ruleset -> (perft depth, playouts): each workload a few tenths of a second or more
WORK = {
    "three-musketeers": (7, 300), "3-spot": (11, 300), "force-3": (5, 300), "3-a-side": (5, 100),
    "tricouleur": (3, 30), "whistling-captures": (2, 10), "tic-tac-toe": (8, 2000),
}

# ruleset -> (native perft depth, native playouts, solve it?)
NATIVE_WORK = {
    "three-musketeers": (8, 20000, False), "3-spot": (13, 20000, True), "force-3": (7, 20000, False),
    "3-a-side": (6, 5000, False), "tricouleur": (4, 2000, False),
    "whistling-captures": (3, 1000, False), "tic-tac-toe": (9, 100000, True),
}

# the API's import: `rulecraft` from the stage layout on, `rulecraft.interpreter` before
IMPORT = """
try:
    from rulecraft import load_game, perft
    from interpreter.search import solve
except ImportError:
    from rulecraft.interpreter import load_game, perft
    from rulecraft.interpreter.search import solve
"""

NATIVE_WORKER = IMPORT + r'''
import json, sys, time
name, depth, games, solves = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
game = load_game(name, "native")
s = game.initial_state()
t = time.process_time()
nodes = perft(game, s, depth)
perft_cpu = time.process_time() - t
t = time.process_time()
stats = (game.native.playouts(s, games, 1, 1000))
play_cpu = time.process_time() - t
solve_cpu, positions = 0.0, 0
if solves:
    t = time.process_time()
    positions = len(solve(game))
    solve_cpu = time.process_time() - t
print(json.dumps({"nodes": nodes, "perft": perft_cpu, "results": stats, "playouts": play_cpu,
                  "positions": positions, "solve": solve_cpu}))
'''

WORKER = IMPORT + r'''
import json, random, sys, time

name, depth, games = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = load_game(name)

def visit(s, d):
    acts = game.legal_actions(s)
    if d == 1:
        for a in acts:
            game.apply_unchecked(s, a)
        return 1 + len(acts)
    return 1 + sum(visit(game.apply_unchecked(s, a), d - 1) for a in acts)

t = time.process_time()
nodes = visit(game.initial_state(), depth)
perft_cpu = time.process_time() - t

rng = random.Random(1)
plies = 0
t = time.process_time()
for _ in range(games):
    s = game.initial_state()
    for _ in range(1000):
        acts = game.legal_actions(s)
        if not acts:
            break
        s = game.apply_unchecked(s, rng.choice(acts))
        plies += 1
play_cpu = time.process_time() - t

rng = random.Random(2)
sample = []
while len(sample) < 1000:
    s = game.initial_state()
    for _ in range(rng.randrange(40)):
        acts = game.legal_actions(s)
        if not acts:
            break
        s = game.apply_unchecked(s, rng.choice(acts))
    sample.append(s)
t = time.process_time()
listed = sum(len(game.legal_actions(s)) for s in sample for _ in range(10))
gen_cpu = time.process_time() - t
print(json.dumps({"nodes": nodes, "perft": perft_cpu, "plies": plies, "playouts": play_cpu,
                  "actions": listed, "movegen": gen_cpu}))
'''


def run(python: str, name: str, depth: int, games: int, native: bool = False,
        solves: bool = False) -> dict:
    # -I: neither the current directory nor PYTHONPATH on the path, so each side imports
    # its own install (a checkout's folders would shadow the other side's packages)
    argv = [python, "-I", "-c", NATIVE_WORKER if native else WORKER, name, str(depth), str(games)]
    out = subprocess.run(argv + (["1" if solves else "0"] if native else []), check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", required=True, metavar="PYTHON", help="the Python of the old install")
    p.add_argument("--after", default=sys.executable, metavar="PYTHON", help="default: this Python")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--json", action="store_true")
    p.add_argument("--native", action="store_true", help="the native back-end: perft, playouts, solve")
    p.add_argument("rulesets", nargs="*")
    args = p.parse_args(argv)
    rows = {}
    # the CPU times compared, and the counts both sides must agree on
    keys = ("perft", "playouts", "solve") if args.native else ("perft", "playouts", "movegen")
    counts = ("nodes", "results", "positions") if args.native else ("nodes", "plies", "actions")
    for name in args.rulesets or list(WORK):
        depth, games = WORK.get(name, (3, 20))
        solves = False
        if args.native:
            depth, games, solves = NATIVE_WORK.get(name, (4, 1000, False))
        best: dict[str, dict] = {}
        for _ in range(args.rounds):
            for side, python in (("before", args.before), ("after", args.after)):
                r = run(python, name, depth, games, args.native, solves)
                if side in best:
                    for key in keys:
                        best[side][key] = min(best[side][key], r[key])
                else:
                    best[side] = r
        b, a = best["before"], best["after"]
        for key in counts:
            if b[key] != a[key]:
                print(f"{name}: the two sides differ ({key} {b[key]} vs {a[key]})", file=sys.stderr)
                return 1
        rows[name] = {"depth": depth, "before": b, "after": a}
        if not args.json:
            print(f"{name:20} " + "  ".join(
                f"{key} {b[key]:6.3f} -> {a[key]:6.3f} s ({a[key] / b[key] - 1:+.0%})"
                for key in keys if b[key] > 0), flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
