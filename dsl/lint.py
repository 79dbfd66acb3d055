"""Warnings: what checks, yet likely does not do what its designer meant.

Generic passes over the checked model, each a function of the ruleset that returns its
diagnostics (severity "warning"), in source order. A warning never stops a ruleset from
loading; `rulecraft check` and the editors show it with its position and a hint.
"""

from __future__ import annotations

from typing import Callable, Iterator

from dsl import model
from dsl.diagnostics import Diagnostic, source_lines
from dsl.domains import cells_within
from dsl.model import Owner, Ruleset, Word, subset_of, walk

_WORDS = {Owner.OWN: "own", Owner.OPPONENT: "opponent's", Word.MOVER: "mover", Word.OPPONENT: "opponent"}


def _warning(rs: Ruleset, span, message: str, hint: str | None = None) -> Diagnostic:
    return Diagnostic(span, message, hint, file=rs.path, severity="warning")


def own_in_a_named_end(rs: Ruleset) -> Iterator[Diagnostic]:
    """An end rule that names its winner (or loser) but reads `own` pieces or `score[mover]`:
    those mean the player who made the last ply, so the rule fires for either player's."""
    for end in rs.ends:
        if not isinstance(end.player, model.Player):
            continue
        named = rs.players[end.player.index]
        for node in walk(end.cond):
            # own pieces, or a variable read for the mover (`mover == Red` is deliberate)
            word = _WORDS.get(node.owner) if isinstance(node, model.Pieces) else \
                _WORDS.get(node.index.word) if isinstance(node, model.VarRead) and \
                isinstance(node.index, model.Ref) else None
            if word is None or node.span is None:
                continue
            kind = node.kind if isinstance(node, model.Pieces) and node.kind else "piece"
            yield _warning(rs, node.span,
                           f"'{word}' in an end rule means the player who made the last ply, whoever "
                           f"that is, yet this rule names {named}: {named} {end.outcome.value} "
                           f"whichever player's pieces meet it",
                           f"write `mover {end.outcome.value[:-1]}s if ...`, or name the pieces: "
                           f"`{named}'s {kind}`")
            break


def removes_only_from(rs: Ruleset) -> Iterator[Diagnostic]:
    """`then remove from`: the cell the piece leaves holds nothing once it moves."""
    for ply in rs.plies:
        for cells in ply.removals():
            if subset_of(cells, lambda e: isinstance(e, model.Ref) and e.word is Word.FROM):
                yield _warning(rs, cells.span,
                               "this removes only cells of `from`, which the moving piece leaves: "
                               "it removes nothing",
                               "`path` is what a slide or a leap passes; the piece landed on is taken anyway")


def riders_onto_empty(rs: Ruleset) -> Iterator[Diagnostic]:
    """A rule moving a piece that stands on another kind, onto empty cells only: such a
    piece only lands where one of its carriers stands, never on an empty cell."""
    for ply in rs.plies:
        if not subset_of(ply.onto, lambda e: isinstance(e, model.Ref) and e.word is Word.EMPTY):
            continue
        owners = _owners(rs, ply)
        moved = [t for t in rs.types if (ply.kind is None or t.kind == ply.kind) and t.owner in owners]
        if moved and all(t.carrier is not None for t in moved):  # every piece it moves rides
            kind, carrier = moved[0].kind, rs.types[moved[0].carrier].kind
            at = ply.onto.span if ply.onto.span != ply.span else ply.motion.span
            yield _warning(rs, at,
                           f"pieces of '{kind}' stand on '{carrier}' and only land where one stands; "
                           f"`empty` cells hold nothing, so this rule never makes a ply",
                           f"write `onto {carrier} - {kind}`")


def places_in_goals(rs: Ruleset) -> Iterator[Diagnostic]:
    """`place ... onto empty` on a board with goals: goals are cells, empty until entered."""
    if not rs.board.goals:
        return
    goals = ", ".join(rs.board.names[g] for g in rs.board.goals)
    for ply in rs.plies:
        if ply.motion.name not in ("place", "anywhere"):
            continue
        if any(isinstance(n, model.Ref) and n.word is Word.EMPTY for n in walk(ply.onto)) and \
                not any(isinstance(n, model.Cells) and any(n.mask >> g & 1 for g in rs.board.goals)
                        for n in walk(ply.onto)):
            at = ply.onto.span if ply.onto.span != ply.span else ply.motion.span
            yield _warning(rs, at, f"`empty` includes the goals ({goals}), off the board: this "
                                   f"rule may put a piece there",
                           f"write `onto empty - {rs.board.names[rs.board.goals[0]]}`" if len(rs.board.goals) == 1
                           else "subtract the goals from `empty`")


