"""Warnings: what checks, yet likely does not do what its designer meant.

Generic passes over the checked model, each a function of the ruleset that returns its
diagnostics (severity "warning"), in source order. A warning never stops a ruleset from
loading; `rulecraft check` and the editors show it with its position and a hint.
"""

from __future__ import annotations

from typing import Callable, Iterator

from dsl import model
from dsl.diagnostics import Diagnostic
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


PASSES: tuple[Callable[[Ruleset], Iterator[Diagnostic]], ...] = (
    own_in_a_named_end, removes_only_from, riders_onto_empty, places_in_goals)


def lint(rs: Ruleset) -> list[Diagnostic]:
    """Every warning of a checked ruleset, in source order."""
    found = [d for check in PASSES for d in check(rs)]
    return sorted(found, key=lambda d: (d.span.file, d.span.line, d.span.col) if d.span else ("", 0, 0))
