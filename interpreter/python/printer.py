"""A plan (interpreter/codegen/stmt.py) printed as Python over a state list."""

from __future__ import annotations

from dsl import model

from interpreter.codegen import stmt as st
from interpreter.codegen.context import Ctx
from interpreter.codegen.printer import Printer
from interpreter.python.pywriter import PyWriter


class PythonPrinter(Printer):
    """Writes plans into the game's Python module (a function returns its state list as a
    tuple)."""

    NOT = "not {}"
    AND = "{} and {}"
    OR = "{} or {}"
    HELPERS = {"has_move": "has_move", "skip": "_skip"}
    PLIES = "acts"
    NO_PLIES = "[]"

    def __init__(self, c: PyWriter):
        super().__init__(c)
        self.L = c.L

    def function(self, f: st.Function) -> None:
        if len(f.body) == 1 and isinstance(f.body[0], st.PhaseSwitch):
            self._switch_function(f, f.body[0])
        else:
            super().function(f)

    def _switch_function(self, f: st.Function, sw: st.PhaseSwitch) -> None:
        """A function per (player, phase), a table of them, and the function that looks the
        state's up: no chain of tests."""
        name = self.name(f.name)
        table: dict[int, list[str]] = {}
        for case in sw.cases:
            self.function(st.Function(f"{name}_{case.player}_{case.phase}", f.params, case.body, f.state))
            table.setdefault(case.player, []).append(f"{name}_{case.player}_{case.phase}")
        rows = ", ".join(f"[{', '.join(row)}]" for _, row in sorted(table.items()))
        self.line(0, f"{name.upper().lstrip('_')}_BY_PHASE = [{rows}]")
        self.open_function(f)
        args = ", ".join(p.name for p in f.params if p.kind is not st.Kind.PLIES)
        self.line(1, f"return {name.upper().lstrip('_')}_BY_PHASE[{sw.state}[{self.L.P}]][{sw.state}[{self.L.PH}]]({args})")
        self.close_function(f)

    def open_function(self, f: st.Function) -> None:
        params = ", ".join(p.name if p.default is None else
                           f"{p.name}={bool(p.default) if p.kind is st.Kind.FLAG else p.default}"
                           for p in f.params if p.kind is not st.Kind.PLIES)
        self.line(0, f"def {self.name(f.name)}({params}):")

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

    def loop_lines(self, count: int) -> tuple[str, str | None]:
        return f"for _ in range({count}):", None

    def field(self, e: st.Field) -> str:
        return f"{e.state}[{getattr(self.L, e.slot.value)}]"

    def collect(self, s: st.Collect) -> str:
        return f"acts {'=' if s.first else '+='} {s.func}(s)"  # a generator's list is fresh

    def add_pass(self, s: st.AddPass) -> str:
        return f"acts = [({s.code},)]" if s.first else f"acts.append(({s.code},))"

    def must_capture(self, s: st.MustCapture) -> str:
        theirs = self.w.rs.selected(None, model.Owner.OPPONENT, s.player)
        # one-cell pieces: a ply's captures are its taken cells that hold the opponent's
        narrow = all(self.w.rs.types[i].size == 1 for i in theirs)
        mask = self.w.types_union(theirs, s.state) if narrow else "None"
        return f"acts = _must_capture({s.state}, acts, TAKEN, {mask}, OPP[{s.player}], {s.maximum})"

    def context(self, cx: st.Context) -> Ctx:
        return Ctx(cx.state, cx.player, stuck=cx.stuck, next_is_mover=cx.next_is_mover)
