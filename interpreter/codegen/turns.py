"""The turn logic of a game, planned once for both back-ends: the end rules after a ply
(`ends_P`), the next phase or turn then the end rules (`finish_P`), and the outcome of a
stuck player to move when the end rules leave it to be settled when asked (`lazy_tail`,
`stuck_outcome`)."""

from __future__ import annotations

from dsl import model
from dsl.model import Outcome, Word

from interpreter.codegen.stmt import (And, BinOp, Call, Effects, Expr, Field, Function, If, Index, Kind,
                                      Let, ModelExpr, Not, Num, Param, Return, Set, Slot, Stmt, Var)


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


def ends_function(rs: model.Ruleset, p: int) -> Function:
    """`ends_P(b, moves, settle)`: the end rules, in order, for a ply just made by player
    `p`; then the default rule (a player with no legal ply loses). `moves`: a legal ply
    is known to exist already; `settle`: a position read from its text, whose effects
    (rules `then ... if ...`) already ran when it was reached."""
    b = "b"
    out = Field(b, Slot.OUT)

    def expr(e: model.Expr) -> ModelExpr:
        return ModelExpr(e, b, p, stuck="stuck", next_is_mover=False)

    body: list[Stmt] = []
    stuck_known = changed = False
    tail = lazy_tail(rs)
    rules: list[model.End | None] = list(rs.ends) + [None] if tail is None else list(rs.ends[:tail])
    has_move = Not(Call("has_move", (Var(b),)))
    for end in rules:
        cond = end.cond if end is not None else model.Ref(None, Word.STUCK)
        if model.mentions(cond, Word.STUCK) and not stuck_known:
            body.append(Let("stuck", Kind.FLAG, has_move if changed else And(Not(Var("moves")), has_move)))
            stuck_known = True
        if end is None:
            body.append(If(Var("stuck"), (Set(out, BinOp("-", Num(1), Field(b, Slot.P))), Return())))
            continue
        if end.outcome is Outcome.GOES_ON:
            # The game goes on, changed; the rules below see the changed position.
            changed = True
            then: list[Stmt] = [Effects(tuple(end.effects), expr(cond))]
            if stuck_known:
                then.append(Set(Var("stuck"), has_move))
            body.append(If(And(Not(Var("settle")), expr(cond)), tuple(then)))
            continue
        result: Expr
        if end.outcome is Outcome.DRAW:
            result = Num(len(rs.players))
        elif end.outcome is Outcome.WINS:
            result = expr(end.player)
        else:
            result = BinOp("-", Num(1), expr(end.player))
        body.append(If(expr(cond), (Set(out, result), Return())))
    body += [Set(out, Num(-1)), Return()]
    return Function(f"ends_{p}", ENDS_PARAMS, tuple(body))


ENDS_PARAMS = (Param("b", Kind.STATE), Param("moves", Kind.FLAG, 0), Param("settle", Kind.FLAG, 0))


def finish_function(p: int, n_players: int, skips: bool) -> Function:
    """`finish_P(b, ph)`: after a ply by `p` in phase `ph`, the next phase (or the next
    player's turn), then the end rules (`when possible` phases with nothing to do
    skipped first, when the game has any)."""
    b = "b"
    nph = Var("nph")
    ends = (Var(b), Call("skip", (Var(b),))) if skips else (Var(b),)
    return Function(f"finish_{p}", (Param(b, Kind.STATE), Param("ph", Kind.INT)), (
        Let("nph", Kind.INT, Index("NEXT", Var("ph"))),
        If(BinOp("<", nph, Num(0)),
           (Set(Field(b, Slot.P), Num((p + 1) % n_players)), Set(Field(b, Slot.PH), Var("TURN_START"))),
           (Set(Field(b, Slot.P), Num(p)), Set(Field(b, Slot.PH), nph))),
        Return(Call(f"ends_{p}", ends, ENDS_PARAMS))))


def stuck_outcome(rs: model.Ruleset) -> tuple[str, int | None] | None:
    """The outcome of a stuck player to move where the end rules leave it lazy (see
    lazy_tail): ("next", None) the next player wins, ("draw", None), ("player", i)
    player i wins, ("mover", None) the stuck player wins, ("other", None) the other
    player wins; None where the end rules are not lazy."""
    tail = lazy_tail(rs)
    if tail is None:
        return None
    if tail == len(rs.ends):  # the default rule: the stuck player loses
        return ("next", None)
    end = rs.ends[tail]
    if end.outcome is Outcome.DRAW:
        return ("draw", None)
    who = end.player
    fixed = who.index if isinstance(who, model.Player) else None
    if end.outcome is Outcome.WINS:
        return ("player", fixed) if fixed is not None else ("mover", None)
    return ("player", 1 - fixed) if fixed is not None else ("other", None)
