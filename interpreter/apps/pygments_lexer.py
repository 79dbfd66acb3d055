"""A Pygments lexer for `.game` files, registered under Pygments' `pygments.lexers` entry
point: after `pip install rulecraft`, `pygmentize -l rulecraft FILE` highlights a ruleset.

Its word lists and operators come from the grammar (`dsl.tokens`), the motions' and effects'
keywords from the registry of constructs through it (dsl/constructs); the TextMate grammar in
editors/ is made from the same lists (`interpreter/apps/textmate.py`).
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, words
from pygments.token import (Comment, Keyword, Name, Number, Operator, Punctuation, String,
                            Whitespace)

from dsl.tokens import tokens

_T = tokens()
WORD_END = r"(?![A-Za-z0-9_'])"  # a keyword is a whole word: `endgame` is a name
WORD_START = r"(?<![A-Za-z0-9_'])"
PUNCTUATION = frozenset(",:()[]")


class GameLexer(RegexLexer):
    """rulecraft's rulesets: keywords, built-in functions, names, numbers, strings, comments."""

    name = "rulecraft"
    aliases = ["rulecraft"]
    filenames = ["*.game"]
    mimetypes = ["text/x-rulecraft"]
    url = "https://pypi.org/project/rulecraft/"

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (_T.comment, Comment.Single),
            (_T.string, String.Double),
            (words(_T.functions, prefix=WORD_START, suffix=r"(?=\s*\()"), Name.Builtin),
            (words(_T.constants, prefix=WORD_START, suffix=WORD_END), Keyword.Constant),
            (words(_T.keywords, prefix=WORD_START, suffix=WORD_END), Keyword),
            (_T.possessive, Name),
            (_T.name, Name),
            (_T.number, Number.Integer),
            (words(tuple(o for o in _T.operators if o not in PUNCTUATION)), Operator),
            (words(tuple(PUNCTUATION)), Punctuation),
        ],
    }
