"""Search and solving from Python: solve, analyse, save and load, alpha-beta, MCTS, df-pn.

Run from the repository (after `pip install -e .`):

    python examples/search_api.py
"""

from __future__ import annotations

import os
import tempfile

from rulecraft import load_game
from interpreter.search.agents import make_agent
from interpreter.search.alphabeta import AlphaBeta
from interpreter.search.mcts import MCTS
from interpreter.search.proof import ProofSearch
from interpreter.search.solver import Solution, solve


def main() -> None:
    game = load_game("tic-tac-toe")
    start = game.initial_state()

    # 1. Exact solution of every position reachable from the start (with symmetry: one
    #    position per class of board symmetries; the values are the same).
    sol = solve(game, symmetry=True)
    print("tic-tac-toe:", sol.lookup(start), f"({len(sol)} positions stored)")

    # 2. Every legal ply of a position, valued for the player making it.
    pos = game.state_from_text("X.O/.O./X.X O")
    print(game.render(pos))
    for ply in sol.analyze(pos):
        print(f"  {ply.text}: {ply.value} in {ply.remoteness}")
    print("  best:", [game.action_to_text(pos, a) for a in sol.best_actions(pos)])

    # 3. Save, load (a documented binary format, no pickle), look up again.
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "tic-tac-toe.sol")
        sol.save(path)
        again = Solution.load(path, game)
        assert again.lookup(pos) == sol.lookup(pos)
        print("saved and loaded:", os.path.getsize(path), "bytes")

    # 4. Alpha-beta to a depth (or a time limit): a proven result carries its remoteness.
    result = AlphaBeta(game).search(pos, depth=9)
    print("alpha-beta:", result.value, result.remoteness,
          [game.action_to_text(pos, a) for a in result.best], f"{result.nodes} nodes")

    # 5. MCTS with a seed, and a proof-number search for one player's forced win.
    mcts = MCTS(game, iterations=500, seed=1)
    print("MCTS picks:", game.action_to_text(pos, mcts.choose(pos)))
    print("X can force a win from the start:", ProofSearch(game, 0).prove(start).proven)

    # 6. Agents by spec, as `rulecraft play --players` takes them.
    agents = [make_agent("perfect", game, seed=0), make_agent("mcts:200", game, seed=0)]
    s = start
    while not game.is_terminal(s):
        s = game.apply_unchecked(s, agents[game.to_move(s)](s))
    print(game.render(s))

    # 7. A loopy game with two-ply turns: 3-Spot, solved from its start in a few seconds.
    spot = load_game("3-spot")
    spot_sol = solve(spot, progress=True)
    print("3-Spot:", spot_sol.lookup(spot.initial_state()), spot_sol.counts())


if __name__ == "__main__":
    main()
