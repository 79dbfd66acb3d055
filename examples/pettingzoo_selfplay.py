"""Random self-play through the PettingZoo adapter, collecting training data.

The shape of a training loop: agents pick legal action ids from the observation's mask
(here at random), and each (observation, mask, action) triple is kept in numpy arrays,
as a learner's replay buffer would keep them. Run from the repository (after
`pip install -e '.[pettingzoo]'`):

    python examples/pettingzoo_selfplay.py [--game three-musketeers] [--games 20] [--seed 0]
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np
from pettingzoo import AECEnv

from interpreter.adapters.pettingzoo import env as make_env


def play(env: AECEnv, seed: int, data: list[tuple[np.ndarray, np.ndarray, int]]) -> str:
    """One game, its decisions appended to `data`; its result ("X won", "draw", "truncated")."""
    env.reset(seed=seed)  # seeds the action spaces, so the random play repeats
    result = "draw"
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            if truncated:
                result = "truncated"
            elif reward > 0:
                result = f"{agent} won"
            env.step(None)  # a finished agent leaves the game
            continue
        action = int(env.action_space(agent).sample(obs["action_mask"]))
        data.append((obs["observation"], obs["action_mask"], action))
        env.step(action)
    return result


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="three-musketeers", help="a bundled ruleset or a .game path")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-steps", type=int, default=200)
    args = ap.parse_args(argv)

    env = make_env(args.game, max_steps=args.max_steps)
    data: list[tuple[np.ndarray, np.ndarray, int]] = []
    results = Counter(play(env, args.seed + g, data) for g in range(args.games))
    env.close()

    observations = np.stack([o for o, _, _ in data])
    masks = np.stack([m for _, m, _ in data])
    actions = np.array([a for _, _, a in data], dtype=np.int64)
    # Every action taken was legal in its mask: what a learner's policy must respect too.
    assert masks[np.arange(len(actions)), actions].all()
    print(f"{env.unwrapped.game.title}: collected {len(actions)} (observation, mask, action) "
          f"triples from {args.games} games")
    print(f"  observations {observations.shape} {observations.dtype}, masks {masks.shape} "
          f"{masks.dtype}, actions {actions.shape} {actions.dtype}")
    print("  results: " + ", ".join(f"{r} {n}" for r, n in sorted(results.items())))


if __name__ == "__main__":
    main()
