"""`slide [DIRS] [N] [up to LIMIT]`: along a straight line over empty cells.

Stops before the first occupied cell, which it may land on if the target set allows
(a capture). `slide N` goes exactly N steps; `slide N up to M` N to M. Action: (rule,
piece type, from cell, to cell[, removed cells]). Chained slides: see chain.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from operator import and_
from typing import TYPE_CHECKING, Callable

from dsl import board as boards
from dsl import model
from dsl import syntax as syn
from dsl.constructs.walk import route_free

if TYPE_CHECKING:  # the parser and the back-end pass themselves in; the model never imports them
    from interpreter.codegen.rules import RuleGen

    from dsl.to_syntax import ToSyntax
    from interpreter.runtime.tables import Tables


@dataclass(eq=False)
class Slide(model.Motion):
    """A straight line over empty cells: `slide [N] [up to LIMIT] [chained [up to K segments]]`."""

    dirs: tuple[str, ...]  # every direction when none are written (links have none)
    limit: model.Expr | None = None
    least: int | None = None  # at least N steps (exactly N without `up to` or `or more`)
    chained: bool = False  # turning segments while each removes
    segments: int | None = None
    or_more: bool = False  # `slide N or more`: at least N steps, no maximum

    name = "slide"


NODE = Slide  # the model's node of this motion


@dataclass(eq=False)
class SlideSyntax(syn.MotionSyntax):
    """A slide as written."""

    least: int | None = None  # slide N [up to M]: at least N steps (exactly N without `up to`)
    chained: bool = False  # slide ... chained: turning segments while each removes
    segments: int | None = None  # chained up to N segments
    or_more: bool = False  # slide N or more


def to_syntax(t: ToSyntax, span: syn.Span, c: list) -> SlideSyntax:
    """`slide [DIRS] [N [or more]] [up to LIMIT] [chained [up to K segments]]`: the parse
    tree's children -> the syntax tree's node."""
    dirs, least, or_more, limit, chained, segments = c
    return SlideSyntax(span, "slide", dirs=dirs, limit=limit,
                       least=t.to_int(least) if least is not None else None,
                       chained=chained is not None,
                       segments=t.to_int(segments) if segments is not None else None,
                       or_more=or_more is not None)


STRAIGHT = True
PATH_GROWS = True
PROJECTS = True


def lower(mo: SlideSyntax, dirs: tuple[str, ...] | None,
          expr: Callable[[syn.Expr | None], model.Expr | None]) -> model.Motion:
    """The checked syntax -> the model's node (directions resolved, expressions lowered)."""
    return Slide(mo.span, dirs, expr(mo.limit), mo.least, mo.chained, mo.segments, mo.or_more)


def check(p: syn.PlyDecl, error: Callable[..., None], cells: int) -> None:
    motion: SlideSyntax = p.motion
    if motion.chained:
        _check_segments(p, error, cells)
    if motion.least is not None:
        if motion.chained:
            error(motion.span, "a chained slide goes any distance; it takes no number of steps",
                  "drop the number, or `chained`")
        elif not 1 <= motion.least <= cells:
            error(motion.span, f"a slide goes 1 to {cells} steps on this board")
        elif motion.or_more and motion.limit is not None:
            error(motion.limit.span, f"`slide {motion.least} or more` has no maximum",
                  f"write `slide {motion.least} up to N` for at most N steps")
        elif isinstance(motion.limit, syn.Num) and motion.limit.value < motion.least:
            error(motion.limit.span, f"a slide of at least {motion.least} steps needs "
                                     f"`up to` {motion.least} or more")
    if motion.chained:  # a chain is known by its ends, not its route
        route_free(p, [p.where], error, "chained slide",
                   "use it in `remove` of a chained slide (each segment's path)")


def straight(board: boards.Board, dirs: tuple[str, ...] | None) -> list[str]:
    """The directions of a straight motion: those named, or every one (links have none)."""
    return list(dirs) if dirs else [d for d in board.directions if d != boards.LINK]


def _steps(board: boards.Board, dirs: list[str]) -> list[tuple[int, int]]:
    """Each direction's step on the lattice, in lattice units."""
    out = []
    for d in dirs:
        arc = next(((u, v) for u, v, ds in board.graph.edges() if ds == (d,)), None)
        if arc is None:  # no cell has a neighbour that way (a board one file wide): no ray
            out.append((0, 0))
            continue
        (ux, uy), (vx, vy) = board.lattice[arc[0]], board.lattice[arc[1]]
        out.append((vx - ux, vy - uy))
    return out


def _vectors(board: boards.Board, dirs: list[str]) -> list[tuple[int, int]]:
    """Each direction's step weighted by the metric (for dot products)."""
    mx, my = board.metric
    return [(dx * mx, dy * my) for dx, dy in _steps(board, dirs)]


def _norms(board: boards.Board, dirs: list[str]) -> list[int]:
    """Each direction's squared length in the metric."""
    mx, my = board.metric
    return [dx * dx * mx + dy * dy * my for dx, dy in _steps(board, dirs)]


def emit_moves(g: RuleGen) -> None:
    w = g.w
    g.head(occ=True)
    dirs = straight(g.rs.board, g.motion.dirs)
    values = None
    if g.projected is not None:
        # Ending n steps along d is closer to some target e than the start f
        # iff 2 (e - f).d > n |d|^2: one bound per line, then a product per step.
        vectors = _vectors(g.rs.board, dirs)
        best = w.maxdots(g.plain_expr(g.projected), vectors)
        values = {"dx": [str(dx) for dx, _ in vectors], "dy": [str(dy) for _, dy in vectors],
                  "dd": [str(n) for n in _norms(g.rs.board, dirs)], "best": best}
    with g.each_piece():
        _rays(g, dirs, values)


