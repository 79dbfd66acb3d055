"""The range of every number the rules compute, so that both back-ends compute the same.

Python's integers do not overflow and the native back-end's 64-bit ones do. Every number
a ruleset reads has a bound (a literal, a variable's declared range, a count of cells), so
each arithmetic node's range follows by interval arithmetic; a node, or a variable's
assignment, whose range leaves 64 bits is refused here, at its position. What checks then
cannot overflow on either back-end.

A generic pass over the checked model (`dsl/model.py`): every expression of every rule is
found by walking the model's dataclasses, so a new construct's expressions are covered.
"""

from __future__ import annotations

import dataclasses

from dsl import model
from dsl.diagnostics import Diagnostic

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1

Range = tuple[int, int]
# The range of a number already refused: what contains it is not refused again.
REFUSED = None


def _n(value: int) -> str:
    return f"{value:,}"


class RangeCheck:
    """Finds the arithmetic of a ruleset that could leave 64 bits."""

    def __init__(self, rs: model.Ruleset) -> None:
        self.rs = rs
        self.vars = {v.name: v for v in rs.vars}
        cells = len(rs.board.names)
        self.counts = (0, cells)
        # A ply removes at most every piece on the board (a cell holds at most a piece of
        # each type: a tile and the disc it carries).
        self.captured = (0, cells * max(1, len(rs.types)))
        self.errors: list[Diagnostic] = []

    def run(self) -> list[Diagnostic]:
        for root in (self.rs.plies, self.rs.ends, self.rs.after):
            self._walk(root)
        return self.errors

    # ------------------------------------------------------------ walking the model
    def _walk(self, node: object) -> None:
        if isinstance(node, model.Expr):
            self.range(node)
        elif isinstance(node, model.Assign):
            self._assign(node)
        elif isinstance(node, model.SetCount):
            self._set_count(node)
        elif isinstance(node, (list, tuple)):
            for x in node:
                self._walk(x)
        elif dataclasses.is_dataclass(node) and not isinstance(node, type):
            for f in dataclasses.fields(node):
                self._walk(getattr(node, f.name))

    def _assign(self, eff: model.Assign) -> None:
        """`var op value`: the value, and what the variable holds before its range is checked."""
        for x in (eff.index, eff.guard):
            if x is not None:
                self._walk(x)
        got = self.range(eff.value)
        var = self.vars.get(eff.var)
        if got is REFUSED or var is None or eff.op == "=":
            return
        lo, hi = got
        if eff.op == "+=":
            got = (var.low + lo, var.high + hi)
        else:
            got = (var.low - hi, var.high - lo)
        if not self._fits(got):
            self._refuse(eff.value, got, f"'{eff.var} {eff.op} ...' can reach {_n(_far(got))}")

    def _set_count(self, eff: model.SetCount) -> None:
        """`KIND[CELLS] op value`: a count (0 to the kind's most) and the value."""
        for x in (eff.cells, eff.guard):
            if x is not None:
                self._walk(x)
        got = self.range(eff.value)
        if got is REFUSED or eff.op == "=":
            return
        most = self._most(eff.kind)
        got = (got[0], most + got[1]) if eff.op == "+=" else (-got[1], most - got[0])
        if not self._fits(got):
            self._refuse(eff.value, got, f"'{eff.kind}[...] {eff.op} ...' can reach {_n(_far(got))}")

    def _most(self, kind: str) -> int:
        """The most pieces of a counted kind on one cell."""
        return max(t.counted for t in self.rs.types if t.kind == kind)

    # ------------------------------------------------------------ ranges
    def range(self, e: model.Expr) -> Range | None:
        """The least and greatest value of a number expression (walking its parts); None
        where a part of it was refused."""
        if isinstance(e, model.Num):
            return (e.value, e.value)
        if isinstance(e, model.VarRead):
            if e.index is not None:
                self._walk(e.index)
            var = self.vars.get(e.var)
            return (var.low, var.high) if var is not None else (0, 0)
        if isinstance(e, model.Amount):  # each cell holds at most the kind's most
            self._walk(e.cells)
            return (0, self._most(e.kind) * len(self.rs.board.names))
        if isinstance(e, model.Ref) and e.word is model.Word.CAPTURED:
            return self.captured
        if isinstance(e, model.Negate):
            got = self.range(e.operand)
            return REFUSED if got is REFUSED else self._checked(e, (-got[1], -got[0]))
        if isinstance(e, model.Binary) and e.type is model.Type.NUMBER:
            left, right = self.range(e.left), self.range(e.right)
            if left is REFUSED or right is REFUSED:
                return REFUSED
            (a, b), (c, d) = left, right
            if e.op == "+":
                got = (a + c, b + d)
            elif e.op == "-":
                got = (a - d, b - c)
            else:
                corners = (a * c, a * d, b * c, b * d)
                got = (min(corners), max(corners))
            return self._checked(e, got)
        if isinstance(e, model.Call) and e.func == "reserve":  # at most every reserve, whole
            return (0, sum(t.reserve or 0 for t in self.rs.types))
        if isinstance(e, model.Call) and e.func == "count":
            self._walk(e.args)
            return self.counts
        for f in dataclasses.fields(e):  # anything else: its parts are checked
            if f.name != "span":
                self._walk(getattr(e, f.name))
        return (0, 0)

    def _checked(self, e: model.Expr, got: Range) -> Range | None:
        if self._fits(got):
            return got
        self._refuse(e, got, f"this can reach {_n(_far(got))}")
        return REFUSED

    @staticmethod
    def _fits(got: Range) -> bool:
        return INT64_MIN <= got[0] and got[1] <= INT64_MAX

    def _refuse(self, e: model.Expr, got: Range, what: str) -> None:
        names = [repr(n) for n in sorted(_var_names(e))]
        named = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        hint = ("declare a narrower range" + (f" for {named}" if names else "")
                + " (`var NAME = ... in LOW..HIGH`), or compute less at once")
        self.errors.append(Diagnostic(e.span, f"{what}, past the 64-bit numbers the rules compute "
                                              f"with ({_n(INT64_MIN)}..{_n(INT64_MAX)})", hint))


def _far(got: Range) -> int:
    """The end of a range that leaves 64 bits."""
    return got[1] if got[1] > INT64_MAX else got[0]


def _var_names(e: object) -> set[str]:
    if isinstance(e, model.VarRead):
        return {e.var} | (_var_names(e.index) if e.index is not None else set())
    if dataclasses.is_dataclass(e) and not isinstance(e, type):
        out: set[str] = set()
        for f in dataclasses.fields(e):
            v = getattr(e, f.name)
            for x in (v if isinstance(v, (list, tuple)) else (v,)):
                if isinstance(x, model.Expr):
                    out |= _var_names(x)
        return out
    return set()


def range_errors(rs: model.Ruleset) -> list[Diagnostic]:
    """The arithmetic of `rs` that could leave 64 bits, one diagnostic each."""
    return RangeCheck(rs).run()
