"""rulecraft: a declarative language for abstract board games, and the interpreter that
plays, searches and checks them.

    >>> import rulecraft
    >>> game = rulecraft.load_game("three-musketeers")
    >>> len(game.legal_actions(game.initial_state()))
    8

The stages are top-level packages named as their folders: `grammar`, `dsl` (parse and
check a ruleset into the model), `interpreter` (runtime, back-ends, search, applications)
and `rulesets` (the bundled games). This package is the public entry: the names below,
`python -m rulecraft` (the `rulecraft` command) and `__version__` (pyproject.toml's).
"""

from __future__ import annotations

from typing import Any

_PUBLIC = ("Action", "Game", "IllegalActionError", "Outcome", "Position", "PositionError",
           "RulesetError", "State", "Termination", "load_game", "load_game_from_text", "perft")


def __getattr__(name: str) -> Any:
    # Looked up on first use, so that `python -m rulecraft` catches Ctrl-C while the
    # modules load, and importlib.metadata (slow to import) loads only when asked.
    if name == "__version__":
        from importlib.metadata import version

        return version("rulecraft")
    if name in _PUBLIC:
        import interpreter

        return getattr(interpreter, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = list(_PUBLIC)
