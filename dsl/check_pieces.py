"""Checks of the piece kinds (owners, symbols, sizes, which stands on which) and the setup."""

from __future__ import annotations

from dataclasses import replace

from dsl import syntax as syn
from dsl.check_exprs import ExprChecks
from dsl.model import PieceType
from dsl.pictures import COLOURS, SHAPES
from dsl.placements import MAX_WIDE_PIECES, SplitTooHard, placements, split_into_pieces

BAD_SYMBOLS = set("./ \t#")
MAX_PIECE_SIZE = 4


def cells_of_mask(mask: int) -> list[int]:
    """The cells of a bitmask, in order."""
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


class PieceChecks(ExprChecks):
    # ------------------------------------------------------------------ pieces
    def check_pieces(self, decls: list[syn.PieceDecl]) -> list[PieceType]:
        """The piece types (a kind as owned by each of its owners); sets `self.kinds`."""
        self.kinds = {}
        self.placed_whole = self.placed_wide_kinds(decls)
        types: list[PieceType] = []
        symbols: dict[str, syn.Span] = {}
        for d in decls:
            if not self.declare(d.name, "piece kind", d.name_span):
                continue
            self.kinds[d.name] = d
            if d.neutral and d.owner:
                self.error(d.span, f"piece '{d.name}' cannot be both neutral and owned")
                continue
            if not d.neutral and not d.owner:
                self.error(d.name_span, f"piece '{d.name}' needs an owner",
                           f"add `owner {self.player_names[0]}`, `owner each` or `neutral`")
                continue
            if not 1 <= d.size <= MAX_PIECE_SIZE:
                self.error(d.span, f"piece size must be between 1 and {MAX_PIECE_SIZE}")
                continue
            if d.neutral:
                owners: list[int | None] = [None]
            elif d.owner[0] == "each":
                owners = list(range(len(self.player_names)))
            elif d.owner[0] in self.player_names:
                owners = [self.player_names.index(d.owner[0])]
            else:
                self.error(d.owner[1], f"unknown player '{d.owner[0]}'",
                           self.suggest(d.owner[0], self.player_names + ["each"]))
                continue
            if d.counted and not self.counted_kind_ok(d, owners):
                continue
            if len(d.symbols) != len(owners):
                example = "R/r" if len(owners) == 2 else "/".join("RGBYPO"[:len(owners)])
                want = "one symbol" if len(owners) == 1 else \
                    f"{len(owners)} symbols (one per player, e.g. `symbol {example}`)"
                self.error(d.name_span, f"piece '{d.name}' needs {want}")
                continue
            colours = self.per_owner(d, d.colours, "colour", COLOURS, len(owners))
            shapes = self.per_owner(d, d.shapes, "shape", SHAPES, len(owners))
            for (sym, span), owner, colour, shape in zip(d.symbols, owners, colours, shapes):
                if len(sym) != 1 or sym in BAD_SYMBOLS or not sym.isprintable():
                    shown = sym if sym.isprintable() else sym.encode("unicode_escape").decode("ascii")
                    self.error(span, f"a symbol is one visible character other than . / # "
                                     f"(no space or control character); got '{shown[:20]}'")
                elif sym in symbols:
                    self.error(span, f"symbol '{sym}' is already used (line {symbols[sym].line})")
                else:
                    symbols[sym] = span
                looks = {"colour": colour, "shape": shape or "disc"}
                if d.name in self.placed_whole:
                    types.append(PieceType(d.name, owner, sym, 1, span=d.span, cover=d.size, **looks))
                else:
                    types.append(PieceType(d.name, owner, sym, d.size, span=d.span, **looks))
        if not decls and "piece" not in self.broken_kinds:
            self.error(self.decls[0].span, "the ruleset declares no pieces")
        self.counted_alone()
        self.stack_types(types)
        return types

    def counted_alone(self) -> None:
        """A game with counted kinds has no other kind (a landing or a removal would take a
        cell's pieces without its count)."""
        counted = [d for d in self.kinds.values() if d.counted]
        others = [d for d in self.kinds.values() if not d.counted]
        if counted and others:
            self.error(others[0].name_span, f"'{others[0].name}' is not counted, and '{counted[0].name}' is: "
                                            f"a game with counted pieces has only counted kinds",
                       f"add `counted` to '{others[0].name}'")

    def counted_kind_ok(self, d: syn.PieceDecl, owners: list[int | None]) -> bool:
        """A counted kind: one owner or none, one cell, standing on nothing, no reserve."""
        why = "covers one cell" if d.size != 1 else "stands on no other piece" if d.on is not None \
            else "has no reserve" if d.reserve is not None else \
            "has one owner or none" if len(owners) > 1 else None
        if why is not None:
            self.error(d.name_span, f"a counted kind {why}: '{d.name}' is counted")
        return why is None

    def per_owner(self, d: syn.PieceDecl, given: list[tuple[str, syn.Span]], what: str,
                  known, owners: int) -> list[str | None]:
        """A piece's colours or shapes, one per owner (one given serves every owner); the
        names checked against `known`."""
        if not given:
            return [None] * owners
        for name, span in given:
            if name not in known:
                self.error(span, f"unknown {what} '{name}' (known: {', '.join(known)})", self.suggest(name, known))
                return [None] * owners
        if len(given) not in (1, owners):
            takes = f"one {what}" if owners == 1 else \
                f"one {what} or {owners} (one per player, in the order of `players`)"
            self.error(given[0][1], f"piece '{d.name}' takes {takes}, found {len(given)}")
            return [None] * owners
        return [n for n, _ in given] * (owners // len(given))

    def placed_wide_kinds(self, decls: list[syn.PieceDecl]) -> set[str]:
        """The kinds covering several cells that a `place` rule puts down (`place domino`,
        or `place piece` over them): their pieces are kept as the cells they cover."""
        placed = {p.kind for p in self.decls
                  if isinstance(p, syn.PlyDecl) and p.motion is not None and p.motion.kind == "place"}
        return {d.name for d in decls if d.size > 1 and (d.name in placed or "piece" in placed)}

    def stack_types(self, types: list[PieceType]) -> None:
        """Levels and carriers from `on KIND` (a piece rides the one it stands on)."""
        for kind in self.kinds.values():
            if kind.on is None:
                continue
            chain, below = [], kind
            while below.on is not None:
                name, span = below.on
                if name not in self.kinds:
                    self.error(span, f"piece '{below.name}' stands on unknown piece '{name}'",
                               self.suggest(name, self.kinds))
                    break
                if name in chain or name == kind.name:
                    self.error(span, f"pieces standing on each other in a loop: "
                                     f"{' on '.join([kind.name] + chain + [name])}")
                    break
                chain.append(name)
                below = self.kinds[name]
            else:
                carriers = [i for i, u in enumerate(types) if u.kind == chain[0]]
                if len(carriers) != 1:
                    self.error(kind.on[1], f"piece '{kind.name}' must stand on a kind with a single "
                                           f"owner or none; '{chain[0]}' has one per player")
                elif kind.size != 1 or self.kinds[chain[0]].size != 1:
                    self.error(kind.on[1], "only pieces covering one cell stand on each other")
                else:
                    for t in types:
                        if t.kind == kind.name:
                            t.level, t.carrier = len(chain), carriers[0]

    # ------------------------------------------------------------------ setup
    def check_all_setup(self, board_decls: list[syn.SetupBoardDecl],
                        setup_decls: list[syn.SetupDecl]) -> dict[int, list[int]]:
        """The cells each piece type starts on: the last `setup board`, else the `setup` lines."""
        if board_decls and setup_decls:
            self.error(setup_decls[0].span, "`setup board` gives the whole setup; "
                                            "drop this line or the board")
        self.setup_spans = {}
        self.setup_items = {}
        self.setup_each: dict[int, int] = {}  # counted type -> the pieces on each of its cells
        setup = self.check_setup_board(board_decls[-1]) if board_decls else self.check_setup(setup_decls)
        self.split_wide_pieces(setup)
        return setup

    def setup_counts(self, setup: dict[int, list[int]]) -> dict[int, dict[int, int]]:
        """Each counted type's pieces per cell at the start; each type's most on a cell
        (its total: no ply adds pieces) set in its `counted`."""
        counts = {}
        for tid, t in enumerate(self.types):
            if self.kinds[t.kind].counted:
                each = self.setup_each.get(tid, 1)
                counts[tid] = {c: each for c in setup.get(tid, [])}
                t.counted = max(1, sum(counts[tid].values()))
        return counts

    def check_setup_board(self, d: syn.SetupBoardDecl) -> dict[int, list[int]]:
        """`setup board:` rows of symbols, as in a position's text (spaces ignored)."""
        rows = self.board.text_rows
        if len(d.rows) != len(rows):
            self.error(d.span, f"`setup board` needs {len(rows)} rows, one string each; found {len(d.rows)}")
            return {}
        by_symbol = {t.symbol: i for i, t in enumerate(self.types)}
        setup: dict[int, list[int]] = {}
        for (text, span), row in zip(d.rows, rows):
            chars = text.replace(" ", "")
            if len(chars) != len(row):
                self.error(span, f"this row has {len(row)} cells, the string gives {len(chars)}")
                continue
            for ch, c in zip(chars, row):
                if ch == ".":
                    continue
                if ch not in by_symbol:
                    self.error(span, f"unknown symbol '{ch}' (known: {', '.join(by_symbol)} and . for empty)")
                    break
                t: int | None = by_symbol[ch]
                self.setup_spans.setdefault(t, d.span)
                while t is not None:
                    setup.setdefault(t, []).append(c)
                    t = self.types[t].carrier
        return {t: sorted(cells) for t, cells in setup.items()}

    def check_setup(self, decls: list[syn.SetupDecl]) -> dict[int, list[int]]:
        """The `setup` lines: cells listed, or `all other cells` for one kind."""
        setup: dict[int, list[int]] = {}
        taken_at: dict[int, dict[int, syn.Span]] = {}  # per level
        rest: list[tuple[int, syn.SetupDecl]] = []
        for d in decls:
            tid = self.setup_type(d)
            if tid is None:
                continue
            if tid in setup or any(t == tid for t, _ in rest):
                self.error(d.piece_span, f"the setup of '{d.piece}' is given twice")
                continue
            if d.each is not None:
                if not self.kinds[d.piece].counted:
                    self.error(d.span, f"`{d.each} each on` sets up counted pieces; '{d.piece}' is not "
                                       f"counted: a cell holds one", f"add `counted` to piece '{d.piece}'")
                elif d.each < 1:
                    self.error(d.span, "`each on` puts at least one piece on each cell")
                else:
                    self.setup_each[tid] = d.each
            if d.items is None:
                rest.append((tid, d))
                continue
            setup[tid] = self.setup_cells(d, tid, taken_at)
        self.fill_rest(rest, setup, taken_at)
        self.check_carriers(decls, setup)
        return setup

    def setup_type(self, d: syn.SetupDecl) -> int | None:
        """The piece type a `setup` line places; None after an error, or when its kind made
        no piece type (its declaration's error is reported)."""
        if d.piece not in self.kinds:
            self.error(d.piece_span, f"unknown piece '{d.piece}'", self.suggest(d.piece, self.kinds))
            return None
        if not any(t.kind == d.piece for t in self.types):
            return None
        if d.owner is not None:
            if d.owner[0] not in self.player_names:
                self.error(d.owner[1], f"unknown player '{d.owner[0]}'",
                           self.suggest(d.owner[0], self.player_names))
                return None
            owner = self.player_names.index(d.owner[0])
            tids = [i for i, t in enumerate(self.types) if t.kind == d.piece and t.owner == owner]
            if not tids:
                self.error(d.owner[1], f"{d.owner[0]} has no '{d.piece}' pieces")
                return None
        else:
            tids = [i for i, t in enumerate(self.types) if t.kind == d.piece]
            if len(tids) != 1:
                if tids:
                    self.error(d.piece_span, f"every player has '{d.piece}' pieces: say whose",
                               f"write `setup {d.piece} of {self.player_names[0]}: ...`")
                return None
        return tids[0]

    def setup_cells(self, d: syn.SetupDecl, tid: int,
                    taken_at: dict[int, dict[int, syn.Span]]) -> list[int]:
        """The cells a `setup` line lists, claimed at its piece's level."""
        cells: set[int] = set()
        items = []
        for item in d.items:
            value = self.static_cells(item)
            if value is not None:
                cells |= value
                items.append(value)
        self.claim(d, cells, taken_at.setdefault(self.types[tid].level, {}))
        self.setup_spans[tid], self.setup_items[tid] = d.span, items
        kind = self.kinds[d.piece]
        if kind.size > 1 and len(cells) <= kind.size:
            self.check_placement(d, kind, cells)
        return sorted(cells)

    def fill_rest(self, rest: list[tuple[int, syn.SetupDecl]], setup: dict[int, list[int]],
                  taken_at: dict[int, dict[int, syn.Span]]) -> None:
        """`setup KIND: all other cells`: the cells of its level no other line took."""
        if len(rest) > 1:
            self.error(rest[1][1].span, "only one piece can fill 'all other cells'")
        for tid, d in rest[:1]:
            if self.kinds[d.piece].size > 1:
                self.error(d.span, "a piece covering several cells cannot fill 'all other cells'")
                continue
            taken = taken_at.get(self.types[tid].level, {})
            setup[tid] = [c for c in range(self.board.size)
                          if c not in taken and c not in self.board.goals]

    def check_carriers(self, decls: list[syn.SetupDecl], setup: dict[int, list[int]]) -> None:
        """A piece standing on another starts on a cell where one of those starts."""
        for tid, cells in setup.items():
            carrier = self.types[tid].carrier
            bare = [c for c in cells if carrier is not None and c not in setup.get(carrier, [])]
            if bare:
                d = next(x for x in decls if x.piece == self.types[tid].kind)
                self.error(d.span, f"a {self.types[tid].kind} stands on a {self.types[carrier].kind}; "
                                   f"{self.board.names[bare[0]]} has none")

    def split_wide_pieces(self, setup: dict[int, list[int]]) -> None:
        """Several pieces of a kind covering several cells: one piece type each.

        A bitmask cannot tell two dominoes side by side from two dominoes stacked, so
        each such piece gets a type of its own (same kind, owner and symbol); the types
        of one kind stay sorted by mask, so the pieces are interchangeable.
        """
        for tid in list(setup):
            t = self.types[tid]
            cells = setup[tid]
            if t.size == 1:
                continue
            masks = [sum(1 << c for c in p) for p in placements(self.board, t.size)]
            if len(cells) <= t.size and (tid in self.setup_items  # checked with its `setup` line
                                         or sum(1 << c for c in cells) in masks):
                continue
            items = self.setup_items.get(tid, [])
            mask = sum(1 << c for c in cells)
            if items and all(sum(1 << c for c in it) in masks for it in items) \
                    and sum(len(it) for it in items) == len(cells):
                ways = [sorted(sum(1 << c for c in it) for it in items)]  # one piece an item
            else:
                try:
                    ways = split_into_pieces(mask, masks)
                except SplitTooHard:
                    self.error(self.setup_spans.get(tid), f"too many pieces of '{t.kind}': at most "
                                                          f"{MAX_WIDE_PIECES} of a kind covering several cells")
                    continue
            names = ", ".join(self.board.names[c] for c in cells)
            if not ways:
                self.error(self.setup_spans.get(tid),
                           f"the cells of '{t.kind}' ({names}) do not split into pieces covering "
                           f"{t.size} cells in a straight line")
                continue
            if len(ways) > 1:
                a, b = (" ".join("+".join(self.board.names[c] for c in cells_of_mask(mk)) for mk in w)
                        for w in ways[:2])
                self.error(self.setup_spans.get(tid),
                           f"the cells of '{t.kind}' split into pieces in more than one way "
                           f"({a}, or {b})",
                           f"give one piece an item: `setup {t.kind}: "
                           f"{', '.join(' | '.join(self.board.names[c] for c in cells_of_mask(mk)) for mk in ways[0])}`")
                continue
            pieces = ways[0]
            setup[tid] = cells_of_mask(pieces[0])
            for mk in pieces[1:]:
                self.types.append(replace(t))
                setup[len(self.types) - 1] = cells_of_mask(mk)

    def claim(self, d: syn.SetupDecl, cells: set[int], taken: dict[int, syn.Span]) -> None:
        """Mark the cells taken by `d`; a cell another line took already is an error."""
        for c in sorted(cells):
            if c in taken:
                self.error(d.span, f"cell {self.board.names[c]} is already set up "
                                   f"(line {taken[c].line})")
            else:
                taken[c] = d.span

    def check_placement(self, d: syn.SetupDecl, kind: syn.PieceDecl, cells: set[int]) -> None:
        """The cells of one wide piece lie in a straight line of its size."""
        if cells and frozenset(cells) not in {frozenset(p) for p in placements(self.board, kind.size)}:
            names = ", ".join(self.board.names[c] for c in sorted(cells))
            self.error(d.span, f"piece '{kind.name}' covers {kind.size} cells in a straight line; "
                               f"{names} is not such a placement",
                       f"list the {kind.size} cells one piece covers, e.g. `setup {kind.name}: "
                       f"{', '.join(self.board.names[:kind.size])}`")
