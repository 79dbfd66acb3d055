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

from dsl import model
from dsl import syntax as syn
from dsl.constructs.slide import Slide, straight

if TYPE_CHECKING:  # the back-end passes itself in; the model never imports it
    from interpreter.native.crules import CRuleGen
    from interpreter.python.pyrules import RuleGen


VARIANT_OF = Slide  # the plies of a slide ...


def applies(motion: Slide) -> bool:
    """... that is chained."""
    return motion.chained


PATH_GROWS = True  # each segment's path, kept as it goes
ACTION = "chain"  # (rule, piece type, from, final cell, removed)


def emit_support(g: RuleGen) -> None:
    """`chains_N(s, t, c0, routes=False)`: every chain from c0, {(final, removed): routes}."""
    motion: Slide = g.motion
    rays = ", ".join(g.c.const(("rays", d), g.t.rays(d), "RAY") for d in straight(g.rs.board, motion.dirs))
    hoist = g.hoister(f"c{g.code}_", {"here", "path"})  # per segment start: the position, from
    adj_path = g.adj_path or {}
    seg = g.ctx("sc", path="path", hoist=hoist, single=True, adj_path=adj_path)
    removal = " | ".join(g.c.expr(e, seg) for e in g.ply.removals())
    tgt = g.plain_expr(g.ply.onto, "sc")
    per_cell = model.mentions(g.ply.onto, model.Word.HERE)
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
    types = g.L.types  # stones are removed as they are passed (the other slots stay)
    line(2, f"sc = [x & ~removed for x in s[:{types}]] + list(s[{types}:])")
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


def emit_c_support(g: CRuleGen) -> None:
    """`chains_N(s, t, c0)`: as `emit_support`, the chains found left in `rc_found`
    (cell: the final cell; removed), in the order first found."""
    motion: Slide = g.motion
    rays = g.c.rays(straight(g.rs.board, motion.dirs))
    adj_path = g.adj_path or {}
    seg = g.ctx("sc", path="path", single=True, adj_path=adj_path)
    removal = None
    for e in g.ply.removals():
        r = g.c.expr(e, seg)
        removal = r if removal is None else f"m_or({removal}, {r})"
    per_cell = model.mentions(g.ply.onto, model.Word.HERE)
    line = g.line
    g.out.function(f"int chains_{g.code}(const S *s, int t, int c0)")
    line(1, "if (chainset_reset(&rc_expanded, 1u << 18) || chainset_reset(&rc_found_set, 1u << 12)) "
            "return RC_ERR_MEMORY;")
    line(1, "rc_found.n = rc_stack.n = 0;")
    line(1, "M start = m_bit(c0);")
    line(1, "if (chainlist_push(&rc_stack, c0, m_zero(), -1, 1)) return RC_ERR_MEMORY;")
    line(1, f"int budget = {g.chain_budget()};")
    line(1, "while (rc_stack.n) {")
    line(2, "ChainItem it = rc_stack.a[--rc_stack.n];")
    line(2, "int c = it.c, last = it.last, len = it.len; M removed = it.removed; (void)len;")
    seg_len = "0" if motion.segments is None else "len"
    line(2, f"int fresh = chainset_add(&rc_expanded, c, removed, last, {seg_len});")
    line(2, "if (fresh < 0) return fresh;")
    line(2, "if (!fresh) continue;")
    line(2, "if (--budget < 0) return RC_ERR_CHAIN;")
    line(2, "S scs = *s; S *sc = &scs;")
    line(2, f"for (int i = 0; i < {g.L.types}; i++) sc->c[i] = m_andn(sc->c[i], removed);")
    line(2, "sc->c[t] = m_or(m_andn(sc->c[t], start), m_bit(c));")
    line(2, f"M occ = {g.c.occ('sc')};")
    line(2, "M frm = m_bit(c); (void)frm;")
    if not per_cell:
        line(2, f"M tgt = {g.plain_expr(g.ply.onto, 'sc')};")
    if motion.limit is not None:
        line(2, f"int64_t limit = {g.plain_expr(motion.limit, 'sc')};")
    _c_segments(g, rays, removal, per_cell, adj_path)
    line(1, "}")
    line(1, "return 0;")
    g.out.end()


