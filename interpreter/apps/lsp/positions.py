"""Spans of the checker (1-based lines and columns, in characters) <-> LSP positions
(0-based, in the client's code units: UTF-16 unless it chose otherwise)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types

from dsl import syntax as syn
from dsl.diagnostics import source_lines

Units = Callable[[str], int]  # how many code units of the client a text is


def utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def position(lines: list[str], line: int, col: int, units: Units = utf16) -> types.Position:
    """The LSP position of a 1-based line and column of a file whose lines are `lines`."""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return types.Position(line=max(line - 1, 0), character=units(text[:max(col - 1, 0)]))


def to_range(span: syn.Span, text: str, units: Units = utf16) -> types.Range:
    """The LSP range of a span of the file whose text is `text`."""
    lines = source_lines(text)
    return types.Range(start=position(lines, span.line, span.col, units),
                       end=position(lines, span.end_line, span.end_col, units))


def from_position(text: str, pos: types.Position, units: Units = utf16) -> tuple[int, int]:
    """The 1-based line and column (in characters) of an LSP position in `text`."""
    lines = source_lines(text)
    line = lines[pos.line] if 0 <= pos.line < len(lines) else ""
    count, col = 0, 0
    while col < len(line) and count < pos.character:
        count += units(line[col])
        col += 1
    return pos.line + 1, col + 1


def uri_of(path: str, document_path: str, document_uri: str) -> str:
    """The URI of a file of a document's chain (the document's own, or a base's file URI)."""
    if path == document_path:
        return document_uri
    return Path(path).resolve().as_uri()


def path_of(uri: str) -> str:
    """The file path of a `file:` URI; any other URI (an unsaved buffer) stands for itself.
    A NUL (no file's name holds one; the loader's os.path calls refuse it) becomes U+FFFD."""
    parts = urlparse(uri)
    return (unquote(parts.path) if parts.scheme == "file" else uri).replace("\x00", "\ufffd")

