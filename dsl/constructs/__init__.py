"""The constructs of the language, one module per family, found through `motion_module`.

A motion's module holds what is particular to it: its action's fields and how its plies
are found and made (`emit_support`, `emit_moves`, `emit_apply`, written through the
back-end object passed in: these modules import only the model). `functions` holds the
built-in functions of expressions. docs/DESIGN.md shows how to add one.
"""

from __future__ import annotations

from types import ModuleType

from .. import ir
from . import anywhere, chain, leap, place, push, slide, step, walk

MOTIONS: dict[type[ir.Motion], ModuleType] = {
    ir.Step: step,
    ir.Slide: slide,
    ir.Walk: walk,
    ir.Push: push,
    ir.Anywhere: anywhere,
    ir.Place: place,
    ir.Leap: leap,
}


# The motions by their keyword, for the checker (which reads the syntax tree).
SYNTAX: dict[str, ModuleType] = {module.__name__.rsplit(".", 1)[1]: module
                                 for module in (step, slide, walk, push, anywhere, place, leap)}


def motion_module(motion: ir.Motion) -> ModuleType:
    """The module that generates a motion's plies (a chained slide has its own)."""
    if isinstance(motion, ir.Slide) and motion.chained:
        return chain
    return MOTIONS[type(motion)]
