#!/usr/bin/env python3
"""Speed of every bundled ruleset: perft, random playouts, legal-move generation.

    python benchmarks/run.py [--quick] [--json] [--repeat N] [--seed S] [RULESET...]

With no RULESET, every `.game` in the bundled folder is measured. For each one:

- perft, visiting: every node of the tree to a depth chosen so that one run takes
  about 1-3 s (0.1-0.3 s with --quick), each node made by `apply`; nodes/s counts
  all of them, the root and the leaves included.
- perft, counting: `interpreter.perft` (what `rulecraft perft` runs) at the
  same depth; it counts the last ply's actions without applying them. leaves/s is
  perft(depth) over its time.
- random playouts: `analysis.random_playouts` with a fixed seed and a fixed number of
  games (as many as take about 1 s), each stopped at 1000 plies.
- move generation: `legal_actions` on positions sampled from seeded random games.

Every figure is the best of N runs (`time.perf_counter`). The drivers take any
object with the `Game` protocol's methods, so compare.py times hand-written games
with the very same code.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

from dsl.diagnostics import RulesetError
from dsl.load import bundled_names
from interpreter import load_game, perft
from interpreter.search.analysis import random_playouts

KNOWN_PERFT: dict[str, list[int]] = {
    "three-musketeers": [8, 16, 132, 736, 5540, 38740],
    "3-spot": [3, 10, 33, 97, 271],
}
MAX_DEPTH = 64
MAX_PLIES = 1000  # a random playout stops here (games may be endless)


class PlayableGame(Protocol):
    """The part of rulecraft's `Game` protocol the benchmarks use."""

    players: list[str]

    def initial_state(self) -> Any: ...
    def legal_actions(self, state: Any) -> Sequence[Any]: ...
    def apply(self, state: Any, action: Any) -> Any: ...
    def winner(self, state: Any) -> int | None: ...
    def is_draw(self, state: Any) -> bool: ...


@dataclass(frozen=True)
class Settings:
    """How long each measurement aims to take, and how often it is repeated."""

    low: float  # seconds: a measurement shorter than this is made longer
    high: float  # seconds: perft's depth stops before a run would exceed this
    repeat: int  # best of this many runs
    seed: int
    positions: int  # positions sampled for move generation

    @classmethod
    def make(cls, quick: bool, repeat: int | None, seed: int) -> "Settings":
        if quick:
            return cls(0.1, 0.3, repeat or 1, seed, 200)
        return cls(1.0, 3.0, repeat or 3, seed, 1000)


# ---------------------------------------------------------------- drivers

def perft_nodes(game: PlayableGame, state: Any, depth: int) -> int:
    """Every node of the tree to `depth` plies, each made by `apply` (the root included)."""
    legal, apply = game.legal_actions, game.apply_unchecked

    def visit(s: Any, d: int) -> int:
        if d == 0:
            return 1
        n = 1
        for a in legal(s):
            n += visit(apply(s, a), d - 1)
        return n

    return visit(state, depth)


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """(seconds, result) of one call."""
    begin = time.perf_counter()
    result = fn()
    return time.perf_counter() - begin, result


def best_of(fn: Callable[[], Any], repeat: int, first: float | None = None) -> tuple[float, Any]:
    """The shortest time of `repeat` calls (`first`: a time already measured counts as one)."""
    times = [] if first is None else [first]
    result = None
    while len(times) < repeat:
        t, result = timed(fn)
        times.append(t)
    if result is None:
        result = fn()
    return min(times), result


def choose_depth(game: PlayableGame, state: Any, st: Settings) -> tuple[int, float, int]:
    """The perft depth whose visiting run takes about low..high seconds: (depth, seconds, nodes)."""
    prev = (0, 0.0, 0)
    for depth in range(1, MAX_DEPTH + 1):
        t, nodes = timed(lambda: perft_nodes(game, state, depth))
        if nodes == prev[2] and depth > 1:  # the tree ends before this depth
            return prev
        if t >= st.low:
            return depth, t, nodes
        growth = nodes / prev[2] if prev[2] else float(nodes)
        if t * growth > st.high:  # one ply more would take too long
            return depth, t, nodes
        prev = (depth, t, nodes)
    return prev


