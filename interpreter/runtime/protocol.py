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
from typing import Iterator, Protocol

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
    winner: int | None  # the winner's index; None for a draw

    @property
    def is_draw(self) -> bool:
        return self.winner is None

    def returns(self, n_players: int) -> tuple[float, ...]:
        """+1 for the winner, -1 for each other player, 0 each for a draw."""
        if self.winner is None:
            return (0.0,) * n_players
        return tuple(1.0 if i == self.winner else -1.0 for i in range(n_players))

    def describe(self, players: list[str]) -> str:
        """`White wins` or `draw`, in the players' names."""
        return "draw" if self.winner is None else f"{players[self.winner]} wins"


def outcome_of(code: int, n_players: int, termination: Termination) -> Outcome | None:
    """A back-end's result code (-1 going on, the winner's index, n_players: a draw) typed."""
    if code < 0:
        return None
    return Outcome(termination, None if code == n_players else code)


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
        """-1 while the game goes on; else the winner's index, or the number of players
        for a draw (a stuck player to move is settled here)."""

    def captures(self, state: State, action: Action) -> int:
        """How many of the opponent's pieces `action` takes."""
