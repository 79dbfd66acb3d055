"""One ply rule for one player -> its C move generators and apply function.

`CRuleGen` is the C twin of pyrules.RuleGen: what every motion shares (the piece
types, the target set, the condition, the removals, the one way a candidate becomes
a ply). The motion's construct writes the loops (`emit_c_moves`, `emit_c_apply`), in
the same order as its Python, so both back-ends list the same plies in the same order.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from dsl import model
from dsl.constructs import MotionConstruct, motion_construct
from dsl.model import Word

from interpreter.runtime import limits
from interpreter.python.pyapply import opponents_only
from interpreter.python.pyrules import closer_targets, path_adjacencies
from interpreter.python.pysource import Sink
from interpreter.native import capply
from interpreter.native.cexpr import CCtx, CExpr


# what a ply's candidates of one piece differ by (the rest: the state, the piece's cell)
_PER_CANDIDATE = (Word.HERE, Word.PATH, Word.CAPTURED, Word.STUCK)


def per_piece_parts(ply: model.Ply) -> list[model.Expr]:
    """The largest subexpressions of the removals that are sets of cells computed from the
    state and `from` alone, beyond a plain read: the same for every candidate of a piece."""
    out: list[model.Expr] = []

    def visit(e: model.Expr) -> None:
        plain = isinstance(e, (model.Ref, model.Cells, model.Pieces, model.Num, model.Player, model.VarRead))
        if e.type is model.Type.CELLS and not plain and not model.mentions(e, *_PER_CANDIDATE):
            out.append(e)
            return
        for child in model.children(e):
            visit(child)

    for e in ply.removals():
        visit(e)
    return out


class CRuleGen:
    """The shared parts of one rule's C for one player (code: its index in the rules)."""

    def __init__(self, c: CExpr, ply: model.Ply, p: int, code: int, types: list[int]):
        self.c, self.out, self.rs, self.t, self.L = c, c.out, c.rs, c.t, c.L
        self.ply, self.motion, self.p, self.code, self.types = ply, ply.motion, p, code, types
        self.multi = max(self.rs.types[t].size for t in types) > 1
        self.construct: MotionConstruct = motion_construct(ply.motion)
        onto = ply.onto
        self.tgt_level = 2 if model.mentions(onto, Word.HERE) else 1 if model.mentions(onto, Word.FROM) else 0
        mod = self.construct
        if mod.from_per_candidate and self.tgt_level == 1:
            self.tgt_level = 2
        self.riders = not mod.from_per_candidate and any(
            self.rs.types[t].carrier is not None for t in types)
        self.tgt_src = c.expr(onto, CCtx("s", p, here="here", frm="frm"))
        single = not self.multi and mod.from_a_cell
        self.adj_path = {k: f"adjp{i}" for i, k in enumerate(path_adjacencies(ply))} \
            if mod.path_grows else None
        # every single-cell motion's candidate loop names here's cell `d` (`M here = m_bit(d)`)
        self.cx = CCtx("s", p, here="here", frm="frm", path="path", single=single, adj_path=self.adj_path,
                       here_cell="d" if single else None)
        self.projected = closer_targets(c, ply) if mod.projects else None
        self.where = c.expr(ply.where, self.cx) if ply.where is not None and self.projected is None \
            else None
        self.removal = self._union(ply.removals(), self.cx)
        # the parts of the removals the candidates of one piece share: computed once a piece
        # in `each_piece`, where `frm` is the piece's cell (other loops keep them per candidate)
        self.per_piece = per_piece_parts(ply)
        names = {id(e): f"pp{i}" for i, e in enumerate(self.per_piece)}
        self.hoisted_removal = self._union(ply.removals(), replace(self.cx, hoisted=names))
        self.in_piece = False
        self.sink = Sink.LIST

    def _union(self, exprs: list[model.Expr], cx: CCtx) -> str | None:
        out = None
        for e in exprs:
            r = self.c.expr(e, cx)
            out = r if out is None else f"m_or({out}, {r})"
        return out

    # ------------------------------------------------------------ pieces of a generator
    def line(self, indent: int, text: str) -> None:
        self.out.line(indent, text)

    def target(self, level: int, indent: int) -> None:
        """`M tgt = ...;` where it is known: per call (0), per piece (1) or per cell (2)."""
        if self.tgt_level == level:
            self.line(indent, f"M tgt = {self.tgt_src};")

    def base(self, indent: int) -> None:
        if self.riders:
            self.line(indent, "M base = SUPPORT[t] >= 0 ? s->c[SUPPORT[t]] : FULL;")

    def candidate(self, indent: int, payload: str) -> None:
        """A candidate ply: kept if it lands on the target set and meets the condition
        (`continue` goes on to the next candidate)."""
        if self.riders:
            self.line(indent, "if (!m_any(m_and(here, base))) continue;")
        if self.tgt_level == 2:
            self.target(2, indent)
            self.line(indent, "if (!m_any(m_and(here, tgt))) continue;" if not self.multi
                      else "if (m_any(m_andn(here, tgt))) continue;")
        if self.where is not None:
            self.line(indent, f"if (!({self.where})) continue;")
        self.found(indent, payload)

    def payload(self, fields: str) -> str:
        """`act(...)`'s arguments: the rule, up to three fields, the removed cells."""
        items = [str(self.code)] + [f.strip() for f in fields.split(",") if f.strip()]
        items += ["0"] * (4 - len(items))
        removal = self.hoisted_removal if self.in_piece else self.removal
        return ", ".join(items + [removal or "m_zero()"])

    def found(self, indent: int, fields: str) -> None:
        self.out.ply(indent, self.payload(fields))

    def head(self, occ: bool) -> None:
        """The generator's start: the occupied cells if the motion reads them, the target."""
        if occ:
            self.line(1, f"M occ = {self.c.occ('s')};")
        if not self.construct.path_grows and any(
                model.mentions(e, Word.PATH) for e in [self.ply.where] + self.ply.removals()):
            self.line(1, "M path = m_zero();")
        self.target(0, 1)

    def each_piece(self, before: Callable[[CRuleGen], None] | None = None) -> None:
        """Each piece of the moved types (indent 3 inside): t, frm, c; close with end_piece."""
        types, count = self.c.types_table(self.types)
        self.line(1, f"for (int ti = 0; ti < {count}; ti++) {{")
        self.line(2, f"int t = {types}[ti];")
        self.base(2)
        self.line(2, "M pieces = s->c[t];")
        if before is not None:
            before(self)
        self.out.bits(2, "pieces", "c")
        self.line(3, "M frm = m_bit(c);")
        self.target(1, 3)
        for i, e in enumerate(self.per_piece):
            self.line(3, f"M pp{i} = {self.c.expr(e, self.cx)}; (void)pp{i};")
        self.in_piece = True

    def end_piece(self) -> None:
        self.in_piece = False
        self.out.close(2)
        self.out.close(1)

    def dests(self, indent: int, mask: str, fields: str) -> None:
        """Each cell of `mask` as `here` (cell d), a candidate."""
        self.line(indent, f"M dests = {mask};")
        self.out.bits(indent, "dests", "d")
        self.line(indent + 1, "M here = m_bit(d);")
        self.candidate(indent + 1, fields)
        self.out.close(indent)

    def all_or_target(self) -> str:
        return "tgt" if self.tgt_level < 2 else "FULL"

    def ctx(self, s: str, **where: object) -> CCtx:
        return CCtx(s, self.p, here="here", frm="frm", **where)  # type: ignore[arg-type]

    opponents_only = staticmethod(opponents_only)

    def chain_budget(self) -> int:
        return limits.MAX_CHAIN_STATES

    def plain_expr(self, e: model.Expr, s: str = "s") -> str:
        """`e` in state `s` (here and from as the loops set them)."""
        return self.c.expr(e, CCtx(s, self.p, here="here", frm="frm"))

    def apply(self, head: list[str], removed: str | None, put: list[str], clear: str | None = None) -> None:
        capply.emit_apply(self.c, self.ply, self.p, self.code, head, removed, put, clear,
                          self.construct.from_a_cell)

    def captured(self) -> None:
        capply.emit_captured(self.c, self.ply, self.p, self.code)

    def finish(self) -> None:
        capply.finish(self.c, self.ply, self.p)

    def apply_move(self) -> None:
        """The apply function of a one-cell piece moved from x[1] to x[2] (removals in rem)."""
        self.apply(["M frm = m_bit(a->x[1]);", "M here = m_bit(a->x[2]);"],
                   "a->rem" if self.removal else None, ["b->c[t] = m_or(m_andn(s->c[t], frm), here);"])


def emit_rule(c: CExpr, ply: model.Ply, p: int, code: int, types: list[int]) -> MotionConstruct:
    """`moves_N`, `has_N` and `apply_N` of one rule for one player, in C."""
    g = CRuleGen(c, ply, p, code, types)
    if g.construct.emit_c_support is not None:
        g.construct.emit_c_support(g)
    for sink in (Sink.LIST, Sink.EXISTS):
        c.out.generator(code, sink)
        g.sink = sink
        g.construct.emit_c_moves(g)
        c.out.end_generator()
    g.construct.emit_c_apply(g)
    return g.construct
