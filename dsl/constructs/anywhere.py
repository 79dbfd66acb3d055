"""`anywhere`: to any cell of the target set (a piece covering several cells: to any placement).

Action: (rule, piece type, from cell, to cell[, removed cells]); for a piece covering
several cells, (rule, piece type, placement index) (the board's placements of that size).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from dsl import model
from dsl import syntax as syn

if TYPE_CHECKING:  # the parser and the back-end pass themselves in; the model never imports them
    from interpreter.native.crules import CRuleGen
    from interpreter.python.pyrules import RuleGen

    from dsl.to_syntax import ToSyntax

FITS_MAX_CELLS = 16  # up to this size, the placements inside each set of free cells are tabled


@dataclass(eq=False)
class Anywhere(model.Motion):
    name = "anywhere"


NODE = Anywhere  # the model's node of this motion


def to_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.MotionSyntax:
    """`anywhere`: the syntax tree's node."""
    return syn.MotionSyntax(span, "anywhere")


WIDE_PIECES = True  # the one motion of pieces covering several cells


def lower(mo: syn.MotionSyntax, dirs: tuple[str, ...] | None,
          expr: Callable[[syn.Expr | None], model.Expr | None]) -> model.Motion:
    """The checked syntax -> the model's node (directions resolved, expressions lowered)."""
    return Anywhere(mo.span)


def emit_moves(g: RuleGen) -> None:
    g.head(occ=False)
    if g.multi:
        _wide(g)
        return
    g.each_piece()
    g.dests(3, "tgt & ~frm" if g.tgt_level < 2 else "FULL & ~frm", "t, c, here.bit_length() - 1")


def _wide(g: RuleGen) -> None:
    size = g.rs.types[g.types[0]].size
    g.line(1, f"for t in {g.c.type_tuple(g.types)}:")
    g.base(2)
    g.line(2, "frm = s[t]")
    g.line(2, "if not frm: continue")
    g.target(1, 2)
    g.hoisted("piece", 2)
    g.line(2, "free = tgt | frm" if g.tgt_level < 2 else "free = FULL")
    if g.t.n <= FITS_MAX_CELLS:
        fits = g.c.const(("fits", size), g.t.placements_within(size), "FITS")
        g.line(2, f"for i, here in {fits}[free]:")
        g.line(3, "if here == frm: continue")
    else:
        pl = g.c.const(("placements", size), g.t.placement_masks(size), "PL")
        g.line(2, f"for i, here in enumerate({pl}):")
        g.line(3, "if here == frm or here & ~free: continue")
    g.candidate(3, "t, i")


def emit_apply(g: RuleGen) -> None:
    if not g.multi:
        g.apply_move()
        return
    size = g.rs.types[g.types[0]].size
    pl = g.c.const(("placements", size), g.t.placement_masks(size), "PL")
    g.apply(["frm = s[t]", f"here = {pl}[a[2]]"], None, ["b[t] = here"], keep="~(here & ~frm)")


def emit_c_moves(g: CRuleGen) -> None:
    g.head(occ=False)
    if g.multi:
        _c_wide(g)
        return
    g.each_piece()
    g.dests(3, "m_andn(tgt, frm)" if g.tgt_level < 2 else "m_andn(FULL, frm)", "t, c, d")
    g.end_piece()


def _c_wide(g: CRuleGen) -> None:
    """Each placement, in index order (the order of `_wide`'s FITS table as of its PL)."""
    size = g.rs.types[g.types[0]].size
    masks = g.t.placement_masks(size)
    pl = g.out.mask_table(("placements", size), masks, "PL")
    types, count = g.c.types_table(g.types)
    g.line(1, f"for (int ti = 0; ti < {count}; ti++) {{")
    g.line(2, f"int t = {types}[ti];")
    g.base(2)
    g.line(2, "M frm = s->c[t];")
    g.line(2, "if (!m_any(frm)) continue;")
    g.target(1, 2)
    g.line(2, "M free = m_or(tgt, frm);" if g.tgt_level < 2 else "M free = FULL;")
    g.line(2, f"for (int i = 0; i < {len(masks)}; i++) {{")
    g.line(3, f"M here = {pl}[i];")
    g.line(3, "if (m_eq(here, frm) || m_any(m_andn(here, free))) continue;")
    g.candidate(3, "t, i")
    g.line(2, "}")
    g.line(1, "}")


def emit_c_apply(g: CRuleGen) -> None:
    if not g.multi:
        g.apply_move()
        return
    size = g.rs.types[g.types[0]].size
    pl = g.out.mask_table(("placements", size), g.t.placement_masks(size), "PL")
    g.apply(["M frm = s->c[t];", f"M here = {pl}[a->x[1]];"], None, ["b->c[t] = here;"],
            clear="m_andn(here, frm)")
