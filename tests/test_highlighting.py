"""The Pygments lexer and the TextMate grammar of `.game` files (both from dsl.tokens)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

pygments = pytest.importorskip("pygments")

from pygments.token import Comment, Error, Keyword, Name, Number, Operator, Punctuation, String  # noqa: E402

from dsl.load import bundled_dir, bundled_names  # noqa: E402
from dsl.tokens import tokens  # noqa: E402
from interpreter.apps.pygments_lexer import GameLexer  # noqa: E402
from interpreter.apps.textmate import textmate_grammar  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def bundled_path(name: str) -> Path:
    return Path(bundled_dir()) / f"{name}.game"


def lexed(text: str) -> list[tuple]:
    return [(t, v) for t, v in GameLexer().get_tokens(text) if not v.isspace()]


@pytest.mark.parametrize("name", bundled_names())
def test_every_bundled_ruleset_lexes_without_an_error_token(name):
    text = Path(bundled_path(name)).read_text()
    toks = list(GameLexer().get_tokens(text))
    assert [v for t, v in toks if t in Error] == []
    assert "".join(v for _, v in toks) == (text if text.endswith("\n") else text + "\n")


def test_the_token_classes_of_a_ruleset():
    got = lexed('game "Tri" # a comment\n'
                "ply slide: move own piece slide onto empty where closer(here, from, opponent's piece)\n"
                "link a1 -- b2\nboard square 5 x 5\nend e: Enemy wins if count(enemy) <= 2\n")
    assert got[:3] == [(Keyword, "game"), (String.Double, '"Tri"'), (Comment.Single, "# a comment")]
    assert (Name.Builtin, "closer") in got and (Name.Builtin, "count") in got
    assert (Keyword.Constant, "here") in got and (Keyword.Constant, "empty") in got
    assert (Keyword, "opponent's") in got  # one word, apostrophe and all
    assert (Operator, "--") in got and (Operator, "<=") in got and (Punctuation, ":") in got
    assert (Name, "a1") in got and (Number.Integer, "5") in got and (Keyword, "x") in got


def test_every_keyword_and_operator_of_the_grammar_is_highlighted():
    t = tokens()
    assert {"game", "ply", "move", "slide", "onto", "where", "then", "no", "legal"} <= set(t.keywords)
    for word in t.keywords:
        assert lexed(word) == [(Keyword.Constant if word in t.constants else Keyword, word)], word
        if "'" not in word:  # whole words only (a name has no apostrophe)
            assert lexed(word + "z") == [(Name, word + "z")], word
    for op in t.operators:
        assert lexed(op) in ([(Operator, op)], [(Punctuation, op)]), op
    for f in t.functions:
        assert lexed(f + "(") == [(Name.Builtin, f), (Punctuation, "(")]


def test_the_docs_rulecraft_blocks_lex_cleanly():
    blocks = [b for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
              for b in re.findall(r"```rulecraft\n(.*?)```", doc.read_text(), re.S)]
    assert len(blocks) >= 20
    for b in blocks:
        assert [v for t, v in GameLexer().get_tokens(b) if t in Error] == [], b


def test_pygmentize_finds_the_lexer_by_its_entry_point():
    out = subprocess.run([sys.executable, "-m", "pygments", "-l", "rulecraft", "-f", "html",
                          str(bundled_path("three-musketeers"))], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert '<span class="k">game</span>' in out.stdout and '<span class="nb">line</span>' in out.stdout


def test_the_textmate_grammar_in_editors_is_the_generated_one():
    saved = json.loads((ROOT / "editors" / "rulecraft.tmLanguage.json").read_text())
    assert saved == textmate_grammar()
    keywords = next(p["match"] for p in saved["patterns"] if p["name"] == "keyword.control.rulecraft")
    # the same words as the lexer's, and whole words only
    pattern = re.compile(keywords)
    for word in tokens().keywords:
        assert pattern.fullmatch(word) and not pattern.fullmatch(word + "z")
