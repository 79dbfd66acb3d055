"""What printing a plan is in any language: the walk over statements and expressions.
A back-end's printer (interpreter/python/printer.py, interpreter/native/printer.py)
gives the syntax: its operators, how a line of each statement reads, its helpers' names,
and its expression compiler and effect writer for the model's own parts."""

from __future__ import annotations

from typing import Any

from interpreter.codegen import stmt as st
from interpreter.codegen.writer import Writer


class Printer:
    """A plan printed through a back-end's writer `w` (its lines, its expressions and
    effects); subclasses fill in the syntax of the statements."""

    NOT = ""  # the format of a negation: "not {}" / "!{}"
    AND = ""  # of a conjunction: "{} and {}" / "{} && {}"
    OR = ""  # of a disjunction: "{} or {}" / "{} || {}"
    HELPERS: dict[str, str] = {}  # the runtime's helpers, as the generated code names them
    PLIES = ""  # the list of plies a function builds, as an expression
    NO_PLIES = ""  # no ply

    def __init__(self, w: Writer):
        self.w, self.line = w, w.out.line

    # ------------------------------------------------------------ the syntax (subclasses)
    def open_function(self, f: st.Function) -> None:
        raise NotImplementedError

    def close_function(self, f: st.Function) -> None:
        raise NotImplementedError

    def let(self, s: st.Let) -> str:
        raise NotImplementedError

    def assign(self, target: str, value: str) -> str:
        raise NotImplementedError

    def if_lines(self, cond: str) -> tuple[str, str, str | None]:
        """The lines that open a conditional, open its else, close it (None: nothing)."""
        raise NotImplementedError

    def return_line(self, f: st.Function, value: str | None) -> str:
        raise NotImplementedError

    def loop_lines(self, count: int) -> tuple[str, str | None]:
        """The lines that open and close a loop run at most `count` times."""
        raise NotImplementedError

    def phase_switch(self, s: st.PhaseSwitch, indent: int, f: st.Function) -> None:
        raise NotImplementedError

    def name(self, func: str) -> str:
        """A function's name in the generated code (the runtime's helpers have their own)."""
        return self.HELPERS.get(func, func)

    def field(self, e: st.Field) -> str:
        raise NotImplementedError

    def context(self, cx: st.Context) -> Any:
        raise NotImplementedError

    def call_args(self, e: st.Call, args: list[str]) -> list[str]:
        return args

    def collect(self, s: st.Collect) -> str:
        raise NotImplementedError

    def add_pass(self, s: st.AddPass) -> str:
        raise NotImplementedError

    def must_capture(self, s: st.MustCapture) -> str:
        raise NotImplementedError

    # ------------------------------------------------------------ the walk
    def function(self, f: st.Function) -> None:
        self.open_function(f)
        self.block(f.body, 1, f)
        self.close_function(f)

    def block(self, body: tuple[st.Stmt, ...], indent: int, f: st.Function) -> None:
        for s in body:
            self.stmt(s, indent, f)

    def stmt(self, s: st.Stmt, indent: int, f: st.Function) -> None:
        if isinstance(s, st.Let):
            self.line(indent, self.let(s))
        elif isinstance(s, st.Set):
            self.line(indent, self.assign(self.expr(s.target), self.expr(s.value)))
        elif isinstance(s, st.If):
            opening, other, closing = self.if_lines(self.expr(s.cond))
            self.line(indent, opening)
            self.block(s.then, indent + 1, f)
            if s.orelse:
                self.line(indent, other)
                self.block(s.orelse, indent + 1, f)
            if closing is not None:
                self.line(indent, closing)
        elif isinstance(s, st.Return):
            self.line(indent, self.return_line(f, None if s.value is None else self.expr(s.value)))
        elif isinstance(s, st.Effects):
            cx = self.context(s.context)
            with self.w.at(indent):
                for eff in s.effects:
                    self.w.effect(eff, cx)
        elif isinstance(s, st.Loop):
            opening, closing = self.loop_lines(s.count)
            self.line(indent, opening)
            self.block(s.body, indent + 1, f)
            if closing is not None:
                self.line(indent, closing)
        elif isinstance(s, st.PhaseSwitch):
            self.phase_switch(s, indent, f)
        elif isinstance(s, st.Collect):
            self.line(indent, self.collect(s))
        elif isinstance(s, st.AddPass):
            self.line(indent, self.add_pass(s))
        elif isinstance(s, st.MustCapture):
            self.line(indent, self.must_capture(s))
        else:
            raise TypeError(f"not a statement: {s!r}")

    def expr(self, e: st.Expr) -> str:
        if isinstance(e, st.Var):
            return e.name
        if isinstance(e, st.Num):
            return str(e.value)
        if isinstance(e, st.Field):
            return self.field(e)
        if isinstance(e, st.Index):
            return f"{e.table}[{self.expr(e.index)}]"
        if isinstance(e, st.Call):
            args = self.call_args(e, [self.expr(a) for a in e.args])
            return f"{self.name(e.func)}({', '.join(args)})"
        if isinstance(e, st.Not):
            return self.NOT.format(self._operand(e.operand))
        if isinstance(e, st.And):
            return self.AND.format(self.expr(e.left), self.expr(e.right))
        if isinstance(e, st.Or):
            return self.OR.format(self._operand(e.left), self._operand(e.right))
        if isinstance(e, st.BinOp):
            return f"{self._operand(e.left)} {e.op} {self._operand(e.right)}"
        if isinstance(e, st.ModelExpr):
            return self.w.expr(e.expr, self.context(e.context))
        if isinstance(e, st.Plies):
            return self.PLIES
        if isinstance(e, st.NoPlies):
            return self.NO_PLIES
        raise TypeError(f"not an expression: {e!r}")

    def _operand(self, e: st.Expr) -> str:
        text = self.expr(e)
        return f"({text})" if isinstance(e, (st.And, st.Or, st.BinOp)) else text
