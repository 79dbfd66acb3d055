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
    from interpreter.codegen.rules import RuleGen

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
    w, motion = g.w, g.motion
    g.head(occ=True)
    with g.each_piece():
        w.let("num", "limit", g.plain_expr(motion.limit))
        w.let("cells", "seen", "frm")
        w.let("cells", "frontier", "frm")
        w.let("cells", "reached", w.ZERO)
        with w.each_index("limit", "i"):
            w.let("cells", "step", w.andn(w.call("adjacent", "frontier", w.adj(motion.dirs)), "seen"))
            w.or_into("reached", "step")
            w.or_into("seen", "step")
            w.set("frontier", w.andn("step", "occ"))  # a walk goes on through empty cells only
            w.stop_if(w.none("frontier"))
        g.dests(w.and_("reached", "tgt") if g.tgt_level < 2 else "reached", ["t", "c", "d"])


def emit_apply(g: RuleGen) -> None:
    g.apply_move()


def reverse_reach(tables: Tables, board: boards.Board, motion: Walk) -> list[int]:
    """Per cell, every other cell: a walk's path may bend anywhere (the un-move solver)."""
    return [tables.full & ~(1 << c) for c in range(tables.n)]
