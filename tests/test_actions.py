"""Action formats: each rule kind's tuple layout, decoded and encoded both ways, checked
against what the compiled code makes on every bundled ruleset and on small games of the
kinds the bundled ones lack."""

import random

import pytest

from conftest import all_rulesets, game_of
from interpreter import load_game
from interpreter.runtime.actions import ActionFormat, ActionRecord, Shape, action_format

GAMES = 6
MAX_PLIES = 60


def positions(game, seed, games=GAMES, max_plies=MAX_PLIES):
    """Positions along seeded random games (the ones still going)."""
    rng = random.Random(seed)
    for _ in range(games):
        s = game.initial_state()
        for _ in range(max_plies):
            actions = game.legal_actions(s)
            if not actions:
                break
            yield s, actions
            s = game.apply(s, rng.choice(actions))


def check_actions(game, state, actions):
    """Each action decodes to a record that means what its shape says here, and encodes
    back to the same tuple."""
    types, cells = game.ruleset.types, game.board.size
    seen = set()
    for a in actions:
        fmt = game.rule_infos[a[0]].format
        rec = fmt.decode(a)
        assert fmt.encode(rec) == a
        assert game.notation.decode(a) == rec
        assert rec.rule == a[0]
        seen.add(fmt)
        for name in fmt.fields:
            assert isinstance(getattr(rec, name), int), (fmt, a)
        if fmt.shape in (Shape.MOVE, Shape.CHAIN):
            assert state[rec.piece] >> rec.from_cell & 1, (fmt, a)  # the piece is there
            assert 0 <= rec.to_cell < cells
        elif fmt.shape is Shape.PLACE:
            assert 0 <= rec.piece < len(types) and 0 <= rec.to_cell < cells
            assert not state[rec.piece] >> rec.to_cell & 1  # a new piece, where none was
        elif fmt.shape is Shape.PLACEMENT:
            masks = game.tables.placement_masks(types[rec.piece].size)
            assert state[rec.piece] and 0 <= rec.placement < len(masks)
        elif fmt.shape is Shape.PUSH:
            assert rec.direction >= 0 and rec.piece is None
            assert any(state[t] >> rec.from_cell & 1 for t in range(len(types)))
        if fmt.removes:
            assert 0 <= rec.removed < 1 << cells
    return seen


@pytest.mark.parametrize("name", all_rulesets())
def test_every_legal_action_decodes_and_encodes_back(name):
    game = game_of(name)
    formats = set()
    for state, actions in positions(game, name):
        formats |= check_actions(game, state, actions)
    assert {f.shape for f in formats} - {Shape.PASS}


def test_the_bundled_rulesets_use_these_shapes():
    used = {r.format for name in all_rulesets() for r in game_of(name).rule_infos}
    assert {f.shape for f in used} == set(Shape) - {Shape.WIDE_PLACE}  # the library's Domineering has it
    assert ActionFormat(Shape.MOVE, removes=True) in used
    assert ActionFormat(Shape.CHAIN, removes=True) in used


# ------------------------------------------------------------ kinds the bundled rulesets lack

SMALL = {  # label -> (a format its plies have, the game)
    "leap that removes": (ActionFormat(Shape.MOVE, removes=True), '''game "Leaps"
board square 4 x 4
players A, B
piece man: owner each, symbol M/m
setup man of A: a1, b1
setup man of B: b2, c3
ply jump: move own man leap orthogonal onto empty then remove path & opponent's piece
ply walk: move own man walk orthogonal up to 2 onto empty
end gone: mover wins if count(opponent's man) == 0
'''),
    "push that removes": (ActionFormat(Shape.PUSH, removes=True), '''game "Push and remove"
board square 4 x 2
players A, B
piece man: owner each, symbol M/m
setup man of A: a1, a2
setup man of B: c1, d2
ply shove: move own man push 1 e onto empty then remove opponent's man & adjacent(here)
end gone: mover wins if count(opponent's man) == 0
'''),
    "wide piece that removes": (ActionFormat(Shape.PLACEMENT, removes=True), '''variant of "3-spot"
ply white: move white anywhere onto empty then remove adjacent(here) & white
'''),
    "wide place of several kinds, removing": (ActionFormat(Shape.WIDE_PLACE, removes=True, many=True),
                                              '''game "Dominoes and bars"
board square 4 x 3
players A, B
piece domino: owner each, size 2, symbol D/d
piece bar: owner each, size 2, symbol B/b
ply two: place own piece onto empty then remove opponent's piece & adjacent(here)
end full: draw if count(empty) < 2
'''),
    "place of several kinds, removing": (ActionFormat(Shape.PLACE, removes=True, many=True),
                                         '''game "Two kinds"
board square 3 x 3
players A, B
piece pawn: owner each, symbol P/p
piece rook: owner each, symbol R/r
ply put: place own piece onto empty then remove opponent's piece & adjacent(here)
end full: draw if count(empty) == 0
'''),
}


@pytest.mark.parametrize("label", sorted(SMALL))
def test_other_rule_kinds_decode_and_encode_back(tmp_path, label):
    path = tmp_path / "small.game"
    expected, text = SMALL[label]
    path.write_text(text)
    game = load_game(str(path))
    formats = set()
    for state, actions in positions(game, label):
        formats |= check_actions(game, state, actions)
    assert expected in formats


# ------------------------------------------------------------ the formats themselves

