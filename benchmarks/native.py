#!/usr/bin/env python3
"""The native back-end against the Python back-end (perft) and OpenSpiel (random playouts).

    python benchmarks/native.py [--quick] [--json] [--repeat N] [--seed S]
                                [--openspiel-python PYTHON] [--no-openspiel]

(about 75 s on 2 cores; --quick about 5 s.)

Both sides in one run, CPU time (`time.process_time`: user + system of every thread of
the process) beside wall time (`time.perf_counter`); each figure is the least over
`--repeat` runs (default 3, 1 with --quick), CPU and wall taken apart.

1. perft from the start, the rulecraft Python back-end (`analysis.perft` on a
   `Game(rs)`) against the native one (`game.native.perft` on a `Game(rs,
   backend="native")`, on 1 thread and on 2): Three Musketeers depth 8, Force 3 depth 6,
   3-A-Side depth 6, Tricouleur depth 3 (--quick: 7, 5, 5, 2). Both count the last ply's
   actions without applying them. Every count must agree, or the run stops (exit 1).
   Speedup: Python CPU / native CPU on 1 thread. As a second check, seeded random
   playouts of each ruleset must give the same wins, draws and plies on both back-ends.
2. tic-tac-toe random playouts (a uniformly random legal ply until the game ends),
   plies per CPU second: rulecraft native (`game.native.playouts`, the whole loop in C,
   on 1 thread and on 2) and, for reference, rulecraft driven ply by ply from Python,
   against OpenSpiel's C++ `tic_tac_toe` through pyspiel, driven three ways (see
   OPENSPIEL_DRIVERS) plus its `random_sim_test` harness (not a playout loop). The
   native playouts must give the Python back-end's wins, draws and plies (same seed).

OpenSpiel is not a dependency of rulecraft: it is measured when `pyspiel` imports in
this Python, or in the Python given by `--openspiel-python` (a venv with `pip install
open_spiel`; only pyspiel is imported there), and skipped with a message otherwise.
Exit 0, or 1 when two counts that must agree differ.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import Any, Callable

PERFT_FULL = {"three-musketeers": 8, "force-3": 6, "3-a-side": 6, "tricouleur": 3}
PERFT_QUICK = {"three-musketeers": 7, "force-3": 5, "3-a-side": 5, "tricouleur": 2}
PERFT_TARGET = 50.0  # native at least this many times faster (CPU) than Python
PLAYOUT_TARGET = 1.0  # native plies per CPU second at least this times OpenSpiel's

# seeded playouts compared game for game between the back-ends (games, max plies)
CHECK_PLAYOUTS = {"three-musketeers": (500, 1000), "force-3": (500, 1000),
                  "3-a-side": (100, 1000), "tricouleur": (30, 1000)}
MAX_PLIES = 1000

# tic-tac-toe games per driver: (full, quick)
GAMES = {"native": (2_000_000, 200_000), "python_loop": (100_000, 10_000),
         "python_check": (100_000, 20_000),
         "os_python": (200_000, 20_000), "os_evaluate_bots": (500_000, 50_000),
         "os_rollouts": (2_000_000, 200_000), "os_random_sim_test": (100_000, 10_000)}

OPENSPIEL_DRIVERS = {
    "os_python": "pyspiel Python API: per game new_initial_state(); per ply is_terminal(), "
                 "legal_actions(), random.Random.randrange, apply_action()",
    "os_evaluate_bots": "pyspiel.evaluate_bots(state, bots, seed) with two "
                        "make_uniform_random_bot bots: the game's loop in C++ (per ply "
                        "Bot::Step = LegalActions, a policy vector, a mt19937 draw; "
                        "ApplyAction), one Python call per game; plies from move_number()",
    "os_rollouts": "RandomRolloutEvaluator(N) run by MCTSBot(max_simulations=1)."
                   "mcts_search(start): N rollouts from the start in one C++ loop (per "
                   "rollout one Clone; per ply IsTerminal, LegalActions, absl::Uniform, "
                   "ApplyAction); plies = N x the exact expected game length",
    "os_random_sim_test": "pyspiel.random_sim_test(game, N, serialize=False, "
                          "verbose=False): OpenSpiel's C++ consistency test; per ply it also "
                          "clones the state and checks strings, observations and masks, "
                          "so it is not a playout rate; plies = N x the exact expected length",
}


# ---------------------------------------------------------------- timing

def measure(fn: Callable[[], Any], repeat: int) -> dict[str, Any]:
    """The least CPU and the least wall seconds of `repeat` calls, and the last result."""
    cpu = wall = float("inf")
    result = None
    for _ in range(repeat):
        c, w = time.process_time(), time.perf_counter()
        result = fn()
        c, w = time.process_time() - c, time.perf_counter() - w
        cpu, wall = min(cpu, c), min(wall, w)
    return {"cpu": cpu, "wall": wall, "result": result}


class Mismatch(Exception):
    """Two counts that must agree differ: a bug, reported and the run stopped."""


def load_both(name: str) -> tuple[Any, Any, float]:
    """The Python and the native game of a bundled ruleset, and the seconds the native one
    took to load (its C built by cc, or taken from the cache). Retries a broken import for a
    while: the code may be under edit."""
    for attempt in range(10):
        try:
            from dsl.load import load
            from interpreter.runtime.game import Game
            break
        except ImportError:
            if attempt == 9:
                raise
            time.sleep(30)
    rs = load(name)
    py = Game(rs)
    begin = time.perf_counter()
    native = Game(load(name), backend="native")
    return py, native, time.perf_counter() - begin


# ---------------------------------------------------------------- perft

def bench_perft(name: str, depth: int, repeat: int, seed: int) -> dict[str, Any]:
    from interpreter.search.analysis import perft, random_playouts

    py, nat, load_s = load_both(name)
    root = py.initial_state()
    if nat.initial_state() != root:
        raise Mismatch(f"{name}: the back-ends' start positions differ")
    p = measure(lambda: perft(py, root, depth), repeat)
    n1 = measure(lambda: nat.native.perft(root, depth, threads=1), max(repeat, 5))
    n2 = measure(lambda: nat.native.perft(root, depth, threads=2), max(repeat, 5))
    counts = {"python": p["result"], "native_1": n1["result"], "native_2": n2["result"]}
    if len(set(counts.values())) != 1:
        raise Mismatch(f"{name}: perft({depth}) differs: {counts}")
    games, max_plies = CHECK_PLAYOUTS.get(name, (50, MAX_PLIES))
    a = random_playouts(py, games, seed, max_plies)
    b = nat.native.playouts(root, games, seed, max_plies, threads=2)
    got_py = [a.wins[0], a.wins[1], a.draws, a.unfinished, a.plies]
    if got_py != list(b):
        raise Mismatch(f"{name}: {games} random playouts (seed {seed}) differ: Python back-end "
                       f"{got_py}, native {list(b)} (wins0, wins1, draws, unfinished, plies)")
    return {"ruleset": name, "depth": depth, "perft": p["result"], "native_load_seconds": load_s,
            "python": {"cpu": p["cpu"], "wall": p["wall"]},
            "native_1": {"cpu": n1["cpu"], "wall": n1["wall"]},
            "native_2": {"cpu": n2["cpu"], "wall": n2["wall"]},
            "speedup_cpu": p["cpu"] / n1["cpu"], "speedup_wall_2": p["wall"] / n2["wall"],
            "playouts_checked": {"games": games, "seed": seed, "max_plies": max_plies,
                                 "stats": got_py}}


# ---------------------------------------------------------------- playouts

def rate(name: str, games: int, plies: float, m: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"driver": name, "games": games, "plies": plies, "cpu": m["cpu"], "wall": m["wall"],
            "plies_per_cpu_second": plies / m["cpu"], "plies_per_wall_second": plies / m["wall"],
            **extra}


def bench_rulecraft_playouts(quick: bool, repeat: int, seed: int) -> list[dict[str, Any]]:
    from interpreter.search.analysis import random_playouts

    py, nat, _ = load_both("tic-tac-toe")
    root = py.initial_state()
    k = 1 if quick else 0
    n = GAMES["native"][k]
    rows = []
    for threads in (1, 2):
        m = measure(lambda: nat.native.playouts(root, n, seed, MAX_PLIES, threads=threads), repeat)
        w0, w1, draws, unfinished, plies = m["result"]
        rows.append(rate(f"native_{threads}", n, plies, m, threads=threads,
                         wins=[w0, w1], draws=draws, unfinished=unfinished))
    if rows[0]["plies"] != rows[1]["plies"] or rows[0]["wins"] != rows[1]["wins"]:
        raise Mismatch(f"tic-tac-toe: native playouts differ on 1 and 2 threads: {rows}")
    # the same seeded games on the Python back-end, game for game (and timed)
    c = GAMES["python_check"][k]
    m = measure(lambda: random_playouts(py, c, seed, MAX_PLIES), 1)
    a = m["result"]
    got = [a.wins[0], a.wins[1], a.draws, a.unfinished, a.plies]
    b = nat.native.playouts(root, c, seed, MAX_PLIES, threads=1)
    if got != list(b):
        raise Mismatch(f"tic-tac-toe: {c} random playouts (seed {seed}) differ: Python back-end "
                       f"{got}, native {list(b)}")
    rows.append(rate("python_backend", c, a.plies, m, wins=a.wins, draws=a.draws))
    # the native game driven ply by ply from Python (legal_actions/apply through ctypes)
    c = GAMES["python_loop"][k]
    m = measure(lambda: random_playouts(nat, c, seed, MAX_PLIES, each_game=lambda: None), 1)
    a = m["result"]
    b = nat.native.playouts(root, c, seed, MAX_PLIES, threads=1)
    if [a.wins[0], a.wins[1], a.draws, a.unfinished, a.plies] != list(b):
        raise Mismatch(f"tic-tac-toe: native playouts driven from Python differ from C's: "
                       f"{[a.wins[0], a.wins[1], a.draws, a.unfinished, a.plies]} vs {list(b)}")
    rows.append(rate("native_python_loop", c, a.plies, m, wins=a.wins, draws=a.draws))
    return rows


def exact_tic_tac_toe(game: Any) -> tuple[float, float]:
    """The expected length in plies and the expected return of player 0 of a uniformly
    random tic-tac-toe game, exactly, by walking OpenSpiel's game tree (5,478 positions)."""
    from fractions import Fraction

    memo: dict[str, tuple[Fraction, Fraction]] = {}

    def walk(s: Any) -> tuple[Fraction, Fraction]:
        key = str(s)
        if key not in memo:
            if s.is_terminal():
                memo[key] = (Fraction(0), Fraction(int(s.returns()[0])))
            else:
                acts = s.legal_actions()
                kids = [walk(s.child(a)) for a in acts]
                memo[key] = (1 + sum(k[0] for k in kids) / len(acts),
                             sum(k[1] for k in kids) / len(acts))
        return memo[key]

    length, ret = walk(game.new_initial_state())
    return float(length), float(ret)


