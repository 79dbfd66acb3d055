"""The constructs of the language, one module per family, found through the registry here.

A motion's module holds what is particular to it: its checks, its model node, what a
back-end may assume of its plies, and how its plies are found and made (`emit_moves`,
`emit_apply`, written through the back-end object passed in: these modules import only
the model). A module states only what differs from a `MotionConstruct`'s defaults. `effects`
holds the effects family, `functions` the built-in functions of expressions.
docs/DESIGN.md shows how to add a construct.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from types import ModuleType
from typing import Any, Callable

from dsl import model
from dsl.constructs import anywhere, chain, leap, place, push, slide, step, walk


def _nothing(*args: Any) -> None:
    return None


@dataclass(frozen=True)
class MotionConstruct:
    """A motion construct, as its module defines it (upper-case names, functions)."""

    name: str
    straight: bool = False  # its directions must have a straight line (links have none)
    wide_pieces: bool = False  # it may move pieces covering several cells
    from_a_cell: bool = True  # the piece leaves one cell, `from` (table lookups on it work)
    from_per_candidate: bool = False  # `from` is known only with `here` (a push's far end)
    path_grows: bool = False  # the ply passes cells, `path`, kept as it goes
    projects: bool = False  # `where closer(here, from, T)` is tested by projection on lines
    action: str = "move"  # its actions' shape (interpreter/runtime/actions.py): move, place, push, chain
    node: type[model.Motion] | None = None  # its class in the model
    check: Callable[..., None] = _nothing  # (syntax ply, error, board size): its own checks
    lower: Callable[..., model.Motion] | None = None  # (syntax, dirs, expr) -> its model node
    emit_support: Callable[..., None] = _nothing  # Python written before its generators
    emit_moves: Callable[..., None] | None = None  # a generator's body (once per sink)
    emit_apply: Callable[..., None] | None = None  # its apply function
    # The native back-end's C, the same plies in the same order (interpreter/native):
    emit_c_support: Callable[..., None] | None = None
    emit_c_moves: Callable[..., None] | None = None
    emit_c_apply: Callable[..., None] | None = None

    @classmethod
    def of(cls, module: ModuleType) -> MotionConstruct:
        """The construct a module defines: FLAGS in capitals, functions by name."""
        values = {}
        for f in fields(cls)[1:]:
            attr = f.name if f.name in _FUNCTIONS else f.name.upper()
            if hasattr(module, attr):
                values[f.name] = getattr(module, attr)
        return cls(module.__name__.rsplit(".", 1)[1], **values)


_FUNCTIONS = {"check", "lower", "emit_support", "emit_moves", "emit_apply", "emit_c_support",
              "emit_c_moves", "emit_c_apply"}
_ALL = [MotionConstruct.of(m) for m in (step, slide, walk, push, anywhere, place, leap)]
CHAINED = MotionConstruct.of(chain)

# By keyword, for the checker and the lowering (which read the syntax tree) ...
SYNTAX: dict[str, MotionConstruct] = {c.name: c for c in _ALL}
# ... and by model class, for the back-ends.
MOTIONS: dict[type[model.Motion], MotionConstruct] = {c.node: c for c in _ALL}


def motion_construct(motion: model.Motion) -> MotionConstruct:
    """The construct that generates a motion's plies (a chained slide has its own)."""
    if getattr(motion, "chained", False):
        return CHAINED
    return MOTIONS[type(motion)]
