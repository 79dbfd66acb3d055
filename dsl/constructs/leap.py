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
    from interpreter.codegen.rules import RuleGen

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
    w = g.w
    g.head(occ=True)
    with g.each_piece():
        with w.each_dir(straight(g.rs.board, g.motion.dirs), "c", bind=True):
            w.skip_if(w.any_of(f"{w.ray_len()} < 2", w.not_(w.has("occ", w.ray_at(0)))))
            w.let("cells", "path", w.bit(w.ray_at(0)))
            w.let("cell", "d", w.ray_at(1))
            w.let("cells", "here", w.bit("d"))
            if g.tgt_level < 2:
                w.skip_if(w.not_(w.has("tgt", "d", "here")))
            g.candidate(["t", "c", "d"])


def emit_apply(g: RuleGen) -> None:
    g.apply_move()
