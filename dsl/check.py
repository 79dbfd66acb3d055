"""Semantic checks: a merged list of declarations -> a checked `Ruleset`, or every error at once.

The checks are layered, one module each: check_state (names, errors), check_board,
check_exprs (typing), check_pieces (pieces, setup), check_rules (plies, turn, ends).
This module runs them in order, which is the order errors are reported in.
"""

from __future__ import annotations

from dsl import board as boards
from dsl import model
from dsl import syntax as syn
from dsl.check_exprs import FUNCTIONS, TYPE_WORDS
from dsl.check_pieces import BAD_SYMBOLS, MAX_PIECE_SIZE, PieceChecks, cells_of_mask
from dsl.check_ranges import range_errors
from dsl.lint import lint
from dsl.check_rules import RuleChecks
from dsl.check_state import RESERVED_NAMES
from dsl.diagnostics import RulesetError
from dsl.model import Ruleset
from dsl.lower import Lowering
from dsl.memory import remembered_plies

# The public names: those of the modules the checker was split into are imported, so that
# code importing them from here finds them as before.
__all__ = ["BAD_SYMBOLS", "FUNCTIONS", "MAX_PIECE_SIZE", "RESERVED_NAMES", "TEXT_FIELDS", "TYPE_WORDS",
           "Ruleset", "cells_of_mask", "check"]

TEXT_FIELDS = ("ply", "turn", "result", "previous")  # keys of a position's text besides variables


