"""`slide [DIRS] [N] [up to LIMIT]`: along a straight line over empty cells.

Stops before the first occupied cell, which it may land on if the target set allows
(a capture). `slide N` goes exactly N steps; `slide N up to M` N to M. Action: (rule,
piece type, from cell, to cell[, removed cells]). Chained slides: see chain.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from dsl import board as boards
from dsl import model
from dsl import syntax as syn
from dsl.constructs.walk import route_free

if TYPE_CHECKING:  # the parser and the back-end pass themselves in; the model never imports them
    from interpreter.native.crules import CRuleGen
    from interpreter.python.pyrules import RuleGen

    from dsl.to_syntax import ToSyntax
    from interpreter.runtime.tables import Tables


@dataclass(eq=False)
class Slide(model.Motion):
    """A straight line over empty cells: `slide [N] [up to LIMIT] [chained [up to K segments]]`."""

    dirs: tuple[str, ...]  # every direction when none are written (links have none)
    limit: model.Expr | None = None
    least: int | None = None  # at least N steps (exactly N without `up to`)
    chained: bool = False  # turning segments while each removes
    segments: int | None = None

    name = "slide"


NODE = Slide  # the model's node of this motion


@dataclass(eq=False)
class SlideSyntax(syn.MotionSyntax):
    """A slide as written."""

    least: int | None = None  # slide N [up to M]: at least N steps (exactly N without `up to`)
    chained: bool = False  # slide ... chained: turning segments while each removes
    segments: int | None = None  # chained up to N segments


def to_syntax(t: ToSyntax, span: syn.Span, c: list) -> SlideSyntax:
    """`slide [DIRS] [N] [up to LIMIT] [chained [up to K segments]]`: the parse tree's
    children -> the syntax tree's node."""
    dirs, least, limit, chained, segments = c
    return SlideSyntax(span, "slide", dirs=dirs, limit=limit,
                       least=t.to_int(least) if least is not None else None,
                       chained=chained is not None,
                       segments=t.to_int(segments) if segments is not None else None)


STRAIGHT = True
PATH_GROWS = True
PROJECTS = True


def lower(mo: SlideSyntax, dirs: tuple[str, ...] | None,
          expr: Callable[[syn.Expr | None], model.Expr | None]) -> model.Motion:
    """The checked syntax -> the model's node (directions resolved, expressions lowered)."""
    return Slide(mo.span, dirs, expr(mo.limit), mo.least, mo.chained, mo.segments)


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
    g.head(occ=True)
    dirs = straight(g.rs.board, g.motion.dirs)
    if g.projected is not None:
        g.line(1, f"targets = _points({g.plain_expr(g.projected)}, LATTICE)")
        for i, (dx, dy) in enumerate(_vectors(g.rs.board, dirs)):
            g.line(1, f"M{i} = _maxdot(targets, {dx}, {dy})")
    g.each_piece()
    _rays(g, dirs)


def _rays(g: RuleGen, dirs: list[str]) -> None:
    motion: Slide = g.motion
    rays = tuple(g.c.const(("rays", d), g.t.rays(d), "RAY") for d in dirs)
    # Two lines from one cell may reach the same cell (3-A-Side's goals): one ply.
    dedupe = g.t.rays_overlap(dirs)
    least = motion.least or 1
    bounded = motion.limit is not None or motion.least is not None
    if motion.limit is not None:
        g.line(3, f"limit = {g.plain_expr(motion.limit)}")
        g.line(3, f"if limit < {least}: continue")
    elif motion.least is not None:
        g.line(3, f"limit = {least}")  # `slide N`: exactly N steps
    if dedupe:
        g.line(3, "seen = 0")
    if g.projected is not None:
        # Ending k steps along d is closer to some target e than the start f
        # iff 2 (e - f).d > k |d|^2: one bound per line, then a product per step.
        lines = ", ".join(f"({r}, {dx}, {dy}, {dd}, M{i})" for i, (r, (dx, dy), dd) in
                          enumerate(zip(rays, _vectors(g.rs.board, dirs), _norms(g.rs.board, dirs))))
        g.line(3, "fx, fy = LATTICE[c]")
        g.line(3, f"for ray, dx, dy, dd, best in ({lines},):")
        g.line(4, "bound = 2 * (best - fx * dx - fy * dy)")
    else:
        g.line(3, f"for ray in ({', '.join(rays)},):")
    g.line(4, "n = 0")
    g.line(4, "path = 0")
    for var in (g.adj_path or {}).values():
        g.line(4, f"{var} = 0")
    g.line(4, "for d in ray[c]:")
    if bounded or g.projected is not None:
        g.line(5, "n += 1")
    if bounded:
        g.line(5, "if n > limit: break")
    if g.projected is not None:
        g.line(5, "if n * dd >= bound: break")  # no farther cell is closer either
    g.line(5, "here = BIT[d]")
    g.target(2, 5)
    g.line(5, "if here & tgt" + (" & base" if g.riders else "")
           + (f" and n >= {least}" if least > 1 else "")
           + (" and not here & seen" if dedupe else "")
           + (f" and {g.where}" if g.where else "") + ":")
    if dedupe:
        g.line(6, "seen |= here")
    g.found(6, "t, c, d")
    g.line(5, "if here & occ: break")
    g.line(5, "path |= here")
    for key, var in (g.adj_path or {}).items():
        g.line(5, f"{var} |= {g.c.adj(key)}[d]")


