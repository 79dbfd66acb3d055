"""What the checker knows while it checks: the names declared so far, the board, the errors.

The checks themselves are layered on this class, one module each (board, expressions,
pieces and setup, rules of play); dsl/check.py runs them in order.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from dsl import board as boards
from dsl import syntax as syn
from dsl.diagnostics import Diagnostic
from dsl.model import PieceType

# Words that would read two ways as a declared name, and why.
RESERVED_NAMES = {
    "piece kind": {"piece": "`move piece ...` means a piece of any kind"},
    "player": {"draw": "`result=draw` in a position's text means a drawn game"},
}


class CheckerState:
    """The declarations being checked and what the checks have learnt of them."""

    # Set as `_Checker.run` gets to them, not here: none means anything before its step.
    board: boards.Board
    players: list[tuple[str, syn.Span]]
    player_names: list[str]
    builtin_regions: dict[str, frozenset[int]]  # ranks, files, rows not declared otherwise
    kinds: dict[str, syn.PieceDecl]
    placed_whole: set[str]  # kinds covering several cells that `place` puts down (kept as cells)
    types: list[PieceType]
    regions: dict[str, frozenset[int]]
    vars: dict[str, syn.VarDecl]
    setup_spans: dict[int, syn.Span]  # piece type -> the setup line of its cells
    setup_items: dict[int, list[frozenset[int]]]  # piece type -> its setup line's items
    ply_names: list[str]
    relative: dict[str, list[list[str]]]  # a player's own direction -> each player's labels
    remembers: bool  # a rule looks back at the previous ply
    tracks: dict[str, tuple[int, ...]]  # `track NAME: cells`, in order

    def __init__(self, decls: list[syn.Decl], path: str, sources: dict[str, str],
                 broken: tuple[tuple[str, str], ...] = ()):
        self.decls = decls
        self.path = path
        self.sources = sources
        self.errors: list[Diagnostic] = []
        # What typing found, by expression node (the syntax tree itself is left as parsed):
        # its type ("cells", "number", ...) and, for a name, what it denotes.
        self.typed: dict[int, str | None] = {}
        self.refs: dict[int, tuple] = {}
        self.names: dict[str, tuple[str, syn.Span | None]] = {}  # name -> (category, where)
        # Names and kinds whose declaration failed (`broken`: keys of syntax errors): no cascade.
        self.broken: set[str] = {n for _, n in broken if n}
        self.broken_kinds: set[str] = {k for k, _ in broken}
        self.in_ply = False  # checking a ply's `where` (where undoes() may look back)
        self.motion_construct = None  # the construct of the ply rule being checked, if any
        self.relative: dict[str, list[list[str]]] = {}
        self.placing = False  # checking a `place` ply (its piece comes from no cell)
        self.relations: dict[str, list[tuple[str, str]]] = {}
        self.captured_ok = False  # checking an effect, where `captured` is known
        self.tracks = {}
        self.player_regions: dict[str, tuple[int, ...]] = {}  # `region NAME: A / B`: each player's cells
        # why `here` is refused where an expression is read before the piece moves
        self.here_unknown = "a distance is counted before the piece moves"
        self.kinds = {}

    def error(self, span: syn.Span | None, message: str, hint: str | None = None) -> None:
        """Report an error; checking goes on, so that every error is reported at once."""
        self.errors.append(Diagnostic(span, message, hint, file=self.path))

    def suggest(self, name: str, candidates: Iterable[str]) -> str | None:
        """A "did you mean" hint: the candidate closest to `name`, if one is close."""
        close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
        return f"did you mean '{close[0]}'?" if close else None

    def declare(self, name: str, category: str, span: syn.Span | None) -> bool:
        """Record a declared name; False (after an error) if it names something already."""
        reserved = RESERVED_NAMES.get(category, {})
        if name in reserved:
            self.error(span, f"'{name}' cannot name a {category}: {reserved[name]}")
            # still declared, so that its uses are not reported as unknown too
        if name in self.names:
            other, where = self.names[name]
            at = f" (line {where.line})" if where is not None else ""
            self.error(span, f"'{name}' is already the name of a {other}{at}")
            return False
        self.names[name] = (category, span)
        return True