def round_count(x: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... at least `x`: workloads that stay the same
    from one run (and machine) to the next unless speeds differ a lot."""
    scale = 1
    while True:
        for step in (1, 2, 5):
            if step * scale >= x:
                return step * scale
        scale *= 10


def calibrate(run: Callable[[int], Any], low: float) -> tuple[int, float]:
    """A round count n for which `run(n)` takes at least `low` seconds: (n, seconds)."""
    n = 1
    while True:
        t, _ = timed(lambda: run(n))
        if t >= low:
            return n, t
        # jump close to the target at once rather than doubling from 1
        n = round_count(max(2 * n, n * low / max(t, 1e-6)))


def sample_positions(game: PlayableGame, count: int, seed: int) -> list[Any]:
    """`count` positions with a legal ply, drawn from seeded random games (each game's
    positions equally likely, so long games do not crowd out the openings)."""
    rng = random.Random(seed)
    pool: list[Any] = []
    for _ in range(max(20, count // 10)):
        s = game.initial_state()
        for _ in range(MAX_PLIES):
            actions = game.legal_actions(s)
            if not actions:
                break
            pool.append(s)
            s = game.apply_unchecked(s, rng.choice(actions))
        if len(pool) >= 4 * count:
            break
    return rng.sample(pool, min(count, len(pool)))


def bench_perft(game: PlayableGame, st: Settings, depth: int | None = None) -> dict[str, Any]:
    """Visiting perft (nodes/s) and counting perft (leaves/s) at a depth of about low..high s."""
    root = game.initial_state()
    if depth is None:
        depth, first, nodes = choose_depth(game, root, st)
    else:
        first, nodes = timed(lambda: perft_nodes(game, root, depth))
    # When one ply more would take far too long, a short run is timed several times over.
    rounds = max(1, math.ceil(st.low / 2 / first)) if first < st.low / 2 else 1

    def visiting() -> int:
        for _ in range(rounds):
            n = perft_nodes(game, root, depth)
        return n

    def counting() -> int:
        for _ in range(rounds):
            n = perft(game, root, depth)
        return n

    seconds, _ = best_of(visiting, st.repeat, first if rounds == 1 else None)
    leaf_seconds, leaves = best_of(counting, st.repeat)
    seconds, leaf_seconds = seconds / rounds, leaf_seconds / rounds
    return {"depth": depth, "rounds": rounds, "nodes": nodes, "seconds": seconds,
            "nodes_per_second": nodes / seconds,
            "leaves": leaves, "leaf_seconds": leaf_seconds,
            "leaves_per_second": leaves / leaf_seconds}


def bench_playouts(game: PlayableGame, st: Settings, games: int | None = None) -> dict[str, Any]:
    """Seeded random playouts: a fixed number of games, the best of N runs of them all."""
    def run(n: int) -> Any:
        return random_playouts(game, n, st.seed, MAX_PLIES)

    first = None
    if games is None:
        games, first = calibrate(run, st.low)
    seconds, stats = best_of(lambda: run(games), st.repeat, first)
    return {"games": games, "seed": st.seed, "max_plies": MAX_PLIES, "seconds": seconds,
            "playouts_per_second": games / seconds, "plies": stats.plies,
            "plies_per_second": stats.plies / seconds, "mean_length": stats.mean_length,
            "wins": stats.wins, "draws": stats.draws, "unfinished": stats.unfinished}


def bench_movegen(game: PlayableGame, positions: list[Any], st: Settings,
                  rounds: int | None = None) -> dict[str, Any]:
    """`legal_actions` on every sampled position, `rounds` times over, best of N."""
    legal = game.legal_actions
    if not positions:  # the game ends before its first ply
        return {"positions": 0, "rounds": 0, "seconds": 0.0, "calls_per_second": 0.0,
                "actions_per_second": 0.0, "mean_actions": 0.0}

    def run(k: int) -> int:
        n = 0
        for _ in range(k):
            for s in positions:
                n += len(legal(s))
        return n

    first = None
    if rounds is None:
        rounds, first = calibrate(run, st.low)
    seconds, actions = best_of(lambda: run(rounds), st.repeat, first)
    calls = rounds * len(positions)
    return {"positions": len(positions), "rounds": rounds, "seconds": seconds,
            "calls_per_second": calls / seconds, "actions_per_second": actions / seconds,
            "mean_actions": actions / calls}


def known_perft_ok(game: PlayableGame, known: list[int]) -> bool:
    """Whether perft(1..len(known)) from the start are the known counts."""
    root = game.initial_state()
    return [perft(game, root, d) for d in range(1, len(known) + 1)] == known


def bench_ruleset(name: str, st: Settings) -> dict[str, Any]:
    """Every measurement of one ruleset (raises RulesetError if it does not load)."""
    game = load_game(name)
    result: dict[str, Any] = {"ruleset": name, "title": game.title}
    p = bench_perft(game, st)
    known = KNOWN_PERFT.get(os.path.basename(name).removesuffix(".game"))
    if known is not None:
        # checked apart from the timed runs, which may go deeper than the known counts
        p["known_ok"] = known_perft_ok(game, known)
    result["perft"] = p
    result["playouts"] = bench_playouts(game, st)
    result["movegen"] = bench_movegen(game, sample_positions(game, st.positions, st.seed), st)
    return result


# ---------------------------------------------------------------- report

def machine() -> dict[str, Any]:
    """What the figures were measured on."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": model, "nproc": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
            else os.cpu_count(),
            "python": f"{platform.python_implementation()} {platform.python_version()}",
            "platform": platform.platform(),
            "loadavg": list(os.getloadavg()) if hasattr(os, "getloadavg") else None}


