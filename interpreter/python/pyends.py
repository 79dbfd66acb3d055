"""End rules, turn order and the pass ply (Python source): the turn logic's plans
(interpreter/codegen/turns.py) printed, and the pass ply's apply function."""

from __future__ import annotations

from dsl.model import TurnPhase

from interpreter.codegen import turns
from interpreter.python import pyapply
from interpreter.python.printer import PythonPrinter
from interpreter.python.pyexpr import ExprCompiler


def emit_ends(c: ExprCompiler, p: int) -> None:
    """`ends_P`: the end rules after a ply by `p` (turns.ends_function's plan)."""
    PythonPrinter(c).function(turns.ends_function(c.rs, p))


def emit_pass(c: ExprCompiler, p: int) -> None:
    """`pass_P`: the `pass` ply of player `p`: nothing moves; the effects after each ply apply."""
    c.out.line(0, f"def pass_{p}(s, a):")
    c.out.line(1, "here = frm = 0")
    pyapply.emit_captured(c, None, p, None)
    c.out.line(1, "b = list(s)")
    pyapply.emit_effects(c, None, p)
    c.out.line(1, f"return finish_{p}(b, s[{c.L.PH}])")
    c.out.line(0, "")


def emit_finish(c: ExprCompiler, p: int, skips: bool) -> None:
    """`finish_P`: the next phase or turn, then the end rules (turns.finish_function's plan)."""
    PythonPrinter(c).function(turns.finish_function(p, len(c.rs.players), skips))


def emit_turns(c: ExprCompiler, phases: list[TurnPhase], codes: dict[tuple[str, int], int],
               n_players: int) -> None:
    """`has_move`, `_skip` and `outcome`: the turn logic's plans (interpreter/codegen/turns.py),
    which the native back-end prints as rc_has_move, rc_skip and rc_outcome."""
    printer = PythonPrinter(c)
    printer.function(turns.has_move_function(phases, codes, n_players))
    printer.function(turns.skip_function(len(phases), n_players))
    printer.function(turns.outcome_function(c.rs))
