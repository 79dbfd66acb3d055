"""The runtime protocol every compiled game obeys.

A state is a plain tuple of integers (immutable, hashable, cheap to store): one
bitmask per piece type, the player to move, the phase of the turn, the variables,
and the outcome. An action is a tuple of integers whose first item names the rule
that made it. Text forms of both round-trip.
"""

from __future__ import annotations

import re
from typing import Iterator

from rulecraft.dsl.check import Ruleset
from rulecraft.dsl.diagnostics import clip, printable

from . import render
from .compile import Compiled, compile_ruleset
from rulecraft.dsl.placements import SplitTooHard, split_into_pieces

from .tables import cells_of

_CAPTURE_SIGN = re.compile(r"(?<=[0-9])x(?=[A-Za-z])")
MAX_TEXT = 100_000  # characters of a position or ply text (the largest bundled position is ~700)
_WHOLE = re.compile(r"-?[0-9]{1,19}")  # ASCII digits only: int() also reads '²' or '٣'
_COUNT = re.compile(r"[0-9]{1,19}")

State = tuple[int, ...]
Action = tuple[int, ...]


class PositionError(ValueError):
    """A state's text that does not describe a position of this game."""


class IllegalActionError(ValueError):
    """An action's text that names no legal ply in the position."""


class Game:
    """A compiled game: initial state, legal actions, apply, outcome, text forms."""

    def __init__(self, ruleset: Ruleset):
        self.ruleset = ruleset
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
        self._phases = len(c.pass_ok)
        self._compulsory = ruleset.compulsory
        self._when_stuck = c.when_stuck
        self._turn_start = c.turn_start  # phases before it make up the first turn
        # The text names the ply of the turn when a turn can hold more than one.
        self._show_ply = self._phases > 1
        # A cell's character is its top piece's symbol (what it stands on is implied).
        self._top_first = sorted(range(len(ruleset.types)), key=lambda i: -ruleset.types[i].level)
        self._texts: tuple[State | None, dict[str, Action], dict[Action, str]] = (None, {}, {})
        players_of = [r.player for r in self._c.rules if r.player is not None]
        # Plies may read the same when a player has two rules, or one rule moves several
        # types: then each says its rule or its piece (see _read).
        self._maybe_shared = len(players_of) != len(set(players_of)) or any(
            r.kinds > 1 for r in c.rules)
        # Wide pieces (covering several cells) by symbol: one type a piece (see check).
        self._wide_groups: dict[str, list[int]] = {}
        for i, t in enumerate(ruleset.types):
            if t.size > 1:
                self._wide_groups.setdefault(t.symbol, []).append(i)
        self._initial = self._build_initial()

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
        """The state after `action` (which must be legal in `state`); `state` is unchanged."""
        return self._apply[action[0]](state, action)

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

    def _reserve_fields(self) -> dict[str, list[int]]:
        """State-text key -> the reserve slots it holds (`reserve.KIND=...`, one per owner)."""
        fields: dict[str, list[int]] = {}
        for t, slot in self.layout.reserve_offsets.items():
            fields.setdefault("reserve." + self.ruleset.types[t].kind, []).append(slot)
        return fields

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
    def action_to_text(self, state: State, action: Action) -> str:
        """Notation: `a1-a2` (`a1xa2` when it captures), `c1+c2-b2+c2` for wide pieces, `pass`;
        `RULE:` before it when two rules' plies would read the same here."""
        text = self._plain_text(state, action)
        if self._maybe_shared:
            return self._read(state)[1].get(action, "") + text
        return text

    def _plain_text(self, state: State, action: Action, chains: dict | None = None) -> str:
        """The notation without `RULE:`; `chains` keeps each piece's chain search for reuse."""
        rule = self._c.rules[action[0]]
        names = self.board.names
        if rule.name == "pass":
            return "pass"
        if rule.place:
            prefix = self.ruleset.types[action[1]].symbol + "@" if rule.many else ""
            return prefix + names[action[2]]
        if rule.chained:
            key = (action[0], action[1], action[2])
            found = chains.get(key) if chains is not None else None
            if found is None:
                found = self._c.chains[action[0]](state, action[1], action[2])  # first route each
                if chains is not None:
                    chains[key] = found
            return "-".join(names[c] for c in found[(action[3], action[4])][0])
        if rule.multi:
            old = "+".join(names[c] for c in cells_of(state[action[1]]))
            new_mask = self._c.tables.placement_masks(self.ruleset.types[action[1]].size)[action[2]]
            return old + "-" + "+".join(names[c] for c in cells_of(new_mask))
        dest = 1 << action[3]
        level = 0 if rule.push else self.ruleset.types[action[1]].level
        # A capture removes what stands at the mover's level (a disc onto a tile is no capture).
        occupied = any(state[i] & dest for i, t in enumerate(self.ruleset.types) if t.level >= level)
        return names[action[2]] + ("x" if occupied else "-") + names[action[3]]

    def routes(self, state: State, action: Action) -> list[tuple[int, ...]]:
        """Every route (start, turning cells, final cell) of a chained ply."""
        found = self._c.chains[action[0]](state, action[1], action[2], routes=True)
        return found[(action[3], action[4])]

    def texts(self, state: State) -> dict[str, Action]:
        """Each legal ply's notation -> the ply (kept for the last position asked about)."""
        return self._read(state)[0]

    def _read(self, state: State) -> tuple[dict[str, Action], dict[Action, str]]:
        """The legal plies by notation, and the prefix of each ply whose plain text another
        ply shares: `RULE:` when their rules differ, `SYMBOL@` when one rule moves either of
        two pieces (a piece or the one standing on it)."""
        if self._texts[0] != state:
            searched: dict = {}
            groups: dict[str, list[Action]] = {}
            for a in self.legal_actions(state):
                groups.setdefault(_norm(self._plain_text(state, a, searched)), []).append(a)
            by_text: dict[str, Action] = {}
            prefix: dict[Action, str] = {}
            rules = self._c.rules
            for text, acts in groups.items():
                acts = list(dict.fromkeys(acts))
                for a in acts:
                    mark = ""
                    if sum(b[0] == a[0] for b in acts) > 1:
                        mark = (self.ruleset.types[a[1]].symbol if not rules[a[0]].push
                                else f"d{a[1]}") + "@"
                    if any(b[0] != a[0] for b in acts):
                        mark = f"{rules[a[0]].name}:{mark}"
                    if mark:
                        prefix[a] = mark
                    by_text[_norm(mark) + text] = a
            self._texts = (state, by_text, prefix)
        return self._texts[1], self._texts[2]

    def action_from_text(self, state: State, text: str) -> Action:
        """The legal action written `text` (`-` and `x` are interchangeable; any route of a chain)."""
        _readable(text, "a ply", IllegalActionError)
        want = _norm(text)
        by_text = self.texts(state)
        if want in by_text:
            return by_text[want]
        rule, colon, rest = want.partition(":")
        if colon and rest in by_text and self._c.rules[by_text[rest][0]].name == rule:
            return by_text[rest]  # `RULE:` written where the ply alone says it
        legal = list(by_text.values())
        for a in legal:
            if self._c.rules[a[0]].chained:
                names = self.board.names
                if any("-".join(names[c] for c in r) == want for r in self.routes(state, a)):
                    return a
        shown = ", ".join(self.action_to_text(state, a) for a in legal[:12])
        more = "" if len(legal) <= 12 else f", ... ({len(legal)} in all)"
        raise IllegalActionError(f"'{_clip(text.strip())}' is not a legal ply here"
                                 + (f"; legal: {shown}{more}" if legal else "; the game is over"))

    def action_from_input(self, state: State, text: str) -> Action:
        """A ply as a person types it: the notation in any case, or a shorter form that names
        one legal ply only (its destination, `b1+c1`; or without its `RULE:`/`SYMBOL@`)."""
        try:
            return self.action_from_text(state, text)
        except IllegalActionError as e:
            refused = e
        want = _norm(text.lower())
        found: dict[Action, str] = {}
        for written, a in self.texts(state).items():
            plain = written.split(":", 1)[-1].split("@", 1)[-1]
            dest = re.split(r"-(?=[^-]*$)", plain)[-1]
            if want in (written.lower(), plain.lower(), dest.lower()):
                found[a] = self.action_to_text(state, a)
        if len(found) == 1:
            return next(iter(found))
        if found:
            raise IllegalActionError(f"'{_clip(text.strip())}' could be "
                                     + " or ".join(sorted(found.values())) + ": say which")
        raise refused

    def symbol_at(self, state: State, cell: int) -> str:
        """The character of `cell`: its top piece's symbol, or `.`."""
        bit = 1 << cell
        for i in self._top_first:
            if state[i] & bit:
                return self.ruleset.types[i].symbol
        return "."

    def state_to_text(self, state: State) -> str:
        """`<rows top to bottom, / between> <player to move> [ply=N] [var=v,...] [result=...]`."""
        rows = ["".join(self.symbol_at(state, c) for c in row) for row in self.board.text_rows]
        parts = ["/".join(rows), self.players[state[self._P]]]
        if self._show_ply:
            parts.append(f"ply={self.phase(state) + 1}")
            if self.in_first_turn(state):
                parts.append("turn=first")
        for v in self.ruleset.vars:
            base = self.layout.var_offsets[v.name]
            count = len(self.players) if v.per_player else 1
            parts.append(f"{v.name}=" + ",".join(str(state[base + i]) for i in range(count)))
        for key, slots in self._reserve_fields().items():
            parts.append(f"{key}=" + ",".join(str(state[x]) for x in slots))
        M = self.layout.memory
        if M is not None and state[M]:
            parts.append("previous=" + self._previous_text(state[M:M + 3]))
        for symbol, group in self._wide_groups.items():
            masks = [state[i] for i in group if state[i]]
            cells = sum(masks)
            if len(group) > 1 and cells and len(split_into_pieces(cells, self._c.tables.placement_masks(
                    self.ruleset.types[group[0]].size))) > 1:
                names = self.board.names
                parts.append(f"pieces.{symbol}=" + ",".join("+".join(names[c] for c in cells_of(mk))
                                                            for mk in masks))
        out = self.outcome(state)
        if out >= 0:
            parts.append("result=" + (self.players[out] if out < len(self.players) else "draw"))
        return " ".join(parts)

    def state_from_text(self, text: str) -> State:
        """Parse `state_to_text`'s form; a position without `result=` gets its end rules run."""
        rs, L = self.ruleset, self.layout
        _readable(text, "a position", PositionError)
        fields = text.split()
        if len(fields) < 2:
            raise PositionError("a position is `<rows> <player to move> [key=value ...]`")
        rows = fields[0].split("/")
        text_rows = self.board.text_rows
        if len(rows) != len(text_rows):
            goals = " (the last holds the goals)" if self.board.goals else ""
            raise PositionError(f"expected {len(text_rows)} rows separated by '/'{goals}, "
                                f"found {len(rows)}")
        by_symbol: dict[str, int] = {}
        for i, t in enumerate(rs.types):
            by_symbol.setdefault(t.symbol, i)
        s = [0] * L.length
        for r, (row_text, row) in enumerate(zip(rows, text_rows), start=1):
            if len(row_text) != len(row):
                raise PositionError(f"row {r} has {len(row)} cells, found {len(row_text)}: '{_clip(row_text)}'")
            for ch, c in zip(row_text, row):
                if ch == ".":
                    continue
                if ch not in by_symbol:
                    known = ", ".join(by_symbol)
                    raise PositionError(f"unknown symbol '{ch}' in row {r} (known: {known} and . for empty)")
                t: int | None = by_symbol[ch]
                while t is not None:  # the piece and everything it stands on
                    s[t] |= 1 << c
                    t = rs.types[t].carrier
        self._split_pieces(s, dict(f.partition("=")[::2] for f in fields[2:] if "=" in f))
        if fields[1] not in self.players:
            raise PositionError(f"unknown player to move '{_clip(fields[1])}' (players: {', '.join(self.players)})")
        s[L.P] = self.players.index(fields[1])
        self._reset_vars(s)
        reserves = self._reserve_fields()
        result = None
        ply, first = 1, False
        for f in fields[2:]:
            key, eq, value = f.partition("=")
            if not eq:
                raise PositionError(f"expected key=value, found '{_clip(f)}'")
            if key == "ply":
                if not _COUNT.fullmatch(value) or int(value) < 1:
                    raise PositionError(f"ply is a whole number from 1, found '{_clip(value)}'")
                ply = int(value)
            elif key == "turn":
                if value != "first" or not self._turn_start:
                    raise PositionError("turn=first is the only turn field, for a game with a "
                                        "`first turn`" if self._turn_start else
                                        f"this game has no first turn of its own, found 'turn={value}'")
                first = True
            elif key in L.var_offsets:
                var = next(v for v in rs.vars if v.name == key)
                values = value.split(",")
                count = len(self.players) if var.per_player else 1
                if len(values) != count or not all(_WHOLE.fullmatch(x) for x in values):
                    raise PositionError(f"{key} takes {count} whole number{'s' if count > 1 else ''}, "
                                        f"found '{_clip(value)}'")
                for i, x in enumerate(values):
                    if not var.low <= int(x) <= var.high:
                        raise PositionError(f"{key} is kept from {var.low} to {var.high}, found {_clip(x)}")
                    s[L.var_offsets[key] + i] = int(x)
            elif key in reserves:
                values = value.split(",")
                slots = reserves[key]
                if len(values) != len(slots) or not all(_COUNT.fullmatch(x) for x in values):
                    raise PositionError(f"{key} takes {len(slots)} whole number"
                                        f"{'s' if len(slots) > 1 else ''} of 0 or more, "
                                        f"found '{_clip(value)}'")
                for slot, x in zip(slots, values):
                    s[slot] = int(x)
            elif key == "previous" and L.memory is not None:
                s[L.memory:L.memory + 3] = self._parse_previous(value)
            elif key.startswith("pieces.") and key[7:] in self._wide_groups:
                pass  # read with the rows (_split_pieces)
            elif key == "result":
                if value == "draw":
                    result = len(self.players)
                elif value in self.players:
                    result = self.players.index(value)
                else:
                    raise PositionError(f"result is a player or draw, found '{_clip(value)}'")
            else:
                raise PositionError(f"unknown field '{_clip(key)}'")
        plies_in_turn = self._turn_start if first else self._phases - self._turn_start
        if ply > plies_in_turn:
            raise PositionError(f"ply must be 1 to {plies_in_turn} in this turn, found {ply}")
        s[L.PH] = ply - 1 + (0 if first else self._turn_start)
        s[L.OUT] = -1
        settled = self._settle(s, effects=False)
        if result is not None and self.outcome(settled) != result:
            s[L.OUT] = result  # a result the rules would not give here: as stated
            return tuple(s)
        return settled

    def _split_pieces(self, s: list[int], fields: dict[str, str]) -> None:
        """Each wide piece's cells, from the rows (or `pieces.SYMBOL=a1+a2,b1+b2` where the
        rows alone could be read two ways); a group's masks go in ascending order."""
        masks_of = self._c.tables.placement_masks
        for symbol, group in self._wide_groups.items():
            size = self.ruleset.types[group[0]].size
            cells = s[group[0]]
            given = fields.get("pieces." + symbol)
            if given is not None:
                pieces = [self._placement_from_text(symbol, size, p) for p in given.split(",") if p]
                if sum(pieces) != cells or sum(mk.bit_count() for mk in pieces) != cells.bit_count():
                    raise PositionError(f"pieces.{symbol} must list the cells of '{symbol}' in the "
                                        f"rows, each once")
                ways = [sorted(pieces)]
            else:
                try:
                    ways = split_into_pieces(cells, masks_of(size))
                except SplitTooHard:
                    ways = []
            if len(ways) != 1 or len(ways[0]) > len(group):
                if len(ways) > 1:
                    raise PositionError(f"the cells of '{symbol}' split into pieces in more than one "
                                        f"way: say which with pieces.{symbol}=a1+a2,b1+b2")
                if len(group) == 1:
                    raise PositionError(f"the cells of '{symbol}' are not one placement of a "
                                        f"piece covering {size} cells")
                raise PositionError(f"the cells of '{symbol}' are not {len(group)} or fewer pieces "
                                    f"covering {size} cells each")
            pieces = [0] * (len(group) - len(ways[0])) + ways[0]
            for i, mk in zip(group, pieces):
                s[i] = mk

    def _placement_from_text(self, symbol: str, size: int, text: str) -> int:
        mask = 0
        for name in text.split("+"):
            if name not in self.board.index:
                raise PositionError(f"pieces.{symbol}: no cell '{_clip(name)}'")
            mask |= 1 << self.board.index[name]
        if mask not in self._c.tables.placement_masks(size):
            raise PositionError(f"pieces.{symbol}: {text} is not a placement of a piece covering "
                                f"{size} cells")
        return mask

    def _previous_text(self, memory) -> str:
        """`RULE:FROM-TO` (cells joined by + for a wide piece; no FROM for a placement), or `pass`."""
        rule, frm, here = memory
        plies = self.ruleset.plies
        if rule > len(plies):
            return "pass"
        names = self.board.names
        cells = lambda mask: "+".join(names[c] for c in cells_of(mask))  # noqa: E731
        return f"{plies[rule - 1].name}:{cells(frm)}-{cells(here)}"

    def _parse_previous(self, value: str) -> list[int]:
        names = [p.name for p in self.ruleset.plies]
        if value == "pass" and "pass" in self.ruleset.remembers:
            return [len(names) + 1, 0, 0]
        rule, _, move = value.partition(":")
        start, dash, end = move.partition("-")
        index = self.board.index
        masks = []
        for part in (start, end):
            cells = [c for c in part.split("+") if c] if part else []
            if any(c not in index for c in cells):
                masks = None
                break
            masks.append(sum(1 << index[c] for c in cells))
        if rule not in self.ruleset.remembers or not dash or masks is None or not masks[1]:
            kept = [n for n in names if n in self.ruleset.remembers]
            raise PositionError(f"previous is RULE:FROM-TO (RULE one of {', '.join(kept)}; "
                                f"FROM empty for a placement) or pass, found '{_clip(value)}'")
        return [names.index(rule) + 1, masks[0], masks[1]]

    def render(self, state: State) -> str:
        """The board drawn for a person, with coordinates, and who is to move."""
        carriers = {t.carrier for t in self.ruleset.types if t.carrier is not None}
        if not carriers:
            return render.draw(self.board, lambda c: self.symbol_at(state, c)) + "\n" + \
                self._status(state)

        def stack_at(cell: int) -> str:
            # A carrier is drawn as brackets around what stands on it: [Y], [ ].
            bit = 1 << cell
            if any(state[i] & bit for i in carriers):
                top = self.symbol_at(state, cell)
                return "[" + (" " if any(state[i] & bit for i in carriers if
                                         self.ruleset.types[i].symbol == top) else top) + "]"
            return " " + self.symbol_at(state, cell) + " "

        return render.draw(self.board, stack_at) + "\n" + self._status(state)

    def _status(self, state: State) -> str:
        parts = []
        for v in self.ruleset.vars:
            base = self.layout.var_offsets[v.name]
            if v.per_player:
                parts.append(v.name + " " + ", ".join(f"{p} {state[base + i]}"
                                                      for i, p in enumerate(self.players)))
            else:
                parts.append(f"{v.name} {state[base]}")
        if self.is_terminal(state):
            w = self.winner(state)
            parts.append("draw" if w is None else f"{self.players[w]} wins")
        else:
            who = self.players[self.to_move(state)]
            ply = f" (ply {self.phase(state) + 1} of the turn)" if self._show_ply else ""
            parts.append(f"{who} to move{ply}")
        return "; ".join(parts)


def _norm(text: str) -> str:
    # Cell names end in digits, so an `x` right after a digit is the capture sign.
    return _CAPTURE_SIGN.sub("-", text.strip())


def _clip(text: str) -> str:
    """Untrusted text as shown in a message: at most 40 characters and `...`, escaped."""
    return printable(clip(text, 43))


def _readable(text: str, what: str, error: type[ValueError]) -> None:
    """Refuse texts too long to be one, or holding characters a message could not show."""
    if len(text) > MAX_TEXT:
        raise error(f"{what} is at most {MAX_TEXT:,} characters, found {len(text):,}")
    for i, ch in enumerate(text):
        if not ch.isprintable() and ch not in " \t\n\r":
            raise error(f"{what} holds printable characters only, found U+{ord(ch):04X} at "
                        f"character {i + 1}")
