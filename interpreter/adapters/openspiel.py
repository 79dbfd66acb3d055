"""OpenSpiel games for rulecraft rulesets: `pyspiel.load_game("rulecraft", {"ruleset": ...})`.

Needs the `openspiel` extra (`pip install 'rulecraft[openspiel]'`). Importing this module
registers one Python game with OpenSpiel, short name `"rulecraft"`, whose parameters are

- `ruleset` (string, default "tic-tac-toe"): a bundled name or a .game path, loaded and
  compiled once a process;
- `max_game_length` (int, default 0): the most steps (action ids applied) a game lasts;
  0 means the ruleset's own bound where its rules set one (dsl/bounds.py: a placement
  game's empty cells, tic-tac-toe's 9), else 1000. A game still going after that many is
  over: `is_terminal()` is true and the returns are 0 for every player, as for a draw
  (OpenSpiel has no separate truncation; the state's `truncated()` tells the two apart);
- `grid` (bool, default false): observations shaped (planes, rows, columns) instead of
  (planes, cells), for convolutional networks (Observer's `grid=True`);
- `backend` (string, default "auto"): the back-end a ruleset named by `ruleset` is loaded
  with (a Game given to `load` keeps its own). Where the native back-end is built, a
  state's position is its C array and the ids, plies (a chain's hops too) and the mover's
  observation come from the game's C (vector.OneGame).

`load(ruleset_or_game, max_game_length, grid)` gives the same for a name or for a `Game` already
loaded (say from text): such a game's `ruleset` parameter is a key standing for the object,
`<its file name>#<n>`, valid in this process only.

The game is sequential, deterministic, of perfect information, zero-sum (with more than
two players too: Game.returns), with rewards at the end (+1 win, -1 loss, 0 draw):

- actions: the ruleset's fixed action ids (action_ids.py), `ActionSpace(game).size` of
  them. A chained ply takes one id per hop: its player stays to move from hop to hop and
  the rules apply the ply with its last hop (a one-line notice on stderr says so when such
  a ruleset is loaded). An id that goes on with no legal ply raises IllegalActionError
  naming it, as does any id once the game is over;
- a state holds plain fields, which OpenSpiel copies to clone it and pickles to
  serialize it (`serialize()`, `game.deserialize_state`, pickle): the position, `prefix`
  (the ids of a chain begun) and `steps`; its `position` property is the rulecraft state;
  the game's `rules` holds the rulecraft Game, its ActionSpace and its Observer;
- action strings: the ply's notation (`a1-b1`) for an id that completes a legal ply, else
  what the id names (`whistle stone e5-e7`, `pass`);
- observation: the tensor of `Observer(game, "mover")`, shape (planes, cells), seen by the
  player observing; its string is the position's text (`state_to_text`) and a chain begun.
  The information state string is the history of ids (OpenSpiel's observer for perfect-
  information games).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.observation import IIGObserverForPublicInfoGame
except ImportError as e:
    raise ImportError(f"the OpenSpiel adapter needs open_spiel and numpy ({e}): "
                      f"pip install 'rulecraft[openspiel]'") from None

from dsl.check_board import MAX_PLAYERS

from interpreter import load_game
from interpreter.adapters import game_length
from interpreter.adapters.vector import OneGame, steps_in_c
from interpreter.runtime.action_ids import ActionSpace
from interpreter.runtime.game import Game, IllegalActionError
from interpreter.runtime.observation import Observer

GAME_NAME = "rulecraft"
_DEFAULTS = {"ruleset": "tic-tac-toe", "max_game_length": 0, "grid": False, "backend": "auto"}
_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="rulecraft ruleset",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS)


@dataclass(frozen=True)
class Rules:
    """What a pyspiel game plays: the compiled game, its action ids and its observer; its
    C steppers by `grid` (OneGame), where the native back-end is built."""

    game: Game
    space: ActionSpace
    observer: Observer
    engines: dict[bool, OneGame] = field(default_factory=dict)

    def engine(self, grid: bool) -> OneGame | None:
        if grid in self.engines:  # (asked for every state: the question below once)
            return self.engines[grid]
        if not steps_in_c(self.game):
            return None
        self.engines[grid] = OneGame(self.game, grid)
        return self.engines[grid]


# Rulesets by the `ruleset` parameter: a name or path is compiled once, since OpenSpiel
# builds the game again from its string each time it deserializes a state; Game objects
# given to load() are found here by their keys.
_LOADED: dict[str, Rules] = {}


def _rules(ruleset: str, backend: str) -> Rules:
    """The rules a `ruleset` parameter names (with `backend`), compiled on first use; a
    Game object's key names its rules whatever the back-end."""
    rules = _LOADED.get(ruleset) or _LOADED.get(f"{ruleset}\0{backend}")
    if rules is None:
        rules = _LOADED[f"{ruleset}\0{backend}"] = _prepare(load_game(ruleset, backend))
    return rules


