"""Text of a .game file -> a `Source` of model declarations, or diagnostics.

The file is cut into declarations (each starts in column 1, continues on indented
lines) and each is parsed on its own, so every syntax error of a file is reported.
The parser itself is in lark_parser, the tree -> syntax tree transformer in to_syntax, the
diagnostics of what does not parse in syntax_errors, the reading of files in file_text.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from lark.exceptions import UnexpectedInput, VisitError

from dsl import lark_parser
from dsl import syntax as syn
from dsl.diagnostics import MAX_DIAGNOSTICS, Diagnostic, RulesetError
from dsl.file_text import BOM, MAX_FILE_BYTES, UnreadableFile, checked_text, read_text
from dsl.lark_parser import WORD, declaration_keywords, expression_keywords, grammar_parser
from dsl.syntax_errors import (CONTROL, MAX_BRACKETS, MAX_NESTING, TERMINAL_WORDS,
    control_character, syntax_diagnostic, too_deep, too_many_brackets)
from dsl.to_syntax import MAX_NUMBER, NumberTooLarge, ToSyntax

# The public names: those of the modules the parser was split into are imported, so that
# code importing them from here finds them as before.
__all__ = ["BOM", "CONTROL", "MAX_BRACKETS", "MAX_FILE_BYTES", "MAX_NESTING", "MAX_NUMBER", "NAMED_KINDS",
           "TERMINAL_WORDS", "WORD", "ParsedSource", "UnreadableFile", "declaration_keywords",
           "expression_keywords", "grammar_parser", "intended_key", "parse_partial", "parse_source",
           "checked_text", "read_text", "split_declarations"]

_parser_cache = lark_parser.parser_cache  # tests/test_hardening.py calls it here

# Declarations that name something (their key is (keyword, NAME)).
NAMED_KINDS = ("region", "piece", "var", "ply", "end", "relation", "goal", "direction")


def split_declarations(text: str) -> list[tuple[int, str]]:
    """Cut the text into (first line number, declaration text) at lines starting in column 1.

    Lines are cut at `\n` only (a `\r` before it dropped), as the parser counts them.
    """
    chunks: list[tuple[int, list[str]]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if line.endswith("\r"):
            line = line[:-1]
        stripped = line.strip()
        starts = bool(line) and not line[0].isspace() and not stripped.startswith("#")
        if starts or (stripped and not stripped.startswith("#") and not chunks):
            chunks.append((number, [line]))
        elif chunks:
            chunks[-1][1].append(line)
    return [(first, "\n".join(lines)) for first, lines in chunks]


@dataclass
class ParsedSource(syn.Source):
    """A file parsed as far as it goes: the declarations that parsed, and the others.

    `errors` are the syntax diagnostics; `broken` holds, for each declaration that did not
    parse, the key (syntax.py) it would have had as far as its text shows: ("ply", "hop"),
    ("board", ""), or ("", NAME) when not even its keyword is recognisable. The checker
    uses these keys not to report what follows from the missing declarations.
    """

    errors: list[Diagnostic] = field(default_factory=list)
    broken: list[tuple[str, str]] = field(default_factory=list)
    stopped: bool = False  # parsing stopped after MAX_DIAGNOSTICS errors: the rest is unread


def parse_source(text: str, path: str) -> syn.Source:
    """Parse a whole file; raises RulesetError with every syntax error found."""
    source = parse_partial(text, path)
    if source.errors:
        raise RulesetError(source.errors, {path: source.text}, stopped=source.stopped)
    return source


def parse_partial(text: str, path: str) -> ParsedSource:
    """Parse every declaration of a file, keeping those that parse and noting the others.

    A byte-order mark at the start is dropped (the returned source's `text` is without it).
    After MAX_DIAGNOSTICS errors the rest of the file is left unread (`stopped`).
    """
    text = text.removeprefix(BOM)
    diagnostics: list[Diagnostic] = []
    decls: list[syn.Decl] = []
    broken: list[tuple[str, str]] = []
    for first_line, chunk in split_declarations(text):
        if len(diagnostics) >= MAX_DIAGNOSTICS:
            return ParsedSource(path, text, decls, diagnostics, broken, stopped=True)
        parsed = _parse_declaration(chunk, path, first_line)
        if isinstance(parsed, Diagnostic):
            diagnostics.append(parsed)
            broken.append(intended_key(chunk))
        else:
            decls.append(parsed)
    return ParsedSource(path, text, decls, diagnostics, broken)


def _parse_declaration(chunk: str, path: str, first_line: int) -> syn.Decl | Diagnostic:
    """The declaration a chunk of text makes, or the diagnostic of why it makes none."""
    refused = (control_character(chunk, path, first_line)
               or too_many_brackets(chunk, path, first_line))
    if refused:
        return refused
    try:
        tree = grammar_parser().parse(chunk)
    except UnexpectedInput as e:
        return syntax_diagnostic(e, chunk, path, first_line)
    deep = too_deep(tree, path, first_line)
    if deep:
        return deep
    try:
        return ToSyntax(path, first_line - 1).transform(tree)
    except (VisitError, NumberTooLarge) as raised:
        # Lark wraps what a transformer's method raises, not what its __default__ (a
        # construct's builder) does
        e = raised.orig_exc if isinstance(raised, VisitError) else raised
        if not isinstance(e, NumberTooLarge):
            raise
        return Diagnostic(e.span, f"number {e.text} is larger than the limit of {MAX_NUMBER:,}")


_TOKEN = re.compile(r'"[^"\n]*"|[A-Za-z_][A-Za-z0-9_]*|--|#[^\n]*|\S')


def intended_key(chunk: str) -> tuple[str, str]:
    """The key of the declaration a chunk of text would make, read from its first words.

    For a chunk that does not parse: `ply hop: move own piece hop` -> ("ply", "hop");
    `boadr square 3` -> ("board", "") (a misspelt keyword is taken for the nearest one).
    """
    words = [w for w in _TOKEN.findall(chunk) if not w.startswith("#")]
    if words[:1] == ["new"]:
        words = words[1:]
    if not words:
        return ("", "")
    keyword, rest = words[0], words[1:]
    if keyword not in declaration_keywords():
        close = difflib.get_close_matches(keyword, declaration_keywords(), n=1)
        if not close:
            return ("", rest[0] if rest and WORD.fullmatch(rest[0]) else "")
        keyword = close[0]
    name = rest[0] if rest and WORD.fullmatch(rest[0]) else ""
    if keyword == "first":
        return ("turn", "first")
    if keyword in NAMED_KINDS:
        return (keyword, name)
    if keyword == "setup":
        if name == "board":
            return ("setup", "board")
        piece = name
        owner = rest[2] if len(rest) > 2 and rest[1] == "of" and WORD.fullmatch(rest[2]) else None
        return ("setup", piece + (f"/{owner}" if owner else ""))
    if keyword == "link":
        if len(rest) >= 3 and rest[1] == "--":
            return ("link", "--".join(sorted((rest[0], rest[2]))))
        return ("link", "")
    if keyword == "remove":
        cells = []
        for i, w in enumerate(rest):
            if i % 2 == 0 and WORD.fullmatch(w):
                cells.append(w)
            elif i % 2 == 0 or w != ",":
                break
        return ("remove", ",".join(cells))
    return (keyword, "")
