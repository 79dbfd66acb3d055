"""PettingZoo AEC environments for rulecraft games: `env("tic-tac-toe")`.

Needs the `pettingzoo` extra (`pip install 'rulecraft[pettingzoo]'`). One environment
plays one ruleset, in the manner of PettingZoo's classic environments:

- agents: the game's player names (`"X"`, `"O"`), distinct identifiers by the language's
  rules, or with `agent_names="player_N"` PettingZoo's `player_0`, `player_1`, ...; the
  player to move is selected, so a turn of several plies keeps its agent;
- action space: `Discrete(ActionSpace(game).size)`, the ruleset's fixed action ids
  (action_ids.py). A chained ply takes one id per hop; its agent stays selected from
  hop to hop, and the rules apply the ply when its last hop is made;
- observation: `{"observation": float32 tensor of Observer(game, perspective, grid),
  seen by the observing agent, "action_mask": int8, 1 for each id the selected agent
  may make next}` (all zeros for the other agent, and once the game is over);
- rewards: `game.returns` at the end (+1 win, -1 loss, 0 draw), 0 before;
- speed: with a Game loaded with the native back-end (`load_game(name, "auto")`), the
  game's C makes the plies (and a chain's hops) and writes the masks and the mover's
  tensors (vector.py, one game); elsewhere, Python;
- truncation: after `max_steps` steps (ids, so each hop counts) every agent is
  truncated, with rewards 0; by default the ruleset's own bound where its rules set one
  (dsl/bounds.py: tic-tac-toe's 9), else 1000;
- an illegal id raises IllegalActionError naming it and how many ids are legal; with
  `illegal_reward=R` (the classic environments' choice, R = -1) it ends the game
  instead: the agent that made it gets R, the others 0, and its info says
  `illegal_move`.

`reset(seed=...)` seeds the agents' spaces, so `action_space(agent).sample(mask)` is
reproducible; the rules themselves have no chance.
"""

from __future__ import annotations

import re
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from gymnasium.utils import EzPickle
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:
    raise ImportError(f"the PettingZoo adapter needs pettingzoo, gymnasium and numpy ({e}): "
                      f"pip install 'rulecraft[pettingzoo]'") from None

from interpreter import load_game
from interpreter.adapters import game_length
from interpreter.adapters.vector import VectorGames, steps_in_c
from interpreter.runtime.action_ids import ActionSpace
from interpreter.runtime.game import Game, IllegalActionError
from interpreter.runtime.observation import Observer



