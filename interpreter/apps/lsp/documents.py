"""A document as the language server sees it: the checker's diagnostics of its text (the
editor's text, not the file on disk), and its words and declared names together with those
of the bases it is a variant of.

Everything here is the project's loader, parser and checker at work; nothing of a file is
ever evaluated. A text over the loader's size limit gets the loader's error and nothing
else (it is not parsed).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property

from dsl import board as boards
from dsl import syntax as syn
from dsl.diagnostics import Diagnostic, RulesetError
from dsl.file_text import BOM, MAX_FILE_BYTES, UnreadableFile, read_text
from dsl.load import MAX_VARIANT_DEPTH, NotARuleset, find_ruleset, load_text
from dsl.parse import parse_partial

from interpreter.apps.lsp.words import Word, words_of

# The kinds of names a board brings, which no declaration names.
BUILTIN_KINDS = ("cell", "direction", "built-in region")


@dataclass(frozen=True)
class Declared:
    """A declared name: `kind` is its declaration's keyword (piece, region, var, ply, end,
    relation, goal), `player`, or one of BUILTIN_KINDS (named by the board declaration)."""

    name: str
    kind: str
    span: syn.Span  # where the name is written
    decl: syn.Span  # the whole declaration


@dataclass
class FileView:
    """One file of a document's chain: the document itself, or a base."""

    path: str
    text: str
    decls: list[syn.Decl]
    words: list[Word]


@dataclass
class Analysis:
    """What the server knows of one document's text: the checker's diagnostics, the files
    of its chain, the declarations in force, and what names denote where they are written."""

    path: str
    files: list[FileView]  # the document, then its base, its base's base, ...
    diagnostics: list[Diagnostic]
    stopped: bool = False  # the parser gave up after too many errors
    effective: dict[tuple[str, str], syn.Decl] = field(default_factory=dict)  # in force, by key

    @cached_property
    def declared(self) -> list[Declared]:
        """The names in force: a variant's declarations over its base's, drops applied."""
        return [n for d in self.effective.values() for n in names_of(d)]

    @cached_property
    def _by_span(self) -> dict[syn.Span, Declared]:
        """Every declaration's name in every file (those a variant replaced too), by span."""
        return {n.span: n for f in self.files for d in f.decls for n in names_of(d)}

    @cached_property
    def board(self) -> boards.Board | None:
        return board_of(self.effective)

    @cached_property
    def builtin_regions(self) -> dict[str, frozenset[int]]:
        return self.board.builtin_regions() if self.board else {}

    def file(self, path: str) -> FileView | None:
        return next((f for f in self.files if f.path == path), None)

    def resolve(self, word: Word) -> Declared | None:
        """What a name denotes where it is written, or None (a keyword, an unknown name)."""
        if word.role != "name":
            return None
        if word.span in self._by_span:  # the name of a declaration
            return self._by_span[word.span]
        wanted = word.namespace
        for d in self.declared:
            if d.name == word.text and (d.kind == wanted if wanted else d.kind not in ("ply", "end")):
                return d
        return None if wanted else self.builtin(word.text)

    def builtin(self, name: str) -> Declared | None:
        """A cell, direction or built-in region of the board, as declared by the board line."""
        decl = self.effective.get(("board", ""))
        if self.board is None or decl is None:
            return None
        b = self.board
        kind = ("cell" if name in b.index else "direction" if name in b.directions or name in b.groups
                else "built-in region" if name in self.builtin_regions else None)
        return Declared(name, kind, decl.span, decl.span) if kind else None

    def occurrences(self, target: Declared) -> list[Word]:
        """Every word, in every file of the chain, that names what `target` names."""
        found = []
        for f in self.files:
            for w in f.words:
                if w.text == target.name and w.role == "name":
                    d = self.resolve(w)
                    if d is not None and d.kind == target.kind:
                        found.append(w)
        return found

    def word_at(self, path: str, line: int, col: int) -> Word | None:
        """The word of a file at a 1-based line and column (or just after its end)."""
        f = self.file(path)
        if f is None:
            return None
        for w in f.words:
            s = w.span
            if s.line == line == s.end_line and s.col <= col <= s.end_col:
                return w
        return None


