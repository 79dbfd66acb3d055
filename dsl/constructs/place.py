"""`place [own|opponent's] KIND`: a new piece from the supply, or from its owner's reserve.

Action: (rule, piece type, cell[, removed cells]).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from dsl import model
from dsl import syntax as syn

if TYPE_CHECKING:  # the parser and the back-end pass themselves in; the model never imports them
    from interpreter.native.crules import CRuleGen
    from interpreter.python.pyrules import RuleGen

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


def lower(mo: syn.MotionSyntax, dirs: tuple[str, ...] | None,
          expr: Callable[[syn.Expr | None], model.Expr | None]) -> model.Motion:
    """The checked syntax -> the model's node (directions resolved, expressions lowered)."""
    return Place(mo.span)


def emit_moves(g: RuleGen) -> None:
    slots = g.c.const(("slots", tuple(g.types)),
                      tuple((t, g.L.reserve_offsets.get(t, -1)) for t in g.types), "SLOTS")
    g.head(occ=False)
    g.line(1, "frm = 0")
    g.hoisted("piece", 1)
    g.line(1, f"for t, slot in {slots}:")
    g.line(2, "if slot >= 0 and s[slot] <= 0: continue")
    g.base(2)
    g.dests(2, g.all_or_target(), "t, here.bit_length() - 1")


def emit_apply(g: RuleGen) -> None:
    reserve_slots = {t: g.L.reserve_offsets[t] for t in g.types if t in g.L.reserve_offsets}
    put = ["b[t] |= here"]
    if reserve_slots:
        table = g.c.const(("reserve slots", tuple(reserve_slots.items())), reserve_slots, "RESERVE")
        put += [f"slot = {table}.get(t)", "if slot is not None: b[slot] -= 1"]
    g.apply(["frm = 0", "here = BIT[a[2]]"], "a[3]" if g.removal else None, put)


def emit_c_moves(g: CRuleGen) -> None:
    slots = [g.c.int_index[g.L.reserve_offsets[t]] if t in g.L.reserve_offsets else -1 for t in g.types]
    types = g.out.int_table(("types", tuple(g.types)), g.types, "TY")
    where = g.out.int_table(("reserve", tuple(slots)), slots, "RS")
    g.head(occ=False)
    g.line(1, "M frm = m_zero(); (void)frm;")
    g.line(1, f"for (int k = 0; k < {len(g.types)}; k++) {{")
    g.line(2, f"int t = {types}[k], slot = {where}[k];")
    g.line(2, "if (slot >= 0 && s->v[slot] <= 0) continue;")
    g.base(2)
    g.dests(2, g.all_or_target(), "t, d")
    g.line(1, "}")


def emit_c_apply(g: CRuleGen) -> None:
    put = ["b->c[t] = m_or(b->c[t], here);"]
    for t in g.types:
        if t in g.L.reserve_offsets:
            put.append(f"if (t == {t}) {g.c.slot('b', g.L.reserve_offsets[t])} -= 1;")
    g.apply(["M frm = m_zero();", "M here = m_bit(a->x[1]);"], "a->rem" if g.removal else None, put)