def bench_openspiel(quick: bool, repeat: int, seed: int) -> dict[str, Any]:
    """OpenSpiel's tic_tac_toe, every driver (needs pyspiel in this Python)."""
    import random

    import pyspiel

    try:
        from importlib.metadata import version
        ver = version("open_spiel")
    except Exception:  # noqa: BLE001 - a version is nice to have
        ver = "?"
    game = pyspiel.load_game("tic_tac_toe")
    length, ret0 = exact_tic_tac_toe(game)
    k = 1 if quick else 0
    rows = []

    n = GAMES["os_python"][k]

    def python_loop() -> tuple[int, int]:
        rng = random.Random(seed)
        plies = total = 0
        for _ in range(n):
            s = game.new_initial_state()
            while not s.is_terminal():
                acts = s.legal_actions()
                s.apply_action(acts[rng.randrange(len(acts))])
                plies += 1
            total += int(s.returns()[0])
        return plies, total

    m = measure(python_loop, repeat)
    rows.append(rate("os_python", n, m["result"][0], m, mean_return0=m["result"][1] / n))

    n = GAMES["os_evaluate_bots"][k]

    def bots_loop() -> tuple[int, float]:
        bots = [pyspiel.make_uniform_random_bot(0, seed),
                pyspiel.make_uniform_random_bot(1, seed + 1)]
        plies, total = 0, 0.0
        for i in range(n):
            s = game.new_initial_state()
            total += pyspiel.evaluate_bots(s, bots, i)[0]
            plies += s.move_number()
        return plies, total

    m = measure(bots_loop, repeat)
    rows.append(rate("os_evaluate_bots", n, m["result"][0], m, mean_return0=m["result"][1] / n))

    n = GAMES["os_rollouts"][k]

    def rollouts() -> float:
        bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(n, seed), 2.0, 1, 1000,
                              False, seed, False)
        root = bot.mcts_search(game.new_initial_state())
        if root.explore_count != 1:
            raise RuntimeError("MCTSBot ran more than one simulation: the rollout count is off")
        return root.total_reward  # the mean return of player 0 over the n rollouts

    m = measure(rollouts, repeat)
    rows.append(rate("os_rollouts", n, n * length, m, mean_return0=m["result"],
                     plies_estimated=True))

    n = GAMES["os_random_sim_test"][k]
    m = measure(lambda: pyspiel.random_sim_test(game, n, False, False), repeat)
    rows.append(rate("os_random_sim_test", n, n * length, m, plies_estimated=True))
    return {"version": ver, "expected_length": length, "expected_return0": ret0, "rows": rows}


