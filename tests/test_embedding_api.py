"""Plumbing for embedders: checked apply, pickling, loading a ruleset from a string."""

from __future__ import annotations

import multiprocessing
import os
import pickle

import pytest

from interpreter import IllegalActionError, RulesetError, load_game, load_game_from_text

from conftest import all_rulesets, game_of

TIC_TAC_TOE = """game "Tic-tac-toe"
board square 3 x 3 with diagonals
players X, O
piece mark: owner each, symbol X/O
ply place: place own mark onto empty
end line: mover wins if line(3, own mark, all, contiguous)
end full: draw if count(empty) == 0
"""


def test_apply_refuses_an_illegal_ply():
    g = game_of("three-musketeers")
    s = g.initial_state()
    with pytest.raises(IllegalActionError) as e:
        g.apply(s, (2,))  # a pass: not allowed here
    assert str(e.value) == "(2,) is not a legal ply in this position (8 legal plies; see legal_actions)"
    assert g.apply(s, g.legal_actions(s)[0]) == g.apply_unchecked(s, g.legal_actions(s)[0])


def test_apply_after_the_end_says_the_game_is_over():
    g = game_of("tic-tac-toe")
    s = g.state_from_text("XXX/OO./... O")
    with pytest.raises(IllegalActionError) as e:
        g.apply(s, (1, 0, 8))
    assert str(e.value) == "(1, 0, 8) is not a legal ply in this position (the game is over; see legal_actions)"


@pytest.mark.parametrize("name", all_rulesets())
def test_a_game_pickles_and_plays_the_same(name):
    g = game_of(name)
    copy = pickle.loads(pickle.dumps(g))
    s = g.initial_state()
    assert copy.initial_state() == s
    assert copy.legal_actions(s) == g.legal_actions(s)
    assert copy.ruleset.title == g.ruleset.title


def _count_plies(game) -> int:  # in a worker process: the game arrives pickled
    return len(game.legal_actions(game.initial_state()))


def test_a_game_crosses_into_a_spawned_process():
    g = game_of("3-spot-misere")  # a variant: its base travels with it
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.map(_count_plies, [g]) == [len(g.legal_actions(g.initial_state()))]


def test_a_pickled_variant_needs_no_file(tmp_path):
    base = tmp_path / "base.game"
    base.write_text(TIC_TAC_TOE)
    variant = tmp_path / "v.game"
    variant.write_text('variant of "base"\ngame "Misere"\nend line: mover loses if line(3, own mark, all, contiguous)\n')
    data = pickle.dumps(load_game(str(variant)))
    os.remove(base)
    os.remove(variant)
    g = pickle.loads(data)
    assert g.title == "Misere"
    s = g.state_from_text("XX./OO./... X")
    assert g.outcome(g.apply(s, g.action_from_text(s, "c3"))).winner == 1  # X made a line: X loses


def test_load_game_from_text():
    g = load_game_from_text(TIC_TAC_TOE, name="ttt")
    assert len(g.legal_actions(g.initial_state())) == 9
    assert pickle.loads(pickle.dumps(g)).title == "Tic-tac-toe"
    v = load_game_from_text('variant of "tic-tac-toe"\ngame "Pass allowed"\n', name="v")
    assert v.title == "Pass allowed"


def test_load_game_from_text_reports_errors_against_its_name():
    with pytest.raises(RulesetError) as e:
        load_game_from_text(TIC_TAC_TOE.replace("own mark onto", "own mrak onto"), name="mine.game")
    assert str(e.value).splitlines()[0] == "mine.game:5:22: error: unknown piece 'mrak'"


def test_load_game_from_text_holds_to_a_files_limits():
    with pytest.raises(RulesetError) as e:
        load_game_from_text("#" * 70_000, name="big")
    assert str(e.value) == "big: error: text is larger than the limit of 64,000 bytes"
    with pytest.raises(RulesetError) as e:
        load_game_from_text("game \"x\"\0", name="nul")
    assert str(e.value) == "nul: error: not a text file (it contains NUL bytes)"


def test_a_game_and_a_position_show_themselves_as_svg_in_jupyter():
    ttt = load_game("tic-tac-toe")
    assert ttt._repr_svg_().startswith("<svg ") and 'class="piece"' not in ttt._repr_svg_()
    state = ttt.initial_state()
    for ply in ("a1", "a2", "b1", "b2", "c1"):
        state = ttt.apply(state, ttt.action_from_text(state, ply))
    pos = ttt.position(state)
    assert pos.text == ".../OO./XXX O result=X" and str(pos) == ttt.render(state)
    svg = pos._repr_svg_()
    assert svg.count('class="piece"') == 5 and svg.count('class="ended"') == 3  # X's line ringed


@pytest.mark.parametrize("backend", ["python", "native"])
def test_outcomes_are_typed(backend):
    from interpreter.native.build import compiler
    if backend == "native" and compiler() is None:
        pytest.skip("no C compiler")
    from rulecraft import Outcome, Termination
    tm = load_game("three-musketeers", backend)
    # Musketeers to move, none next to an enemy: stuck, and the rules say they win.
    s = tm.state_from_text("M..../...../..M../...../oo..M Musketeers")
    assert tm.outcome(s) == Outcome(Termination.STUCK, 0)
    assert tm.notation.result(tm.outcome(s)) == "Musketeers win"  # as the rules write it
    assert tm.outcome(s).describe(tm.players) == "Musketeers wins"
    assert tm.outcome(tm.initial_state()) is None
    ttt = load_game("tic-tac-toe", backend)
    full = ttt.state_from_text("XOX/XOO/OXX X")  # full, no line: the draw rule
    assert ttt.outcome(full) == Outcome(Termination.END_RULE, None)
    assert ttt.outcome(full).is_draw and ttt.outcome(full).returns(2) == (0.0, 0.0)
    line = ttt.state_from_text("XXX/OO./... O")
    assert ttt.outcome(line).winner == 0 and ttt.outcome(line).returns(2) == (1.0, -1.0)


@pytest.mark.parametrize("backend", ["python", "native", "auto"])
def test_a_back_end_is_chosen_at_construction_and_replaces_no_method(backend):
    from interpreter.native.build import compiler
    from interpreter.runtime.game import Game
    if backend != "python" and compiler() is None:
        pytest.skip("no C compiler")
    g = load_game("3-spot", backend)
    methods = {name for name in dir(Game) if callable(getattr(Game, name))}
    assert not methods & set(vars(g))
    assert g.rules.name == ("native" if backend == "native" else "python")
    assert (g.native is None) == (backend == "python")  # "auto": the library for bulk work
    s = g.initial_state()
    assert g.legal_actions(s) == g.rules.legal(s) == load_game("3-spot").legal_actions(s)
