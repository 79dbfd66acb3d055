"""The language's tokens for highlighters (the Pygments lexer, the TextMate grammar), read
from the grammar's terminals, so a keyword added to the grammar is highlighted at once."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from dsl.constructs.functions import SIGNATURES
from dsl.lark_parser import WORD, expression_keywords, grammar_parser

# the terminals that are the lexical classes themselves, not keywords or operators
LEXICAL = {"NAME", "NUMBER", "STRING", "COMMENT", "WS"}
_PUNCTUATION = "!#$%&()*+,-./:;<=>?@[]^{|}~"


@dataclass(frozen=True)
class Tokens:
    """What a highlighter needs: word lists, operators (longest first), the lexical regexps."""

    keywords: tuple[str, ...]    # every word of the grammar ("opponent's" included)
    constants: tuple[str, ...]   # the keywords that are values of their own (empty, here, ...)
    functions: tuple[str, ...]   # the built-in functions (count, line, closer, ...)
    operators: tuple[str, ...]
    name: str
    possessive: str  # a player's pieces: `Red's`
    number: str
    string: str
    comment: str


@lru_cache(maxsize=1)
def tokens() -> Tokens:
    """The token lists of the packaged grammar."""
    terms = grammar_parser().terminals
    words, ops, regexps = set(), set(), []
    for t in terms:
        value = t.pattern.value
        if t.pattern.type == "str":
            (words if WORD.fullmatch(value) else ops).add(value)
        elif t.name not in LEXICAL:
            regexps.append(re.compile(t.pattern.to_regexp()))
            # a phrase such as `no legal ply`: its words
            words.update(w for w in re.findall(r"(?<![\\])\b[a-z]{2,}\b", value))
    for a, b in product(_PUNCTUATION, [""] + list(_PUNCTUATION)):  # operators given as regexps
        if any(r.fullmatch(a + b) for r in regexps):
            ops.add(a + b)
    pattern = {t.name: t.pattern.value for t in terms}
    constants = tuple(sorted(set(expression_keywords()) & words))
    return Tokens(tuple(sorted(words)), constants, tuple(sorted(SIGNATURES)),
                  tuple(sorted(ops, key=lambda o: (-len(o), o))), pattern["NAME"],
                  pattern["POSSESSIVE"], pattern["NUMBER"], pattern["STRING"], pattern["COMMENT"])
