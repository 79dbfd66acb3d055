"""A warning the checker cannot give alone: a game already over at its setup (it takes the
compiled rules to evaluate the end rules on the start position)."""

from __future__ import annotations

import dataclasses

from dsl.diagnostics import Diagnostic

from interpreter.runtime.game import Game
from interpreter.runtime.protocol import Termination


def over_at_setup(game: Game) -> Diagnostic | None:
    """A warning at the end rule that ends the game before its first ply (or at the first
    ply rule, when the first player has none), or None when the game can start."""
    start = game.initial_state()
    outcome = game.outcome(start)
    if outcome is None:
        return None
    rs = game.ruleset
    result = game.notation.result(outcome)
    if outcome.termination is Termination.END_RULE:
        for end in rs.ends:  # the first rule that alone ends it is the one that fired
            alone = Game(dataclasses.replace(rs, ends=[end]), backend="python")
            if alone.outcome(alone.initial_state()) is not None:
                return Diagnostic(end.span, f"the game is over at its setup: end '{end.name}' "
                                            f"holds before the first ply ({result})",
                                  "check the setup and the end rule's condition", file=rs.path,
                                  severity="warning")
    span = rs.plies[0].span if rs.plies else None
    return Diagnostic(span, f"the game is over at its setup: {game.players[game.to_move(start)]} has "
                            f"no legal ply to start with ({result})", file=rs.path, severity="warning")
