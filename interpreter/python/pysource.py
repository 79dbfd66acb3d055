"""A small builder of Python source: lines and named constants.

Only integers and identifiers made here reach the source: no text of a .game file
ever does (the model's names are resolved to indices before).
"""

from __future__ import annotations

MAX_SOURCE_LINES = 100_000  # generated lines (about 3 s to compile; a bundled game needs < 600): past it, the ruleset is refused


class TooLarge(Exception):
    """The generated module would pass MAX_SOURCE_LINES."""


class PySource:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.ns: dict[str, object] = {}  # the module's globals: tables and constants
        self._ids: dict[tuple, str] = {}

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

    def source(self) -> str:
        return "\n".join(self.lines) + "\n"
