"""End rules, turn order and the game's entry points, in C.

`ends_P` and `finish_P` are the turn logic's plans (interpreter/codegen/turns.py)
printed; `rc_has_move`, the skip of `when possible` phases, and the ABI's
`rc_legal` (compulsory capture applied), `rc_apply`, `rc_chains` and `rc_outcome` are
written here.
"""

from __future__ import annotations

from dsl import model

from interpreter.codegen import turns
from interpreter.runtime.actions import Shape
from interpreter.native.cwriter import CWriter
from interpreter.native.printer import CPrinter


def emit_ends(c: CWriter, p: int) -> None:
    """`ends_P(b, moves, settle)`: the end rules after a ply by `p` (turns.ends_function)."""
    CPrinter(c).function(turns.ends_function(c.rs, p))


def emit_finish(c: CWriter, p: int, skips: bool) -> None:
    """`finish_P(b, ph)`: the next phase or turn, then the end rules (turns.finish_function)."""
    CPrinter(c).function(turns.finish_function(p, len(c.rs.players), skips))


def emit_turns(c: CWriter, phases: list[model.TurnPhase], codes: dict, n_players: int, pass_code: int) -> None:
    """`rc_has_move`, `rc_legal` and `rc_skip`: the turn logic's plans (turns.py), as the
    Python back-end's `has_move`, `legal` and `_skip`."""
    printer = CPrinter(c)
    printer.function(turns.has_move_function(phases, codes, n_players))
    printer.function(turns.legal_function(c.rs, phases, codes, pass_code))
    printer.function(turns.skip_function(len(phases), n_players))


def emit_captures(c: CWriter, rules: list, maximum: bool) -> None:
    """`rc_captured` (the opponent's pieces on some cells) and the compulsory-capture filter."""
    out, rs = c.out, c.rs
    out.function("int64_t rc_captured(const S *s, M taken, int p)")
    out.line(1, "int64_t n = 0;")
    for p in range(len(rs.players)):
        out.line(1, f"if (p == {p}) {{")
        for i in rs.selected(None, model.Owner.OPPONENT, p):
            count = "1" if rs.types[i].size > 1 else f"m_pop(m_and(s->c[{i}], taken))"
            out.line(2, f"if (m_any(m_and(s->c[{i}], taken))) n += {count};")
        out.line(1, "}")
    out.line(1, "return n;")
    out.end()
    out.function("M rc_taken(const S *s, const A *a)")
    out.line(1, "switch (a->r) {")
    for r in rules:
        if r.player is not None:
            out.line(1, f"case {r.code}: return taken_{r.code}(s, a);")
    out.line(1, "}")
    out.line(1, "return m_zero();")
    out.end()
    out.function("int rc_must_capture(const S *s, Buf *out)")
    out.line(1, "int64_t best = 0, small[256]; int k = 0;")  # most positions: no allocation
    out.line(1, "int64_t *n = out->n <= 256 ? small : malloc((size_t)out->n * sizeof(int64_t));")
    out.line(1, "if (!n) return RC_ERR_MEMORY;")
    narrow = all(t.size == 1 for t in rs.types if t.owner is not None)
    if narrow:  # as Game.count_captures: the cells taken that hold the opponent's pieces
        out.line(1, "M theirs = m_zero();")
        for p in range(len(rs.players)):
            union = c.types_union(rs.selected(None, model.Owner.OPPONENT, p), "s")
            out.line(1, f"if ({c.P('s')} == {p}) theirs = {union};")
        count = "m_pop(m_and(rc_taken(s, &out->a[i]), theirs))"
    else:
        count = f"rc_captured(s, rc_taken(s, &out->a[i]), (int){c.P('s')})"
    out.line(1, f"for (int i = 0; i < out->n; i++) {{ n[i] = {count}; if (n[i] > best) best = n[i]; }}")
    keep = "n[i] == best" if maximum else "n[i] > 0"
    out.line(1, f"if (best > 0) {{ for (int i = 0; i < out->n; i++) if ({keep}) out->a[k++] = out->a[i]; "
                "out->n = k; }")
    out.line(1, "if (n != small) free(n);")
    out.line(1, "return 0;")
    out.end()


def emit_dispatch(c: CWriter, rules: list, n_players: int) -> None:
    """`rc_apply`: the action's rule's apply function (or the pass of the player to move)."""
    out = c.out
    out.function("int rc_apply(const S *s, const A *a, S *b)")
    out.line(1, "switch (a->r) {")
    for r in rules:
        if r.player is not None:
            out.line(1, f"case {r.code}: return apply_{r.code}(s, a, b);")
    out.line(1, "}")
    out.line(1, f"switch ((int){c.P('s')}) {{")
    for p in range(n_players):
        out.line(1, f"case {p}: return pass_{p}(s, b);")
    out.line(1, "}")
    out.line(1, "return RC_ERR_RANGE;")
    out.end()


def emit_chains(c: CWriter, rules: list) -> None:
    """`rc_chains`: a chained rule's search from one piece (its chains_N), for hops.c."""
    out = c.out
    out.function("int rc_chains(const S *s, int r, int t, int c0)")
    out.line(1, "switch (r) {")
    for r in rules:
        if r.player is not None and r.format.shape is Shape.CHAIN:
            out.line(1, f"case {r.code}: return chains_{r.code}(s, t, c0);")
    out.line(1, "}")
    out.line(1, "(void)s; (void)t; (void)c0;")
    out.line(1, "return RC_ERR_RANGE;")
    out.end()


def emit_outcome(c: CWriter, n_players: int) -> None:
    """`rc_outcome`: the state's outcome, a stuck player to move settled lazily (the
    plan turns.outcome_function, as the Python back-end's `outcome`)."""
    CPrinter(c).function(turns.outcome_function(c.rs))
