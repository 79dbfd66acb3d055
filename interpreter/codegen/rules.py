"""One ply rule for one player -> its move generators and apply function, for either back-end.

`RuleGen` holds what every motion shares: the piece types it moves, the target set
(`onto`), the condition (`where`) and the removals, compiled with what does not change
per candidate hoisted out of the loops, and the one way a candidate becomes a ply. The
motion's construct (dsl.constructs, found by `motion_construct`) writes the loops, once,
through the back-end's `Writer`: both back-ends list the same plies in the same order.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable, Iterator

from dsl import model
from dsl.constructs import MotionConstruct, motion_construct
from dsl.model import Word

from interpreter.codegen import apply as applies
from interpreter.codegen.context import Hoister, Sink, deps
from interpreter.codegen.writer import Writer
from interpreter.runtime import limits
from interpreter.runtime.actions import ActionFormat, action_format
from interpreter.runtime.protocol import RuleInfo


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


def closer_targets(ply: model.Ply) -> model.Expr | None:
    """T, when a ply's whole condition is `closer(here, from, T)` with T fixed for the call."""
    w = ply.where
    if isinstance(w, model.Call) and w.func == "closer":
        a, b, t = w.args
        if isinstance(a, model.Ref) and a.word is Word.HERE and isinstance(b, model.Ref) \
                and b.word is Word.FROM and not deps(t) & {"here", "from", "path"}:
            return t
    return None


class RuleGen:
    """The shared parts of one rule's code for one player (code: its index in the rules)."""

    def __init__(self, w: Writer, ply: model.Ply, p: int, code: int, types: list[int]):
        self.w, self.rs, self.t, self.L = w, w.rs, w.t, w.L
        self.ply, self.motion, self.p, self.code, self.types = ply, ply.motion, p, code, types
        self.multi = max(self.rs.types[t].size for t in types) > 1
        self.cover = max(self.rs.types[t].cover for t in types)  # cells a placed piece covers
        self.construct: MotionConstruct = motion_construct(ply.motion)
        onto = ply.onto
        self.tgt_level = 2 if model.mentions(onto, Word.HERE) else 1 if model.mentions(onto, Word.FROM) else 0
        mod = self.construct
        if mod.from_per_candidate and self.tgt_level == 1:  # e.g. a push's `from`: known per line
            self.tgt_level = 2
        # A piece standing on another kind (`on KIND`) only ever moves onto one of those.
        self.riders = not mod.from_per_candidate and any(
            self.rs.types[t].carrier is not None for t in types)
        self.adj_path = {k: f"adjp{i}" for i, k in enumerate(path_adjacencies(ply))} \
            if mod.path_grows else None
        self.projected = closer_targets(ply) if mod.projects else None
        # the action's layout (runtime/actions.py): the fields by name, in the same place
        # for both back-ends
        self.format = action_format(mod.action, self.multi or self.cover > 1, bool(ply.removals()), len(types) > 1)
        self.begin()

    def begin(self) -> None:
        """Compile the target, condition and removals afresh (each function hoists its own)."""
        w, ply, mod = self.w, self.ply, self.construct
        self.tgt_src = w.expr(ply.onto, self.ctx("s"))
        self.hoist = Hoister(f"h{self.code}_", {"here", "path"} | ({"from"} if mod.from_per_candidate else set()))
        single = not self.multi and mod.from_a_cell
        # every single-cell motion's candidate loop names here's cell `d`
        self.cx = self.ctx("s", path="path", hoist=self.hoist, single=single, adj_path=self.adj_path,
                           here_cell="d" if single else None)
        self.where = w.expr(ply.where, self.cx) if ply.where is not None and self.projected is None \
            else None
        self.removal = w.union([w.expr(e, self.cx) for e in ply.removals()])

    # ------------------------------------------------------------ pieces of a generator
    def ctx(self, s: str, **where: object):
        """A context in state `s` for this rule's player (here and from as the loops set them)."""
        return self.w.ctx(s, self.p, here="here", frm="frm", **where)

    def plain_expr(self, e: model.Expr, s: str = "s") -> str:
        """`e` in state `s` with nothing hoisted (here and from as the loops set them)."""
        return self.w.expr(e, self.ctx(s))

    def target(self, level: int) -> None:
        """The local `tgt` where it is known: per call (0), per piece (1) or per cell (2)."""
        if self.tgt_level == level:
            self.w.let("cells", "tgt", self.tgt_src if self.multi else self.w.landing(self.tgt_src))

    def hoisted(self, level: str, hoist: Hoister | None = None) -> None:
        hoist = hoist or self.hoist
        for name, src, kind in (hoist.outer if level == "outer" else hoist.piece):
            self.w.let(kind, name, src)

    def base(self) -> None:
        """`base`: the cells a rider may stand on (its carrier's), for a rider type `t`."""
        if self.riders:
            w = self.w
            w.let("cells", "base", w.call("support", "s", "t"))

    def unchecked(self) -> bool:
        """Whether `candidate` keeps every cell as a ply: no carrier to ride, no target
        asked at the landing, no condition (what it checks, below)."""
        return not self.riders and self.tgt_level != 2 and self.where is None

    def candidate(self, fields: list[str]) -> None:
        """A candidate ply at `here`: kept if it lands on the target set and meets the condition."""
        w = self.w
        if self.riders:
            w.skip_if(w.none(w.and_("here", "base")))
        if self.tgt_level == 2:
            self.target(2)
            w.skip_if(w.none(w.and_("here", "tgt")) if not self.multi else w.any_(w.andn("here", "tgt")))
        if self.where is not None:
            w.skip_if(w.not_(self.where))
        self.found(fields)

    def found(self, fields: list[str], removal: str | None = None) -> None:
        """A ply: its action's fields after the rule, in the format's order, then the
        removed cells where the format has them."""
        assert len(fields) == len(self.format.fields) - self.format.removes, (self.format, fields)
        self.w.ply(self.code, fields, removal if removal is not None else self.removal)

    def field(self, name: str) -> str:
        """The action field `name` (runtime/actions.py) of the action `a` being applied."""
        i = self.format.fields.index(name)
        return self.w.removed_field(i) if name == "removed" else self.w.field(i)

    def head(self, occ: bool) -> None:
        """The generator's start: the occupied cells if the motion reads them, the target."""
        w = self.w
        if occ:
            w.let("cells", "occ", w.occ("s"))
        if not self.construct.path_grows and any(
                model.mentions(e, Word.PATH) for e in [self.ply.where] + self.ply.removals()):
            w.let("cells", "path", w.ZERO)
        self.target(0)
        self.hoisted("outer")

    @contextmanager
    def each_piece(self, before: Callable[[RuleGen], None] | None = None) -> Iterator[None]:
        """Each piece of the moved types: t, its cell c and its set frm. `before` writes
        what comes first for each type (its pieces in `pieces`)."""
        w = self.w
        with w.each_type(self.types):
            self.base()
            w.let("cells", "pieces", w.movers("s", "t"))
            if before is not None:
                before(self)
            with w.each_bit("pieces", "frm", "c", eager=True):
                self.target(1)
                self.hoisted("piece")
                yield

    def lands_head(self) -> None:
        """The start of a `lands_N` function (the construct's `emit_lands`): frm and here
        of the piece on cell c landing on cell d."""
        w = self.w
        w.let("cells", "frm", w.bit("c"))
        w.let("cells", "here", w.bit("d"))

    def lands_end(self, bounds: list[str] | None = None) -> None:
        """The end of a `lands_N` function: whether the `bounds` on the steps `n` hold, d
        is in the target set and the condition holds (compiled plainly: nothing is hoisted
        in a function of one ply)."""
        w = self.w
        test = list(bounds or []) + [w.has(self.tgt_src, "d", "here")]
        if self.ply.where is not None:
            test.append(self.plain_expr(self.ply.where))
        w.ret(w.all_(*test))

    def dests(self, mask: str, fields: list[str]) -> None:
        """Each cell of `mask` as `here` (cell d), a candidate."""
        w = self.w
        w.let("cells", "dests", mask)
        with (w.each_landing if self.unchecked() else w.each_bit)("dests", "here", "d"):
            self.candidate(fields)

    def all_or_target(self) -> str:
        return "tgt" if self.tgt_level < 2 else self.w.FULL

    def hoister(self, prefix: str, inner: set[str]) -> Hoister:
        return Hoister(prefix, inner)

    @staticmethod
    def opponents_only(e: model.Expr) -> bool:
        return applies.opponents_only(e)

    def chain_budget(self) -> int:
        return limits.MAX_CHAIN_STATES

    # ------------------------------------------------------------ the apply function
    def apply(self, head: list[tuple[str, str, str]], put: Callable[[], None], clear: str | None = None) -> None:
        """The apply function (see apply.emit_apply): `head` the (kind, name, value) locals
        that set frm and here from the action; `put` writes the piece in; `clear`: what a
        landing clears."""
        applies.emit_apply(self, head, put, clear)

    def captured(self) -> None:
        """`captured`, if the effects read it: the opponent's pieces the ply takes."""
        applies.emit_captured(self.w, self.ply, self.p, self.code)

    def finish(self) -> None:
        """The end of an apply function after the move (see apply.finish)."""
        applies.finish(self.w, self.ply, self.p)

    def move_head(self) -> list[tuple[str, str, str]]:
        """frm and here of a one-cell piece moved from one cell to another."""
        w = self.w
        return [("cells", "frm", w.bit(self.field("from_cell"))), ("cells", "here", w.bit(self.field("to_cell")))]

    def put_moved(self) -> None:
        """The piece of type t leaves frm for here."""
        w = self.w
        w.set(w.pieces("b", "t"), w.or_(w.andn(w.pieces("s", "t"), "frm"), "here"))

    def apply_move(self) -> None:
        """The apply function of a one-cell piece moved from one cell to another."""
        self.apply(self.move_head(), self.put_moved)


