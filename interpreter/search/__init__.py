"""Search and exact solving for every compiled game.

- `solve(game)`: every position reachable from the start, retrograde analysis, values and
  remoteness (`Solution`: lookup, analyze, best_actions, save/load);
- `board_symmetries(game)`: the board's symmetries the rules cannot tell apart;
- `AlphaBeta(game).search(state, depth=..., time_limit=...)`: negamax, table, deepening;
- `MCTS(game, iterations=..., seed=...).choose(state)`: UCT with random playouts;
- `ProofSearch(game, player).prove(state)`: df-pn, for a forced win in large finite games;
- `make_agent(spec, game, seed)`: programs that play (random, mcts:N, ...), and
  `make_player(spec, game, seed, stdin, stdout)`: those and `human`, for `rulecraft play`.

See examples/search_api.py and docs/SOLUTIONS.md.
"""

from interpreter.search.agents import QuitGame, make_agent, make_player
from interpreter.search.alphabeta import AlphaBeta, SearchResult
from interpreter.search.mcts import MCTS
from interpreter.search.proof import ProofResult, ProofSearch
from interpreter.search.solver import Solution, SolutionFileError, SolveError, Value, solve
from interpreter.search.symmetry import board_symmetries

__all__ = ["AlphaBeta", "MCTS", "ProofResult", "ProofSearch", "QuitGame", "SearchResult", "Solution",
           "SolutionFileError", "SolveError", "Value", "board_symmetries", "make_agent", "make_player",
           "solve"]
