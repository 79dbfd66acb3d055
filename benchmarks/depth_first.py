#!/usr/bin/env python3
"""The native solver's depth-first solve against reachability and the one pass, in one run.

    python benchmarks/depth_first.py [--position TEXT] [--ruleset NAME] [--repeat N]

Three Musketeers (8 symmetries) from a position with 18 enemies by default (58 million
positions; about 2 minutes for the three solves), each way in turn: reachability then
the one pass on 2 threads, depth first on 1 thread, depth first on 2 threads. Prints wall
and CPU time (`time.process_time`: every thread's) and checks that the three give the
same positions, counts and start value (exit 1 if not). The least of `--repeat` runs.
"""

from __future__ import annotations

import argparse
import sys
import time

from dsl.load import load
from interpreter.runtime.game import Game
from interpreter.search import native_solve
from interpreter.search.progress import Progress
from interpreter.search.symmetry import board_symmetries

WAYS = [("reachability + one pass, 2 threads", 2, 0), ("depth first, 1 thread", 1, 1),
        ("depth first, 2 threads", 2, 1)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ruleset", default="three-musketeers")
    ap.add_argument("--position", default="ooooM/o...o/ooMoo/o...o/Moooo Musketeers")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    game = Game(load(args.ruleset), backend="native")
    start = game.state_from_text(args.position) if args.position else game.initial_state()
    perms = board_symmetries(game, setups=False, start=start)
    print(f"{args.ruleset} from {args.position or 'the setup'}, {len(perms) or 1} symmetries")
    seen = set()
    for name, threads, depth_first in WAYS:
        best = (float("inf"), float("inf"))
        for _ in range(args.repeat):
            t0, c0 = time.perf_counter(), time.process_time()
            sol = native_solve.solve_native(game, start, perms, Progress(False), None, None, threads=threads,
                                            depth_first=depth_first, copy_limit=0)
            best = (min(best[0], time.perf_counter() - t0), min(best[1], time.process_time() - c0))
            seen.add((len(sol), tuple(sorted(sol.counts().items())), sol.lookup(start)))
            assert sol.stats.depth_first == bool(depth_first)
        print(f"  {name:36} {best[0]:8.1f} s wall {best[1]:8.1f} s CPU")
    if len(seen) != 1:
        print(f"the solves differ: {seen}")
        return 1
    n, counts, value = seen.pop()
    print(f"  the same: {n:,} positions, {dict(counts)}, start {value.value} in {value.remoteness}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
