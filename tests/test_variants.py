"""Variants: a few lines over a base; precise errors when they name what the base lacks."""

import os

import pytest

from conftest import game_of
from dsl.diagnostics import RulesetError
from dsl.load import bundled_dir, load
from interpreter import load_game, perft
from test_registry import EXPECTED_A_MOTION  # "expected 'anywhere', ...": the registry's motions

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


BUNDLED = ("3-a-side, 3-a-side-balanced, 3-a-side-free-ball, 3-a-side-match, 3-spot, "
           "3-spot-middle-points, 3-spot-misere, 3-spot-optional-white, 3-spot-score-rule, force-3, "
           "three-musketeers, tic-tac-toe, tricouleur, whistling-captures")
BASE_HINT = ("  hint: a base is a .game file (a path from this file's folder, or NAME for NAME.game "
             "beside it) or a bundled ruleset: " + BUNDLED)


def test_missing_and_looping_bases(tmp_path):
    assert variant_error(tmp_path, 'variant of "no-such-game"\n') == (
        "v.game:1:12: error: base ruleset 'no-such-game' not found\n"
        '    variant of "no-such-game"\n'
        "               ^~~~~~~~~~~~~~\n" + BASE_HINT)
    assert variant_error(tmp_path, 'variant of "3-spto"\n') == (
        "v.game:1:12: error: base ruleset '3-spto' not found\n"
        '    variant of "3-spto"\n'
        "               ^~~~~~~~\n"
        "  hint: did you mean '3-spot'? (or a base is a .game file (a path from this file's folder, or "
        "NAME for NAME.game beside it) or a bundled ruleset: " + BUNDLED + ")")
    assert variant_error(tmp_path, 'variant of "sub/x.game"\n') == (
        "v.game:1:12: error: base ruleset 'sub/x.game' not found\n"
        '    variant of "sub/x.game"\n'
        "               ^~~~~~~~~~~~\n"
        "  hint: a path is relative to this file's folder")
    (tmp_path / "a.game").write_text('variant of "b"\n')
    (tmp_path / "b.game").write_text('game "B"\nvariant of "a.game"\n')
    with pytest.raises(RulesetError) as info:
        load(str(tmp_path / "a.game"))
    assert info.value.format().replace(str(tmp_path) + "/", "") == (
        "b.game:2:12: error: base ruleset 'a.game' makes a loop: a -> b -> a\n"
        '    variant of "a.game"\n'
        "               ^~~~~~~~\n"
        "  hint: a ruleset cannot be a variant of itself")


def test_a_variant_of_itself(tmp_path):
    assert variant_error(tmp_path, 'variant of "v"\ngame "V"\n') == (
        "v.game:1:12: error: base ruleset 'v' makes a loop: v -> v\n"
        '    variant of "v"\n'
        "               ^~~\n"
        "  hint: a ruleset cannot be a variant of itself")
    assert variant_error(tmp_path, 'variant of "./v.game"\n').startswith(
        "v.game:1:12: error: base ruleset './v.game' makes a loop: v -> v\n")


def test_a_loop_through_a_link(tmp_path):
    (tmp_path / "sub").mkdir()
    os.symlink(tmp_path / "v.game", tmp_path / "sub" / "w.game")
    assert variant_error(tmp_path, 'variant of "sub/w.game"\n').startswith(
        "v.game:1:12: error: base ruleset 'sub/w.game' makes a loop: v -> v\n")


def chain(tmp_path, n: int) -> str:
    """v1 over v2 over ... over vn over 3-spot: n variants deep; the path of v1."""
    for i in range(1, n + 1):
        base = f"v{i + 1}" if i < n else "3-spot"
        (tmp_path / f"v{i}.game").write_text(f'variant of "{base}"\n')
    return str(tmp_path / "v1.game")


def test_variants_nest_eight_deep(tmp_path):
    assert load(chain(tmp_path, 8)).title == "3-Spot"


def test_variants_nested_nine_deep(tmp_path):
    with pytest.raises(RulesetError) as info:
        load(chain(tmp_path, 9))
    assert info.value.format().replace(str(tmp_path) + "/", "") == (
        "v9.game:1:12: error: variants nest more than 8 deep: "
        "v1 -> v2 -> v3 -> v4 -> v5 -> v6 -> v7 -> v8 -> v9 -> ...\n"
        '    variant of "3-spot"\n'
        "               ^~~~~~~~\n"
        "  hint: a variant of a variant works up to 8 deep")
    with pytest.raises(RulesetError) as info:
        load(chain(tmp_path, 40))
    assert len(info.value.diagnostics) == 1


