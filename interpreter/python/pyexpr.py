"""Model expressions -> Python expressions over a state tuple of bitmasks and counters."""

from __future__ import annotations

from dataclasses import dataclass, replace

from dsl import model
from dsl.constructs import functions
from dsl.model import Ruleset, Word

from interpreter.runtime import limits
from interpreter.runtime.layout import Layout
from interpreter.python.pysource import PySource
from interpreter.runtime.tables import Tables

UNROLL = 8  # piece types written out one by one; more are looped over


@dataclass
class Ctx:
    """What an expression may refer to where it is compiled."""

    s: str  # the state sequence's local name
    mover: int
    here: str | None = None
    frm: str | None = None
    stuck: str | None = None
    next_is_mover: bool = True  # while generating plies, the player to move is the mover
    path: str = "0"  # the cells a slide passes (strictly between from and here)
    hoist: "Hoister | None" = None  # where loop-invariant subexpressions go
    single: bool = False  # here and from are single cells (table lookups work on them)
    adj_path: dict | None = None  # directions -> the local kept as adjacent(path) grows


class Hoister:
    """Locals for subexpressions that do not change inside a loop, computed above it.

    `inner` names what changes per candidate ply (here, path; from too for a push);
    what depends on none of it is computed once per call ("outer") or once per piece
    ("piece", when it depends on from).
    """

    def __init__(self, prefix: str, inner: set[str]):
        self.prefix, self.inner = prefix, inner
        self.outer: list[tuple[str, str]] = []
        self.piece: list[tuple[str, str]] = []
        self._names: dict[str, str] = {}

    def local(self, code: str, level: str) -> str:
        if code not in self._names:
            name = f"{self.prefix}{len(self._names)}"
            self._names[code] = name
            (self.piece if level == "piece" else self.outer).append((name, code))
        return self._names[code]


_HOISTED = (model.Call, model.Relate, model.Binary, model.Pieces, model.Compare, model.BoolOp, model.Not, model.VarRead)
_CELLS_OP = {"&": "({} & {})", "|": "({} | {})", "-": "({} & ~{})"}


def deps(e: model.Expr) -> set[str]:
    """What `e` reads: here, from, path (the ply's cells) and state (the position)."""
    out: set[str] = set()
    for n in model.walk(e):
        if isinstance(n, model.Ref):
            w = n.word.value
            out.add(w if w in ("here", "from", "path") else "state")
        elif isinstance(n, (model.Pieces, model.VarRead, model.Relate)):
            out.add("state")
        elif isinstance(n, model.Call) and n.func == "undoes":  # compares this ply with the last
            out |= {"here", "from", "state"}
    return out


