"""`leap ... chained [straight] [to the end]`: jump after jump, each over one adjacent piece
onto the empty cell beyond it, each removing pieces (the `remove` effects, read per jump,
with that jump's `path`). A multi-jump capture: draughts, Alquerque, Konane.

The start cell stays taken until the ply ends: no jump lands there (a king cannot come
back to it), which is how draughts' published perft counts read the rules.
Without `remove` the jumps are hops over any pieces, taking none (Chinese checkers,
Halma): the start cell is empty behind the piece, and no chain ends where it began.
`straight`: every jump goes the way of the first (Konane). `to the end`: the piece jumps
while it can, and the ply ends only where no further jump is possible (draughts);
without it, the ply may end after any jump. Depth-first over (cell, removed so far, last
direction), each state expanded once, like chained slides (chain.py), with the same
action (rule, piece type, from cell, final cell, removed cells) and routes for notation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dsl.constructs.chain import emit_apply, emit_moves, let_taken, search_parts
from dsl.constructs.leap import Leap
from dsl.constructs.slide import straight

if TYPE_CHECKING:  # the back-end passes itself in; the model never imports it
    from interpreter.codegen.rules import RuleGen

__all__ = ["emit_apply", "emit_moves", "emit_support"]  # a chain's plies, found and made alike

VARIANT_OF = Leap  # the plies of a leap ...


def applies(motion: Leap) -> bool:
    """... that is chained."""
    return motion.chained


PATH_GROWS = True  # each jump's path (the cell jumped), kept for `adjacent(path)`
ACTION = "chain"  # (rule, piece type, from, final cell, removed)


def emit_support(g: RuleGen) -> None:
    """`chains_N(s, t, c0)`: every multi-jump from c0, (final cell, removed), each once."""
    w, motion, onto = g.w, g.motion, g.ply.onto
    hoist, adj_path, removal, per_cell = search_parts(g)
    hops = not g.ply.removals()  # jumps over pieces that stay
    with w.chain_search(g.code, g.chain_budget(), None, g.ply):
        # the state `sc`: the removed pieces gone, the piece at c. A capture's start cell
        # stays taken until the ply ends (no jump lands there), as draughts' published
        # counts have it; a hop's is empty, and never a chain's end.
        w.let("cells", "occ", w.occ("sc") if hops else w.or_(w.occ("sc"), "start"))
        w.let("cells", "frm", w.bit("c"))
        if not per_cell:
            w.let("cells", "tgt", g.plain_expr(onto, "sc"))
        g.hoisted("outer", hoist)
        g.hoisted("piece", hoist)
        if motion.to_the_end:
            w.let("num", "more", "0")
        with w.each_dir(straight(g.rs.board, motion.dirs), "c", index="di", bind=True):
            if motion.straight_on:
                w.skip_if(w.all_("last >= 0", "di != last"))
            w.skip_if(w.any_of(f"{w.ray_len()} < 2", w.not_(w.has("occ", w.ray_at(0)))))
            w.let("cells", "path", w.bit(w.ray_at(0)))
            for key, var in adj_path.items():
                w.let("cells", var, f"{w.adj(key)}[{w.ray_at(0)}]")
            w.let("cell", "d", w.ray_at(1))
            w.let("cells", "here", w.bit("d"))
            w.skip_if(w.has("occ", "d", "here"))  # a jump lands on an empty cell
            if hops:
                w.skip_if(w.has("start", "d", "here"))  # back where it began: no ply
            if per_cell:
                w.let("cells", "tgt", g.plain_expr(onto, "sc"))
            w.skip_if(w.not_(w.has("tgt", "d", "here")))
            if hops:
                w.let("cells", "both", "removed")
            else:
                let_taken(g, removal)  # each jump must take some: a chain ends
                w.skip_if(w.none("rem"))
                w.let("cells", "both", w.or_("removed", "rem"))
            if motion.to_the_end:
                w.set("more", "1")
            else:
                w.chain_end("d", "both")
            # a hop's direction matters only to `straight`: a cell is then searched once
            w.chain_push("d", "both", "0" if hops and not motion.straight_on else "di")
        if motion.to_the_end:  # no jump from here: the ply ends here (not at its start)
            with w.if_(w.all_("more == 0", "last >= 0")):
                w.chain_end("c", "removed", reached=True)
