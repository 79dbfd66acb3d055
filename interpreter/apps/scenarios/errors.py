"""The errors of a scenario file (`file:line:col: error: ...`) and how their messages quote it."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Iterable, Union

if TYPE_CHECKING:
    from interpreter.apps.scenarios.yaml_nodes import Node

# A Node, a (line, column) pair (the column may be None), or None: the file as a whole.
Where = Union["Node", tuple, None]


def clip(text: str, width: int = 60) -> str:
    """Text from the file as a message shows it: at most `width` characters."""
    return text if len(text) <= width else text[:width] + "..."


def close(word: str, options: Iterable[str]) -> str | None:
    """The option closest to a misspelt `word`, if any (not tried on long words: difflib is slow)."""
    if len(word) > 64:
        return None
    found = difflib.get_close_matches(word, list(options), n=1)
    return found[0] if found else None


def _position(where: Where) -> tuple[int | None, int | None]:
    if where is None:
        return None, None
    if isinstance(where, tuple):
        return where
    return where.line, where.col


class ScenarioError(Exception):
    """Something wrong in a scenario file, at a line and column (None: the file as a whole)."""

    def __init__(self, file: str, where: Where, message: str) -> None:
        self.file, self.message = file, message
        self.line, self.col = _position(where)
        super().__init__(self.format())

    def format(self) -> str:
        """`file:line:col: error: message` (`file: error: message` for the file as a whole)."""
        where = self.file
        if self.line is not None:
            where += f":{self.line}" + (f":{self.col}" if self.col is not None else "")
        return f"{where}: error: {self.message}"


class ScenarioFileError(Exception):
    """A scenario file that cannot be run at all; carries every error found in it."""

    def __init__(self, errors: list[ScenarioError]) -> None:
        self.errors = sorted(errors, key=lambda e: (e.file, e.line or 0, e.col or 0))
        super().__init__("\n".join(e.format() for e in self.errors))


class Problem(Exception):
    """An error found before the file name is at hand (reading the YAML, the structural check)."""

    def __init__(self, where: Where, message: str) -> None:
        super().__init__(message)
        self.line, self.col = _position(where)
        self.message = message

    def error(self, file: str) -> ScenarioError:
        """This problem as an error of `file`."""
        return ScenarioError(file, (self.line, self.col) if self.line is not None else None, self.message)
