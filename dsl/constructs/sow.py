"""`sow TRACK [skipping CELLS]`: every piece of a counted kind on `from` taken up and put
down one a cell along a track (the mancala games).

The pieces go, one each, into the cells that follow `from` on the track, in its order and
round again past its end, leaving out the cells of `skipping` (evaluated before the ply,
with `from`); `here` is the cell the last one reaches. Nothing is captured by landing:
sowing adds to what a cell holds. Action: (rule, piece type, from cell, to cell), written
as a move.
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
class Sow(model.Motion):
    """The pieces on `from` put down one a cell along the track `track`."""

    track: str
    skipping: model.Expr | None

    name = "sow"


NODE = Sow  # the model's node of this motion

COUNTED = True  # it moves counted kinds' pieces, and only it may
CAPTURES_LANDING = False  # the last piece lands on what stands there: nothing is taken
DEFAULT_ONTO = "any"  # without `onto`: the last piece may reach any cell
LANDS = "anywhere"  # the pieces it sows land on the track, not only on `here` (dsl/domains.py)


def to_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.MotionSyntax:
    """`sow TRACK [skipping CELLS]`: the parse tree's children -> the syntax tree's node."""
    track, cells = c
    return syn.MotionSyntax(span, "sow", track=t.named(track), cells=cells)


def lower(mo: syn.MotionSyntax, dirs: tuple[str, ...] | None,
          expr: Callable[[syn.Expr | None], model.Expr | None]) -> model.Motion:
    """The checked syntax -> the model's node."""
    assert mo.track is not None
    return Sow(mo.span, mo.track[0], expr(mo.cells))


def _skipping(g: RuleGen) -> str:
    skipping = g.motion.skipping
    return g.plain_expr(skipping) if skipping is not None else g.w.ZERO


def emit_moves(g: RuleGen) -> None:
    """Each cell holding pieces of the kind, as `from`; `here`, where its last piece lands."""
    w = g.w
    track, at, length = g.w.track_tables(g.motion.track)
    g.head(occ=False)
    with g.each_piece():
        w.let("cell", "d", w.sow_end("s", "t", track, at, length, w.cell("c"), _skipping(g)))
        w.skip_if("d < 0")
        w.let("cells", "here", w.bit("d"))
        g.candidate(["t", "c", "d"])


def emit_apply(g: RuleGen) -> None:
    w = g.w
    track, at, length = g.w.track_tables(g.motion.track)

    def put() -> None:
        w.sow("b", "t", track, at, length, g.field("from_cell"), _skipping(g))

    g.apply(g.move_head(), put)
