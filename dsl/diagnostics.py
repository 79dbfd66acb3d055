"""Diagnostics: `file:line:col: error: message`, the source line, a caret, a hint.

Everything a diagnostic shows that comes from outside (a file's lines, names, paths) is
passed through `printable`, so no control character reaches the terminal raw.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from dsl.syntax import Span

MAX_SHOWN = 100  # characters of a source line shown under a diagnostic
MAX_DIAGNOSTICS = 50  # diagnostics printed for one ruleset (the parser stops collecting there)
MAX_MESSAGE = 1000  # characters of a message or hint shown (a name may be very long)

# What a terminal would act on or hide: C0 and C1 controls, DEL, line and paragraph
# separators, bidirectional overrides and isolates, the byte-order mark, and lone
# surrogates (a byte that was not UTF-8 in a file name or an argument).
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]")


def _escape(ch: str) -> str:
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # os.fsdecode's stand-in for the byte code - 0xDC00
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def printable(text: str) -> str:
    """`text` with every control or invisible formatting character written as an escape
    (`\\x1b`, `\\u202e`; `\\xff` for a byte that was not UTF-8): safe to print."""
    return _UNSAFE.sub(lambda mo: _escape(mo.group()), text)


def clip(text: str, limit: int = 60) -> str:
    """`text` cut to `limit` characters (with `...`), for quoting a name or a path."""
    return text if len(text) <= limit else text[:limit - 3] + "..."


@lru_cache(maxsize=16)
def source_lines(text: str) -> list[str]:
    """The lines of a file as the parser numbers them: split at `\\n` only (a `\\r` before
    it dropped). Computed once per text, so formatting many diagnostics stays linear."""
    return [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]


def _shown_line(src: str, col: int, width: int) -> tuple[str, int, int]:
    """The source line as shown (windowed around the caret, escaped) and the caret's
    0-based display column and width there."""
    src = src.expandtabs(1)
    c = min(max(col - 1, 0), len(src))
    start, prefix, suffix = 0, "", ""
    if len(src) > MAX_SHOWN:  # a window around the caret
        start = max(0, c - MAX_SHOWN // 2)
        prefix = "..." if start else ""
        suffix = "..." if start + MAX_SHOWN < len(src) else ""
    window = src[start:start + MAX_SHOWN] if (prefix or suffix) else src
    # where each character of the window starts once escaped
    positions, pieces, at = [], [], len(prefix)
    for ch in window:
        positions.append(at)
        piece = _escape(ch) if _UNSAFE.match(ch) else ch
        pieces.append(piece)
        at += len(piece)
    positions.append(at)
    first = c - start
    last = min(first + max(width, 1), len(window))
    caret = positions[first]
    return prefix + "".join(pieces) + suffix, caret, max(1, positions[max(last, first)] - caret)


@dataclass(frozen=True)
class Diagnostic:
    span: Span | None
    message: str
    hint: str | None = None
    file: str = ""  # used when there is no span (a file that cannot be read)
    severity: str = "error"  # or "warning": the ruleset works, but likely not as meant

    def format(self, sources: dict[str, str] | None = None) -> str:
        """The diagnostic as printed: location, message, source line and caret, hint."""
        message = printable(clip(self.message, MAX_MESSAGE))
        if self.span is None:
            lines = [f"{printable(self.file)}: {self.severity}: {message}"]
        else:
            s = self.span
            lines = [f"{printable(s.file)}:{s.line}:{s.col}: {self.severity}: {message}"]
            text = (sources or {}).get(s.file)
            if text is not None:
                src_lines = source_lines(text)
                if 0 < s.line <= len(src_lines):
                    src = src_lines[s.line - 1]
                    width = s.end_col - s.col if s.end_line == s.line else len(src) - s.col + 1
                    shown, caret, width = _shown_line(src, s.col, width)
                    lines.append("    " + shown)
                    lines.append("    " + " " * caret + "^" + "~" * (width - 1))
        if self.hint:
            lines.append(f"  hint: {printable(clip(self.hint, MAX_MESSAGE))}")
        return "\n".join(lines)


class RulesetError(Exception):
    """A ruleset that cannot be used; carries every diagnostic found in it.

    `stopped`: the reader gave up after too many errors, so there may be more.
    """

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None,
                 stopped: bool = False):
        self.diagnostics = sorted(
            diagnostics,
            key=lambda d: (d.span.file, d.span.line, d.span.col) if d.span else (d.file, 0, 0),
        )
        self.sources = sources or {}
        self.stopped = stopped
        super().__init__(self.format())

    def formatted(self) -> list[str]:
        """The diagnostics as printed, the first MAX_DIAGNOSTICS of them, then a line
        saying how many more there are (or that reading stopped)."""
        shown = [d.format(self.sources) for d in self.diagnostics[:MAX_DIAGNOSTICS]]
        if len(self.diagnostics) > MAX_DIAGNOSTICS:
            shown.append(f"... and {len(self.diagnostics) - MAX_DIAGNOSTICS} more errors")
        if self.stopped:
            shown.append("... too many errors; stopping")
        return shown

    def format(self) -> str:
        return "\n".join(self.formatted())
