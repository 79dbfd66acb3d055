"""rulecraft's interpreter: compile a checked ruleset into a playable, searchable game.

    >>> from interpreter import load_game
    >>> game = load_game("three-musketeers")
    >>> len(game.legal_actions(game.initial_state()))
    8

Every module, even the diagnostics, loads on first use, so that the command line's
entry point (entry.py, in this package) can catch Ctrl-C while they do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dsl.diagnostics import RulesetError

    from interpreter.search.analysis import perft
    from interpreter.runtime.game import Action, Game, IllegalActionError, Position, PositionError, State
    from interpreter.runtime.protocol import Outcome, Termination

# Game through picture.py, which registers the SVG picture with it (Jupyter shows games).
_LAZY = {"Action": "interpreter.runtime.game", "Game": "interpreter.runtime.picture",
         "Position": "interpreter.runtime.game",
         "IllegalActionError": "interpreter.runtime.game", "PositionError": "interpreter.runtime.game",
         "State": "interpreter.runtime.game", "perft": "interpreter.search.analysis",
         "RulesetError": "dsl.diagnostics", "Outcome": "interpreter.runtime.protocol",
         "Termination": "interpreter.runtime.protocol"}


def load_game(name: str, backend: str = "python") -> "Game":
    """Load, check and compile a ruleset by path or bundled name (raises RulesetError);
    `backend`: "python", "native" or "auto" (see Game)."""
    from dsl.load import load

    from interpreter.runtime import picture  # noqa: F401 - games show as SVG in Jupyter
    from interpreter.runtime.game import Game
    return Game(load(name), backend)


def load_game_from_text(source: str, name: str = "<text>", backend: str = "python") -> "Game":
    """Check and compile a ruleset given as a string (raises RulesetError): `name` stands
    for its file in messages, and a variant's base is a bundled name or a path from the
    folder of `name`; `backend` as for load_game."""
    from dsl.load import load_text

    from interpreter.runtime import picture  # noqa: F401 - games show as SVG in Jupyter
    from interpreter.runtime.game import Game
    return Game(load_text(source, name), backend)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["Action", "Game", "IllegalActionError", "Outcome", "Position", "PositionError", "RulesetError",
           "State", "Termination", "load_game", "load_game_from_text", "perft"]
