"""Un-moves: which plies the native solver can take back, as C tables.

The un-move solve (solver.c, "UN-MOVES") finds a position's predecessors without stored
arcs. A ply can be taken back when it moves one piece of one cell from one cell to an
empty one and changes no other cell: a step, a straight slide or a walk, landing on empty
cells only, with no removals (effects on variables and the turn are allowed, and so is a
remembered previous ply: the predecessor's int slots and remembered cells are those of a
block that has the position's block as a child); or when it puts one piece down on an
empty cell (`place`) or takes one off (`take`), changing no other cell. Its candidates are
the position with such a piece moved back to a cell from which the motion could reach its
cell at all (`UNDO_REV`, the board's geometry alone), with a placed piece lifted or a taken
one put back on any empty cell (`UNDO_DELTA`: +1, -1), or for a pass the position itself;
solver.c keeps a candidate only when one of its legal plies leads to the position exactly
(for a piece moved back, the plies of that piece alone, landing on its cell: each
generator takes a mask of the pieces it moves and one of the cells they may land on), so
the conditions, limits and turn order are the rules' own. A slide's candidate whose line
is blocked is dropped first (`UNDO_PATH`), and an exact rule's candidates (`UNDO_EXACT`,
`exact_landing`: a plain step) from one parent block all lead to the position or none
does, so one is checked; so do those of a rule checked by its construct's `lands_N`
(`UNDO_LANDS`, `lands_checked`) that land, and only the first has its plies made. A
game gets the tables when every ply rule can be taken back, no piece covers several
cells or stands on another, and no effect (of a ply, after each
ply, or of an end rule) moves pieces, and a position may come round again (some ply moves
a piece or passes, or some type is both placed and taken; else the one-pass solve takes
it); otherwise `RC_UNDO` is 0 and cyclic games are solved with stored arcs.

A rule is quiet (`quiet`) when every ply of it from one position leads to
the same int slots and outcome: it moves a piece that no end rule reads (dsl.reads), with
no effect. Every arrangement's first pass then applies only its first ply, which its
`first_N` generator keeps while it counts the others (`UNDO_FIRST`). Two phases of a
player's turn are alike (`alike_phases`, `UNDO_ALIKE`) when they take the same rules and
no rule or end rule decided after a ply asks whose turn comes next or whether that player
is stuck: a board's plies and their outcomes are then the same in both, and every
arrangement's first pass counts one phase's positions for the other's.
"""

from __future__ import annotations

from dsl import model
from dsl.constructs import lands_on_empty, motion_construct
from dsl.domains import fixed_cells
from dsl.reads import types_read

from interpreter.codegen import turns
from interpreter.codegen.context import Sink
from interpreter.codegen.rules import RuleGen
from interpreter.runtime.tables import Tables
from interpreter.native.csource import CSource
from interpreter.native.cwriter import CWriter

_SLOT_EFFECTS = (model.Assign, model.TurnTo)  # effects that change int slots only


def reversible(ply: model.Ply) -> bool:
    """Whether a ply of this rule can be taken back (see the module docstring)."""
    construct = motion_construct(ply.motion)
    if construct.reverse_reach is None and not construct.count_change:
        return False  # its construct takes no ply back
    lands = construct.count_change < 0 or lands_on_empty(ply.onto)  # (a take lands nowhere)
    return lands and not ply.removals() and all(isinstance(e, _SLOT_EFFECTS) for e in ply.effects)


def game_reversible(rs: model.Ruleset) -> bool:
    """Whether every ply of the game can be taken back and nothing else moves pieces."""
    if any(t.size > 1 or t.cover > 1 or t.counted or t.level or t.carrier is not None
           for t in rs.types):
        return False
    effects = list(rs.after) + [e for end in rs.ends for e in end.effects]
    return (all(isinstance(e, _SLOT_EFFECTS) for e in effects)
            and all(reversible(ply) and not ply.players for ply in rs.plies))


def _may_repeat(moved: list[tuple[int, model.Ply, int, list[int]]],
                phases: list[model.TurnPhase]) -> bool:
    """Whether a position may come round again: some ply moves a piece or passes, or puts
    down pieces of a type that another takes off. Otherwise every ply changes a count one
    way only, the blocks never repeat, and the one-pass solve takes the game: no tables
    (and no children counted for the un-move solve while reaching)."""
    if any(ph.allows_pass for ph in phases) or any(_change(ply) == 0 for _, ply, _, _ in moved):
        return True
    placed = {t for _, ply, _, types in moved if _change(ply) > 0 for t in types}
    return any(t in placed for _, ply, _, types in moved if _change(ply) < 0 for t in types)