def names_of(d: syn.Decl) -> list[Declared]:
    """The names a declaration declares (its own name, or the players)."""
    if isinstance(d, syn.PlayersDecl):
        return [Declared(n, "player", span, d.span) for n, span in d.names]
    if isinstance(d, syn.DropDecl) or getattr(d, "name_span", None) is None or not getattr(d, "name", ""):
        return []
    return [Declared(d.name, d.key[0], d.name_span, d.span)]


def board_of(effective: dict[tuple[str, str], syn.Decl]) -> boards.Board | None:
    """The board of the declarations in force, with its removed cells; None if it cannot be built."""
    d = effective.get(("board", ""))
    if not isinstance(d, syn.BoardDecl):
        return None
    try:
        board = boards.build(d.shape, d.width, d.height, [o for o, _ in d.options])
    except (boards.BoardError, ValueError):
        return None
    gone = {board.index[n] for r in effective.values() if isinstance(r, syn.RemoveDecl)
            for n, _ in r.cells if n in board.index}
    return boards.remove_cells(board, sorted(gone)) if gone and len(gone) < board.size else board


def fits(text: str) -> bool:
    """Whether a text is within the loader's size limit (else it is not parsed at all)."""
    return len(text) <= MAX_FILE_BYTES and len(text.encode("utf-8", "surrogatepass")) <= MAX_FILE_BYTES


def analyse(path: str, text: str, open_texts: dict[str, str] | None = None) -> Analysis:
    """The analysis of the text of the file `path`; `open_texts` ({path: text}) are the
    documents open in the editor, read instead of the disk when one is a base."""
    text = text.removeprefix(BOM)
    files = chain(path, text, open_texts or {}) if fits(text) else []
    try:
        ruleset = load_text(text, path, given={f.path: f.text for f in files[1:]})
        diagnostics, stopped = list(ruleset.warnings), False
    except RulesetError as e:
        diagnostics, stopped = e.diagnostics, e.stopped
    return Analysis(path, files, diagnostics, stopped, effective(files))


def chain(path: str, text: str, open_texts: dict[str, str]) -> list[FileView]:
    """The file and the bases it is a variant of, as far as they can be found and read."""
    files: list[FileView] = []
    seen = {real_path(path)}
    while len(files) <= MAX_VARIANT_DEPTH:
        source = parse_partial(text, path)
        files.append(FileView(path, source.text, source.decls, words_of(source.text, path)))
        variant = next((d for d in source.decls if isinstance(d, syn.VariantDecl)), None)
        if variant is None:
            break
        try:
            path = find_ruleset(variant.base, beside=os.path.dirname(files[-1].path))
            text = _open_text(path, open_texts)
            if text is None:
                text = read_text(path)
        except (NotARuleset, UnreadableFile, OSError):
            break
        if real_path(path) in seen or not fits(text):
            break
        seen.add(real_path(path))
    return files


def real_path(path: str) -> str:
    """os.path.realpath, or the path itself where it names no file (a NUL from a URI)."""
    try:
        return os.path.realpath(path)
    except (ValueError, OSError):
        return path


def _open_text(path: str, open_texts: dict[str, str]) -> str | None:
    real = real_path(path)
    return next((t for p, t in open_texts.items() if real_path(p) == real), None)


def effective(files: list[FileView]) -> dict[tuple[str, str], syn.Decl]:
    """The declarations in force by key: in one file the first of a key (as the loader
    keeps it), a variant's over its base's, a `drop` taking the base's away."""
    out: dict[tuple[str, str], syn.Decl] = {}
    for f in reversed(files):
        own: dict[tuple[str, str], syn.Decl | None] = {}
        for d in f.decls:
            if not isinstance(d, syn.VariantDecl):
                own.setdefault(d.key, None if isinstance(d, syn.DropDecl) else d)
        for key, d in own.items():
            if d is None:
                out.pop(key, None)
            else:
                out[key] = d
    return out
