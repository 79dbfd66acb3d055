"""The constructs classic games need (connections, Hex's board, alquerque's drawn lines),
each on a small game whose figures are derived by hand in the comments."""

import pytest

from interpreter import load_game, perft

BACKENDS = ["python", "native"]


def game_from(tmp_path, text, backend, name="t.game"):
    path = tmp_path / name
    path.write_text(text)
    return load_game(str(path), backend=backend)


def neighbours(game, cell):
    b = game.board
    return sorted(b.names[v] for v in b.neighbours(b.index[cell]))


HEX = '''game "Hex 3x3"
board rhombus 3 x 3
players Red, Blue
piece red: owner Red, symbol R
piece blue: owner Blue, symbol B
ply place: place own piece onto empty
end red: Red wins if connected(rank1, rank3, red)
end blue: Blue wins if connected(file_a, file_c, blue)
'''


def test_a_rhombus_cell_touches_six_as_on_a_hex_board(tmp_path):
    game = game_from(tmp_path, HEX, "python")
    # b2 is (1, 1): (0,1) (2,1) in its rank, (1,2) and (0,2) above, (1,0) and (2,0) below
    assert neighbours(game, "b2") == ["a2", "a3", "b1", "b3", "c1", "c2"]
    # the corners: a1 touches b1, a2 (and nothing west or south); c1 touches b1, b2, c2
    assert neighbours(game, "a1") == ["a2", "b1"]
    assert neighbours(game, "c1") == ["b1", "b2", "c2"]
    assert neighbours(game, "a3") == ["a2", "b2", "b3"]
    s = game.state_from_text("R.B/.R./B.R Blue")
    assert game.render(s).splitlines()[:4] == ["  3   R . B", "  2  . R .", "  1 B . R", "    a b c"]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("position, winner", [
    ("R.B/.R./B.R Blue", "Red"),    # a3-b2-c1: each step goes se, ranks 3 to 1
    ("R.B/R../B.R Blue", None),     # a3, a2 and c1: a2 and c1 do not touch
    ("..R/BBB/R.. Red", "Blue"),    # a2-b2-c2 across, file a to file c
    ("B../.B./..B Red", "Blue"),    # a3-b2-c1 again, Blue's: file a to file c
    ("R../RB./R.B Blue", "Red"),    # file a, a1-a2-a3 (b2-c1 is Blue's, on files b and c)
])
def test_connected_joins_two_sides_by_a_path_of_stones(tmp_path, backend, position, winner):
    game = game_from(tmp_path, HEX, backend)
    result = game.winner(game.state_from_text(position))
    assert (game.players[result] if result is not None else None) == winner


@pytest.mark.parametrize("backend", BACKENDS)
def test_connected_along_one_direction_only(tmp_path, backend):
    text = HEX.replace("connected(rank1, rank3, red)", "connected(rank1, rank3, red, ne)")
    game = game_from(tmp_path, text, backend)
    # a3-b2-c1 runs along se/nw: not a connection along ne alone
    assert game.winner(game.state_from_text("R.B/.R./B.R Blue")) is None
    # a1-a2-a3 is file a: a1 -> a2 is ne (0,1 is half a cell east), a2 -> a3 ne
    assert game.players[game.winner(game.state_from_text("R../RB./R.B Blue"))] == "Red"


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_cell_in_both_sides_is_a_connection(tmp_path, backend):
    text = HEX.replace("connected(rank1, rank3, red)", "connected(file_a, rank1, red)")
    game = game_from(tmp_path, text, backend)
    assert game.players[game.winner(game.state_from_text(".../.../RB. Blue"))] == "Red"  # a1 alone
    assert game.winner(game.state_from_text(".../.../BR. Red")) is None


