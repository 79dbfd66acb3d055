"""The runtime protocol every compiled game obeys.

A state is a plain tuple of integers (immutable, hashable, cheap to store): one
bitmask per piece type, the player to move, the phase of the turn, the variables,
and the outcome. An action is a tuple of integers whose first item names the rule
that made it (the rest: see actions.py). Their text forms, which round-trip, are
notation.py's; a game reaches them through `notation`.
"""

from __future__ import annotations

from typing import Iterator

from dsl.model import Ruleset

from interpreter.python.compile import Compiled, compile_ruleset

State = tuple[int, ...]
Action = tuple[int, ...]


class PositionError(ValueError):
    """A state's text that does not describe a position of this game."""


class IllegalActionError(ValueError):
    """An action (or its text, or its ids) that names no legal ply in the position."""


class Game:
    """A compiled game: initial state, legal actions, apply, outcome; `notation`, its texts."""

    def __init__(self, ruleset: Ruleset, backend: str = "python"):
        """`backend`: "python", "native" (the rules compiled to C; NativeUnavailable
        without a C compiler) or "auto" (native when it can be built, else Python with a
        one-line notice on stderr)."""
        self.ruleset = ruleset
        self._backend_choice = backend  # what a pickled copy asks for again
        self.players: list[str] = list(ruleset.players)
        self.title = ruleset.title
        self.board = ruleset.board
        self._c: Compiled = compile_ruleset(ruleset)
        c = self._c
        self.layout = c.layout
        self._apply = c.apply
        self._gens = c.gens
        self._pass_ok = c.pass_ok
        self._pass_action: Action = (c.rules[-1].code,)
        self._P, self._PH, self._OUT = c.layout.P, c.layout.PH, c.layout.OUT
        self._compulsory = ruleset.compulsory
        self._when_stuck = c.when_stuck
        self._turn_start = c.turn_start  # phases before it make up the first turn
        self._initial = self._build_initial()
        from interpreter.runtime.notation import Notation  # here: notation.py imports this module's types
        self.notation = Notation(self)
        self.native = None  # the NativeLibrary when the native back-end runs the rules
        if backend != "python":
            from interpreter.native.backend import attach  # here: only a native game loads ctypes
            attach(self, backend)

    @property
    def backend(self) -> str:
        """Which back-end runs the rules: "python" or "native"."""
        return "python" if self.native is None else "native"

    # ------------------------------------------------------------ protocol
    def initial_state(self) -> State:
        return self._initial

    def legal_actions(self, state: State) -> list[Action]:
        """Every legal ply, each once, in a fixed order (rule by rule, cell by cell)."""
        if state[self._OUT] >= 0:
            return []
        ph = state[self._PH]
        gens = self._gens[state[self._P]][ph]
        if len(gens) == 1:
            actions = gens[0](state)  # a fresh list
        else:
            actions = []
            for gen in gens:
                actions += gen(state)
        if self._pass_ok[ph]:
            actions.append(self._pass_action)
        if self._compulsory is not None and actions:
            return self._must_capture(state, actions)
        return actions

    def captures(self, state: State, action: Action) -> int:
        """How many of the opponent's pieces `action` takes: where it lands and on its way."""
        return self._c.captures(state, action)

    def _must_capture(self, state: State, actions: list[Action]) -> list[Action]:
        # compulsory capture: the plies that capture, if any; maximum: those capturing most
        counts = self._c.count_captures(state, actions)
        best = max(counts)
        if best == 0:
            return actions
        if self._compulsory == "maximum":
            return [a for a, n in zip(actions, counts) if n == best]
        return [a for a, n in zip(actions, counts) if n > 0]

    def iter_actions(self, state: State) -> Iterator[Action]:
        """The legal plies, rule by rule, for callers that may stop early."""
        if state[self._OUT] >= 0:
            return
        if self._compulsory is not None:  # the filter needs every ply first
            yield from self.legal_actions(state)
            return
        ph = state[self._PH]
        for gen in self._gens[state[self._P]][ph]:
            yield from gen(state)
        if self._pass_ok[ph]:
            yield self._pass_action

    def apply(self, state: State, action: Action) -> State:
        """The state after `action`; IllegalActionError unless it is a legal ply of `state`
        (`state` is unchanged either way)."""
        if action not in self.legal_actions(state):
            raise IllegalActionError(self._illegal(state, action))
        return self.apply_unchecked(state, action)

    def apply_unchecked(self, state: State, action: Action) -> State:
        """The state after `action`, which the caller knows to be legal in `state` (the
        search's fast path: anything else gives a meaningless state or an exception)."""
        return self._apply[action[0]](state, action)

    def _illegal(self, state: State, action: object) -> str:
        n = len(self.legal_actions(state))
        where = f"in this position ({n} legal pl{'y' if n == 1 else 'ies'}"
        if self.outcome(state) >= 0:
            where = "in this position (the game is over"
        return f"{action!r} is not a legal ply {where}; see legal_actions)"

    def __reduce__(self) -> tuple:
        # Rebuilt from the ruleset's texts, so a game crosses process boundaries without
        # its generated code; the files need not be on disk where it is unpickled.
        return _rebuild, (self.ruleset.path, dict(self.ruleset.sources), self._backend_choice)

    def outcome(self, state: State) -> int:
        """-1 while the game goes on; else the winner's index, or len(players) for a draw."""
        out = state[self._OUT]
        if out < 0 and self._when_stuck is not None and not self._c.has_move(state):
            return self._when_stuck(state)  # settled now: the player to move is stuck
        return out

    def is_terminal(self, state: State) -> bool:
        return self.outcome(state) >= 0

    def winner(self, state: State) -> int | None:
        """The winner's index, or None (game going on, or drawn)."""
        out = self.outcome(state)
        return out if 0 <= out < len(self.players) else None

    def is_draw(self, state: State) -> bool:
        return self.outcome(state) == len(self.players)

    def returns(self, state: State) -> tuple[float, ...]:
        """+1 for the winner, -1 for the loser, 0 each for a draw or a game going on."""
        w = self.winner(state)
        if w is None:
            return tuple(0.0 for _ in self.players)
        return tuple(1.0 if i == w else -1.0 for i in range(len(self.players)))

    def to_move(self, state: State) -> int:
        return state[self._P]

    def phase(self, state: State) -> int:
        """Which ply of the turn is next (0 for the first)."""
        ph = state[self._PH]
        return ph if ph < self._turn_start else ph - self._turn_start

    def in_first_turn(self, state: State) -> bool:
        """Whether the game is still in the first player's first turn (`first turn:`)."""
        return state[self._PH] < self._turn_start

    def var(self, state: State, name: str, player: int | None = None) -> int:
        """A variable's value (per-player variables need the player's index)."""
        slot = self.layout.var_offsets[name]
        return state[slot + (player or 0)]

    # ------------------------------------------------------------ setup
    def _build_initial(self) -> State:
        rs, L = self.ruleset, self.layout
        s = [0] * L.length
        for tid, cells in rs.setup.items():
            s[tid] = sum(1 << c for c in cells)
        s[L.P] = 0
        s[L.PH] = 0
        self._reset_vars(s)
        return self._settle(s)

    def _reset_vars(self, s: list[int]) -> None:
        rs, L = self.ruleset, self.layout
        for v in rs.vars:
            base = L.var_offsets[v.name]
            for i in range(len(self.players) if v.per_player else 1):
                s[base + i] = v.initial
        for t, slot in L.reserve_offsets.items():
            s[slot] = rs.types[t].reserve

    def _settle(self, s: list[int], effects: bool = True) -> State:
        """Evaluate the end rules on a position reached other than by a ply (without
        `effects`, only those that decide an outcome: a position read from its text was
        written after the others ran)."""
        # The mover is whoever would have made the last ply: the same player within a
        # turn, the previous player at a turn's start.
        at_start = s[self._PH] in (0, self._c.turn_start)
        mover = (s[self._P] - 1) % len(self.players) if at_start else s[self._P]
        return self._c.ends[mover](list(s), settle=not effects)

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

    def render(self, state: State) -> str:
        """The board drawn for a person, with coordinates, and who is to move."""
        return self.notation.render(state)


def _rebuild(path: str, sources: dict[str, str], backend: str) -> Game:
    from dsl.load import load_text
    return Game(load_text(sources[path], path, sources), backend)
