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
    from interpreter.codegen.rules import RuleGen

    from dsl.to_syntax import ToSyntax

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
    w = g.w
    g.head(occ=False)
    if g.multi:
        _wide(g)
        return
    with g.each_piece():
        g.dests(w.andn(g.all_or_target(), "frm"), ["t", "c", "d"])


def _wide(g: RuleGen) -> None:
    """Each placement of each piece, in the board's order of placements."""
    w = g.w
    size = g.rs.types[g.types[0]].size
    with w.each_type(g.types):
        g.base()
        w.let("cells", "frm", w.pieces("s", "t"))
        w.skip_if(w.none("frm"))
        g.target(1)
        g.hoisted("piece")
        w.let("cells", "free", w.or_("tgt", "frm") if g.tgt_level < 2 else w.FULL)
        with w.each_placement(size, "free", "i", "here"):
            w.skip_if(w.eq("here", "frm"))
            g.candidate(["t", "i"])


def emit_apply(g: RuleGen) -> None:
    if not g.multi:
        g.apply_move()
        return
    w = g.w
    size = g.rs.types[g.types[0]].size
    g.apply([("cells", "frm", w.pieces("s", "t")), ("cells", "here", w.placement(size, g.field("placement")))],
            lambda: w.set(w.pieces("b", "t"), "here"), clear=w.andn("here", "frm"))
