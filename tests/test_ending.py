"""The cells that decided a finished game (interpreter/runtime/ending.py), found in positions
whose winning line or chain is read off the board by hand."""

from __future__ import annotations

import pytest

from interpreter import load_game
from interpreter.runtime.ending import ending_cause, ending_cells
from interpreter.runtime.picture import position_svg


def played(name: str, plies: list[str]):
    game = load_game(name)
    state = game.initial_state()
    for p in plies:
        state = game.apply(state, game.action_from_text(state, p))
    return game, state


def names(game, cells) -> list[str]:
    return [game.board.names[c] for c in cells]


@pytest.mark.parametrize("plies, line", [
    (["a1", "a2", "b1", "b2", "c1"], ["a1", "b1", "c1"]),  # the first rank
    (["a1", "a2", "b2", "b1", "c3"], ["a1", "b2", "c3"]),  # a diagonal
    (["a2", "a1", "b2", "b1", "c3", "c1"], ["a1", "b1", "c1"]),  # O's line, not X's pieces
])
def test_the_winning_line_of_tic_tac_toe(plies, line):
    game, state = played("tic-tac-toe", plies)
    assert names(game, ending_cells(game, state)) == line
    svg = position_svg(game, state)
    assert [c for c in line if f'class="ended" data-cell="{c}"' in svg] == line


def test_a_draw_and_a_game_going_on_show_no_cells():
    game, state = played("tic-tac-toe", ["b2", "a1", "c1", "a3", "a2", "c2", "b1", "b3", "c3"])
    assert game.outcome(state).is_draw and ending_cells(game, state) == []
    game, state = played("tic-tac-toe", ["b2"])
    assert ending_cells(game, state) == [] and 'class="ended"' not in position_svg(game, state)


def test_the_musketeers_in_a_line_of_a_length_counted():
    game = load_game("three-musketeers")  # line(count(musketeer), musketeer, orthogonal)
    state = game.state_from_text("M..../M..../M..../...../....o Musketeers result=Enemy")
    assert names(game, ending_cells(game, state)) == ["a3", "a4", "a5"]


def test_a_shortest_chain_across_a_hex_board():
    # R R B   rank 3: a3-a2-a1 joins rank 1 to rank 3; b3 hangs off the chain, not part of it
    #  R B .
    #   R . B
    game, state = played("rulesets/library/hex-3x3.game", ["a1", "c1", "a2", "b2", "b3", "c3", "a3"])
    assert game.players[game.outcome(state).winner] == "Red"
    assert names(game, ending_cells(game, state)) == ["a1", "a2", "a3"]


def test_a_mill_of_the_movers_men():
    # line(3, own man, orthogonal, contiguous): White's men on the first rank
    game, state = played("rulesets/library/three-mens-morris.game", ["a1", "b2", "b1", "c3", "c1"])
    assert names(game, ending_cells(game, state)) == ["a1", "b1", "c1"]


def test_a_player_without_a_ply_is_the_cause():
    game, state = played("rulesets/library/hexapawn.game", [])
    game = load_game("rulesets/library/clobber-1x6.game")
    state = game.initial_state()
    while not game.is_terminal(state):
        state = game.apply(state, game.legal_actions(state)[0])
    out = game.outcome(state)
    assert ending_cause(game, state) == f"{game.players[game.to_move(state)]} has no legal ply"
    assert out.winner != game.to_move(state) and ending_cells(game, state) == []
