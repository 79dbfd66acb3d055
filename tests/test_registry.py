"""The registry of constructs (dsl/constructs) is the one list of the motions and effects:
the grammar's alternatives, the editors' support and the fuzz generator agree with it,
and each construct module declares everything the registry needs."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from dsl import constructs, model
from dsl import syntax as syn
from dsl.constructs import (EFFECTS, SYNTAX, VARIANTS, action_keywords, effect_keywords, keywords,
                            motion_keywords)
from dsl.lark_parser import grammar_parser
from dsl.parse import parse_source
from dsl.to_syntax import ToSyntax

ROOT = Path(__file__).resolve().parent.parent


def _one_of(words: list[str]) -> str:
    """`a, b or c`, at most eight words shown: as dsl/syntax_errors.py lists what it expected."""
    if len(words) > 8:
        words = words[:7] + ["..."]
    return ", ".join(words[:-1]) + " or " + words[-1]


# What the parser says where a motion was expected (tests/test_diagnostics.py, ...).
EXPECTED_A_MOTION = "expected " + _one_of([f"'{k}'" for k in sorted(motion_keywords())])


def alternatives(rule: str) -> set[str]:
    """The rules a rule of the parser's grammar is an alternation of."""
    found = set()
    for r in grammar_parser().rules:
        if r.origin.name == rule:
            assert len(r.expansion) == 1 and not r.expansion[0].is_term, r
            found.add(r.expansion[0].name)
    return found


def rule_text(name: str) -> str:
    """The rule of grammar/game.lark named `name`, as written (its first line)."""
    text = (ROOT / "grammar" / "game.lark").read_text(encoding="utf-8")
    found = re.findall(rf"^\??{name}:(.*)$", text, re.M)
    assert len(found) == 1, f"grammar/game.lark: no one rule `{name}`"
    return found[0]


# ------------------------------------------------------------------ the grammar

def test_the_grammars_alternatives_are_the_registrys():
    assert alternatives("motion") == set(motion_keywords()) == {c.name for c in SYNTAX.values() if c.moves}
    assert alternatives("ply_action") == {"move_action"} | set(action_keywords())
    assert alternatives("effect") == set(EFFECTS)


def test_the_grammar_file_leaves_the_alternations_to_the_registry():
    text = (ROOT / "grammar" / "game.lark").read_text(encoding="utf-8")
    assert not re.findall(r"^\??(motion|effect|ply_action):", text, re.M)


def test_each_construct_has_its_rule_starting_with_its_keyword():
    for c in SYNTAX.values():
        assert rule_text(c.name).split()[0] == f'"{c.name}"', c.name
    for e in EFFECTS.values():
        assert rule_text(e.name).split()[0] == (f'"{e.keyword}"' if e.keyword else "NAME"), e.name


def test_every_rule_of_the_grammar_is_used():
    # A rule of game.lark that nothing uses: a construct's line without its module.
    rules = grammar_parser().rules
    used = {s.name for r in rules for s in r.expansion if not s.is_term}
    assert {r.origin.name for r in rules} - used == {"start"}


def shortest(symbol: str, heights: dict[str, int]) -> str:
    """The shortest text of a rule of the parser's grammar (a name `n`, numbers 1)."""
    t = next((t for t in grammar_parser().terminals if t.name == symbol), None)
    if t is not None:
        return t.pattern.value if t.pattern.type == "str" else {"NUMBER": "1"}.get(symbol, "n")
    exp = min((r.expansion for r in grammar_parser().rules if r.origin.name == symbol),
              key=lambda e: (max((heights.get(s.name, 0) for s in e), default=0), len(e)))
    return " ".join(shortest(s.name, heights) for s in exp)


def heights() -> dict[str, int]:
    """Each rule's least depth down to terminals."""
    h: dict[str, int] = {}
    rules = grammar_parser().rules
    for _ in range(len(rules)):
        for r in rules:
            hs = [0 if s.is_term else h.get(s.name) for s in r.expansion]
            if None not in hs:
                h[r.origin.name] = min(h.get(r.origin.name, 1 << 30), 1 + max(hs, default=0))
    return h


@pytest.mark.parametrize("name", sorted(SYNTAX))
def test_a_motions_text_parses_into_its_syntax_node(name):
    c = SYNTAX[name]
    written = shortest(name, heights())
    action = f"move own p {written}" if c.moves else written
    (ply,) = parse_source(f"ply go: {action}\n", "t.game").decls
    assert isinstance(ply.motion, syn.MotionSyntax) and ply.motion.kind == name
    assert ply.motion.span.line == 1


@pytest.mark.parametrize("name", sorted(EFFECTS))
def test_an_effects_text_parses_into_its_syntax_node(name):
    written = shortest(name, heights())
    (end,) = parse_source(f"end e: then {written} if 1 == 1\n", "t.game").decls
    (effect,) = end.effects
    assert isinstance(effect, syn.Effect) and effect.kind == name


