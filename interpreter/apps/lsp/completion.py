"""Completion: what the grammar accepts at the cursor, and the names that fit there.

The declaration around the cursor, up to the word being typed, is fed to the project's
LALR parser; the terminals it accepts next give the keywords (at the start of a line, the
declaration keywords; after `move own disc`, the motions), and where it accepts a NAME the
declared names that can stand there are offered: ply rules in a turn and in `last_ply(...)`,
pieces after `move`, `own`, `setup`, players after `owner`, directions after a motion, and
in expressions every name of the game (pieces, regions, variables, players, relations,
goals, the built-in functions, the board's cells, directions and built-in regions).
"""

from __future__ import annotations

import re
from functools import lru_cache

from lark import Token
from lark.exceptions import LarkError
from lsprotocol import types

from dsl import constructs
from dsl import syntax as syn
from dsl.diagnostics import source_lines
from dsl.lark_parser import grammar_parser, keywords_of
from dsl.load import bundled_names
from dsl.tokens import LEXICAL, tokens

from interpreter.apps.lsp.documents import Analysis, fits
from interpreter.apps.lsp.positions import Units, from_position, utf16
from interpreter.apps.lsp.words import namespaces

CK = types.CompletionItemKind
ITEM_KINDS = {"piece": CK.Class, "region": CK.Module, "built-in region": CK.Module, "var": CK.Variable,
              "ply": CK.Method, "end": CK.Event, "player": CK.EnumMember, "relation": CK.Function,
              "goal": CK.Value, "cell": CK.Value, "direction": CK.Constant, "function": CK.Function,
              "keyword": CK.Keyword}
_PARTIAL = re.compile(r"[A-Za-z_][A-Za-z0-9_']*$")
_BASE = re.compile(r'^(?:new\s+)?variant\s+of\s+"[^"]*$')
_NEW_NAME = {"PLY", "PIECE", "REGION", "VAR", "END", "RELATION", "GOAL"}  # `ply NAME`: a new name
_PIECES_AFTER = {"OWN", "OPPONENTS", "MOVE", "ON"}  # and a construct that is a ply's action (`place`)
_PLAYERS_AFTER = {"OWNER", "OF", "TO"}
_DIRECTIONS_AFTER = {"BY"}  # and a motion's keyword, or its number (`push 2`)


@lru_cache(maxsize=1)
def construct_terminals() -> tuple[frozenset[str], frozenset[str]]:
    """The grammar's terminals of the registry's keywords (dsl/constructs): (the motions',
    the ply actions' such as `place`)."""
    by_word = {t.pattern.value: t.name for t in grammar_parser().terminals if t.pattern.type == "str"}
    return (frozenset(by_word[k] for k in constructs.motion_keywords()),
            frozenset(by_word[k] for k in constructs.action_keywords()))


def completions(analysis: Analysis, text: str, pos: types.Position,
                units: Units = utf16) -> list[types.CompletionItem]:
    """The completion items at a position of a document (none in a text too large to load)."""
    if not fits(text):
        return []
    line, col = from_position(text, pos, units)
    lines = source_lines(text)
    before = lines[line - 1][:col - 1] if 0 < line <= len(lines) else ""
    if _BASE.match(before):
        return [_item(n, "ruleset", CK.File) for n in bundled_names()]
    if _in_comment_or_string(before):
        return []
    partial = _PARTIAL.search(before)
    prefix = declaration_before(lines, line, col - (len(partial.group()) if partial else 0))
    parser = grammar_parser().parse_interactive(prefix)
    toks: list[Token] = []
    try:
        toks.extend(parser.iter_parse())
        accepts = parser.accepts()
    except LarkError:  # the text before the cursor does not parse: offer everything
        return _keyword_items(set(tokens().keywords), analysis) + _name_items(analysis, _every_kind())
    items = _keyword_items(set(keywords_of(accepts)) | _phrases(accepts), analysis)
    if "NAME" in accepts:
        items += _name_items(analysis, kinds_after(toks))
    if toks and toks[-1].type == "OWNER":  # `owner each` is a name to the grammar
        items.append(_item("each", "keyword", CK.Keyword, "2"))
    return items


