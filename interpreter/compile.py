"""A checked ruleset -> a `Game`: tables built, code generated and compiled once."""

from __future__ import annotations

from dataclasses import dataclass

from rulecraft.dsl import model as m
from rulecraft.dsl.check import Ruleset
from rulecraft.dsl.diagnostics import Diagnostic, RulesetError

from . import codegen
from .tables import Tables


@dataclass(frozen=True)
class RuleInfo:
    """What the runtime needs to know of one compiled rule (for notation and tests)."""

    code: int
    name: str  # the ply rule's name, or "pass"
    player: int | None
    multi: bool  # moves a piece covering several cells (actions name a placement)
    place: bool = False  # puts a new piece on the board
    push: bool = False  # moves a line of pieces (the action names its far end and `here`)
    removes: bool = False  # its actions carry the mask of the pieces they remove (a[4])
    chained: bool = False  # its actions are chains of segments (notation: the route)
    many: bool = False  # can place more than one piece type (notation names the symbol)
    kinds: int = 1  # how many piece types it moves or places


@dataclass
class Compiled:
    layout: codegen.Layout
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


def _adjacent(cells: int, adj: list[int]) -> int:
    out = 0
    while cells:
        low = cells & -cells
        out |= adj[low.bit_length() - 1]
        cells ^= low
    return out


def _union(s, types) -> int:
    """The cells holding a piece of any of `types`."""
    out = 0
    for i in types:
        out |= s[i]
    return out


def _within(cells: int, region: int) -> bool:
    return cells != 0 and not cells & ~region


def _relate(cells: int, s, pairs) -> int:
    """The cells of the pieces that the pieces on `cells` relate to (relation NAME: a > b)."""
    out = 0
    for src, dst in pairs:
        if any(s[i] & cells for i in src):
            for i in dst:
                out |= s[i]
    return out


def _captured(s, taken: int, opponent_types) -> int:
    """How many of the opponent's pieces stand on `taken` (a piece covering several cells once)."""
    n = 0
    for i, size in opponent_types:
        on = s[i] & taken
        if on:
            n += 1 if size > 1 else on.bit_count()
    return n


def _points(cells: int, lattice) -> list[tuple[int, int]]:
    """The lattice coordinates of the cells in a mask."""
    out = []
    while cells:
        low = cells & -cells
        cells ^= low
        out.append(lattice[low.bit_length() - 1])
    return out


def _closer(a: int, b: int, points, lattice, metric) -> bool:
    """Some point is strictly nearer to cell `a` than to cell `b` (exact, on the lattice)."""
    mx, my = metric
    ax, ay = lattice[a.bit_length() - 1]
    bx, by = lattice[b.bit_length() - 1]
    # |e-a|^2 < |e-b|^2  <=>  2 e.(a-b) > |a|^2 - |b|^2, in the board's metric
    dx, dy = 2 * mx * (ax - bx), 2 * my * (ay - by)
    rhs = mx * (ax * ax - bx * bx) + my * (ay * ay - by * by)
    for ex, ey in points:
        if ex * dx + ey * dy > rhs:
            return True
    return False


def _maxdot(points, dx: int, dy: int) -> int:
    """The largest projection of the points on (dx, dy); very low for no points."""
    return max((ex * dx + ey * dy for ex, ey in points), default=-(1 << 62))


def _line(cells: int, n: int, lines: list[int]) -> bool:
    """At least `n` (1 or more) of `cells` on one of `lines` (maximal straight lines), gaps allowed."""
    if n < 1:
        return False
    for line in lines:
        if (cells & line).bit_count() >= n:
            return True
    return False


def _aligned(cells: int, through: list[list[int]]) -> bool:
    """Every cell of `cells` (one or more) on one straight line: through[c], the lines through c."""
    if not cells:
        return False
    for line in through[(cells & -cells).bit_length() - 1]:
        if not cells & ~line:
            return True
    return False


def _run(cells: int, n: int, windows) -> bool:
    """`n` (1 or more) of `cells` next to each other in a straight line: windows[n] holds the runs."""
    if not 1 <= n <= windows.longest:
        return False
    for w in windows[n]:
        if cells & w == w:
            return True
    return False


def compile_ruleset(rs: Ruleset) -> Compiled:
    """The game's code generated and compiled; RulesetError if it would be too large."""
    try:
        return _compile(rs)
    except codegen.TooLarge:
        span = rs.plies[0].span if rs.plies else None
        raise RulesetError([Diagnostic(
            span, f"this ruleset compiles to more than {codegen.MAX_SOURCE_LINES:,} lines of code "
                  f"({len(rs.plies)} ply rules, {len(rs.players)} players, {len(rs.types)} piece "
                  f"types), the limit that keeps compiling to a few seconds",
            "fewer ply rules: one rule can move several kinds (`move own piece ...`)",
            file=rs.path)], {}) from None


