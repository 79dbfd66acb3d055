"""The runtime protocol: what a back-end provides, and the types every game speaks.

A state is a plain tuple of integers (immutable, hashable, cheap to store): one bitmask
per piece type, the player to move, the phase of the turn, the variables and the
outcome slot (layout.py). An action is a tuple of integers whose first item names the
rule that made it (actions.py). A back-end (interpreter/python, interpreter/native) is a
`Rules` object; `Game` (game.py) is built over one and adds what is the same for all.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Collection, Iterator, Protocol

from interpreter.runtime.actions import ActionFormat

State = tuple[int, ...]
Action = tuple[int, ...]


class PositionError(ValueError):
    """A state's text that does not describe a position of this game."""


class IllegalActionError(ValueError):
    """An action (or its text, or its ids) that names no legal ply in the position."""


@dataclass(frozen=True)
class RuleInfo:
    """What the runtime knows of one compiled rule (for notation, ids and the solver)."""

    code: int  # an action's first item
    name: str  # the ply rule's name, or "pass"
    player: int | None  # whose rule it is (None: the pass, anyone's)
    format: ActionFormat  # the layout of its action tuples
    kinds: int = 1  # how many piece types it moves or places


class Termination(enum.Enum):
    """Why a game is over."""

    END_RULE = "end rule"  # an end rule decided it, after the last ply (or at the setup)
    STUCK = "stuck"  # the player to move has no legal ply, and the rules settle that


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended (`Game.outcome`; None while it goes on)."""

    termination: Termination
    winner: int | None  # the winner's index; None for a draw, or where one player lost
    loser: int | None = None  # with more than two players, `X loses`: the others share the win

    @property
    def is_draw(self) -> bool:
        return self.winner is None and self.loser is None

    def returns(self, n_players: int) -> tuple[float, ...]:
        """Zero-sum: +1 for the winner and -1/(n-1) for each other player; -1 for the
        loser and +1/(n-1) for each other player; 0 each for a draw (two players: +1, -1)."""
        share = 1.0 / (n_players - 1)
        if self.winner is not None:
            return tuple(1.0 if i == self.winner else -share for i in range(n_players))
        if self.loser is not None:
            return tuple(-1.0 if i == self.loser else share for i in range(n_players))
        return (0.0,) * n_players

    def describe(self, players: list[str], plural: Collection[int] = ()) -> str:
        """`White wins`, `Red loses` or `draw`, in the players' names; `Musketeers win` for
        the players in `plural` (Notation.result: as the rules write it)."""
        if self.winner is not None:
            return f"{players[self.winner]} {'win' if self.winner in plural else 'wins'}"
        if self.loser is None:
            return "draw"
        return f"{players[self.loser]} {'lose' if self.loser in plural else 'loses'}"


def outcome_of(code: int, n_players: int, termination: Termination) -> Outcome | None:
    """A back-end's result code typed: -1 going on, the winner's index, n_players a draw,
    n_players + 1 + X player X lost (more than two players)."""
    if code < 0:
        return None
    if code > n_players:
        return Outcome(termination, None, code - n_players - 1)
    return Outcome(termination, None if code == n_players else code)


def loses_code(player: int, n_players: int) -> int:
    """The result code of `player loses`: the other player wins, in a two-player game."""
    return 1 - player if n_players == 2 else n_players + 1 + player


class Rules(Protocol):
    """One back-end's rules of one game: the plies of a state, apply, the result."""

    name: str  # "python" or "native"

    def legal(self, state: State) -> list[Action]:
        """Every legal ply, each once, in the fixed order (rule by rule, cell by cell): a
        fresh list the caller may keep."""

    def iter_legal(self, state: State) -> Iterator[Action]:
        """The same plies in the same order, for callers that may stop early."""

    def apply(self, state: State, action: Action) -> State:
        """The state after a ply the caller knows is legal in `state`."""

    def result(self, state: State) -> int:
        """-1 while the game goes on; else the winner's index, the number of players for a
        draw, or that plus 1 + X where player X lost (a stuck player to move is settled here)."""

    def captures(self, state: State, action: Action) -> int:
        """How many of the opponent's pieces `action` takes."""