def _owners(rs: Ruleset, ply: model.Ply) -> set[int | None]:
    """The owners whose pieces a ply may move, for some player."""
    out: set[int | None] = set()
    for p in range(len(rs.players)):
        out |= {rs.types[t].owner for t in rs.selected(ply.kind, ply.owner, p)}
    return out


def moves_no_piece(rs: Ruleset) -> Iterator[Diagnostic]:
    """A rule whose selector names no piece (`own tile` of a neutral kind), or only pieces
    that are never on the board: none set up, counted, in a reserve, put down by a `place`
    rule or of a kind some `promote` makes (a `reset setup` brings back only the setup)."""
    stand = _may_stand(rs)
    for ply in rs.plies:
        chosen = {t for p in range(len(rs.players)) for t in rs.selected(ply.kind, ply.owner, p)}
        kind = ply.kind or "piece"
        if not chosen:  # `own` or `opponent's` pieces of neutral kinds only
            word = f"{rs.players[ply.owner]}'s" if isinstance(ply.owner, int) else _WORDS[ply.owner]
            verb = ply.motion.name if ply.motion.name in ("place", "take") else "move"
            what = f"'{kind}' is neutral" if ply.kind else "every kind is neutral"
            yield _warning(rs, _selector(rs, ply),
                           f"{what}: no player owns its pieces, so `{word} {kind}` selects none and "
                           f"this rule never makes a ply",
                           f"drop `{word}`: either player may {verb} a neutral piece")
        elif ply.motion.name != "place" and not chosen & stand:
            named = "the kinds it moves" if ply.kind is None else \
                f"'{kind}'" if chosen == set(rs.types_of(ply.kind)) else \
                " or ".join(dict.fromkeys(f"{rs.players[rs.types[t].owner]}'s {kind}" for t in sorted(chosen)))
            yield _warning(rs, _selector(rs, ply),
                           f"no piece of {named} is ever on the board: none is set up, and no rule "
                           f"places one or promotes one to it; this rule never makes a ply",
                           "set some up, or add a rule that places them or promotes pieces to them")


def lands_nowhere(rs: Ruleset) -> Iterator[Diagnostic]:
    """A rule whose `onto` holds no cell whatever the position (`rank1 & rank3`, a region
    with no cell): `here` is always a cell of `onto`. Only fixed cells are folded, through
    `&`, `|` and `-`; `sow` is left out (its last piece's cell is not tested against them)."""
    for ply in rs.plies:
        if ply.motion.name in _ONTO_MOTIONS and _names_none(rs, ply.onto):
            yield _warning(rs, ply.onto.span,
                           f"{_shown(rs, ply.onto, '`onto`')} holds no cell, and `here` is always a "
                           f"cell of `onto`: this rule never makes a ply", _set_hint(ply.onto))


def in_no_phase(rs: Ruleset) -> Iterator[Diagnostic]:
    """A ply rule that no phase of the turn (nor of the first turn) names: no ply is made by it."""
    used = {name for phase in rs.turn + (rs.first_turn or []) for name in phase.plies}
    for ply in rs.plies:
        if ply.name not in used:
            yield _warning(rs, ply.span,
                           f"no phase of the turn names ply '{ply.name}': this rule never makes a ply",
                           f"name it in `turn:` (`... or {ply.name}`, or `any`), or drop the rule")


def does_nothing(rs: Ruleset) -> Iterator[Diagnostic]:
    """An effect that changes nothing: `x += 0`, `x -= 0`, `x = x`; a `remove` or a `promote`
    of cells that are never any (as `lands_nowhere` folds them); a `promote ... to KIND` that
    no piece may undergo (a piece becomes a KIND of its own owner, as the back-ends do it:
    `Ruleset.promotions`)."""
    for eff in _effects(rs):
        if isinstance(eff, model.Assign) and eff.op in ("+=", "-=") and \
                isinstance(eff.value, model.Num) and eff.value.value == 0:
            yield _warning(rs, eff.span, f"`{eff.op} 0` leaves '{eff.var}' as it is: this effect "
                                         f"changes nothing", "drop it, or write the change meant")
        elif isinstance(eff, model.Assign) and eff.op == "=" and isinstance(eff.value, model.VarRead) \
                and eff.value.var == eff.var and _same(eff.index, eff.value.index):
            yield _warning(rs, eff.span, f"this sets '{eff.var}' to its own value: this effect "
                                         f"changes nothing", "drop it, or write the value meant")
        elif isinstance(eff, (model.Remove, model.Promote)) and _names_none(rs, eff.cells):
            verb = "removes" if isinstance(eff, model.Remove) else "promotes"
            yield _warning(rs, eff.cells.span, f"{_shown(rs, eff.cells, 'this set')} holds no cell: "
                                               f"this {verb} nothing", _set_hint(eff.cells))
        elif isinstance(eff, model.Promote) and not rs.promotions(eff.kind):
            owners = sorted({t.owner for t in rs.types if t.kind == eff.kind}, key=lambda o: o or 0)
            whose = "neutral pieces" if owners == [None] else \
                " or ".join(f"{rs.players[o]}'s" for o in owners) + " pieces"
            yield _warning(rs, eff.span,
                           f"a promoted piece keeps its owner: only {whose} can become a '{eff.kind}', "
                           f"and none of another kind covers one cell standing on no other; this "
                           f"promotes nothing",
                           f"promote to a kind the pieces' owners have, or give '{eff.kind}' their "
                           f"owners (`owner each`)")


