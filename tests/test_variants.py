"""Variants: a few lines over a base; precise errors when they name what the base lacks."""

import os

import pytest

from conftest import game_of
from rulecraft.dsl.diagnostics import RulesetError
from rulecraft.dsl.load import bundled_dir, load
from rulecraft.interpreter import perft

VARIANTS = ["3-spot-misere", "3-spot-optional-white", "3-spot-middle-points", "3-spot-score-rule"]


@pytest.mark.parametrize("name", VARIANTS)
def test_a_variant_is_a_few_lines(name):
    with open(os.path.join(bundled_dir(), name + ".game"), encoding="utf-8") as f:
        lines = [ln for ln in f.read().splitlines() if ln.strip() and not ln.startswith("#")]
    assert lines[0] == 'variant of "3-spot"'
    assert len(lines) <= 4


def test_variants_differ_from_the_base_where_they_say():
    base, opt = game_of("3-spot"), game_of("3-spot-optional-white")
    s = base.initial_state()
    assert [perft(base, s, d) for d in (1, 2, 3)] == [3, 10, 33]
    assert [perft(opt, opt.initial_state(), d) for d in (1, 2, 3)] == [3, 13, 39]
    mid = game_of("3-spot-middle-points")
    assert mid.ruleset.regions["point"] == frozenset({3, 4, 5})  # a2, b2, c2
    assert base.ruleset.regions["point"] == frozenset({0, 1, 2})


def variant_error(tmp_path, text: str) -> str:
    path = tmp_path / "v.game"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load(str(path))
    return info.value.format().replace(str(tmp_path) + "/", "")


def test_breaking_one_name_gives_one_precise_error(tmp_path):
    text = ('variant of "3-spot"\ngame "3-Spot (misère)"\n'
            "end wonn: mover wins if score[mover] >= 12 and score[opponent] < 6\n")
    assert variant_error(tmp_path, text) == (
        "v.game:3:5: error: variant replaces end 'wonn', which 3-spot does not have\n"
        "    end wonn: mover wins if score[mover] >= 12 and score[opponent] < 6\n"
        "        ^~~~\n"
        "  hint: did you mean 'won'?")


def test_a_broken_name_inside_a_replacement_points_into_the_variant(tmp_path):
    text = 'variant of "3-spot"\nregion point: a2, b2, c9\n'
    assert variant_error(tmp_path, text) == (
        "v.game:2:23: error: no cell 'c9' on this board (cells a1 to c3)\n"
        "    region point: a2, b2, c9\n"
        "                          ^~")


def test_new_adds_and_may_not_replace(tmp_path):
    path = tmp_path / "v.game"
    path.write_text('variant of "3-spot"\nnew end tie: draw if score[Blue] == 11 and score[Red] == 11\n')
    assert [e.name for e in load(str(path)).ends] == ["won", "lost", "tie"]
    assert variant_error(tmp_path, 'variant of "3-spot"\nnew end won: draw if score[Blue] > 1\n') == (
        "v.game:2:5: error: 3-spot already has end 'won'\n"
        "    new end won: draw if score[Blue] > 1\n"
        "        ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
        "  hint: drop `new` to replace it")


def test_drop_removes_and_must_name_something(tmp_path):
    path = tmp_path / "v.game"
    path.write_text('variant of "3-spot"\ndrop end lost\n')
    assert [e.name for e in load(str(path)).ends] == ["won"]
    assert variant_error(tmp_path, 'variant of "3-spot"\ndrop end lose\n') == (
        "v.game:2:10: error: cannot drop end 'lose': 3-spot has no such declaration\n"
        "    drop end lose\n"
        "             ^~~~\n"
        "  hint: did you mean 'lost'?")


def test_missing_and_looping_bases(tmp_path):
    assert variant_error(tmp_path, 'variant of "no-such-game"\n') == (
        "v.game:1:1: error: base ruleset 'no-such-game' not found\n"
        '    variant of "no-such-game"\n'
        "    ^~~~~~~~~~~~~~~~~~~~~~~~~\n"
        "  hint: name a file beside this one or a bundled ruleset")
    (tmp_path / "a.game").write_text('variant of "b"\n')
    (tmp_path / "b.game").write_text('variant of "a"\n')
    with pytest.raises(RulesetError) as info:
        load(str(tmp_path / "a.game"))
    assert "loops back to itself" in info.value.format()


def test_a_variant_of_a_local_file(tmp_path):
    (tmp_path / "base.game").write_text(open(os.path.join(bundled_dir(), "three-musketeers.game")).read())
    (tmp_path / "v.game").write_text('variant of "base"\ngame "Local"\n')
    assert load(str(tmp_path / "v.game")).title == "Local"