def _rays(g: RuleGen, dirs: list[str], values: dict[str, list[str]] | None) -> None:
    w, motion = g.w, g.motion
    # Two lines from one cell may reach the same cell (3-A-Side's goals): one ply.
    dedupe = g.t.rays_overlap(dirs)
    least = motion.least or 1
    bounded = motion.limit is not None or (motion.least is not None and not motion.or_more)
    if motion.limit is not None:
        w.let("num", "limit", g.plain_expr(motion.limit))
        w.skip_if(f"limit < {least}")
    elif motion.least is not None and not motion.or_more:
        w.let("num", "limit", str(least))  # `slide N`: exactly N steps
    if dedupe:
        w.let("cells", "seen", w.ZERO)
    if values is not None:
        w.let("num", "fx", "LATTICE[c][0]")
        w.let("num", "fy", "LATTICE[c][1]")
    with w.each_dir(dirs, "c", values, lands=True):
        if values is not None:
            w.let("num", "bound", "2 * (best - fx * dx - fy * dy)")
        w.let("num", "n", "0")
        w.let("cells", "path", w.ZERO)
        for var in (g.adj_path or {}).values():
            w.let("cells", var, w.ZERO)
        with w.each_ray_cell("d"):
            if bounded or values is not None or least > 1:
                w.add_to("n", "1")
            if bounded:
                w.stop_if("n > limit")
            if values is not None:
                w.stop_if("n * dd >= bound")  # no farther cell is closer either
            w.let("cells", "here", w.bit("d"))
            g.target(2)
            test = [w.has("tgt", "d", "here")]
            if g.riders:
                test.append(w.has("base", "d", "here"))
            if least > 1:
                test.append(f"n >= {least}")
            if dedupe:
                test.append(w.not_(w.has("seen", "d", "here")))
            if g.where:
                test.append(g.where)
            with w.if_(w.all_(*test)):
                if dedupe:
                    w.or_into("seen", "here")
                g.found(["t", "c", "d"])
            w.stop_if(w.has("occ", "d", "here"))
            w.or_into("path", "here")
            for key, var in (g.adj_path or {}).items():
                w.or_into(var, f"{w.adj(key)}[d]")


def emit_lands(g: RuleGen) -> None:
    """Whether the piece on c may land on d, n steps away with its way empty: its limit,
    least and target, as `_rays` tests them."""
    motion = g.motion
    least = motion.least or 1
    bounds = [f"n >= {least}"] if least > 1 else []
    if motion.limit is not None:
        bounds.append(f"n <= ({g.plain_expr(motion.limit)})")
    elif motion.least is not None and not motion.or_more:
        bounds.append(f"n <= {least}")  # `slide N`: exactly N steps
    g.lands_head()
    g.lands_end(bounds)


def emit_apply(g: RuleGen) -> None:
    g.apply_move()


def _check_segments(p: syn.PlyDecl, error: Callable[..., None], cells: int) -> None:
    """`chained [up to K segments]`: each segment after the first comes after a removal."""
    if not any(e.kind == "remove" for e in p.effects):
        error(p.motion.span, "a chained slide goes on only after a segment removes pieces; "
                             "this ply removes none", "add `then remove CELLS`")
    if p.motion.segments is not None and not 1 <= p.motion.segments <= cells:
        error(p.motion.span, f"a chain has 1 to {cells} segments on this board")


def reverse_reach(tables: Tables, board: boards.Board, motion: Slide) -> list[int]:
    """Per cell, the cells on a straight line into it along the motion's directions (the
    un-move solver; a chained slide is chain.py's, which takes no ply back)."""
    back = [0] * tables.n
    for d in straight(board, motion.dirs):
        for o, ray in enumerate(tables.rays(d)):
            for x in ray:
                back[x] |= 1 << o
    return back


def _ways(tables: Tables, board: boards.Board, motion: Slide) -> list[list[set[tuple[int, int]]]]:
    """Per cell x, per cell o, each way a slide goes from o to x: its steps and the cells
    it passes (two, where two directions lead from o to x)."""
    n = tables.n
    ways: list[list[set[tuple[int, int]]]] = [[set() for _ in range(n)] for _ in range(n)]
    for d in straight(board, motion.dirs):
        for o, ray in enumerate(tables.rays(d)):
            passed = 0
            for k, x in enumerate(ray):
                if x != o:
                    ways[x][o].add((k + 1, passed))
                passed |= 1 << x
    return ways


def reverse_steps(tables: Tables, board: boards.Board, motion: Slide) -> list[list[int]]:
    """Per cell x, per cell o, the steps of a slide from o to x (0 where none goes, or
    where two directions lead from o to x by lines of other lengths or cells passed)."""
    return [[next(iter(w))[0] if len(w) == 1 else 0 for w in row] for row in _ways(tables, board, motion)]


def reverse_path(tables: Tables, board: boards.Board, motion: Slide) -> list[list[int]]:
    """Per cell x, per cell o, the cells a slide from o to x passes, all empty (those every
    such slide passes, when two directions lead from o to x; 0 where none does)."""
    return [[reduce(and_, (passed for _, passed in w)) if w else 0 for w in row]
            for row in _ways(tables, board, motion)]
