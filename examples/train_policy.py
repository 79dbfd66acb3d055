"""Train a small policy on a bundled game with numpy alone, and measure it against random
play: 256 games of tic-tac-toe stepped together (VectorGames, in C where it is built),
the legal-action masks keeping every move legal.

    python examples/train_policy.py [--ruleset tic-tac-toe] [--iterations 300] [--seed 1]

The policy is a one-hidden-layer network over the observation planes (seen by the
player to move), trained by REINFORCE against a random opponent, taking either seat in
turn; the baseline is the mean return of the batch. Before and after training it plays
2,000 games against random play (each seat half the time), and the score (a win 1, a
draw 1/2) is printed. With RULECRAFT_QUICK=1 it trains a few iterations only (the
test suite runs it so).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from interpreter import load_game
from interpreter.adapters.vector import VectorGames


class Policy:
    """obs -> logits: relu(obs W1 + b1) W2 + b2, trained with Adam."""

    def __init__(self, inputs: int, actions: int, hidden: int, rng: np.random.Generator) -> None:
        self.params = [rng.normal(0, 1 / np.sqrt(inputs), (inputs, hidden)), np.zeros(hidden),
                       rng.normal(0, 1 / np.sqrt(hidden), (hidden, actions)), np.zeros(actions)]
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in self.params]
        self.t = 0

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        w1, b1, w2, b2 = self.params
        h = np.maximum(x @ w1 + b1, 0)
        logits = np.where(mask > 0, h @ w2 + b2, -1e9)
        p = np.exp(logits - logits.max(axis=1, keepdims=True))
        return p / p.sum(axis=1, keepdims=True), h

    def learn(self, x: np.ndarray, mask: np.ndarray, actions: np.ndarray, advantage: np.ndarray,
              rate: float = 0.01) -> None:
        p, h = self.probabilities(x, mask)
        g = -p
        g[np.arange(len(actions)), actions] += 1  # d log p(a) / d logits
        g *= advantage[:, None] / len(actions)
        w1, _, w2, _ = self.params
        dh = (g @ w2.T) * (h > 0)
        grads = [x.T @ dh, dh.sum(axis=0), h.T @ g, g.sum(axis=0)]
        self.t += 1
        for param, grad, (m, v) in zip(self.params, grads, self.moments):  # Adam, ascending
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            param += rate * (m / (1 - 0.9 ** self.t)) / (np.sqrt(v / (1 - 0.999 ** self.t)) + 1e-8)


def play(games: VectorGames, policy: Policy, rng: np.random.Generator, greedy: bool = False):
    """One game in each slot, the policy in seat i % players against random play: the
    policy's (observations, masks, actions) of each game, and its return in each."""
    n = games.num_envs
    seats = np.arange(n) % len(games.game.players)
    games.reset()
    trail: list[list[tuple]] = [[] for _ in range(n)]
    returns = np.zeros(n)
    done = np.zeros(n, bool)
    while not done.all():
        obs = games.observations.reshape(n, -1).copy()
        masks = games.masks.astype(np.float64)
        p, _ = policy.probabilities(obs, masks)
        mine = games.to_move == seats
        if greedy:
            chosen = p.argmax(axis=1)
        else:
            chosen = (p.cumsum(axis=1) > rng.random((n, 1))).argmax(axis=1)
        random_ids = (rng.random(masks.shape) * masks).argmax(axis=1)
        ids = np.where(mine, chosen, random_ids)
        for i in np.flatnonzero(mine & ~done):
            trail[i].append((obs[i], masks[i], ids[i]))
        games.step(ids)
        ended = (games.terminated | games.truncated) & ~done
        returns[ended] = games.rewards[ended, seats[ended]]
        done |= ended
    return trail, returns


def score(games: VectorGames, policy: Policy, rng: np.random.Generator, rounds: int) -> float:
    """The policy's mean score against random play (win 1, draw 1/2, loss 0)."""
    results = np.concatenate([play(games, policy, rng, greedy=True)[1] for _ in range(rounds)])
    return float(((results + 1) / 2).mean())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ruleset", default="tic-tac-toe")
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    iterations = 3 if os.environ.get("RULECRAFT_QUICK") else args.iterations
    rng = np.random.default_rng(args.seed)
    games = VectorGames(load_game(args.ruleset, "auto"), 256)
    policy = Policy(int(np.prod(games.observer.shape)), games.space.size, 64, rng)
    before = score(games, policy, rng, 8)
    start = time.process_time()
    for _ in range(iterations):
        trail, returns = play(games, policy, rng)
        steps = [(o, m, a, r) for t, r in zip(trail, returns - returns.mean()) for o, m, a in t]
        obs, masks, actions, advantage = (np.array(c) for c in zip(*steps))
        policy.learn(obs, masks, actions, advantage)
    seconds = time.process_time() - start
    after = score(games, policy, rng, 8)
    print(f"{args.ruleset}: score against random play {before:.3f} before, {after:.3f} after "
          f"{iterations} iterations ({iterations * games.num_envs:,} games, {seconds:.0f} CPU seconds; "
          f"{'C' if games.native else 'Python'} games)")


if __name__ == "__main__":
    main()
