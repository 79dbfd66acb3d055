"""The turn logic of a game, planned once for both back-ends: the end rules after a ply
(`ends_P`), the next phase or turn then the end rules (`finish_P`), whether the player
to move has a ply (`has_move`), its legal plies (`legal`), the skip of `when possible` phases with nothing to do
(`skip`), and the outcome, a stuck player to move settled when the end rules leave it
to be settled when asked (`outcome`, `lazy_tail`, `stuck_outcome`)."""

from __future__ import annotations

from dsl import model
from dsl.model import Outcome, Word

from interpreter.runtime.protocol import loses_code

from interpreter.codegen.stmt import (AddPass, And, BinOp, Call, Case, Collect, Context, Effects, Expr,
                                      Field, Function, If, Index, Kind, Let, Loop, ModelExpr, MustCapture,
                                      NoPlies, Not, Num, Or, Param, PhaseSwitch, Plies, Return, Set, Slot,
                                      Stmt, Var)


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

    # after a ply by p: `next` is the state's player to move, `stuck` a local
    cx = Context(b, p, stuck="stuck", next_is_mover=False)

    def expr(e: model.Expr) -> ModelExpr:
        return ModelExpr(e, cx)

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
            body.append(If(Var("stuck"), (Set(out, loses(Field(b, Slot.P), len(rs.players))), Return())))
            continue
        if end.outcome is Outcome.GOES_ON:
            # The game goes on, changed; the rules below see the changed position.
            changed = True
            then: list[Stmt] = [Effects(tuple(end.effects), cx)]
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
            result = loses(expr(end.player), len(rs.players))
        body.append(If(expr(cond), (Set(out, result), Return())))
    body += [Set(out, Num(-1)), Return()]
    return Function(f"ends_{p}", ENDS_PARAMS, tuple(body))


def loses(player: Expr, n_players: int) -> Expr:
    """The result code of `player loses` (protocol.loses_code)."""
    if n_players == 2:
        return BinOp("-", Num(1), player)
    return BinOp("+", Num(n_players + 1), player)


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
    lazy_tail): ("draw", None), ("player", i) player i wins, ("mover", None) the stuck
    player wins, ("code", c) result code c, ("other", None) the stuck player loses;
    None where the end rules are not lazy."""
    tail = lazy_tail(rs)
    if tail is None:
        return None
    if tail == len(rs.ends):  # the default rule: the stuck player loses
        return ("other", None)
    end = rs.ends[tail]
    if end.outcome is Outcome.DRAW:
        return ("draw", None)
    who = end.player
    fixed = who.index if isinstance(who, model.Player) else None
    if end.outcome is Outcome.WINS:
        return ("player", fixed) if fixed is not None else ("mover", None)
    return ("code", loses_code(fixed, len(rs.players))) if fixed is not None else ("other", None)


def has_move_function(phases: list[model.TurnPhase], codes: dict[tuple[str, int], int],
                      n_players: int) -> Function:
    """`has_move(s)`: whether the player to move has a legal ply (a phase that allows
    passing always has one), asking each rule of the phase in turn."""
    cases = []
    for p in range(n_players):
        for k, ph in enumerate(phases):
            body: list[Stmt] = []
            if not ph.allows_pass:
                body += [If(Call(f"has_{codes[(name, p)]}", (Var("s"),)), (Return(Num(1)),))
                         for name in ph.plies if (name, p) in codes]
            body.append(Return(Num(1 if ph.allows_pass else 0)))
            cases.append(Case(p, k, tuple(body)))
    return Function("has_move", (Param("s", Kind.IN_STATE),),
                    (PhaseSwitch("s", len(phases), tuple(cases)),), state="s")


def legal_function(rs: model.Ruleset, phases: list[model.TurnPhase], codes: dict[tuple[str, int], int],
                   pass_code: int) -> Function:
    """`legal(s)`: every legal ply of the player to move, in order: each rule of the phase
    in turn, then the pass where the phase allows it; compulsory capture applied."""
    cases = []
    for p in range(len(rs.players)):
        for k, ph in enumerate(phases):
            body: list[Stmt] = [If(BinOp(">=", Field("s", Slot.OUT), Num(0)), (Return(NoPlies()),))]
            gens = [codes[(name, p)] for name in ph.plies if (name, p) in codes]
            body += [Collect(f"moves_{code}", i == 0) for i, code in enumerate(gens)]
            if ph.allows_pass:
                body.append(AddPass(pass_code, not gens))
            if not gens and not ph.allows_pass:
                body.append(Return(NoPlies()))
            else:
                if rs.compulsory is not None:
                    body.append(MustCapture("s", p, rs.compulsory.value == "maximum"))
                body.append(Return(Plies()))
            cases.append(Case(p, k, tuple(body)))
    return Function("legal", (Param("s", Kind.IN_STATE), Param("out", Kind.PLIES)),
                    (PhaseSwitch("s", len(phases), tuple(cases)),), state="s")


def skip_function(n_phases: int, n_players: int) -> Function:
    """`skip(b)`: a `when possible` phase with nothing to do passes to the next phase (or
    turn), as often as needed; whether a legal ply is then known to exist (so the end
    rules need not look)."""
    b, ph, nxt = "b", Var("ph"), Var("nxt")
    P, PH = Field(b, Slot.P), Field(b, Slot.PH)
    return Function("skip", (Param(b, Kind.STATE),), (
        Loop(2 * n_phases + 2, (
            Let("ph", Kind.INT, PH),
            If(Not(Index("WHEN_POSSIBLE", ph)), (Return(Num(0)),)),
            If(Call("has_move", (Var(b),)), (Return(Num(1)),)),
            Let("nxt", Kind.INT, Index("NEXT", ph)),
            If(BinOp("<", nxt, Num(0)),
               (Set(P, BinOp("%", BinOp("+", P, Num(1)), Num(n_players))), Set(PH, Var("TURN_START"))),
               (Set(PH, nxt),)))),
        Return(Num(0))))


def outcome_function(rs: model.Ruleset) -> Function:
    """`outcome(s)`: the state's outcome slot, a stuck player to move settled when the
    end rules leave it lazy (stuck_outcome)."""
    s = "s"
    out, P = Field(s, Slot.OUT), Field(s, Slot.P)
    how = stuck_outcome(rs)
    if how is None:
        return Function("outcome", (Param(s, Kind.IN_STATE),), (Return(out),), state=s)
    kind, who = how
    n = len(rs.players)
    value: Expr = {"draw": Num(n), "player": Num(who if who is not None else 0),
                   "code": Num(who if who is not None else 0), "mover": P, "other": loses(P, n)}[kind]
    return Function("outcome", (Param(s, Kind.IN_STATE),), (
        Let("o", Kind.INT, out),
        If(Or(BinOp(">=", Var("o"), Num(0)), Call("has_move", (Var(s),))), (Return(Var("o")),)),
        Return(value)), state=s)