def emit_rule(w: Writer, ply: model.Ply, p: int, code: int, types: list[int]) -> ActionFormat:
    """The move generators (`moves_N`, `has_N`) and apply function of one rule for one
    player; its actions' format."""
    g = RuleGen(w, ply, p, code, types)
    g.construct.emit_support(g)
    for sink in (Sink.LIST, Sink.EXISTS):
        g.begin()
        with w.generator(code, sink):
            g.construct.emit_moves(g)
    g.begin()
    g.construct.emit_apply(g)
    return g.format


def emit_rules(w: Writer) -> tuple[list[RuleInfo], list[tuple[int, model.Ply, int, list[int]]]]:
    """Every rule for every player that has pieces it moves, then the pass ply: the rules'
    info (the pass last) and each rule's (code, ply, player, piece types)."""
    rs = w.rs
    rules: list[RuleInfo] = []
    moved = []
    for ply in rs.plies:
        for p in range(len(rs.players)):
            types = rs.selected(ply.kind, ply.owner, p)
            if not types:
                continue
            code = len(rules)
            fmt = emit_rule(w, ply.for_player(p), p, code, types)
            rules.append(RuleInfo(code, ply.name, p, fmt, kinds=len(types)))
            moved.append((code, ply.for_player(p), p, types))
    for p in range(len(rs.players)):
        applies.emit_pass(w, p)
    rules.append(RuleInfo(len(rules), "pass", None, action_format("pass")))
    return rules, moved
