"""Where each piece type can ever stand (dsl/domains.py): hand-derived cases, and every
ruleset's random games never putting a piece off its type's cells."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from dsl.domains import fixed_cells, stand_cells
from dsl.load import load, load_text
from interpreter.runtime.game import Game

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted(p for p in (ROOT / "rulesets").rglob("*.game"))


def cells(rs, *names: str) -> int:
    return sum(1 << rs.board.index[n] for n in names)


def test_men_never_enter_a_goal():
    rs = load("3-a-side")
    full = (1 << rs.board.size) - 1
    goals = sum(1 << c for c in rs.regions["goals"])
    assert bin(goals).count("1") == 2  # the two off-board goals
    man_south, man_north, ball = stand_cells(rs)
    assert man_south == man_north == full & ~goals
    assert ball == full


HILL = """game "Hill"
board square 3 x 3
region top: a3, b3, c3
region west: a1, a2, a3
players A, B
piece man: owner each, symbol M/m
piece king: owner each, symbol K/k
piece rock: neutral, symbol R
setup man of A: b1
setup man of B: c1
setup rock: b2
ply climb: move own man step onto empty - west then promote here & top to king
ply roll: move rock step onto (empty & top) | b1
end stuck: mover loses if count(own man) == 0
"""


def test_the_bounds_of_onto_and_of_a_promotion():
    rs = load_text(HILL, "hill.game")
    types = {(t.kind, t.owner): i for i, t in enumerate(rs.types)}
    got = stand_cells(rs)
    west = cells(rs, "a1", "a2", "a3")
    full = (1 << 9) - 1
    assert got[types["man", 0]] == got[types["man", 1]] == full & ~west
    # a man is promoted where it stands, on the top row: never a3
    assert got[types["king", 0]] == got[types["king", 1]] == cells(rs, "b3", "c3")
    assert got[types["rock", None]] == cells(rs, "a3", "b3", "c3", "b1", "b2")  # its setup too
    # from another start, the start's cells count instead of the setup's
    start = [0] * len(rs.types)
    start[types["rock", None]] = cells(rs, "c2")
    assert stand_cells(rs, start)[types["rock", None]] == cells(rs, "a3", "b3", "c3", "b1", "c2")


def test_a_push_leaves_every_type_every_cell():
    text = HILL.replace("ply roll: move rock step onto (empty & top) | b1",
                        "ply roll: move rock step onto (empty & top) | b1\nply shove: move own man push 2")
    rs = load_text(text, "hill.game")
    assert stand_cells(rs) == [(1 << 9) - 1] * len(rs.types)


HOMES = """game "Homes"
board square 3 x 3
region home: a1, b1, c1 / a1, a3, b3, c3
players A, B
piece man: owner each, reserve 3, symbol M/m
ply put: place own man onto empty - home[opponent]
"""


def test_a_region_of_the_mover_or_the_opponent_is_that_players():
    """`home[opponent]` is B's home when A places: A's men never stand there (not in
    both homes: a solve's index would leave out cells A's men reach). `home[next]` may
    be either player's: only a1, in both, is out of it whatever the position."""
    rs = load_text(HOMES, "homes.game")
    a, b = stand_cells(rs)
    assert a == cells(rs, "b1", "c1", "a2", "b2", "c2")
    assert b == cells(rs, "a2", "b2", "c2", "a3", "b3", "c3")
    a, b = stand_cells(load_text(HOMES.replace("home[opponent]", "home[mover]"), "homes.game"))
    assert a == cells(rs, "a2", "b2", "c2", "a3", "b3", "c3")
    assert b == cells(rs, "b1", "c1", "a2", "b2", "c2")
    a, b = stand_cells(load_text(HOMES.replace("home[opponent]", "home[next]"), "homes.game"))
    assert a == b == (1 << 9) - 1 - cells(rs, "a1")


def test_the_cells_an_onto_names_whatever_the_position():
    # `fixed_cells`: the set when the cells always named and those maybe named are one
    rs = load_text(HILL, "hill.game")
    full = (1 << 9) - 1
    climb, roll = rs.plies
    west = cells(rs, "a1", "a2", "a3")
    assert fixed_cells(climb.onto.right, full) == west  # `- west`: a region
    assert fixed_cells(climb.onto, full) is None  # `empty - west`: the empty cells vary
    assert fixed_cells(roll.onto.right, full) == cells(rs, "b1")
    homes = load_text(HOMES, "homes.game")
    home = homes.plies[0].onto.right  # home[opponent]: B's when A places, A's when B does
    assert fixed_cells(home, full, 0) == cells(rs, "a1", "a3", "b3", "c3")
    assert fixed_cells(home, full, 1) == cells(rs, "a1", "b1", "c1")
    assert fixed_cells(home, full) is None  # the player not known: either home


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_random_games_keep_each_piece_on_its_types_cells(path):
    game = Game(load(str(path)))
    rs = game.ruleset
    allowed = stand_cells(rs)
    rng = random.Random(path.stem)
    for _ in range(6):
        state = game.initial_state()
        for _ in range(120):
            for t, m in enumerate(allowed):
                assert not state[t] & ~m, (rs.types[t].kind, game.state_to_text(state))
            if game.is_terminal(state):
                break
            state = game.apply_unchecked(state, rng.choice(game.legal_actions(state)))
