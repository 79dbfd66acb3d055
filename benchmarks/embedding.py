#!/usr/bin/env python3
"""Random playouts through each embedding layer against the bare API, in one run.

    python benchmarks/embedding.py [--games FACTOR] [--seed S] [--only NAME ...] [--json]

(about a minute; a ruleset's games, times FACTOR: tic-tac-toe 1000, Three Musketeers
100, 3-A-Side 30, Whistling Captures 4.) Needs the `openspiel` and `pettingzoo` extras; a layer whose package
is missing is skipped with a message.

Every layer plays the same kind of game: a uniformly random legal move, seeded, until the
game ends or 300 steps. A step is one action: a ply for the bare API, an action id for
the others (the same thing except for chained plies, a hop each). Figures are steps per
CPU second (`time.process_time`), the least CPU time of 3 runs.

1. bare: `game.legal_actions` and `game.apply_unchecked` (what search uses);
2. checked: `game.legal_actions` and `game.apply` (checks legality: the default);
3. ids: `ActionSpace.legal_ids` and `apply_id`;
4. openspiel: `state.legal_actions()` and `state.apply_action()` on the adapter's game;
5. openspiel C: the same on a Game loaded with the native back-end, whose C makes the
   ids and plies (a chain's hops too);
6. pettingzoo: `env.last()`, the mask's ids, `env.step()` (an observation tensor a step);
7. pettingzoo C: the same on a Game loaded with the native back-end, whose C makes the
   plies (and hops), masks and tensors;
8. vector C: VectorGames, 64 games a batch in C, masks and tensors every step, random
   legal ids drawn by `random_ids`, until as many games have ended.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import time
from typing import Any, Callable

from interpreter import load_game
from interpreter.runtime.action_ids import ActionSpace

RULESETS = {"tic-tac-toe": 1000, "three-musketeers": 100, "3-a-side": 30, "whistling-captures": 4}  # games
MAX_STEPS = 300

# Loading and compiling happen once, outside the timings.
_game = functools.cache(load_game)
_space = functools.cache(lambda name: ActionSpace(_game(name)))
_native_game = functools.cache(lambda name: load_game(name, "auto"))


def bare(name: str, games: int, seed: int, checked: bool = False) -> int:
    game, rng, steps = _game(name), random.Random(seed), 0
    apply = game.apply if checked else game.apply_unchecked
    for _ in range(games):
        s = game.initial_state()
        for _ in range(MAX_STEPS):
            actions = game.legal_actions(s)
            if not actions:
                break
            s = apply(s, rng.choice(actions))
            steps += 1
    return steps


def ids(name: str, games: int, seed: int) -> int:
    game, space, rng, steps = _game(name), _space(name), random.Random(seed), 0
    for _ in range(games):
        s, prefix = game.initial_state(), ()
        for _ in range(MAX_STEPS):
            legal = space.legal_ids(s, prefix)
            if not legal:
                break
            s, prefix = space.apply_id(s, prefix, rng.choice(legal))
            steps += 1
    return steps


def openspiel(name: str, games: int, seed: int, native: bool = False) -> int:
    from interpreter.adapters.openspiel import load
    game = load(_native_game(name) if native else _game(name), max_game_length=MAX_STEPS)
    rng, steps = random.Random(seed), 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return steps


def pettingzoo(name: str, games: int, seed: int, native: bool = False) -> int:
    import numpy as np

    from interpreter.adapters.pettingzoo import env as make_env
    game = _native_game(name) if native else _game(name)
    env, rng, steps = make_env(game, max_steps=MAX_STEPS), random.Random(seed), 0
    for g in range(games):
        env.reset(seed=seed + g)
        for agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps


def vector(name: str, games: int, seed: int) -> int:
    import numpy as np

    from interpreter.adapters.vector import VectorGames
    v = VectorGames(_native_game(name), 64, max_plies=MAX_STEPS)
    rng, steps, done = np.random.default_rng(seed), 0, 0
    v.reset()
    while done < games:
        live = ~(v.terminated | v.truncated)
        v.step(v.random_ids(int(rng.integers(1 << 62))))
        steps += int(live.sum())
        done += int((v.terminated | v.truncated).sum())
    return steps


LAYERS: dict[str, Callable[[str, int, int], int]] = {
    "bare": bare, "checked": lambda n, g, s: bare(n, g, s, checked=True), "ids": ids,
    "openspiel": openspiel, "openspiel C": lambda n, g, s: openspiel(n, g, s, native=True),
    "pettingzoo": pettingzoo,
    "pettingzoo C": lambda n, g, s: pettingzoo(n, g, s, native=True), "vector C": vector}


def measure(fn: Callable[[str, int, int], int], name: str, games: int, seed: int) -> dict[str, Any]:
    fn(name, 1, seed)  # compile and warm up outside the timing
    best, steps = float("inf"), 0
    for _ in range(3):
        t0 = time.process_time()
        steps = fn(name, games, seed)
        best = min(best, time.process_time() - t0)
    return {"steps": steps, "cpu": best, "steps_per_cpu_second": steps / best}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=float, default=1.0, help="a factor on each ruleset's games")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", action="append", choices=list(RULESETS), help="this ruleset only (repeatable)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    results: dict[str, dict[str, Any]] = {}
    for name, games in RULESETS.items():
        if args.only and name not in args.only:
            continue
        results[name] = {}
        for layer, fn in LAYERS.items():
            try:
                results[name][layer] = measure(fn, name, max(1, round(games * args.games)), args.seed)
            except ImportError as e:
                results[name][layer] = {"skipped": str(e)}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"{'ruleset':<20}" + "".join(f"{layer:>14}" for layer in LAYERS) + "   (steps per CPU second; x bare)")
    for name, row in results.items():
        base = row["bare"]["steps_per_cpu_second"]
        cells = []
        for layer in LAYERS:
            r = row[layer]
            cells.append("skipped" if "skipped" in r else
                         f"{r['steps_per_cpu_second']:,.0f} {r['steps_per_cpu_second'] / base:.2f}")
        print(f"{name:<20}" + "".join(f"{c:>14}" for c in cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