def longer_than_the_board(rs: Ruleset) -> Iterator[Diagnostic]:
    """A `slide K` (or `K or more`, `K up to N`) or a `push N` needing a longer straight
    line along its directions than the board has, so the rule never makes a ply; a `line`,
    `in_a_row` or `in_line` of a fixed N longer than the board's lines along its
    directions, which never holds. The lines are the back-ends' rays (dsl/board.py)."""
    longest = _Lines(rs.board)
    for ply in rs.plies:
        found = [longest.short_for(v.motion) for v in ply.variants()]
        if all(f is not None for f in found):
            yield _warning(rs, ply.motion.span, *found[0])
    calls: dict = {}  # source span -> the call as each player makes it (one, outside plies)
    for root in _exprs(rs):
        for node in walk(root):
            if isinstance(node, model.Call) and node.func in ("line", "in_a_row", "in_line") and \
                    isinstance(node.args[0], model.Num) and node.span is not None:
                calls.setdefault(node.span, []).append(node)
    for nodes in calls.values():
        most, n, call = max(longest.of(c.args[2].labels) for c in nodes), nodes[0].args[0].value, nodes[0]
        if n > most:
            dirs = _shown(rs, call.args[2], ", ".join(call.args[2].labels))
            never = "it is always empty" if call.func == "in_line" else "it never holds"
            yield _warning(rs, call.span,
                           f"`{call.func}({n}, ...)` needs {n} cells in a straight line along {dirs}, "
                           f"and this board's longest has {most}: {never}",
                           f"the board's lines along {dirs} hold at most {most} cells")


class _Lines:
    """The most cells in a straight line along each direction, as the back-ends' rays go."""

    def __init__(self, board):
        self.board, self.along = board, {}

    def _along(self, d: str) -> int:
        """The longest ray along `d`, its first cell included: from the cells nothing enters
        first (each ray from one holds those of every cell it passes), then cells on loops."""
        if d not in self.along:
            board, seen, best = self.board, set(), 0
            entered = {board.neighbour(c, d) for c in range(board.size)} - {None}
            for c in sorted(range(board.size), key=lambda c: c in entered):
                if c not in seen:
                    ray = board.ray(c, d)
                    seen.update(ray)
                    best = max(best, len(ray) + 1)
            self.along[d] = best
        return self.along[d]

    def of(self, dirs) -> int:
        return max((self._along(d) for d in dirs), default=0)

    def short_for(self, motion: model.Motion) -> tuple[str, str] | None:
        """(message, hint) when a slide of a least length or a push needs a longer line than
        the board's along the motion's directions; else None."""
        dirs = getattr(motion, "dirs", None) or self.board.directions
        if motion.name == "slide" and getattr(motion, "least", None) and not motion.chained:
            k, cells = motion.least, self.of(dirs)
            if k + 1 > cells:
                exact = motion.limit is None and not motion.or_more
                return (f"a slide of {'' if exact else 'at least '}{k} step{'s' * (k > 1)} needs "
                        f"{k + 1} cells in a straight line along its directions, and this board's "
                        f"longest has {cells}: this rule never makes a ply",
                        f"a slide here goes at most {cells - 1} step{'s' * (cells != 2)}")
        if motion.name == "push":
            n = motion.count  # the line, and the cell it moves into, lie along the opposite way
            cells = max((self._along(b) for b in map(self.board.opposite, dirs) if b), default=0)
            if n + 1 > cells:
                return (f"a push of {n} piece{'s' * (n > 1)} needs {n + 1} cells in a straight line "
                        f"along its directions (the line and the cell it moves into), and this "
                        f"board's longest has {cells}: this rule never makes a ply",
                        f"a push here moves a line of at most {max(cells - 1, 0)} pieces")
        return None