def _prepare(game: Game) -> Rules:
    space = ActionSpace(game)
    notice = space.notice()
    if notice:  # said once a ruleset parameter: each is prepared once a process
        print(f"rulecraft: {notice}", file=sys.stderr)
    return Rules(game, space, Observer(game, "mover"))


def _key(game: Game) -> str:
    """The `ruleset` parameter standing for a Game object (the same for the same object)."""
    for key, rules in _LOADED.items():
        if rules.game is game:
            return key
    # '#' keeps the key apart from any name or path a user would pass
    key = f"{Path(game.ruleset.path).name}#{len(_LOADED) + 1}"
    _LOADED[key] = _prepare(game)
    return key


def load(ruleset: str | Game = "tic-tac-toe", max_game_length: int = 0, grid: bool = False) -> pyspiel.Game:
    """The pyspiel game of a bundled name, a .game path or a loaded Game; it ends, drawn,
    after `max_game_length` action ids (0: the ruleset's own bound, else 1000); `grid`:
    observations as (planes, rows, columns) (see the module)."""
    name = ruleset if isinstance(ruleset, str) else _key(ruleset)
    return pyspiel.load_game(GAME_NAME, {"ruleset": name, "max_game_length": max_game_length, "grid": grid})


def register() -> None:
    """Register the game "rulecraft" with OpenSpiel (done at import; registering again
    replaces the entry with the same one)."""
    pyspiel.register_game(_GAME_TYPE, RulecraftGame)