class ExprCompiler:
    """Compiles expressions of one ruleset; tables and constants go to `out`'s globals."""

    def __init__(self, rs: Ruleset, tables: Tables, layout: Layout, out: PySource):
        self.rs, self.t, self.L, self.out = rs, tables, layout, out

    def const(self, key: tuple, value: object, prefix: str) -> str:
        return self.out.const(key, value, prefix)

    def adj(self, dirs: tuple[str, ...] | list[str] | None) -> str:
        key = None if dirs is None else tuple(dirs)
        return self.const(("adj", key), self.t.adjacency(None if dirs is None else list(dirs)), "ADJ")

    def mask_const(self, mask: int) -> str:
        return self.const(("mask", mask), mask, "K")

    def occ(self, s: str) -> str:
        return self.types_expr(list(range(self.L.types)), s)

    def types_expr(self, types: list[int], s: str) -> str:
        """The union of the masks of `types` in state `s` (a loop past a few types, so that
        the source grows with the rules, not with rules x kinds)."""
        if not types:
            return "0"
        if len(types) > UNROLL:
            return f"_union({s}, {self.type_tuple(types)})"
        return "(" + " | ".join(f"{s}[{i}]" for i in types) + ")"

    def type_tuple(self, types: list[int]) -> str:
        """A tuple of piece types as the source writes it (a named constant when long)."""
        t = tuple(types)
        return repr(t) if len(t) <= UNROLL else self.const(("types", t), t, "TYPES")

    def deps(self, e: model.Expr) -> set[str]:
        """What `e` reads (see `deps`)."""
        return deps(e)

    def expr(self, e: model.Expr, cx: Ctx) -> str:
        """Source of `e` as a Python expression."""
        if cx.hoist is not None and isinstance(e, _HOISTED):
            d = self.deps(e)
            if not d & cx.hoist.inner:
                code = self._expr(e, replace(cx, hoist=None))
                return cx.hoist.local(code, "piece" if "from" in d else "outer")
        return self._expr(e, cx)

    def _expr(self, e: model.Expr, cx: Ctx) -> str:
        s = cx.s
        if isinstance(e, (model.Num, model.Player)):
            return str(int(e.value if isinstance(e, model.Num) else e.index))
        if isinstance(e, model.Cells):
            return self.mask_const(e.mask)
        if isinstance(e, model.Ref):
            return self.word(e.word, cx)
        if isinstance(e, model.Pieces):
            owner: int | None | str = {model.Owner.OWN: cx.mover, model.Owner.OPPONENT: 1 - cx.mover}.get(
                e.owner, "any")
            return self.types_expr(self.rs.types_of(e.kind, owner), s)
        if isinstance(e, model.VarRead):
            return self.var_slot(e.var, e.index, cx)
        if isinstance(e, model.Relate):
            pairs = tuple((tuple(self.rs.types_of(a)), tuple(self.rs.types_of(b))) for a, b in e.pairs)
            rel = self.const(("relation", e.relation), pairs, "REL")
            return f"_relate({self.expr(e.arg, cx)}, {s}, {rel})"
        if isinstance(e, model.Call):
            return functions.emit_python(self, e, cx)
        if isinstance(e, model.Binary):
            a, b = self.expr(e.left, cx), self.expr(e.right, cx)
            if e.type is model.Type.CELLS:
                return _CELLS_OP[e.op].format(a, b)
            return f"({a} {e.op} {b})"
        if isinstance(e, model.Compare):
            if e.op == "in":
                return f"_within({self.expr(e.left, cx)}, {self.expr(e.right, cx)})"
            return f"({self.expr(e.left, cx)} {e.op} {self.expr(e.right, cx)})"
        if isinstance(e, model.BoolOp):
            return f"({self.expr(e.left, cx)} {e.op} {self.expr(e.right, cx)})"
        if isinstance(e, model.Not):
            return f"(not {self.expr(e.operand, cx)})"
        if isinstance(e, model.Negate):
            return f"(-{self.expr(e.operand, cx)})"
        raise AssertionError(e)

    def word(self, w: Word, cx: Ctx) -> str:
        s = cx.s
        if w is Word.EMPTY:
            full = str(self.t.full) if self.t.n < 64 else self.mask_const(self.t.full)
            return f"({full} & ~{self.occ(s)})"
        if w is Word.NEXT:
            return str(cx.mover) if cx.next_is_mover else f"{s}[{self.L.P}]"
        if w is Word.LAST_FROM or w is Word.LAST_TO:
            return f"{s}[{self.L.memory + (1 if w is Word.LAST_FROM else 2)}]"
        return {Word.HERE: cx.here, Word.FROM: cx.frm, Word.MOVER: str(cx.mover),
                Word.OPPONENT: str(1 - cx.mover), Word.STUCK: cx.stuck, Word.PATH: cx.path,
                Word.CAPTURED: "captured"}[w]

    def var_slot(self, var: str, index: model.Expr | None, cx: Ctx) -> str:
        """The state slot of a variable (the indexed player's, for a per-player one)."""
        base = self.L.var_offsets[var]
        if index is None:
            return f"{cx.s}[{base}]"
        idx = self.expr(index, cx)
        return f"{cx.s}[{base + int(idx)}]" if idx.isdigit() else f"{cx.s}[{base} + {idx}]"

    def range_guard(self, var: model.Var) -> str:
        """The function that stops play when `var` leaves its range, with its error."""
        guard = limits.range_guard(var.span, var.name, var.low, var.high)
        return self.const(("range", var.name), guard, "RANGE")

    def previous_index(self, name: str) -> int:
        """How the previous ply's rule is remembered: 1 + its index, or 1 + the rule count for a pass."""
        names = [p.name for p in self.rs.plies]
        return 1 + (names.index(name) if name in names else len(names))
