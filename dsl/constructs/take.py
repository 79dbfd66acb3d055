"""`take [own|opponent's] KIND`: a piece taken off the board where it stands, nothing else
moving (a mill's capture in Nine Men's Morris, Konane's opening removal).

Action: (rule, piece type, cell[, removed cells]), written as the cell, as a placement is.
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
class Take(model.Motion):
    """A piece taken off the board at `here`."""

    name = "take"


NODE = Take  # the model's node of this motion


def to_syntax(t: ToSyntax, span: syn.Span, c: list) -> tuple:
    """`take [own|opponent's] KIND`, the ply's whole action: (owner, kind, kind's span, node)."""
    return t.selector(c) + (syn.MotionSyntax(span, "take"),)


MOVES = False  # nothing moves on the board: `take KIND` is the ply's whole action
FROM_A_CELL = False  # the piece leaves the board, from no cell to another ...
NO_FROM = "a taken piece stands at `here`"  # ... and `from` is refused, saying why
ACTION = "place"  # (rule, piece type, cell)
DEFAULT_ONTO = "any"  # without `onto`: any piece of the kinds
COUNT_CHANGE = -1  # one piece fewer: the un-move solver puts it back (native/cundo.py)
LANDS = "nowhere"  # it puts no piece on a cell (dsl/domains.py)


def lower(mo: syn.MotionSyntax, dirs: tuple[str, ...] | None,
          expr: Callable[[syn.Expr | None], model.Expr | None]) -> model.Motion:
    """The checked syntax -> the model's node."""
    return Take(mo.span)


def emit_moves(g: RuleGen) -> None:
    """Each piece of the selected kinds on the target cells (`onto`), as `here`."""
    w = g.w
    g.head(occ=False)
    w.let("cells", "frm", w.ZERO)
    g.hoisted("piece")
    with w.each_type(g.types):
        g.base()
        g.dests(w.and_(w.pieces("s", "t"), g.all_or_target()), ["t", "d"])


def emit_apply(g: RuleGen) -> None:
    # What stands at `here` goes, as under a landing piece: the piece taken, its riders.
    w = g.w
    g.apply([("cells", "frm", w.ZERO), ("cells", "here", w.bit(g.field("to_cell")))], lambda: None)