def test_hex_2x2_perft_and_value_by_hand(tmp_path):
    # 4 cells: 4 * 3 sequences of two plies, no game over before Red's second stone.
    # After R, B, R (24 sequences) Red has two stones: the two pairs that do not touch
    # are a1-b2? No: on the rhombus a1 touches a2, b1; b2 touches a2, b1 (and b1-a2 touch):
    # only a1-b2 do not touch. Red joins rank 1 to rank 2 with any two touching stones,
    # one on each rank: pairs {a1,a2}, {b1,b2}, {b1,a2} (not {a1,b1}, {a2,b2}: one rank).
    text = HEX.replace("rhombus 3 x 3", "rhombus 2 x 2").replace("rank3", "rank2").replace("file_c", "file_b")
    for backend in BACKENDS:
        game = game_from(tmp_path, text, backend)
        s0 = game.initial_state()
        assert [perft(game, s0, d) for d in (1, 2)] == [4, 12]
        # depth 3: Red's 2 stones of 12 possible ordered (R1, R2) with B elsewhere: for each
        # of the 6 unordered Red pairs, 2 orders x 2 Blue cells = 4 sequences -> 24; wins for
        # the 3 connecting pairs (12 sequences) end there.
        assert perft(game, s0, 3) == 24
        # depth 4: the 12 going sequences each have one cell left for Blue
        assert perft(game, s0, 4) == 12


@pytest.mark.parametrize("backend", BACKENDS)
def test_alternate_diagonals_are_alquerques_lines(tmp_path, backend):
    text = '''game "Tapatan-like"
board square 3 x 3 with alternate diagonals
players A, B
piece p: owner each, symbol X/O
ply place: place own p onto empty
end e: mover wins if line(3, own p, all, contiguous)
'''
    game = game_from(tmp_path, text, backend)
    assert neighbours(game, "b2") == ["a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"]
    assert neighbours(game, "b1") == ["a1", "b2", "c1"]  # no diagonal from an odd cell
    assert neighbours(game, "a1") == ["a2", "b1", "b2"]
    assert game.players[game.winner(game.state_from_text("OOX/.X./X.. B"))] == "A"  # a1-b2-c3


DOMINEERING = '''game "Domineering 3x3"
board square 3 x 3
players Vertical, Horizontal
piece vdom: owner Vertical, size 2, symbol V
piece hdom: owner Horizontal, size 2, symbol H
ply vertical: place own vdom onto empty where aligned(here, n)
ply horizontal: place own hdom onto empty where aligned(here, e)
'''


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_piece_covering_two_cells_is_placed_whole(tmp_path, backend):
    game = game_from(tmp_path, DOMINEERING, backend)
    s = game.initial_state()
    # Vertical's dominoes: two per file
    assert [game.action_to_text(s, a) for a in game.legal_actions(s)] == \
        ["a1+a2", "b1+b2", "c1+c2", "a2+a3", "b2+b3", "c2+c3"]
    s = game.apply(s, game.action_from_text(s, "b1+b2"))
    assert game.state_to_text(s) == ".../.V./.V. Horizontal"
    assert [game.action_to_text(s, a) for a in game.legal_actions(s)] == ["a3+b3", "b3+c3"]
    # After a1+a2, Horizontal has b1+c1, b2+c2, a3+b3, b3+c3: 4; the same for the three
    # other edge dominoes; b1+b2 and b2+b3 leave 2 each: 4 * 4 + 2 * 2 = 20.
    assert [perft(game, game.initial_state(), d) for d in (1, 2)] == [6, 20]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_placement_covers_cells_in_any_orientation(tmp_path, backend):
    # Cram: either player, either orientation; 2 x 2 has 4 dominoes, any one leaves
    # exactly one (the parallel one), then nothing: perft 4, 4, 0; the first player wins.
    text = '''game "Cram 2x2"
board square 2 x 2
players A, B
piece domino: neutral, size 2, symbol D
ply put: place domino onto empty
'''
    game = game_from(tmp_path, text, backend)
    s0 = game.initial_state()
    assert [perft(game, s0, d) for d in (1, 2, 3)] == [4, 4, 0]
    s = game.apply(s0, game.action_from_text(s0, "a1+b1"))
    assert [game.action_to_text(s, a) for a in game.legal_actions(s)] == ["a2+b2"]


