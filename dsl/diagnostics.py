"""Diagnostics: `file:line:col: error: message`, the source line, a caret, a hint."""

from __future__ import annotations

from dataclasses import dataclass

from .model import Span

MAX_SHOWN = 100  # characters of a source line shown under a diagnostic
MAX_DIAGNOSTICS = 50  # diagnostics printed for one ruleset


@dataclass(frozen=True)
class Diagnostic:
    span: Span | None
    message: str
    hint: str | None = None
    file: str = ""  # used when there is no span (a file that cannot be read)

    def format(self, sources: dict[str, str] | None = None) -> str:
        """The diagnostic as printed: location, message, source line and caret, hint."""
        if self.span is None:
            lines = [f"{self.file}: error: {self.message}"]
        else:
            s = self.span
            lines = [f"{s.file}:{s.line}:{s.col}: error: {self.message}"]
            text = (sources or {}).get(s.file)
            if text is not None:
                src_lines = text.splitlines()
                if 0 < s.line <= len(src_lines):
                    src = src_lines[s.line - 1].expandtabs(1)
                    width = s.end_col - s.col if s.end_line == s.line else len(src) - s.col + 1
                    col = s.col
                    if len(src) > MAX_SHOWN:  # show a window around the caret
                        start = max(0, col - 1 - MAX_SHOWN // 2)
                        shown = src[start:start + MAX_SHOWN]
                        prefix = "..." if start else ""
                        src = prefix + shown + ("..." if start + MAX_SHOWN < len(src) else "")
                        col = col - start + len(prefix)
                        width = min(width, MAX_SHOWN - (col - len(prefix)) + 1)
                    lines.append("    " + src)
                    lines.append("    " + " " * (col - 1) + "^" + "~" * max(0, width - 1))
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)


class RulesetError(Exception):
    """A ruleset that cannot be used; carries every diagnostic found in it."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None):
        self.diagnostics = sorted(
            diagnostics,
            key=lambda d: (d.span.file, d.span.line, d.span.col) if d.span else (d.file, 0, 0),
        )
        self.sources = sources or {}
        super().__init__(self.format())

    def format(self) -> str:
        shown = [d.format(self.sources) for d in self.diagnostics[:MAX_DIAGNOSTICS]]
        if len(self.diagnostics) > MAX_DIAGNOSTICS:
            shown.append(f"... and {len(self.diagnostics) - MAX_DIAGNOSTICS} more errors")
        return "\n".join(shown)
