"""Apply functions in C: the move on a copy of the state, what it takes, the effects.

The twin of pyapply: `apply_N(s, a, b)` writes the position after action `a` into `b`
and returns 0, or an error code (a variable leaving its range).
"""

from __future__ import annotations

from dsl import model

from interpreter.python.pyapply import counts_captures, lands_on_empty, piece_groups
from interpreter.native.cexpr import CCtx, CExpr


def emit_apply(c: CExpr, ply: model.Ply, p: int, code: int, head: list[str], removed: str | None,
               put: list[str], clear: str | None = None, frm_moves: bool = True) -> None:
    """`apply_N` (see pyapply.emit_apply): `head` declares `frm` and `here` from action `a`;
    `removed` is where the action keeps the cells its ply removes; `clear` the cells
    emptied before the piece lands (default: here and the removed)."""
    out = c.out
    emit_taken(c, code, head, removed, lands_on_empty(ply.onto))
    if clear is None:
        clear = "m_or(here, removed)" if removed else "here"
    cleared = f"m_andn(b->c[{{i}}], {clear})"
    out.function(f"int apply_{code}(const S *s, const A *a, S *b)")
    out.line(1, "int t = a->x[0]; (void)t;")
    for line in head:
        out.line(1, line)
    if removed:
        out.line(1, f"M removed = {removed};")
    emit_captured(c, ply, p, code)
    out.line(1, "*b = *s;")
    if any(t.level for t in c.rs.types):
        # Landing removes what stands at the mover's level and above, not what it lands on.
        out.line(1, "for (int k = CLEAR_OFF[t]; k < CLEAR_OFF[t + 1]; k++) {")
        out.line(2, "int i = CLEAR[k];")
        out.line(2, f"b->c[i] = {cleared.format(i='i')};")
        out.line(1, "}")
    else:
        for i in range(c.L.types):
            out.line(1, f"b->c[{i}] = {cleared.format(i=i)};")
    for i, t in enumerate(c.rs.types):
        if t.size > 1:  # a piece covering several cells goes whole, wherever it is hit
            out.line(1, f"if (!m_eq(b->c[{i}], s->c[{i}])) b->c[{i}] = m_zero();")
    for line in put:
        out.line(1, line)
    if any(t.level for t in c.rs.types) and frm_moves:
        out.line(1, "for (int k = ABOVE_OFF[t]; k < ABOVE_OFF[t + 1]; k++) {")
        out.line(2, "int u = ABOVE[k];")
        out.line(2, "if (m_any(m_and(s->c[u], frm))) b->c[u] = m_or(m_andn(b->c[u], frm), here);")
        out.line(1, "}")
    finish(c, ply, p)


def finish(c: CExpr, ply: model.Ply | None, p: int) -> None:
    """The end of an apply function: pieces kept in order, the effects, the turn goes on."""
    emit_sort_pieces(c)
    emit_effects(c, ply, p)
    c.out.line(1, f"return finish_{p}(b, {c.PH('s')});")
    c.out.end()


def emit_taken(c: CExpr, code: int, head: list[str], removed: str | None, empty_landing: bool) -> None:
    """`taken_N(s, a)`: the cells whose pieces the action takes off (see pyapply.emit_taken)."""
    out = c.out
    out.function(f"M taken_{code}(const S *s, const A *a)")
    out.line(1, "(void)s; (void)a;")
    if empty_landing:
        out.line(1, f"return {removed};" if removed else "return m_zero();")
        out.end()
        return
    out.line(1, "int t = a->x[0]; (void)t;")
    for line in head:
        out.line(1, line)
    if any(t.level for t in c.rs.types):
        out.line(1, "M occ = m_zero();")
        out.line(1, "for (int k = CLEAR_OFF[t]; k < CLEAR_OFF[t + 1]; k++) occ = m_or(occ, s->c[CLEAR[k]]);")
    else:
        out.line(1, f"M occ = {c.occ('s')};")
    took = "m_andn(m_and(occ, here), frm)"
    out.line(1, f"return m_or({took}, {removed});" if removed else f"return {took};")
    out.end()


def emit_captured(c: CExpr, ply: model.Ply | None, p: int, code: int | None) -> None:
    """`captured`, for the effects that read it: the opponent's pieces the ply takes."""
    if not counts_captures(c, ply):  # reads only c.rs
        return
    if code is None:
        c.out.line(1, "int64_t captured = 0;")
    else:
        c.out.line(1, f"int64_t captured = rc_captured(s, taken_{code}(s, a), {p});")


def emit_sort_pieces(c: CExpr) -> None:
    """Keep each group's masks in ascending order, so one position has one state."""
    for group in piece_groups(c.rs):
        n = len(group)
        idx = c.out.int_table(("group", group), group, "GROUP")
        c.out.line(1, f"for (int i = 1; i < {n}; i++)")  # insertion sort, as `sorted` orders
        c.out.line(2, f"for (int j = i; j > 0 && m_less(b->c[{idx}[j]], b->c[{idx}[j - 1]]); j--) "
                      f"{{ M x = b->c[{idx}[j]]; b->c[{idx}[j]] = b->c[{idx}[j - 1]]; b->c[{idx}[j - 1]] = x; }}")


def emit_memory(c: CExpr, ply: model.Ply | None) -> None:
    """Remember this ply (its rule, from and here) for the rules that read the previous one."""
    M = c.L.memory
    if M is None:
        return
    rule, frm, to = c.slot("b", M), c.slot("b", M + 1), c.slot("b", M + 2)
    name = ply.name if ply is not None else "pass"
    if name in c.rs.remembers:
        c.out.line(1, f"{rule} = {c.previous_index(name)};")
        c.out.line(1, f"{frm} = frm;")
        c.out.line(1, f"{to} = here;")
    else:
        c.out.line(1, f"{rule} = 0; {frm} = m_zero(); {to} = m_zero();")


def emit_effects(c: CExpr, ply: model.Ply | None, p: int) -> None:
    """A ply's `then` effects, then it is remembered, then the effects after each ply."""
    from dsl.constructs import effects  # noqa: PLC0415
    bx = CCtx("b", p, here="here", frm="frm")
    for eff in ply.assigns() if ply is not None else []:
        effects.emit_c(c, eff, bx, 1)
    emit_memory(c, ply)
    for eff in c.rs.after:
        effects.emit_c(c, eff, bx, 1)