def emit_apply(g: RuleGen) -> None:
    g.apply_move()


def emit_c_moves(g: CRuleGen) -> None:
    """As `emit_moves`, with the same projection of `closer(here, from, T)` on the lines."""
    motion: Slide = g.motion
    dirs = straight(g.rs.board, motion.dirs)
    rays = g.c.rays(dirs)
    dedupe = g.t.rays_overlap(dirs)
    least = motion.least or 1
    bounded = motion.limit is not None or motion.least is not None
    g.head(occ=True)
    if g.projected is not None:
        _c_projection(g, dirs)
    g.each_piece()
    if motion.limit is not None:
        g.line(3, f"int64_t limit = {g.plain_expr(motion.limit)};")
        g.line(3, f"if (limit < {least}) continue;")
    elif motion.least is not None:
        g.line(3, f"int64_t limit = {least};")
    if dedupe:
        g.line(3, "M seen = m_zero();")
    g.line(3, f"for (int di = 0; di < {rays.count}; di++) {{")
    g.line(4, f"const int *ray = {rays.flat}[di] + {rays.off}[di][c];")
    g.line(4, f"int len = {rays.off}[di][c + 1] - {rays.off}[di][c];")
    g.line(4, "int64_t n = 0; (void)n;")
    g.line(4, "M path = m_zero(); (void)path;")
    for var in (g.adj_path or {}).values():
        g.line(4, f"M {var} = m_zero();")
    if g.projected is not None:
        # ending n steps along the line is closer to a target than the start iff
        # 2 (e - f).d > n |d|^2: one bound per line, then a product per step
        g.line(4, "int64_t bound = 2 * (best[di] - LATTICE[c][0] * pdx[di] - LATTICE[c][1] * pdy[di]);")
    g.line(4, "for (int k = 0; k < len; k++) {")
    g.line(5, "int d = ray[k];")
    g.line(5, "n++;")
    if bounded:
        g.line(5, "if (n > limit) break;")
    if g.projected is not None:
        g.line(5, "if (n * pdd[di] >= bound) break;")
    g.line(5, "M here = m_bit(d);")
    g.target(2, 5)
    test = "m_has(tgt, d)" + (" && m_has(base, d)" if g.riders else "") \
        + (f" && n >= {least}" if least > 1 else "") + (" && !m_has(seen, d)" if dedupe else "") \
        + (f" && ({g.where})" if g.where else "")
    g.line(5, f"if ({test}) {{")
    if dedupe:
        g.line(6, "seen = m_or(seen, here);")
    g.found(6, "t, c, d")
    g.line(5, "}")
    g.line(5, "if (m_has(occ, d)) break;")
    g.line(5, "path = m_or(path, here);")
    for key, var in (g.adj_path or {}).items():
        g.line(5, f"{var} = m_or({var}, {g.c.adj(key)}[d]);")
    g.line(4, "}")
    g.line(3, "}")
    g.end_piece()


def _c_projection(g: CRuleGen, dirs: list[str]) -> None:
    """Per call: each line's direction, its squared length and the targets' largest
    projection on it (`best`), for `closer(here, from, T)` (see `_rays`)."""
    vectors, norms = _vectors(g.rs.board, dirs), _norms(g.rs.board, dirs)
    g.line(1, f"M targets = {g.plain_expr(g.projected)};")
    g.line(1, f"const int64_t pdx[] = {{{', '.join(str(dx) for dx, _ in vectors)}}};")
    g.line(1, f"const int64_t pdy[] = {{{', '.join(str(dy) for _, dy in vectors)}}};")
    g.line(1, f"const int64_t pdd[] = {{{', '.join(map(str, norms))}}};")
    g.line(1, f"int64_t best[{len(dirs)}];")
    g.line(1, f"rc_maxdots(targets, LATTICE, pdx, pdy, {len(dirs)}, best);")


def emit_c_apply(g: CRuleGen) -> None:
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
