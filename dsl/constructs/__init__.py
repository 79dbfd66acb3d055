"""The constructs of the language, one module per motion, found through the registry here.

The registry is the one list of the language's motions and effects: the grammar's
alternatives (dsl/lark_parser.py), the syntax tree's builders (dsl/to_syntax.py), the
checker, the lowering, the back-ends, the editors' support all read it.

A motion's module holds what is particular to it: its syntax node's builder, its checks,
its model node, what a back-end may assume of its plies, and how its plies are found and
made (`emit_moves`, `emit_apply`, written once through the rule generator passed in,
interpreter/codegen/rules.py, whose writer each back-end prints in its own language:
these modules import only the model and the syntax tree). A module states only what differs
from a `MotionConstruct`'s defaults. Every module of this package that defines `NODE` is
a motion, its keyword the module's name (and the name of its rule in grammar/game.lark);
one that defines `VARIANT_OF` generates some plies of another motion's node (`chain`:
the chained slides). `effects` holds the effects family (`EffectConstruct`), `functions`
the built-in functions of expressions. docs/DESIGN.md shows how to add a construct.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass, fields
from types import ModuleType
from typing import Any, Callable

from dsl import model
from dsl.constructs import effects
from dsl.constructs.effects import EffectConstruct


def _nothing(*args: Any) -> None:
    return None


@dataclass(frozen=True)
class MotionConstruct:
    """A motion construct, as its module defines it (upper-case names, functions)."""

    name: str  # its keyword, its module's name and its rule's in grammar/game.lark
    moves: bool = True  # written `move SELECTOR NAME ...`; False: the ply's whole action (`place KIND`)
    straight: bool = False  # its directions must have a straight line (links have none)
    wide_pieces: bool = False  # it may move pieces covering several cells
    from_a_cell: bool = True  # the piece leaves one cell, `from` (table lookups on it work)
    from_per_candidate: bool = False  # `from` is known only with `here` (a push's far end)
    no_from: str = ""  # why `from` is no cell of its plies (refused by the checker); "": it is one
    path_grows: bool = False  # the ply passes cells, `path`, kept as it goes
    projects: bool = False  # `where closer(here, from, T)` is tested by projection on lines
    # `here` of a ply without `onto`: "empty" (the piece lands on an empty cell), or "any"
    # (any cell: `here` is where the piece acted on stands)
    default_onto: str = "empty"
    # A piece landing on `here` removes what stands there (a capture); False: a landing
    # removes nothing (sowing adds pieces to a cell's count)
    captures_landing: bool = True
    counted: bool = False  # it moves the pieces of counted kinds, and only it may
    action: str = "move"  # its actions' shape (interpreter/runtime/actions.py): move, place, push, chain
    node: type[model.Motion] | None = None  # its class in the model
    variant_of: type[model.Motion] | None = None  # a variant: the node whose plies it generates ...
    applies: Callable[[model.Motion], bool] | None = None  # ... when this holds of the node
    # (ToSyntax, span, its rule's children) -> its syntax node (a non-moving construct: the
    # ply's whole action, (owner, kind, kind span, syntax node))
    to_syntax: Callable[..., Any] | None = None
    check: Callable[..., None] = _nothing  # (syntax ply, error, board size): its own checks
    lower: Callable[..., model.Motion] | None = None  # (syntax, dirs, expr) -> its model node
    # Its code, for both back-ends (interpreter/codegen/rules.py's RuleGen passed in):
    emit_support: Callable[..., None] = _nothing  # functions its generators call
    emit_moves: Callable[..., None] | None = None  # a generator's body (once per sink)
    emit_apply: Callable[..., None] | None = None  # its apply function
    # The un-move solver (native/cundo.py): (tables, board, model node) -> per cell, the
    # cells from which one of its plies could reach it on an empty board; None: its
    # plies are not taken back that way
    reverse_reach: Callable[..., list[int]] | None = None
    # Whether every cell of `reverse_reach` reaches the cell by a ply when that cell is
    # empty (a step): the un-move solver then checks one candidate of a rule per parent
    # block (native/cundo.py, exact_landing), not each; else each one's plies are made
    exact_reverse: bool = False
    # (tables, board, model node) -> per cell x, per cell o, the cells a ply from o to x
    # passes on the way (all empty: a slide's line), or None; the un-move solver drops a
    # candidate whose way is blocked before making its plies
    reverse_path: Callable[..., list[list[int]] | None] | None = None
    # (tables, board, model node) -> per cell x, per cell o, the steps of a ply from o to
    # x (0 where two of its lines from o reach x unlike: then its plies are made); None:
    # one step wherever `reverse_reach` has o
    reverse_steps: Callable[..., list[list[int]]] | None = None
    # (RuleGen) the body of `lands_N(s, t, c, d, n)`: whether the piece of type t on cell
    # c may land on cell d, n steps away with its way empty (its limit, target set and
    # condition, as its generator tests them). The un-move solver checks a candidate
    # with it instead of making its plies (native/cundo.py, lands_checked); None: it makes them
    emit_lands: Callable[..., None] | None = None
    # ... or, for a construct whose ply puts one piece down (+1) or takes one off (-1) and
    # moves nothing else: taken back by lifting that piece or putting it back (0: neither)
    count_change: int = 0
    # Where the pieces its plies move may stand after them (dsl/domains.py): "here" (the
    # ply's own piece, on `here`, which `onto` bounds), "nowhere" (no piece is put on a
    # cell), "anywhere" (pieces of any kind, on cells `onto` does not bound: a push's line)
    lands: str = "here"

    @classmethod
    def of(cls, module: ModuleType) -> MotionConstruct:
        """The construct a module defines: FLAGS in capitals, functions by name."""
        values = {}
        for f in fields(cls)[1:]:
            attr = f.name if f.name in _FUNCTIONS else f.name.upper()
            if hasattr(module, attr):
                values[f.name] = getattr(module, attr)
        return cls(module.__name__.rsplit(".", 1)[1], **values)


_FUNCTIONS = {"applies", "to_syntax", "check", "lower", "emit_support", "emit_moves", "emit_apply",
              "reverse_reach", "reverse_path", "reverse_steps", "emit_lands"}


def _construct_modules() -> list[ModuleType]:
    """This package's modules, by name."""
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.ispkg)
    return [importlib.import_module(f"{__name__}.{n}") for n in names]