def _change(ply: model.Ply) -> int:
    """+1 for a ply that puts a piece down, -1 for one that takes a piece off, else 0."""
    return motion_construct(ply.motion).count_change


def exact_landing(rs: model.Ruleset, ply: model.Ply, player: int) -> int | None:
    """The cells a ply of `ply` lands on, when every candidate of its un-moves is a
    predecessor once one is (None otherwise): its construct's reverse reach is exact (a
    step), its `onto` is the empty cells among fixed ones (`empty - goals`), it has no
    condition and no effect, no capture is compulsory and no ply is remembered. Then a
    candidate's position after the ply is the child's cells with ints decided by the
    candidate's block and the child's cells alone, the same for all: end rules and effects
    after each ply read no cell of the ply (the checker keeps `here`, `from` and `path` to
    ply rules), and `captured` is 0 where nothing is removed."""
    if (not motion_construct(ply.motion).exact_reverse or ply.where is not None or ply.effects
            or rs.compulsory is not None or rs.remembers):
        return None
    return _empty_among(ply.onto, (1 << rs.board.size) - 1, player, len(rs.players))


def lands_checked(rs: model.Ruleset, ply: model.Ply) -> bool:
    """Whether the un-move solver checks a candidate of this rule with its construct's
    `lands_N` (its limit, target and condition for one piece and one landing) instead of
    making its plies: the construct has one, and the ply has no effect, no condition or
    target that reads its path, no compulsory capture and no remembered ply. Then, as for
    an exact rule, every candidate's ply from one parent block leads to one position, so
    one is made and applied per block, and one ply leads from each candidate that lands."""
    return (motion_construct(ply.motion).emit_lands is not None and not ply.effects
            and rs.compulsory is None and not rs.remembers
            and not any(model.mentions(e, model.Word.PATH) for e in (ply.where, ply.onto) if e is not None))


def _empty_among(e: model.Expr, full: int, player: int, players: int) -> int | None:
    """F when `e` names exactly the empty cells of F (F fixed: `empty`, `empty - goals`,
    `empty & home[mover]`), else None."""
    if isinstance(e, model.Ref) and e.word is model.Word.EMPTY:
        return full
    if not isinstance(e, model.Binary) or e.op not in ("-", "&"):
        return None
    pairs = [(e.left, e.right)] + ([(e.right, e.left)] if e.op == "&" else [])
    for a, b in pairs:
        among, fixed = _empty_among(a, full, player, players), fixed_cells(b, full, player, players)
        if among is not None and fixed is not None:
            return among & ~fixed if e.op == "-" else among & fixed
    return None


def quiet(rs: model.Ruleset, ply: model.Ply, types: list[int], phases: list[model.TurnPhase]) -> bool:
    """Whether every ply of this rule from one position leads to the same int slots and
    outcome, so that one child of it answers for all (every arrangement's first pass): it
    moves a piece of `types` onto an empty cell with no effect; nothing runs after each
    ply; no ply is remembered; no phase is skipped for having nothing to do; and the end
    rules decided after a ply (before those that only ask `no legal ply`) have no effect
    and read none of `types` (dsl.reads)."""
    if _change(ply) or ply.effects or rs.after or rs.remembers or any(ph.when_possible for ph in phases):
        return False
    # (where `no legal ply` is asked with more, every end rule is decided after a ply, and
    # that one reads every type)
    return not any(end.effects or set(types) & (types_read(rs, end.cond) | types_read(rs, end.player))
                   for end in rs.ends[:turns.lazy_tail(rs)])


def leads_reads(rs: model.Ruleset, moved: list[tuple[int, model.Ply, int, list[int]]],
                phases: list[model.TurnPhase]) -> int:
    """The piece types (a bit each) whose cells, with the int slots, decide whether the
    candidates of an exact or lands-checked entry lead to the position taken back: those
    the end rules decided after a ply read, where nothing else on the way reads a cell (no
    ply effect, nothing after each ply, no remembered ply, no phase skipped for having
    nothing to do, no compulsory capture, no end rule's effect); -1 where more may. The
    solver then checks one candidate per pair of blocks and entry, not per position."""
    if rs.compulsory is not None or rs.after or rs.remembers or any(ph.when_possible for ph in phases):
        return -1
    ends = rs.ends[:turns.lazy_tail(rs)]
    if any(ply.effects for _, ply, _, _ in moved) or any(end.effects for end in ends):
        return -1
    read = frozenset().union(*(types_read(rs, end.cond) | types_read(rs, end.player) for end in ends))
    return sum(1 << t for t in read)


