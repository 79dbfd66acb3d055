"""Every warning: what checks but likely does not do what its designer meant. Each has its
exact text; a warning never stops a ruleset from loading."""

import subprocess
import sys

import pytest

from dsl.load import load
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
}


def warnings_of(tmp_path, text):
    path = tmp_path / "t.game"
    path.write_text(text)
    rs = load(str(path))
    return "\n".join(w.format(rs.sources) for w in rs.warnings).replace(str(path), "t.game")


def test_the_base_has_no_warning(tmp_path):
    assert warnings_of(tmp_path, BASE) == ""


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
