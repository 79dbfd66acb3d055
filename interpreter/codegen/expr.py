"""The model's expressions -> a back-end's expressions: one walk, for both back-ends.

`Expressions` reads each node of the model once (what it means: which piece types,
which state slot, which table) and asks its subclass, a back-end's writer, only for
syntax: how a number, a union of sets, a comparison or a helper's call is written.
Subexpressions that do not change inside a loop are hoisted above it (`Ctx.hoist`).
"""

from __future__ import annotations

from dataclasses import replace

from dsl import model
from dsl.constructs import functions
from dsl.model import Ruleset, Word

from interpreter.codegen.context import KIND_OF_TYPE, Ctx, deps
from interpreter.runtime.layout import Layout
from interpreter.runtime.tables import Tables

# what may be computed once above a loop (leaves are as cheap as their local)
_HOISTED = (model.Call, model.Relate, model.Binary, model.Pieces, model.Compare, model.BoolOp, model.Not,
            model.VarRead, model.Amount, model.RegionOf)


class Expressions:
    """Compiles the expressions of one ruleset; tables and constants go to `out`."""

    ZERO = ""  # the empty set of cells

    def __init__(self, rs: Ruleset, tables: Tables, layout: Layout, out):
        self.rs, self.t, self.L, self.out = rs, tables, layout, out

    def deps(self, e: model.Expr) -> set[str]:
        """What `e` reads (writer_base.deps)."""
        return deps(e)

    def expr(self, e: model.Expr, cx: Ctx) -> str:
        """Source of `e`: a local computed above the loop where `cx` hoists and `e` does not
        change inside it."""
        if cx.hoist is not None and isinstance(e, _HOISTED):
            d = deps(e)
            if not d & cx.hoist.inner:
                code = self._expr(e, replace(cx, hoist=None))
                return cx.hoist.local(code, "piece" if "from" in d else "outer", KIND_OF_TYPE.get(e.type, "num"))
        return self._expr(e, cx)

    def _expr(self, e: model.Expr, cx: Ctx) -> str:
        if isinstance(e, model.Num):
            return self.number(int(e.value))
        if isinstance(e, model.Player):
            return str(int(e.index))
        if isinstance(e, model.Cells):
            return self.mask_const(e.mask)
        if isinstance(e, model.Ref):
            return self.word(e.word, cx)
        if isinstance(e, model.Pieces):
            return self.types_union(self.types_of(e, cx), cx.s)
        if isinstance(e, model.VarRead):
            return self.var_slot(e.var, e.index, cx)
        if isinstance(e, model.RegionOf):  # a table by player, or its row where the player is known
            idx = self.expr(e.player, cx)
            if idx.isdigit():
                return self.mask_const(e.masks[int(idx)])
            return f"{self.masks(('region_of', e.masks), list(e.masks), 'REGION')}[{idx}]"
        if isinstance(e, model.Amount):
            cells = self.expr(e.cells, cx)
            parts = [self.amount(cx.s, t, cells) for t in self.rs.types_of(e.kind)]
            out = parts[0]
            for part in parts[1:]:
                out = self.arith("+", out, part)
            return out
        if isinstance(e, model.Relate):
            pairs = tuple((tuple(self.rs.types_of(a)), tuple(self.rs.types_of(b))) for a, b in e.pairs)
            return self.relate(e.relation, pairs, self.expr(e.arg, cx), cx.s)
        if isinstance(e, model.Call):
            return functions.emit(self, e, cx)
        if isinstance(e, model.Binary):
            a, b = self.expr(e.left, cx), self.expr(e.right, cx)
            if e.type is model.Type.CELLS:
                return {"&": self.and_, "|": self.or_, "-": self.andn}[e.op](a, b)
            return self.arith(e.op, a, b)
        if isinstance(e, model.Compare):
            a, b = self.expr(e.left, cx), self.expr(e.right, cx)
            if e.op == "in":
                return self.within(a, b)
            if e.left.type is model.Type.CELLS:
                return self.eq(a, b) if e.op == "==" else f"({self.not_(self.eq(a, b))})"
            return self.arith(e.op, a, b)
        if isinstance(e, model.BoolOp):
            a, b = self.expr(e.left, cx), self.expr(e.right, cx)
            return self.all_(a, b) if e.op == "and" else self.any_of(a, b)
        if isinstance(e, model.Not):
            return f"({self.not_(self.expr(e.operand, cx))})"
        if isinstance(e, model.Negate):
            return self.negate(self.expr(e.operand, cx))
        raise AssertionError(e)

    def word(self, w: Word, cx: Ctx) -> str:
        s = cx.s
        if w is Word.EMPTY:
            return self.andn(self.full(), self.occ(s))
        if w is Word.NEXT:
            return str(cx.mover) if cx.next_is_mover else self.player(s)
        if w is Word.LAST_FROM or w is Word.LAST_TO:
            return self.slot(s, self.L.memory + (1 if w is Word.LAST_FROM else 2))
        return {Word.HERE: cx.here, Word.FROM: cx.frm, Word.MOVER: str(cx.mover),
                Word.OPPONENT: str(1 - cx.mover), Word.STUCK: cx.stuck, Word.PATH: cx.path or self.ZERO,
                Word.CAPTURED: "captured"}[w]

    def types_of(self, e: model.Pieces, cx: Ctx) -> list[int]:
        """The piece types a selection means where it is compiled (`own`: the mover's)."""
        if e.player is not None:
            return self.rs.types_of(e.kind, e.player)
        if e.owner is model.Owner.OWN or e.owner is model.Owner.OPPONENT:
            return self.rs.selected(e.kind, e.owner, cx.mover)
        return self.rs.types_of(e.kind)

    def track_tables(self, name: str) -> tuple[str, str, int]:
        """A track's tables: its cells in order, each cell's place on it (-1: off it), its length."""
        cells = self.rs.tracks[name]
        at = [-1] * self.rs.board.size
        for i, c in enumerate(cells):
            at[c] = i
        return (self.ints(("track", cells), list(cells), "TRACK"),
                self.ints(("track_at", cells), at, "TRACK_AT"), len(cells))

    def var_slot(self, var: str, index: model.Expr | None, cx: Ctx) -> str:
        """The state slot of a variable (the indexed player's, for a per-player one)."""
        base = self.L.var_offsets[var]
        if index is None:
            return self.slot(cx.s, base)
        idx = self.expr(index, cx)
        return self.slot(cx.s, base + int(idx)) if idx.isdigit() else self.slot_plus(cx.s, base, idx)

    def previous_index(self, name: str) -> int:
        """How the previous ply's rule is remembered: 1 + its index, or 1 + the rule count for a pass."""
        names = [p.name for p in self.rs.plies]
        return 1 + (names.index(name) if name in names else len(names))

    def occ(self, s: str) -> str:
        """The occupied cells of state `s`."""
        return self.types_union(list(range(self.L.types)), s)

    # ------------------------------------------------------------ syntax (subclasses)
    def number(self, value: int) -> str: raise NotImplementedError
    def mask_const(self, mask: int) -> str: raise NotImplementedError  # a set of cells, as a constant
    def full(self) -> str: raise NotImplementedError  # every cell
    def player(self, s: str) -> str: raise NotImplementedError  # the player to move in s
    def slot(self, s: str, index: int) -> str: raise NotImplementedError  # a layout slot of s
    def slot_plus(self, s: str, base: int, offset: str) -> str: raise NotImplementedError
    def amount(self, s: str, t: int, cells: str) -> str: raise NotImplementedError  # a counted type's pieces on cells
    def holding(self, s: str, t: int, low: str, high: str) -> str: raise NotImplementedError  # its cells holding low..high
    def types_union(self, types: list[int], s: str) -> str: raise NotImplementedError
    def relate(self, name: str, pairs: tuple, cells: str, s: str) -> str: raise NotImplementedError
    def and_(self, a: str, b: str) -> str: raise NotImplementedError
    def or_(self, a: str, b: str) -> str: raise NotImplementedError
    def andn(self, a: str, b: str) -> str: raise NotImplementedError  # a without b
    def eq(self, a: str, b: str) -> str: raise NotImplementedError  # two sets are equal
    def within(self, a: str, b: str) -> str: raise NotImplementedError  # a not empty, inside b
    def arith(self, op: str, a: str, b: str) -> str: raise NotImplementedError  # numbers: + - * < == ...
    def negate(self, a: str) -> str: raise NotImplementedError
    def not_(self, cond: str) -> str: raise NotImplementedError
    def all_(self, *conds: str) -> str: raise NotImplementedError
    def any_of(self, *conds: str) -> str: raise NotImplementedError
    def one_of(self, value: str, choices: list[int]) -> str: raise NotImplementedError
    def count(self, a: str) -> str: raise NotImplementedError  # how many cells
    def cell_of(self, one: str, known: str | None = None) -> str:
        """The index of the cell of the one-cell set `one` (`known`: a local holding it)."""
        raise NotImplementedError
    def adj(self, dirs: tuple[str, ...] | list[str] | None) -> str: raise NotImplementedError
    def call(self, helper: str, *args: str) -> str: raise NotImplementedError  # a runtime helper
    def points(self, e: model.Expr, cx: Ctx) -> str: raise NotImplementedError  # cells, for `closer`
    def mask_list(self, key: tuple, masks: list[int], prefix: str) -> str: raise NotImplementedError
    def mask_rows(self, key: tuple, rows: list[list[int]], prefix: str) -> str: raise NotImplementedError
