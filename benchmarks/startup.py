#!/usr/bin/env python3
"""CPU time of a short command, start to exit: what a user waits for on every call.

    python benchmarks/startup.py [--runs N] [RULECRAFT ...]

Runs `RULECRAFT check three-musketeers` N times (default 20) for each executable given
(default: the `rulecraft` beside this Python), taking turns so that the machine's load
falls on all alike, and prints the mean user+system CPU time of a run, from the
children's resource usage.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys


def cpu_of(command: list[str]) -> float:
    """User + system CPU seconds of one run of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("executables", nargs="*", metavar="RULECRAFT")
    args = parser.parse_args(argv)
    exes = args.executables or [os.path.join(os.path.dirname(sys.executable), "rulecraft")]
    totals = dict.fromkeys(exes, 0.0)
    for _ in range(args.runs):
        for exe in exes:
            totals[exe] += cpu_of([exe, "check", "three-musketeers"])
    for exe in exes:
        print(f"{totals[exe] / args.runs * 1000:7.0f} ms CPU  {exe} check three-musketeers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
