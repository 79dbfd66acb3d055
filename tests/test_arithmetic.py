"""One arithmetic on both back-ends: the checker refuses what could leave 64 bits, and what
it accepts gives the same answers in Python (whose integers never overflow) and in C.

Expressions are generated over variables standing at the edges of their ranges; each one
the checker accepts is compared, by sign, against its true value computed here (Python's
own integers, not rulecraft's code), on both back-ends.
"""

from __future__ import annotations

import random

import pytest

from dsl.check_ranges import INT64_MAX, INT64_MIN
from dsl.diagnostics import RulesetError
from dsl.load import load_text
from interpreter.runtime.game import Game
from interpreter.runtime.limits import RuleLimitError
from interpreter.native import build as native_build

native = pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")

BILLION = 1_000_000_000
# name: (value at the start, low, high)
VARS = {"a": (BILLION, -BILLION, BILLION), "b": (-BILLION, -BILLION, BILLION),
        "c": (BILLION - 1, -BILLION, BILLION), "d": (3, 0, 3), "k": (-7, -7, 7)}
HEAD = 'game "Arithmetic"\nboard square 3 x 3\nplayers A, B\npiece st: owner each, symbol X/O\n' + "".join(
    f"var {n} = {v} in {lo}..{hi}\n" for n, (v, lo, hi) in VARS.items())


def expression(rng: random.Random, depth: int) -> tuple[str, int, tuple[int, int]]:
    """A random number expression: its text, its value at the start, and its range."""
    if depth == 0 or rng.random() < 0.25:
        if rng.random() < 0.6:
            name = rng.choice(list(VARS))
            value, lo, hi = VARS[name]
            return name, value, (lo, hi)
        if rng.random() < 0.2:
            return "count(empty)", 9, (0, 9)
        n = rng.choice([0, 1, 2, 9, 10, 999, BILLION - 1, BILLION])
        return str(n), n, (n, n)
    if rng.random() < 0.15:
        text, value, (lo, hi) = expression(rng, depth - 1)
        return f"-({text})", -value, (-hi, -lo)
    op = rng.choice("+-**")
    (lt, lv, (a, b)), (rt, rv, (c, d)) = expression(rng, depth - 1), expression(rng, depth - 1)
    if op == "+":
        return f"({lt} + {rt})", lv + rv, (a + c, b + d)
    if op == "-":
        return f"({lt} - {rt})", lv - rv, (a - d, b - c)
    corners = (a * c, a * d, b * c, b * d)
    return f"({lt} * {rt})", lv * rv, (min(corners), max(corners))


def fits(r: tuple[int, int]) -> bool:
    return INT64_MIN <= r[0] and r[1] <= INT64_MAX


def accepted_expressions(seed: int, count: int) -> list[tuple[str, int]]:
    """Expressions the checker must accept (every node's range fits 64 bits), near the edges."""
    rng, out = random.Random(seed), []
    while len(out) < count:
        text, value, rng_ = expression(rng, 4)
        if fits(rng_) and abs(rng_[0]) + abs(rng_[1]) > 1 << 40:
            if _every_node_fits(text):
                out.append((text, value))
    return out


def _every_node_fits(text: str) -> bool:
    try:
        load_text(HEAD + f"ply p: place own st onto empty where {text} > 0\n", "t.game")
        return True
    except RulesetError:
        return False


def test_the_generator_reaches_the_edges():
    """The values compared include ones past 32 bits and past 10^18 (where C would wrap)."""
    values = [v for _, v in accepted_expressions(1, 40)]
    assert any(abs(v) > 10 ** 18 for v in values)
    assert any(v < 0 for v in values) and any(v > 0 for v in values)


def test_the_checker_refuses_exactly_the_ranges_past_64_bits():
    rng = random.Random(7)
    refused = accepted = 0
    for _ in range(150):
        text, _, r = expression(rng, 4)
        ok = _every_node_fits(text)
        if not fits(r):
            assert not ok, text
            refused += 1
        else:
            accepted += ok
    assert refused > 20 and accepted > 20


