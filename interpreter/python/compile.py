"""A checked ruleset -> a `Game`: tables built, code generated and compiled once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from dsl import model
from dsl.diagnostics import Diagnostic, RulesetError
from dsl.model import Outcome, Ruleset, TurnPhase

from interpreter.python import pyends, pysource
from interpreter.runtime.actions import ActionFormat, Shape, action_format
from interpreter.runtime.layout import Layout, make_layout
from interpreter.python.pyexpr import ExprCompiler
from interpreter.python.pyrules import emit_rule
from interpreter.python.pyruntime import Runtime, _captured
from interpreter.python.pysource import PySource, TooLarge
from interpreter.runtime.tables import Tables


@dataclass(frozen=True)
class RuleInfo:
    """What the runtime needs to know of one compiled rule (for notation and tests)."""

    code: int
    name: str  # the ply rule's name, or "pass"
    player: int | None
    format: ActionFormat  # the layout of its action tuples
    kinds: int = 1  # how many piece types it moves or places


@dataclass
class Compiled:
    layout: Layout
    tables: Tables
    rules: list[RuleInfo]
    apply: list  # code -> apply function
    gens: list[list[list]]  # [player][phase] -> generator functions
    pass_ok: list[bool]  # per phase
    turn_start: int
    ends: list  # per mover: the end-rule function
    source: str  # the generated module, kept for reading and debugging
    chains: dict  # code -> the route search of a chained rule (for notation)
    has_move: object  # state -> whether the player to move has a legal ply
    when_stuck: object  # state -> the outcome if the player to move is stuck (lazy end rules)
    captures: object  # (state, action) -> the opponent's pieces it takes (one definition)
    count_captures: object  # (state, actions of the player to move) -> captures of each


def compile_ruleset(rs: Ruleset) -> Compiled:
    """The game's code generated and compiled; RulesetError if it would be too large."""
    try:
        return _compile(rs)
    except TooLarge:
        span = rs.plies[0].span if rs.plies else None
        raise RulesetError([Diagnostic(
            span, f"this ruleset compiles to more than {pysource.MAX_SOURCE_LINES:,} lines of code "
                  f"({len(rs.plies)} ply rules, {len(rs.players)} players, {len(rs.types)} piece "
                  f"types), the limit that keeps compiling to a few seconds",
            "fewer ply rules: one rule can move several kinds (`move own piece ...`)",
            file=rs.path)], {}) from None


def _phases(rs: Ruleset) -> tuple[list[TurnPhase], int, list[int]]:
    """The phases of the first turn then of every turn, where a turn starts, and each
    phase's next (-1: the turn ends)."""
    phases = (rs.first_turn or []) + rs.turn
    turn_start = len(rs.first_turn or [])
    next_phase = []
    for i in range(len(phases)):
        last_of_first = rs.first_turn and i == turn_start - 1
        next_phase.append(-1 if (last_of_first or i == len(phases) - 1) else i + 1)
    return phases, turn_start, next_phase


def _emit(rs: Ruleset, c: ExprCompiler, skips: bool) -> list[RuleInfo]:
    """Every rule for every player, the end rules, turn order and passes; the rules' info."""
    rules: list[RuleInfo] = []
    for ply in rs.plies:
        for p in range(len(rs.players)):
            types = rs.selected(ply.kind, ply.owner, p)
            if not types:
                continue
            code = len(rules)
            construct = emit_rule(c, ply, p, code, types)
            fmt = action_format(construct.action, any(rs.types[t].size > 1 for t in types),
                                bool(ply.removals()), len(types) > 1)
            rules.append(RuleInfo(code, ply.name, p, fmt, kinds=len(types)))
    rules.append(RuleInfo(len(rules), "pass", None, action_format("pass")))
    for p in range(len(rs.players)):
        pyends.emit_ends(c, p)
        pyends.emit_finish(c, p, skips)
    for p in range(len(rs.players)):
        pyends.emit_pass(c, p)
    c.out.line(0, "def apply_pass(s, a):")
    c.out.line(1, f"return PASS[s[{c.L.P}]](s, a)")
    return rules


def _runtime(rs: Ruleset, tables: Tables, layout: Layout, next_phase: list[int],
             turn_start: int) -> Runtime:
    levels = [t.level for t in rs.types]
    return Runtime(
        BIT=tables.bit, FULL=tables.full, NEXT=next_phase, TURN_START=turn_start,
        SETUP=[sum(1 << c for c in rs.setup.get(t, [])) for t in range(len(rs.types))],
        INITIAL={slot: rs.types[t].reserve for t, slot in layout.reserve_offsets.items()},
        CLEAR=[tuple(i for i, lv in enumerate(levels) if lv >= levels[t]) for t in range(len(levels))],
        ABOVE=[tuple(i for i, lv in enumerate(levels) if lv > levels[t]) for t in range(len(levels))],
        SUPPORT=[-1 if t.carrier is None else t.carrier for t in rs.types],
        OPP=[tuple((i, t.size) for i, t in enumerate(rs.types) if t.owner == 1 - p)
             for p in range(len(rs.players))],
        LATTICE=rs.board.lattice, METRIC=rs.board.metric)


@dataclass
class Generated:
    """A game's Python module, not yet run."""

    source: str
    globals: dict[str, object]  # the tables and constants it reads, and R (a Runtime)
    rules: list[RuleInfo]
    tables: Tables
    layout: Layout


