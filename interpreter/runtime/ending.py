"""Why a finished game ended, for people: the cells that decided it (the winning line, a
shortest chain that connects two sides) and a few words on the cause.

The end rules are not run again: their conditions are read from the model, and each
line or connection predicate in them (`line`, `aligned`, `in_a_row`, `in_line`,
`connected`) is looked for in the final position, over pieces and fixed cells. What a
rule's condition says in other terms (counts, variables, `no legal ply`) has no cells
to show; the picture then marks only the last ply.
"""

from __future__ import annotations

from typing import Iterator

from dsl import model

from interpreter.runtime.game import Game, State
from interpreter.runtime.protocol import Termination
from interpreter.runtime.tables import cells_of

PREDICATES = ("line", "aligned", "in_a_row", "in_line", "connected")


def ending_cells(game: Game, state: State) -> list[int]:
    """The cells that decided a finished game, ascending; [] while it goes on, or where
    the deciding rule names no line or connection."""
    out = game.outcome(state)
    if out is None or out.termination is not Termination.END_RULE:
        return []
    players = list(range(len(game.players)))
    if out.winner is not None:  # the winner's pieces first: `own` most often means theirs
        players.remove(out.winner)
        players.insert(0, out.winner)
    for end in game.ruleset.ends:
        if end.outcome is model.Outcome.GOES_ON or (end.outcome is model.Outcome.DRAW) != out.is_draw:
            continue
        for call in _predicates(end.cond):
            for p in players:
                found = _witness(game, state, call, p)
                if found:
                    return cells_of(found)
    return []


def ending_cause(game: Game, state: State) -> str:
    """A few words on why the game ended: `Enemy has no legal ply`, or ''."""
    out = game.outcome(state)
    if out is None or out.termination is not Termination.STUCK:
        return ""
    stuck = game.to_move(state)
    return f"{game.players[stuck]} {'have' if game.notation.plural(stuck) else 'has'} no legal ply"


def _predicates(e: model.Expr) -> Iterator[model.Call]:
    """The line and connection calls of a condition, outside any `not`."""
    if isinstance(e, model.Call) and e.func in PREDICATES:
        yield e
    elif isinstance(e, model.BoolOp):
        yield from _predicates(e.left)
        yield from _predicates(e.right)


def _witness(game: Game, state: State, call: model.Call, player: int) -> int:
    """The cells showing that `call` holds, with `own` meaning `player`'s; 0 if it does
    not, or if an argument is not one this module reads."""
    args = [_value(game, state, a, player) for a in call.args]
    if any(a is None for a in args):
        return 0
    tables = game.tables
    if call.func == "connected":
        a, b, cells = args[:3]
        return _chain(a, b, cells, tables.adjacency(list(args[3]) if len(args) > 3 else None))
    if call.func == "aligned":
        args = [args[0].bit_count(), *args]
    if call.func in ("in_a_row", "in_line") or (call.func == "line" and len(args) > 3):
        n, cells, dirs = args[:3]
        return sum(w for w in tables.windows(list(dirs))[n] if cells & w == w) if n >= 1 else 0
    n, cells, dirs = args[:3]
    return next((cells & line for line in tables.line_masks(list(dirs))
                 if n >= 1 and (cells & line).bit_count() >= n), 0)


def _value(game: Game, state: State, e: model.Expr, player: int) -> object:
    """A number, a cell mask or directions; None for what this module does not read."""
    if isinstance(e, model.Num):
        return e.value
    if isinstance(e, model.Dirs):
        return e.labels
    if isinstance(e, model.Flag):
        return e.name
    if isinstance(e, model.Cells):
        return e.mask
    if isinstance(e, model.Pieces):
        return _pieces(game, state, e, player)
    if isinstance(e, model.Call) and e.func == "count":
        mask = _value(game, state, e.args[0], player)
        return None if mask is None else mask.bit_count()
    return None


def _pieces(game: Game, state: State, e: model.Pieces, player: int) -> int:
    mask = 0
    for i in game.ruleset.selected(e.kind, e.owner if e.player is None else e.player, player):
        mask |= state[i]
    return mask


def _chain(a: int, b: int, cells: int, adj: list[int]) -> int:
    """A shortest path of `cells` (through `adj`) from a cell of `a` to one of `b`; 0 if none."""
    parent = {c: -1 for c in cells_of(cells & a)}
    frontier = list(parent)
    while frontier:
        for c in frontier:
            if b >> c & 1:
                path = 0
                while c >= 0:
                    path |= 1 << c
                    c = parent[c]
                return path
        grown = []
        for c in frontier:
            for d in cells_of(adj[c] & cells):
                if d not in parent:
                    parent[d] = c
                    grown.append(d)
        frontier = grown
    return 0
