"""OpenSpiel's MCTS bot against a random bot on rulecraft games, through the OpenSpiel adapter.

Each game is loaded as a pyspiel game (`load(name)`, the same as
`pyspiel.load_game("rulecraft", {"ruleset": name})`); the bots see only OpenSpiel's API:
legal action ids, apply, returns. Run from the repository (after
`pip install -e '.[openspiel]'`):

    python examples/openspiel_mcts.py [--simulations 100] [--seed 0]
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.bots import uniform_random

from interpreter.adapters.openspiel import load

GAMES = ("tic-tac-toe", "three-musketeers")


def play(game: pyspiel.Game, simulations: int, seed: int) -> tuple[list[str], list[float]]:
    """One game, MCTS moving first and a uniform random bot second: the moves and returns."""
    rng = np.random.RandomState(seed)  # seeded, so the run repeats
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator,
                         random_state=rng),
            uniform_random.UniformRandomBot(1, np.random.RandomState(seed + 1))]
    state, moves = game.new_initial_state(), []
    while not state.is_terminal():
        player = state.current_player()
        action = bots[player].step(state)
        moves.append(state.action_to_string(player, action))
        state.apply_action(action)
    return moves, state.returns()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--simulations", type=int, default=100, help="MCTS simulations a move")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    for name in GAMES:
        game = load(name)
        rules = game.rules.game  # the rulecraft Game, for the players' names
        moves, returns = play(game, args.simulations, args.seed)
        print(f"{rules.title}: MCTS ({rules.players[0]}) vs random ({rules.players[1]})")
        print("  moves: " + " ".join(moves))
        winner = [p for p, r in zip(rules.players, returns) if r > 0]
        print(f"  result: {winner[0] + ' wins' if winner else 'draw'} (returns {returns})")


if __name__ == "__main__":
    main()
