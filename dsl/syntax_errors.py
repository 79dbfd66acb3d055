"""Diagnostics of a declaration that does not parse: text refused before the parser runs
(control characters, nesting too deep) and the parser's errors, told in a designer's words."""

from __future__ import annotations

import difflib
import re

from lark import Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from dsl import syntax as syn
from dsl.diagnostics import Diagnostic, clip
from dsl.lark_parser import declaration_keywords, grammar_parser, keywords_of

MAX_NESTING = 60  # depth of one expression's tree
MAX_BRACKETS = 100  # parentheses and brackets open at once (checked before the parser runs)
# Characters a ruleset may not hold (tabs and line ends aside): every C0 and C1 control
# character and DEL, the Unicode line and paragraph separators, and the bidirectional
# overrides and isolates, which would make the text read differently from how it parses.
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

# What a designer calls each terminal, for "expected ..." messages.
TERMINAL_WORDS = {
    "NAME": "a name",
    "NUMBER": "a number",
    "STRING": 'a quoted string (e.g. "Three Musketeers")',
    "CMP": "a comparison (==, <, >=, ...)",
    "ADD_OP": "an operator",
    "MUL_OP": "an operator",
    "NO_LEGAL_PLY": "'no legal ply'",
    "OPPONENTS": "'opponent's'",
    "$END": "the end of the declaration",
}


def _position(chunk: str, pos: int, first_line: int) -> tuple[int, int]:
    """The file line and column of offset `pos` of a chunk that starts at `first_line`."""
    return first_line + chunk.count("\n", 0, pos), pos - chunk.rfind("\n", 0, pos)


def _one_character(path: str, line: int, col: int) -> syn.Span:
    return syn.Span(path, line, col, line, col + 1)


def control_character(chunk: str, path: str, first_line: int) -> Diagnostic | None:
    """The first character of CONTROL in a declaration's text, if any."""
    found = CONTROL.search(chunk)
    if found is None:
        return None
    line, col = _position(chunk, found.start(), first_line)
    return Diagnostic(_one_character(path, line, col),
                      f"control character U+{ord(found.group()):04X} is not allowed; a ruleset is "
                      f"plain text (tabs and line ends aside)",
                      "delete it (most editors do not show it; it may have come with pasted text)")


_BRACKETS = re.compile(r'[(\[)\]]|"[^"\n]*"?|#[^\n]*')


def too_many_brackets(chunk: str, path: str, first_line: int) -> Diagnostic | None:
    """Parentheses and brackets open more than MAX_BRACKETS deep (outside strings and
    comments): found before the parser runs, so that neither it nor the recursive walks
    over its trees see them."""
    if chunk.count("(") + chunk.count("[") <= MAX_BRACKETS:
        return None
    depth = 0
    for found in _BRACKETS.finditer(chunk):
        c = found.group()
        if c in "([":
            depth += 1
            if depth > MAX_BRACKETS:
                line, col = _position(chunk, found.start(), first_line)
                return Diagnostic(_one_character(path, line, col),
                                  f"{'parentheses' if c == '(' else 'brackets'} nested more than "
                                  f"{MAX_BRACKETS} deep",
                                  "split the expression into regions or simpler rules")
        elif c in ")]":
            depth = max(0, depth - 1)
    return None


def too_deep(tree: Tree, path: str, first_line: int) -> Diagnostic | None:
    """A node of the parse tree deeper than MAX_NESTING, which the recursive walks after
    the parser (the transformer, the checker) must not meet."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            meta = node.meta
            line = getattr(meta, "line", 1) + first_line - 1
            col = getattr(meta, "column", 1)
            return Diagnostic(_one_character(path, line, col),
                              f"expression nested more than {MAX_NESTING} deep",
                              "split it into regions or simpler rules")
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, depth + 1))
    return None


# ------------------------------------------------------------------ the parser's errors

def _expected_words(expected: set[str]) -> list[str]:
    """What the parser expected, in words: keywords quoted first, then terminals described."""
    terminals = {t.name: t for t in grammar_parser().terminals}
    words = set()
    for name in expected:
        if name in TERMINAL_WORDS:
            words.add(TERMINAL_WORDS[name])
        elif name in terminals and terminals[name].pattern.type == "str":
            words.add(f"'{terminals[name].pattern.value}'")
        else:
            words.add(name.lower())
    return sorted(words, key=lambda w: (not w.startswith("'"), w))


def _acceptable(e: UnexpectedInput) -> set[str]:
    """The terminals the parser would have accepted where it stopped.

    Asked of the parser itself: an LALR state's lookaheads (`e.expected`) also hold tokens
    that would fail a few reductions later.
    """
    parser = getattr(e, "interactive_parser", None)
    if parser is not None:
        accepted = set(parser.accepts())
        if getattr(getattr(e, "token", None), "type", None) == "$END":
            accepted.discard("$END")
        if accepted:
            return accepted
    return set(getattr(e, "expected", None) or [])


def _join(words: list[str]) -> str:
    """`a, b or c`, at most eight words shown."""
    if len(words) > 8:
        words = words[:7] + ["..."]
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def syntax_diagnostic(e: UnexpectedInput, chunk: str, path: str, first_line: int) -> Diagnostic:
    """The parser's error in a declaration's text (`chunk`, from line `first_line` of `path`)."""
    line = (e.line if e.line and e.line > 0 else chunk.count("\n") + 1) + first_line - 1
    col = e.column if e.column and e.column > 0 else 1
    hint = None
    if isinstance(e, UnexpectedCharacters):
        char = chunk[e.pos_in_stream] if e.pos_in_stream < len(chunk) else "?"
        message = f"unexpected character {char!r}"
        width = 1
    elif isinstance(e, UnexpectedToken) and e.token.type != "$END":
        message, hint = _unexpected_token(e)
        width = max(1, len(str(e.token)))
    else:
        expected = _acceptable(e)
        message = "the declaration ends too early"
        if expected:
            message += f": expected {_join(_expected_words(expected))}"
        lines = chunk.rstrip().split("\n")
        last = lines[-1] if chunk.strip() else ""
        line = first_line + len(lines) - 1
        col = len(last) + 1
        width = 1
    span = syn.Span(path, line, col, line, col + width)
    return Diagnostic(span, message, hint)


def _unexpected_token(e: UnexpectedToken) -> tuple[str, str | None]:
    """(message, hint) for a token the parser did not expect: at a declaration's start,
    any declaration's keyword would do; elsewhere, what the parser would have taken."""
    tok = e.token
    acceptable = _acceptable(e)
    at_start = e.state is not None and not e.token_history and tok.start_pos == 0
    if at_start or (tok.line == 1 and tok.column == 1):
        message = ("expected a declaration (game, board, players, piece, setup, ply, turn, end, ...), "
                   f"found '{clip(str(tok))}'")
        words = declaration_keywords()
    else:
        message = f"expected {_join(_expected_words(acceptable))}, found '{clip(str(tok))}'"
        words = keywords_of(acceptable)
    close = difflib.get_close_matches(str(tok), words, n=1)
    return message, (f"did you mean '{close[0]}'?" if close else None)
