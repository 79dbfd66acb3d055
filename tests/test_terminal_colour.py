"""Pieces in their colours on a colour terminal (interpreter/apps/terminal_colour.py)."""

from __future__ import annotations

import io

import pytest

from interpreter.apps import cli
from interpreter.apps.terminal_colour import painter, wants_colour
from interpreter.runtime.render import visible

from conftest import all_rulesets, game_of


@pytest.mark.parametrize("name", all_rulesets())
def test_a_painted_board_is_the_same_board_in_colour(name):
    game = game_of(name)
    state = game.initial_state()
    for action in game.legal_actions(state)[:1]:  # and a position after a ply
        state = game.apply(state, action)
    painted = game.render(state, painter(game))
    assert visible(painted) == game.render(state)  # the codes take no room: columns still align


def test_the_colours_are_the_rulesets():
    game = game_of("tricouleur")  # `colour red` etc.; the symbol in white on red
    paint = painter(game)
    red = next(i for i, t in enumerate(game.ruleset.types) if t.kind == "red")
    assert paint(red, "R") == "\x1b[1;38;2;255;255;255m\x1b[48;2;192;57;43mR\x1b[0m"
    ttt = game_of("tic-tac-toe")  # no colours declared: the first player's light, the second's dark
    assert painter(ttt)(1, "O") == "\x1b[1;38;2;244;244;244m\x1b[48;2;43;43;43mO\x1b[0m"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_a_colour_terminal(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    assert wants_colour("auto", Terminal()) and not wants_colour("auto", io.StringIO())
    assert wants_colour("always", io.StringIO()) and not wants_colour("never", Terminal())
    monkeypatch.setenv("TERM", "dumb")
    assert not wants_colour("auto", Terminal())
    monkeypatch.setenv("TERM", "xterm")
    monkeypatch.setenv("NO_COLOR", "1")
    assert not wants_colour("auto", Terminal())


def test_play_paints_when_asked_and_not_into_a_file(capsys):
    args = ["play", "3-spot", "--players", "random,random", "--seed", "1", "--max-plies", "1"]
    assert cli.main(args) == 0
    plain = capsys.readouterr().out
    assert "\x1b[" not in plain  # not a terminal
    assert cli.main(args + ["--colour", "always"]) == 0
    painted = capsys.readouterr().out
    assert "\x1b[48;2;46;111;183mB\x1b[0m" in painted and visible(painted) == plain  # blue's B