def _in_comment_or_string(before: str) -> bool:
    """Whether the cursor, after `before` on its line, is in a comment or a string."""
    rest = re.sub(r'"[^"]*"', "", before)
    return "#" in rest or rest.count('"') % 2 == 1


def declaration_before(lines: list[str], line: int, col: int) -> str:
    """The text of the declaration around a 1-based position, up to that position: from the
    last line above starting in column 1 (a line starting there starts a declaration)."""
    current = lines[line - 1][:col - 1] if 0 < line <= len(lines) else ""
    if not current or not current[0].isspace():
        return current
    start = line - 1
    while start > 0:
        start -= 1
        text = lines[start]
        if text and not text[0].isspace() and not text.startswith("#"):
            return "\n".join(lines[start:line - 1] + [current])
    return current


def _phrases(accepts: set[str]) -> set[str]:
    """The keywords given as regular expressions (`no legal ply`), as written."""
    found = set()
    for t in grammar_parser().terminals:
        if t.name in accepts and t.name not in LEXICAL and t.pattern.type == "re":
            words = re.findall(r"(?<![\\])\b[a-z]{2,}\b", t.pattern.value)
            if words:
                found.add(" ".join(words))
    return found


def kinds_after(toks: list[Token]) -> set[str]:
    """The kinds of names that can stand after these tokens (empty where a new name goes)."""
    kinds = [t.type for t in toks if t.type != "NEW"]
    last = toks[-1].type if toks else None
    if namespaces(toks + [Token("NAME", "x")])[-1] == "ply":
        return {"ply"}
    if len(kinds) == 1 and kinds[0] in _NEW_NAME:
        return set()
    if kinds[:1] == ["DROP"] and len(kinds) == 2:
        return {str(toks[-1])}
    motions, actions = construct_terminals()
    if last in _PIECES_AFTER or last in actions or kinds == ["SETUP"]:
        return {"piece"}
    if last in _PLAYERS_AFTER:
        return {"player"}
    if last in _DIRECTIONS_AFTER or last in motions or (
            last == "NUMBER" and len(toks) > 1 and toks[-2].type in motions):
        return {"direction"}
    return _every_kind()


def _every_kind() -> set[str]:
    return {"piece", "region", "built-in region", "var", "player", "relation", "goal", "cell",
            "direction", "function"}


def _item(label: str, detail: str, kind: types.CompletionItemKind, order: str = "1") -> types.CompletionItem:
    return types.CompletionItem(label=label, kind=kind, detail=detail, sort_text=order + label)


def _keyword_items(words: set[str], analysis: Analysis) -> list[types.CompletionItem]:
    own = analysis.files[0].decls if analysis.files else []
    if not any(isinstance(d, syn.VariantDecl) for d in own):
        words = words - {"new", "drop"}  # only a variant adds to and drops from its base
    return [_item(w, "keyword", CK.Keyword, "2") for w in sorted(words)]


def _name_items(analysis: Analysis, kinds: set[str]) -> list[types.CompletionItem]:
    """The names of these kinds, declared or brought by the board, each once."""
    named = [(d.name, d.kind) for d in analysis.declared if d.kind in kinds]
    b = analysis.board
    if b is not None:
        named += [(n, "cell") for n in b.names if "cell" in kinds]
        named += [(n, "direction") for n in b.directions + list(b.groups) if "direction" in kinds]
        named += [(n, "built-in region") for n in analysis.builtin_regions if "built-in region" in kinds]
    if "function" in kinds:
        named += [(f, "function") for f in tokens().functions]
    seen: dict[str, types.CompletionItem] = {}
    for name, kind in named:
        order = "3" if kind == "cell" else "1"
        seen.setdefault(name, _item(name, "variable" if kind == "var" else kind, ITEM_KINDS[kind], order))
    return list(seen.values())
