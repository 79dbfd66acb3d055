"""Which plies a state must remember for the rules that read the previous ply.

`last_ply(R, ...)`, `last_from` and `last_to` read the ply made just before. A state
remembers only what some rule can tell apart: a read of `last_from`/`last_to` inside
`last_ply(R) and ...` matters only after a ply of R, so the other plies are forgotten
(stored as "no previous ply"), and positions that differ only in them stay one state.
"""

from __future__ import annotations

from dsl import syntax as syn

ALL = "*"


def _guard(e: syn.Expr) -> frozenset[str] | None:
    """The plies `e` requires the previous one to be (a `last_ply(...)` conjunct), if any."""
    if isinstance(e, syn.Call) and e.func == "last_ply" and e.args:
        return frozenset(a.name for a in e.args if isinstance(a, syn.Name))
    if isinstance(e, syn.BoolOp) and e.op == "and":
        left, right = _guard(e.left), _guard(e.right)
        if left is not None and right is not None:
            return left & right
        return left if left is not None else right
    return None


def _reads(e: syn.Expr | None, guard: frozenset[str] | None, keep: set[str]) -> None:
    if e is None:
        return
    if isinstance(e, syn.Keyword) and e.word in ("last_from", "last_to"):
        keep |= guard if guard is not None else {ALL}
        return
    if isinstance(e, syn.Call) and e.func in ("last_ply", "undoes"):
        if e.func == "last_ply" and not e.args:
            keep.add(ALL)  # "was there a previous ply": every ply counts
        keep |= {a.name for a in e.args if isinstance(a, syn.Name)}
        return
    if isinstance(e, syn.BoolOp) and e.op == "and":
        left, right = _guard(e.left), _guard(e.right)
        _reads(e.left, right if right is not None else guard, keep)
        _reads(e.right, left if left is not None else guard, keep)
        return
    for child in syn.children(e):
        _reads(child, guard, keep)


def _exprs(plies: list[syn.PlyDecl], ends: list[syn.EndDecl], after: list[syn.Effect]):
    effects = list(after)
    for p in plies:
        yield from (p.onto, p.where, p.motion.limit)
        effects += p.effects
    for e in ends:
        yield from (e.player, e.cond)
        effects += e.effects
    for eff in effects:
        yield from (eff.index, eff.value, eff.guard, eff.player)


def remembered_plies(plies: list[syn.PlyDecl], ends: list[syn.EndDecl],
                     after: list[syn.Effect]) -> frozenset[str]:
    """The names of the plies (and `pass`) a state must remember; empty: none at all."""
    keep: set[str] = set()
    for e in _exprs(plies, ends, after):
        _reads(e, None, keep)
    if ALL in keep:
        return frozenset([p.name for p in plies] + ["pass"])
    return frozenset(keep)
