"""Apply functions (Python source): the move on a copy of the state, what it takes, the effects."""

from __future__ import annotations

from typing import Callable

from dsl import model
from dsl.constructs import effects
from dsl.model import Word

from interpreter.python.pyexpr import UNROLL, Ctx, ExprCompiler


def subset_of(e: model.Expr, leaf: Callable[[model.Expr], bool]) -> bool:
    """Whether the cells `e` names always lie among those of the atoms `leaf` accepts
    (carried through `&`, `-` and `|`)."""
    if isinstance(e, model.Binary):
        if e.op == "&":
            return subset_of(e.left, leaf) or subset_of(e.right, leaf)
        if e.op == "-":
            return subset_of(e.left, leaf)
        if e.op == "|":
            return subset_of(e.left, leaf) and subset_of(e.right, leaf)
        return False
    return leaf(e)


def opponents_only(e: model.Expr) -> bool:
    """Whether the cells `e` names always hold opponent's pieces (so a mover's never)."""
    return subset_of(e, lambda x: isinstance(x, model.Pieces) and x.owner is model.Owner.OPPONENT)


def lands_on_empty(onto: model.Expr) -> bool:
    """Whether every cell `onto` allows is empty (then landing takes nothing)."""
    return subset_of(onto, lambda x: isinstance(x, model.Ref) and x.word is Word.EMPTY)


def emit_apply(c: ExprCompiler, ply: model.Ply, p: int, code: int, head: list[str], removed: str | None,
               put: list[str], keep: str | None = None, frm_moves: bool = True) -> None:
    """`apply_N`: the move on a copy (whatever stood on `here` removed), the effects on the
    position after it, then the turn goes on. `head` sets `frm` and `here` from the action
    `a`; `removed` is where the action keeps the cells its ply removes, if it does;
    `frm_moves`: a piece leaves `frm` (not so for a new piece), taking its riders along."""
    out = c.out
    emit_taken(c, code, head, removed, lands_on_empty(ply.onto))
    keep = keep or ("~(here | removed)" if removed else "~here")
    if removed:
        head = head + [f"removed = {removed}"]
    out.line(0, f"def apply_{code}(s, a):")
    out.line(1, "t = a[1]")
    for line in head:
        out.line(1, line)
    emit_captured(c, ply, p, code)
    out.line(1, "b = list(s)")
    out.line(1, f"keep = {keep}")
    stacked = any(t.level for t in c.rs.types)
    if stacked:
        # Landing removes what stands at the mover's level and above, not what it lands on.
        out.line(1, "for i in CLEAR[t]:")
        out.line(2, "b[i] &= keep")
    elif c.L.types > UNROLL:
        out.line(1, f"for i in range({c.L.types}):")
        out.line(2, "b[i] &= keep")
    else:
        for i in range(c.L.types):
            out.line(1, f"b[{i}] &= keep")
    for i, t in enumerate(c.rs.types):
        if t.size > 1:  # a piece covering several cells goes whole, wherever it is hit
            out.line(1, f"if b[{i}] != s[{i}]: b[{i}] = 0")
    for line in put:
        out.line(1, line)
    if stacked and frm_moves:
        out.line(1, "for u in ABOVE[t]:")  # the pieces standing on the mover ride along
        out.line(2, "if s[u] & frm:")
        out.line(3, "b[u] = (b[u] & ~frm) | here")
    finish(c, ply, p)


def finish(c: ExprCompiler, ply: model.Ply | None, p: int) -> None:
    """The end of an apply function: pieces kept in order, the effects, the turn goes on."""
    emit_sort_pieces(c)
    emit_effects(c, ply, p)
    c.out.line(1, f"return finish_{p}(b, s[{c.L.PH}])")
    c.out.line(0, "")


def emit_taken(c: ExprCompiler, code: int, head: list[str], removed: str | None,
               empty_landing: bool = False) -> None:
    """`taken_N(s, a)`: the cells whose pieces the action takes off the board.

    The one definition of a capture: what stands where the piece lands, at its level
    or above (a disc put on a tile takes nothing), and whatever the ply removes on its
    way, each cell once (a chain may end on a cell it emptied itself).
    """
    out = c.out
    out.line(0, f"def taken_{code}(s, a):")
    if empty_landing:  # only what the ply removes on its way
        out.line(1, f"return {removed}" if removed else "return 0")
        out.line(0, "")
        return
    out.line(1, "t = a[1]")
    for line in head + ([f"removed = {removed}"] if removed else []):
        out.line(1, line)
    if any(t.level for t in c.rs.types):
        out.line(1, "occ = 0")
        out.line(1, "for i in CLEAR[t]:")
        out.line(2, "occ |= s[i]")
    else:
        out.line(1, f"occ = {c.occ('s')}")
    out.line(1, "return (occ & here & ~frm)" + (" | removed" if removed else ""))
    out.line(0, "")


def counts_captures(c: ExprCompiler, ply: model.Ply | None) -> bool:
    """Whether `captured` is read after this ply (in its effects or after each ply)."""
    effects = (list(ply.effects) if ply is not None else []) + c.rs.after
    return any(model.mentions(e.value, Word.CAPTURED) or model.mentions(e.guard, Word.CAPTURED)
               for e in effects if isinstance(e, model.Assign))


def emit_captured(c: ExprCompiler, ply: model.Ply | None, p: int, code: int | None) -> None:
    """`captured`, for the effects that read it: the opponent's pieces the ply takes."""
    if not counts_captures(c, ply):
        return
    if code is None:
        c.out.line(1, "captured = 0")
    else:
        c.out.line(1, f"captured = _captured(s, taken_{code}(s, a), OPP[{p}])")


def piece_groups(rs: model.Ruleset) -> list[tuple[int, ...]]:
    """The piece types that are interchangeable pieces of one wide kind (one type a piece)."""
    groups: dict[tuple, list[int]] = {}
    for i, t in enumerate(rs.types):
        if t.size > 1:
            groups.setdefault((t.kind, t.owner), []).append(i)
    return [tuple(g) for g in groups.values() if len(g) > 1]


def emit_sort_pieces(c: ExprCompiler) -> None:
    """Keep each group's masks in ascending order, so one position has one state."""
    for group in piece_groups(c.rs):
        slots = ", ".join(f"b[{i}]" for i in group)
        c.out.line(1, f"{slots} = sorted(({slots},))")


def emit_memory(c: ExprCompiler, ply: model.Ply | None) -> None:
    """Remember this ply (its rule, from and here) for the rules that read the previous one."""
    M = c.L.memory
    if M is None:
        return
    name = ply.name if ply is not None else "pass"
    if name in c.rs.remembers:
        c.out.line(1, f"b[{M}] = {c.previous_index(name)}")
        c.out.line(1, f"b[{M + 1}] = frm")
        c.out.line(1, f"b[{M + 2}] = here")
    else:  # no rule tells this ply apart from none: forgotten, so one position is one state
        c.out.line(1, f"b[{M}] = b[{M + 1}] = b[{M + 2}] = 0")


def emit_effects(c: ExprCompiler, ply: model.Ply | None, p: int) -> None:
    """A ply's `then` effects, then it is remembered, then the effects after each ply, all on
    the position after it (list `b`): a ply's own rules read the ply before it as the
    previous one; what comes after it reads the ply itself."""
    bx = Ctx("b", p, here="here", frm="frm")
    for eff in ply.assigns() if ply is not None else []:
        effects.emit_python(c, eff, bx, 1)
    emit_memory(c, ply)
    for eff in c.rs.after:
        effects.emit_python(c, eff, bx, 1)
