"""Adapters to game-AI frameworks, each an optional extra: `openspiel` (pyspiel games),
`pettingzoo` (AEC and parallel environments), `gymnasium` (single and vector
environments), over vector.py (batches of games stepped in C). All present plies by their
fixed action ids (action_ids.py) and positions by their observation tensors
(observation.py)."""

from __future__ import annotations

from dsl.bounds import max_plies
from dsl.model import Ruleset

UNBOUNDED_PLIES = 1000  # a game's length where the rules set no bound


def game_length(rs: Ruleset) -> int:
    """How long a game may last in an adapter: the rules' bound on its plies (placement
    games: dsl/bounds.py), else UNBOUNDED_PLIES."""
    return max_plies(rs) or UNBOUNDED_PLIES
