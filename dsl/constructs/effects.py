"""Effects: `VAR op VALUE [when COND]` (plies, end rules, after each ply), `remove CELLS`
(plies), `promote CELLS to KIND` (plies, after each ply), `reset setup` and `turn to PLAYER` (end rules that let the game go on).

One `EffectConstruct` each, in `EFFECTS` (which the registry, dsl/constructs, reads): its
rule in grammar/game.lark, its syntax node's builder, its checks, its model node's
lowering and its code. The syntax tree's `Effect.kind` is its name, the model's node its
class (dsl/model.py); the checker, the lowering and the back-ends find it by either. A
`remove` is made by the ply's motion: its cells are computed with the ply and travel in
its action, so it writes no code of its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from dsl import model
from dsl import syntax as syn

if TYPE_CHECKING:  # the checker, the lowering and the back-end pass themselves in
    from interpreter.codegen.context import Ctx
    from interpreter.codegen.writer import Writer

    from dsl.check_rules import RuleChecks
    from dsl.lower import Lowering
    from dsl.to_syntax import ToSyntax


def _nothing(*args: Any) -> None:
    return None


@dataclass(frozen=True)
class EffectConstruct:
    """An effect: its grammar rule and syntax, checks, model node and code."""

    name: str  # its rule in grammar/game.lark and its syntax node's `kind`
    keyword: str | None  # the word it starts with (None: an assignment starts with a name)
    words: str  # how messages name it
    only: str  # where it may stand, "plies" or "end rules" ("": plies, end rules, after each ply)
    node: type[model.Effect]  # its class in the model
    to_syntax: Callable[..., syn.Effect]  # (ToSyntax, span, its rule's children) -> its syntax node
    check: Callable[..., None]  # (RuleChecks, syntax node, in an end rule, after each ply)
    lower: Callable[..., model.Effect]  # (Lowering, syntax node) -> its model node
    emit: Callable[..., None] = _nothing  # (the back-end's writer, node, Ctx): its code

    def may_stand(self, in_end: bool, after: bool) -> bool:
        """Whether it may be an effect of an end rule (`in_end`), `after each ply` (`after`),
        or else of a ply."""
        if self.only == "plies":
            return not (in_end or after)
        if self.only == "end rules":
            return in_end
        return True


def every_effect(rs: model.Ruleset) -> list[model.Effect]:
    """Every effect of the rules: the plies' as each player makes them, those after each
    ply and the end rules' (for the analyses that read them all: dsl/monotone.py,
    dsl/domains.py)."""
    return ([e for ply in rs.plies for v in ply.variants() for e in v.effects] + list(rs.after)
            + [e for end in rs.ends for e in end.effects])


def emit(w: Writer, eff: model.Effect, cx: Ctx) -> None:
    """An effect on the position `cx.s`, through the back-end's writer (a `remove` is made
    with the ply, not here)."""
    BY_NODE[type(eff)].emit(w, eff, cx)


# ---------------------------------------------------------------- VAR[INDEX] op VALUE [when COND]

def _assign_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.Effect:
    name, index, op, value, guard = c
    return syn.Effect(span, var=str(name), var_span=t.tok_span(name), index=index, op=op, value=value,
                      guard=guard)


def _check_assign(ck: RuleChecks, eff: syn.Effect, in_end: bool, after: bool) -> None:
    if eff.guard is not None:
        ck.expect(eff.guard, "bool", ply=not (in_end or after), captured=not in_end)
    var = ck.vars.get(eff.var)
    kind = ck.kinds.get(eff.var) if var is None else None
    if kind is not None and kind.counted:  # `seed[CELLS] op VALUE`: each cell's count
        if eff.index is None:
            ck.error(eff.var_span, f"'{eff.var}' is counted cell by cell: say which cells",
                     f"write {eff.var}[here]")
        else:
            ck.expect(eff.index, "cells", ply=not (in_end or after))
        ck.expect(eff.value, "number", ply=not (in_end or after), captured=not in_end)
        return
    if var is None:
        ck.error(eff.var_span, f"unknown variable '{eff.var}'", ck.suggest(eff.var, ck.vars))
        return
    if var.per_player and eff.index is None:
        ck.error(eff.var_span, f"'{eff.var}' is kept per player: say whose", f"write {eff.var}[mover]")
    elif not var.per_player and eff.index is not None:
        ck.error(eff.index.span, f"'{eff.var}' is not kept per player: drop the [...]")
    elif eff.index is not None:
        ck.expect(eff.index, "player", ply=not (in_end or after))
    ck.expect(eff.value, "number", ply=not (in_end or after), captured=not in_end)


def _lower_assign(low: Lowering, eff: syn.Effect) -> model.Effect:
    if eff.var in low.counted:
        return model.SetCount(eff.span, eff.var, low.expr(eff.index), eff.op, low.expr(eff.value),
                              low.opt(eff.guard))
    return model.Assign(eff.span, eff.var, low.opt(eff.index), eff.op, low.expr(eff.value), low.opt(eff.guard))


def _assign(w: Writer, eff: model.Assign, cx: Ctx) -> None:
    """`var op value [when guard]`, and the check that the variable keeps to its range."""
    target = w.var_slot(eff.var, eff.index, cx)
    var = next(v for v in w.rs.vars if v.name == eff.var)
    fixed = eff.op == "=" and isinstance(eff.value, model.Num)
    checked = fixed and var.low <= eff.value.value <= var.high  # statically

    def body() -> None:
        w.update(target, eff.op, w.expr(eff.value, cx))
        if not checked:
            w.range_check(var, target)

    if eff.guard is None:
        body()
    else:
        with w.if_(w.expr(eff.guard, cx)):
            body()


def _set_count(w: Writer, eff: model.SetCount, cx: Ctx) -> None:
    """`KIND[CELLS] op value [when guard]`: the value and the cells read once, before any
    count changes; each cell's count kept to 0..the most a cell may hold, the kind's cells
    to those holding some."""
    def body() -> None:
        tag = f"{eff.span.line}_{eff.span.col}"  # locals of one effect of the source
        w.let("num", f"cv{tag}", w.expr(eff.value, cx))
        for t in w.rs.types_of(eff.kind):
            w.let("cells", f"cc{tag}", w.expr(eff.cells, cx))
            with w.each_bit(f"cc{tag}", f"cb{tag}", f"ci{tag}", eager=True):
                target = w.count_at(cx.s, t, f"ci{tag}")
                w.update(target, eff.op, f"cv{tag}")
                w.count_check(eff, eff.kind, w.rs.types[t].counted, target)
                mask = w.pieces(cx.s, str(t))
                with w.if_(w.arith(">", target, "0")):
                    w.or_into(mask, f"cb{tag}")
                with w.else_():
                    w.set(mask, w.andn(mask, f"cb{tag}"))

    if eff.guard is None:
        body()
    else:
        with w.if_(w.expr(eff.guard, cx)):
            body()


# ---------------------------------------------------------------- remove CELLS

def _remove_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.Effect:
    return syn.Effect(span, var="", var_span=span, index=None, op="", value=c[0], kind="remove")


def _check_remove(ck: RuleChecks, eff: syn.Effect, in_end: bool, after: bool) -> None:
    ck.expect(eff.value, "cells", ply=True)


def _lower_remove(low: Lowering, eff: syn.Effect) -> model.Effect:
    return model.Remove(eff.span, low.expr(eff.value))


# ---------------------------------------------------------------- promote CELLS to KIND

def _promote_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.Effect:
    cells, kind = c
    return syn.Effect(span, var=str(kind), var_span=t.tok_span(kind), index=None, op="", value=cells,
                      kind="promote")


def _check_promote(ck: RuleChecks, eff: syn.Effect, in_end: bool, after: bool) -> None:
    ck.expect(eff.value, "cells", ply=not (in_end or after))
    kind = ck.kinds.get(eff.var)
    if kind is None:
        ck.error(eff.var_span, f"unknown piece '{eff.var}'", ck.suggest(eff.var, ck.kinds))
    elif kind.size != 1 or eff.var in ck.placed_whole or kind.on is not None:
        ck.error(eff.var_span, f"pieces are promoted to a kind covering one cell on the board; "
                               f"'{eff.var}' is not one")


def _lower_promote(low: Lowering, eff: syn.Effect) -> model.Effect:
    return model.Promote(eff.span, low.expr(eff.value), eff.var)


def _promote(w: Writer, eff: model.Promote, cx: Ctx) -> None:
    """The pieces on the cells change type, kind by kind (the cells read once, before)."""
    pairs = w.rs.promotions(eff.kind)
    if not pairs:
        return
    cells = f"prom{eff.span.line}_{eff.span.col}"  # one local per effect of the source
    w.let("cells", cells, w.expr(eff.cells, cx))
    for i, j in pairs:
        moved = w.and_(w.pieces(cx.s, str(i)), cells)
        w.or_into(w.pieces(cx.s, str(j)), moved)
        w.set(w.pieces(cx.s, str(i)), w.andn(w.pieces(cx.s, str(i)), cells))


# ---------------------------------------------------------------- reset setup

def _reset_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.Effect:
    return syn.Effect(span, var="", var_span=span, index=None, op="", value=None, kind="reset")


def _lower_reset(low: Lowering, eff: syn.Effect) -> model.Effect:
    return model.Reset(eff.span)


def _reset(w: Writer, eff: model.Reset, cx: Ctx) -> None:
    """The pieces of the setup, and every reserve full again."""
    w.reset_pieces(cx.s)
    for t, slot in w.L.reserve_offsets.items():
        w.set(w.slot(cx.s, slot), str(w.rs.types[t].reserve))


# ---------------------------------------------------------------- turn to PLAYER

def _turn_to_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.Effect:
    return syn.Effect(span, var="", var_span=span, index=None, op="", value=None, kind="turn_to",
                      player=t.player_ref(c[0]))


def _check_turn_to(ck: RuleChecks, eff: syn.Effect, in_end: bool, after: bool) -> None:
    ck.expect(eff.player, "player", ply=False)


def _lower_turn_to(low: Lowering, eff: syn.Effect) -> model.Effect:
    return model.TurnTo(eff.span, low.expr(eff.player))


def _turn_to(w: Writer, eff: model.TurnTo, cx: Ctx) -> None:
    w.set(w.slot(cx.s, w.L.P), w.expr(eff.player, cx))
    w.set(w.slot(cx.s, w.L.PH), "TURN_START")


EFFECTS = (
    EffectConstruct("assign", None, "VAR op VALUE", "", model.Assign, _assign_syntax, _check_assign,
                    _lower_assign, _assign),
    EffectConstruct("remove", "remove", "remove", "plies", model.Remove, _remove_syntax, _check_remove,
                    _lower_remove),
    EffectConstruct("promote", "promote", "promote", "", model.Promote, _promote_syntax, _check_promote,
                    _lower_promote, _promote),
    EffectConstruct("reset", "reset", "reset setup", "end rules", model.Reset, _reset_syntax, _nothing,
                    _lower_reset, _reset),
    EffectConstruct("turn_to", "turn", "turn to", "end rules", model.TurnTo, _turn_to_syntax,
                    _check_turn_to, _lower_turn_to, _turn_to),
)
BY_NODE = {e.node: e for e in EFFECTS}  # for the back-ends
# An assignment to a counted kind's cells (`seed[CELLS] += 1`) is written as one to a
# variable and lowered to its own node.
BY_NODE[model.SetCount] = EffectConstruct("assign", None, "VAR op VALUE", "", model.SetCount, _assign_syntax,
                                          _check_assign, _lower_assign, _set_count)
