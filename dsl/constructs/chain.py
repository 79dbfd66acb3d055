"""`slide ... chained [up to K segments]`: straight segments, each after the first turning
and removing pieces (the `remove` effects, read per segment).

Depth-first over (cell, removed so far, last direction), each state expanded once;
a segment goes on only if it took pieces (so a chain ends), at most K of them, and
the search stops with an error past MAX_CHAIN_STATES states. A ply is its start,
final cell and removed set: action (rule, piece type, from cell, final cell,
removed cells); `chains_N(..., routes=True)` gives every route to each, for notation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .. import ir
from .. import model as m
from .slide import Slide, straight
from .walk import route_free

if TYPE_CHECKING:  # the back-end passes itself in; the model never imports it
    from rulecraft.interpreter.pyrules import RuleGen


PATH_GROWS = True  # each segment's path, kept as it goes
ACTION = "chain"  # (rule, piece type, from, final cell, removed)


def check_segments(p: m.PlyDecl, error: Callable[..., None], cells: int) -> None:
    if not any(e.kind == "remove" for e in p.effects):
        error(p.motion.span, "a chained slide goes on only after a segment removes pieces; "
                             "this ply removes none", "add `then remove CELLS`")
    if p.motion.segments is not None and not 1 <= p.motion.segments <= cells:
        error(p.motion.span, f"a chain has 1 to {cells} segments on this board")


def check_route(p: m.PlyDecl, error: Callable[..., None]) -> None:
    route_free(p, [p.where], error, "chained slide",
               "use it in `remove` of a chained slide (each segment's path)")


def emit_support(g: RuleGen) -> None:
    """`chains_N(s, t, c0, routes=False)`: every chain from c0, {(final, removed): routes}."""
    motion: Slide = g.motion
    rays = ", ".join(g.c.const(("rays", d), g.t.rays(d), "RAY") for d in straight(g.rs.board, motion.dirs))
    hoist = g.hoister(f"c{g.code}_", {"here", "path"})  # per segment start: the position, from
    adj_path = g.adj_path or {}
    seg = g.ctx("sc", path="path", hoist=hoist, single=True, adj_path=adj_path)
    removal = " | ".join(g.c.expr(e, seg) for e in g.ply.removals())
    tgt = g.plain_expr(g.ply.onto, "sc")
    per_cell = ir.mentions(g.ply.onto, ir.Word.HERE)
    more = "" if motion.segments is None else f" and len(route) < {motion.segments}"
    state = "(c, removed, last)" if motion.segments is None else "(c, removed, last, len(route))"
    line = g.line
    line(0, f"def chains_{g.code}(s, t, c0, routes=False):")
    line(1, "found = {}")
    line(1, "start = BIT[c0]")
    line(1, "expanded = set()")
    line(1, "stack = [(c0, 0, -1, (c0,))]")
    line(1, f"budget = {g.chain_budget()}")
    line(1, "while stack:")
    line(2, "c, removed, last, route = stack.pop()")
    line(2, "if not routes:")
    line(3, f"if {state} in expanded: continue")
    line(3, f"expanded.add({state})")
    line(2, "budget -= 1")
    line(2, f"if budget < 0: {g.chain_guard()}(c0)")
    line(2, "sc = [x & ~removed for x in s]")  # stones are removed as they are passed
    line(2, "sc[t] = (sc[t] & ~start) | BIT[c]")  # the start cell is empty while it moves
    line(2, f"occ = {g.c.occ('sc')}")
    line(2, "frm = BIT[c]")
    if not per_cell:
        line(2, f"tgt = {tgt}")
    if motion.limit is not None:
        line(2, f"limit = {g.plain_expr(motion.limit, 'sc')}")
    for name, src in hoist.outer + hoist.piece:
        line(2, f"{name} = {src}")
    _segments(g, rays, removal, tgt if per_cell else None, adj_path, more)
    line(1, "return found")
    line(0, "")


def _segments(g: RuleGen, rays: str, removal: str, tgt: str | None, adj_path: dict, more: str) -> None:
    """From cell c, each straight segment in a new direction; a cell where it may stop is
    a chain found, and the search goes on from it if the segment took pieces.
    `tgt`: the target set when it is computed per cell (else it is known already)."""
    line, motion = g.line, g.motion
    line(2, f"for di, ray in enumerate(({rays},)):")
    line(3, "if di == last: continue")  # the same direction is the same segment
    line(3, "path = 0")
    for var in adj_path.values():
        line(3, f"{var} = 0")
    if motion.limit is not None:
        line(3, "n = 0")
    line(3, "for d in ray[c]:")
    if motion.limit is not None:
        line(4, "n += 1")
        line(4, "if n > limit: break")
    line(4, "here = BIT[d]")
    line(4, "if here & occ: break")
    if tgt is not None:
        line(4, f"tgt = {tgt}")
    # Each segment must take pieces still on the board, other than the mover: a chain ends.
    if all(g.opponents_only(e) for e in g.ply.removals()):
        line(4, f"rem = {removal}")  # already pieces on the board, never the mover
    else:
        line(4, f"rem = ({removal}) & occ & ~frm")
    line(4, "if (rem or last < 0) and here & tgt:")
    line(5, "key = (d, removed | rem)")
    line(5, "if key not in found: found[key] = []")
    line(5, "if routes or not found[key]: found[key].append(route + (d,))")
    line(5, f"if rem{more}: stack.append((d, removed | rem, di, route + (d,)))")
    line(4, "path |= here")
    for key, var in adj_path.items():
        line(4, f"{var} |= {g.c.adj(key)}[d]")


def emit_moves(g: RuleGen) -> None:
    """Each piece's chains, kept if the whole ply (start to final cell) meets the condition."""
    whole_hoist = g.hoister(f"w{g.code}_", {"here"})
    whole = g.ctx("s", hoist=whole_hoist, single=True)
    where = g.c.expr(g.ply.where, whole) if g.ply.where is not None else None
    for name, src in whole_hoist.outer:
        g.line(1, f"{name} = {src}")
    g.line(1, f"for t in {g.c.type_tuple(g.types)}:")
    g.line(2, "pieces = s[t]")
    g.out.bits(2, "pieces", "frm")
    g.line(3, "c0 = frm.bit_length() - 1")
    for name, src in whole_hoist.piece:
        g.line(3, f"{name} = {src}")
    g.line(3, f"for final, removed in chains_{g.code}(s, t, c0):")
    g.line(4, "here = BIT[final]")
    if any(g.rs.types[t].carrier is not None for t in g.types):  # a rider ends on its carrier
        g.line(4, "if SUPPORT[t] >= 0 and not here & s[SUPPORT[t]]: continue")
    if where is not None:  # closeness and the like: the whole ply, start to final cell
        g.line(4, f"if not {where}: continue")
    g.out.ply(4, f"({g.code}, t, c0, final, removed)")


def emit_apply(g: RuleGen) -> None:
    g.apply(["frm = BIT[a[2]]", "here = BIT[a[3]]"], "a[4]", ["b[t] = (s[t] & ~frm) | here"])
