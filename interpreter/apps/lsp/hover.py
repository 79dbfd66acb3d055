"""Hovers: a keyword or built-in function shows its passage of the language reference
(docs/LANGUAGE.md, through reference.py); a name shows what declares it, with the
declaration's source lines."""

from __future__ import annotations

import os
import re

from lsprotocol import types

from dsl.diagnostics import source_lines

from interpreter.apps.lsp.documents import Analysis, Declared
from interpreter.apps.lsp.positions import Units, from_position, to_range, utf16
from interpreter.apps.lsp.reference import reference
from interpreter.apps.lsp.words import Word

LABELS = {"var": "variable"}  # a declaration's keyword -> what a hover calls its names
MAX_SHOWN_LINES = 12  # lines of a declaration shown
MAX_LISTED = 24  # cells of a built-in region listed
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")


def hover(analysis: Analysis, path: str, text: str, pos: types.Position,
          units: Units = utf16) -> types.Hover | None:
    """The hover at a position of the document `path` (whose text is `text`)."""
    line, col = from_position(text, pos, units)
    word = analysis.word_at(path, line, col)
    if word is None:
        return None
    declared = analysis.resolve(word)
    shown = declaration_text(analysis, declared) if declared else keyword_text(_part_at(word, col))
    if shown is None:
        return None
    return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=shown),
                       range=to_range(word.span, text, units))


def _part_at(word: Word, col: int) -> str:
    """The word of a token under the cursor (`legal` in `no legal ply`)."""
    offset = col - word.span.col
    for mo in _WORD.finditer(word.text):
        if mo.start() <= offset <= mo.end():
            return mo.group()
    return word.text


def keyword_text(word: str) -> str | None:
    """A keyword's or function's passage of the reference, with the section it is from."""
    entry = reference().get(word)
    if entry is None:
        return None
    return f"**`{word}`** — docs/LANGUAGE.md § {entry['section']}\n\n{entry['text']}"


def declaration_text(analysis: Analysis, d: Declared) -> str:
    """What a name is and the source lines that declare it."""
    kind = LABELS.get(d.kind, d.kind)
    where = f"line {d.decl.line}"
    if d.decl.file != analysis.path:
        where += f" of {os.path.basename(d.decl.file)}"
    head = f"**{kind}** `{d.name}` ({where})"
    extra = _builtin_detail(analysis, d)
    if d.kind == "player":
        order = [n.name for n in analysis.declared if n.kind == "player"]
        if d.name in order:
            head += " — moves first" if order.index(d.name) == 0 else " — moves second"
    view = analysis.file(d.decl.file)
    lines = source_lines(view.text)[d.decl.line - 1:d.decl.end_line] if view else []
    if len(lines) > MAX_SHOWN_LINES:
        lines = lines[:MAX_SHOWN_LINES] + ["  ..."]
    body = "\n".join(lines)
    return head + (f"\n\n{extra}" if extra else "") + (f"\n\n```rulecraft\n{body}\n```" if body else "")


def _builtin_detail(analysis: Analysis, d: Declared) -> str:
    """For a name the board brings: what it stands for."""
    b = analysis.board
    if b is None:
        return ""
    if d.kind == "cell":
        return "a cell of the board" + (" (an off-board goal)" if b.index[d.name] in b.goals else "")
    if d.kind == "direction":
        members = b.groups.get(d.name)
        return f"a direction group of the board: {', '.join(members)}" if members else \
            "a direction of the board"
    if d.kind == "built-in region":
        cells = sorted(analysis.builtin_regions[d.name])
        names = [b.names[c] for c in cells[:MAX_LISTED]] + (["..."] if len(cells) > MAX_LISTED else [])
        return f"{len(cells)} cells: {', '.join(names)}"
    return ""
