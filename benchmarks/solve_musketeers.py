#!/usr/bin/env python3
"""Three Musketeers solved exactly by the native solver, then checked position by position.

    python benchmarks/solve_musketeers.py [--symmetry setup|all] [--checks N] [--seed S]
                                          [--plies A-B] [--ruleset FILE]

(about 4 minutes and 2.5 GB with `all`, the default, on 2 cores, and about a minute
more for the check; `setup` takes longer.)

1. `solve()` on the native back-end from the setup, with the board symmetries that keep
   the setup (4) or every one the rules commute with (8): the start's value and
   remoteness, the positions and their values, wall and CPU time (of both threads), the
   peak resident memory of the process.
2. The check: `--checks` positions (default 100) taken from seeded random games after A to
   B plies (`--plies`, default 30-40: few enemies are left, so the Python solver is quick) are solved
   again from scratch by the Python solver (`solve(Game(rs), start=position)`, retrograde
   analysis over that position's own reachable set), and the value and remoteness of
   every position it reaches must be those the native solution gives. Exit 1 on a
   difference.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time

from dsl.load import load
from interpreter.runtime.game import Game
from interpreter.search.solver import solve
from interpreter.search.symmetry import board_symmetries


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--symmetry", choices=("setup", "all"), default="all")
    ap.add_argument("--checks", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plies", default="30-40", help="where the checked positions are taken")
    ap.add_argument("--ruleset", default="three-musketeers",
                    help="another ruleset of the same shape (a smaller board, to try the script)")
    args = ap.parse_args()
    rs = load(args.ruleset)
    game = Game(rs, backend="native")
    start = game.initial_state()
    perms = board_symmetries(game, setups=args.symmetry == "setup", start=start)
    wall, cpu = time.perf_counter(), time.process_time()
    sol = solve(game, symmetry=perms, progress=True, max_memory=None)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    value, rem = sol.lookup(start)
    counts = sol.counts()
    st = sol.stats
    print(f"start: {value} for the Musketeers in {rem} plies; {len(sol):,} positions "
          f"({counts['win']:,} win, {counts['lose']:,} lose, {counts['draw']:,} draw), "
          f"{len(perms)} symmetries, one pass: {st.one_pass}")
    print(f"time: {wall:.0f} s wall, {cpu:.0f} s CPU (reachability {st.enumerate_seconds:.0f} s, "
          f"solve {st.retrograde_seconds:.0f} s wall); peak memory {peak / 2**30:.2f} GiB")
    print("best first plies:", ", ".join(game.action_to_text(start, a)
                                          for a in sol.best_actions(start)))
    lo, hi = (int(x) for x in args.plies.split("-"))
    return check(rs, game, sol, args.checks, args.seed, lo, hi)


def check(rs, game: Game, sol, checks: int, seed: int, lo: int, hi: int) -> int:
    """Positions of late random games solved again in Python; 0, or 1 on a difference."""
    py = Game(rs)
    rng = random.Random(seed)
    compared = bad = 0
    for _ in range(checks):
        s = game.initial_state()
        for _ in range(rng.randint(lo, hi)):
            if game.is_terminal(s):
                break
            s = game.apply_unchecked(s, rng.choice(game.legal_actions(s)))
        small = solve(py, start=s)
        for key in small.keys:
            pos = small.codec.unpack(key)
            compared += 1
            if small.lookup(pos) != sol.lookup(pos):
                bad += 1
                print(f"differs: {game.state_to_text(pos)}: Python {small.lookup(pos)}, "
                      f"native {sol.lookup(pos)}", file=sys.stderr)
    print(f"check: {compared:,} positions of {checks} late positions' own solves, "
          f"{bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
