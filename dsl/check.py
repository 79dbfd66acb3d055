"""Semantic checks: a merged list of declarations -> a checked `Ruleset`, or every error at once."""

from __future__ import annotations

import difflib
import re
from dataclasses import replace

from . import board as boards
from . import constructs, ir
from .constructs import functions
from . import model as m
from .ir import PieceType, Ruleset, TurnPhase
from .lower import Lowering
from .diagnostics import Diagnostic, RulesetError
from .memory import remembered_plies
from .placements import MAX_WIDE_PIECES, SplitTooHard, placements, split_into_pieces

FUNCTIONS = functions.SIGNATURES
TYPE_WORDS = {"number": "a number", "bool": "a condition", "player": "a player",
              "cells": "a set of cells", "dirs": "directions"}
BAD_SYMBOLS = set("./ \t#")
MAX_PIECE_SIZE = 4


# Words that would read two ways as a declared name, and why.
RESERVED_NAMES = {
    "piece kind": {"piece": "`move piece ...` means a piece of any kind"},
    "player": {"draw": "`result=draw` in a position's text means a drawn game"},
}
TEXT_FIELDS = ("ply", "turn", "result", "previous")  # keys of a position's text besides variables


class _Checker:
    def __init__(self, decls: list[m.Decl], path: str, sources: dict[str, str],
                 broken: tuple[tuple[str, str], ...] = ()):
        self.decls = decls
        self.path = path
        self.sources = sources
        self.errors: list[Diagnostic] = []
        self.names: dict[str, tuple[str, m.Span | None]] = {}  # name -> (category, where)
        # Names and kinds whose declaration failed (`broken`: keys of syntax errors): no cascade.
        self.broken: set[str] = {n for _, n in broken if n}
        self.broken_kinds: set[str] = {k for k, _ in broken}
        self.in_ply = False  # checking a ply's `where` (where undoes() may look back)
        self.placing = False  # checking a `place` ply (its piece comes from no cell)
        self.relations: dict[str, list[tuple[str, str]]] = {}
        self.captured_ok = False  # checking an effect, where `captured` is known

    def error(self, span: m.Span | None, message: str, hint: str | None = None) -> None:
        self.errors.append(Diagnostic(span, message, hint, file=self.path))

    def suggest(self, name: str, candidates) -> str | None:
        close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
        return f"did you mean '{close[0]}'?" if close else None

    def check_var(self, v: m.VarDecl) -> None:
        if v.name in TEXT_FIELDS:
            self.error(v.name_span, f"'{v.name}' is a field of a position's text "
                                    f"({', '.join(f + '=' for f in TEXT_FIELDS)}); a variable "
                                    f"needs another name")
        if v.low > v.high:
            self.error(v.span, f"the range of '{v.name}' is empty: {v.low} is more than {v.high}",
                       f"write `in {v.high}..{v.low}`")
        elif not v.low <= v.initial <= v.high:
            self.error(v.span, f"'{v.name}' starts at {v.initial}, outside its range {v.low}..{v.high}")

    def declare(self, name: str, category: str, span: m.Span | None) -> bool:
        reserved = RESERVED_NAMES.get(category, {})
        if name in reserved:
            self.error(span, f"'{name}' cannot name a {category}: {reserved[name]}")
            # still declared, so that its uses are not reported as unknown too
        if name in self.names:
            other, where = self.names[name]
            at = f" (line {where.line})" if where is not None else ""
            self.error(span, f"'{name}' is already the name of a {other}{at}")
            return False
        self.names[name] = (category, span)
        return True

    # ------------------------------------------------------------------ driver
    def run(self) -> Ruleset:
        by_type: dict[type, list[m.Decl]] = {}
        for d in self.decls:
            by_type.setdefault(type(d), []).append(d)
        get = lambda cls: by_type.get(cls, [])  # noqa: E731

        game = get(m.GameDecl)
        title = game[-1].title if game else ""
        board = self.check_board(get(m.BoardDecl), get(m.RemoveDecl), get(m.LinkDecl),
                                 get(m.GoalDecl))
        players = self.check_players(get(m.PlayersDecl))
        if board is None or players is None:
            raise RulesetError(self.errors, self.sources)
        self.board, self.players = board, players
        for i, name in enumerate(board.names):
            self.names[name] = ("cell", None)
        for d in board.directions + list(board.groups):
            self.names.setdefault(d, ("direction", None))
        for p, span in players:
            self.declare(p, "player", span)
        # Ranks, files and rows: regions unless a declaration takes the name.
        taken = {getattr(d, "name", None) for d in self.decls}
        self.builtin_regions = {k: v for k, v in board.builtin_regions().items()
                                if k not in taken and k not in self.names}
        for name in self.builtin_regions:
            self.names[name] = ("region", None)
        self.player_names = [p for p, _ in players]

        self.kinds: dict[str, m.PieceDecl] = {}
        types = self.check_pieces(get(m.PieceDecl))
        self.types = types
        self.regions: dict[str, frozenset[int]] = {}
        # Known before the regions, so that a region naming one is told it cannot.
        self.vars: dict[str, m.VarDecl] = {v.name: v for v in get(m.VarDecl)}
        for r in get(m.RegionDecl):
            self.check_region(r)
        self.vars = {}
        for v in get(m.VarDecl):
            if self.declare(v.name, "variable", v.name_span):
                self.vars[v.name] = v
                self.check_var(v)
        for r in get(m.RelationDecl):
            self.check_relation(r)
        boards_ = get(m.SetupBoardDecl)
        if boards_ and get(m.SetupDecl):
            self.error(get(m.SetupDecl)[0].span, "`setup board` gives the whole setup; "
                                                 "drop this line or the board")
        self.setup_spans: dict[int, m.Span] = {}
        self.setup_items: dict[int, list[frozenset[int]]] = {}
        setup = self.check_setup_board(boards_[-1]) if boards_ else self.check_setup(get(m.SetupDecl))
        self.split_wide_pieces(setup)
        plies = get(m.PlyDecl)
        ply_names: dict[str, m.PlyDecl] = {}
        self.ply_names = [p.name for p in plies]
        self.remembers = False
        for p in plies:
            if p.name in ply_names or p.name in ("any", "pass"):
                self.error(p.name_span, f"ply '{p.name}' is declared twice" if p.name in ply_names
                           else f"'{p.name}' is a reserved ply name")
                continue
            ply_names[p.name] = p
            self.check_ply(p)
        if not plies and "ply" not in self.broken_kinds:
            self.error(None if not self.decls else self.decls[0].span,
                       "the ruleset declares no ply: nothing can ever move",
                       "add a rule such as `ply step: move own piece step onto empty`")
        turns = get(m.TurnDecl)
        turn = first = None
        for t in turns:
            phases = self.check_turn(t, ply_names)
            if t.first:
                first = phases
            else:
                turn = phases
        if turn is None:
            turn = [TurnPhase(list(ply_names), False, False)]
        ends = get(m.EndDecl)
        seen_ends: set[str] = set()
        for e in ends:
            if e.name in seen_ends:
                self.error(e.name_span, f"end rule '{e.name}' is declared twice")
            seen_ends.add(e.name)
            self.check_end(e)
        after = get(m.AfterDecl)
        for a in after:
            for eff in a.effects:
                self.check_effect(eff, in_end=False, after=True)
        comp = get(m.CompulsoryDecl)
        compulsory = ("maximum" if comp[-1].maximum else "any") if comp else None
        if not game and "game" not in self.broken_kinds:
            self.error(self.decls[0].span if self.decls else None,
                       "the ruleset has no title", 'add a line such as `game "My Game"`')
        if self.errors:
            raise RulesetError(self.errors, self.sources)
        if self.remembers:
            self.remembers = remembered_plies(plies, ends, after[-1].effects if after else [])
        for t in types:
            t.reserve = self.kinds[t.kind].reserve
        low = Lowering(board, self.regions, self.relations)
        return Ruleset(title, self.path, board, self.player_names, types, self.regions,
                       [low.var(v) for v in self.vars.values()], setup,
                       [low.ply(p) for p in plies], first, turn, [low.end(e) for e in ends],
                       self.sources, self.remembers, self.relations,
                       None if compulsory is None else ir.Compulsory(compulsory),
                       [low.effect(e) for e in (after[-1].effects if after else [])])

    def check_relation(self, r: m.RelationDecl) -> None:
        if r.name in FUNCTIONS:
            self.error(r.name_span, f"'{r.name}' is a built-in function")
            self.broken.add(r.name)
            return
        if not self.declare(r.name, "relation", r.name_span):
            return
        pairs = []
        for (a, sa), (b, sb) in r.pairs:
            for name, span in ((a, sa), (b, sb)):
                if name not in self.kinds:
                    self.error(span, f"unknown piece '{name}'", self.suggest(name, self.kinds))
            pairs.append((a, b))
        self.relations[r.name] = pairs

    def check_setup_board(self, d: m.SetupBoardDecl) -> dict[int, list[int]]:
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

    # ------------------------------------------------------------------ board
    def check_board(self, decls, removes, links, goals) -> boards.Board | None:
        if not decls:
            span = self.decls[0].span if self.decls else None
            self.error(span, "the ruleset declares no board", "add a line such as `board square 5 x 5`")
            return None
        d = decls[-1]
        try:
            board = boards.build(d.shape, d.width, d.height, [o for o, _ in d.options])
        except boards.BoardError as e:
            self.error(d.span, str(e))
            return None
        cells = []
        for r in removes:
            for name, span in r.cells:
                if name not in board.index:
                    self.error(span, f"cannot remove '{name}': no such cell",
                               self.suggest(name, board.index))
                else:
                    cells.append(board.index[name])
        if cells and len(set(cells)) == board.size:
            self.error(removes[-1].span, "this removes every cell of the board: none is left to play on")
            return None
        if cells:
            board = boards.remove_cells(board, cells)
        for link in links:
            ends = []
            for name, span in (link.a, link.b):
                if name not in board.index:
                    self.error(span, f"cannot link '{name}': no such cell",
                               self.suggest(name, board.index))
                else:
                    ends.append(board.index[name])
            if len(ends) == 2:
                if ends[0] == ends[1]:
                    self.error(link.span, "a link joins two different cells")
                else:
                    boards.add_link(board, *ends)
        for goal in goals:
            self.check_goal(board, goal)
        return board

    def check_goal(self, board: boards.Board, goal: m.GoalDecl) -> None:
        self.broken.add(goal.name)
        if goal.name in board.index:
            self.error(goal.name_span, f"goal '{goal.name}' has the name of a cell")
            return
        cells, ok = [], True
        for name, span in goal.cells:
            if name not in board.index or board.index[name] in board.goals:
                self.error(span, f"a goal is entered from a cell of the board; '{name}' is not one",
                           self.suggest(name, board.index))
                ok = False
            else:
                cells.append(board.index[name])
        lattice = [d for d in board.directions if d != boards.LINK]
        dirs = []
        for name, span in goal.dirs:
            resolved = board.resolve_dirs([name])
            if name not in lattice and name not in board.groups:
                self.error(span, f"a goal is entered by a direction of the board; this board has "
                                 f"no direction '{name}' (it has: {', '.join(lattice)})",
                           self.suggest(name, lattice))
                ok = False
                continue
            dirs += [d for d in resolved if d not in dirs]
        inside = [(c, d, board.neighbour(c, d)) for c in (cells if ok else []) for d in dirs
                  if board.neighbour(c, d) is not None]
        if inside:
            c, d, other = inside[0]
            self.error(goal.span, f"{board.names[c]} already has a neighbour to the {d} "
                                  f"({board.names[other]}); a goal is entered by a step "
                                  f"that leaves the board")
            ok = False
        if ok:
            boards.add_goal(board, goal.name, cells, dirs)
            self.broken.discard(goal.name)

    def check_players(self, decls):
        if not decls:
            span = self.decls[0].span if self.decls else None
            self.error(span, "the ruleset declares no players",
                       "add a line such as `players White, Black` (the first moves first)")
            return None
        names = decls[-1].names
        if len(names) != 2:
            self.error(decls[-1].span, f"rulecraft plays two-player games; this one names {len(names)}")
            return None
        return names

    # ------------------------------------------------------------------ pieces
    def check_pieces(self, decls) -> list[PieceType]:
        types: list[PieceType] = []
        symbols: dict[str, m.Span] = {}
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
            if len(d.symbols) != len(owners):
                want = "one symbol" if len(owners) == 1 else f"{len(owners)} symbols (one per player, e.g. `symbol R/r`)"
                self.error(d.name_span, f"piece '{d.name}' needs {want}")
                continue
            for (sym, span), owner in zip(d.symbols, owners):
                if len(sym) != 1 or sym in BAD_SYMBOLS or not sym.isprintable():
                    shown = sym if sym.isprintable() else sym.encode("unicode_escape").decode("ascii")
                    self.error(span, f"a symbol is one visible character other than . / # "
                                     f"(no space or control character); got '{shown[:20]}'")
                elif sym in symbols:
                    self.error(span, f"symbol '{sym}' is already used (line {symbols[sym].line})")
                else:
                    symbols[sym] = span
                types.append(PieceType(d.name, owner, sym, d.size))
        if not decls and "piece" not in self.broken_kinds:
            self.error(self.decls[0].span, "the ruleset declares no pieces")
        self.stack_types(types)
        return types

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

    # ------------------------------------------------------------------ static cell sets
    def static_cells(self, expr: m.Expr) -> frozenset[int] | None:
        """A cell set known without a position (cells, regions, set operators)."""
        t = self.typeof(expr, static=True)
        if t is None:
            return None
        if t != "cells":
            self.error(expr.span, f"expected a set of cells, found {TYPE_WORDS.get(t, t)}")
            return None
        return self.eval_static(expr)

    def eval_static(self, e: m.Expr) -> frozenset[int]:
        if isinstance(e, m.Name):
            kind, value = e.ref
            return frozenset([value]) if kind == "cell" else self.regions[value]
        if isinstance(e, m.BinOp):
            a, b = self.eval_static(e.left), self.eval_static(e.right)
            return {"|": a | b, "&": a & b, "-": a - b, "+": a | b}[e.op]
        if isinstance(e, m.Call) and e.func == "adjacent":
            src = self.eval_static(e.args[0])
            dirs = self.board.resolve_dirs(e.args[1].ref[1]) if len(e.args) > 1 else None
            return frozenset(n for c in src for n in self.board.neighbours(c, dirs))
        raise AssertionError(f"not static: {e}")

    def check_region(self, r: m.RegionDecl) -> None:
        if not self.declare(r.name, "region", r.name_span):
            return
        cells: set[int] = set()
        ok = True
        for item in r.items:
            value = self.static_cells(item)
            if value is None:
                ok = False
            else:
                cells |= value
        if ok:
            self.regions[r.name] = frozenset(cells)
        else:
            self.regions[r.name] = frozenset()

    # ------------------------------------------------------------------ setup
    def check_setup(self, decls) -> dict[int, list[int]]:
        setup: dict[int, list[int]] = {}
        taken_at: dict[int, dict[int, m.Span]] = {}  # per level
        rest: list[tuple[int, m.SetupDecl]] = []
        for d in decls:
            if d.piece not in self.kinds:
                self.error(d.piece_span, f"unknown piece '{d.piece}'", self.suggest(d.piece, self.kinds))
                continue
            kind = self.kinds[d.piece]
            if d.owner is not None:
                if d.owner[0] not in self.player_names:
                    self.error(d.owner[1], f"unknown player '{d.owner[0]}'",
                               self.suggest(d.owner[0], self.player_names))
                    continue
                owner = self.player_names.index(d.owner[0])
                tids = [i for i, t in enumerate(self.types) if t.kind == d.piece and t.owner == owner]
                if not tids:
                    self.error(d.owner[1], f"{d.owner[0]} has no '{d.piece}' pieces")
                    continue
            else:
                tids = [i for i, t in enumerate(self.types) if t.kind == d.piece]
                if len(tids) != 1:
                    if tids:
                        self.error(d.piece_span, f"every player has '{d.piece}' pieces: say whose",
                                   f"write `setup {d.piece} of {self.player_names[0]}: ...`")
                    continue
            tid = tids[0]
            if tid in setup or any(t == tid for t, _ in rest):
                self.error(d.piece_span, f"the setup of '{d.piece}' is given twice")
                continue
            if d.items is None:
                rest.append((tid, d))
                continue
            cells: set[int] = set()
            items = []
            for item in d.items:
                value = self.static_cells(item)
                if value is not None:
                    cells |= value
                    items.append(value)
            self.claim(d, cells, taken_at.setdefault(self.types[tid].level, {}))
            self.setup_spans[tid], self.setup_items[tid] = d.span, items
            if kind.size > 1 and len(cells) <= kind.size:
                self.check_placement(d, kind, cells)
            setup[tid] = sorted(cells)
        if len(rest) > 1:
            self.error(rest[1][1].span, "only one piece can fill 'all other cells'")
        for tid, d in rest[:1]:
            if self.kinds[d.piece].size > 1:
                self.error(d.span, "a piece covering several cells cannot fill 'all other cells'")
                continue
            taken = taken_at.get(self.types[tid].level, {})
            setup[tid] = [c for c in range(self.board.size)
                          if c not in taken and c not in self.board.goals]
        for tid, cells in setup.items():
            carrier = self.types[tid].carrier
            bare = [c for c in cells if carrier is not None and c not in setup.get(carrier, [])]
            if bare:
                d = next(x for x in decls if x.piece == self.types[tid].kind)
                self.error(d.span, f"a {self.types[tid].kind} stands on a {self.types[carrier].kind}; "
                                   f"{self.board.names[bare[0]]} has none")
        return setup

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

    def claim(self, d: m.SetupDecl, cells: set[int], taken: dict[int, m.Span]) -> None:
        for c in sorted(cells):
            if c in taken:
                self.error(d.span, f"cell {self.board.names[c]} is already set up "
                                   f"(line {taken[c].line})")
            else:
                taken[c] = d.span

    def check_placement(self, d: m.SetupDecl, kind: m.PieceDecl, cells: set[int]) -> None:
        if cells and frozenset(cells) not in {frozenset(p) for p in placements(self.board, kind.size)}:
            names = ", ".join(self.board.names[c] for c in sorted(cells))
            self.error(d.span, f"piece '{kind.name}' covers {kind.size} cells in a straight line; "
                               f"{names} is not such a placement",
                       f"list the {kind.size} cells one piece covers, e.g. `setup {kind.name}: "
                       f"{', '.join(self.board.names[:kind.size])}`")

    # ------------------------------------------------------------------ plies
    def check_dirs(self, dirs: list[tuple[str, m.Span]] | None, straight: bool = False) -> None:
        for name, span in dirs or []:
            if name not in self.board.directions and name not in self.board.groups:
                known = self.board.directions + list(self.board.groups)
                hint = self.suggest(name, known)
                b = self.board
                if b.shape == "square" and name in boards.SQUARE_GROUPS["diagonal"] + ["diagonal"]:
                    hint = (f"add `with diagonals` to the board declaration "
                            f"(`board square {b.width} x {b.height} with diagonals`)")
                self.error(span, f"unknown direction '{name}' (this board has: {', '.join(known)})",
                           hint)
            elif straight and name == boards.LINK:
                self.error(span, "a link has no direction, so no straight line follows it",
                           "move along links with `step link`")

    def check_one_size(self, p: m.PlyDecl) -> None:
        """`piece` in a ply selects kinds of one size: a ply names one placement table."""
        for player in range(len(self.players or [])):
            owners = {"own": [player], "opponent's": [1 - player]}.get(p.owner, [player, None])
            sizes = sorted({t.size for t in self.types if t.owner in owners})
            if len(sizes) > 1:
                self.error(p.kind_span, f"'piece' here means pieces covering {sizes[0]} and "
                                        f"{sizes[-1]} cells: one rule moves pieces of one size",
                           "write one rule per kind")
                return

    def check_ply(self, p: m.PlyDecl) -> None:
        self.placing = p.motion.kind == "place"
        try:
            self._check_ply(p)
        finally:
            self.placing = False

    def _check_ply(self, p: m.PlyDecl) -> None:
        construct = constructs.SYNTAX[p.motion.kind]
        if p.kind != "piece" and p.kind not in self.kinds:
            self.error(p.kind_span, f"unknown piece '{p.kind}'", self.suggest(p.kind, self.kinds))
        elif not construct.wide_pieces and any(
                self.kinds[k].size > 1 for k in ([p.kind] if p.kind != "piece" else self.kinds)):
            self.error(p.motion.span, f"pieces covering several cells move only `anywhere`; "
                                      f"'{p.motion.kind}' is not supported for them")
        elif p.kind == "piece":
            self.check_one_size(p)
        self.check_dirs(p.motion.dirs, straight=construct.straight)
        construct.check(p, self.error, self.board.size)
        if p.motion.limit is not None:
            self.expect(p.motion.limit, "number", ply=True, here=False)
        if p.onto is not None:
            self.expect(p.onto, "cells", ply=True)
        if p.where is not None:
            self.in_ply = True
            self.expect(p.where, "bool", ply=True)
            self.in_ply = False
        for eff in p.effects:
            self.check_effect(eff)

    def check_effect(self, eff: m.Effect, in_end: bool = False, after: bool = False) -> None:
        if eff.kind == "remove":
            if in_end or after:
                self.error(eff.span, "`remove` is an effect of plies only")
            else:
                self.expect(eff.value, "cells", ply=True)
            return
        if eff.guard is not None:
            self.expect(eff.guard, "bool", ply=not (in_end or after), captured=not in_end)
        if eff.kind != "assign":
            word = "reset setup" if eff.kind == "reset" else "turn to"
            if not in_end:
                self.error(eff.span, f"`{word}` is an effect of end rules only")
            elif eff.kind == "turn":
                self.expect(eff.player, "player", ply=False)
            return
        var = self.vars.get(eff.var)
        if var is None:
            self.error(eff.var_span, f"unknown variable '{eff.var}'", self.suggest(eff.var, self.vars))
            return
        if var.per_player and eff.index is None:
            self.error(eff.var_span, f"'{eff.var}' is kept per player: say whose",
                       f"write {eff.var}[mover]")
        elif not var.per_player and eff.index is not None:
            self.error(eff.index.span, f"'{eff.var}' is not kept per player: drop the [...]")
        elif eff.index is not None:
            self.expect(eff.index, "player", ply=not (in_end or after))
        self.expect(eff.value, "number", ply=not (in_end or after), captured=not in_end)

    def check_turn(self, t: m.TurnDecl, plies: dict[str, m.PlyDecl]) -> list[TurnPhase]:
        phases = []
        for ph in t.phases:
            names: list[str] = []
            allows_pass = False
            for name, span in ph.plies:
                if name == "any":
                    names.extend(n for n in plies if n not in names)
                elif name == "pass":
                    allows_pass = True
                elif name not in plies:
                    self.error(span, f"unknown ply '{name}'", self.suggest(name, plies))
                elif name not in names:
                    names.append(name)
            phases.append(TurnPhase(names, allows_pass, ph.when_possible))
        return phases

    def check_end(self, e: m.EndDecl) -> None:
        if e.player is not None:
            self.expect(e.player, "player", ply=False, stuck=True)
        self.expect(e.cond, "bool", ply=False, stuck=True)
        for eff in e.effects:
            self.check_effect(eff, in_end=True)

    # ------------------------------------------------------------------ expressions
    def expect(self, e: m.Expr, want: str, ply: bool, stuck: bool = False,
               here: bool = True, captured: bool = False) -> None:
        self.captured_ok = captured
        t = self.typeof(e, ply=ply, stuck=stuck, here=here)
        self.captured_ok = False
        if t is not None and t != want:
            self.error(e.span, f"expected {TYPE_WORDS[want]}, found {TYPE_WORDS.get(t, t)}")

    def typeof(self, e: m.Expr, static: bool = False, ply: bool = False,
               stuck: bool = False, here: bool = True) -> str | None:
        """Type `e` and its subexpressions (setting .type/.ref); None after an error."""
        t = self._typeof(e, static, ply, stuck, here)
        e.type = t
        return t

    def _typeof(self, e, static, ply, stuck, here_ok):
        sub = lambda x: self.typeof(x, static, ply, stuck, here_ok)  # noqa: E731
        if isinstance(e, m.Num):
            return "number"
        if isinstance(e, m.Name):
            return self.type_name(e, static)
        if isinstance(e, m.Keyword):
            w = e.word
            if w in ("here", "from") and not ply:
                self.error(e.span, f"'{w}' means a cell of the ply being made; it is used only in ply rules")
                return None
            if w == "from" and self.placing:
                self.error(e.span, "'from' is no cell in a `place` ply: the piece comes from the supply")
                return None
            if w == "path" and not ply:
                self.error(e.span, "'path' means the cells a ply passes; it is used only in ply rules")
                return None
            if w == "captured" and not self.captured_ok:
                self.error(e.span, "'captured' counts what a ply removed; it is used only in "
                                   "effects (`then`, `after each ply`)")
                return None
            if w == "here" and not here_ok:
                self.error(e.span, "'here' is not known yet: a distance is counted before the piece moves",
                           "use 'from', the cell it leaves")
                return None
            if w == "no legal ply" and not stuck:
                self.error(e.span, "'no legal ply' is used only in end rules")
                return None
            if static:
                self.error(e.span, f"'{w}' depends on the position; this needs a fixed set of cells")
                return None
            if w in ("last_from", "last_to"):
                self.remembers = True
            return {"empty": "cells", "here": "cells", "from": "cells", "path": "cells",
                    "last_from": "cells", "last_to": "cells",
                    "captured": "number", "mover": "player",
                    "opponent": "player", "next": "player", "no legal ply": "bool"}[w]
        if isinstance(e, m.Owned):
            if static:
                self.error(e.span, "pieces move; this needs a fixed set of cells (cells or regions)")
                return None
            if e.kind != "piece" and e.kind not in self.kinds:
                self.error(e.span, f"unknown piece '{e.kind}'", self.suggest(e.kind, self.kinds))
                return None
            return "cells"
        if isinstance(e, m.Index):
            var = self.vars.get(e.name)
            if var is None:
                self.error(e.span, f"unknown variable '{e.name}'", self.suggest(e.name, self.vars))
                return None
            if not var.per_player:
                self.error(e.span, f"'{e.name}' is not kept per player: drop the [...]")
                return None
            if static:
                self.error(e.span, "a variable changes during play; this needs a fixed set of cells")
                return None
            it = sub(e.index)
            if it is not None and it != "player":
                self.error(e.index.span, f"expected a player, found {TYPE_WORDS.get(it, it)}")
            return "number"
        if isinstance(e, m.Call):
            return self.type_call(e, sub)
        if isinstance(e, m.BinOp):
            a, b = sub(e.left), sub(e.right)
            if a is None or b is None:
                return None
            if e.op in ("&", "|"):
                want = "cells"
            elif e.op == "*":
                want = "number"
            else:
                want = a if a in ("number", "cells") else "number"
            for side, t in (("left", a), ("right", b)):
                if t != want:
                    self.error(e.span, f"'{e.op}' needs {TYPE_WORDS[want]} on both sides; "
                                       f"the {side} side is {TYPE_WORDS.get(t, t)}")
                    return None
            if e.op == "+" and want == "cells":
                self.error(e.span, "join sets of cells with '|', not '+'")
                return None
            return want
        if isinstance(e, m.Compare):
            a, b = sub(e.left), sub(e.right)
            if a is None or b is None:
                return None
            if e.op == "in" and (a != "cells" or b != "cells"):
                side = "left side" if a != "cells" else "right side"
                t = a if a != "cells" else b
                self.error(e.span, f"'in' asks whether cells lie in a set; the {side} is "
                                   f"{TYPE_WORDS.get(t, t)}")
                return None
            if a != b:
                self.error(e.span, f"cannot compare {TYPE_WORDS.get(a, a)} with {TYPE_WORDS.get(b, b)}")
                return None
            if e.op == "in":
                return "bool"
            if a != "number" and e.op not in ("==", "!="):
                self.error(e.span, f"'{e.op}' compares numbers; {TYPE_WORDS.get(a, a)} can only be "
                                   f"compared with == or !=")
                return None
            return "bool"
        if isinstance(e, m.BoolOp):
            ok = True
            for x in (e.left, e.right):
                t = sub(x)
                if t is not None and t != "bool":
                    self.error(x.span, f"'{e.op}' joins conditions; this is {TYPE_WORDS.get(t, t)}")
                ok = ok and t == "bool"
            return "bool" if ok else None
        if isinstance(e, m.Not):
            t = sub(e.operand)
            if t is not None and t != "bool":
                self.error(e.operand.span, f"'not' takes a condition; this is {TYPE_WORDS.get(t, t)}")
                return None
            return "bool" if t else None
        if isinstance(e, m.Negate):
            t = sub(e.operand)
            if t is not None and t != "number":
                self.error(e.span, f"'-' takes a number; this is {TYPE_WORDS.get(t, t)}")
                return None
            return "number" if t else None
        raise AssertionError(e)

    def type_name(self, e: m.Name, static: bool) -> str | None:
        entry = self.names.get(e.name)
        if entry is None and e.name in self.broken:
            return None
        if entry is None and re.fullmatch(r"[A-Za-z]+[0-9]+", e.name):
            first, last = self.board.names[0], self.board.names[-1]
            self.error(e.span, f"no cell '{e.name}' on this board (cells {first} to {last})",
                       self.suggest(e.name, self.names))
            return None
        if entry is None and e.name in boards.SQUARE_DIRS.keys() | boards.SQUARE_GROUPS.keys():
            self.check_dirs([(e.name, e.span)])  # a direction this board lacks: say how to add it
            return None
        if entry is None:
            from .parse import expression_keywords  # the grammar's own words: empty, here, ...
            # Declared names (pieces, regions, variables, players, relations, directions,
            # goals), cells, and the keywords that are values of their own.
            self.error(e.span, f"unknown name '{e.name}'",
                       self.suggest(e.name, [n for n, (c, _) in self.names.items() if c != "cell"]
                                    + list(self.board.index) + list(expression_keywords())))
            return None
        category = entry[0]
        if category == "cell":
            e.ref = ("cell", self.board.index[e.name])
            return "cells"
        if category == "region":
            if e.name in self.builtin_regions:  # in the ruleset only once used
                self.regions.setdefault(e.name, self.builtin_regions[e.name])
            if e.name not in self.regions:
                self.error(e.span, f"region '{e.name}' is used before it is declared")
                return None
            e.ref = ("region", e.name)
            return "cells"
        if category == "player":
            if static:
                self.error(e.span, f"'{e.name}' is a player; this needs a set of cells")
                return None
            e.ref = ("player", self.player_names.index(e.name))
            return "player"
        if category == "piece kind":
            if static:
                self.error(e.span, "pieces move; this needs a fixed set of cells (cells or regions)")
                return None
            e.ref = ("kind", e.name)
            return "cells"
        if category == "variable":
            var = self.vars.get(e.name)
            if var is None:
                return None
            if var.per_player:
                self.error(e.span, f"'{e.name}' is kept per player: say whose",
                           f"write {e.name}[mover] or {e.name}[{self.player_names[0]}]")
                return None
            if static:
                self.error(e.span, "a variable changes during play; this needs a fixed set of cells")
                return None
            e.ref = ("var", e.name)
            return "number"
        if category == "direction":
            e.ref = ("dirs", self.board.resolve_dirs([e.name]))
            return "dirs"
        if category == "relation":
            self.error(e.span, f"'{e.name}' is a relation: it takes a set of cells",
                       f"write {e.name}(CELLS)")
            return None
        raise AssertionError(category)

    def type_ply_names(self, e: m.Call, result: str) -> str | None:
        """undoes(PLY, ...) and last_ply(PLY, ...): the arguments name ply rules, not values."""
        if e.func == "undoes" and not self.in_ply:
            self.error(e.span, f"{e.func}() compares a ply with the one before it; it is used "
                               f"only in a ply's `where`")
            return None
        if not e.args and e.func == "undoes":
            self.error(e.span, f"{e.func}() names the plies it looks back at, e.g. {e.func}(slide)")
            return None
        self.remembers = True
        ok = True
        names = self.ply_names + (["pass"] if e.func == "last_ply" else [])
        for arg in e.args:
            if not isinstance(arg, m.Name) or arg.name not in names:
                what = f"'{arg.name}'" if isinstance(arg, m.Name) else "this"
                self.error(arg.span, f"{e.func}() takes ply names; {what} is not a ply",
                           self.suggest(arg.name, names) if isinstance(arg, m.Name) else None)
                ok = False
            else:
                arg.ref, arg.type = ("ply", arg.name), "ply"
        return result if ok else None

    def type_call(self, e: m.Call, sub) -> str | None:
        if e.func in self.relations:
            if len(e.args) != 1:
                self.error(e.span, f"{e.func}() takes 1 argument, given {len(e.args)}")
                return None
            t = sub(e.args[0])
            if t is not None and t != "cells":
                self.error(e.args[0].span, f"{e.func}() expects a set of cells here, found "
                                           f"{TYPE_WORDS.get(t, t)}")
                return None
            return "cells" if t else None
        if e.func in self.broken and e.func not in self.relations:
            return None
        if e.func not in FUNCTIONS:
            self.error(e.span, f"unknown function '{e.func}' (known: {', '.join(FUNCTIONS)})",
                       self.suggest(e.func, FUNCTIONS))
            return None
        params, result = FUNCTIONS[e.func]
        if params in (["ply+"], ["ply*"]):
            return self.type_ply_names(e, result)
        if e.func == "line" and len(e.args) == 4:
            flag = e.args[3]
            if not isinstance(flag, m.Name) or flag.name != "contiguous":
                self.error(flag.span, "line() takes `contiguous` as its fourth argument, or nothing")
                return None
            flag.type, flag.ref = "flag", ("flag", "contiguous")
        required = [p for p in params if not p.endswith("?")]
        if not len(required) <= len(e.args) <= len(params):
            count = str(len(params)) if len(required) == len(params) else f"{len(required)} or {len(params)}"
            self.error(e.span, f"{e.func}() takes {count} argument{'s' if params != ['cells'] else ''}, "
                               f"given {len(e.args)}")
            return None
        if e.func == "in_a_row" and not (isinstance(e.args[0], m.Num)
                                         and 1 <= e.args[0].value <= self.board.size):
            self.error(e.args[0].span, f"in_a_row() needs a fixed length from 1 to {self.board.size}")
            return None
        ok = True
        for arg, want in zip(e.args, params):
            want = want.rstrip("?")
            if want == "flag":  # a keyword argument, checked above
                continue
            t = sub(arg)
            if t is None:
                ok = False
            elif t != want:
                self.error(arg.span, f"{e.func}() expects {TYPE_WORDS[want]} here, found {TYPE_WORDS.get(t, t)}")
                ok = False
        return result if ok else None


def cells_of_mask(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


def check(decls: list[m.Decl], path: str, sources: dict[str, str],
          broken: tuple[tuple[str, str], ...] = ()) -> Ruleset:
    """Check merged declarations; raises RulesetError listing every problem.

    `broken`: the keys of declarations that had syntax errors (parse.ParsedSource.broken),
    so that what follows from their absence is not reported.
    """
    return _Checker(decls, path, sources, broken).run()