# ------------------------------------------------------------------ the constructs

@pytest.mark.parametrize("name", sorted(SYNTAX))
def test_a_motion_module_declares_what_the_registry_needs(name):
    c = SYNTAX[name]
    assert issubclass(c.node, model.Motion) and c.node.name == name
    for hook in ("to_syntax", "check", "lower", "emit_support", "emit_moves", "emit_apply"):
        assert callable(getattr(c, hook)), f"dsl/constructs/{name}.py: no {hook}"
    assert c.action in ("move", "place", "push", "chain")
    assert constructs.MOTIONS[c.node] is c  # the back-ends find it by its node
    # ToSyntax builds a construct's rule by the registry, unless a method has the rule's name
    assert not hasattr(ToSyntax, name), f"ToSyntax.{name} would shadow the construct"


@pytest.mark.parametrize("module", sorted(n for n in (*SYNTAX, *VARIANTS, "effects", "functions")))
def test_a_construct_writes_its_code_once_for_both_back_ends(module):
    # One generator per construct: no hook or branch of one back-end's language. The
    # writer passed in (interpreter/codegen/writer.py) is the one way to code.
    text = open(os.path.join(os.path.dirname(constructs.__file__), f"{module}.py"), encoding="utf-8").read()
    for twin in ("emit_c", "emit_python", "CRuleGen", "pyrules", "crules", "m_and(", "m_or(", "->c[",
                 ".bit_length()", "bit_count()"):
        assert twin not in text, f"dsl/constructs/{module}.py writes one back-end's code: {twin}"


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_variant_names_the_motion_it_generates(name):
    v = VARIANTS[name]
    assert v.variant_of in constructs.MOTIONS and callable(v.applies)
    assert callable(v.emit_moves) and callable(v.emit_apply) and name not in SYNTAX


@pytest.mark.parametrize("name", sorted(EFFECTS))
def test_an_effect_declares_what_the_registry_needs(name):
    e = EFFECTS[name]
    assert issubclass(e.node, model.Effect) and constructs.effects.BY_NODE[e.node] is e
    assert e.only in ("", "plies", "end rules")
    assert all(callable(f) for f in (e.to_syntax, e.check, e.lower, e.emit))
    assert not hasattr(ToSyntax, name), f"ToSyntax.{name} would shadow the construct"


# ------------------------------------------------------------------ the editors

def test_every_construct_keyword_is_highlighted_as_a_keyword():
    pytest.importorskip("pygments")
    from pygments.token import Keyword

    from dsl.tokens import tokens
    from interpreter.apps.pygments_lexer import GameLexer
    from interpreter.apps.textmate import textmate_grammar

    assert set(keywords()) <= set(tokens().keywords)
    saved = textmate_grammar()["patterns"]
    pattern = re.compile(next(p["match"] for p in saved if p["name"] == "keyword.control.rulecraft"))
    for word in keywords():
        assert pattern.fullmatch(word), word
        assert [(t, v) for t, v in GameLexer().get_tokens(word) if not v.isspace()] == [(Keyword, word)]


def completion_labels(text: str) -> set[str]:
    from lsprotocol import types

    from interpreter.apps.lsp.completion import completions
    from interpreter.apps.lsp.documents import analyse

    lines = text.split("\n")
    items = completions(analyse("/tmp/c.game", text), text, types.Position(len(lines) - 1, len(lines[-1])))
    return {i.label for i in items if i.detail == "keyword"}


def test_completion_offers_the_registrys_constructs():
    pytest.importorskip("lsprotocol", reason="the language server needs pygls: pip install 'rulecraft[lsp]'")
    base = 'game "T"\nboard square 3 x 3\nplayers A, B\npiece p: owner A\n'
    assert completion_labels(base + "ply go: move own p ") == set(motion_keywords())
    assert completion_labels(base + "ply go: ") == {"move"} | set(action_keywords())
    assert completion_labels(base + "end e: then ") == set(effect_keywords())


# ------------------------------------------------------------------ the fuzz generator

def test_the_fuzz_generator_draws_the_registrys_constructs():
    sys.path.insert(0, os.fspath(ROOT))
    from tests.fuzz import rulesets

    assert set(rulesets.MOTION_WEIGHTS) <= set(SYNTAX)
    assert {n for _, n in rulesets.motion_weights()} == set(SYNTAX)
    assert set(rulesets.END_EFFECT_WEIGHTS) <= set(EFFECTS)
    assert {n for _, n in rulesets.end_effect_weights()} == {
        e.name for e in EFFECTS.values() if e.may_stand(True, False)}
    # a motion with a weight has its recipe; the others are written by a walk of their rule
    assert all(hasattr(rulesets.RulesetGenerator, "motion_" + name) for name in rulesets.MOTION_WEIGHTS)
