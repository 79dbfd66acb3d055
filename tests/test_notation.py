"""The notation object a game carries: the game's text methods are its, unchanged."""

import random
import subprocess
import sys

import pytest

from conftest import all_rulesets, game_of
from interpreter import load_game
from interpreter.runtime.actions import ActionRecord
from interpreter.runtime.notation import Notation


@pytest.mark.parametrize("name", all_rulesets())
def test_the_game_text_methods_are_its_notation(name):
    game = game_of(name)
    notation = game.notation
    assert isinstance(notation, Notation)
    rng = random.Random(name)
    s = game.initial_state()
    for _ in range(20):
        actions = game.legal_actions(s)
        if not actions:
            break
        assert game.state_to_text(s) == notation.state_to_text(s)
        assert game.render(s) == notation.render(s)
        assert game.texts(s) == notation.texts(s)
        for a in actions:
            text = notation.action_to_text(s, a)
            assert game.action_to_text(s, a) == text
            assert notation.action_from_text(s, text) == a
            assert isinstance(notation.decode(a), ActionRecord)
        s = game.apply(s, rng.choice(actions))


def test_a_place_of_several_kinds_names_the_piece(tmp_path):
    path = tmp_path / "two.game"
    path.write_text('''game "Two kinds"
board square 2 x 1
players A, B
piece pawn: owner each, symbol P/p
piece rook: owner each, symbol R/r
ply put: place own piece onto empty
end full: draw if count(empty) == 0
''')
    game = load_game(str(path))
    s = game.initial_state()
    texts = game.texts(s)
    assert list(texts) == ["P@a1", "P@b1", "R@a1", "R@b1"]
    records = [game.notation.decode(a) for a in texts.values()]
    assert [(game.ruleset.types[r.piece].symbol, game.board.names[r.to_cell]) for r in records] \
        == [("P", "a1"), ("P", "b1"), ("R", "a1"), ("R", "b1")]
    assert game.action_from_input(s, "r@B1") == texts["R@b1"]


def test_notation_imports_on_its_own():
    # notation.py imports game.py's types, game.py imports notation.py when a game is made.
    for module in ("notation", "game", "actions"):
        code = (f"import interpreter.runtime.{module}\n"
                "from interpreter import load_game\n"
                "g = load_game('tic-tac-toe')\n"
                "print(g.state_to_text(g.initial_state()))")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        assert out.stdout == ".../.../... X\n"


KICK = """game "Kick"
board square 2 x 5 with diagonals
players White, Black
piece man: owner each, symbol X/O
piece ball: neutral, symbol "*"
region far: rank5 / rank1
direction forward: n / s
setup man of White: a1, b1
setup man of Black: b5, a5, b4
setup ball: a2
ply step: move own man step forward onto empty
ply kick: move ball step onto empty where count(own man & adjacent(from)) >= 1
end goal: mover wins if ball in far[mover]
end again: then turn to mover if last_ply(kick)
"""


def test_a_position_after_another_turn_reads_back_as_it_was(tmp_path):
    # White kicks the ball into Black's far row and, by `again`, plays on. Read back with
    # the previous player as the mover (Black, at a turn's start), `goal` would say Black
    # won: the text says the game is not over
    path = tmp_path / "kick.game"
    path.write_text(KICK)
    game = load_game(str(path))
    s = game.initial_state()
    for ply in ("b1-b2", "b4-b3", "a2-b1"):
        s = game.apply(s, game.action_from_text(s, ply))
    text = game.state_to_text(s)
    assert text == "OO/../.O/.X/X* White previous=kick:a2-b1 result=none"
    assert game.outcome(s) is None and game.state_from_text(text) == s
    assert game.winner(game.state_from_text(text.replace(" result=none", ""))) == 1
    with pytest.raises(Exception, match="result is a player, draw or none, found 'nobody'"):
        game.state_from_text(text.replace("none", "nobody"))
