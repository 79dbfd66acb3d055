"""Pieces in their colours on a colour terminal: the paint `Game.render` takes.

The colours are the pictures' (picture.piece_colours: the ruleset's `colour`, else the
owner's), as 24-bit background and foreground codes. Colour is used where the output is
a terminal that is not `dumb` and NO_COLOR (no-color.org) is unset, or when asked.
"""

from __future__ import annotations

import os
from typing import Callable, TextIO

from interpreter.runtime.game import Game
from interpreter.runtime.picture import piece_colours

CHOICES = ("auto", "always", "never")


def wants_colour(choice: str, stream: TextIO) -> bool:
    """Whether to paint: `always`, `never`, or (`auto`) on a colour terminal."""
    if choice != "auto":
        return choice == "always"
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and "NO_COLOR" not in os.environ \
        and os.environ.get("TERM", "") != "dumb"


def painter(game: Game) -> Callable[[int, str], str]:
    """`paint(type, symbol)`: the symbol in its piece's ink on its piece's fill."""
    codes = []
    for t in game.ruleset.types:
        fill, ink = (_rgb(c) for c in piece_colours(t))
        codes.append(f"\x1b[1;38;2;{ink}m\x1b[48;2;{fill}m")
    return lambda t, symbol: f"{codes[t]}{symbol}\x1b[0m"


def _rgb(colour: str) -> str:
    """`#c0392b` as `192;57;43`."""
    return ";".join(str(int(colour[k:k + 2], 16)) for k in (1, 3, 5))
