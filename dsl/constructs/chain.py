"""`slide ... chained [up to K segments]`: straight segments, each after the first turning
and removing pieces (the `remove` effects, read per segment).

Depth-first over (cell, removed so far, last direction), each state expanded once;
a segment goes on only if it took pieces (so a chain ends), at most K of them, and
the search stops with an error past MAX_CHAIN_STATES states. A ply is its start,
final cell and removed set: action (rule, piece type, from cell, final cell,
removed cells); `chains_N(..., routes=True)` gives every route to each, for notation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dsl import model
from dsl.constructs.slide import Slide, straight

if TYPE_CHECKING:  # the back-end passes itself in; the model never imports it
    from interpreter.codegen.context import Hoister
    from interpreter.codegen.rules import RuleGen


VARIANT_OF = Slide  # the plies of a slide ...


def applies(motion: Slide) -> bool:
    """... that is chained."""
    return motion.chained


PATH_GROWS = True  # each segment's path, kept as it goes
ACTION = "chain"  # (rule, piece type, from, final cell, removed)


def search_parts(g: RuleGen) -> tuple[Hoister, dict, str, bool]:
    """What a chain search of either kind (slides, leaps) needs: its hoister (per step start:
    the position, from), the path's adjacency locals, the removal's code on the state `sc`,
    and whether `onto` reads `here` (then the target is known per cell)."""
    hoist = g.hoister(f"c{g.code}_", {"here", "path"})
    adj_path = g.adj_path or {}
    step = g.ctx("sc", path="path", hoist=hoist, single=True, adj_path=adj_path)
    removal = g.w.union([g.w.expr(e, step) for e in g.ply.removals()])
    return hoist, adj_path, removal, model.mentions(g.ply.onto, model.Word.HERE)


def let_taken(g: RuleGen, removal: str) -> None:
    """`rem`: what this step takes, pieces still on the board other than the mover (so a
    chain ends)."""
    w = g.w
    if all(g.opponents_only(e) for e in g.ply.removals()):
        w.let("cells", "rem", removal)  # already pieces on the board, never the mover
    else:
        w.let("cells", "rem", w.andn(w.and_(removal, "occ"), "frm"))


def emit_support(g: RuleGen) -> None:
    """`chains_N(s, t, c0)`: every chain from c0, (final cell, removed), each once, in the
    order first found (the Python back-end's, with `routes=True`, every route to each)."""
    w, motion, onto = g.w, g.motion, g.ply.onto
    hoist, adj_path, removal, per_cell = search_parts(g)
    with w.chain_search(g.code, g.chain_budget(), motion.segments, g.ply):
        # the state `sc`: the removed stones gone, the piece at c (its start cell empty)
        w.let("cells", "occ", w.occ("sc"))
        w.let("cells", "frm", w.bit("c"))
        if not per_cell:
            w.let("cells", "tgt", g.plain_expr(onto, "sc"))
        if motion.limit is not None:
            w.let("num", "limit", g.plain_expr(motion.limit, "sc"))
        g.hoisted("outer", hoist)
        g.hoisted("piece", hoist)
        with w.each_dir(straight(g.rs.board, motion.dirs), "c", index="di"):
            w.skip_if("di == last")  # the same direction is the same segment
            w.let("cells", "path", w.ZERO)
            for var in adj_path.values():
                w.let("cells", var, w.ZERO)
            if motion.limit is not None:
                w.let("num", "n", "0")
            with w.each_ray_cell("d"):
                _segment_cell(g, removal, per_cell, adj_path)


def _segment_cell(g: RuleGen, removal: str, per_cell: bool, adj_path: dict) -> None:
    """Cell d of a segment: a chain found where it may stop, and the search goes on from it
    if the segment took pieces."""
    w, motion = g.w, g.motion
    if motion.limit is not None:
        w.add_to("n", "1")
        w.stop_if("n > limit")
    w.let("cells", "here", w.bit("d"))
    w.stop_if(w.has("occ", "d", "here"))
    if per_cell:
        w.let("cells", "tgt", g.plain_expr(g.ply.onto, "sc"))
    let_taken(g, removal)  # each segment must take some: a chain ends
    with w.if_(w.all_(w.any_of(w.any_("rem"), "last < 0"), w.has("tgt", "d", "here"))):
        w.let("cells", "both", w.or_("removed", "rem"))
        w.chain_end("d", "both")
        more = [w.any_("rem")] + ([] if motion.segments is None else [f"{w.chain_length()} < {motion.segments}"])
        with w.if_(w.all_(*more)):
            w.chain_push("d", "both", "di")
    w.or_into("path", "here")
    for key, var in adj_path.items():
        w.or_into(var, f"{w.adj(key)}[d]")


def emit_moves(g: RuleGen) -> None:
    """Each piece's chains, kept if the whole ply (start to final cell) meets the condition."""
    w = g.w
    whole_hoist = g.hoister(f"w{g.code}_", {"here"})
    whole = g.ctx("s", hoist=whole_hoist, single=True)
    where = w.expr(g.ply.where, whole) if g.ply.where is not None else None
    g.hoisted("outer", whole_hoist)
    with w.each_type(g.types):
        w.let("cells", "pieces", w.movers("s", "t"))
        with w.each_bit("pieces", "frm", "c0", eager=True):
            g.hoisted("piece", whole_hoist)
            with w.each_chain(g.code, "final", "removed"):
                w.let("cells", "here", w.bit("final"))
                if any(g.rs.types[t].carrier is not None for t in g.types):  # a rider ends on its carrier
                    w.skip_if(w.none(w.and_("here", w.call("support", "s", "t"))))
                if where is not None:  # closeness and the like: the whole ply, start to final cell
                    w.skip_if(w.not_(where))
                g.found(["t", "c0", "final"], "removed")


def emit_apply(g: RuleGen) -> None:
    g.apply(g.move_head(), g.put_moved)
