"""Which piece counts only go one way: the tiers of an exact solve.

A position's tier is the count of its pieces of the kinds no rule ever adds (they are
only captured, removed or taken off), less the count of those of the kinds no rule ever
removes (when every ply only puts a piece down on an empty cell): no ply raises it. The
native solver's out-of-core solve (interpreter/native/solver/tiers.c) reaches the
positions a tier at a time, highest first, and holds in memory only the tier it expands
and the positions it reaches; the solve by tiers (interpreter/search/tiered.py) cuts
each tier's work into tasks. Both check the claim on every ply they make, and stop
should one raise the tier (the native solve handing the game to the Python solver).
"""

from __future__ import annotations

from dsl import model
from dsl.constructs import lands_on_empty, motion_construct
from dsl.constructs.effects import every_effect


def tier_weights(rs: model.Ruleset) -> list[int]:
    """Per piece type of `rs`: 1 if no rule ever adds a piece of it, -1 if no rule ever
    removes one (while some rule adds them), 0 otherwise (or for a counted kind)."""
    plies = [v for ply in rs.plies for v in ply.variants()]
    effects = every_effect(rs)
    if any(isinstance(e, (model.Reset, model.SetCount)) for e in effects):
        return [0] * len(rs.types)  # the setup comes back, or counts are set outright
    added: set[int] = set()
    for v in plies:
        if motion_construct(v.motion).count_change > 0:
            added.update(rs.types_of(v.kind))  # of any owner: `place opponent's KIND`
    for e in effects:
        if isinstance(e, model.Promote):
            added.update(new for _, new in rs.promotions(e.kind))
    only_put_down = (all(_puts_down(v) for v in plies)
                     and not any(isinstance(e, model.Promote) for e in effects))
    return [0 if t.counted else (-1 if i in added else 0) if only_put_down
            else 0 if i in added else 1 for i, t in enumerate(rs.types)]


def _puts_down(ply: model.Ply) -> bool:
    """Whether a ply only puts a piece down on an empty cell, removing nothing."""
    return (motion_construct(ply.motion).count_change > 0 and lands_on_empty(ply.onto)
            and not ply.removals())
