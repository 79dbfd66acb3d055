"""Adapters to game-AI frameworks, each an optional extra: `openspiel` (pyspiel games) and
`pettingzoo` (AEC environments). Both present plies by their fixed action ids
(action_ids.py) and positions by their observation tensors (observation.py)."""
