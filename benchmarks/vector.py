#!/usr/bin/env python3
"""Vectorised games against OpenSpiel's own C++ games, in one run: steps per CPU second
with a legal-action mask and an observation tensor every step.

    python benchmarks/vector.py [--envs N] [--steps S] [--json]

(about ten seconds.) Needs numpy; OpenSpiel (`pip install 'rulecraft[openspiel]'`) and pgx
are compared where they are installed, else skipped with a message.

Every side plays uniformly random legal moves on one thread until the step budget is
spent, a finished game starting again:

1. rulecraft vector, C: VectorGames(native=True) over N games; a step of the batch is N
   plies, each with its game's mask and observation written by C; the random legal ids
   are drawn in C too (`VectorGames.random_ids`);
2. rulecraft vector, Python: the same arrays filled a game at a time in Python;
3. OpenSpiel C++: pyspiel's built-in game (tic_tac_toe, connect_four), one state,
   `legal_actions_mask()`, `observation_tensor()` and `apply_action()` a ply, from
   Python, as an agent drives it;
4. rulecraft OpenSpiel adapter: the same loop on `rulecraft(ruleset=..., backend=...)`,
   its ids, plies and tensors from the game's C (`native`) or from Python;
5. pgx (where it installs, with jax on the CPU): its `step` vmapped over N games and
   jitted with the random choice and the restart of finished games, its masks and
   observations computed in the step.

Figures are plies per CPU second (`time.process_time`), the best of 3 runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import time
from typing import Callable

import numpy as np

from dsl.load import library_dir
from interpreter import load_game
from interpreter.adapters.vector import VectorGames

GAMES = {"tic-tac-toe": ("tic-tac-toe", "tic_tac_toe", "tic_tac_toe"),
         "connect-four": (os.path.join(library_dir(), "connect-four.game"), "connect_four", "connect_four")}


def best(run: Callable[[], int], repeats: int = 3) -> float:
    """Plies per CPU second, the best of `repeats` runs."""
    rates = []
    for _ in range(repeats):
        t = time.process_time()
        plies = run()
        rates.append(plies / max(time.process_time() - t, 1e-9))
    return max(rates)


def vector_run(ruleset: str, envs: int, steps: int, native: bool) -> Callable[[], int]:
    v = VectorGames(load_game(ruleset, "auto"), envs, native=native)
    rng = np.random.default_rng(1)

    def run() -> int:
        v.reset()
        plies = 0
        for _ in range(steps):
            live = ~(v.terminated | v.truncated)
            v.step(v.random_ids(int(rng.integers(1 << 62))))
            plies += int(live.sum())
        return plies

    return run


def spiel_run(game, plies: int) -> Callable[[], int]:
    rng = random.Random(1)

    def run() -> int:
        state, done = game.new_initial_state(), 0
        while done < plies:
            if state.is_terminal():
                state = game.new_initial_state()
            state.legal_actions_mask()
            state.observation_tensor()
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
        return done

    return run


def pgx_run(env_id: str, envs: int, steps: int) -> Callable[[], int]:
    import jax
    import pgx

    env = pgx.make(env_id)

    def one(state, action, key):  # a ply, and a finished game started again (same step)
        state = env.step(state, action)
        return jax.lax.cond(state.terminated, lambda: env.init(key), lambda: state)

    step_all = jax.vmap(one)

    @jax.jit
    def play(state, key):
        k1, k2 = jax.random.split(key)
        logits = jax.numpy.where(state.legal_action_mask, 0.0, -1e9)
        return step_all(state, jax.random.categorical(k1, logits, axis=-1), jax.random.split(k2, envs))

    init = jax.jit(jax.vmap(env.init))

    def run() -> int:
        state, key = init(jax.random.split(jax.random.PRNGKey(0), envs)), jax.random.PRNGKey(1)
        for _ in range(steps):
            key, sub = jax.random.split(key)
            state = play(state, sub)
        state.observation.block_until_ready()
        return envs * steps  # every game is live at every step (restarted as it ends)

    run()  # compile outside the timing
    return run


def measure(envs: int, steps: int) -> dict[str, dict[str, float]]:
    spiel = importlib.util.find_spec("pyspiel") is not None
    if spiel:
        import pyspiel

        import interpreter.adapters.openspiel  # noqa: F401 - registers rulecraft (pyflakes: used by name)
    else:
        print("OpenSpiel is not installed: pip install 'rulecraft[openspiel]' to compare with it")
    has_pgx = importlib.util.find_spec("pgx") is not None
    if not has_pgx:
        print("pgx is not installed here (it needs jax): its column is left out")
    out: dict[str, dict[str, float]] = {}
    for name, (ruleset, spiel_id, pgx_id) in GAMES.items():
        row = {"rulecraft vector, C": best(vector_run(ruleset, envs, steps, True)),
               "rulecraft vector, Python": best(vector_run(ruleset, envs, max(1, steps // 20), False))}
        if spiel:
            row["OpenSpiel C++"] = best(spiel_run(pyspiel.load_game(spiel_id), envs * steps // 4))
            for backend, label in (("native", "C"), ("python", "Python")):
                adapter = pyspiel.load_game("rulecraft", {"ruleset": ruleset, "backend": backend})
                row[f"rulecraft OpenSpiel adapter, {label}"] = best(spiel_run(adapter, envs * steps // 40))
        if has_pgx:
            row["pgx (CPU)"] = best(pgx_run(pgx_id, envs, steps))
        out[name] = row
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--envs", type=int, default=256, help="games in a batch (default 256)")
    ap.add_argument("--steps", type=int, default=2000, help="steps of the batch a run (default 2000)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    figures = measure(args.envs, args.steps)
    if args.json:
        print(json.dumps(figures, indent=1))
        return
    columns = list(dict.fromkeys(c for row in figures.values() for c in row))
    print("| game | " + " | ".join(columns) + " |")
    print("| --- |" + " ---: |" * len(columns))
    for name, row in figures.items():
        print(f"| {name} | " + " | ".join(f"{row[c]:,.0f}" if c in row else "-" for c in columns) + " |")
    print(f"\nplies per CPU second with a mask and an observation each ply; {args.envs} games "
          f"a batch; best of 3")


if __name__ == "__main__":
    main()
