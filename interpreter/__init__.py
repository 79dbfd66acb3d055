"""rulecraft's interpreter: compile a checked ruleset into a playable, searchable game.

    >>> from rulecraft.interpreter import load_game
    >>> game = load_game("three-musketeers")
    >>> len(game.legal_actions(game.initial_state()))
    8
"""

from rulecraft.dsl.diagnostics import RulesetError
from rulecraft.dsl.load import load

from .game import Action, Game, IllegalActionError, PositionError, State
from .analysis import perft


def load_game(name: str) -> Game:
    """Load, check and compile a ruleset by path or bundled name (raises RulesetError)."""
    return Game(load(name))


__all__ = ["Action", "Game", "IllegalActionError", "PositionError", "RulesetError", "State",
           "load_game", "perft"]
