"""Longer search runs (run with `pytest -m slow`): the 3-Spot family and Force 3 from the start, and
MCTS against random over more games."""

import pytest

from interpreter.search.agents import make_agent
from interpreter.search.solver import solve

from conftest import game_of

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("name, value, remoteness, positions", [
    ("3-spot", "win", 47, 177_233),
    ("3-spot-misere", "lose", 89, 177_233),
    ("3-spot-optional-white", "win", 185, 177_238),
    ("3-spot-middle-points", "draw", None, 173_572),
    ("3-spot-score-rule", "lose", 31, 64_993),
    ("force-3", "win", 9, 267_577),
])
def test_3_spot_family_from_the_start(name, value, remoteness, positions):
    game = game_of(name)
    sol = solve(game)
    assert sol.lookup(game.initial_state()) == (value, remoteness)
    assert len(sol) == positions


def test_mcts_beats_random_at_three_musketeers_20_games_a_side():
    game = game_of("three-musketeers")
    for side, spec in ((0, "mcts:100"), (1, "mcts:300")):
        wins = 0
        for i in range(20):
            agents = [None, None]
            agents[side] = make_agent(spec, game, seed=i)
            agents[1 - side] = make_agent("random", game, seed=2000 + i)
            s = game.initial_state()
            while not game.is_terminal(s):
                s = game.apply(s, agents[game.to_move(s)](s))
            wins += game.winner(s) == side
        assert wins >= 14, (side, wins)
