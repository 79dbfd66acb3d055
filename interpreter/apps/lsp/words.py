"""The words of a `.game` file as the grammar reads them: each token with its terminal, its
span and what it is (a name in use, a keyword, ...), for hovers, definitions and references.

Each declaration is lexed and parsed on its own by the project's parser (as the loader
does), so `slide` in `ply slide:` is a name and in `move own piece slide` a keyword. Past a
syntax error the rest of the declaration is only cut into words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Token, Tree
from lark.exceptions import LarkError

from dsl import syntax as syn
from dsl.lark_parser import grammar_parser
from dsl.parse import split_declarations
from dsl.syntax_errors import control_character, too_many_brackets
from dsl.tokens import tokens

# Past a syntax error: strings and comments (skipped), words, anything else.
_REST = re.compile(r"\"[^\"\n]*\"?|#[^\n]*|([A-Za-z_][A-Za-z0-9_']*)")
# The functions whose arguments name ply rules.
PLY_FUNCTIONS = ("last_ply", "undoes")


@dataclass(frozen=True)
class Word:
    """One token: `role` is "name" (a name declared or in use), "label" (a NAME that names
    nothing declared: a piece's symbol, the board's shape and options), "keyword" or
    "other" (numbers, strings, punctuation). `namespace` is "ply" or "end" where only the
    names of ply or end rules can stand (`turn:`, `last_ply(...)`, `drop end ...`), else ""."""

    text: str
    type: str  # the grammar's terminal (NAME, SLIDE, ...); "" past a syntax error
    span: syn.Span
    role: str
    namespace: str = ""


def words_of(text: str, path: str) -> list[Word]:
    """Every word of a file, in order."""
    found: list[Word] = []
    for first_line, chunk in split_declarations(text):
        found.extend(_chunk_words(chunk, path, first_line))
    return found


def _span(path: str, first_line: int, tok: Token) -> syn.Span:
    return syn.Span(path, tok.line + first_line - 1, tok.column,
                  tok.end_line + first_line - 1, tok.end_column)


def _chunk_words(chunk: str, path: str, first_line: int) -> list[Word]:
    """The words of one declaration (refused text, as the loader refuses it, is only cut)."""
    if control_character(chunk, path, first_line) or too_many_brackets(chunk, path, first_line):
        return _rest(chunk, 0, path, first_line)
    toks: list[Token] = []
    tree = None
    parser = grammar_parser().parse_interactive(chunk)
    try:
        for tok in parser.iter_parse():
            toks.append(tok)
        tree = parser.feed_eof()
    except LarkError:
        pass
    labels = _labels(tree) if isinstance(tree, Tree) else set()
    words = [Word(str(t), t.type, _span(path, first_line, t), _role(t, labels), space)
             for t, space in zip(toks, namespaces(toks))]
    if tree is None:  # a syntax error: the rest of the declaration as plain words
        end = toks[-1].end_pos if toks else 0
        words += _rest(chunk, end, path, first_line)
    return words


def _role(tok: Token, labels: set[tuple[int, int]]) -> str:
    if tok.type == "NAME":
        return "label" if (tok.line, tok.column) in labels else "name"
    return "keyword" if re.fullmatch(r"[a-z_][a-z_']*( [a-z]+)*", " ".join(str(tok).split())) \
        else "other"


def _labels(tree: Tree) -> set[tuple[int, int]]:
    """Where the NAME tokens stand that name nothing declared: symbols, the board's words."""
    out = set()
    for sub in tree.iter_subtrees():
        if sub.data in ("symbol", "board_decl"):
            parts = sub.children + [t for c in sub.children if isinstance(c, Tree) for t in c.children]
            out |= {(t.line, t.column) for t in parts if isinstance(t, Token) and t.type == "NAME"}
    return out


def namespaces(toks: list[Token]) -> list[str]:
    """For each token, "ply" or "end" where only such rules' names can stand, else ""."""
    types = [t.type for t in toks if t.type != "NEW"]
    if types[:1] in (["FIRST"], ["TURN"]):
        return ["ply"] * len(toks)  # a turn's phases name ply rules only
    out: list[str] = []
    depth = 0  # parentheses open inside a call of one of PLY_FUNCTIONS
    for i, t in enumerate(toks):
        if depth:
            depth += {"LPAR": 1, "RPAR": -1}.get(t.type, 0)
        elif t.type == "LPAR" and i and str(toks[i - 1]) in PLY_FUNCTIONS:
            depth = 1
        dropped = i == 2 and toks[0].type == "DROP" and str(toks[1]) in ("ply", "end")
        out.append(str(toks[1]) if dropped else "ply" if depth else "")
    return out


def _rest(chunk: str, start: int, path: str, first_line: int) -> list[Word]:
    """The words of a chunk from offset `start` on, with no grammar: keywords and names."""
    keywords = set(tokens().keywords)
    out = []
    line, line_start, at = first_line, 0, 0  # counted as the matches go: linear in the chunk
    for mo in _REST.finditer(chunk, start):
        word = mo.group(1)
        if word is None:
            continue
        newlines = chunk.count("\n", at, mo.start())
        if newlines:
            line += newlines
            line_start = chunk.rfind("\n", at, mo.start()) + 1
        at = mo.start()
        col = mo.start() - line_start + 1
        out.append(Word(word, "", syn.Span(path, line, col, line, col + len(word)),
                        "keyword" if word in keywords else "name"))
    return out