@pytest.mark.parametrize("action, flags, shape, fields", [
    ("move", {}, Shape.MOVE, ("piece", "from_cell", "to_cell")),  # step, slide, walk, leap, anywhere
    ("move", {"removes": True}, Shape.MOVE, ("piece", "from_cell", "to_cell", "removed")),
    ("move", {"multi": True}, Shape.PLACEMENT, ("piece", "placement")),  # anywhere, a wide piece
    ("place", {}, Shape.PLACE, ("piece", "to_cell")),
    ("place", {"removes": True, "many": True}, Shape.PLACE, ("piece", "to_cell", "removed")),
    ("place", {"multi": True}, Shape.WIDE_PLACE, ("piece", "placement")),  # a piece covering several cells
    ("push", {}, Shape.PUSH, ("direction", "from_cell", "to_cell")),
    ("chain", {"removes": True}, Shape.CHAIN, ("piece", "from_cell", "to_cell", "removed")),
    ("chain", {}, Shape.CHAIN, ("piece", "from_cell", "to_cell", "removed")),
    ("pass", {}, Shape.PASS, ()),
])
def test_a_rule_kind_has_one_layout(action, flags, shape, fields):
    fmt = action_format(action, **flags)
    assert (fmt.shape, fmt.fields) == (shape, fields)
    assert fmt.many == flags.get("many", False)


def test_each_motion_declares_its_action_shape():
    from dsl.constructs import CHAINED, SYNTAX

    # Every construct's shape is one this module lays out (a new construct chooses one).
    for c in [*SYNTAX.values(), CHAINED]:
        assert action_format(c.action).shape.value == c.action
    assert {name: SYNTAX[name].action for name in ("step", "slide", "walk", "push", "anywhere", "place",
                                                   "leap")} == {
        "step": "move", "slide": "move", "walk": "move", "push": "push", "anywhere": "move",
        "place": "place", "leap": "move"}
    assert CHAINED.action == "chain"


@pytest.mark.parametrize("fmt, action, record", [
    (ActionFormat(Shape.MOVE), (3, 1, 10, 11), ActionRecord(3, piece=1, from_cell=10, to_cell=11)),
    (ActionFormat(Shape.MOVE, removes=True), (0, 0, 1, 3, 4),
     ActionRecord(0, piece=0, from_cell=1, to_cell=3, removed=4)),
    (ActionFormat(Shape.PLACEMENT), (2, 5, 17), ActionRecord(2, piece=5, placement=17)),
    (ActionFormat(Shape.PLACE, many=True), (1, 2, 8), ActionRecord(1, piece=2, to_cell=8)),
    (ActionFormat(Shape.PUSH), (4, 1, 6, 7), ActionRecord(4, direction=1, from_cell=6, to_cell=7)),
    (ActionFormat(Shape.CHAIN, removes=True), (1, 0, 2, 20, 1 << 9),
     ActionRecord(1, piece=0, from_cell=2, to_cell=20, removed=1 << 9)),
    (ActionFormat(Shape.PASS), (7,), ActionRecord(7)),
])
def test_decode_and_encode_are_inverse(fmt, action, record):
    assert fmt.decode(action) == record
    assert fmt.encode(record) == action


def test_a_tuple_of_another_layout_is_refused():
    with pytest.raises(ValueError, match=r"a move action has 4 items \(rule, piece, from_cell, "
                                         r"to_cell\), found 5"):
        ActionFormat(Shape.MOVE).decode((0, 0, 1, 2, 3))
    with pytest.raises(ValueError, match="a pass action has 1 items"):
        ActionFormat(Shape.PASS).decode((0, 1))


def test_a_record_of_another_layout_is_refused():
    with pytest.raises(ValueError, match="a move action needs to_cell"):
        ActionFormat(Shape.MOVE).encode(ActionRecord(0, piece=0, from_cell=1))
    with pytest.raises(ValueError, match="a place action has no from_cell"):
        ActionFormat(Shape.PLACE).encode(ActionRecord(0, piece=0, from_cell=1, to_cell=2))
    with pytest.raises(ValueError, match="a push action needs removed"):
        ActionFormat(Shape.PUSH, removes=True).encode(ActionRecord(0, direction=0, from_cell=1,
                                                                   to_cell=2))


def test_formats_that_no_rule_makes_are_refused():
    with pytest.raises(ValueError, match="chain"):
        ActionFormat(Shape.CHAIN)
    with pytest.raises(ValueError, match="pass"):
        ActionFormat(Shape.PASS, removes=True)
    with pytest.raises(ValueError, match="only a place"):
        ActionFormat(Shape.MOVE, many=True)
    with pytest.raises(ValueError, match="unknown action shape 'fly'"):
        action_format("fly")


def test_formats_are_values():
    assert action_format("move") == ActionFormat(Shape.MOVE)
    assert hash(action_format("move")) == hash(ActionFormat(Shape.MOVE))
    assert action_format("move", removes=True) != ActionFormat(Shape.MOVE)


def test_a_rule_format_comes_from_its_construct():
    rules = game_of("force-3").rule_infos
    assert [(r.name, r.format.shape) for r in rules if r.player in (0, None)] == [
        ("place", Shape.PLACE), ("shift", Shape.MOVE), ("slide", Shape.MOVE),
        ("double", Shape.PUSH), ("pass", Shape.PASS)]
