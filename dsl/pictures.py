"""How pieces may be drawn: the colour and shape names a `piece` declaration accepts.

Names, not codes: a `.game` file says `colour red/blue`, and each front end (SVG
pictures, the web page, a colour terminal) maps a name to its own paint.
"""

from __future__ import annotations

# name -> (fill, ink): the piece's paint and the colour of its symbol and outline
COLOURS: dict[str, tuple[str, str]] = {
    "white": ("#f8f4e8", "#222222"), "black": ("#2b2b2b", "#f4f4f4"),
    "red": ("#c0392b", "#ffffff"), "blue": ("#2e6fb7", "#ffffff"),
    "green": ("#2e8b57", "#ffffff"), "yellow": ("#f1c40f", "#222222"),
    "orange": ("#e67e22", "#222222"), "purple": ("#8e44ad", "#ffffff"),
    "brown": ("#8b5a2b", "#ffffff"), "grey": ("#8c8c8c", "#ffffff"),
    "cream": ("#f3e5c0", "#222222"), "pink": ("#f4a6c1", "#222222"),
}
SHAPES = ("disc", "square", "diamond", "triangle", "hexagon", "ring")
