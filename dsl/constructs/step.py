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
    from interpreter.codegen.rules import RuleGen

    from dsl.to_syntax import ToSyntax
    from interpreter.runtime.tables import Tables


@dataclass(eq=False)
class Step(model.Motion):
    dirs: tuple[str, ...] | None  # None: every edge

    name = "step"


NODE = Step  # the model's node of this motion
EXACT_REVERSE = True  # a piece one step back from an empty cell can always step onto it


def to_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.MotionSyntax:
    """`step [DIRS]`: the parse tree's children -> the syntax tree's node."""
    return syn.MotionSyntax(span, "step", dirs=c[0])


def lower(mo: syn.MotionSyntax, dirs: tuple[str, ...] | None,
          expr: Callable[[syn.Expr | None], model.Expr | None]) -> model.Motion:
    """The checked syntax -> the model's node (directions resolved, expressions lowered)."""
    return Step(mo.span, dirs)


def emit_moves(g: RuleGen) -> None:
    w, motion = g.w, g.motion
    g.head(occ=False)
    with g.each_piece(before=_from_targets if g.tgt_level == 0 else None):
        mask = f"{w.adj(motion.dirs)}[c]"
        g.dests(w.and_(mask, "tgt") if g.tgt_level < 2 else mask, ["t", "c", "d"])


def _from_targets(g: RuleGen) -> None:
    """Fewer targets than pieces (an enemy's steps into a few empty cells): walk them back."""
    w, dirs = g.w, g.motion.dirs
    back = w.masks(("back", dirs), g.t.reverse_adjacency(None if dirs is None else list(dirs)), "BACK")
    with w.if_(f"{w.count('pieces')} > {w.count('tgt')}"):
        w.let("cells", "dests", "tgt")
        with w.each_bit("dests", "here", "d", eager=True):
            w.let("cells", "sources", w.and_(f"{back}[d]", "pieces"))
            with w.each_bit("sources", "frm", "c", eager=True):
                g.hoisted("piece")
                g.candidate(["t", "c", "d"])
        w.skip()


def emit_lands(g: RuleGen) -> None:
    """Whether the piece on c may step onto d, one step away: its target and condition."""
    g.lands_head()
    g.lands_end()


def emit_apply(g: RuleGen) -> None:
    g.apply_move()


def reverse_reach(tables: Tables, board: boards.Board, motion: Step) -> list[int]:
    """Per cell, the cells one step back along the motion's directions (the un-move solver)."""
    return tables.reverse_adjacency(None if motion.dirs is None else list(motion.dirs))