@native
def test_both_back_ends_agree_with_the_true_values(tmp_path, monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", str(tmp_path))
    exprs = accepted_expressions(1, 25) + accepted_expressions(2, 25)  # one build for both
    rules = "".join(f"ply p{k}: place own st onto a1 where {text} > 0\n"
                    f"ply n{k}: place own st onto a1 where {text} < 0\n" for k, (text, _) in enumerate(exprs))
    rs = load_text(HEAD + rules, "t.game")
    want = sorted([f"p{k}" for k, (_, v) in enumerate(exprs) if v > 0]
                  + [f"n{k}" for k, (_, v) in enumerate(exprs) if v < 0])
    for backend in ("python", "native"):
        game = Game(rs, backend=backend)
        s = game.initial_state()
        got = sorted(game.action_to_text(s, a).split(":")[0] for a in game.legal_actions(s))
        assert got == want, backend


@native
def test_an_assignment_past_its_range_stops_both_back_ends_alike(tmp_path, monkeypatch):
    """`r = a * a` is 10^18 at the start: in 64 bits, past r's range; both stop with the error."""
    monkeypatch.setenv("RULECRAFT_CACHE", str(tmp_path))
    rs = load_text(HEAD + "var r = 0\nply p: place own st onto a1 then r = a * a\n", "t.game")
    for backend in ("python", "native"):
        game = Game(rs, backend=backend)
        s = game.initial_state()
        with pytest.raises(RuleLimitError) as info:
            game.apply(s, game.legal_actions(s)[0])
        assert str(info.value).startswith("t.game:10:1: error: variable 'r' would be"), backend


ISSUE = '''game "ovf"
board square 3 x 3
players A, B
piece st: owner each, symbol X/O
var x = 1000000000
ply put: place own st onto empty where GUARD
'''


@pytest.mark.parametrize("guard,caret,reach", [
    ("x * x * x > 0", "^~~~~~~~~", "1,000,000,000,000,000,000,000,000,000"),
    ("x * x * x < 0", "^~~~~~~~~", "1,000,000,000,000,000,000,000,000,000"),
    ("x * x * x * x > 1", "^~~~~~~~~", "1,000,000,000,000,000,000,000,000,000"),
    ("+".join(["x*x"] * 10) + " > 0", "^" + "~" * 38, "10,000,000,000,000,000,000"),
])
def test_the_guards_that_gave_two_answers_are_refused(guard, caret, reach):
    """The issue's reproducers: Python said perft(1) = 9, C said 0 (its product wrapped)."""
    with pytest.raises(RulesetError) as info:
        load_text(ISSUE.replace("GUARD", guard), "t.game")
    source = f"ply put: place own st onto empty where {guard}"
    assert info.value.format() == (
        f"t.game:6:40: error: this can reach {reach}, past the 64-bit numbers the rules compute with "
        f"(-9,223,372,036,854,775,808..9,223,372,036,854,775,807)\n"
        f"    {source}\n"
        f"    {' ' * 39}{caret}\n"
        f"  hint: declare a narrower range for 'x' (`var NAME = ... in LOW..HIGH`), or compute less at once")


def test_the_same_guard_within_a_declared_range_runs_alike(tmp_path, monkeypatch):
    """`var x = 1000 in 0..1000`: x * x * x is at most 10^9, accepted; 9 plies on both."""
    monkeypatch.setenv("RULECRAFT_CACHE", str(tmp_path))
    rs = load_text(ISSUE.replace("var x = 1000000000", "var x = 1000 in 0..1000")
                   .replace("GUARD", "x * x * x > 0"), "t.game")
    backends = ("python", "native") if native_build.compiler() else ("python",)
    assert [len(Game(rs, backend=b).legal_actions(Game(rs).initial_state())) for b in backends] == \
        [9] * len(backends)


@native
def test_a_comparison_always_true_for_its_types_builds(tmp_path, monkeypatch):
    """`count(...) <= 1000000000 * 3` is always true (a count is an int): gcc's warning for
    it is no error of the generated code (found by the fuzzer's native category)."""
    monkeypatch.setenv("RULECRAFT_CACHE", str(tmp_path))
    rs = load_text(ISSUE.replace("GUARD", "count(own st) <= 1000000000 * 3"), "t.game")
    game = Game(rs, backend="native")
    assert len(game.legal_actions(game.initial_state())) == 9