class RulecraftGame(pyspiel.Game):
    """A rulecraft ruleset as a pyspiel game (see the module for its parameters)."""

    def __init__(self, params: dict[str, Any] | None = None):
        params = {**_DEFAULTS, **(params or {})}
        length = params["max_game_length"]
        if length < 0:
            raise ValueError(f"max_game_length must be at least 1 (or 0: the ruleset's own "
                             f"bound), not {length}")
        if params["backend"] not in ("auto", "python", "native"):
            raise ValueError(f"backend must be auto, python or native, not {params['backend']!r}")
        rules = _rules(params["ruleset"], params["backend"])
        if length == 0:
            length = game_length(rules.game.ruleset)
        info = pyspiel.GameInfo(
            num_distinct_actions=rules.space.size,
            max_chance_outcomes=0,
            num_players=len(rules.game.players),
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=length)
        super().__init__(_GAME_TYPE, info, params)
        self.rules = rules
        # grid: the planes as (planes, rows, columns), for convolutional networks
        self.observer = Observer(rules.game, "mover", grid=True) if params["grid"] else rules.observer
        self.engine = rules.engine(params["grid"])

    def new_initial_state(self) -> RulecraftState:
        """The ruleset's initial position."""
        return RulecraftState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, Any] | None = None) -> Any:
        """The position's observer; for perfect recall, OpenSpiel's (the history)."""
        if isinstance(iig_obs_type, dict):  # pyspiel's make_observer(params) passes params alone
            iig_obs_type, params = None, iig_obs_type
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return PositionObserver(self.rules, self.observer, params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class RulecraftState(pyspiel.State):
    """A position, and the hops of a chain begun in it (see the module)."""

    def __init__(self, game: RulecraftGame):
        super().__init__(game)
        # Only plain values here: OpenSpiel deep-copies and pickles this object's fields.
        # With the game's C (game.engine), the position is `flat`, the bytes of its C
        # array, and the Game's state is made from it when asked; else `_position` holds
        # that state.
        engine, rules = game.engine, game.rules.game
        start = rules.initial_state()
        self.flat = engine.initial() if engine is not None else None
        self._position = None if engine is not None else start
        self._over = rules.is_terminal(start)
        self._mover = rules.to_move(start)  # (OpenSpiel asks often)
        self.prefix: tuple[int, ...] = ()
        self.steps = 0
        self._limit = game.max_game_length()

    @property
    def rules(self) -> Rules:
        """The rules of the game this state belongs to (kept on the game, not copied)."""
        return self.get_game().rules

    @property
    def position(self) -> tuple[int, ...]:
        """The position, as the Game's state."""
        if self._position is None:
            self._position = self.get_game().engine.state(self.flat)
        return self._position

    def current_player(self) -> int:
        """The player to move (the same from hop to hop of a chain), or TERMINAL."""
        return pyspiel.PlayerId.TERMINAL if self.is_terminal() else self._mover

    def _legal_actions(self, player: int) -> list[int]:
        # OpenSpiel asks only for the player to move in a state going on
        if self.flat is not None:
            return self.get_game().engine.legal(self.flat, self.prefix)
        return self.rules.space.legal_ids(self.position, self.prefix)

    def _apply_action(self, action: int) -> None:
        # OpenSpiel applies without asking whether the game is over: a truncated game's
        # position still has legal plies, so refuse here; apply_id refuses illegal ids.
        if self._out_of_steps():
            raise IllegalActionError(f"action id {action}: the game is over (it reached "
                                     f"max_game_length, {self.steps} steps)")
        if self.flat is not None:
            engine = self.get_game().engine
            flat, self.prefix, self._over = engine.apply(self.flat, self.prefix, int(action))
            if not self.prefix:  # a ply made (else the same position, a chain begun)
                self.flat, self._position, self._mover = flat, None, engine.to_move(flat)
        else:
            rules = self.rules
            self._position, self.prefix = rules.space.apply_id(self.position, self.prefix, int(action))
            self._over = not self.prefix and rules.game.is_terminal(self._position)
            self._mover = rules.game.to_move(self._position)
        self.steps += 1

    def _action_to_string(self, player: int, action: int) -> str:
        """The ply's notation when `action` completes a legal ply, else what the id names."""
        try:
            ply = self.rules.space.decode(self.position, self.prefix + (action,))
        except IllegalActionError:
            ply = None
        if ply is None:
            return self.rules.space.id_text(action)
        return self.rules.game.action_to_text(self.position, ply)

    def _out_of_steps(self) -> bool:
        return self.steps >= self._limit

    def truncated(self) -> bool:
        """Whether the game ended by reaching max_game_length rather than by its rules."""
        return self._out_of_steps() and not self._over

    def is_terminal(self) -> bool:
        """Whether the rules ended the game or it reached max_game_length."""
        return self._over or self._out_of_steps()

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the loser, 0 each for a draw, a truncated game or
        one going on."""
        # The rules' returns are 0 for a game going on, so also for a truncated one.
        return list(self.rules.game.returns(self.position))

    def chain_text(self) -> str:
        """The hops of a chain begun, as a line to append (empty when none is)."""
        if not self.prefix:
            return ""
        return "\nchain begun: " + ", ".join(self.rules.space.id_text(i) for i in self.prefix)

    def __str__(self) -> str:
        text = self.rules.game.render(self.position) + self.chain_text()
        if self.truncated():
            text += f"\nended after {self.steps} steps (max_game_length): a draw"
        return text


class PositionObserver:
    """The observation tensor and string of a state (OpenSpiel's PyObserver interface)."""

    def __init__(self, rules: Rules, observer: Observer, params: dict[str, Any] | None):
        if params:
            raise ValueError(f"rulecraft observations take no parameters; given {params}")
        self._rules, self._observer = rules, observer
        shape = observer.shape
        # OpenSpiel reads the flat `tensor`; `dict` views the same memory by name and shape.
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: RulecraftState, player: int) -> None:
        """Fill the tensor with `state` seen by `player`."""
        engine = state.get_game().engine
        if state.flat is not None and self._observer.grid == engine.grid and \
                player == state.current_player():  # the C's: the mover's view
            self.dict["observation"][...] = engine.observe(state.flat, state.prefix)
            return
        route = self._rules.space.route(state.prefix)
        self.dict["observation"][...] = self._observer.tensor(state.position, player, route)

    def string_from(self, state: RulecraftState, player: int) -> str:
        """The position's text and a chain begun (the same for every player)."""
        return self._rules.game.state_to_text(state.position) + state.chain_text()


register()
