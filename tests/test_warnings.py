"""Every warning: what checks but likely does not do what its designer meant. Each has its
exact text; a warning never stops a ruleset from loading."""

import os
import subprocess
import sys

import pytest

from dsl.load import bundled_dir, bundled_names, library_dir, library_names, load
from interpreter import load_game
from interpreter.apps.setup_over import over_at_setup

BASE = '''game "W"
board square 3 x 3
players Red, Blue
piece stone: owner each, symbol R/B
piece tile: neutral, symbol T
piece disc: owner each, on tile, symbol D/d
setup tile: a1, b1
setup disc of Red: a1
setup stone of Red: c3
ply put: place own stone onto empty - a3
ply hop: move own disc step onto tile - disc
ply go: move own stone step onto empty
end won: mover wins if line(3, own stone, orthogonal, contiguous)
'''

CASES = {
    "own_in_a_named_end": (
        "end won: mover wins if line(3, own stone, orthogonal, contiguous)",
        "end won: Red wins if line(3, own stone, orthogonal, contiguous)",
        "t.game:13:30: warning: 'own' in an end rule means the player who made the last ply, whoever "
        "that is, yet this rule names Red: Red wins whichever player's pieces meet it\n"
        "    end won: Red wins if line(3, own stone, orthogonal, contiguous)\n"
        "                                 ^~~~~~~~~\n"
        "  hint: write `mover wins if ...`, or name the pieces: `Red's stone`"),
    "opponents_in_a_named_end": (
        "end won: mover wins if line(3, own stone, orthogonal, contiguous)",
        "end won: Blue loses if count(opponent's stone) == 3",
        "t.game:13:30: warning: 'opponent's' in an end rule means the player who made the last ply, "
        "whoever that is, yet this rule names Blue: Blue loses whichever player's pieces meet it\n"
        "    end won: Blue loses if count(opponent's stone) == 3\n"
        "                                 ^~~~~~~~~~~~~~~~\n"
        "  hint: write `mover loses if ...`, or name the pieces: `Blue's stone`"),
    "mover_compared_is_no_warning": (
        "end won: mover wins if line(3, own stone, orthogonal, contiguous)",
        "end won: Blue loses if count(empty) == 0 and mover == Red",
        ""),
    "removes_only_from": (
        "ply go: move own stone step onto empty",
        "ply go: move own stone step onto empty then remove from",
        "t.game:12:52: warning: this removes only cells of `from`, which the moving piece leaves: it "
        "removes nothing\n"
        "    ply go: move own stone step onto empty then remove from\n"
        "                                                       ^~~~\n"
        "  hint: `path` is what a slide or a leap passes; the piece landed on is taken anyway"),
    "rider_onto_empty": (
        "ply hop: move own disc step onto tile - disc",
        "ply hop: move own disc step onto empty",
        "t.game:11:34: warning: pieces of 'disc' stand on 'tile' and only land where one stands; "
        "`empty` cells hold nothing, so this rule never makes a ply\n"
        "    ply hop: move own disc step onto empty\n"
        "                                     ^~~~~\n"
        "  hint: write `onto tile - disc`"),
    "rider_default_onto": (
        "ply hop: move own disc step onto tile - disc",
        "ply hop: move own disc step",
        "t.game:11:24: warning: pieces of 'disc' stand on 'tile' and only land where one stands; "
        "`empty` cells hold nothing, so this rule never makes a ply\n"
        "    ply hop: move own disc step\n"
        "                           ^~~~\n"
        "  hint: write `onto tile - disc`"),
    "places_in_a_goal": (
        "ply put: place own stone onto empty - a3",
        "ply put: place own stone onto empty\ngoal home: a3 by n",
        "t.game:10:31: warning: `empty` includes the goals (home), off the board: this rule may put "
        "a piece there\n"
        "    ply put: place own stone onto empty\n"
        "                                  ^~~~~\n"
        "  hint: write `onto empty - home`"),
    "moves_no_piece": (
        "ply go: move own stone step onto empty",
        "ply go: move own stone step onto empty\n"
        "piece king: owner each, symbol K/k\n"
        "ply rule: move own king step",
        "t.game:14:16: warning: no piece of 'king' is ever on the board: none is set up, and no "
        "rule places one or promotes one to it; this rule never makes a ply\n"
        "    ply rule: move own king step\n"
        "                   ^~~~~~~~\n"
        "  hint: set some up, or add a rule that places them or promotes pieces to them"),
    "a_promoted_kind_is_on_the_board": (
        "ply go: move own stone step onto empty",
        "ply go: move own stone step onto empty then promote here & rank3 to king\n"
        "piece king: owner each, symbol K/k\n"
        "ply rule: move own king step",
        ""),
    "own_neutral_pieces": (
        "ply go: move own stone step onto empty",
        "ply go: move own tile step onto empty",
        "t.game:12:14: warning: 'tile' is neutral: no player owns its pieces, so `own tile` "
        "selects none and this rule never makes a ply\n"
        "    ply go: move own tile step onto empty\n"
        "                 ^~~~~~~~\n"
        "  hint: drop `own`: either player may move a neutral piece"),
    "onto_holds_no_cell": (
        "ply go: move own stone step onto empty",
        "ply go: move own stone step onto rank1 & rank3",
        "t.game:12:34: warning: `rank1 & rank3` holds no cell, and `here` is always a cell of "
        "`onto`: this rule never makes a ply\n"
        "    ply go: move own stone step onto rank1 & rank3\n"
        "                                     ^~~~~~~~~~~~~\n"
        "  hint: `A & B` is the cells in both A and B; `A | B`, those in either"),
    "ply_in_no_phase": (
        "end won: mover wins",
        "turn: put then go\nend won: mover wins",
        "t.game:11:1: warning: no phase of the turn names ply 'hop': this rule never makes a ply\n"
        "    ply hop: move own disc step onto tile - disc\n"
        "    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
        "  hint: name it in `turn:` (`... or hop`, or `any`), or drop the rule"),
    "adds_zero": (
        "ply go: move own stone step onto empty",
        "ply go: move own stone step onto empty then moves += 0\nvar moves = 0",
        "t.game:12:45: warning: `+= 0` leaves 'moves' as it is: this effect changes nothing\n"
        "    ply go: move own stone step onto empty then moves += 0\n"
        "                                                ^~~~~~~~~~\n"
        "  hint: drop it, or write the change meant"),
    "sets_itself": (
        "ply go: move own stone step onto empty",
        "ply go: move own stone step onto empty then moves[mover] = moves[mover]\n"
        "var moves per player = 0",
        "t.game:12:45: warning: this sets 'moves' to its own value: this effect changes nothing\n"
        "    ply go: move own stone step onto empty then moves[mover] = moves[mover]\n"
        "                                                ^~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
        "  hint: drop it, or write the value meant"),
    "removes_no_cell": (
        "ply go: move own stone step onto empty",
        "ply go: move own stone step onto empty then remove file_a - file_a",
        "t.game:12:52: warning: `file_a - file_a` holds no cell: this removes nothing\n"
        "    ply go: move own stone step onto empty then remove file_a - file_a\n"
        "                                                       ^~~~~~~~~~~~~~~\n"
        "  hint: `A - B` is the cells of A that are not in B"),
    "promotes_to_nobody": (
        "ply go: move own stone step onto empty",
        "ply go: move own stone step onto empty then promote here & rank3 to tile",
        "t.game:12:45: warning: a promoted piece keeps its owner: only neutral pieces can become "
        "a 'tile', and none of another kind covers one cell standing on no other; this promotes "
        "nothing\n"
        "    ply go: move own stone step onto empty then promote here & rank3 to tile\n"
        "                                                ^~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
        "  hint: promote to a kind the pieces' owners have, or give 'tile' their owners (`owner each`)"),
    "slide_longer_than_the_board": (
        "ply go: move own stone step onto empty",
        "ply go: move own stone slide orthogonal 3",
        "t.game:12:24: warning: a slide of 3 steps needs 4 cells in a straight line along its "
        "directions, and this board's longest has 3: this rule never makes a ply\n"
        "    ply go: move own stone slide orthogonal 3\n"
        "                           ^~~~~~~~~~~~~~~~~~\n"
        "  hint: a slide here goes at most 2 steps"),
    "slide_as_long_as_the_board": (
        "ply go: move own stone step onto empty",
        "ply go: move own stone slide orthogonal 2 or more",
        ""),
    "push_longer_than_the_board": (
        "ply go: move own stone step onto empty",
        "ply go: move own stone push 3 orthogonal",
        "t.game:12:24: warning: a push of 3 pieces needs 4 cells in a straight line along its "
        "directions (the line and the cell it moves into), and this board's longest has 3: this "
        "rule never makes a ply\n"
        "    ply go: move own stone push 3 orthogonal\n"
        "                           ^~~~~~~~~~~~~~~~~\n"
        "  hint: a push here moves a line of at most 2 pieces"),
    "line_longer_than_the_board": (
        "line(3, own stone, orthogonal, contiguous)",
        "line(4, own stone, orthogonal)",
        "t.game:13:24: warning: `line(4, ...)` needs 4 cells in a straight line along "
        "`orthogonal`, and this board's longest has 3: it never holds\n"
        "    end won: mover wins if line(4, own stone, orthogonal)\n"
        "                           ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
        "  hint: the board's lines along `orthogonal` hold at most 3 cells"),
    "in_line_longer_than_the_board": (
        "line(3, own stone, orthogonal, contiguous)",
        "count(in_line(4, own stone, all)) > 0",
        "t.game:13:30: warning: `in_line(4, ...)` needs 4 cells in a straight line along `all`, "
        "and this board's longest has 3: it is always empty\n"
        "    end won: mover wins if count(in_line(4, own stone, all)) > 0\n"
        "                                 ^~~~~~~~~~~~~~~~~~~~~~~~~~\n"
        "  hint: the board's lines along `all` hold at most 3 cells"),

}


