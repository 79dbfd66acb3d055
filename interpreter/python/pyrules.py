"""One ply rule for one player -> its move generators and apply function (Python source).

`RuleGen` holds what every motion shares: the piece types it moves, the target set
(`onto`), the condition (`where`) and the removals, compiled with what does not change
per candidate hoisted out of the loops, and the one way a candidate becomes a ply.
The motion's construct (dsl.constructs, found by `motion_construct`) writes the loops.
"""

from __future__ import annotations

from typing import Callable

from dsl import model
from dsl.constructs import MotionConstruct, motion_construct
from dsl.model import Word

from interpreter.runtime import limits
from interpreter.python import pyapply
from interpreter.python.pyexpr import Ctx, ExprCompiler, Hoister
from interpreter.python.pysource import Sink


def path_adjacencies(ply: model.Ply) -> list[tuple[str, ...] | None]:
    """The direction sets of every `adjacent(path ...)` a ply's condition and removals read."""
    found: list[tuple[str, ...] | None] = []
    for e in [ply.where] + ply.removals():
        for n in model.walk(e):
            if isinstance(n, model.Call) and n.func == "adjacent" and isinstance(n.args[0], model.Ref) \
                    and n.args[0].word is Word.PATH:
                key = n.args[1].labels if len(n.args) > 1 else None
                if key not in found:
                    found.append(key)
    return found


def closer_targets(c: ExprCompiler, ply: model.Ply) -> model.Expr | None:
    """T, when a ply's whole condition is `closer(here, from, T)` with T fixed for the call."""
    w = ply.where
    if isinstance(w, model.Call) and w.func == "closer":
        a, b, t = w.args
        if isinstance(a, model.Ref) and a.word is Word.HERE and isinstance(b, model.Ref) \
                and b.word is Word.FROM and not c.deps(t) & {"here", "from", "path"}:
            return t
    return None


