"""Apply functions, for either back-end: the move on a copy of the state, what it takes,
the effects, then the turn goes on (`finish_P`, a turn plan of turns.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from dsl import model
from dsl.constructs import lands_on_empty
from dsl.model import Word, subset_of

from interpreter.codegen.writer import Writer

if TYPE_CHECKING:
    from interpreter.codegen.rules import RuleGen


def opponents_only(e: model.Expr) -> bool:
    """Whether the cells `e` names always hold opponent's pieces (so a mover's never)."""
    return subset_of(e, lambda x: isinstance(x, model.Pieces) and x.owner is model.Owner.OPPONENT)


def stacked(rs: model.Ruleset) -> bool:
    """Whether pieces stand on others (then a landing clears its level and above)."""
    return any(t.level for t in rs.types)


def emit_apply(g: RuleGen, head: list[tuple[str, str, str]], put: Callable[[], None],
               clear: str | None = None) -> None:
    """`apply_N`: the move on a copy (whatever stood on `here` removed), the effects on the
    position after it, then the turn goes on. `head` sets `frm` and `here` from the action
    `a`; `clear`: the cells a landing clears (default: here and what the ply removes);
    a piece that leaves `frm` (one of the construct's FROM_A_CELL) takes its riders along."""
    w, rs, code = g.w, g.rs, g.code
    removed = g.format.removes
    lands = g.construct.captures_landing  # a landing takes what stands on `here` (not a sowing)
    emit_taken(g, head, not lands or lands_on_empty(g.ply.onto))
    with w.function("apply", code):
        w.let("cell", "t", g.field("piece"))
        for kind, name, value in head:
            w.let(kind, name, value)
        if removed:
            w.let("cells", "removed", g.field("removed"))
        emit_captured(w, g.ply, g.p, code)
        w.copy_state()
        if clear is None:  # what the landing takes (nothing for a sowing) and what is removed
            clear = (w.or_("here", "removed") if removed else "here") if lands else \
                "removed" if removed else None
        if clear is not None and stacked(rs):  # a landing removes its level and above, not below
            w.cut_row("CLEAR", "t", "b", clear)
        elif clear is not None:
            w.cut_types("b", clear)
        for i, t in enumerate(rs.types):
            if t.size > 1:  # a piece covering several cells goes whole, wherever it is hit
                with w.if_(w.not_(w.eq(w.pieces("b", str(i)), w.pieces("s", str(i))))):
                    w.set(w.pieces("b", str(i)), w.ZERO)
        put()
        if stacked(rs) and g.construct.from_a_cell:  # the pieces standing on the mover ride along
            with w.each_of("ABOVE", "t", "u"):
                with w.if_(w.any_(w.and_(w.pieces("s", "u"), "frm"))):
                    w.set(w.pieces("b", "u"), w.or_(w.andn(w.pieces("b", "u"), "frm"), "here"))
        finish(w, g.ply, g.p)


def finish(w: Writer, ply: model.Ply | None, p: int) -> None:
    """The end of an apply function: pieces kept in order, the effects, the turn goes on."""
    for group in piece_groups(w.rs):
        w.sort_sets("b", group)
    emit_effects(w, ply, p)
    w.ret(f"finish_{p}(b, {w.slot('s', w.L.PH)})")


def emit_taken(g: RuleGen, head: list[tuple[str, str, str]], empty_landing: bool) -> None:
    """`taken_N(s, a)`: the cells whose pieces the action takes off the board.

    The one definition of a capture: what stands where the piece lands, at its level
    or above (a disc put on a tile takes nothing), and whatever the ply removes on its
    way, each cell once (a chain may end on a cell it emptied itself).
    """
    w = g.w
    removed_cells = g.field("removed") if g.format.removes else None
    with w.function("taken", g.code):
        if empty_landing:  # only what the ply removes on its way
            w.ret(removed_cells or w.ZERO)
            return
        w.let("cell", "t", g.field("piece"))
        for kind, name, value in head:
            w.let(kind, name, value)
        if stacked(g.rs):
            w.let("cells", "occ", w.ZERO)
            with w.each_of("CLEAR", "t", "i"):
                w.or_into("occ", w.pieces("s", "i"))
        else:
            w.let("cells", "occ", w.occ("s"))
        took = w.andn(w.and_("occ", "here"), "frm")
        w.ret(w.or_(took, removed_cells) if removed_cells else took)


def counts_captures(rs: model.Ruleset, ply: model.Ply | None) -> bool:
    """Whether `captured` is read after this ply (in its effects or after each ply)."""
    effects = (list(ply.effects) if ply is not None else []) + rs.after
    return any(model.mentions(e.value, Word.CAPTURED) or model.mentions(e.guard, Word.CAPTURED)
               for e in effects if isinstance(e, model.Assign))


def emit_captured(w: Writer, ply: model.Ply | None, p: int, code: int | None) -> None:
    """`captured`, for the effects that read it: the opponent's pieces the ply takes."""
    if not counts_captures(w.rs, ply):
        return
    w.let("num", "captured", "0" if code is None else w.call("captured", "s", f"taken_{code}(s, a)", str(p)))


def piece_groups(rs: model.Ruleset) -> list[tuple[int, ...]]:
    """The piece types that are interchangeable pieces of one wide kind (one type a piece)."""
    groups: dict[tuple, list[int]] = {}
    for i, t in enumerate(rs.types):
        if t.size > 1:
            groups.setdefault((t.kind, t.owner), []).append(i)
    return [tuple(g) for g in groups.values() if len(g) > 1]


def emit_memory(w: Writer, ply: model.Ply | None) -> None:
    """Remember this ply (its rule, from and here) for the rules that read the previous one."""
    M = w.L.memory
    if M is None:
        return
    name = ply.name if ply is not None else "pass"
    if name in w.rs.remembers:
        w.set(w.slot("b", M), str(w.previous_index(name)))
        w.set(w.slot("b", M + 1), "frm")
        w.set(w.slot("b", M + 2), "here")
    else:  # no rule tells this ply apart from none: forgotten, so one position is one state
        w.set(w.slot("b", M), "0")
        w.set(w.slot("b", M + 1), w.ZERO)
        w.set(w.slot("b", M + 2), w.ZERO)


def emit_effects(w: Writer, ply: model.Ply | None, p: int) -> None:
    """A ply's `then` effects, then it is remembered, then the effects after each ply, all on
    the position after it (`b`): a ply's own rules read the ply before it as the
    previous one; what comes after it reads the ply itself."""
    bx = w.ctx("b", p, here="here", frm="frm")
    for eff in ply.after_effects() if ply is not None else []:
        w.effect(eff, bx)
    emit_memory(w, ply)
    for eff in w.rs.after:
        w.effect(eff, bx)


def emit_pass(w: Writer, p: int) -> None:
    """`pass_P`: the `pass` ply of player `p`: nothing moves; the effects after each ply apply."""
    with w.function("pass", p):
        w.let("cells", "here", w.ZERO)
        w.let("cells", "frm", w.ZERO)
        emit_captured(w, None, p, None)
        w.copy_state()
        emit_effects(w, None, p)
        w.ret(f"finish_{p}(b, {w.slot('s', w.L.PH)})")
