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

WORKER = r'''
import json, random, sys, time
from interpreter import load_game

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


def run(python: str, name: str, depth: int, games: int) -> dict:
    out = subprocess.run([python, "-c", WORKER, name, str(depth), str(games)], check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--before", required=True, metavar="PYTHON", help="the Python of the old install")
    p.add_argument("--after", default=sys.executable, metavar="PYTHON", help="default: this Python")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--json", action="store_true")
    p.add_argument("rulesets", nargs="*")
    args = p.parse_args(argv)
    rows = {}
    for name in args.rulesets or list(WORK):
        depth, games = WORK.get(name, (3, 20))
        best: dict[str, dict] = {}
        for _ in range(args.rounds):
            for side, python in (("before", args.before), ("after", args.after)):
                r = run(python, name, depth, games)
                if side in best:
                    for key in ("perft", "playouts", "movegen"):
                        best[side][key] = min(best[side][key], r[key])
                else:
                    best[side] = r
        b, a = best["before"], best["after"]
        for key in ("nodes", "plies", "actions"):
            if b[key] != a[key]:
                print(f"{name}: the two sides differ ({key} {b[key]} vs {a[key]})", file=sys.stderr)
                return 1
        rows[name] = {"depth": depth, "before": b, "after": a}
        if not args.json:
            print(f"{name:20} " + "  ".join(
                f"{key} {b[key]:6.3f} -> {a[key]:6.3f} s ({a[key] / b[key] - 1:+.0%})"
                for key in ("perft", "playouts", "movegen")), flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
