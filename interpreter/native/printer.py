"""A plan (interpreter/codegen/stmt.py) printed as C over a state pointer."""

from __future__ import annotations

from interpreter.codegen import stmt as st
from interpreter.codegen.context import Ctx
from interpreter.codegen.printer import Printer
from interpreter.native.cwriter import CWriter

_PARAM = {st.Kind.STATE: "S *", st.Kind.IN_STATE: "const S *", st.Kind.FLAG: "int ", st.Kind.INT: "int64_t ",
          st.Kind.PLIES: "Buf *"}
_LOCAL = {st.Kind.FLAG: "int", st.Kind.INT: "int"}


class CPrinter(Printer):
    """Writes plans into the game's C (a function writes its state and returns 0, or a
    negative error code). C has no default arguments: a call that leaves out the callee's
    last ones passes their defaults."""

    NOT = "!{}"
    AND = "{} && {}"
    OR = "{} || {}"
    HELPERS = {"has_move": "rc_has_move", "skip": "rc_skip", "outcome": "rc_outcome", "legal": "rc_legal"}
    PLIES = "out->n"
    NO_PLIES = "0"

    def __init__(self, c: CWriter):
        super().__init__(c)
        self.c, self.out = c, c.out

    def open_function(self, f: st.Function) -> None:
        self.out.function(f"int {self.name(f.name)}({', '.join(_PARAM[p.kind] + p.name for p in f.params)})")
        unused = [p.name for p in f.params if p.kind not in (st.Kind.STATE, st.Kind.IN_STATE, st.Kind.PLIES)]
        if unused:  # a ruleset's rules may never read them: every warning is an error
            self.line(1, " ".join(f"(void){name};" for name in unused))
        for p in f.params:
            if p.kind is st.Kind.PLIES:  # the caller's buffer: the function lists afresh
                self.line(1, f"{p.name}->n = 0;")

    def close_function(self, f: st.Function) -> None:
        self.out.end()

    def let(self, s: st.Let) -> str:
        return f"{_LOCAL[s.kind]} {s.name} = {self.expr(s.value)};"

    def assign(self, target: str, value: str) -> str:
        return f"{target} = {value};"

    def if_lines(self, cond: str) -> tuple[str, str, str | None]:
        return f"if ({cond}) {{", "} else {", "}"

    def return_line(self, f: st.Function, value: str | None) -> str:
        return "return 0;" if value is None else f"return {value};"

    def loop_lines(self, count: int) -> tuple[str, str | None]:
        return f"for (int i = 0; i < {count}; i++) {{", "}"

    def phase_switch(self, s: st.PhaseSwitch, indent: int, f: st.Function) -> None:
        self.line(indent, f"switch ((int){self.c.P(s.state)} * {s.phases} + (int){self.c.PH(s.state)}) {{")
        for case in s.cases:
            self.line(indent, f"case {case.player * s.phases + case.phase}:")
            self.block(case.body, indent + 1, f)
        self.line(indent, "}")
        self.line(indent, "return 0;")  # no such player and phase: a state no ply makes

    def field(self, e: st.Field) -> str:
        return getattr(self.c, e.slot.value)(e.state)

    def collect(self, s: st.Collect) -> str:
        return f"{{ int e = {s.func}(s, out, FULL, FULL); if (e < 0) return e; }}"

    def add_pass(self, s: st.AddPass) -> str:
        return f"if (buf_push(out, act({s.code}, 0, 0, 0, m_zero()))) return RC_ERR_MEMORY;"

    def must_capture(self, s: st.MustCapture) -> str:
        return "if (out->n) { int e = rc_must_capture(s, out); if (e < 0) return e; }"

    def context(self, cx: st.Context) -> Ctx:
        return Ctx(cx.state, cx.player, stuck=cx.stuck, next_is_mover=cx.next_is_mover)

    def call_args(self, e: st.Call, args: list[str]) -> list[str]:
        return args + [str(p.default) for p in (e.params or ())[len(args):]]
