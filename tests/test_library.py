"""The library of classic games (rulesets/library/): every game checks, keeps the runtime
protocol along seeded random games, plays the same on both back-ends, and says where its
rules and its checked figures come from. Each game's figures are checked in its own
test file (tests/test_library_*.py) against published values or a version written there."""

import os
import random
from importlib import resources

import pytest

from dsl.load import library_names
from interpreter import load_game, perft

LIBRARY = str(resources.files("rulesets") / "library")
GAMES, MAX_PLIES = 3, 80


def path(name: str) -> str:
    return os.path.join(LIBRARY, name + ".game")


def is_variant(name: str) -> bool:
    return any(line.startswith("variant of ") for line in open(path(name), encoding="utf-8"))


def test_the_library_holds_thirty_games_or_more():
    bases = [n for n in library_names() if not is_variant(n)]
    assert len(library_names()) >= 30, library_names()
    assert len(bases) >= 15, bases


@pytest.mark.parametrize("name", library_names())
def test_a_library_game_names_its_source(name):
    text = open(path(name), encoding="utf-8").read()
    assert text.startswith("#"), "a library game starts with a comment: its rules and their source"


@pytest.mark.parametrize("name", library_names())
def test_a_library_game_is_found_by_its_name(name):
    assert load_game(name, backend="python").title == load_game(path(name), backend="python").title


@pytest.mark.parametrize("name", library_names())
def test_a_library_game_keeps_the_protocol_on_both_back_ends(name):
    # A variant's C differs from its base's by sizes and tables: the bases are compared on
    # both back-ends here (each game's own test file compares its variants' figures).
    py = load_game(path(name), backend="python")
    nat = py if is_variant(name) else load_game(path(name), backend="native")
    rng = random.Random(name)
    for _ in range(GAMES):
        s = py.initial_state()
        for _ in range(MAX_PLIES):
            text = py.state_to_text(s)
            assert py.state_from_text(text) == s
            assert nat.state_to_text(nat.state_from_text(text)) == text
            acts = py.legal_actions(s)
            assert nat.legal_actions(nat.state_from_text(text)) == acts, text
            if py.is_terminal(s):
                assert acts == [] and py.outcome(s) is not None
                break
            assert acts, text
            texts = [py.action_to_text(s, a) for a in acts]
            assert len(set(texts)) == len(texts)
            a = rng.choice(acts)
            assert py.action_from_text(s, py.action_to_text(s, a)) == a
            s = py.apply(s, a)
    assert perft(py, py.initial_state(), 2) == perft(nat, nat.initial_state(), 2)