def warnings_of(tmp_path, text):
    path = tmp_path / "t.game"
    path.write_text(text)
    rs = load(str(path))
    return "\n".join(w.format(rs.sources) for w in rs.warnings).replace(str(path), "t.game")


def test_the_base_has_no_warning(tmp_path):
    assert warnings_of(tmp_path, BASE) == ""


SHIPPED = [os.path.join(bundled_dir(), n + ".game") for n in bundled_names()] + \
    [os.path.join(library_dir(), n + ".game") for n in library_names()]


@pytest.mark.parametrize("path", SHIPPED, ids=os.path.basename)
def test_no_bundled_or_library_ruleset_has_a_warning(path):
    rs = load(path)
    assert [w.format(rs.sources) for w in rs.warnings] == []


@pytest.mark.parametrize("name", sorted(CASES))
def test_warning(tmp_path, name):
    old, new, expected = CASES[name]
    assert old in BASE
    assert warnings_of(tmp_path, BASE.replace(old, new, 1)) == expected


def test_a_named_players_pieces_silence_the_warning(tmp_path):
    text = BASE.replace("end won: mover wins if line(3, own stone, orthogonal, contiguous)",
                        "end won: Red wins if line(3, Red's stone, orthogonal, contiguous)")
    assert warnings_of(tmp_path, text) == ""