def generate(rs: Ruleset) -> Generated:
    """The game's Python module (what `rulecraft compile --emit-source` shows)."""
    tables = Tables(rs.board)
    layout = make_layout(rs)
    phases, turn_start, next_phase = _phases(rs)
    runtime = _runtime(rs, tables, layout, next_phase, turn_start)
    c = ExprCompiler(rs, tables, layout, PySource())
    # No text of the ruleset goes in, not even its title: only names made here.
    c.out.lines = [f"# generated by rulecraft; R is a {Runtime.__module__}.Runtime"]
    c.out.lines += runtime.prelude() + [""]
    rules = _emit(rs, c, any(ph.when_possible for ph in phases))
    return Generated(c.out.source(), dict(c.out.ns, R=runtime), rules, tables, layout)


def _compile(rs: Ruleset) -> Compiled:
    g = generate(rs)
    ns = g.globals
    # The source is built from checked names' indices and integers only (see pysource).
    exec(compile(g.source, f"<rulecraft {rs.path}>", "exec"), ns)  # noqa: S102
    phases, turn_start, next_phase = _phases(rs)
    n_players, rules = len(rs.players), g.rules
    codes = {(r.name, r.player): r.code for r in rules}
    gens = [[[ns[f"moves_{codes[(name, p)]}"] for name in ph.plies if (name, p) in codes]
             for ph in phases] for p in range(n_players)]
    exists = [[[ns[f"has_{codes[(name, p)]}"] for name in ph.plies if (name, p) in codes]
               for ph in phases] for p in range(n_players)]
    pass_ok = [ph.allows_pass for ph in phases]
    has_move, skip = _turn_functions(g.layout, phases, exists, next_phase, turn_start, n_players)
    ns.update(has_move=has_move, _skip=skip, PASS=[ns[f"pass_{p}"] for p in range(n_players)])
    apply = [ns[f"apply_{r.code}"] for r in rules[:-1]] + [ns["apply_pass"]]
    ends = [ns[f"ends_{p}"] for p in range(n_players)]
    chains = {r.code: ns[f"chains_{r.code}"] for r in rules if r.format.shape is Shape.CHAIN}
    captures, count_captures = _capture_functions(g.layout, rules, [ns[f"taken_{r.code}"] for r in rules[:-1]],
                                                  ns["OPP"])
    return Compiled(g.layout, g.tables, rules, apply, gens, pass_ok, turn_start, ends, g.source, chains,
                    has_move, _when_stuck(rs, g.layout), captures, count_captures)


def _turn_functions(layout: Layout, phases: list[TurnPhase], exists: list, next_phase: list[int],
                    turn_start: int, n_players: int) -> tuple[Callable, Callable]:
    """has_move(state) and skip(state list), which the end rules and turn order call."""
    pass_ok = [ph.allows_pass for ph in phases]
    when_possible = [ph.when_possible for ph in phases]
    P, PH = layout.P, layout.PH

    def has_move(b) -> bool:
        ph = b[PH]
        if pass_ok[ph]:
            return True
        for has in exists[b[P]][ph]:
            if has(b):
                return True
        return False

    def skip(b) -> bool:
        """A `when possible` phase with nothing to do passes to the next phase (or turn).

        Returns whether a legal ply is known to exist (so the end rules need not look)."""
        for _ in range(2 * len(phases) + 2):
            ph = b[PH]
            if not when_possible[ph]:
                return False
            if has_move(b):
                return True
            nxt = next_phase[ph]
            if nxt < 0:
                b[P] = (b[P] + 1) % n_players
                b[PH] = turn_start
            else:
                b[PH] = nxt
        return False

    return has_move, skip


def _capture_functions(layout: Layout, rules: list[RuleInfo], taken: list,
                       opp: list) -> tuple[Callable, Callable]:
    """captures(state, action) and count_captures(state, actions): the one definition of
    what a ply takes (taken_N), counted in the opponent's pieces."""
    P = layout.P

    def captures(s, a) -> int:
        """The opponent's pieces action `a` takes off the board (0 for a pass)."""
        rule = rules[a[0]]
        if rule.player is None:
            return 0
        return _captured(s, taken[a[0]](s, a), opp[rule.player])

    counters = taken + [lambda s, a: 0]  # a pass takes nothing
    narrow = all(size == 1 for side in opp for _, size in side)

    def count_captures(s, actions) -> list[int]:
        """captures(s, a) for each of the player to move's actions, the opponent's pieces
        gathered once (the compulsory-capture filter's hot path)."""
        if not narrow:
            return [captures(s, a) for a in actions]
        theirs = 0
        for i, _ in opp[s[P]]:
            theirs |= s[i]
        return [(counters[a[0]](s, a) & theirs).bit_count() for a in actions]

    return captures, count_captures


def _when_stuck(rs: Ruleset, layout: Layout):
    """The outcome of a stuck player to move, when the end rules leave it to be settled lazily."""
    tail = pyends.lazy_tail(rs)
    if tail is None:
        return None
    P, n = layout.P, len(rs.players)
    if tail == len(rs.ends):  # the default rule: the stuck player loses
        return lambda s: (s[P] + 1) % n
    end = rs.ends[tail]
    if end.outcome is Outcome.DRAW:
        return lambda s: n
    who = end.player
    fixed = who.index if isinstance(who, model.Player) else None
    if end.outcome is Outcome.WINS:
        return (lambda s: fixed) if fixed is not None else (lambda s: s[P])
    return (lambda s: 1 - fixed) if fixed is not None else (lambda s: 1 - s[P])
