"""Model expressions -> C expressions over a state `S` (masks `M`, 64-bit counters).

Cells are `M` values, numbers `int64_t`, players and booleans `int`. The C mirrors the
Python back-end's expressions (pyexpr, functions.emit_python) term for term, so the
two back-ends compute the same thing; what Python hoists out of loops the C compiler
is left to hoist.
"""

from __future__ import annotations

from dataclasses import dataclass

from dsl import model
from dsl.constructs import functions
from dsl.model import Ruleset, Word

from interpreter.runtime.layout import Layout
from interpreter.python.pyexpr import deps
from interpreter.runtime.tables import Tables
from interpreter.native.csource import CSource

CELLS_OP = {"&": "m_and", "|": "m_or", "-": "m_andn"}


@dataclass
class CCtx:
    """What an expression may refer to where it is compiled (C names of locals)."""

    s: str  # a pointer to the state
    mover: int
    here: str | None = None
    frm: str | None = None
    stuck: str | None = None
    next_is_mover: bool = True
    path: str = "m_zero()"
    single: bool = False  # here and from are single cells (table lookups work on them)
    here_cell: str | None = None  # the int local naming here's cell, where there is one
    adj_path: dict | None = None  # directions -> the local kept as adjacent(path) grows
    hoisted: dict | None = None  # id of a subexpression -> the local computed before the loop