# ---------------------------------------------------------------- where a base is found

@pytest.mark.parametrize("base", ["/etc/passwd", "/proc/self/status", "../../../../../../../etc/passwd",
                                  "/etc", "/dev/zero", "notes.txt", ""])
def test_a_base_that_is_not_a_game_file_is_never_read(tmp_path, base):
    (tmp_path / "notes.txt").write_text("secret line\n")
    out = variant_error(tmp_path, f'variant of "{base}"\n')
    assert out == (f"v.game:1:12: error: base ruleset '{base}': not a ruleset file: its name does not "
                   f"end in .game\n"
                   f'    variant of "{base}"\n'
                   f"               ^{'~' * (len(base) + 1)}\n" + BASE_HINT)


def test_a_game_file_that_is_not_a_ruleset_gets_one_error(tmp_path):
    def base_error(name: str) -> str:
        return variant_error(tmp_path, f'variant of "{name}"\n').split("\n")[0]

    (tmp_path / "dir.game").mkdir()
    assert base_error("dir") == "v.game:1:12: error: base ruleset 'dir': is a directory, not a ruleset file"
    os.mkfifo(tmp_path / "fifo.game")
    assert base_error("fifo") == ("v.game:1:12: error: base ruleset 'fifo': is not a regular file "
                                  "(a device, a pipe or a socket), not a ruleset file")
    (tmp_path / "big.game").write_text("# " + "x" * 70_000 + "\n")
    assert base_error("big.game") == \
        "v.game:1:12: error: base ruleset 'big.game': file is larger than the limit of 64,000 bytes"
    (tmp_path / "latin1.game").write_bytes(b'game "caf\xe9"\n')
    assert base_error("latin1") == \
        "v.game:1:12: error: base ruleset 'latin1': not UTF-8 text (bad byte at offset 9)"
    (tmp_path / "nul.game").write_bytes(b'game "x"\0\n')
    assert base_error("nul") == \
        "v.game:1:12: error: base ruleset 'nul': not a text file (it contains NUL bytes)"
    os.symlink("/etc/passwd", tmp_path / "pw.game")
    assert base_error("pw") == ("v.game:1:12: error: base ruleset 'pw': not a ruleset file: a link to a "
                                "file whose name does not end in .game")
    for name in ("dir", "fifo", "big.game", "latin1", "nul", "pw"):
        assert len(variant_error(tmp_path, f'variant of "{name}"\n').split("\n")) <= 4


def test_a_bare_base_is_found_beside_the_variant_not_in_the_current_directory(tmp_path, monkeypatch):
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    (here / "3-spot.game").write_text("this line would be an error\n")
    monkeypatch.chdir(here)
    (there / "v.game").write_text('variant of "3-spot"\n')
    assert load(str(there / "v.game")).title == "3-Spot"  # the bundled one, not ./3-spot.game
    (there / "3-spot.game").write_text(open(os.path.join(bundled_dir(), "3-spot.game")).read()
                                       .replace('game "3-Spot"', 'game "Mine"'))
    assert load(str(there / "v.game")).title == "Mine"  # beside the variant comes first


def test_a_base_path_is_relative_to_the_variant(tmp_path, monkeypatch):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "base.game").write_text(open(os.path.join(bundled_dir(), "3-spot.game")).read())
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "v.game").write_text('variant of "../rules/base.game"\ngame "V"\n')
    monkeypatch.chdir(tmp_path / "rules")
    assert load("../variants/v.game").title == "V"
    assert load(str(tmp_path / "variants" / "v.game")).title == "V"


def test_a_bundled_base_may_be_named_with_its_suffix(tmp_path):
    (tmp_path / "v.game").write_text('variant of "3-spot.game"\ngame "V"\n')
    assert load(str(tmp_path / "v.game")).title == "V"


def test_a_variant_of_a_local_file(tmp_path):
    (tmp_path / "base.game").write_text(open(os.path.join(bundled_dir(), "three-musketeers.game")).read())
    (tmp_path / "v.game").write_text('variant of "base"\ngame "Local"\n')
    assert load(str(tmp_path / "v.game")).title == "Local"