def human(x: float) -> str:
    """1234567 -> '1.23M': three significant digits."""
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(x) >= scale:
            return f"{x / scale:.3g}{unit}"
    return f"{x:.3g}"


def table(results: list[dict[str, Any]]) -> str:
    """The results as a fixed-width text table."""
    head = ["ruleset", "depth", "nodes", "nodes/s", "leaves/s", "playouts/s", "plies/s",
            "mean len", "cut", "movegen/s", "actions/s"]
    rows = [head]
    for r in results:
        if "error" in r:
            rows.append([r["ruleset"], "error"] + [""] * (len(head) - 2))
            continue
        p, g, m = r["perft"], r["playouts"], r["movegen"]
        mark = {True: "", False: " WRONG"}.get(p.get("known_ok"), "")
        rows.append([r["ruleset"], f"{p['depth']}{mark}", human(p["nodes"]),
                     human(p["nodes_per_second"]), human(p["leaves_per_second"]),
                     human(g["playouts_per_second"]), human(g["plies_per_second"]),
                     f"{g['mean_length']:.1f}", f"{g['unfinished']}/{g['games']}",
                     human(m["calls_per_second"]),
                     human(m["actions_per_second"])])
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = []
    for k, row in enumerate(rows):
        cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(cells).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks; exit 0, or 1 if a ruleset did not load or a perft count was wrong."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("rulesets", nargs="*", metavar="RULESET",
                    help="bundled names or paths (default: every bundled ruleset)")
    ap.add_argument("--quick", action="store_true",
                    help="short runs (~0.1-0.3 s each, one repetition): a smoke test, rough figures")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--repeat", type=int, default=None, help="best of N runs (default 3, quick 1)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the playouts and samples")
    args = ap.parse_args(argv)
    if args.repeat is not None and args.repeat < 1:
        ap.error("--repeat must be 1 or more")
    st = Settings.make(args.quick, args.repeat, args.seed)
    names = args.rulesets or bundled_names()
    info = machine()
    if not args.json:
        print(f"machine: {info['cpu']}, {info['nproc']} cpus, {info['python']}")
        print(f"settings: {'quick' if args.quick else 'full'}, best of {st.repeat}, seed {st.seed}")
    results: list[dict[str, Any]] = []
    status = 0
    for name in names:
        if not args.json:
            print(f"  {name} ...", file=sys.stderr, flush=True)
        try:
            r = bench_ruleset(name, st)
        except (RulesetError, OSError) as e:
            status = 1
            message = str(e) or f"{name}: error: no such ruleset"
            print(message, file=sys.stderr)
            r = {"ruleset": name, "error": message}
        if r.get("perft", {}).get("known_ok") is False:
            status = 1
        results.append(r)
    if args.json:
        print(json.dumps({"machine": info, "settings": {
            "quick": args.quick, "repeat": st.repeat, "seed": st.seed,
            "target_seconds": [st.low, st.high], "max_plies": MAX_PLIES,
            "positions": st.positions}, "results": results}, indent=1))
    else:
        print(table(results))
        print(f"depth: perft depth (one visiting run ~{st.low:g}-{st.high:g} s); nodes: every node "
              f"to that depth, each made by apply; leaves/s: perft(depth) by "
              f"interpreter.perft; cut: playouts stopped at {MAX_PLIES} plies; "
              f"movegen/s: legal_actions calls on sampled positions")
    return status


if __name__ == "__main__":
    sys.exit(main())
