"""A plan (interpreter/codegen/stmt.py) printed as Python over a state list."""

from __future__ import annotations

from dsl.constructs import effects

from interpreter.codegen import stmt as st
from interpreter.codegen.printer import Printer
from interpreter.python.pyexpr import Ctx, ExprCompiler


class PythonPrinter(Printer):
    """Writes plans into the game's Python module (a function returns its state list as a
    tuple)."""

    NOT = "not {}"
    AND = "{} and {}"
    HELPERS = {"has_move": "has_move", "skip": "_skip"}

    def __init__(self, c: ExprCompiler):
        super().__init__(c.out.line, c.expr, lambda eff, cx, indent: effects.emit_python(c, eff, cx, indent))
        self.L = c.L

    def open_function(self, f: st.Function) -> None:
        params = ", ".join(p.name if p.default is None else
                           f"{p.name}={bool(p.default) if p.kind is st.Kind.FLAG else p.default}"
                           for p in f.params)
        self.line(0, f"def {f.name}({params}):")

    def close_function(self, f: st.Function) -> None:
        self.line(0, "")

    def let(self, s: st.Let) -> str:
        return f"{s.name} = {self.expr(s.value)}"

    def assign(self, target: str, value: str) -> str:
        return f"{target} = {value}"

    def if_lines(self, cond: str) -> tuple[str, str, str | None]:
        return f"if {cond}:", "else:", None

    def return_line(self, f: st.Function, value: str | None) -> str:
        return f"return tuple({f.state})" if value is None else f"return {value}"

    def field(self, e: st.Field) -> str:
        return f"{e.state}[{getattr(self.L, e.slot.value)}]"

    def context(self, e: st.ModelExpr) -> Ctx:
        return Ctx(e.state, e.player, stuck=e.stuck, next_is_mover=e.next_is_mover)