# ---------------------------------------------------------------- drop, for every kind

def test_a_variant_can_lift_compulsory_capture(tmp_path):
    path = tmp_path / "v.game"
    path.write_text('variant of "tricouleur"\ndrop compulsory capture\n')
    base, free = game_of("tricouleur"), load_game(str(path))
    assert (base.ruleset.compulsory, free.ruleset.compulsory) == ("any", None)
    s = free.initial_state()
    for move in ("l3-m2", "v5-x5"):  # after these, First can capture
        s = free.apply(s, free.action_from_text(s, move))
    forced = base.state_from_text(free.state_to_text(s))
    assert all(base.captures(forced, a) for a in base.legal_actions(forced))
    captures = [a for a in free.legal_actions(s) if free.captures(s, a)]
    assert captures and len(free.legal_actions(s)) > len(captures)


def test_dropping_the_first_turn_gives_back_the_base_game(tmp_path):
    path = tmp_path / "v.game"
    path.write_text('variant of "3-a-side-balanced"\ndrop first turn\n')
    plain, balanced, dropped = game_of("3-a-side"), game_of("3-a-side-balanced"), load_game(str(path))
    assert balanced.ruleset.first_turn is not None and dropped.ruleset.first_turn is None
    counts = [perft(g, g.initial_state(), 2) for g in (plain, balanced, dropped)]
    assert counts[2] == counts[0] != counts[1]


def test_drop_reaches_every_kind_of_declaration(tmp_path):
    path = tmp_path / "v.game"
    path.write_text('variant of "3-a-side"\n'
                    "drop link l5 -- l3\n"  # a link's two cells in either order
                    "drop remove a4, m4\n"
                    "drop setup man of North\n"
                    "drop end north_goal\n")
    rs = load(str(path))
    assert rs.board.size == 37 + 2  # nothing removed; two goals
    assert rs.board.neighbours(rs.board.index["l3"], ["link"]) == []
    assert rs.board.neighbours(rs.board.index["b3"], ["link"]) == [rs.board.index["b5"]]
    assert [e.name for e in rs.ends] == ["south_goal"]
    assert [rs.types[t].owner for t in rs.setup if rs.types[t].kind == "man"] == [0]


DROP_ERRORS = {
    "required": ('variant of "3-spot"\ndrop board\n',
                 "v.game:2:1: error: cannot drop the board: a variant replaces it instead\n"
                 "    drop board\n"
                 "    ^~~~~~~~~~\n"
                 "  hint: write the variant's own `board ...` line"),
    "required_turn": ('variant of "3-spot"\ndrop turn\n',
                      "v.game:2:1: error: cannot drop the turn: a variant replaces it instead\n"
                      "    drop turn\n"
                      "    ^~~~~~~~~\n"
                      "  hint: write the variant's own `turn: ...` line"),
    "no_capture_rule": ('variant of "3-spot"\ndrop compulsory capture\n',
                        "v.game:2:1: error: cannot drop the capture rule: 3-spot has no such declaration\n"
                        "    drop compulsory capture\n"
                        "    ^~~~~~~~~~~~~~~~~~~~~~~"),
    "no_such_link": ('variant of "3-a-side"\ndrop link b3 -- b6\n',
                     "v.game:2:11: error: cannot drop link b3 -- b6: 3-a-side has no such declaration\n"
                     "    drop link b3 -- b6\n"
                     "              ^~~~~~~~\n"
                     "  hint: did you mean 'b3 -- b5'?"),
    "no_such_setup": ('variant of "3-a-side"\ndrop setup man of Nort\n',
                      "v.game:2:12: error: cannot drop setup 'man of Nort': 3-a-side has no such declaration\n"
                      "    drop setup man of Nort\n"
                      "               ^~~~~~~~~~~\n"
                      "  hint: did you mean 'man of North'?"),
    "no_such_piece": ('variant of "3-spot"\ndrop piece whit\n',
                      "v.game:2:12: error: cannot drop piece 'whit': 3-spot has no such declaration\n"
                      "    drop piece whit\n"
                      "               ^~~~\n"
                      "  hint: did you mean 'white'?"),
    "dropped_twice": ('variant of "3-spot"\ndrop end lost\ndrop end lost\n',
                      "v.game:3:1: error: end 'lost' is dropped twice (first at line 2)\n"
                      "    drop end lost\n"
                      "    ^~~~~~~~~~~~~"),
    "dropped_and_declared": ('variant of "3-spot"\ndrop end lost\nend lost: draw if score[Red] > 1\n',
                             "v.game:3:1: error: end 'lost' is both dropped and declared (line 2)\n"
                             "    end lost: draw if score[Red] > 1\n"
                             "    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
                             "  hint: a declaration replaces the base's, in its place: the `drop` is not needed; to check it elsewhere, `end lost before OTHER: ...`"),
}


