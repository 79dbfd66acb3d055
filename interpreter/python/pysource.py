"""A small builder of Python source: lines, named constants, bit loops and ply sinks.

Only integers and identifiers made here reach the source: no text of a .game file
ever does (the model's names are resolved to indices before).
"""

from __future__ import annotations

from enum import Enum

MAX_SOURCE_LINES = 100_000  # generated lines (about 3 s to compile; a bundled game needs < 600): past it, the ruleset is refused


class TooLarge(Exception):
    """The generated module would pass MAX_SOURCE_LINES."""


class Sink(Enum):
    """What a move generator does with each ply it finds."""

    LIST = "moves"  # `moves_N(s)`: appends it to the list it returns
    EXISTS = "has"  # `has_N(s)`: returns True at the first


class PySource:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ns: dict[str, object] = {}  # the module's globals: tables and constants
        self._ids: dict[tuple, str] = {}
        self.sink = Sink.LIST

    def line(self, indent: int, text: str) -> None:
        if len(self.lines) >= MAX_SOURCE_LINES:
            raise TooLarge(len(self.lines))
        self.lines.append("    " * indent + text)

    def const(self, key: tuple, value: object, prefix: str) -> str:
        """A global for a table or constant, named here (never from the source)."""
        if key not in self._ids:
            name = f"{prefix}{len(self._ids)}"
            self._ids[key] = name
            self.ns[name] = value
        return self._ids[key]

    def bits(self, indent: int, mask: str, bit: str) -> None:
        """`for bit in mask` over the one-bit masks of `mask` (which it empties)."""
        self.line(indent, f"while {mask}:")
        self.line(indent + 1, f"{bit} = {mask} & -{mask}")
        self.line(indent + 1, f"{mask} ^= {bit}")

    def generator(self, code: int, sink: Sink) -> None:
        """The head of a move generator; its plies go through `ply`, then `end_generator`."""
        self.sink = sink
        self.line(0, f"def {sink.value}_{code}(s):")
        if sink is Sink.LIST:
            self.line(1, "acts = []")
            self.line(1, "add = acts.append")

    def ply(self, indent: int, payload: str) -> None:
        """A ply found: listed, or the answer to "is there one"."""
        self.line(indent, f"add({payload})" if self.sink is Sink.LIST else "return True")

    def end_generator(self) -> None:
        self.line(1, "return acts" if self.sink is Sink.LIST else "return False")
        self.line(0, "")

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"
