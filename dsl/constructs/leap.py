"""`leap [DIRS]`: over the one adjacent piece in a straight line, onto the cell beyond it.

`path` is the cell jumped over (`then remove path & opponent's piece`: a checkers
capture). Action: (rule, piece type, from cell, to cell[, removed cells]).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from dsl import model
from dsl import syntax as syn
from dsl.constructs.slide import straight

if TYPE_CHECKING:  # the parser and the back-end pass themselves in; the model never imports them
    from interpreter.native.crules import CRuleGen
    from interpreter.python.pyrules import RuleGen

    from dsl.to_syntax import ToSyntax


@dataclass(eq=False)
class Leap(model.Motion):
    """Over the one adjacent piece in a straight line, onto the cell beyond it."""

    dirs: tuple[str, ...] | None  # every direction when none are written

    name = "leap"


NODE = Leap  # the model's node of this motion


def to_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.MotionSyntax:
    """`leap [DIRS]`: the parse tree's children -> the syntax tree's node."""
    return syn.MotionSyntax(span, "leap", dirs=c[0])


STRAIGHT = True  # a jump follows a direction


def lower(mo: syn.MotionSyntax, dirs: tuple[str, ...] | None,
          expr: Callable[[syn.Expr | None], model.Expr | None]) -> model.Motion:
    """The checked syntax -> the model's node (directions resolved, expressions lowered)."""
    return Leap(mo.span, dirs)


def emit_moves(g: RuleGen) -> None:
    rays = tuple(g.c.const(("rays", d), g.t.rays(d), "RAY") for d in straight(g.rs.board, g.motion.dirs))
    g.head(occ=True)
    g.each_piece()
    g.line(3, f"for ray in ({', '.join(rays)},):")
    g.line(4, "line = ray[c]")
    g.line(4, "if len(line) < 2 or not BIT[line[0]] & occ: continue")
    g.line(4, "path = BIT[line[0]]")
    g.line(4, "here = BIT[line[1]]")
    if g.tgt_level < 2:
        g.line(4, "if not here & tgt: continue")
    g.candidate(4, "t, c, line[1]")


def emit_apply(g: RuleGen) -> None:
    g.apply_move()


def emit_c_moves(g: CRuleGen) -> None:
    rays = g.c.rays(straight(g.rs.board, g.motion.dirs))
    g.head(occ=True)
    g.each_piece()
    g.line(3, f"for (int di = 0; di < {rays.count}; di++) {{")
    g.line(4, f"const int *line = {rays.flat}[di] + {rays.off}[di][c];")
    g.line(4, f"int len = {rays.off}[di][c + 1] - {rays.off}[di][c];")
    g.line(4, "if (len < 2 || !m_has(occ, line[0])) continue;")
    g.line(4, "M path = m_bit(line[0]); (void)path;")
    g.line(4, "int d = line[1];")
    g.line(4, "M here = m_bit(d);")
    if g.tgt_level < 2:
        g.line(4, "if (!m_has(tgt, d)) continue;")
    g.candidate(4, "t, c, d")
    g.line(3, "}")
    g.end_piece()


def emit_c_apply(g: CRuleGen) -> None:
    g.apply_move()
