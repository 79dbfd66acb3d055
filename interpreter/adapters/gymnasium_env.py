"""Gymnasium environments for rulecraft games, in self-play: `vector_env("tic-tac-toe", 64)`
steps 64 games in one call (in C where the native back-end is built: vector.py), and
`RulecraftEnv` is one game, for `gymnasium.utils.env_checker.check_env`.

Needs the `gymnasium` extra (Gymnasium 1.1 or later, and numpy: `pip install
'rulecraft[gymnasium]'`).

- the agent plays every side: each step's action is the ply of the player to move;
- action space: `Discrete(ActionSpace(game).size)`, the ruleset's fixed action ids; the
  info's `action_mask` (int8) says which are legal (none once a game is over);
- observation: the float32 tensor of `Observer(game, "mover", grid)`, seen by the
  player to move (so a policy always plays "own" pieces);
- reward: the return of the player who made the ply (+1 win, -1 loss, 0 draw or going
  on; zero-sum with more players); the info's `to_move` is who plays next;
- truncation after `max_plies` plies (default: the rules' bound, else 1000);
- an action that is not legal ends its game where it stands, the agent getting
  `illegal_reward` (default -1: every action of the space is accepted, as Gymnasium's
  checker asks); `illegal_reward=None` raises IllegalActionError instead;
- the vector environment resets a finished game at the next step (Gymnasium's
  next-step autoreset: that step's action for it is not read, its reward is 0).
"""

from __future__ import annotations

from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as e:
    raise ImportError(f"the Gymnasium adapter needs gymnasium 1.1 or later and numpy ({e}): "
                      f"pip install 'rulecraft[gymnasium]'") from None

from interpreter import load_game
from interpreter.adapters.vector import VectorGames
from interpreter.runtime.game import Game


def _game(ruleset: str | Game) -> Game:
    return ruleset if isinstance(ruleset, Game) else load_game(ruleset, "auto")


def _spaces(games: VectorGames) -> tuple[spaces.Box, spaces.Discrete]:
    low, high = games.observer.limits()
    return spaces.Box(low, high, dtype=np.float32), spaces.Discrete(games.space.size)


class RulecraftVectorEnv(VectorEnv):
    """`num_envs` games of one ruleset in self-play (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, ruleset: str | Game, num_envs: int, *, grid: bool = False,
                 max_plies: int | None = None, native: bool | None = None,
                 illegal_reward: float | None = -1.0) -> None:
        """`ruleset`: a bundled name, a .game path or a Game; `grid`: observations as
        (planes, rows, columns); `native`: None (C where it can), True or False."""
        self.game = _game(ruleset)
        self.games = VectorGames(self.game, num_envs, grid=grid, max_plies=max_plies, native=native,
                                 illegal_reward=illegal_reward)
        self.num_envs = num_envs
        self.single_observation_space, self.single_action_space = _spaces(self.games)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.games.masks.copy(), "to_move": self.games.to_move}

    def reset(self, *, seed: int | list[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            first = seed[0] if isinstance(seed, list) else seed
            self.action_space.seed(first)
            self.single_action_space.seed(first)
        self.games.reset()
        return self.games.observations.copy(), self._info()

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        movers = self.games.to_move
        self.games.step(actions)
        rewards = self.games.rewards[np.arange(self.num_envs), movers]
        return (self.games.observations.copy(), rewards.astype(np.float32), self.games.terminated.copy(),
                self.games.truncated.copy(), self._info())


def vector_env(ruleset: str | Game = "tic-tac-toe", num_envs: int = 16, **kwargs: Any) -> RulecraftVectorEnv:
    """RulecraftVectorEnv(ruleset, num_envs, grid=, max_plies=, native=, illegal_reward=)."""
    return RulecraftVectorEnv(ruleset, num_envs, **kwargs)


class RulecraftEnv(gymnasium.Env):
    """One game in self-play (the vector environment's single game, without autoreset:
    reset after it ends)."""

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, ruleset: str | Game = "tic-tac-toe", *, grid: bool = False,
                 max_plies: int | None = None, native: bool | None = None,
                 illegal_reward: float | None = -1.0, render_mode: str | None = None) -> None:
        self.game = _game(ruleset)
        self.games = VectorGames(self.game, 1, grid=grid, max_plies=max_plies, native=native,
                                 illegal_reward=illegal_reward)
        self.observation_space, self.action_space = _spaces(self.games)
        self.render_mode = render_mode

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.games.masks[0].copy(), "to_move": int(self.games.to_move[0])}

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self.action_space.seed(seed)
        self.games.reset()
        return self.games.observations[0].copy(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self.games.terminated[0] or self.games.truncated[0]:
            raise RuntimeError("the game is over: call reset()")
        mover = int(self.games.to_move[0])
        self.games.step([action])
        return (self.games.observations[0].copy(), float(self.games.rewards[0, mover]),
                bool(self.games.terminated[0]), bool(self.games.truncated[0]), self._info())

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.game.render(self.games.states()[0])
        return None
