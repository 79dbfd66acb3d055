"""End rules and turn order (Python source): the turn logic's plans
(interpreter/codegen/turns.py) printed."""

from __future__ import annotations

from dsl.model import TurnPhase

from interpreter.codegen import turns
from interpreter.python.printer import PythonPrinter
from interpreter.python.pywriter import PyWriter


def emit_ends(c: PyWriter, p: int) -> None:
    """`ends_P`: the end rules after a ply by `p` (turns.ends_function's plan)."""
    PythonPrinter(c).function(turns.ends_function(c.rs, p))


def emit_finish(c: PyWriter, p: int, skips: bool) -> None:
    """`finish_P`: the next phase or turn, then the end rules (turns.finish_function's plan)."""
    PythonPrinter(c).function(turns.finish_function(p, len(c.rs.players), skips))


def emit_turns(c: PyWriter, phases: list[TurnPhase], codes: dict[tuple[str, int], int],
               n_players: int, pass_code: int) -> None:
    """`has_move`, `legal`, `_skip` and `outcome`: the turn logic's plans
    (interpreter/codegen/turns.py), which the native back-end prints as rc_has_move,
    rc_legal, rc_skip and rc_outcome."""
    printer = PythonPrinter(c)
    printer.function(turns.has_move_function(phases, codes, n_players))
    printer.function(turns.legal_function(c.rs, phases, codes, pass_code))
    printer.function(turns.skip_function(len(phases), n_players))
    printer.function(turns.outcome_function(c.rs))