_MODULES = _construct_modules()
_ALL = [MotionConstruct.of(m) for m in _MODULES if hasattr(m, "NODE")]
_VARIANTS = [MotionConstruct.of(m) for m in _MODULES if hasattr(m, "VARIANT_OF")]

# By keyword, for the parser, the checker and the lowering (which read the syntax tree) ...
SYNTAX: dict[str, MotionConstruct] = {c.name: c for c in _ALL}
# ... and by model class, for the back-ends.
MOTIONS: dict[type[model.Motion], MotionConstruct] = {c.node: c for c in _ALL}
VARIANTS: dict[str, MotionConstruct] = {c.name: c for c in _VARIANTS}
CHAINED = VARIANTS["chain"]  # the chained slides (its name, for tests/test_actions.py)

# The effects by name, the syntax tree's `Effect.kind`, for the parser, the checker and the
# lowering (the back-ends find them by model class: `effects.emit`).
EFFECTS: dict[str, EffectConstruct] = {e.name: e for e in effects.EFFECTS}


def motion_keywords() -> tuple[str, ...]:
    """The motions written after `move SELECTOR` (the alternatives of `motion`)."""
    return tuple(c.name for c in _ALL if c.moves)


def action_keywords() -> tuple[str, ...]:
    """The constructs that are a ply's whole action (`place KIND`), beside `move ...`."""
    return tuple(c.name for c in _ALL if not c.moves)


def effect_keywords() -> tuple[str, ...]:
    """The words effects start with (`remove`, `reset`, `turn`: an assignment starts with a name)."""
    return tuple(e.keyword for e in effects.EFFECTS if e.keyword)


def keywords() -> tuple[str, ...]:
    """Every keyword a construct of the registry starts with."""
    return tuple(SYNTAX) + effect_keywords()


def motion_construct(motion: model.Motion) -> MotionConstruct:
    """The construct that generates a motion's plies (a variant's, when it applies)."""
    for variant in _VARIANTS:
        if variant.variant_of is type(motion) and variant.applies(motion):
            return variant
    return MOTIONS[type(motion)]


def lands_on_empty(onto: model.Expr) -> bool:
    """Whether every cell a ply's `onto` allows is empty (then landing takes nothing)."""
    return model.subset_of(onto, lambda x: isinstance(x, model.Ref) and x.word is model.Word.EMPTY)
