"""The grammar's LALR parser (built once, its tables cached on disk) and the grammar's keywords.

The grammar is grammar/game.lark with the alternations of the constructs of the registry
(dsl/constructs) added: the registry is the one list of the motions and effects."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable
from functools import lru_cache
from importlib import resources

from lark import Lark
from lark.lark import PostLex

from dsl import constructs

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")  # a keyword, as opposed to punctuation


class _WholeWords(PostLex):
    """Makes every lexer state also try NAME, so keywords match whole words only.

    Without it, a state that expects only a keyword would read `winz` as `win` + `z`.
    """

    always_accept = ("NAME",)

    def process(self, stream):
        return stream


def construct_alternations() -> str:
    """The grammar's alternations of constructs, from the registry (dsl/constructs): each
    construct is the rule of grammar/game.lark named as it (its keyword, for a motion); `?`
    inlines the alternation, so that the parse tree holds the construct's own rule."""
    actions = ("move_action",) + constructs.action_keywords()
    return (f"?ply_action: {' | '.join(actions)}\n"
            f"?motion: {' | '.join(constructs.motion_keywords())}\n"
            f"?effect: {' | '.join(constructs.EFFECTS)}\n")


def grammar_text() -> str:
    """The packaged grammar, with the alternations of the registry's constructs."""
    text = resources.files("grammar").joinpath("game.lark").read_text(encoding="utf-8")
    return text + "\n// From the registry of constructs (dsl/constructs):\n" + construct_alternations()


@lru_cache(maxsize=1)
def grammar_parser() -> Lark:
    """The LALR parser built from the packaged grammar: built once per process, and its
    tables kept between runs in the user's cache folder (building them is most of the
    time a short command takes)."""
    text = grammar_text()
    return Lark(text, parser="lalr", start="start", propagate_positions=True,
                maybe_placeholders=True, postlex=_WholeWords(), cache=parser_cache(text))


def parser_cache(grammar: str) -> str | bool:
    """Where Lark keeps the parser's tables: a file of the user's own cache folder (made
    private), named by the grammar's and Lark's versions; False (no cache) if there is
    none to be had or RULECRAFT_NO_CACHE is set."""
    if os.environ.get("RULECRAFT_NO_CACHE"):
        return False
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "rulecraft")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if not os.access(folder, os.W_OK) or os.stat(folder).st_uid != os.getuid():
            return False
    except (OSError, AttributeError):
        return False
    import lark

    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()[:16]
    return os.path.join(folder, f"grammar-{digest}-lark{lark.__version__}.cache")


def keywords_of(terminal_names: Iterable[str]) -> tuple[str, ...]:
    """The words of the string terminals among `terminal_names` (no punctuation, no regexps)."""
    terminals = {t.name: t for t in grammar_parser().terminals}
    words = {terminals[n].pattern.value for n in terminal_names
             if n in terminals and terminals[n].pattern.type == "str"
             and WORD.fullmatch(terminals[n].pattern.value)}
    return tuple(sorted(words))


@lru_cache(maxsize=1)
def declaration_keywords() -> tuple[str, ...]:
    """The keywords a declaration can begin with: what the parser accepts in its start state."""
    return keywords_of(grammar_parser().parse_interactive("").accepts())


@lru_cache(maxsize=1)
def expression_keywords() -> tuple[str, ...]:
    """The keywords that are values of their own in an expression (empty, here, mover, ...)."""
    return keywords_of(sym.name for rule in grammar_parser().rules if rule.origin.name == "atom"
                       for sym in rule.expansion if sym.is_term)