_ONTO_MOTIONS = ("step", "slide", "walk", "leap", "push", "anywhere", "place", "take")


def _may_stand(rs: Ruleset) -> set[int]:
    """The piece types that may ever stand on the board (from the setup on)."""
    out = {t for t, cells in rs.setup.items() if cells}
    out |= {i for i, t in enumerate(rs.types) if t.counted or t.reserve is not None}
    for ply in rs.plies:
        if ply.motion.name == "place":
            out |= {t for p in range(len(rs.players)) for t in rs.selected(ply.kind, ply.owner, p)}
    for eff in _effects(rs):
        if isinstance(eff, model.Promote):
            out |= set(rs.types_of(eff.kind))
    return out


def _effects(rs: Ruleset) -> list[model.Effect]:
    """Every effect: of the plies (as the first player makes them: what the passes read of an
    effect names no direction), of the end rules and of `after each ply`."""
    return [e for ply in rs.plies for e in ply.effects] + [e for end in rs.ends for e in end.effects] + \
        list(rs.after)


def _exprs(rs: Ruleset) -> Iterator[model.Expr]:
    """Every expression of the rules: the plies' as each player makes them, the end rules'
    and those of `after each ply`."""
    for ply in rs.plies:
        for v in ply.variants():
            yield from model.children(v.motion)
            yield v.onto
            if v.where is not None:
                yield v.where
            for eff in v.effects:
                yield from model.children(eff)
    for end in rs.ends:
        yield from [end.cond] + ([end.player] if end.player is not None else [])
        for eff in end.effects:
            yield from model.children(eff)
    for eff in rs.after:
        yield from model.children(eff)


def _names_none(rs: Ruleset, e: model.Expr) -> bool:
    """Whether the set `e` holds no cell whatever the position (its fixed cells folded
    through `&`, `|` and `-`: dsl/domains.py's `cells_within`)."""
    return cells_within(e, (1 << rs.board.size) - 1) == 0


def _set_hint(e: model.Expr) -> str:
    """Why a set of fixed cells holds none: what its operators mean."""
    ops = {n.op for n in walk(e) if isinstance(n, model.Binary)}
    if "&" in ops:
        return "`A & B` is the cells in both A and B; `A | B`, those in either"
    if "-" in ops:
        return "`A - B` is the cells of A that are not in B"
    return "a region without cells names none: check the regions it names"


def _same(a: model.Expr | None, b: model.Expr | None) -> bool:
    """Whether two indices of a variable always name the same player."""
    if a is None or b is None:
        return a is b
    if isinstance(a, model.Ref) and isinstance(b, model.Ref):
        return a.word is b.word
    return isinstance(a, model.Player) and isinstance(b, model.Player) and a.index == b.index


def _shown(rs: Ruleset, e: model.Expr, default: str) -> str:
    """An expression as its source writes it, in backquotes (`default` when it spans lines)."""
    s = e.span
    lines = source_lines(rs.sources.get(s.file, "")) if s is not None else []
    if s is None or s.line != s.end_line or not 0 < s.line <= len(lines):
        return default
    return f"`{lines[s.line - 1][s.col - 1:s.end_col - 1]}`"


def _selector(rs: Ruleset, ply: model.Ply):
    """The span of a ply's selector (`own stone`): a `place` or `take` motion holds it; in
    `move SELECTOR MOTION` it stands just before the motion (else the motion's span)."""
    mo = ply.motion.span
    if ply.motion.name in ("place", "take"):
        return mo
    lines = source_lines(rs.sources.get(mo.file, ""))
    head = lines[mo.line - 1][:mo.col - 1].rstrip() if 0 < mo.line <= len(lines) else ""
    words, kind = head.rsplit(None, 2)[-2:], ply.kind or "piece"
    if not words or words[-1] != kind:
        return mo
    start = len(head) - len(kind)
    if len(words) == 2 and words[0] in ("own", "opponent's"):
        start -= len(head[:start]) - len(head[:start].rstrip()) + len(words[0])
    return type(mo)(mo.file, mo.line, start + 1, mo.line, len(head) + 1)


PASSES: tuple[Callable[[Ruleset], Iterator[Diagnostic]], ...] = (
    own_in_a_named_end, removes_only_from, riders_onto_empty, places_in_goals, moves_no_piece,
    lands_nowhere, in_no_phase, does_nothing, longer_than_the_board)


def lint(rs: Ruleset) -> list[Diagnostic]:
    """Every warning of a checked ruleset, in source order."""
    found = [d for check in PASSES for d in check(rs)]
    return sorted(found, key=lambda d: (d.span.file, d.span.line, d.span.col) if d.span else ("", 0, 0))