def _c_segments(g: CRuleGen, rays, removal: str, per_cell: bool, adj_path: dict) -> None:
    """As `_segments`: from cell c, each straight segment in a new direction."""
    line, motion = g.line, g.motion
    line(2, f"for (int di = 0; di < {rays.count}; di++) {{")
    line(3, "if (di == last) continue;")
    line(3, f"const int *ray = {rays.flat}[di] + {rays.off}[di][c];")
    line(3, f"int n_cells = {rays.off}[di][c + 1] - {rays.off}[di][c];")
    line(3, "M path = m_zero(); (void)path;")
    for var in adj_path.values():
        line(3, f"M {var} = m_zero();")
    if motion.limit is not None:
        line(3, "int64_t n = 0;")
    line(3, "for (int k = 0; k < n_cells; k++) {")
    line(4, "int d = ray[k];")
    if motion.limit is not None:
        line(4, "if (++n > limit) break;")
    line(4, "M here = m_bit(d);")
    line(4, "if (m_has(occ, d)) break;")
    if per_cell:
        line(4, f"M tgt = {g.plain_expr(g.ply.onto, 'sc')};")
    if all(g.opponents_only(e) for e in g.ply.removals()):
        line(4, f"M rem = {removal};")
    else:
        line(4, f"M rem = m_andn(m_and({removal}, occ), frm);")
    line(4, "if ((m_any(rem) || last < 0) && m_has(tgt, d)) {")
    line(5, "M both = m_or(removed, rem);")
    line(5, "int f = chainset_add(&rc_found_set, d, both, 0, 0);")
    line(5, "if (f < 0) return f;")
    line(5, "if (f && chainlist_push(&rc_found, d, both, 0, 0)) return RC_ERR_MEMORY;")
    more = "" if motion.segments is None else f" && len < {motion.segments}"
    line(5, f"if (m_any(rem){more} && chainlist_push(&rc_stack, d, both, di, len + 1)) return RC_ERR_MEMORY;")
    line(4, "}")
    line(4, "path = m_or(path, here);")
    for key, var in adj_path.items():
        line(4, f"{var} = m_or({var}, {g.c.adj(key)}[d]);")
    line(3, "}")
    line(2, "}")


def emit_c_moves(g: CRuleGen) -> None:
    """Each piece's chains, kept if the whole ply (start to final cell) meets the condition."""
    where = g.c.expr(g.ply.where, g.ctx("s", single=True)) if g.ply.where is not None else None
    types, count = g.c.types_table(g.types)
    g.line(1, f"for (int ti = 0; ti < {count}; ti++) {{")
    g.line(2, f"int t = {types}[ti];")
    g.line(2, "M pieces = s->c[t];")
    g.out.bits(2, "pieces", "c0")
    g.line(3, "M frm = m_bit(c0); (void)frm;")
    g.line(3, f"int e = chains_{g.code}(s, t, c0);")
    g.line(3, "if (e < 0) return e;")
    g.line(3, "for (int k = 0; k < rc_found.n; k++) {")
    g.line(4, "int final = rc_found.a[k].c;")
    g.line(4, "M removed = rc_found.a[k].removed;")
    g.line(4, "M here = m_bit(final);")
    if any(g.rs.types[t].carrier is not None for t in g.types):
        g.line(4, "if (SUPPORT[t] >= 0 && !m_any(m_and(here, s->c[SUPPORT[t]]))) continue;")
    if where is not None:
        g.line(4, f"if (!({where})) continue;")
    g.out.ply(4, f"{g.code}, t, c0, final, removed")
    g.line(3, "}")
    g.out.close(2)
    g.line(1, "}")


def emit_c_apply(g: CRuleGen) -> None:
    g.apply(["M frm = m_bit(a->x[1]);", "M here = m_bit(a->x[2]);"], "a->rem",
            ["b->c[t] = m_or(m_andn(s->c[t], frm), here);"])