class RuleGen:
    """The shared parts of one rule's code for one player (code: its index in the rules)."""

    def __init__(self, c: ExprCompiler, ply: model.Ply, p: int, code: int, types: list[int]):
        self.c, self.out, self.rs, self.t, self.L = c, c.out, c.rs, c.t, c.L
        self.ply, self.motion, self.p, self.code, self.types = ply, ply.motion, p, code, types
        self.multi = max(self.rs.types[t].size for t in types) > 1
        self.construct = motion_construct(ply.motion)
        onto = ply.onto
        self.tgt_level = 2 if model.mentions(onto, Word.HERE) else 1 if model.mentions(onto, Word.FROM) else 0
        mod = self.construct
        if mod.from_per_candidate and self.tgt_level == 1:  # e.g. a push's `from`: known per line
            self.tgt_level = 2
        # A piece standing on another kind (`on KIND`) only ever moves onto one of those.
        self.riders = not mod.from_per_candidate and any(
            self.rs.types[t].carrier is not None for t in types)

    def begin(self) -> None:
        """Compile the target, condition and removals afresh (each generator hoists its own)."""
        c, ply, code = self.c, self.ply, self.code
        self.tgt_src = c.expr(ply.onto, Ctx("s", self.p, here="here", frm="frm"))
        mod = self.construct
        self.hoist = Hoister(f"h{code}_", {"here", "path"} | ({"from"} if mod.from_per_candidate else set()))
        single = not self.multi and mod.from_a_cell
        self.adj_path = {k: f"adjp{i}" for i, k in enumerate(path_adjacencies(ply))} \
            if mod.path_grows else None
        self.cx = Ctx("s", self.p, here="here", frm="frm", path="path", hoist=self.hoist,
                      single=single, adj_path=self.adj_path)
        self.projected = closer_targets(c, ply) if mod.projects else None
        self.where = c.expr(ply.where, self.cx) if ply.where is not None and self.projected is None \
            else None
        removals = [c.expr(e, self.cx) for e in ply.removals()]
        self.removal = " | ".join(removals) if removals else None

    # ------------------------------------------------------------ pieces of a generator
    def line(self, indent: int, text: str) -> None:
        self.out.line(indent, text)

    def target(self, level: int, indent: int) -> None:
        """`tgt = ...` where it is known: per call (0), per piece (1) or per cell (2)."""
        if self.tgt_level == level:
            self.line(indent, f"tgt = {self.tgt_src}")

    def hoisted(self, level: str, indent: int) -> None:
        for name, src in (self.hoist.outer if level == "outer" else self.hoist.piece):
            self.line(indent, f"{name} = {src}")

    def base(self, indent: int) -> None:
        if self.riders:
            self.line(indent, "base = s[SUPPORT[t]] if SUPPORT[t] >= 0 else FULL")

    def candidate(self, indent: int, payload: str) -> None:
        """A candidate ply: kept if it lands on the target set and meets the condition."""
        if self.riders:
            self.line(indent, "if not here & base: continue")
        if self.tgt_level == 2:
            self.target(2, indent)
            self.line(indent, "if not (here & tgt): continue" if not self.multi
                      else "if here & ~tgt: continue")
        if self.where is not None:
            self.line(indent, f"if not {self.where}: continue")
        self.found(indent, payload)

    def found(self, indent: int, payload: str) -> None:
        rem = f", {self.removal}" if self.removal is not None else ""
        self.out.ply(indent, f"({self.code}, {payload}{rem})")

    def head(self, occ: bool) -> None:
        """The generator's start: the occupied cells if the motion reads them, the target."""
        if occ:
            self.line(1, f"occ = {self.c.occ('s')}")
        if not self.construct.path_grows and any(
                model.mentions(e, Word.PATH) for e in [self.ply.where] + self.ply.removals()):
            self.line(1, "path = 0")
        self.target(0, 1)
        self.hoisted("outer", 1)

    def each_piece(self, before: Callable[[RuleGen], None] | None = None) -> None:
        """`for` each piece of the moved types (indent 3 inside): t, frm, c. `before` writes
        what comes first for each type (indent 2, its pieces in `pieces`)."""
        self.line(1, f"for t in {self.c.type_tuple(self.types)}:")
        self.base(2)
        self.line(2, "pieces = s[t]")
        if before is not None:
            before(self)
        self.out.bits(2, "pieces", "frm")
        self.line(3, "c = frm.bit_length() - 1")
        self.target(1, 3)
        self.hoisted("piece", 3)

    def dests(self, indent: int, mask: str, payload: str) -> None:
        """Each cell of `mask` as `here`, a candidate."""
        self.line(indent, f"dests = {mask}")
        self.out.bits(indent, "dests", "here")
        self.candidate(indent + 1, payload)

    def all_or_target(self) -> str:
        return "tgt" if self.tgt_level < 2 else "FULL"

    def ctx(self, s: str, **where: object) -> Ctx:
        """A context in state `s` for this rule's player (here and from as the loops set them)."""
        return Ctx(s, self.p, here="here", frm="frm", **where)  # type: ignore[arg-type]

    def hoister(self, prefix: str, inner: set[str]) -> Hoister:
        return Hoister(prefix, inner)

    opponents_only = staticmethod(pyapply.opponents_only)

    def chain_budget(self) -> int:
        return limits.MAX_CHAIN_STATES

    def chain_guard(self) -> str:
        """The function that stops a chain search past its budget, with the rule's error."""
        guard = limits.chain_guard(self.ply.span, self.ply.name, self.rs.board.names, limits.MAX_CHAIN_STATES)
        return self.c.const(("chain limit", self.code), guard, "CHAIN")

    def plain_expr(self, e: model.Expr, s: str = "s") -> str:
        """`e` in state `s` with nothing hoisted (here and from as the loops set them)."""
        return self.c.expr(e, Ctx(s, self.p, here="here", frm="frm"))

    def apply(self, head: list[str], removed: str | None, put: list[str], keep: str | None = None) -> None:
        """The apply function (see pyapply.emit_apply); a piece that leaves a cell takes
        what stands on it along."""
        pyapply.emit_apply(self.c, self.ply, self.p, self.code, head, removed, put, keep,
                           self.construct.from_a_cell)

    def captured(self) -> None:
        """`captured = ...` if the effects read it."""
        pyapply.emit_captured(self.c, self.ply, self.p, self.code)

    def finish(self) -> None:
        """The end of an apply function after the move (see pyapply.finish)."""
        pyapply.finish(self.c, self.ply, self.p)

    def apply_move(self) -> None:
        """The apply function of a one-cell piece moved from a[2] to a[3] (removals in a[4])."""
        self.apply(["frm = BIT[a[2]]", "here = BIT[a[3]]"], "a[4]" if self.removal else None,
                   ["b[t] = (s[t] & ~frm) | here"])


def emit_rule(c: ExprCompiler, ply: model.Ply, p: int, code: int, types: list[int]) -> MotionConstruct:
    """The move generators (`moves_N`, `has_N`) and apply function of one rule for one
    player; the construct that wrote them."""
    g = RuleGen(c, ply, p, code, types)
    g.begin()
    g.construct.emit_support(g)
    for sink in (Sink.LIST, Sink.EXISTS):
        g.begin()
        c.out.generator(code, sink)
        g.construct.emit_moves(g)
        c.out.end_generator()
    g.begin()
    g.construct.emit_apply(g)
    return g.construct

