"""`step [DIRS]`: one step along an edge (any edge, or those of the directions named).

Action: (rule, piece type, from cell, to cell[, removed cells]).
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
class Step(model.Motion):
    dirs: tuple[str, ...] | None  # None: every edge

    name = "step"


NODE = Step  # the model's node of this motion


def to_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.MotionSyntax:
    """`step [DIRS]`: the parse tree's children -> the syntax tree's node."""
    return syn.MotionSyntax(span, "step", dirs=c[0])


def lower(mo: syn.MotionSyntax, dirs: tuple[str, ...] | None,
          expr: Callable[[syn.Expr | None], model.Expr | None]) -> model.Motion:
    """The checked syntax -> the model's node (directions resolved, expressions lowered)."""
    return Step(mo.span, dirs)


def emit_moves(g: RuleGen) -> None:
    motion: Step = g.motion
    g.head(occ=False)
    g.each_piece(before=_from_targets if g.tgt_level == 0 else None)
    g.dests(3, f"{g.c.adj(motion.dirs)}[c]" + (" & tgt" if g.tgt_level < 2 else ""),
            "t, c, here.bit_length() - 1")


def _from_targets(g: RuleGen) -> None:
    """Fewer targets than pieces (an enemy's steps into a few empty cells): walk them back."""
    dirs = g.motion.dirs
    back = g.c.const(("back", dirs), g.t.reverse_adjacency(None if dirs is None else list(dirs)), "BACK")
    g.line(2, "if pieces.bit_count() > tgt.bit_count():")
    g.line(3, "dests = tgt")
    g.out.bits(3, "dests", "here")
    g.line(4, "d = here.bit_length() - 1")
    g.line(4, f"sources = {back}[d] & pieces")
    g.out.bits(4, "sources", "frm")
    g.line(5, "c = frm.bit_length() - 1")
    g.hoisted("piece", 5)
    g.candidate(5, "t, c, d")
    g.line(3, "continue")


def emit_apply(g: RuleGen) -> None:
    g.apply_move()


def emit_c_moves(g: CRuleGen) -> None:
    motion: Step = g.motion
    adj = g.c.adj(motion.dirs)
    g.head(occ=False)
    g.each_piece(before=_c_from_targets if g.tgt_level == 0 else None)
    g.dests(3, f"m_and({adj}[c], tgt)" if g.tgt_level < 2 else f"{adj}[c]", "t, c, d")
    g.end_piece()


def _c_from_targets(g: CRuleGen) -> None:
    """As `_from_targets`: fewer targets than pieces, each target's sources."""
    dirs = g.motion.dirs
    back = g.out.mask_table(("back", dirs), g.t.reverse_adjacency(None if dirs is None else list(dirs)), "BACK")
    g.line(2, "if (m_pop(pieces) > m_pop(tgt)) {")
    g.line(3, "M dests = tgt;")
    g.out.bits(3, "dests", "d")
    g.line(4, "M here = m_bit(d);")
    g.line(4, f"M sources = m_and({back}[d], pieces);")
    g.out.bits(4, "sources", "c")
    g.line(5, "M frm = m_bit(c); (void)frm;")
    g.candidate(5, "t, c, d")
    g.out.close(4)
    g.out.close(3)
    g.line(3, "continue;")
    g.line(2, "}")


def emit_c_apply(g: CRuleGen) -> None:
    g.apply_move()


def reverse_reach(tables: Tables, board: boards.Board, motion: Step) -> list[int]:
    """Per cell, the cells one step back along the motion's directions (the un-move solver)."""
    return tables.reverse_adjacency(None if motion.dirs is None else list(motion.dirs))