class CExpr:
    """Compiles expressions of one ruleset; tables go to `out`'s declarations."""

    def __init__(self, rs: Ruleset, tables: Tables, layout: Layout, out: CSource):
        self.rs, self.t, self.L, self.out = rs, tables, layout, out
        cells = layout.cell_slots()
        self.cell_index = {slot: k for k, slot in enumerate(cells)}
        self.int_index = {s.index: j for j, s in enumerate(x for x in layout.slots if not x.kind.holds_cells)}

    # ------------------------------------------------------------ state slots
    def slot(self, s: str, index: int) -> str:
        """The C lvalue of layout slot `index` in state pointer `s`."""
        if index in self.cell_index:
            return f"{s}->c[{self.cell_index[index]}]"
        return f"{s}->v[{self.int_index[index]}]"

    def P(self, s: str) -> str:
        return self.slot(s, self.L.P)

    def PH(self, s: str) -> str:
        return self.slot(s, self.L.PH)

    def OUT(self, s: str) -> str:
        return self.slot(s, self.L.OUT)

    # ------------------------------------------------------------ tables
    def adj(self, dirs) -> str:
        key = None if dirs is None else tuple(dirs)
        return self.out.mask_table(("adj", key), self.t.adjacency(None if dirs is None else list(dirs)), "ADJ")

    def occ(self, s: str) -> str:
        return self.types_expr(list(range(self.L.types)), s)

    def types_expr(self, types: list[int], s: str) -> str:
        """The union of the masks of `types` in state `s`."""
        if not types:
            return "m_zero()"
        out = f"{s}->c[{types[0]}]"
        for i in types[1:]:
            out = f"m_or({out}, {s}->c[{i}])"
        return out

    def deps(self, e: model.Expr) -> set[str]:
        """What `e` reads (pyexpr.deps)."""
        return deps(e)

    def rays(self, dirs: list[str]) -> "Rays":
        return rays(self, dirs)

    def types_table(self, types: list[int]) -> tuple[str, int]:
        return self.out.int_table(("types", tuple(types)), types, "TY"), len(types)

    # ------------------------------------------------------------ expressions
    def expr(self, e: model.Expr, cx: CCtx) -> str:
        """Source of `e` as a C expression."""
        s = cx.s
        if cx.hoisted and id(e) in cx.hoisted:
            return cx.hoisted[id(e)]
        if isinstance(e, model.Num):
            return f"((int64_t){int(e.value)})"
        if isinstance(e, model.Player):
            return str(int(e.index))
        if isinstance(e, model.Cells):
            return self.out.mask_const(e.mask)
        if isinstance(e, model.Ref):
            return self.word(e.word, cx)
        if isinstance(e, model.Pieces):
            owner = {model.Owner.OWN: cx.mover, model.Owner.OPPONENT: 1 - cx.mover}.get(e.owner, "any")
            return self.types_expr(self.rs.types_of(e.kind, owner), s)
        if isinstance(e, model.VarRead):
            return self.var_slot(e.var, e.index, cx)
        if isinstance(e, model.Relate):
            return self._relate(e, cx)
        if isinstance(e, model.Call):
            return functions.emit_c(self, e, cx)
        if isinstance(e, model.Binary):
            a, b = self.expr(e.left, cx), self.expr(e.right, cx)
            if e.type is model.Type.CELLS:
                return f"{CELLS_OP[e.op]}({a}, {b})"
            return f"((int64_t)({a}) {e.op} (int64_t)({b}))"
        if isinstance(e, model.Compare):
            a, b = self.expr(e.left, cx), self.expr(e.right, cx)
            if e.op == "in":
                return f"m_within({a}, {b})"
            if e.left.type is model.Type.CELLS:
                return f"({'' if e.op == '==' else '!'}m_eq({a}, {b}))"
            return f"((int64_t)({a}) {e.op} (int64_t)({b}))"
        if isinstance(e, model.BoolOp):
            op = "&&" if e.op == "and" else "||"
            return f"({self.expr(e.left, cx)} {op} {self.expr(e.right, cx)})"
        if isinstance(e, model.Not):
            return f"(!{self.expr(e.operand, cx)})"
        if isinstance(e, model.Negate):
            return f"(-(int64_t)({self.expr(e.operand, cx)}))"
        raise AssertionError(e)

    def word(self, w: Word, cx: CCtx) -> str:
        s = cx.s
        if w is Word.EMPTY:
            return f"m_andn({self.out.mask_const(self.t.full)}, {self.occ(s)})"
        if w is Word.NEXT:
            return str(cx.mover) if cx.next_is_mover else f"(int){self.P(s)}"
        if w is Word.LAST_FROM or w is Word.LAST_TO:
            return self.slot(s, self.L.memory + (1 if w is Word.LAST_FROM else 2))
        return {Word.HERE: cx.here, Word.FROM: cx.frm, Word.MOVER: str(cx.mover),
                Word.OPPONENT: str(1 - cx.mover), Word.STUCK: cx.stuck, Word.PATH: cx.path,
                Word.CAPTURED: "captured"}[w]

    def var_slot(self, var: str, index: model.Expr | None, cx: CCtx) -> str:
        """The C lvalue of a variable (the indexed player's, for a per-player one)."""
        base = self.int_index[self.L.var_offsets[var]]
        if index is None:
            return f"{cx.s}->v[{base}]"
        idx = self.expr(index, cx)
        return f"{cx.s}->v[{base + int(idx)}]" if idx.isdigit() else f"{cx.s}->v[{base} + ({idx})]"

    def _relate(self, e: model.Relate, cx: CCtx) -> str:
        """`_relate`: the cells of the pieces that the pieces on the cells relate to."""
        pairs = tuple((tuple(self.rs.types_of(a)), tuple(self.rs.types_of(b))) for a, b in e.pairs)
        name = self.out.named(("relation", e.relation, pairs), "REL", lambda n: self._relate_fn(n, pairs))
        return f"{name}({cx.s}, {self.expr(e.arg, cx)})"

    def _relate_fn(self, name: str, pairs) -> str:
        body = [f"static inline M {name}(const S *s, M cells) {{", "    M out = m_zero();"]
        for src, dst in pairs:
            test = " || ".join(f"m_any(m_and(s->c[{i}], cells))" for i in src) or "0"
            adds = "".join(f" out = m_or(out, s->c[{i}]);" for i in dst)
            body.append(f"    if ({test}) {{{adds} }}")
        body += ["    return out;", "}"]
        return "\n".join(body)

    def previous_index(self, name: str) -> int:
        """How the previous ply's rule is remembered (as the Python back-end does)."""
        names = [p.name for p in self.rs.plies]
        return 1 + (names.index(name) if name in names else len(names))


@dataclass(frozen=True)
class Rays:
    """The straight lines from every cell along some directions, as C tables: direction
    di's cells from cell c are flat[di][off[di][c] .. off[di][c + 1])."""

    flat: str
    off: str
    count: int


def rays(c: CExpr, dirs: list[str]) -> Rays:
    flats, offs = [], []
    for d in dirs:
        f, o = c.out.ragged(("ray", d), c.t.rays(d), "RAY")
        flats.append(f)
        offs.append(o)
    key = tuple(dirs)
    flat = c.out.named(("rayf", key), "RF", lambda n: f"static const int *const {n}[] = {{{', '.join(flats) or '0'}}};")
    off = c.out.named(("rayo", key), "RO", lambda n: f"static const int *const {n}[] = {{{', '.join(offs) or '0'}}};")
    return Rays(flat, off, len(dirs))