def alike_phases(rs: model.Ruleset, phases: list[model.TurnPhase], reads: int) -> list[int]:
    """Per player and phase, the first earlier phase of that player whose positions have
    the same plies with the same outcomes as this phase's on the same board, or -1: the
    two take the same rules (and the pass alike), nothing on the way reads more than the
    end rules' cells (`reads`, leads_reads: not -1), and no rule or end rule decided after
    a ply asks whose turn comes next or whether that player is stuck (an end rule's
    `mover` is the player who made the ply, the same in both). Every arrangement's first
    pass then counts one phase's plies and gives its counts to the other."""
    tail = turns.lazy_tail(rs)
    if tail is None or reads < 0:
        return [-1] * (len(rs.players) * len(phases))
    nodes: list[object] = [e for end in rs.ends[:tail] for e in (end.cond, end.player)]
    nodes += [part for ply in rs.plies for v in ply.variants() for part in (v.motion, v.onto, v.where)]
    if any(model.mentions(node, model.Word.NEXT, model.Word.STUCK) for node in nodes):  # type: ignore[arg-type]
        return [-1] * (len(rs.players) * len(phases))
    rows = [(frozenset(ph.plies), ph.allows_pass) for ph in phases]
    first = [rows.index(row) for row in rows]
    return [j if j < k else -1 for _ in rs.players for k, j in enumerate(first)]


def reverse_reach(tables: Tables, rs: model.Ruleset, motion: model.Motion) -> list[int]:
    """Per cell, the cells from which `motion` could reach it on an empty board (its
    construct's `reverse_reach`)."""
    reach = motion_construct(motion).reverse_reach
    assert reach is not None, "reverse_reach of a motion whose plies are not taken back"
    return reach(tables, rs.board, motion)


def _path_table(out: CSource, tables: Tables, rs: model.Ruleset, ply: model.Ply) -> str:
    """The name of a table of the cells a ply from o to x passes (`[x * RC_CELLS + o]`:
    its construct's `reverse_path`), or NULL where it has none or the board is past 64
    cells (a table of cells squared)."""
    path = motion_construct(ply.motion).reverse_path
    if path is None or _change(ply) or rs.board.size > 64:
        return "NULL"
    rows = path(tables, rs.board, ply.motion)
    return out.mask_table(("undo path", tuple(map(tuple, rows))), [m for row in rows for m in row], "UP")


def _lands(w: CWriter, tables: Tables, rs: model.Ruleset, code: int, ply: model.Ply, p: int,
           types: list[int], path: str) -> tuple[str, str]:
    """A rule's `lands_N` function and its table of steps (`[x * RC_CELLS + o]`, NULL: one
    step), or NULL and NULL where its candidates' plies are made (lands_checked; a slide
    on a board past 64 cells, which has no path table)."""
    construct = motion_construct(ply.motion)
    if not lands_checked(rs, ply) or (construct.reverse_path is not None and path == "NULL"):
        return "NULL", "NULL"
    g = RuleGen(w, ply, p, code, types)
    with w.function("lands", code):
        construct.emit_lands(g)
    if construct.reverse_steps is None:
        return f"lands_{code}", "NULL"
    rows = construct.reverse_steps(tables, rs.board, ply.motion)
    flat = [k for row in rows for k in row]
    return f"lands_{code}", w.out.int_table(("undo steps", tuple(flat)), flat, "US")


def _takes(rs: model.Ruleset, phases: list[model.TurnPhase], codes: dict[tuple[str, int | None], int]) -> list[int]:
    """Per player, per phase, per rule code (the pass last): whether the phase takes it."""
    takes = []
    for p in range(len(rs.players)):
        for ph in phases:
            row = [0] * len(codes)
            for name in ph.plies:
                if (name, p) in codes:
                    row[codes[(name, p)]] = 1
            row[-1] = int(ph.allows_pass)
            takes += row
    return takes


def _first(w: CWriter, code: int, ply: model.Ply, p: int, types: list[int]) -> str:
    """A quiet rule's `first_N`: its generator counting its plies and keeping the first
    (every arrangement's first pass applies only that one)."""
    g = RuleGen(w, ply, p, code, types)
    with w.generator(code, Sink.FIRST):
        g.construct.emit_moves(g)
    return f"first_{code}"


