"""A game as another process rebuilds it: its ruleset's sources and its back-end.

Tasks on a cluster (tiered.py, the balance command's self-play) run in workers that share
no memory with the process that asks for them: they are given a `GameSource`, small and
picklable, and build the game from it once a process.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from dsl.load import load_text

from interpreter.runtime.game import Game


class GameSource(NamedTuple):
    """A ruleset's file name, the texts of its files (itself and any base), its back-end."""

    path: str
    sources: tuple[tuple[str, str], ...]
    backend: str


def source_of(game: Game) -> GameSource:
    """What rebuilds `game` elsewhere."""
    rs = game.ruleset
    return GameSource(rs.path, tuple(sorted(rs.sources.items())), game.backend)


@functools.lru_cache(maxsize=4)
def game_from(source: GameSource) -> Game:
    """The game of a source, built once a process."""
    texts = dict(source.sources)
    return Game(load_text(texts[source.path], source.path, texts), backend=source.backend)
