"""End rules, turn order and the pass ply (Python source)."""

from __future__ import annotations

from dsl import model
from dsl.constructs import effects
from dsl.model import Outcome, Word

from interpreter.python import pyapply
from interpreter.python.pyexpr import Ctx, ExprCompiler


def lazy_tail(rs: model.Ruleset) -> int | None:
    """Where the end rules that only ask `no legal ply` begin, if nothing else follows them.

    From there on the outcome depends only on whether the player to move is stuck, so the
    state need not decide it when a ply is made: it is settled when asked (as the legal
    plies are computed anyway). None when a later rule asks more, or names `mover`.
    """
    for i, end in enumerate(rs.ends):
        if model.mentions(end.cond, Word.STUCK):
            for later in rs.ends[i:]:
                pure = isinstance(later.cond, model.Ref) and later.cond.word is Word.STUCK
                who = later.player
                plain = who is None or isinstance(who, model.Player) or \
                    (isinstance(who, model.Ref) and who.word is Word.NEXT)
                if not pure or not plain or later.outcome is Outcome.GOES_ON:
                    return None
            return i
    return len(rs.ends)


def emit_ends(c: ExprCompiler, p: int) -> None:
    """`ends_P`: the end rules, in order, for a ply just made by player `p`; then the default
    rule (a player with no legal ply loses)."""
    out, L = c.out, c.L
    cx = Ctx("b", p, stuck="stuck", next_is_mover=False)
    # moves: a ply is known to exist already; settle: a position read from its text, whose
    # effects (rules `then ... if ...`) already ran when it was reached.
    out.line(0, f"def ends_{p}(b, moves=False, settle=False):")
    stuck_known = changed = False
    tail = lazy_tail(c.rs)
    rules: list[model.End | None] = list(c.rs.ends) + [None] if tail is None else list(c.rs.ends[:tail])
    for end in rules:
        cond = end.cond if end is not None else model.Ref(None, Word.STUCK)
        if model.mentions(cond, Word.STUCK) and not stuck_known:
            out.line(1, "stuck = not has_move(b)" if changed else "stuck = not moves and not has_move(b)")
            stuck_known = True
        if end is None:
            out.line(1, "if stuck:")
            out.line(2, f"b[{L.OUT}] = 1 - b[{L.P}]")
            out.line(2, "return tuple(b)")
            continue
        goes_on = end.outcome is Outcome.GOES_ON
        out.line(1, f"if {'not settle and ' if goes_on else ''}{c.expr(cond, cx)}:")
        if goes_on:
            # The game goes on, changed; the rules below see the changed position.
            changed = True
            for eff in end.effects:
                effects.emit_python(c, eff, cx, 2)
            if stuck_known:
                out.line(2, "stuck = not has_move(b)")
            continue
        if end.outcome is Outcome.DRAW:
            out.line(2, f"b[{L.OUT}] = {L.players}")
        elif end.outcome is Outcome.WINS:
            out.line(2, f"b[{L.OUT}] = {c.expr(end.player, cx)}")
        else:
            out.line(2, f"b[{L.OUT}] = 1 - {c.expr(end.player, cx)}")
        out.line(2, "return tuple(b)")
    out.line(1, f"b[{L.OUT}] = -1")
    out.line(1, "return tuple(b)")
    out.line(0, "")


def emit_pass(c: ExprCompiler, p: int) -> None:
    """`pass_P`: the `pass` ply of player `p`: nothing moves; the effects after each ply apply."""
    c.out.line(0, f"def pass_{p}(s, a):")
    c.out.line(1, "here = frm = 0")
    pyapply.emit_captured(c, None, p, None)
    c.out.line(1, "b = list(s)")
    pyapply.emit_effects(c, None, p)
    c.out.line(1, f"return finish_{p}(b, s[{c.L.PH}])")
    c.out.line(0, "")


def emit_finish(c: ExprCompiler, p: int, skips: bool) -> None:
    """`finish_P`: after a ply by `p`, the next phase (or the other player's turn), then the end rules."""
    out, L = c.out, c.L
    out.line(0, f"def finish_{p}(b, ph):")
    out.line(1, "nph = NEXT[ph]")
    out.line(1, "if nph < 0:")
    out.line(2, f"b[{L.P}] = {1 - p}")
    out.line(2, f"b[{L.PH}] = TURN_START")
    out.line(1, "else:")
    out.line(2, f"b[{L.P}] = {p}")
    out.line(2, f"b[{L.PH}] = nph")
    out.line(1, f"return ends_{p}(b, _skip(b))" if skips else f"return ends_{p}(b)")
    out.line(0, "")
