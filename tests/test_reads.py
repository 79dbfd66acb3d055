"""dsl/reads.py: the piece types an expression may read; and the native solver's quiet
rules built on it (interpreter/native/cundo.py's `quiet`: every ply of the rule from one
position ends the game alike, so every arrangement's first pass applies only the first),
the cells that decide an un-move entry's first check (`leads_reads`, UNDO_READS), and the
phases whose positions have another phase's plies with the same outcomes (`alike_phases`,
UNDO_ALIKE: every arrangement's first pass counts one of them)."""

from __future__ import annotations

import os
import re
import sys

import pytest

from dsl.load import load, load_text
from dsl.reads import types_read
from interpreter.native.cgen import generate_c

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.test_unmoves import SMALL_3_A_SIDE as SMALL, VARIANTS  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TAS = os.path.join(ROOT, "rulesets", "3-a-side.game")
ONE_MAN = 'variant of "3-a-side"\ngame "3-A-Side, 1 a side"\nsetup man of North: g2\nsetup man of South: g6\n'


def _kinds(rs, reads: frozenset[int]) -> set[str]:
    return {rs.types[t].kind for t in reads}


def test_3_a_side_s_ends_read_the_ball_alone():
    rs = load(TAS)
    assert [_kinds(rs, types_read(rs, end.cond)) for end in rs.ends] == [{"ball"}, {"ball"}]
    assert [types_read(rs, end.player) for end in rs.ends] == [frozenset(), frozenset()]


@pytest.mark.parametrize("cond, kinds", [
    ("count(own man & north_goal) >= 1", {"man"}),       # a kind, through a function
    ("ball in north_goal and count(man) > 5", {"man", "ball"}),
    ("count(piece & north_goal) >= 1", {"man", "ball"}),  # every kind
    ("count(empty & north_goal) == 0", {"man", "ball"}),  # the board as a whole
    ("no legal ply", {"man", "ball"}),
])
def test_what_an_end_condition_reads(cond, kinds):
    rs = load_text(ONE_MAN + f"new end extra: North wins if {cond}\n", "extra.game")
    assert _kinds(rs, types_read(rs, rs.ends[-1].cond)) == kinds


def _quiet(text: str, name: str) -> list[int]:
    source = generate_c(load_text(text, name)).solver_source
    found = re.search(r"UNDO_FIRST\[\]\)\(const S \*, A \*\) __attribute__\(\(unused\)\) = \{([^}]*)\}", source)
    assert found is not None  # (a quiet rule has a first_N generator; the others NULL)
    return [int(x != "NULL") for x in found.group(1).split(", ")]


def test_3_a_side_s_steps_are_quiet_and_its_kicks_not():
    # codes: step, kick, kick_link, each South's then North's; the pass last
    assert _quiet(open(TAS).read(), "3-a-side.game") == [1, 1, 0, 0, 0, 0, 0]


@pytest.mark.parametrize("name, extra, quiet", [
    # an end rule reads the men: no rule is quiet
    ("men", "new end crowd: North wins if count(own man & north_goal) >= 1\n", [0] * 6),
    # `no legal ply` asked with more: every end rule is decided after each ply, and that
    # one reads the whole board
    ("stuck", "new end first: South loses if no legal ply and ball in g4\n", [0] * 6),
])
def test_a_rule_is_quiet_only_where_no_end_reads_what_it_moves(name, extra, quiet):
    assert _quiet(ONE_MAN + extra, f"{name}.game")[:-1] == quiet


def _reads(text: str, name: str) -> int:
    source = generate_c(load_text(text, name)).solver_source
    found = re.search(r"static const int UNDO_READS __attribute__\(\(unused\)\) = (-?\d+);", source)
    assert found is not None
    return int(found.group(1))


# 3-A-Side's rules on a small hexagon (tests/test_unmoves.py), its steps changed so that
# a ply's child may differ from its rule's other plies' by more than the piece it moves
STEP = "ply step: move own man step onto empty - goals\n"


@pytest.mark.parametrize("name, before, step, after", [
    ("effect", "var steps = 0 in 0..1\n", "ply step: move own man step onto empty - goals then steps = 1\n", ""),
    ("after", "var steps = 0 in 0..1\n", STEP, "after each ply: steps = 1 when count(man) > 1\n"),
    ("memory", "", "ply step: move own man step onto empty - goals where not last_ply(step)\n", ""),
    ("possible", "", STEP, ""),
])
def test_a_step_is_not_quiet_where_its_child_may_differ_otherwise(name, before, step, after):
    text = SMALL.replace(STEP, step).replace("players South", before + "players South") + after
    if name == "possible":
        text = text.replace("turn: any then any\n", "turn: any then any when possible\n")
    assert _quiet(SMALL, "small.game")[:2] == [1, 1]
    assert _quiet(text, f"{name}.game")[:2] == [0, 0]
    # nor is an un-move entry's first check decided by the cells the end rules read alone
    assert _reads(SMALL, "small.game") == 0b100
    assert _reads(text, f"{name}.game") == -1


def test_a_step_that_may_make_a_line_is_not_quiet():
    assert _quiet(VARIANTS["morris"], "morris.game") == [0, 0, 0]


def test_3_a_side_s_first_checks_are_decided_by_the_ball():
    # types: South's man, North's man, the ball (bit 2): the end rules read the ball alone
    assert _reads(open(TAS).read(), "3-a-side.game") == 0b100
    assert _reads(ONE_MAN + "new end crowd: North wins if count(own man & north_goal) >= 1\n", "men.game") == 0b111


def _alike(text: str, name: str) -> list[int]:
    source = generate_c(load_text(text, name)).solver_source
    found = re.search(r"static const int UNDO_ALIKE\[\] __attribute__\(\(unused\)\) = \{([^}]*)\};", source)
    assert found is not None
    return [int(x) for x in found.group(1).split(", ")]


def test_3_a_side_s_two_plies_of_a_turn_are_alike():
    # per player, per phase: South's and North's second ply counts as its first
    assert _alike(open(TAS).read(), "3-a-side.game") == [-1, 0, -1, 0]
    balanced = open(os.path.join(ROOT, "rulesets", "3-a-side-balanced.game")).read()
    assert _alike(balanced, "3-a-side-balanced.game") == [-1, 0, 0, -1, 0, 0]


@pytest.mark.parametrize("name, change, alike", [
    ("rules", ("turn: any then any\n", "turn: step then any\n"), [-1, -1, -1, -1]),
    ("pass", ("turn: any then any\n", "turn: any then any or pass\n"), [-1, -1, -1, -1]),
    ("three", ("turn: any then any\n", "turn: any then step then any\n"), [-1, -1, 0] * 2),
    # whose turn comes next differs after a turn's first ply and its last
    ("next", ("players South", "players South"), [-1, -1, -1, -1]),
    # `no legal ply` asked with more: decided after each ply, for the player to move next
    ("stuck", ("players South", "players South"), [-1, -1, -1, -1]),
    ("possible", ("turn: any then any\n", "turn: any then any when possible\n"), [-1, -1, -1, -1]),
])
def test_phases_are_alike_only_with_the_same_rules_and_ends_that_ask_no_turn(name, change, alike):
    assert _alike(SMALL, "small.game") == [-1, 0, -1, 0]
    text = SMALL.replace(*change)
    text += {"next": "end far: next loses if ball in e3\n",
             "stuck": "end first: South loses if no legal ply and ball in e3\n"}.get(name, "")
    assert _alike(text, f"{name}.game") == alike
