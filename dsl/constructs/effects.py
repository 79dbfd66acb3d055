"""Effects: `VAR op VALUE [when COND]` (plies, end rules, after each ply), `remove CELLS`
(plies), `reset setup` and `turn to PLAYER` (end rules that let the game go on).

The family's checks, its model nodes' lowering and its Python code. A `remove` is made
by the ply's motion: its cells are computed with the ply and travel in its action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dsl import model
from dsl import syntax as syn

if TYPE_CHECKING:  # the checker, the lowering and the back-end pass themselves in
    from interpreter.python.pyexpr import Ctx, ExprCompiler

    from dsl.check_rules import RuleChecks
    from dsl.lower import Lowering


def check(ck: RuleChecks, eff: syn.Effect, in_end: bool, after: bool) -> None:
    """An effect of a ply, an end rule (`in_end`) or `after each ply` (`after`)."""
    if eff.kind == "remove":
        if in_end or after:
            ck.error(eff.span, "`remove` is an effect of plies only")
        else:
            ck.expect(eff.value, "cells", ply=True)
        return
    if eff.guard is not None:
        ck.expect(eff.guard, "bool", ply=not (in_end or after), captured=not in_end)
    if eff.kind != "assign":
        word = "reset setup" if eff.kind == "reset" else "turn to"
        if not in_end:
            ck.error(eff.span, f"`{word}` is an effect of end rules only")
        elif eff.kind == "turn":
            ck.expect(eff.player, "player", ply=False)
        return
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


def lower(low: Lowering, eff: syn.Effect) -> model.Effect:
    if eff.kind == "remove":
        return model.Remove(eff.span, low.expr(eff.value))
    if eff.kind == "reset":
        return model.Reset(eff.span)
    if eff.kind == "turn":
        return model.TurnTo(eff.span, low.expr(eff.player))
    return model.Assign(eff.span, eff.var, low.opt(eff.index), eff.op, low.expr(eff.value), low.opt(eff.guard))


def emit_python(c: ExprCompiler, eff: model.Effect, cx: Ctx, indent: int) -> None:
    """An effect on the position list `cx.s` (a `remove` is made with the ply, not here)."""
    out, L, b = c.out, c.L, cx.s
    if isinstance(eff, model.Reset):
        out.line(indent, f"{b}[:{L.types}] = SETUP")
        for slot in L.reserve_offsets.values():
            out.line(indent, f"{b}[{slot}] = INITIAL[{slot}]")
    elif isinstance(eff, model.TurnTo):
        out.line(indent, f"{b}[{L.P}] = {c.expr(eff.player, cx)}")
        out.line(indent, f"{b}[{L.PH}] = TURN_START")
    elif isinstance(eff, model.Assign):
        _assign(c, eff, cx, indent)


def _assign(c: ExprCompiler, eff: model.Assign, cx: Ctx, indent: int) -> None:
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


def emit_c(c, eff: model.Effect, cx, indent: int) -> None:
    """An effect on the state `cx.s` in C (the native back-end's CExpr passes itself in);
    a variable leaving its range returns RC_ERR_RANGE, where Python raises."""
    out, L, b = c.out, c.L, cx.s
    if isinstance(eff, model.Reset):
        for i in range(L.types):
            out.line(indent, f"{b}->c[{i}] = SETUP[{i}];")
        for slot in L.reserve_offsets.values():
            out.line(indent, f"{c.slot(b, slot)} = {c.rs.types[_reserve_type(L, slot)].reserve};")
    elif isinstance(eff, model.TurnTo):
        out.line(indent, f"{c.P(b)} = {c.expr(eff.player, cx)};")
        out.line(indent, f"{c.PH(b)} = TURN_START;")
    elif isinstance(eff, model.Assign):
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


def _reserve_type(layout, slot: int) -> int:
    return next(t for t, s in layout.reserve_offsets.items() if s == slot)
