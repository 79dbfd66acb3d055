"""`place [own|opponent's] KIND`: a new piece from the supply, or from its owner's reserve.

Action: (rule, piece type, cell[, removed cells]); for a kind covering several cells,
(rule, piece type, placement index[, removed cells]): the piece goes down whole, on any
placement of its size whose cells are all in `onto` (the board's placements of that size).
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
class Place(model.Motion):
    """A new piece from the supply (or its owner's reserve)."""

    name = "place"


NODE = Place  # the model's node of this motion


def to_syntax(t: ToSyntax, span: syn.Span, c: list) -> tuple:
    """`place [own|opponent's] KIND`, the ply's whole action: (owner, kind, kind's span, node).

    The selector is inlined in its rule so that LALR does not merge its lookaheads with
    `move`'s (which would muddle "expected ..." messages)."""
    return t.selector(c) + (syn.MotionSyntax(span, "place"),)


MOVES = False  # no motion of a piece on the board: `place KIND` is the ply's whole action
FROM_A_CELL = False  # a new piece comes from no cell ...
NO_FROM = "the piece comes from the supply"  # ... and `from` is refused, saying why
ACTION = "place"  # (rule, piece type, cell)
WIDE_PIECES = True  # a kind covering several cells goes down whole (its type then holds cells)
COUNT_CHANGE = 1  # one piece more on the board: the un-move solver lifts it (native/cundo.py)


def lower(mo: syn.MotionSyntax, dirs: tuple[str, ...] | None,
          expr: Callable[[syn.Expr | None], model.Expr | None]) -> model.Motion:
    """The checked syntax -> the model's node (directions resolved, expressions lowered)."""
    return Place(mo.span)


def emit_moves(g: RuleGen) -> None:
    w, L = g.w, g.L
    slots = [(t, w.number_slot(L.reserve_offsets[t]) if t in L.reserve_offsets else -1) for t in g.types]
    g.head(occ=False)
    w.let("cells", "frm", w.ZERO)
    g.hoisted("piece")
    with w.each_record(("slots", tuple(slots)), slots, [("cell", "t"), ("cell", "slot")], None, "SLOTS"):
        w.skip_if(w.all_("slot >= 0", f"{w.number_at('s', 'slot')} <= 0"))  # none left in reserve
        g.base()
        if g.cover > 1:
            w.let("cells", "free", g.all_or_target())
            with w.each_placement(g.cover, "free", "i", "here"):
                g.candidate(["t", "i"])
        else:
            g.dests(g.all_or_target(), ["t", "d"])


def emit_apply(g: RuleGen) -> None:
    w, L = g.w, g.L

    def put() -> None:
        w.or_into(w.pieces("b", "t"), "here")
        for t in g.types:
            if t in L.reserve_offsets:
                with w.if_(f"t == {t}"):
                    w.add_to(w.slot("b", L.reserve_offsets[t]), "-1")

    here = w.placement(g.cover, g.field("placement")) if g.cover > 1 else w.bit(g.field("to_cell"))
    g.apply([("cells", "frm", w.ZERO), ("cells", "here", here)], put)