def emit_undo(w: CWriter, rs: model.Ruleset, tables: Tables,
              moved: list[tuple[int, model.Ply, int, list[int]]], phases: list[model.TurnPhase],
              codes: dict[tuple[str, int | None], int]) -> None:
    """The tables of the un-move solve: per (rule, piece type) entry its rule code, player,
    type and the cells it comes back from (`moved`: each rule's code, ply, player, types);
    which rules each player's phase takes (`codes`: by name and player, `pass` included),
    and each rule's generator, so that a candidate's plies of one rule are all it makes,
    or its `lands_N` function, which checks one candidate's ply without making it."""
    out = w.out
    if not game_reversible(rs) or not moved or not _may_repeat(moved, phases):
        out.decl("#define RC_UNDO 0")
        return
    out.decl("#define RC_UNDO 1")
    full = (1 << rs.board.size) - 1  # a piece lifted or put back: on any cell (checked in C)
    # per moved rule (and player): its cells back, where its plies land when exact, its path table
    per_rule = [([full] * rs.board.size if _change(ply) else reverse_reach(tables, rs, ply.motion),
                 None if _change(ply) else exact_landing(rs, ply, p), _path_table(out, tables, rs, ply))
                for _, ply, p, _ in moved]
    lands = [("NULL", "NULL") if _change(ply) or land is not None else _lands(w, tables, rs, code, ply, p, types, path)
             for (code, ply, p, types), (_, land, path) in zip(moved, per_rule)]
    entries = [(code, p, t, rev, _change(ply), land, path, check)
               for (code, ply, p, types), (rev, land, path), check in zip(moved, per_rule, lands) for t in types]
    out.decl(f"#define UNDO_N {len(entries)}")
    out.decl(f"#define UNDO_NPH {len(phases)}")
    # only the solver's library reads these: the game's own library leaves them unused
    unused = "__attribute__((unused))"
    passes = any(ph.allows_pass for ph in phases)
    out.decl(f"static const int UNDO_PASS {unused} = {int(passes)};")
    # compulsory capture filters a phase's plies as a whole: then rc_legal makes them all
    out.decl(f"static const int UNDO_PLAIN {unused} = {int(rs.compulsory is None)};")
    reads = leads_reads(rs, moved, phases)
    out.decl(f"static const int UNDO_READS {unused} = {reads};")
    alike = ", ".join(map(str, alike_phases(rs, phases, reads)))
    out.decl(f"static const int UNDO_ALIKE[] {unused} = {{{alike}}};")
    for name, k in (("UNDO_RULE", 0), ("UNDO_PLAYER", 1), ("UNDO_TYPE", 2), ("UNDO_DELTA", 4)):
        out.decl(f"static const int {name}[] {unused} = {{{', '.join(str(e[k]) for e in entries)}}};")
    rev = [mask for e in entries for mask in e[3]]
    out.decl(f"static const M UNDO_REV[] {unused} = {{{', '.join(out.mask(m) for m in rev)}}};")
    exact = [e[5] for e in entries]
    out.decl(f"static const int UNDO_EXACT[] {unused} = {{{', '.join(str(int(m is not None)) for m in exact)}}};")
    out.decl(f"static const M UNDO_LAND[] {unused} = "
             f"{{{', '.join(out.mask(full if m is None else m) for m in exact)}}};")
    out.decl(f"static const M *const UNDO_PATH[] {unused} = {{{', '.join(e[6] for e in entries)}}};")
    takes = _takes(rs, phases, codes)
    out.decl(f"static const unsigned char UNDO_TAKES[] {unused} = {{{', '.join(map(str, takes))}}};")
    firsts = [_first(w, code, ply, p, types) if quiet(rs, ply, types, phases) else "NULL"
              for code, ply, p, types in moved]
    # after the generators' prototypes, which follow the declarations
    gens = ", ".join(f"moves_{code}" for code, _, _, _ in moved)
    out.line(0, f"static int (*const UNDO_MOVES[])(const S *, Buf *, M, M) {unused} = {{{gens}}};")
    out.line(0, f"static int (*const UNDO_LANDS[])(const S *, int, int, int, int64_t) {unused} = "
                f"{{{', '.join(e[7][0] for e in entries)}}};")
    out.line(0, f"static const int *const UNDO_STEPS[] {unused} = {{{', '.join(e[7][1] for e in entries)}}};")
    out.line(0, f"static int (*const UNDO_FIRST[])(const S *, A *) {unused} = {{{', '.join(firsts + ['NULL'])}}};")