def openspiel(args: argparse.Namespace, repeat: int) -> dict[str, Any]:
    """OpenSpiel's figures, from this Python or from --openspiel-python; {"skipped": why}."""
    if args.no_openspiel:
        return {"skipped": "--no-openspiel"}
    try:
        import pyspiel
    except ImportError:
        pyspiel = None
    if pyspiel is not None:
        return bench_openspiel(args.quick, repeat, args.seed)
    if not args.openspiel_python:
        return {"skipped": "pyspiel is not importable in this Python (pip install open_spiel "
                           "in another venv and pass --openspiel-python PATH, or run this "
                           "file with that venv's Python)"}
    cmd = [args.openspiel_python, os.path.abspath(__file__), "--openspiel-worker",
           "--repeat", str(repeat), "--seed", str(args.seed)] + (["--quick"] if args.quick else [])
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        return {"skipped": f"{args.openspiel_python} could not run OpenSpiel: "
                           + (done.stderr.strip().splitlines() or ["no message"])[-1]}
    return json.loads(done.stdout)


# ---------------------------------------------------------------- report

def _run():
    """benchmarks/run.py, imported only where reports are made: the OpenSpiel worker, run
    in a Python that may lack rulecraft, imports nothing but pyspiel."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import run  # noqa: PLC0415
    return run


def human(x: float) -> str:
    return _run().human(x)


def machine() -> dict[str, Any]:
    """What the figures were measured on (run.machine), with the C compiler and the commit."""
    info = _run().machine()
    try:
        from interpreter.native.build import compiler
        cc = compiler()
        info["cc"] = subprocess.run([cc, "--version"], capture_output=True, text=True
                                    ).stdout.splitlines()[0] if cc else None
    except Exception:  # noqa: BLE001 - a description only
        info["cc"] = None
    try:
        info["commit"] = subprocess.run(["git", "describe", "--always", "--dirty"],
                                        capture_output=True, text=True,
                                        cwd=os.path.dirname(os.path.abspath(__file__))
                                        ).stdout.strip() or None
    except OSError:
        info["commit"] = None
    return info



def table(head: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    out = []
    for k, row in enumerate([head] + rows):
        out.append("  ".join([row[0].ljust(widths[0])] + [c.rjust(w) for c, w in
                                                            zip(row[1:], widths[1:])]).rstrip())
        if k == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


LABELS = {"native_1": "rulecraft native, C loop, 1 thread",
          "native_2": "rulecraft native, C loop, 2 threads",
          "native_python_loop": "rulecraft native, Python loop (ctypes per call)",
          "python_backend": "rulecraft Python back-end",
          "os_python": "OpenSpiel, pyspiel Python loop",
          "os_evaluate_bots": "OpenSpiel, evaluate_bots (C++ loop per game)",
          "os_rollouts": "OpenSpiel, RandomRolloutEvaluator (C++ loop)",
          "os_random_sim_test": "OpenSpiel, random_sim_test (a test, not a playout loop)"}


def report(result: dict[str, Any]) -> str:
    lines = []
    rows = []
    for r in result["perft"]:
        rows.append([r["ruleset"], str(r["depth"]), f"{r['perft']:,}", f"{r['python']['cpu']:.3f}",
                     f"{r['native_1']['cpu']:.4f}", f"{r['speedup_cpu']:.1f}x",
                     f"{r['native_2']['cpu']:.4f}", f"{r['native_2']['wall']:.4f}",
                     f"{r['speedup_wall_2']:.1f}x",
                     "yes" if r["speedup_cpu"] >= PERFT_TARGET else "NO"])
    lines.append("perft from the start (seconds; CPU = user+system of all threads):")
    lines.append(table(["ruleset", "depth", "perft", "Python CPU", "native CPU 1thr", "speedup CPU",
                        "native CPU 2thr", "native wall 2thr", "speedup wall",
                        f">={PERFT_TARGET:g}x"], rows))
    lines.append("speedup CPU: Python CPU / native CPU on 1 thread; speedup wall: Python wall / "
                 "native wall on 2 threads. Counts equal on both back-ends; seeded playouts equal: "
                 + ", ".join(f"{r['ruleset']} {r['playouts_checked']['games']} games"
                             for r in result["perft"]) + ".")
    lines.append("")
    play = result["playouts"]
    os_part = result["openspiel"]
    all_rows = play + os_part.get("rows", [])
    n1 = next(r for r in play if r["driver"] == "native_1")
    base = n1["plies_per_cpu_second"]
    rows = []
    for r in all_rows:
        plies = f"~{human(r['plies'])}" if r.get("plies_estimated") else human(r["plies"])
        rows.append([LABELS[r["driver"]], human(r["games"]), plies, f"{r['cpu']:.3f}",
                     f"{r['wall']:.3f}", human(r["plies_per_cpu_second"]),
                     f"{base / r['plies_per_cpu_second']:.2f}"])
    lines.append("tic-tac-toe random playouts (uniform random legal ply to the end):")
    lines.append(table(["driver", "games", "plies", "CPU s", "wall s", "plies/CPU-s",
                        "native 1thr / this"], rows))
    if "skipped" in os_part:
        lines.append(f"OpenSpiel skipped: {os_part['skipped']}")
    else:
        lines.append(f"OpenSpiel {os_part['version']}: exact expected length "
                     f"{os_part['expected_length']:.4f} plies, expected return of X "
                     f"{os_part['expected_return0']:.4f}; mean return of X measured: "
                     + ", ".join(f"{r['driver']} {r['mean_return0']:.4f}" for r in os_part["rows"]
                                 if "mean_return0" in r)
                     + f"; rulecraft native {(n1['wins'][0] - n1['wins'][1]) / n1['games']:.4f}"
                     f" (mean length {n1['plies'] / n1['games']:.4f}).")
        fair = [r for r in os_part["rows"] if r["driver"] != "os_random_sim_test"]
        best = max(fair, key=lambda r: r["plies_per_cpu_second"])
        ratio = base / best["plies_per_cpu_second"]
        lines.append(f"target: rulecraft native (1 thread) / fastest OpenSpiel driver "
                     f"({best['driver']}) = {ratio:.2f}x (target >= {PLAYOUT_TARGET:g}x: "
                     f"{'met' if ratio >= PLAYOUT_TARGET else 'MISSED'})")
        for key, text in OPENSPIEL_DRIVERS.items():
            lines.append(f"  {key}: {text}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller depths, fewer games (~5 s)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--repeat", type=int, default=None, help="least of N runs (default 3, quick 1)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the playouts")
    ap.add_argument("--openspiel-python", metavar="PYTHON",
                    help="a Python with open_spiel installed, when this one has none")
    ap.add_argument("--no-openspiel", action="store_true", help="leave OpenSpiel out")
    ap.add_argument("--openspiel-worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    repeat = args.repeat or (1 if args.quick else 3)
    if repeat < 1:
        ap.error("--repeat must be 1 or more")
    if args.openspiel_worker:  # run by openspiel() in the other Python: only pyspiel here
        print(json.dumps(bench_openspiel(args.quick, repeat, args.seed)))
        return 0
    info = machine()
    depths = PERFT_QUICK if args.quick else PERFT_FULL
    if not args.json:
        print(f"machine: {info['cpu']}, {info['nproc']} cpus, {info['python']}, {info['cc']}, "
              f"commit {info['commit']}, load average {info['loadavg']}")
        print(f"settings: {'quick' if args.quick else 'full'}, least of {repeat} "
              f"(native perft: of {max(repeat, 5)}), seed {args.seed}", flush=True)
    result: dict[str, Any] = {"machine": info, "settings": {"quick": args.quick, "repeat": repeat,
                                                            "seed": args.seed}}
    try:
        result["perft"] = []
        for name, depth in depths.items():
            if not args.json:
                print(f"  perft {name} {depth} ...", file=sys.stderr, flush=True)
            result["perft"].append(bench_perft(name, depth, repeat, args.seed))
        if not args.json:
            print("  tic-tac-toe playouts, rulecraft ...", file=sys.stderr, flush=True)
        result["playouts"] = bench_rulecraft_playouts(args.quick, repeat, args.seed)
    except Mismatch as e:
        print(f"MISMATCH (a bug): {e}", file=sys.stderr)
        return 1
    if not args.json:
        print("  tic-tac-toe playouts, OpenSpiel ...", file=sys.stderr, flush=True)
    result["openspiel"] = openspiel(args, repeat)
    result["machine"]["loadavg_end"] = list(os.getloadavg()) if hasattr(os, "getloadavg") else None
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(report(result))
        print(f"load average at the end: {result['machine']['loadavg_end']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
