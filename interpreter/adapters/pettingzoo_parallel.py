"""A PettingZoo parallel environment for rulecraft games: `parallel_env("tic-tac-toe")`.

Needs the `pettingzoo` extra. One game, every live agent acting at each step, as
PettingZoo's parallel API has it; the games are turn-based, so only the action of the
agent to move is read, and the others' masks are all zeros. The game runs as the
vectorised games do (vector.py: in C where the native back-end is built), one of them.

- agents: the players' names, or with `agent_names="player_N"` `player_0`, `player_1`...;
- action space: `Discrete(ActionSpace(game).size)`;
- observation: `{"observation": float32 tensor of Observer(game, "absolute", grid), the
  same for every agent (its "to move" planes say whose turn it is), "action_mask": int8}`;
- rewards: each player's return when the game ends, else 0; then every agent is
  terminated (or, after `max_plies` plies, truncated) and `agents` is empty.
"""

from __future__ import annotations

import functools
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import ParallelEnv
except ImportError as e:
    raise ImportError(f"the PettingZoo adapter needs pettingzoo, gymnasium and numpy ({e}): "
                      f"pip install 'rulecraft[pettingzoo]'") from None

from interpreter import load_game
from interpreter.adapters.vector import VectorGames
from interpreter.runtime.game import Game


class RulecraftParallelEnv(ParallelEnv):
    """One rulecraft game as a parallel environment (see the module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "rulecraft_parallel_v0"}

    def __init__(self, ruleset: str | Game = "tic-tac-toe", *, grid: bool = True,
                 max_plies: int | None = None, agent_names: str = "players",
                 native: bool | None = None, render_mode: str | None = None) -> None:
        if agent_names not in ("players", "player_N"):
            raise ValueError(f"agent_names must be 'players' or 'player_N', found {agent_names!r}")
        self.game = ruleset if isinstance(ruleset, Game) else load_game(ruleset, "auto")
        self.games = VectorGames(self.game, 1, perspective="absolute", grid=grid, max_plies=max_plies,
                                 native=native)
        self.possible_agents = list(self.game.players) if agent_names == "players" else \
            [f"player_{i}" for i in range(len(self.game.players))]
        self.agents: list[str] = []
        self.render_mode = render_mode
        low, high = self.games.observer.limits()
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.games.space.size,), dtype=np.int8)})
        self._action_spaces = {a: spaces.Discrete(self.games.space.size) for a in self.possible_agents}

    @functools.lru_cache(maxsize=None)
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_spaces[agent]

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        mover = int(self.games.to_move[0])
        tensor = self.games.observations[0]
        none = np.zeros(self.games.space.size, np.int8)
        return {a: {"observation": tensor.copy(),
                    "action_mask": self.games.masks[0].copy() if i == mover and a in self.agents else none}
                for i, a in enumerate(self.possible_agents) if a in self.agents}

    def reset(self, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, dict]]:
        if seed is not None:
            for k, space in enumerate(self._action_spaces.values()):
                space.seed(seed + k)
        self.agents = list(self.possible_agents)
        self.games.reset()
        return self._observations(), {a: {} for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        mover = self.possible_agents[int(self.games.to_move[0])]
        if mover not in actions:
            raise ValueError(f"no action for {mover}, the agent to move")
        self.games.step([int(actions[mover])])
        over = bool(self.games.terminated[0] or self.games.truncated[0])
        live = list(self.agents)
        observations = self._observations()
        rewards = {a: float(self.games.rewards[0, i]) for i, a in enumerate(self.possible_agents) if a in live}
        terminated = {a: bool(self.games.terminated[0]) for a in live}
        truncated = {a: bool(self.games.truncated[0]) for a in live}
        infos = {a: {} for a in live}
        if over:
            self.agents = []
        return observations, rewards, terminated, truncated, infos

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.game.render(self.games.states()[0])
        return None


def parallel_env(ruleset: str | Game = "tic-tac-toe", **kwargs: Any) -> RulecraftParallelEnv:
    """RulecraftParallelEnv(ruleset, grid=, max_plies=, agent_names=, native=, render_mode=)."""
    return RulecraftParallelEnv(ruleset, **kwargs)
