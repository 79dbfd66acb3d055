"""Bounds the rules put on a game, found by a pass over the checked model.

`max_plies`: the most plies a game can last, where its rules alone bound it. Today that
is the placement games: every ply puts a new piece onto empty cells, and nothing ever
empties a cell again, so each ply fills at least one of the cells empty at the setup.
Adapters read it for their episode length (OpenSpiel's `max_game_length`).
"""

from __future__ import annotations

from dsl import model


def _onto_empty(e: model.Expr) -> bool:
    return model.subset_of(e, lambda x: isinstance(x, model.Ref) and x.word is model.Word.EMPTY)


def _frees_cells(effects) -> bool:
    """Whether some effect may empty a cell or put the setup back."""
    return any(isinstance(e, (model.Remove, model.Reset)) for e in effects)


def max_plies(rs: model.Ruleset) -> int | None:
    """The most plies a game of `rs` can last, or None where the rules set no bound this
    analysis can see (pieces that move or are taken, a pass, counted pieces)."""
    phases = rs.turn + (rs.first_turn or [])
    if not rs.plies or any(ph.allows_pass for ph in phases) or rs.counts:
        return None
    if any(_frees_cells(end.effects) for end in rs.ends):
        return None
    cells_a_ply = []
    for ply in rs.plies:
        if ply.motion.name != "place" or _frees_cells(ply.effects):
            return None
        if not all(_onto_empty(v.onto) for v in ply.variants()):
            return None
        types = {t for p in range(len(rs.players)) for t in rs.selected(ply.kind, ply.owner, p)}
        cells_a_ply += [rs.types[t].size * rs.types[t].cover for t in types]
    taken = {c for cells in rs.setup.values() for c in cells}
    return (rs.board.size - len(taken)) // min(cells_a_ply, default=1)
