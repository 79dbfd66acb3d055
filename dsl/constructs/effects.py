"""Effects: `VAR op VALUE [when COND]` (plies, end rules, after each ply), `remove CELLS`
(plies), `reset setup` and `turn to PLAYER` (end rules that let the game go on).

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
    from interpreter.python.pyexpr import Ctx, ExprCompiler

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
    emit_python: Callable[..., None] = _nothing  # (ExprCompiler, node, Ctx, indent)
    emit_c: Callable[..., None] = _nothing  # (CExpr, node, ctx, indent)

    def may_stand(self, in_end: bool, after: bool) -> bool:
        """Whether it may be an effect of an end rule (`in_end`), `after each ply` (`after`),
        or else of a ply."""
        if self.only == "plies":
            return not (in_end or after)
        if self.only == "end rules":
            return in_end
        return True


def emit_python(c: ExprCompiler, eff: model.Effect, cx: Ctx, indent: int) -> None:
    """An effect on the position list `cx.s` (a `remove` is made with the ply, not here)."""
    BY_NODE[type(eff)].emit_python(c, eff, cx, indent)


def emit_c(c, eff: model.Effect, cx, indent: int) -> None:
    """An effect on the state `cx.s` in C (the native back-end's CExpr passes itself in);
    a variable leaving its range returns RC_ERR_RANGE, where Python raises."""
    BY_NODE[type(eff)].emit_c(c, eff, cx, indent)


# ---------------------------------------------------------------- VAR[INDEX] op VALUE [when COND]

def _assign_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.Effect:
    name, index, op, value, guard = c
    return syn.Effect(span, var=str(name), var_span=t.tok_span(name), index=index, op=op, value=value,
                      guard=guard)


def _check_assign(ck: RuleChecks, eff: syn.Effect, in_end: bool, after: bool) -> None:
    if eff.guard is not None:
        ck.expect(eff.guard, "bool", ply=not (in_end or after), captured=not in_end)
    var = ck.vars.get(eff.var)
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
    return model.Assign(eff.span, eff.var, low.opt(eff.index), eff.op, low.expr(eff.value), low.opt(eff.guard))


def _assign_python(c: ExprCompiler, eff: model.Assign, cx: Ctx, indent: int) -> None:
    """`var op value [when guard]`, and the check that the variable keeps to its range."""
    target = c.var_slot(eff.var, eff.index, cx)
    if eff.guard is not None:
        c.out.line(indent, f"if {c.expr(eff.guard, cx)}:")
        indent += 1
    c.out.line(indent, f"{target} {eff.op} {c.expr(eff.value, cx)}")
    var = next(v for v in c.rs.vars if v.name == eff.var)
    fixed = eff.op == "=" and isinstance(eff.value, model.Num)
    if not (fixed and var.low <= eff.value.value <= var.high):  # else: checked statically
        c.out.line(indent, f"if not {var.low} <= {target} <= {var.high}: {c.range_guard(var)}({target})")


def _assign_c(c, eff: model.Assign, cx, indent: int) -> None:
    out = c.out
    target = c.var_slot(eff.var, eff.index, cx)
    guard = f"if ({c.expr(eff.guard, cx)}) " if eff.guard is not None else ""
    out.line(indent, f"{guard}{{")
    out.line(indent + 1, f"{target} {eff.op} {c.expr(eff.value, cx)};")
    var = next(v for v in c.rs.vars if v.name == eff.var)
    fixed = eff.op == "=" and isinstance(eff.value, model.Num)
    if not (fixed and var.low <= eff.value.value <= var.high):
        out.line(indent + 1, f"if (!({var.low}LL <= {target} && {target} <= {var.high}LL)) "
                             f"return RC_ERR_RANGE;")
    out.line(indent, "}")


# ---------------------------------------------------------------- remove CELLS

def _remove_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.Effect:
    return syn.Effect(span, var="", var_span=span, index=None, op="", value=c[0], kind="remove")


def _check_remove(ck: RuleChecks, eff: syn.Effect, in_end: bool, after: bool) -> None:
    ck.expect(eff.value, "cells", ply=True)


def _lower_remove(low: Lowering, eff: syn.Effect) -> model.Effect:
    return model.Remove(eff.span, low.expr(eff.value))


# ---------------------------------------------------------------- reset setup

def _reset_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.Effect:
    return syn.Effect(span, var="", var_span=span, index=None, op="", value=None, kind="reset")


def _lower_reset(low: Lowering, eff: syn.Effect) -> model.Effect:
    return model.Reset(eff.span)


def _reset_python(c: ExprCompiler, eff: model.Reset, cx: Ctx, indent: int) -> None:
    out, L, b = c.out, c.L, cx.s
    out.line(indent, f"{b}[:{L.types}] = SETUP")
    for slot in L.reserve_offsets.values():
        out.line(indent, f"{b}[{slot}] = INITIAL[{slot}]")


def _reset_c(c, eff: model.Reset, cx, indent: int) -> None:
    out, L, b = c.out, c.L, cx.s
    for i in range(L.types):
        out.line(indent, f"{b}->c[{i}] = SETUP[{i}];")
    for slot in L.reserve_offsets.values():
        out.line(indent, f"{c.slot(b, slot)} = {c.rs.types[_reserve_type(L, slot)].reserve};")


def _reserve_type(layout, slot: int) -> int:
    return next(t for t, s in layout.reserve_offsets.items() if s == slot)


# ---------------------------------------------------------------- turn to PLAYER

def _turn_to_syntax(t: ToSyntax, span: syn.Span, c: list) -> syn.Effect:
    return syn.Effect(span, var="", var_span=span, index=None, op="", value=None, kind="turn_to",
                      player=t.player_ref(c[0]))


def _check_turn_to(ck: RuleChecks, eff: syn.Effect, in_end: bool, after: bool) -> None:
    ck.expect(eff.player, "player", ply=False)


def _lower_turn_to(low: Lowering, eff: syn.Effect) -> model.Effect:
    return model.TurnTo(eff.span, low.expr(eff.player))


def _turn_to_python(c: ExprCompiler, eff: model.TurnTo, cx: Ctx, indent: int) -> None:
    out, L, b = c.out, c.L, cx.s
    out.line(indent, f"{b}[{L.P}] = {c.expr(eff.player, cx)}")
    out.line(indent, f"{b}[{L.PH}] = TURN_START")


def _turn_to_c(c, eff: model.TurnTo, cx, indent: int) -> None:
    out, b = c.out, cx.s
    out.line(indent, f"{c.P(b)} = {c.expr(eff.player, cx)};")
    out.line(indent, f"{c.PH(b)} = TURN_START;")


EFFECTS = (
    EffectConstruct("assign", None, "VAR op VALUE", "", model.Assign, _assign_syntax, _check_assign,
                    _lower_assign, _assign_python, _assign_c),
    EffectConstruct("remove", "remove", "remove", "plies", model.Remove, _remove_syntax, _check_remove,
                    _lower_remove),
    EffectConstruct("reset", "reset", "reset setup", "end rules", model.Reset, _reset_syntax, _nothing,
                    _lower_reset, _reset_python, _reset_c),
    EffectConstruct("turn_to", "turn", "turn to", "end rules", model.TurnTo, _turn_to_syntax,
                    _check_turn_to, _lower_turn_to, _turn_to_python, _turn_to_c),
)
BY_NODE = {e.node: e for e in EFFECTS}  # for the back-ends
