"""`push N [DIRS]`: a line of N pieces moves one step along a direction into the cell `here`.

Whatever stands in `here` is taken (if the target set allows it); every stack on the
line moves with it. Action: (rule, direction index, far cell of the line, here[, removed
cells]); the removed cells are taken off before the line moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from dsl import model
from dsl import syntax as syn
from dsl.constructs.slide import straight

if TYPE_CHECKING:  # the parser and the back-end pass themselves in; the model never imports them
    from interpreter.codegen.rules import RuleGen

    from dsl.to_syntax import ToSyntax


@dataclass(eq=False)
class Push(model.Motion):
    """A line of `count` pieces moves one step along a direction into `here`."""

    dirs: tuple[str, ...]
    count: int

    name = "push"


NODE = Push  # the model's node of this motion


@dataclass(eq=False)
class PushSyntax(syn.MotionSyntax):
    """A push as written."""

    count: int = 1  # how many pieces in the line


def to_syntax(t: ToSyntax, span: syn.Span, c: list) -> PushSyntax:
    """`push N [DIRS]`: the parse tree's children -> the syntax tree's node."""
    return PushSyntax(span, "push", dirs=c[1], count=t.to_int(c[0]))


STRAIGHT = True
FROM_A_CELL = False
FROM_PER_CANDIDATE = True  # `from`, the line's far end, is known with `here`
ACTION = "push"  # (rule, direction, far end, here)
LANDS = "anywhere"  # the line's pieces, of any kind, land beyond `here` (dsl/domains.py)


def lower(mo: PushSyntax, dirs: tuple[str, ...] | None,
          expr: Callable[[syn.Expr | None], model.Expr | None]) -> model.Motion:
    """The checked syntax -> the model's node (directions resolved, expressions lowered)."""
    return Push(mo.span, dirs, mo.count)


def check(p: syn.PlyDecl, error: Callable[..., None], cells: int) -> None:
    if not 1 <= p.motion.count <= cells:
        error(p.motion.span, f"a push moves a line of 1 to {cells} pieces")


def _geometry(g: RuleGen) -> tuple[list, dict]:
    """Per cell `here`: the lines that can push into it (direction, mask, far end); per
    (direction, here): the cells cleared and each (from, to) shift, as cells."""
    board, t = g.rs.board, g.t
    dirs = straight(board, g.motion.dirs)
    n = g.motion.count
    table: list[list[tuple[int, int, int]]] = [[] for _ in range(t.n)]
    shifts: dict[tuple[int, int], tuple[int, list[tuple[int, int]]]] = {}
    goals = set(board.goals)
    for di, d in enumerate(dirs):
        back = board.opposite(d)
        for h in range(t.n):
            line = t.rays(back)[h][:n] if back else []
            if len(line) < n or goals.intersection(line):  # nothing leaves a goal
                continue
            mask = sum(1 << c for c in line)
            table[h].append((di, mask, line[-1]))
            targets = [h] + line[:-1]
            shifts[(di, h)] = (mask | 1 << h, list(zip(line, targets)))
    return table, shifts


def _key(g: RuleGen) -> tuple:
    return ("push", g.motion.count, tuple(straight(g.rs.board, g.motion.dirs)))


def emit_moves(g: RuleGen) -> None:
    w = g.w
    lines, _ = _geometry(g)
    g.head(occ=False)
    w.let("cells", "movable", w.types_union(g.types, "s"))
    w.let("cells", "dests", g.all_or_target())
    with w.each_bit("dests", "here", "d", eager=True):
        with w.each_record(_key(g), lines, [("cell", "di"), ("cells", "line"), ("cell", "far")], "d", "PUSH"):
            w.skip_if(w.not_(w.eq(w.and_("movable", "line"), "line")))
            w.let("cells", "frm", w.bit("far"))
            g.candidate(["di", "far", "d"])


def emit_apply(g: RuleGen) -> None:
    """Every stack on the line shifts one cell along the direction (after the removals)."""
    w = g.w
    _, shifts = _geometry(g)
    n, dirs = g.t.n, len(straight(g.rs.board, g.motion.dirs))
    removes = g.removal is not None  # taken off first; the line then moves as it stands
    with w.function("taken", g.code):  # what stands where the line moves in
        took = w.and_(w.bit(g.field("to_cell")), w.occ("s"))
        w.ret(w.or_(took, g.field("removed")) if removes else took)
    clears = w.masks(_key(g) + ("clear",), [shifts.get((di, h), (0, []))[0] for di in range(dirs)
                                            for h in range(n)], "SC")
    pairs = [shifts.get((di, h), (0, []))[1] for di in range(dirs) for h in range(n)]
    with w.function("apply", g.code):
        w.let("cell", "key", f"{g.field('direction')} * {n} + {g.field('to_cell')}")
        w.let("cells", "clear", f"{clears}[key]")
        w.let("cells", "frm", w.bit(g.field("from_cell")))
        w.let("cells", "here", w.bit(g.field("to_cell")))
        g.captured()
        w.copy_state()
        with w.each_index(str(g.L.types), "i"):
            w.let("cells", "m", w.andn(w.pieces("s", "i"), g.field("removed")) if removes else w.pieces("s", "i"))
            with w.if_(w.any_(w.and_("m", "clear"))):
                w.let("cells", "moved", w.andn("m", "clear"))
                with w.each_record(_key(g) + ("shift",), pairs, [("cell", "src"), ("cell", "dst")], "key", "SHIFT"):
                    with w.if_(w.has("m", "src")):
                        w.or_into("moved", w.bit("dst"))
                w.set(w.pieces("b", "i"), "moved")
            if removes:
                with w.else_():
                    w.set(w.pieces("b", "i"), "m")
        g.finish()