JUMPS = '''game "Jumps"
board square 5 x 5 with diagonals
players A, B
piece man: owner each, symbol X/O
setup man of A: a1
setup man of B: b2, d4, d2, b4
ply jump: move own man leap diagonal chained{options} onto empty then remove path & opponent's piece
'''


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("options, plies", [
    # a1 jumps b2 to c3; from c3: over d4 to e5, over d2 to e1, over b4 to a5 (b2 is gone).
    # Any jump may end the ply: c3, then each of the three single continuations, and from
    # e5, e1, a5 no piece is left to jump next to them.
    ("", ["a1-c3", "a1-c3-a5", "a1-c3-e1", "a1-c3-e5"]),
    # to the end: only the three complete ones
    (" to the end", ["a1-c3-a5", "a1-c3-e1", "a1-c3-e5"]),
    # straight: every jump along the first's direction (ne): a1-c3-e5 only, or stopping at c3
    (" straight", ["a1-c3", "a1-c3-e5"]),
    (" straight to the end", ["a1-c3-e5"]),
])
def test_chained_leaps_jump_again_from_where_they_land(tmp_path, backend, options, plies):
    game = game_from(tmp_path, JUMPS.format(options=options), backend)
    s = game.initial_state()
    assert sorted(game.action_to_text(s, a) for a in game.legal_actions(s)) == plies
    after = game.apply(s, game.action_from_text(s, plies[-1]))
    # the jumped men are gone, each once
    assert game.state_to_text(after).split()[0].count("O") == 4 - (plies[-1].count("-"))


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_chained_leap_never_lands_on_its_start(tmp_path, backend):
    # a king's loop: a1 over b2, c3 over d4... back to a1 is refused; around the ring
    # b2, b4, d4, d2 from c1? Here: from c1 over b2 to a3, over b4 to c5, over d4 to e3,
    # over d2 to c1, its start: the loop stops at e3.
    text = JUMPS.replace("setup man of A: a1", "setup man of A: c1")
    game = game_from(tmp_path, text.format(options=" to the end"), backend)
    s = game.initial_state()
    assert sorted(game.action_to_text(s, a) for a in game.legal_actions(s)) == \
        ["c1-a3-c5-e3", "c1-e3-c5-a3"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_promote_changes_the_kind_of_the_pieces_on_the_cells(tmp_path, backend):
    text = '''game "Promotion"
board square 3 x 3
players A, B
piece man: owner each, symbol M/m
piece king: owner each, symbol K/k
setup man of A: a2
setup man of B: c1
ply go: move own man step n, s onto empty then promote here & (rank3 | rank1) to king
'''
    game = game_from(tmp_path, text, backend)
    s = game.initial_state()
    s = game.apply(s, game.action_from_text(s, "a2-a3"))
    assert game.state_to_text(s) == "K../.../..m B"
    s = game.apply(s, game.action_from_text(s, "c1-c2"))
    # not on rank 1 or 3: still a man (and A, with a king no rule moves, is stuck: B wins)
    assert game.state_to_text(s) == "K../..m/... A result=B"


PAWNS = '''game "Breakthrough 3x4"
board square 3 x 4 with diagonals
players White, Black
piece pawn: owner each, symbol W/B
direction forward: n / s
direction forward_diagonal: ne, nw / se, sw
setup pawn of White: rank1
setup pawn of Black: rank4
ply advance: move own pawn step forward, forward_diagonal onto empty
ply capture: move own pawn step forward_diagonal onto opponent's pawn
end white: White wins if count(White's pawn & rank4) > 0
end black: Black wins if count(Black's pawn & rank1) > 0
'''


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_players_own_direction_is_forward_for_each(tmp_path, backend):
    game = game_from(tmp_path, PAWNS, backend)
    s = game.initial_state()
    # White: a1 to a2, b2; b1 to a2, b2, c2; c1 to b2, c2 (north is White's forward)
    assert sorted(game.action_to_text(s, a) for a in game.legal_actions(s)) == \
        ["a1-a2", "a1-b2", "b1-a2", "b1-b2", "b1-c2", "c1-b2", "c1-c2"]
    s = game.apply(s, game.action_from_text(s, "b1-b2"))
    # Black's forward is south
    assert sorted(game.action_to_text(s, a) for a in game.legal_actions(s)) == \
        ["a4-a3", "a4-b3", "b4-a3", "b4-b3", "b4-c3", "c4-b3", "c4-c3"]
    # no rank meets the other's pawns before ply 3: 7 x 7
    assert [perft(game, game.initial_state(), d) for d in (1, 2)] == [7, 49]


def test_a_players_own_direction_in_an_expression(tmp_path):
    text = PAWNS.replace("ply advance: move own pawn step forward, forward_diagonal onto empty",
                         "ply advance: move own pawn step onto empty where here in adjacent(from, forward)")
    game = game_from(tmp_path, text, "python")
    s = game.initial_state()
    assert sorted(game.action_to_text(s, a) for a in game.legal_actions(s)) == ["a1-a2", "b1-b2", "c1-c2"]
    s = game.apply(s, game.action_from_text(s, "a1-a2"))
    assert sorted(game.action_to_text(s, a) for a in game.legal_actions(s)) == ["a4-a3", "b4-b3", "c4-c3"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_link_by_a_direction_is_a_drawn_line(tmp_path, backend):
    text = '''game "Drawn"
board square 5 x 2
remove b1, d1
link a1 -- c1 by e
link c1 -- e1 by e
players A, B
piece man: owner each, symbol X/O
ply place: place own man onto empty
end mill: mover wins if count(in_line(3, own man, e)) >= 3
'''
    game = game_from(tmp_path, text, backend)
    assert neighbours(game, "c1") == ["a1", "c2", "e1"]
    b = game.board
    assert b.neighbour(b.index["a1"], "e") == b.index["c1"] and b.neighbour(b.index["e1"], "w") == b.index["c1"]
    # a1, c1, e1 are one line of three along e: X wins with them; rank 2's three (a2 b2 c2)
    # too, but X's a2 b2 d2 are not next to each other (rank 1's row is a1 c1 e1)
    assert game.players[game.winner(game.state_from_text("...../XXX B"))] == "A"
    assert game.winner(game.state_from_text("XX.X./..O B")) is None
    assert game.players[game.winner(game.state_from_text("XXX../O.O B"))] == "A"


def test_pieces_are_drawn_in_their_colours_and_shapes(tmp_path):
    from interpreter.runtime.picture import position_svg
    text = '''game "Colours"
board square 3 x 3
players A, B
piece stone: owner each, symbol R/B, colour red/blue
piece blocker: neutral, symbol X, colour grey, shape square
piece plain: owner A, symbol P
setup blocker: b2
setup stone of B: c3
setup plain: a1
ply place: place own stone onto empty
'''
    game = game_from(tmp_path, text, "python")
    svg = position_svg(game, game.initial_state())
    assert '<circle class="piece" data-cell="c3" data-kind="stone" fill="#2e6fb7"' in svg  # blue
    assert '<rect class="piece" data-cell="b2" data-kind="blocker" fill="#8c8c8c"' in svg  # a grey square
    assert '<circle class="piece" data-cell="a1" data-kind="plain" fill="#f8f4e8"' in svg  # A's own light
    assert [(t.colour, t.shape) for t in game.ruleset.types] == \
        [("red", "disc"), ("blue", "disc"), ("grey", "square"), (None, "disc")]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_slide_of_two_or_more_has_no_maximum(tmp_path, backend):
    text = '''game "Slides"
board square 6 x 1
players A, B
piece p: owner each, symbol X/O
setup p of A: a1
setup p of B: f1
ply go: move own p slide 2 or more onto empty
'''
    game = game_from(tmp_path, text, backend)
    s = game.initial_state()
    # b1 is one step: too short; c1, d1, e1 are 2 to 4; f1 is taken
    assert [game.action_to_text(s, a) for a in game.legal_actions(s)] == ["a1-c1", "a1-d1", "a1-e1"]


def test_a_variants_end_rule_goes_before_a_base_one(tmp_path):
    (tmp_path / "v.game").write_text('variant of "tic-tac-toe"\nnew end tie before line: draw if count(empty) == 4\n')
    (tmp_path / "w.game").write_text('variant of "tic-tac-toe"\nend full before line: draw if count(empty) == 0\n')
    from dsl.load import load
    assert [e.name for e in load(str(tmp_path / "v.game")).ends] == ["tie", "line", "full"]
    assert [e.name for e in load(str(tmp_path / "w.game")).ends] == ["full", "line"]
    # the tie is checked first: five marks placed, X's line or not, it is a draw
    game = load_game(str(tmp_path / "v.game"))
    s = game.state_from_text("XX./OO./... X")
    s = game.apply(s, game.action_from_text(s, "c3"))  # X's third mark makes a line, and 4 are empty
    assert game.is_draw(s)


SIDES = '''game "sides"
board square 3 x 1
players A, B
piece man: owner each, symbol X/O
region side: a1, b1 / c1
ply put: place own man onto empty where here in side[mover]
end full: next loses if count(empty & side[next]) == 0
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_region_per_player_is_read_by_player(tmp_path, backend):
    """Hand-derived: A places on a1 or b1, B on c1 only; after A's second man B's side is
    full, and B, to move, loses (`side[next]`: the player is known only in the position)."""
    game = game_from(tmp_path, SIDES, backend)
    s = game.initial_state()
    assert sorted(game.action_to_text(s, a) for a in game.legal_actions(s)) == ["a1", "b1"]
    s = game.apply(s, game.action_from_text(s, "a1"))
    assert [game.action_to_text(s, a) for a in game.legal_actions(s)] == ["c1"]
    assert [perft(game, game.initial_state(), d) for d in (1, 2, 3, 4)] == [2, 2, 2, 0]
    s = game.apply(s, game.action_from_text(s, "c1"))
    s = game.apply(s, game.action_from_text(s, "b1"))
    assert game.is_terminal(s) and game.winner(s) == 0


SOWING = '''game "sowing"
board square 3 x 2
players A, B
piece seed: neutral, counted, symbol o
track loop: a1, b1, c1, c2, b2
setup seed: 5 each on a1, a2, c1
ply sow: move seed sow loop skipping SKIP
'''


@pytest.mark.parametrize("backend", ["python", "native"])
@pytest.mark.parametrize("skip,plies,after", [
    # a2 is off the track: it never sows. Five seeds go once round the loop's five cells,
    # so the last lands where they started: c1's go c2, b2, a1, b1 and c1.
    ("c2 - c2", ["a1-a1", "c1-c1"], {"a1": 6, "a2": 5, "b1": 1, "b2": 1, "c1": 1, "c2": 1}),
    # Oware's rule, `skipping from`: c1's five go c2, b2, a1, b1, c2 (c1 left out).
    ("from", ["a1-b1", "c1-c2"], {"a1": 6, "a2": 5, "b1": 1, "b2": 1, "c2": 2}),
    # every cell of the loop left out: nowhere to sow, no ply
    ("a1 | b1 | c1 | c2 | b2", [], None),
])
def test_a_sowing_goes_round_the_track(tmp_path, backend, skip, plies, after):
    game = game_from(tmp_path, SOWING.replace("SKIP", skip), backend)
    s = game.initial_state()
    assert sorted(game.action_to_text(s, a) for a in game.legal_actions(s)) == plies
    if after is not None:
        s = game.apply(s, game.action_from_text(s, plies[1]))
        base = game.layout.count_offsets[0]
        assert {game.board.names[c]: s[base + c] for c in range(game.board.size) if s[base + c]} == after
        assert {game.board.names[c] for c in range(game.board.size) if s[0] >> c & 1} == set(after)


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_billion_seeds_sow_in_whole_rounds(tmp_path, backend):
    """Hostile counts: 10^9 seeds on c1 go round the 5 cells 200,000,000 times at once."""
    game = game_from(tmp_path, SOWING.replace("SKIP", "c2 - c2").replace("5 each", "1000000000 each"),
                     backend)
    s = game.initial_state()
    s = game.apply(s, game.action_from_text(s, "c1-c1"))
    base = game.layout.count_offsets[0]
    assert [s[base + game.board.index[c]] for c in ("a1", "b1", "c1", "c2", "b2")] == \
        [1200000000, 200000000, 200000000, 200000000, 200000000]


RESERVES = '''game "reserves"
board square 3 x 2
players A, B
piece m: owner each, reserve 2, symbol X/O
ply put: place own m onto empty
end done: mover wins if reserve(own m) == 0 and reserve(opponent's m) == 1
end left: draw if reserve(m) == 0
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_reserve_is_read_in_an_expression(tmp_path, backend):
    """Hand-derived: A, B, A place (6, 5, 4 cells free); then A holds none and B one: A wins."""
    game = game_from(tmp_path, RESERVES, backend)
    assert [perft(game, game.initial_state(), d) for d in (1, 2, 3, 4)] == [6, 30, 120, 0]
    s = game.initial_state()
    for cell in ("a1", "b1", "c1"):
        s = game.apply(s, game.action_from_text(s, cell))
    assert game.is_terminal(s) and game.winner(s) == 0
    # `reserve(B's m)` and `reserve(m)`: one player's and both players'
    text = RESERVES.replace("reserve(opponent's m) == 1", "reserve(B's m) == 1 and reserve(m) == 1")
    game = game_from(tmp_path, text, backend, "u.game")
    assert [perft(game, game.initial_state(), d) for d in (1, 2, 3, 4)] == [6, 30, 120, 0]
