"""The native solve in memory and out of core, one after the other in one run.

    python benchmarks/out_of_core.py CAP [RULECRAFT-SOLVE-ARGUMENTS ...]
    python benchmarks/out_of_core.py 1600M three-musketeers --all-symmetries

Builds the game's libraries, then runs `rulecraft solve ARGS --json` in memory (its
default cap), then with `--out-of-core
--max-memory CAP`, each in its own process, sampling the process's resident memory
(/proc/PID/status: all of it, anonymous, file-backed) every 0.2 s; prints wall and CPU
seconds (user + system), the peaks, and checks that both gave the same value, remoteness
and positions. The solver's own count of what it held is in the out-of-core run's cap.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time

FIELDS = ("VmRSS", "RssAnon", "RssFile")


def _sample(pid: int) -> dict[str, int]:
    """The process's resident memory now, in bytes, by kind ({} once it has ended)."""
    out: dict[str, int] = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                name, _, rest = line.partition(":")
                if name in FIELDS:
                    out[name] = int(rest.split()[0]) * 1024
    except OSError:
        pass
    return out


def run(argv: list[str]) -> dict:
    """One solve: its JSON result, wall and CPU seconds, and resident peaks."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    peaks = dict.fromkeys(FIELDS, 0)
    while proc.poll() is None:
        for k, v in _sample(proc.pid).items():
            peaks[k] = max(peaks[k], v)
        time.sleep(0.2)
    out = proc.stdout.read() if proc.stdout else ""
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} exited with {proc.returncode}")
    return {"result": json.loads(out), "wall": wall, "cpu": cpu, **peaks}


def main() -> None:
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    cap, args = sys.argv[1], sys.argv[2:]
    exe = os.path.join(os.path.dirname(sys.executable), "rulecraft")
    base = [exe, "solve", *args, "--json", "--quiet"]
    # the game's libraries built first, so that neither run counts the compiler
    subprocess.run(base + ["--max-positions", "1"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = [("in memory", run(base)),
            (f"out of core, --max-memory {cap}", run(base + ["--out-of-core", "--max-memory", cap]))]
    gib = 1 << 30
    print(f"rulecraft solve {' '.join(args)}")
    print(f"{'':34} {'wall s':>8} {'CPU s':>8} {'RSS GiB':>8} {'anon':>6} {'file':>6}")
    for name, r in rows:
        print(f"{name:34} {r['wall']:8.1f} {r['cpu']:8.1f} {r['VmRSS'] / gib:8.2f} "
              f"{r['RssAnon'] / gib:6.2f} {r['RssFile'] / gib:6.2f}")
    a, b = (r["result"] for _, r in rows)
    same = all(a[k] == b[k] for k in ("value", "remoteness", "positions"))
    print(f"value {a['value']} in {a['remoteness']}, {a['positions']:,} positions: "
          f"{'the same both ways' if same else 'DIFFERENT: ' + json.dumps(b)}")


if __name__ == "__main__":
    main()
