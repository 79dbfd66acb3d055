"""A game: the runtime protocol every compiled game obeys, over one back-end's rules.

`Game` is built over a `Rules` object (protocol.py), chosen at construction: the
Python back-end's (interpreter/python) or the native one's (interpreter/native). It
adds what is the same for every back-end: the initial state, the checked `apply`,
typed outcomes, and the text forms, which are notation.py's (reached through
`notation`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, ClassVar, Iterator

from dsl.model import Ruleset

from interpreter.native.backend import NativeRules, native_library
from interpreter.python.compile import PythonRules, compile_ruleset
from interpreter.runtime.notation import Notation
from interpreter.runtime.protocol import (Action, IllegalActionError, Outcome, PositionError, RuleInfo,
                                          Rules, State, Termination, outcome_of)
from interpreter.runtime.tables import Tables

__all__ = ["Action", "Game", "IllegalActionError", "Outcome", "Position", "PositionError", "State",
           "Termination"]


class Game:
    """A compiled game: initial state, legal actions, apply, outcome; `notation`, its texts."""

    # Draws a position as SVG: set by picture.py, a view a layer above the game (load_game
    # imports it), so that Jupyter shows games and positions as pictures.
    svg_picture: ClassVar[Callable[["Game", State], str] | None] = None

    def __init__(self, ruleset: Ruleset, backend: str = "python"):
        """`backend`: "python", "native" (the rules compiled to C; NativeUnavailable
        without a C compiler) or "auto" (the native library for bulk work, perft and
        playouts, when it can be built, else Python with a one-line notice on stderr;
        a ply at a time stays in Python, faster than crossing into C every call)."""
        self.ruleset = ruleset
        self._backend_choice = backend  # what a pickled copy asks for again
        self.players: list[str] = list(ruleset.players)
        self.title = ruleset.title
        self.board = ruleset.board
        self._python: PythonRules = compile_ruleset(ruleset)
        self.layout = self._python.layout
        # the NativeLibrary when one is built: perft and playouts run in it
        self.native = native_library(ruleset, self._python, backend)
        self.rules: Rules = NativeRules(self._python, self.native) \
            if backend == "native" and self.native is not None else self._python
        self._P, self._PH, self._OUT = self.layout.P, self.layout.PH, self.layout.OUT
        self._n = len(self.players)
        self._initial = self._build_initial()
        self.notation = Notation(self)

    @property
    def backend(self) -> str:
        """Which back-end: "native" when the game has a native library (with "auto", perft
        and playouts run in it while a ply at a time runs in Python: `rules.name` says
        which), else "python"."""
        return "python" if self.native is None else "native"

    # ------------------------------------------------------------ protocol
    def initial_state(self) -> State:
        return self._initial

    def legal_actions(self, state: State) -> list[Action]:
        """Every legal ply, each once, in a fixed order (rule by rule, cell by cell)."""
        return self.rules.legal(state)

    def iter_actions(self, state: State) -> Iterator[Action]:
        """The legal plies, rule by rule, for callers that may stop early."""
        return self.rules.iter_legal(state)

    def captures(self, state: State, action: Action) -> int:
        """How many of the opponent's pieces `action` takes: where it lands and on its way."""
        return self.rules.captures(state, action)

    def apply(self, state: State, action: Action) -> State:
        """The state after `action`; IllegalActionError unless it is a legal ply of `state`
        (`state` is unchanged either way)."""
        if action not in self.legal_actions(state):
            raise IllegalActionError(self._illegal(state, action))
        return self.apply_unchecked(state, action)

    def apply_unchecked(self, state: State, action: Action) -> State:
        """The state after `action`, which the caller knows to be legal in `state` (the
        search's fast path: anything else gives a meaningless state or an exception)."""
        return self.rules.apply(state, action)

    def _illegal(self, state: State, action: object) -> str:
        n = len(self.legal_actions(state))
        where = f"in this position ({n} legal pl{'y' if n == 1 else 'ies'}"
        if self.is_terminal(state):
            where = "in this position (the game is over"
        return f"{action!r} is not a legal ply {where}; see legal_actions)"

    def __reduce__(self) -> tuple:
        # Rebuilt from the ruleset's texts, so a game crosses process boundaries without
        # its generated code; the files need not be on disk where it is unpickled.
        return _rebuild, (self.ruleset.path, dict(self.ruleset.sources), self._backend_choice)

    def outcome(self, state: State) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        code = self.rules.result(state)
        if code < 0:
            return None
        why = Termination.END_RULE if state[self._OUT] >= 0 else Termination.STUCK
        return outcome_of(code, self._n, why)

    def result_code(self, state: State) -> int:
        """The outcome as the back-ends store it: -1 while the game goes on, else the
        winner's index, the number of players for a draw, or that plus 1 + X where player X
        lost (see protocol.outcome_of)."""
        return self.rules.result(state)

    def is_terminal(self, state: State) -> bool:
        return self.rules.result(state) >= 0

    def winner(self, state: State) -> int | None:
        """The winner's index, or None (game going on, drawn, or one of three or more lost)."""
        out = self.rules.result(state)
        return out if 0 <= out < self._n else None

    def is_draw(self, state: State) -> bool:
        return self.rules.result(state) == self._n

    def returns(self, state: State) -> tuple[float, ...]:
        """+1 for the winner, -1 for the loser, 0 each for a draw or a game going on (with
        more players, zero-sum: see Outcome.returns)."""
        out = self.outcome(state)
        return (0.0,) * self._n if out is None else out.returns(self._n)

    def to_move(self, state: State) -> int:
        return state[self._P]

    def phase(self, state: State) -> int:
        """Which ply of the turn is next (0 for the first)."""
        ph = state[self._PH]
        start = self._python.turn_start
        return ph if ph < start else ph - start

    def in_first_turn(self, state: State) -> bool:
        """Whether the game is still in the first player's first turn (`first turn:`)."""
        return state[self._PH] < self._python.turn_start

    def var(self, state: State, name: str, player: int | None = None) -> int:
        """A variable's value (per-player variables need the player's index)."""
        slot = self.layout.var_offsets[name]
        return state[slot + (player or 0)]

    # ------------------------------------------------------------ what notation, ids and tools read
    @property
    def rule_infos(self) -> list[RuleInfo]:
        """Every compiled rule, by code (an action's first item): its name, player, format."""
        return self._python.rule_infos

    @property
    def tables(self) -> Tables:
        """The board's precomputed geometry (cells, masks, placements)."""
        return self._python.tables

    @property
    def turn_start(self) -> int:
        """How many phases the first turn has before the turns that repeat (`first turn:`)."""
        return self._python.turn_start

    @property
    def phases(self) -> int:
        """How many phases there are: the first turn's, then every turn's."""
        return self._python.phases

    @property
    def python_rules(self) -> PythonRules:
        """The Python back-end's rules, compiled for every game whatever runs its plies:
        notation's route searches and the generated module (`source`, `namespace`)."""
        return self._python

    def reset_counters(self, s: list[int]) -> None:
        """Set every variable, reserve and count of a state's list to its initial value."""
        rs, L = self.ruleset, self.layout
        for v in rs.vars:
            base = L.var_offsets[v.name]
            for i in range(self._n if v.per_player else 1):
                s[base + i] = v.initial
        for t, slot in L.reserve_offsets.items():
            s[slot] = rs.types[t].reserve
        for t, base in L.count_offsets.items():
            for c in range(rs.board.size):
                s[base + c] = rs.counts[t].get(c, 0)

    def settle(self, s: list[int], effects: bool = True) -> State:
        """The state of a position reached other than by a ply, its end rules evaluated
        (without `effects`, only those that decide an outcome: a position read from its
        text was written after the others ran)."""
        return self._python.settle(s, effects)

    def _build_initial(self) -> State:
        rs, L = self.ruleset, self.layout
        s = [0] * L.length
        for tid, cells in rs.setup.items():
            s[tid] = sum(1 << c for c in cells)
        s[L.P] = 0
        s[L.PH] = 0
        self.reset_counters(s)
        return self.settle(s)

    # ------------------------------------------------------------ text forms
    # Kept here for the many callers that reach them through the game (see notation.py).
    def action_to_text(self, state: State, action: Action) -> str:
        """The ply's notation in `state` (see Notation.action_to_text)."""
        return self.notation.action_to_text(state, action)

    def action_from_text(self, state: State, text: str) -> Action:
        """The legal ply written `text`, or IllegalActionError (see Notation.action_from_text)."""
        return self.notation.action_from_text(state, text)

    def action_from_input(self, state: State, text: str) -> Action:
        """A ply as a person types it (see Notation.action_from_input)."""
        return self.notation.action_from_input(state, text)

    def texts(self, state: State) -> dict[str, Action]:
        """Each legal ply's notation -> the ply."""
        return self.notation.texts(state)

    def routes(self, state: State, action: Action) -> list[tuple[int, ...]]:
        """Every route (start, turning cells, final cell) of a chained ply."""
        return self.notation.routes(state, action)

    def state_to_text(self, state: State) -> str:
        """The position's text (see Notation.state_to_text)."""
        return self.notation.state_to_text(state)

    def state_from_text(self, text: str) -> State:
        """The position a text describes, or PositionError (see Notation.state_from_text)."""
        return self.notation.state_from_text(text)

    def symbol_at(self, state: State, cell: int) -> str:
        """The character of `cell`: its top piece's symbol, or `.`."""
        return self.notation.symbol_at(state, cell)

    def render(self, state: State, paint: Callable[[int, str], str] | None = None) -> str:
        """The board drawn for a person, with coordinates, and who is to move; `paint(type,
        symbol)` colours a piece's symbol (a colour terminal's codes)."""
        return self.notation.render(state, paint)

    def position(self, state: State) -> Position:
        """`state` with its game: it prints as the board and shows as SVG in Jupyter."""
        return Position(self, state)

    def _repr_svg_(self) -> str:
        return self.position(self.initial_state())._repr_svg_()


@dataclass(frozen=True)
class Position:
    """A state with its game (`Game.position`): `str` draws the board in text, and Jupyter
    shows it as an SVG picture; `text` is the position's text form."""

    game: Game
    state: State

    @property
    def text(self) -> str:
        return self.game.state_to_text(self.state)

    def __str__(self) -> str:
        return self.game.render(self.state)

    def _repr_svg_(self) -> str:
        draw = Game.svg_picture
        return "" if draw is None else draw(self.game, self.state)


def _rebuild(path: str, sources: dict[str, str], backend: str) -> Game:
    from dsl.load import load_text  # noqa: PLC0415 - the parser loads only to unpickle
    return Game(load_text(sources[path], path, sources), backend)