@pytest.mark.parametrize("name", sorted(DROP_ERRORS))
def test_drop_errors(tmp_path, name):
    text, expected = DROP_ERRORS[name]
    assert variant_error(tmp_path, text) == expected


# ---------------------------------------------------------------- syntax errors in variants

SMALL = '''game "S"
board square 3 x 3
players A, B
piece p: owner A, symbol P
piece q: owner B, symbol Q
setup p: a1
setup q: c3
var score per player = 0
ply go: move own piece step onto empty
ply hop: move own piece slide onto empty
end e: A wins if count(q) == 0
'''


def test_syntax_errors_of_a_variant_and_its_base_come_with_the_other_errors(tmp_path):
    (tmp_path / "base.game").write_text(SMALL.replace("slide onto", "slid onto"))
    text = ('variant of "base"\n'
            "new region home a1, b1\n"  # a syntax error: no cascade where `home` is used
            "ply go: move own piece step onto empty - home\n"
            "new turn: go or hop\n"  # `hop` has a syntax error in the base: no cascade either
            "end e: A wins if score > 6\n")
    assert variant_error(tmp_path, text) == (
        "base.game:10:25: error: " + EXPECTED_A_MOTION + ", found 'slid'\n"
        "    ply hop: move own piece slid onto empty\n"
        "                            ^~~~\n"
        "  hint: did you mean 'slide'?\n"
        "v.game:2:17: error: expected ':', found 'a1'\n"
        "    new region home a1, b1\n"
        "                    ^~\n"
        "v.game:5:18: error: 'score' is kept per player: say whose\n"
        "    end e: A wins if score > 6\n"
        "                     ^~~~~\n"
        "  hint: write score[mover] or score[A]")


def test_a_variant_makes_up_for_a_broken_declaration_of_its_base(tmp_path):
    (tmp_path / "base.game").write_text(SMALL.replace("slide onto", "slid onto"))
    (tmp_path / "v.game").write_text('variant of "base"\nply hop: move own piece slide onto empty\n')
    with pytest.raises(RulesetError) as info:
        load(str(tmp_path / "v.game"))
    assert [d.message for d in info.value.diagnostics] == [
        EXPECTED_A_MOTION + ", found 'slid'"]


def test_a_broken_variant_line_stops_there(tmp_path):
    assert variant_error(tmp_path, 'variant "3-spot"\ndrop end wonn\n') == (
        "v.game:1:9: error: expected 'of', found '\"3-spot\"'\n"
        '    variant "3-spot"\n'
        "            ^~~~~~~~")


# A drop's key is the key of the declaration it names (syntax.py's `key`).
DROPS = {
    "end won": "end won: mover wins if score[mover] >= 12",
    "ply hop": "ply hop: move own piece step",
    "region point": "region point: a1",
    "var score": "var score = 0",
    "piece man": "piece man: owner each, symbol S/N",
    "relation prey": "relation prey: red > white",
    "goal top": "goal top: c1 by ne",
    "link b5 -- b3": "link b3 -- b5",
    "remove a4, m4": "remove a4, m4",
    "setup man of North": "setup man of North: e2",
    "setup ball": "setup ball: g4",
    "setup board": 'setup board: "..."',
    "compulsory capture": "compulsory maximum capture",
    "compulsory maximum capture": "compulsory capture",
    "after each ply": "after each ply: quiet += 1",
    "first turn": "first turn: any",
}


@pytest.mark.parametrize("dropped", sorted(DROPS))
def test_a_drop_has_the_key_of_what_it_drops(dropped):
    from dsl.parse import intended_key, parse_source
    drop, = parse_source(f"drop {dropped}\n", "v.game").decls
    decl, = parse_source(DROPS[dropped] + "\n", "v.game").decls
    assert drop.key == decl.key
    # ... and the key a broken declaration is taken to have is the same
    assert intended_key(DROPS[dropped] + " $") == decl.key
