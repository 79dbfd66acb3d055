"""A checked ruleset -> its Python rules: tables built, code generated and compiled once."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from dsl.diagnostics import Diagnostic, RulesetError
from dsl import model
from dsl.model import Ruleset, TurnPhase

from interpreter.codegen import turns
from interpreter.codegen.rules import emit_rules
from interpreter.python import pyends, pysource
from interpreter.runtime.actions import Shape
from interpreter.runtime.layout import Layout, make_layout
from interpreter.runtime.protocol import Action, RuleInfo, State
from interpreter.python.pyruntime import Runtime, _captures
from interpreter.python.pysource import PySource, TooLarge
from interpreter.python.pywriter import PyWriter
from interpreter.runtime.tables import Tables


class PythonRules:
    """The Python back-end's rules of one game (the runtime protocol's `Rules`): the
    generated module's functions, compiled once."""

    name = "python"

    def __init__(self, layout: Layout, tables: Tables, rule_infos: list[RuleInfo], ns: dict,
                 n_players: int, turn_start: int, n_phases: int, source: str, lazy_outcome: bool):
        self.layout, self.tables, self.rule_infos = layout, tables, rule_infos
        self.source = source  # the generated module, kept for reading and debugging
        self.namespace = ns  # its globals: the tables and functions it defined
        self.turn_start = turn_start  # phases before it make up the first turn
        self.phases = n_phases
        self.chains = {r.code: ns[f"chains_{r.code}"] for r in rule_infos  # a chained rule's
                       if r.format.shape is Shape.CHAIN}  # route search (for notation)
        self.has_move = ns["has_move"]  # state -> whether the player to move has a legal ply
        self._legal = ns["legal"]
        # legal's own table of its per-(player, phase) functions: one call less a position
        self._legal_by_phase = ns["LEGAL_BY_PHASE"]
        self._apply = [ns[f"apply_{r.code}"] for r in rule_infos[:-1]] + [ns["apply_pass"]]
        self._ends = [ns[f"ends_{p}"] for p in range(n_players)]
        self._outcome = ns["outcome"] if lazy_outcome else None  # a stuck player to move settled when asked
        self._taken = ns["TAKEN"]
        opp = ns["OPP"]
        self._rule_opp = [None if r.player is None else opp[r.player] for r in rule_infos]
        self._P, self._PH, self._OUT = layout.P, layout.PH, layout.OUT

    def legal(self, state: State) -> list[Action]:
        return self._legal_by_phase[state[self._P]][state[self._PH]](state)

    def iter_legal(self, state: State) -> Iterator[Action]:
        yield from self._legal(state)

    def apply(self, state: State, action: Action) -> State:
        return self._apply[action[0]](state, action)

    def result(self, state: State) -> int:
        out = state[self._OUT]
        if out < 0 and self._outcome is not None:
            return self._outcome(state)  # a stuck player to move is settled now
        return out

    def captures(self, state: State, action: Action) -> int:
        """The opponent's pieces action `a` takes off the board (0 for a pass)."""
        return _captures(state, action, self._taken, self._rule_opp)

    def settle(self, s: list[int], effects: bool = True) -> State:
        """Evaluate the end rules on a position reached other than by a ply (without
        `effects`, only those that decide an outcome: a position read from its text was
        written after the others ran)."""
        # The mover is whoever would have made the last ply: the same player within a
        # turn, the previous player at a turn's start.
        at_start = s[self.layout.PH] in (0, self.turn_start)
        mover = (s[self.layout.P] - 1) % len(self._ends) if at_start else s[self.layout.P]
        return self._ends[mover](list(s), settle=not effects)


def compile_ruleset(rs: Ruleset) -> PythonRules:
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


def _emit(rs: Ruleset, c: PyWriter, phases: list[TurnPhase]) -> list[RuleInfo]:
    """Every rule for every player, the end rules, turn order and passes; the rules' info."""
    rules, _ = emit_rules(c)
    skips = any(ph.when_possible for ph in phases)
    for p in range(len(rs.players)):
        pyends.emit_ends(c, p)
        pyends.emit_finish(c, p, skips)
    c.out.line(0, "def apply_pass(s, a):")
    c.out.line(1, f"return PASS[s[{c.L.P}]](s, a)")
    c.out.line(0, "")
    # what each rule's action takes, by rule code (a pass: nothing)
    taken = [f"taken_{r.code}" for r in rules[:-1]] + ["_takes_nothing"]  # (maybe no rule but it)
    c.out.line(0, f"TAKEN = [{', '.join(taken)}]")
    c.out.line(0, "")
    codes = {(r.name, r.player): r.code for r in rules}
    pyends.emit_turns(c, phases, codes, len(rs.players), rules[-1].code)
    return rules


def _runtime(rs: Ruleset, tables: Tables, layout: Layout, phases: list[TurnPhase], next_phase: list[int],
             turn_start: int) -> Runtime:
    levels = [t.level for t in rs.types]
    return Runtime(
        BIT=tables.bit, FULL=tables.full, NEXT=next_phase, TURN_START=turn_start,
        WHEN_POSSIBLE=[ph.when_possible for ph in phases],
        SETUP=[sum(1 << c for c in rs.setup.get(t, [])) for t in range(len(rs.types))],
        INITIAL={slot: rs.types[t].reserve for t, slot in layout.reserve_offsets.items()},
        CLEAR=[tuple(i for i, lv in enumerate(levels) if lv >= levels[t]) for t in range(len(levels))],
        ABOVE=[tuple(i for i, lv in enumerate(levels) if lv > levels[t]) for t in range(len(levels))],
        SUPPORT=[-1 if t.carrier is None else t.carrier for t in rs.types],
        OPP=[tuple((i, rs.types[i].size) for i in rs.selected(None, model.Owner.OPPONENT, p))
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
    runtime = _runtime(rs, tables, layout, phases, next_phase, turn_start)
    c = PyWriter(rs, tables, layout, PySource())
    # No text of the ruleset goes in, not even its title: only names made here.
    c.out.lines = [f"# generated by rulecraft; R is a {Runtime.__module__}.Runtime"]
    c.out.lines += runtime.prelude() + [""]
    rules = _emit(rs, c, phases)
    return Generated(c.out.source(), dict(c.out.ns, R=runtime), rules, tables, layout)


def _compile(rs: Ruleset) -> PythonRules:
    g = generate(rs)
    ns = g.globals
    # The source is built from checked names' indices and integers only (see pysource).
    exec(compile(g.source, f"<rulecraft {rs.path}>", "exec"), ns)  # noqa: S102
    phases, turn_start, _ = _phases(rs)
    ns.update(PASS=[ns[f"pass_{p}"] for p in range(len(rs.players))])
    return PythonRules(g.layout, g.tables, g.rules, ns, len(rs.players), turn_start, len(phases), g.source,
                       turns.stuck_outcome(rs) is not None)
