"""`walk [DIRS] up to N`: up to N steps, turning at will, through empty cells only.

A walk is known by where it ends, whatever the route. Action: (rule, piece type,
from cell, to cell[, removed cells]).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from dsl import board as boards
from dsl import model
from dsl import syntax as syn

if TYPE_CHECKING:  # the parser and the back-end pass themselves in; the model never imports them
    from interpreter.native.crules import CRuleGen
    from interpreter.python.pyrules import RuleGen

    from dsl.to_syntax import ToSyntax
    from interpreter.runtime.tables import Tables


@dataclass(eq=False)
class Walk(model.Motion):
    """Up to LIMIT steps through empty cells, turning at will; known by where it ends."""

    dirs: tuple[str, ...] | None
    limit: model.Expr

    name = "walk"


NODE = Walk  # the model's node of this motion


def to_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.MotionSyntax:
    """`walk [DIRS] up to LIMIT`: the parse tree's children -> the syntax tree's node."""
    return syn.MotionSyntax(span, "walk", dirs=c[0], limit=c[1])


def route_free(p: syn.PlyDecl, exprs: list[syn.Expr | None], error: Callable[..., None], what: str,
               hint: str | None) -> None:
    """`path` is refused where a ply is known by its ends, whatever the route."""
    for x in exprs:
        for n in syn.walk(x) if x is not None else []:
            if isinstance(n, syn.Keyword) and n.word == "path":
                error(n.span, f"'path' is not one set of cells for a {what}: its plies "
                              f"are known by their ends, whatever the route", hint)


def lower(mo: syn.MotionSyntax, dirs: tuple[str, ...] | None,
          expr: Callable[[syn.Expr | None], model.Expr | None]) -> model.Motion:
    """The checked syntax -> the model's node (directions resolved, expressions lowered)."""
    return Walk(mo.span, dirs, expr(mo.limit))


def check(p: syn.PlyDecl, error: Callable[..., None], cells: int) -> None:
    route_free(p, [p.where] + [e.value for e in p.effects if e.kind == "remove"], error, "walk", None)


def emit_moves(g: RuleGen) -> None:
    motion: Walk = g.motion
    g.head(occ=True)
    g.each_piece()
    g.line(3, f"limit = {g.plain_expr(motion.limit)}")
    g.line(3, "seen = frontier = frm")
    g.line(3, "reached = 0")
    g.line(3, "for _ in range(limit):")
    g.line(4, f"step = _adjacent(frontier, {g.c.adj(motion.dirs)}) & ~seen")
    g.line(4, "reached |= step")
    g.line(4, "seen |= step")
    g.line(4, "frontier = step & ~occ")  # a walk goes on through empty cells only
    g.line(4, "if not frontier: break")
    g.dests(3, "reached" + (" & tgt" if g.tgt_level < 2 else ""), "t, c, here.bit_length() - 1")


def emit_apply(g: RuleGen) -> None:
    g.apply_move()


def emit_c_moves(g: CRuleGen) -> None:
    motion: Walk = g.motion
    g.head(occ=True)
    g.each_piece()
    g.line(3, f"int64_t limit = {g.plain_expr(motion.limit)};")
    g.line(3, "M seen = frm, frontier = frm, reached = m_zero();")
    g.line(3, "for (int64_t i = 0; i < limit; i++) {")
    g.line(4, f"M step = m_andn(rc_adjacent(frontier, {g.c.adj(motion.dirs)}), seen);")
    g.line(4, "reached = m_or(reached, step);")
    g.line(4, "seen = m_or(seen, step);")
    g.line(4, "frontier = m_andn(step, occ);")  # a walk goes on through empty cells only
    g.line(4, "if (!m_any(frontier)) break;")
    g.line(3, "}")
    g.dests(3, "m_and(reached, tgt)" if g.tgt_level < 2 else "reached", "t, c, d")
    g.end_piece()


def emit_c_apply(g: CRuleGen) -> None:
    g.apply_move()


def reverse_reach(tables: Tables, board: boards.Board, motion: Walk) -> list[int]:
    """Per cell, every other cell: a walk's path may bend anywhere (the un-move solver)."""
    return [tables.full & ~(1 << c) for c in range(tables.n)]
