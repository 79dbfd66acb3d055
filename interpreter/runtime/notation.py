"""The text forms of a game: plies and positions written and read back, and the board
drawn for people.

A ply reads `a1-a2` (`a1xa2` when it captures), `c1+c2-b2+c2` for a piece covering
several cells, `b2` for a placement, `a1-c3-e1` for a chain's route, `pass`; a
position reads `<rows> <player to move> [key=value ...]` (see `state_to_text`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from dsl import model
from dsl.constructs.effects import every_effect
from dsl.placements import SplitTooHard, split_into_pieces

from interpreter.runtime.actions import ActionRecord, Shape
from interpreter.runtime import position_fields as pfields, render
from interpreter.runtime.position_fields import _COUNT, _clip
from interpreter.runtime.protocol import Action, IllegalActionError, Outcome, PositionError, State
from interpreter.runtime.tables import cells_of

if TYPE_CHECKING:
    from interpreter.runtime.game import Game

_CAPTURE_SIGN = re.compile(r"(?<=[0-9])x(?=[A-Za-z])")
MAX_TEXT = 100_000  # characters of a position or ply text (the largest bundled position is ~700)
SHOWN_LEGAL = 12  # legal plies an error about an illegal one lists


class Notation:
    """One game's plies and positions as text, both ways, and its board drawn."""

    def __init__(self, game: Game):
        self.game = game
        self.ruleset, self.board, self.players = game.ruleset, game.board, game.players
        self._rules, self._tables = game.rule_infos, game.tables
        self._formats = [r.format for r in self._rules]
        writers = {Shape.MOVE: self._move_text, Shape.PUSH: self._move_text,
                   Shape.PLACE: self._place_text, Shape.CHAIN: self._chain_text,
                   Shape.PLACEMENT: self._placement_text, Shape.WIDE_PLACE: self._wide_place_text,
                   Shape.PASS: self._pass_text}
        self._writers = [writers[f.shape] for f in self._formats]  # per rule code
        self._phases, self._turn_start = game.phases, game.turn_start
        # The text names the ply of the turn when a turn can hold more than one.
        self._show_ply = self._phases > 1
        # Only a rule that gives the turn (`turn to`) can make the player who moved last
        # other than the one reading a text assumes (result=none in state_to_text).
        self._turn_given = any(isinstance(e, model.TurnTo) for e in every_effect(self.ruleset))
        types = self.ruleset.types
        # A cell's character is its top piece's symbol (what it stands on is implied).
        self._top_first = sorted(range(len(types)), key=lambda i: -types[i].level)
        self._texts: tuple[State | None, dict[str, Action], dict[Action, str]] = (None, {}, {})
        self._routes: tuple[State | None, dict] = (None, {})  # routes() of one position, by piece
        # The players the rules name with a plural verb (`Musketeers win`): results agree.
        self._plural = frozenset(e.player.index for e in self.ruleset.ends
                                 if e.plural and isinstance(e.player, model.Player))
        players_of = [r.player for r in self._rules if r.player is not None]
        # Plies may read the same when a player has two rules, or one rule moves several
        # types: then each says its rule or its piece (see _read).
        self._maybe_shared = len(players_of) != len(set(players_of)) or any(
            r.kinds > 1 for r in self._rules)
        # Wide pieces (covering several cells) by symbol: one type a piece (see check).
        self._wide_groups: dict[str, list[int]] = {}
        for i, t in enumerate(types):
            if t.size > 1:
                self._wide_groups.setdefault(t.symbol, []).append(i)
        self._counted = {types[t].kind: t for t in game.layout.count_offsets}  # `count.KIND` -> its type
        self._reserves: dict[str, list[int]] = {}  # `reserve.KIND` -> its slots, one per owner
        for t, slot in game.layout.reserve_offsets.items():
            self._reserves.setdefault("reserve." + types[t].kind, []).append(slot)

    def decode(self, action: Action) -> ActionRecord:
        """The action's items by name, through its rule's format."""
        return self._formats[action[0]].decode(action)

    # ------------------------------------------------------------ plies
    def action_to_text(self, state: State, action: Action) -> str:
        """Notation: `a1-a2` (`a1xa2` when it captures), `c1+c2-b2+c2` for wide pieces, `pass`;
        `RULE:` before it when two rules' plies would read the same here."""
        text = self._plain_text(state, action)
        if self._maybe_shared:
            return self._read(state)[1].get(action, "") + text
        return text

    def _plain_text(self, state: State, action: Action, chains: dict | None = None) -> str:
        """The notation without `RULE:`; `chains` keeps each piece's chain search for reuse."""
        return self._writers[action[0]](state, self._formats[action[0]].decode(action), chains)

    def _pass_text(self, state: State, a: ActionRecord, chains: dict | None) -> str:
        return "pass"

    def _place_text(self, state: State, a: ActionRecord, chains: dict | None) -> str:
        prefix = self.ruleset.types[a.piece].symbol + "@" if self._formats[a.rule].many else ""
        return prefix + self.board.names[a.to_cell]

    def _chain_text(self, state: State, a: ActionRecord, chains: dict | None) -> str:
        return "-".join(self.board.names[c] for c in self._first_route(state, a, chains))

    def _first_route(self, state: State, a: ActionRecord, chains: dict | None) -> tuple[int, ...]:
        """The route a chain's text shows: the first its piece's search finds (`chains`
        keeps each piece's search for reuse)."""
        key = (a.rule, a.piece, a.from_cell)
        found = chains.get(key) if chains is not None else None
        if found is None:
            found = self.game.python_rules.chains[a.rule](state, a.piece, a.from_cell)  # first route each
            if chains is not None:
                chains[key] = found
        return found[(a.to_cell, a.removed)][0]

    def chain_route(self, state: State, action: Action) -> tuple[int, ...]:
        """The route (start, turning cells, final cell) a chained ply's text shows."""
        return self._first_route(state, self.decode(action), None)

    def _wide_place_text(self, state: State, a: ActionRecord, chains: dict | None) -> str:
        """`a1+a2`: the cells a piece placed whole covers."""
        t = self.ruleset.types[a.piece]
        prefix = t.symbol + "@" if self._formats[a.rule].many else ""
        return prefix + "+".join(self.board.names[c] for c in cells_of(self._tables.placement_masks(t.cover)[a.placement]))

    def _placement_text(self, state: State, a: ActionRecord, chains: dict | None) -> str:
        names = self.board.names
        old = "+".join(names[c] for c in cells_of(state[a.piece]))
        new_mask = self._tables.placement_masks(self.ruleset.types[a.piece].size)[a.placement]
        return old + "-" + "+".join(names[c] for c in cells_of(new_mask))

    def _move_text(self, state: State, a: ActionRecord, chains: dict | None) -> str:
        """`a1-a2`, or `a1xa2` when it captures (a push's too)."""
        types = self.ruleset.types
        dest = 1 << a.to_cell
        level = 0 if a.piece is None else types[a.piece].level  # a push: any piece
        # A capture removes what stands at the mover's level (a disc onto a tile is no capture).
        # A capture removes what stands at the mover's level (a disc onto a tile is no capture;
        # a sowing adds to what stands there).
        occupied = not (a.piece is not None and types[a.piece].counted) and \
            any(state[i] & dest for i, t in enumerate(types) if t.level >= level)
        names = self.board.names
        return names[a.from_cell] + ("x" if occupied else "-") + names[a.to_cell]

    def routes(self, state: State, action: Action) -> list[tuple[int, ...]]:
        """Every route (start, turning cells, final cell) of a chained ply."""
        a = self.decode(action)
        cache = self._routes  # one search a piece for the last position asked about
        if cache[0] != state:
            cache = self._routes = (state, {})
        key = (a.rule, a.piece, a.from_cell)
        found = cache[1].get(key)
        if found is None:
            found = cache[1][key] = self.game.python_rules.chains[a.rule](state, a.piece, a.from_cell, routes=True)
        return found[(a.to_cell, a.removed)]

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
            for a in self.game.legal_actions(state):
                groups.setdefault(_norm(self._plain_text(state, a, searched)), []).append(a)
            by_text: dict[str, Action] = {}
            prefix: dict[Action, str] = {}
            for text, acts in groups.items():
                acts = list(dict.fromkeys(acts))
                for a in acts:
                    mark = ""
                    if sum(b[0] == a[0] for b in acts) > 1:
                        mark = self._mover(a) + "@"
                    if any(b[0] != a[0] for b in acts):
                        mark = f"{self._rules[a[0]].name}:{mark}"
                    if mark:
                        prefix[a] = mark
                    by_text[_norm(mark) + text] = a
            self._texts = (state, by_text, prefix)
        return self._texts[1], self._texts[2]

    def _mover(self, action: Action) -> str:
        """What tells apart two plies of one rule that read the same: the piece's symbol, or
        a push's direction (`d0`)."""
        a = self.decode(action)
        return f"d{a.direction}" if a.piece is None else self.ruleset.types[a.piece].symbol

    def action_from_text(self, state: State, text: str) -> Action:
        """The legal action written `text` (`-` and `x` are interchangeable; any route of a chain)."""
        _readable(text, "a ply", IllegalActionError)
        want = _norm(text)
        by_text = self.texts(state)
        if want in by_text:
            return by_text[want]
        rule, colon, rest = want.partition(":")
        if colon and rest in by_text and self._rules[by_text[rest][0]].name == rule:
            return by_text[rest]  # `RULE:` written where the ply alone says it
        legal = list(by_text.values())
        for a in legal:
            if self._formats[a[0]].shape is Shape.CHAIN:
                names = self.board.names
                if any("-".join(names[c] for c in r) == want for r in self.routes(state, a)):
                    return a
        shown = ", ".join(self.action_to_text(state, a) for a in legal[:SHOWN_LEGAL])
        more = "" if len(legal) <= SHOWN_LEGAL else f", ... ({len(legal)} in all)"
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

    # ------------------------------------------------------------ positions
    def symbol_at(self, state: State, cell: int) -> str:
        """The character of `cell`: its top piece's symbol, or `.`."""
        return self._painted(state, cell, None)

    def _painted(self, state: State, cell: int, paint: Callable[[int, str], str] | None) -> str:
        bit = 1 << cell
        for i in self._top_first:
            if state[i] & bit:
                symbol = self.ruleset.types[i].symbol
                return symbol if paint is None else paint(i, symbol)
        return "."

    def state_to_text(self, state: State) -> str:
        """`<rows top to bottom, / between> <player to move> [ply=N] [var=v,...] [result=...]`."""
        game, layout = self.game, self.game.layout
        rows = ["".join(self.symbol_at(state, c) for c in row) for row in self.board.text_rows]
        parts = ["/".join(rows), self.players[state[layout.P]]]
        if self._show_ply:
            parts.append(f"ply={game.phase(state) + 1}")
            if game.in_first_turn(state):
                parts.append("turn=first")
        for v in self.ruleset.vars:
            base = layout.var_offsets[v.name]
            count = len(self.players) if v.per_player else 1
            parts.append(f"{v.name}=" + ",".join(str(state[base + i]) for i in range(count)))
        for key, slots in self._reserves.items():
            parts.append(f"{key}=" + ",".join(str(state[x]) for x in slots))
        M = layout.memory
        if M is not None and state[M]:
            parts.append("previous=" + pfields.previous_text(self.ruleset, self.board, state[M:M + 3]))
        parts += self._pieces_fields(state)
        parts += pfields.counts_text(self.game, state)
        out = game.result_code(state)
        if out >= 0:
            parts.append("result=" + pfields.result_text(self.players, out))
        elif self._turn_given and game.result_code(game.settle(list(state), effects=False)) >= 0:
            # read back with the previous player as the mover, it would be over: an end
            # rule gave the mover another turn
            parts.append("result=none")
        return " ".join(parts)

    def _pieces_fields(self, state: State) -> list[str]:
        """`pieces.SYMBOL=a1+a2,b1+b2` for each symbol whose cells the rows alone would not
        split into its pieces one way."""
        fields = []
        names = self.board.names
        for symbol, group in self._wide_groups.items():
            masks = [state[i] for i in group if state[i]]
            cells = sum(masks)
            if len(group) > 1 and cells and len(split_into_pieces(cells, self._tables.placement_masks(
                    self.ruleset.types[group[0]].size))) > 1:
                fields.append(f"pieces.{symbol}=" + ",".join("+".join(names[c] for c in cells_of(mk))
                                                             for mk in masks))
        return fields

    def state_from_text(self, text: str) -> State:
        """Parse `state_to_text`'s form; a position without `result=` gets its end rules run."""
        game, L = self.game, self.game.layout
        _readable(text, "a position", PositionError)
        fields = text.split()
        if len(fields) < 2:
            raise PositionError("a position is `<rows> <player to move> [key=value ...]`")
        s = self._rows_from_text(fields[0])
        self._split_pieces(s, dict(_key_value(f)[::2] for f in fields[2:] if "=" in f))
        if fields[1] not in self.players:
            raise PositionError(f"unknown player to move '{_clip(fields[1])}' (players: {', '.join(self.players)})")
        s[L.P] = self.players.index(fields[1])
        game.reset_counters(s)
        for t, base in L.count_offsets.items():  # one a cell shown, unless `count.KIND` says
            s[base:base + self.board.size] = [s[t] >> c & 1 for c in range(self.board.size)]
        ply, first, result = self._fields_from_text(s, fields[2:])
        plies_in_turn = self._turn_start if first else self._phases - self._turn_start
        if ply > plies_in_turn:
            raise PositionError(f"ply must be 1 to {plies_in_turn} in this turn, found {ply}")
        s[L.PH] = ply - 1 + (0 if first else self._turn_start)
        s[L.OUT] = -1
        settled = game.settle(s, effects=False)
        if result is not None and game.result_code(settled) != result:
            s[L.OUT] = result  # a result the rules would not give here: as stated
            return tuple(s)
        return settled

    def _rows_from_text(self, text: str) -> list[int]:
        """A state's list holding the pieces the rows show (everything else 0)."""
        types = self.ruleset.types
        rows = text.split("/")
        text_rows = self.board.text_rows
        if len(rows) != len(text_rows):
            goals = " (the last holds the goals)" if self.board.goals else ""
            raise PositionError(f"expected {len(text_rows)} rows separated by '/'{goals}, "
                                f"found {len(rows)}")
        by_symbol: dict[str, int] = {}
        for i, t in enumerate(types):
            by_symbol.setdefault(t.symbol, i)
        s = [0] * self.game.layout.length
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
                    t = types[t].carrier
        return s

    def _fields_from_text(self, s: list[int], fields: list[str]) -> tuple[int, bool, int | None]:
        """The `key=value` fields read into `s`; the ply of the turn (from 1), whether it is
        the first turn, and the stated result (None if none)."""
        L = self.game.layout
        result = None
        ply, first = 1, False
        for f in fields:
            key, eq, value = _key_value(f)
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
                pfields.var_from_text(self.game, s, key, value)
            elif key in self._reserves:
                pfields.reserve_from_text(self._reserves[key], s, key, value)
            elif key == "previous" and L.memory is not None:
                s[L.memory:L.memory + 3] = pfields.parse_previous(self.ruleset, self.board, value)
            elif key.startswith("pieces.") and key[7:] in self._wide_groups:
                pass  # read with the rows (_split_pieces)
            elif key.startswith("count.") and key[6:] in self._counted:
                pfields.counts_from_text(self.game, s, self._counted[key[6:]], value)
            elif key == "result":
                result = pfields.result_from_text(self.players, value)
            else:
                raise PositionError(f"unknown field '{_clip(key)}'")
        return ply, first, result

    def _split_pieces(self, s: list[int], fields: dict[str, str]) -> None:
        """Each wide piece's cells, from the rows (or `pieces.SYMBOL=a1+a2,b1+b2` where the
        rows alone could be read two ways); a group's masks go in ascending order."""
        masks_of = self._tables.placement_masks
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
        if mask not in self._tables.placement_masks(size):
            raise PositionError(f"pieces.{symbol}: {text} is not a placement of a piece covering "
                                f"{size} cells")
        return mask

    # ------------------------------------------------------------ drawing
    def render(self, state: State, paint: Callable[[int, str], str] | None = None) -> str:
        """The board drawn for a person, with coordinates, and who is to move; `paint(type,
        symbol)` colours a piece's symbol (a colour terminal's codes)."""
        counts = self.game.layout.count_offsets
        if counts:  # a counted kind's cells show how many stand there
            drawing = render.draw(self.board, lambda c: f"{sum(state[b + c] for b in counts.values()) or '.':<2}")
        else:
            drawing = render.draw_position(self.board, self.ruleset.types, state,
                                           lambda c: self._painted(state, c, paint))
        return drawing + "\n" + "; ".join(self.status(state))

    def plural(self, player: int) -> bool:
        """Whether the rules name `player` with a plural verb (`Musketeers win`)."""
        return player in self._plural

    def result(self, out: Outcome) -> str:
        """The result's one text, everywhere: `Enemy wins`, `Musketeers win` (the verb as
        the end rules write it for that player), `Red loses`, `draw`."""
        return out.describe(self.players, self._plural)

    def status(self, state: State) -> list[str]:
        """What the board does not show: each variable, each reserve, then who is to move
        (and which ply of the turn) or the result; the terminal joins them on one line,
        pictures put one a line."""
        game = self.game
        parts = []
        for v in self.ruleset.vars:
            base = game.layout.var_offsets[v.name]
            if v.per_player:
                parts.append(v.name + " " + ", ".join(f"{p} {state[base + i]}"
                                                      for i, p in enumerate(self.players)))
            else:
                parts.append(f"{v.name} {state[base]}")
        for t, slot in game.layout.reserve_offsets.items():
            pt = self.ruleset.types[t]
            owner = "" if pt.owner is None else self.players[pt.owner] + " "
            parts.append(f"{owner}{pt.kind} in reserve: {state[slot]}")
        out = game.outcome(state)
        if out is not None:
            parts.append(self.result(out))
        else:
            who = self.players[game.to_move(state)]
            ply = f" (ply {game.phase(state) + 1} of the turn)" if self._show_ply else ""
            parts.append(f"{who} to move{ply}")
        return parts


def _norm(text: str) -> str:
    # Cell names end in digits, so an `x` right after a digit is the capture sign.
    return _CAPTURE_SIGN.sub("-", text.strip())


def _key_value(field: str) -> tuple[str, str, str]:
    """A `key=value` field split at its `=`; in `pieces.SYMBOL=...` the symbol is one
    character, which may itself be `=`."""
    if field.startswith("pieces.") and field[8:9] == "=":
        return field[:8], "=", field[9:]
    return field.partition("=")


def _readable(text: str, what: str, error: type[ValueError]) -> None:
    """Refuse texts too long to be one, or holding characters a message could not show."""
    if len(text) > MAX_TEXT:
        raise error(f"{what} is at most {MAX_TEXT:,} characters, found {len(text):,}")
    for i, ch in enumerate(text):
        if not ch.isprintable() and ch not in " \t\n\r":
            raise error(f"{what} holds printable characters only, found U+{ord(ch):04X} at "
                        f"character {i + 1}")
