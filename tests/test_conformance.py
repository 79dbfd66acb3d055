"""The runtime protocol, checked on every bundled ruleset with seeded random games."""

import random

import pytest

from conftest import all_rulesets, game_of

GAMES = 12
MAX_PLIES = 150


@pytest.mark.parametrize("name", all_rulesets())
def test_protocol_holds_along_random_games(name):
    game = game_of(name)
    rng = random.Random(name)
    for _ in range(GAMES):
        state = game.initial_state()
        for _ in range(MAX_PLIES):
            # state <-> text round-trips
            text = game.state_to_text(state)
            assert game.state_from_text(text) == state, text
            assert game.state_to_text(game.state_from_text(text)) == text
            # states are hashable, immutable tuples
            hash(state)
            assert isinstance(state, tuple)
            actions = game.legal_actions(state)
            # legal actions are deterministic and distinct
            assert actions == game.legal_actions(state)
            assert len(set(actions)) == len(actions)
            assert list(game.iter_actions(state)) == actions
            if game.is_terminal(state):
                assert actions == []
                assert game.winner(state) is not None or game.is_draw(state)
                assert sorted(game.returns(state)) in ([-1.0, 1.0], [0.0, 0.0])
                break
            # the rules end a game with no legal ply: a going game always has one
            assert actions, text
            texts = [game.action_to_text(state, a) for a in actions]
            assert len(set(texts)) == len(texts)
            for a, t in zip(actions, texts):
                assert game.action_from_text(state, t) == a
            before = game.state_to_text(state)
            action = rng.choice(actions)
            child = game.apply(state, action)
            # apply never changes its input
            assert game.state_to_text(state) == before
            assert child != state
            state = child


@pytest.mark.parametrize("name", all_rulesets())
def test_every_ruleset_renders_and_counts(name):
    game = game_of(name)
    state = game.initial_state()
    drawing = game.render(state)
    assert game.players[game.to_move(state)] in drawing
    assert len(game.legal_actions(state)) > 0
