"""The bounds the rules put on a game's length (dsl/bounds.py), derived by hand."""

import pytest

from conftest import game_of
from dsl.bounds import max_plies
from interpreter import load_game_from_text


@pytest.mark.parametrize("name, plies", [
    ("tic-tac-toe", 9),  # a mark a ply on 9 empty cells
    ("connect-four", 42),  # 7 x 6, a disc a ply
    ("domineering", 8),  # 4 x 4: a domino covers two of the 16 cells
    ("cram-4x4", 8),
    ("notakto-two-boards", 18),  # its board, two boards of 9 as one 7 x 3 without a file
    ("three-musketeers", None),  # pieces move
    ("3-spot", None),  # dominoes move
    ("force-3", None),  # placing, then moving
    ("3-spot-optional-white", None),  # a pass fills nothing
    ("kalah", None),  # counted pieces
    ("triad", None),  # stones are taken
])
def test_placement_games_last_at_most_their_empty_cells(name, plies):
    assert max_plies(game_of(name).ruleset) == plies


BASE = """game "T"
board square 3 x 2
players A, B
piece m: owner each, symbol X/O
setup m of A: a1
ply put: place own m
"""


@pytest.mark.parametrize("more, plies", [
    ("", 5),  # six cells, one taken at the start
    ("ply off: place own m then remove adjacent(here) & opponent's m", None),  # cells empty again
    ("ply put2: place own m onto a1 | b1", None),  # onto a taken cell: a capture
    ("end back: then reset setup if count(empty) == 0", None),  # the setup again
    ("turn: put or pass", None),
])
def test_what_frees_a_cell_or_fills_none_leaves_no_bound(more, plies):
    game = load_game_from_text(BASE + more + "\n", name="t.game")
    assert max_plies(game.ruleset) == plies