def _compile(rs: Ruleset) -> Compiled:
    tables = Tables(rs.board)
    layout = codegen.make_layout(rs)
    em = codegen.Emitter(rs, tables, layout)
    n_players = len(rs.players)

    phases = (rs.first_turn or []) + rs.turn
    turn_start = len(rs.first_turn or [])
    next_phase = []
    for i in range(len(phases)):
        last_of_first = rs.first_turn and i == turn_start - 1
        last_of_turn = i == len(phases) - 1
        next_phase.append(-1 if (last_of_first or last_of_turn) else i + 1)

    rules: list[RuleInfo] = []
    by_name: dict[tuple[str, int], int] = {}
    for ply in rs.plies:
        for p in range(n_players):
            code = len(rules)
            result = codegen.emit_rule(em, ply, p, code, f"finish_{p}")
            if result is None:
                continue
            types = codegen.movable_types(rs, ply, p)
            multi = any(rs.types[t].size > 1 for t in types)
            place = ply.motion.kind == "place"
            rules.append(RuleInfo(code, ply.name, p, multi, place=place,
                                  many=place and len(types) > 1, push=ply.motion.kind == "push",
                                  removes=any(e.kind == "remove" for e in ply.effects),
                                  chained=ply.motion.chained, kinds=len(types)))
            by_name[(ply.name, p)] = code
    pass_code = len(rules)
    rules.append(RuleInfo(pass_code, "pass", None, False))

    skips = any(ph.when_possible for ph in phases)
    for p in range(n_players):
        codegen.emit_ends(em, p, f"ends_{p}")
        codegen.emit_finish(em, p, f"finish_{p}", f"ends_{p}", skips)
    for p in range(n_players):
        codegen.emit_pass(em, p)
    em.emit(0, "def apply_pass(s, a):")
    em.emit(1, f"return PASS[s[{layout.P}]](s, a)")

    ns = em.ns
    setup = [sum(1 << c for c in rs.setup.get(t, [])) for t in range(len(rs.types))]
    initial = {slot: rs.kinds[rs.types[t].kind].reserve for t, slot in layout.reserve_offsets.items()}
    levels = [t.level for t in rs.types]
    clear = [tuple(i for i, lv in enumerate(levels) if lv >= levels[t]) for t in range(len(levels))]
    above = [tuple(i for i, lv in enumerate(levels) if lv > levels[t]) for t in range(len(levels))]
    ns.update(BIT=tables.bit, FULL=tables.full, NEXT=next_phase, TURN_START=turn_start,
              SETUP=setup, INITIAL=initial, CLEAR=clear, ABOVE=above,
              _adjacent=_adjacent, _union=_union, _line=_line, _aligned=_aligned, _run=_run,
              SUPPORT=[-1 if t.carrier is None else t.carrier for t in rs.types],
              OPP=[tuple((i, t.size) for i, t in enumerate(rs.types) if t.owner == 1 - p)
                   for p in range(n_players)], _captured=_captured,
              _within=_within, _relate=_relate, _closer=_closer, _points=_points, _maxdot=_maxdot,
              LATTICE=rs.board.lattice, METRIC=rs.board.metric)
    source = em.source()
    code_obj = compile(source, f"<rulecraft {rs.path}>", "exec")
    exec(code_obj, ns)  # noqa: S102 - source built above from indices and integers only

    gens = [[[ns[f"moves_{by_name[(name, p)]}"] for name in ph.plies if (name, p) in by_name]
             for ph in phases] for p in range(n_players)]
    exists = [[[ns[f"has_{by_name[(name, p)]}"] for name in ph.plies if (name, p) in by_name]
               for ph in phases] for p in range(n_players)]
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

    ns.update(has_move=has_move, _skip=skip, PASS=[ns[f"pass_{p}"] for p in range(n_players)])
    apply = [ns[f"apply_{r.code}"] for r in rules[:-1]] + [ns["apply_pass"]]
    ends = [ns[f"ends_{p}"] for p in range(n_players)]
    chains = {r.code: ns[f"chains_{r.code}"] for r in rules if r.chained}
    taken = [ns[f"taken_{r.code}"] for r in rules[:-1]]
    opp = ns["OPP"]

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

    return Compiled(layout, tables, rules, apply, gens, pass_ok, turn_start, ends, source, chains,
                    has_move, _when_stuck(rs, layout), captures, count_captures)


def _when_stuck(rs: Ruleset, layout: codegen.Layout):
    """The outcome of a stuck player to move, when the end rules leave it to be settled lazily."""
    tail = codegen.lazy_tail(rs)
    if tail is None:
        return None
    P, n = layout.P, len(rs.players)
    if tail == len(rs.ends):  # the default rule: the stuck player loses
        return lambda s: (s[P] + 1) % n
    end = rs.ends[tail]
    if end.result == "draw":
        return lambda s: n
    who = end.player
    fixed = who.ref[1] if isinstance(who, m.Name) else None
    if end.result == "wins":
        return (lambda s: fixed) if fixed is not None else (lambda s: s[P])
    return (lambda s: 1 - fixed) if fixed is not None else (lambda s: 1 - s[P])