class _Checker(PieceChecks, RuleChecks):
    def run(self) -> Ruleset:
        """Check every declaration, in the order errors are reported in; lower the result."""
        by_type: dict[type, list[syn.Decl]] = {}
        for d in self.decls:
            by_type.setdefault(type(d), []).append(d)
        get = lambda cls: by_type.get(cls, [])  # noqa: E731

        board = self.check_board(get(syn.BoardDecl), get(syn.RemoveDecl), get(syn.LinkDecl),
                                 get(syn.GoalDecl))
        players = self.check_players(get(syn.PlayersDecl))
        if board is None or players is None:
            raise RulesetError(self.errors, self.sources)
        self.declare_board_and_players(board, players)
        self.relative = self.check_directions(get(syn.DirectionDecl))
        # Known before anything is typed: last_ply(...) may be misused before the plies.
        self.ply_names = [p.name for p in get(syn.PlyDecl)]
        self.types = self.check_pieces(get(syn.PieceDecl))
        self.check_regions_and_vars(get(syn.RegionDecl), get(syn.VarDecl))
        for r in get(syn.RelationDecl):
            self.check_relation(r)
        setup = self.check_all_setup(get(syn.SetupBoardDecl), get(syn.SetupDecl))
        self.tracks = self.check_tracks(get(syn.TrackDecl))
        plies = get(syn.PlyDecl)
        ply_names = self.check_plies(plies)
        first, turn = self.check_turns(get(syn.TurnDecl), ply_names)
        ends, after = get(syn.EndDecl), get(syn.AfterDecl)
        self.check_ends(ends)
        self.check_after(after)
        game = get(syn.GameDecl)
        if not game and "game" not in self.broken_kinds:
            self.error(self.decls[0].span if self.decls else None,
                       "the ruleset has no title", 'add a line such as `game "My Game"`')
        if self.errors or self.broken_kinds:
            # A declaration with a syntax error is missing: the model is not made (the
            # loader reports the syntax errors; uses of its names were left untyped).
            raise RulesetError(self.errors, self.sources)

        after_effects = after[-1].effects if after else []
        if self.remembers:
            self.remembers = remembered_plies(plies, ends, after_effects)
        for t in self.types:
            t.reserve = self.kinds[t.kind].reserve
        comp = get(syn.CompulsoryDecl)
        compulsory = model.Compulsory("maximum" if comp[-1].maximum else "any") if comp else None
        counts = self.setup_counts(setup)
        low = Lowering(board, self.regions, self.relations, self.typed, self.refs, self.player_names,
                       self.relative, frozenset(k for k, d in self.kinds.items() if d.counted),
                       self.player_regions)
        rs = Ruleset(game[-1].title if game else "", self.path, board, self.player_names, self.types,
                       self.regions, [low.var(v) for v in self.vars.values()], setup,
                       [low.ply(p) for p in plies], first, turn, [low.end(e) for e in ends],
                       self.sources, self.remembers, self.relations, compulsory,
                       [low.effect(e) for e in after_effects])
        rs.counts, rs.tracks, rs.player_regions = counts, self.tracks, self.player_regions
        overflows = range_errors(rs)
        if overflows:
            raise RulesetError(overflows, self.sources)
        rs.warnings = lint(rs)
        return rs

    def declare_board_and_players(self, board: boards.Board, players: list[tuple[str, syn.Span]]) -> None:
        """The names the board and the players bring: cells, directions, players, and the
        ranks, files and rows (regions unless a declaration takes the name)."""
        self.board, self.players = board, players
        for name in board.names:
            self.names[name] = ("cell", None)
        for d in board.directions + list(board.groups):
            self.names.setdefault(d, ("direction", None))
        for p, span in players:
            self.declare(p, "player", span)
        taken = {getattr(d, "name", None) for d in self.decls}
        self.builtin_regions = {k: v for k, v in board.builtin_regions().items()
                                if k not in taken and k not in self.names}
        for name in self.builtin_regions:
            self.names[name] = ("region", None)
        self.player_names = [p for p, _ in players]

    # ------------------------------------------------------------------ regions, variables, relations
    def check_regions_and_vars(self, regions: list[syn.RegionDecl], variables: list[syn.VarDecl]) -> None:
        self.regions = {}
        # Known before the regions, so that a region naming one is told it cannot.
        self.vars = {v.name: v for v in variables}
        for r in regions:
            self.check_region(r)
        self.vars = {}
        for v in variables:
            if self.declare(v.name, "variable", v.name_span):
                self.vars[v.name] = v
                self.check_var(v)

    def check_region(self, r: syn.RegionDecl) -> None:
        if r.per_player:
            self.check_player_region(r)
            return
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

    def check_player_region(self, r: syn.RegionDecl) -> None:
        """`region NAME: A / B`: a set of cells for each player, read as NAME[PLAYER]."""
        if not self.declare(r.name, "player region", r.name_span):
            return
        n = len(self.player_names)
        if len(r.per_player) != n:
            self.error(r.span, f"region '{r.name}' needs one set of cells for each of the {n} players, "
                               f"separated by /, found {len(r.per_player)}")
        masks = []
        for items in r.per_player[:n]:
            cells: frozenset[int] = frozenset()
            for item in items:
                cells |= self.static_cells(item) or frozenset()
            masks.append(sum(1 << c for c in cells))
        self.player_regions[r.name] = tuple(masks + [0] * (n - len(masks)))

    def check_var(self, v: syn.VarDecl) -> None:
        if v.name in TEXT_FIELDS:
            self.error(v.name_span, f"'{v.name}' is a field of a position's text "
                                    f"({', '.join(f + '=' for f in TEXT_FIELDS)}); a variable "
                                    f"needs another name")
        if v.low > v.high:
            self.error(v.span, f"the range of '{v.name}' is empty: {v.low} is more than {v.high}",
                       f"write `in {v.high}..{v.low}`")
        elif not v.low <= v.initial <= v.high:
            self.error(v.span, f"'{v.name}' starts at {v.initial}, outside its range {v.low}..{v.high}")

    def check_tracks(self, decls: list[syn.TrackDecl]) -> dict[str, tuple[int, ...]]:
        """`track NAME: cells`: a loop of distinct cells of the board, two or more."""
        tracks: dict[str, tuple[int, ...]] = {}
        for d in decls:
            if not self.declare(d.name, "track", d.name_span):
                continue
            cells: list[int] = []
            for name, span in d.cells:
                if name not in self.board.index:
                    self.error(span, f"no cell '{name}' on this board", self.suggest(name, self.board.index))
                elif self.board.index[name] in cells:
                    self.error(span, f"cell {name} is already on track '{d.name}': a track passes each "
                                     f"cell once")
                else:
                    cells.append(self.board.index[name])
            if len(d.cells) < 2:
                self.error(d.span, f"track '{d.name}' needs two cells or more")
            tracks[d.name] = tuple(cells)
        return tracks

    def check_relation(self, r: syn.RelationDecl) -> None:
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


def check(decls: list[syn.Decl], path: str, sources: dict[str, str],
          broken: tuple[tuple[str, str], ...] = ()) -> Ruleset:
    """Check merged declarations; raises RulesetError listing every problem.

    `broken`: the keys of declarations that had syntax errors (parse.ParsedSource.broken),
    so that what follows from their absence is not reported.
    """
    return _Checker(decls, path, sources, broken).run()