def env(ruleset: str | Game = "tic-tac-toe", max_steps: int | None = None, perspective: str = "mover",
        grid: bool = True, render_mode: str | None = None, agent_names: str = "players",
        illegal_reward: float | None = None) -> AECEnv:
    """A wrapped environment (raw_env's arguments): out-of-range ids and calls out of order
    fail as in PettingZoo's classic environments; illegal ids raise, or end the game with
    `illegal_reward` (see the module)."""
    wrapped = raw_env(ruleset, max_steps, perspective, grid, render_mode, agent_names, illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv, EzPickle):  # noqa: N801 - PettingZoo's name for the unwrapped class
    """One rulecraft game as an AEC environment (see the module docstring)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "rulecraft_v0",
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, ruleset: str | Game = "tic-tac-toe", max_steps: int | None = None,
                 perspective: str = "mover", grid: bool = True, render_mode: str | None = None,
                 agent_names: str = "players", illegal_reward: float | None = None):
        """`ruleset`: a bundled name, a .game path or a Game; `max_steps`: steps before
        truncation (None: the ruleset's own bound where its rules set one, else 1000); `perspective`, `grid`: the Observer's; `render_mode`: "ansi" (render
        returns the board's text), "human" (prints it after each step) or None;
        `agent_names`: "players" (the game's) or "player_N"; `illegal_reward`: None (an
        illegal id raises) or the reward of an illegal id, which then ends the game."""
        EzPickle.__init__(self, ruleset, max_steps, perspective, grid, render_mode, agent_names,
                          illegal_reward)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"unknown render_mode {render_mode!r} (known: human, ansi)")
        if max_steps is not None and max_steps < 1:
            raise ValueError(f"max_steps must be at least 1, not {max_steps}")
        if agent_names not in ("players", "player_N"):
            raise ValueError(f"agent_names is 'players' or 'player_N', not {agent_names!r}")
        self.illegal_reward = None if illegal_reward is None else float(illegal_reward)
        self.game = load_game(ruleset) if isinstance(ruleset, str) else ruleset
        if max_steps is None:
            max_steps = game_length(self.game.ruleset)
        self.ids = ActionSpace(self.game)
        self.observer = Observer(self.game, perspective, grid)
        self.max_steps, self.render_mode = max_steps, render_mode
        # str(env) is the metadata's name: make it say which game is played
        slug = re.sub(r"[^a-z0-9]+", "_", self.game.title.lower()).strip("_")
        self.metadata = {**raw_env.metadata, "name": f"rulecraft_{slug}_v0"}
        self.possible_agents = list(self.game.players) if agent_names == "players" else \
            [f"player_{i}" for i in range(len(self.game.players))]
        low, high = self.observer.limits()
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low, high, self.observer.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (self.ids.size,), np.int8)}) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.ids.size) for a in self.possible_agents}
        # The game's C steps it, and writes the masks and the mover's tensors, where the
        # native back-end and its batches' library are built (a Game loaded with "auto").
        self._vec = VectorGames(self.game, 1, perspective=perspective, grid=grid, max_plies=0, native=True) \
            if steps_in_c(self.game) else None
        self._state: tuple[int, ...] | None = self.game.initial_state()  # None: in the C's arrays
        self.prefix: tuple[int, ...] = ()  # the ids of a chain begun
        self.steps = 0

    @property
    def game_state(self) -> tuple[int, ...]:
        """The position, as the Game's state."""
        if self._state is None:
            self._state = self._vec.states()[0]
        return self._state

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """The game's initial position; `seed` seeds the agents' spaces (see the module)."""
        if seed is not None:
            for i, a in enumerate(self.possible_agents):
                self.action_spaces[a].seed(seed + i)
                self.observation_spaces[a].seed(seed + i)
        self._state, self.prefix, self.steps = self.game.initial_state(), (), 0
        if self._vec is not None:
            self._vec.reset()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._settle()
        self._accumulate_rewards()  # a ruleset may be over from the start
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The position seen by `agent`, and the ids it may make next (none unless selected)."""
        player = self.possible_agents.index(agent)
        live = agent == self.agent_selection and self._live(agent)
        v = self._vec
        if v is not None:  # the C's, for the player to move (or every player: absolute)
            mine = self.observer.perspective == "absolute" or player == int(v.to_move[0])
            tensor = v.observations[0].copy() if mine else \
                self.observer.tensor(self.game_state, player, self.ids.route(self.prefix))
            mask = v.masks[0].copy() if live else np.zeros(self.ids.size, dtype=np.int8)
            return {"observation": tensor, "action_mask": mask}
        tensor = self.observer.tensor(self.game_state, player, self.ids.route(self.prefix))
        mask = np.zeros(self.ids.size, dtype=np.int8)
        if live:
            mask[self.ids.legal_ids(self.game_state, self.prefix)] = 1
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Make one id for the selected agent (None once it is terminated or truncated)."""
        agent = self.agent_selection
        if not self._live(agent):
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} is to move: step() needs an action id, not None")
        action = int(action)
        v = self._vec
        if v is not None:
            legal = int(v.masks[0].sum())
            ok = 0 <= action < self.ids.size and v.masks[0, action]
        else:
            ids = self.ids.legal_ids(self.game_state, self.prefix)
            legal, ok = len(ids), action in ids
        if not ok:
            if self.illegal_reward is None:
                raise IllegalActionError(self._illegal(agent, action, legal))
            self._end_illegal(agent, action, legal)
            return
        if v is not None:
            v.step([action])
            self._state = None
            if self.ids.hops:
                self.prefix = v.prefixes()[0]
        else:
            self._state, self.prefix = self.ids.apply_id(self.game_state, self.prefix, action)
        self.steps += 1
        # The AEC convention: an agent's cumulative reward restarts when it acts, and each
        # step's rewards are that step's only.
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_illegal(self, agent: str, action: int, legal: int) -> None:
        """An illegal id with `illegal_reward`: the game ends, the agent penalised."""
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        self.rewards[agent] = self.illegal_reward
        self.terminations = dict.fromkeys(self.agents, True)
        self.infos[agent] = {"illegal_move": self._illegal(agent, action, legal)}
        self._accumulate_rewards()

    def _settle(self) -> None:
        """Select the player to move; end the game, or truncate it, when it is time."""
        # The state says who moves: a turn of several plies, or a chain's hops, keeps its agent.
        if self._state is None:  # after a ply in C: its arrays say it
            mover, over, returns = int(self._vec.to_move[0]), bool(self._vec.terminated[0]), self._vec.rewards[0]
        else:
            state = self._state
            mover, over = self.game.to_move(state), not self.prefix and self.game.is_terminal(state)
            returns = self.game.returns(state) if over else ()
        self.agent_selection = self.possible_agents[mover]
        if over:
            for a, r in zip(self.possible_agents, returns):
                self.rewards[a] = float(r)
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)

    def _live(self, agent: str) -> bool:
        """Whether `agent` is in the game, neither terminated nor truncated."""
        return agent in self.agents and not (self.terminations[agent] or self.truncations[agent])

    def _illegal(self, agent: str, action: int, legal: int) -> str:
        if not 0 <= action < self.ids.size:
            what = f"is out of range 0..{self.ids.size - 1}"
        else:
            what = f"({self.ids.id_text(action)}) is not legal here"
        return (f"{agent}: action id {action} {what} ({legal} legal id{'' if legal == 1 else 's'}: "
                f"see observe(agent)['action_mask'])")

    def render(self) -> str | None:
        """The board's text with who is to move or the result, and a chain begun: returned
        ("ansi") or printed ("human"); None, with a warning, without a render mode."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        text = self.game.render(self.game_state)
        if self.prefix:
            text += "\nchain begun: " + ", ".join(self.ids.id_text(i) for i in self.prefix)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no window or process."""
