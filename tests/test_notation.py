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
