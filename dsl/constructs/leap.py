"""`leap [DIRS] [chained [straight] [to the end]]`: over the one adjacent piece in a
straight line, onto the cell beyond it.

`path` is the cell jumped over (`then remove path & opponent's piece`: a checkers
capture). Action: (rule, piece type, from cell, to cell[, removed cells]). Chained
leaps (a multi-jump, each jump removing): see leap_chain.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from dsl import model
from dsl import syntax as syn
from dsl.constructs.slide import straight
from dsl.constructs.walk import route_free

if TYPE_CHECKING:  # the parser and the back-end pass themselves in; the model never imports them
    from interpreter.codegen.rules import RuleGen

    from dsl.to_syntax import ToSyntax


@dataclass(eq=False)
class Leap(model.Motion):
    """Over the one adjacent piece in a straight line, onto the cell beyond it."""

    dirs: tuple[str, ...] | None  # every direction when none are written
    chained: bool = False  # jump after jump, each removing pieces
    straight_on: bool = False  # ... each in the direction of the first (`chained straight`)
    to_the_end: bool = False  # ... while another jump is possible (`chained to the end`)

    name = "leap"


@dataclass(eq=False)
class LeapSyntax(syn.MotionSyntax):
    """A leap as written."""

    chained: bool = False
    straight_on: bool = False
    to_the_end: bool = False


NODE = Leap  # the model's node of this motion


def to_syntax(t: ToSyntax, span: syn.Span, c: list) -> LeapSyntax:
    """`leap [DIRS] [chained [straight] [to the end]]`: the parse tree's children -> the
    syntax tree's node."""
    dirs, chained, straight_on, to_the_end = c
    return LeapSyntax(span, "leap", dirs=dirs, chained=chained is not None,
                      straight_on=straight_on is not None, to_the_end=to_the_end is not None)


STRAIGHT = True  # a jump follows a direction


def lower(mo: syn.MotionSyntax, dirs: tuple[str, ...] | None,
          expr: Callable[[syn.Expr | None], model.Expr | None]) -> model.Motion:
    """The checked syntax -> the model's node (directions resolved, expressions lowered)."""
    return Leap(mo.span, dirs, mo.chained, mo.straight_on, mo.to_the_end)


def check(p: syn.PlyDecl, error: Callable[..., None], cells: int) -> None:
    motion: LeapSyntax = p.motion
    if not motion.chained:
        return
    route_free(p, [p.where], error, "chained leap",
               "use it in `remove` of a chained leap (each jump's path)")


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