def test_a_game_over_at_its_setup_is_named_by_its_end_rule(tmp_path):
    text = BASE.replace("end won: mover wins", "end few: Blue wins if count(Blue's stone) == 0\nend won: mover wins")
    path = tmp_path / "t.game"
    path.write_text(text)
    game = load_game(str(path))
    warning = over_at_setup(game)
    assert warning.format(game.ruleset.sources).replace(str(path), "t.game") == (
        "t.game:13:1: warning: the game is over at its setup: end 'few' holds before the first ply "
        "(Blue wins)\n"
        "    end few: Blue wins if count(Blue's stone) == 0\n"
        "    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
        "  hint: check the setup and the end rule's condition")
    assert over_at_setup(load_game("tic-tac-toe")) is None


def test_check_prints_warnings_and_stays_ok(tmp_path):
    path = tmp_path / "t.game"
    path.write_text(BASE.replace("ply go: move own stone step onto empty",
                                 "ply go: move own stone step onto empty then remove from"))
    run = subprocess.run([sys.executable, "-m", "rulecraft", "check", str(path)], capture_output=True, text=True)
    assert run.returncode == 0
    assert run.stdout.startswith(f"{path}: ok (W: 9 cells")
    assert run.stderr.startswith(f"{path}:12:52: warning: this removes only cells of `from`")


def test_a_game_whose_every_rule_selects_none_plays(tmp_path):
    """Every rule warned of as making no ply: the game still compiles and plays (the
    Python back-end's table of what each rule takes held the pass's entry alone)."""
    path = tmp_path / "t.game"
    path.write_text('game "N"\nboard square 2 x 1\nplayers A, B\npiece stone: neutral, symbol y\n'
                    'setup stone: a1\nply shove: move own stone step\ncompulsory capture\n')
    game = load_game(str(path))
    start = game.initial_state()
    assert game.legal_actions(start) == []
    assert game.winner(start) == 1  # A has no legal ply at the start: B wins
