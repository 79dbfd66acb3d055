"""The TextMate grammar of `.game` files (editors/rulecraft.tmLanguage.json, for VS Code and
other editors), made from the grammar's token lists as the Pygments lexer is: the keywords
of the motions and effects among them come from the registry of constructs (dsl/constructs),
whose alternations dsl/lark_parser.py adds to the grammar (tests/test_registry.py).

    python -m interpreter.apps.textmate > editors/rulecraft.tmLanguage.json
"""

from __future__ import annotations

import json
import re

from dsl.tokens import tokens

_START, _END = r"(?<![A-Za-z0-9_'])", r"(?![A-Za-z0-9_'])"


def _alternatives(items: tuple[str, ...]) -> str:
    return "|".join(re.escape(w) for w in sorted(items, key=lambda w: (-len(w), w)))


def textmate_grammar() -> dict:
    """The grammar as a JSON-ready dict (scope source.rulecraft)."""
    t = tokens()
    # the regexps of the grammar are Python's; the two used here read the same in Oniguruma
    patterns = [
        {"name": "comment.line.number-sign.rulecraft", "match": t.comment},
        {"name": "string.quoted.double.rulecraft", "match": t.string},
        {"name": "support.function.rulecraft",
         "match": f"{_START}(?:{_alternatives(t.functions)})(?=\\s*\\()"},
        {"name": "constant.language.rulecraft", "match": f"{_START}(?:{_alternatives(t.constants)}){_END}"},
        {"name": "keyword.control.rulecraft", "match": f"{_START}(?:{_alternatives(t.keywords)}){_END}"},
        {"name": "variable.other.rulecraft", "match": t.possessive},
        {"name": "variable.other.rulecraft", "match": t.name},
        {"name": "constant.numeric.rulecraft", "match": t.number},
        {"name": "keyword.operator.rulecraft", "match": _alternatives(t.operators)},
    ]
    return {"$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
            "name": "rulecraft", "scopeName": "source.rulecraft", "fileTypes": ["game"],
            "patterns": patterns}


def main() -> None:
    print(json.dumps(textmate_grammar(), indent=2))


if __name__ == "__main__":
    main()
