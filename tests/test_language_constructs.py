"""Rule fixes and general constructs, each on a designer's small variant.

Expected figures are derived by hand in the comments, or by an independent
implementation written here (3-Spot on 3x4 with two neutral pieces).
"""

import random

import pytest

from dsl.diagnostics import RulesetError
from interpreter import load_game
from interpreter import perft as perft_at


def perft(game, depth):
    """perft(1), ..., perft(depth) from the setup."""
    return [perft_at(game, game.initial_state(), d) for d in range(1, depth + 1)]


def variant(tmp_path, name, text):
    path = tmp_path / f"{name}.game"
    path.write_text(text)
    return load_game(str(path))


def legal(game, state):
    return [game.action_to_text(state, a) for a in game.legal_actions(state)]


def play(game, *plies):
    s = game.initial_state()
    for p in plies:
        s = game.apply(s, game.action_from_text(s, p))
    return s


# ---------------------------------------------------------------- several wide pieces of a kind

SPOT_3X4 = '''variant of "3-spot"
game "3-Spot on 3x4, two neutral pieces"
board square 3 x 4
setup white: b1 | b2, b3 | b4
'''


def _spot_perft(depth):
    """3-Spot on 3 x 4 with two White pieces, written out independently of rulecraft."""
    cells = [(f, r) for r in range(4) for f in range(3)]
    dominoes = sorted({frozenset([(f, r), (f + df, r + dr)]) for f, r in cells
                       for df, dr in ((1, 0), (0, 1)) if f + df < 3 and r + dr < 4},
                      key=sorted)
    points = {(0, 0), (1, 0), (2, 0)}

    def moves(piece, others):
        taken = set().union(*others)
        return [d for d in dominoes if d != piece and not d & taken]

    def count(blue, red, whites, scores, player, phase, d):
        if d == 0:
            return 1
        own = [blue, red][player]
        total = 0
        if phase == 0:
            for new in moves(own, [[blue, red][1 - player]] + list(whites)):
                b, r = (new, red) if player == 0 else (blue, new)
                sc = list(scores)
                sc[player] += len(new & points)
                if sc[player] >= 12:  # the game ends after the scoring
                    total += 1 if d == 1 else 0
                    continue
                whites_moves = [(i, w) for i in range(2) for w in moves(whites[i], [b, r, whites[1 - i]])]
                if whites_moves:
                    total += count(b, r, whites, tuple(sc), player, 1, d - 1)
                else:  # no White ply: the turn ends
                    total += count(b, r, whites, tuple(sc), 1 - player, 0, d - 1)
        else:
            seen = set()
            for i in range(2):
                for w in moves(whites[i], [blue, red, whites[1 - i]]):
                    new = frozenset([w, whites[1 - i]])
                    if new in seen:  # the two White pieces are interchangeable
                        continue
                    seen.add(new)
                    total += count(blue, red, tuple(sorted(new, key=sorted)), scores, 1 - player, 0, d - 1)
        return total

    def dom(a, b):
        return frozenset([a, b])

    start = (dom((2, 0), (2, 1)), dom((0, 0), (0, 1)),
             tuple(sorted([dom((1, 0), (1, 1)), dom((1, 2), (1, 3))], key=sorted)))
    return [count(*start, (0, 0), 0, 0, d) for d in range(1, depth + 1)]


def test_two_wide_pieces_of_a_kind_play_as_two_pieces(tmp_path):
    game = variant(tmp_path, "spot34", SPOT_3X4)
    s = game.initial_state()
    assert game.state_to_text(s) == ".W./.W./RWB/RWB Blue ply=1 score=0,0"
    s = game.apply(s, game.action_from_text(s, "c1+c2-c3+c4"))
    # Each White piece moves on its own (never a four-cell piece), into the free cells
    # a3, a4, c1, c2 and its own.
    assert sorted(legal(game, s)) == [
        "b1+b2-a3+a4", "b1+b2-b1+c1", "b1+b2-b2+c2", "b1+b2-c1+c2",
        "b3+b4-a3+a4", "b3+b4-a3+b3", "b3+b4-a4+b4", "b3+b4-c1+c2"]
    assert perft(game, 5) == _spot_perft(5)


def test_wide_pieces_drawn_in_a_setup_board(tmp_path):
    game = variant(tmp_path, "drawn", SPOT_3X4.replace("setup white: b1 | b2, b3 | b4", "drop setup red\n"
                   "drop setup white\ndrop setup blue\nnew setup board:\n  \"WW.\"\n  \"...\"\n  \"RWB\"\n  \"RWB\""))
    s = game.initial_state()
    assert game.state_to_text(s) == "WW./.../RWB/RWB Blue ply=1 score=0,0"
    assert game.state_from_text(game.state_to_text(s)) == s


def test_wide_pieces_read_two_ways_are_named_in_the_text(tmp_path):
    game = variant(tmp_path, "spot34", SPOT_3X4)
    # A 2x2 block of White: two pieces side by side, or one above the other.
    with pytest.raises(ValueError, match=r"split into pieces in more than one way: say which with "
                                         r"pieces.W=a1\+a2,b1\+b2"):
        game.state_from_text("WW./WW./R.B/R.B Blue ply=1 score=0,0")
    s = game.state_from_text("WW./WW./R.B/R.B Blue ply=1 score=0,0 pieces.W=a3+b3,a4+b4")
    text = game.state_to_text(s)
    assert text == "WW./WW./R.B/R.B Blue ply=1 score=0,0 pieces.W=a3+b3,a4+b4"
    assert game.state_from_text(text) == s
    other = game.state_from_text("WW./WW./R.B/R.B Blue ply=1 score=0,0 pieces.W=a3+a4,b3+b4")
    assert other != s


def test_wide_pieces_that_cannot_be_split_are_an_error(tmp_path):
    path = tmp_path / "bad.game"
    path.write_text(SPOT_3X4.replace("setup white: b1 | b2, b3 | b4", "setup white: b1, b2, b3, c3, c4, a4"))
    with pytest.raises(RulesetError) as e:
        load_game(str(path))
    assert str(e.value).splitlines()[0] == (
        f"{path}:4:1: error: the cells of 'white' (b1, b2, b3, c3, a4, c4) do not split into "
        f"pieces covering 2 cells in a straight line")


# ---------------------------------------------------------------- one definition of capture

def test_a_disc_placed_on_a_tile_captures_nothing(tmp_path):
    game = variant(tmp_path, "f3caps", '''variant of "force-3"
new var caps = 0
new after each ply: caps += captured
new compulsory capture
''')
    # Placing a disc on a tile removes nothing: not a capture for the compulsory rule
    # (every ply stays legal), and `captured` is 0 after it.
    assert perft(game, 3) == [12, 132, 1924]
    s = play(game, "a1")
    assert game.var(s, "caps") == 0
    assert game.captures(game.initial_state(), game.action_from_text(game.initial_state(), "a1")) == 0


def test_captured_counts_the_piece_landed_on(tmp_path):
    game = variant(tmp_path, "tmcaps", '''variant of "three-musketeers"
new var caps = 0
new after each ply: caps += captured
''')
    s = play(game, "a1xb1")
    assert game.var(s, "caps") == 1
    s = play(game, "a1xb1", "a2-a1")
    assert game.var(s, "caps") == 1


# ---------------------------------------------------------------- pieces standing on others

def test_a_piece_on_a_kind_never_leaves_it(tmp_path):
    game = variant(tmp_path, "hop", '''variant of "force-3"
new ply hop: move own disc anywhere onto empty | tile - disc
''')
    s = game.state_from_text("tYt/t.t/ttt Yellow")
    # The disc on b3 may hop to any tile without a disc, never into the hole b2. The same
    # plies are force-3's `shift`, so each says its rule.
    hops = [a for a in game.legal_actions(s) if game.rule_infos[a[0]].name == "hop"]
    assert sorted(game.action_to_text(s, a) for a in hops) == \
        ["hop:b3-a1", "hop:b3-a2", "hop:b3-a3", "hop:b3-b1", "hop:b3-c1", "hop:b3-c2", "hop:b3-c3"]
    rng = random.Random(3)
    for _ in range(30):  # every position reached reads back from its text
        s = game.initial_state()
        for _ in range(30):
            acts = game.legal_actions(s)
            if not acts:
                break
            s = game.apply(s, rng.choice(acts))
            assert game.state_from_text(game.state_to_text(s)) == s


# ---------------------------------------------------------------- lines

def test_three_of_four_musketeers_in_a_line(tmp_path):
    game = variant(tmp_path, "four", '''variant of "three-musketeers"
game "Four Musketeers"
setup musketeer: a1, c3, e5, a5
end aligned: Enemy wins if line(3, musketeer, orthogonal)
''')
    # a1, a3, a5 on file a (gaps allowed), e2 elsewhere: three of four in a line.
    s = game.state_from_text("Mooo./ooooo/Moooo/ooooM/Moooo Musketeers")
    assert game.winner(s) == 1
    s = game.state_from_text("Mooo./ooooo/ooMoo/ooooM/Moooo Musketeers")
    assert game.winner(s) is None
    # From the setup no three stand in a line: the first plies are all captures.
    assert perft(game, 2)[0] == 10


def test_line_contiguous_or_not(tmp_path):
    base = '''game "L"
board square 5 x 1
players A, B
piece p: owner each, symbol P/Q
ply put: place own piece onto empty
end e: A wins if {cond}
'''
    gaps = variant(tmp_path, "gaps", base.format(cond="line(3, own p, all)"))
    runs = variant(tmp_path, "runs", base.format(cond="line(3, own p, all, contiguous)"))
    for g in (gaps, runs):
        assert g.winner(g.state_from_text("PP.P. B")) == (0 if g is gaps else None)
        assert g.winner(g.state_from_text("PPP.. B")) == 0


def test_aligned_and_in_a_row_still_work(tmp_path):
    game = variant(tmp_path, "old", '''variant of "three-musketeers"
end aligned: Enemy wins if aligned(musketeer, orthogonal)
''')
    assert perft(game, 5) == perft(load_game("three-musketeers"), 5)


def test_aligned_holds_when_one_line_holds_every_cell():
    """`aligned` by the line through the two lowest cells, and by a test of each line through
    the lowest, against its definition on every set of up to 3 cells; where two lines share
    two cells (3-A-Side's lines through a goal) or past 64 cells, only the second is made."""
    from itertools import combinations

    from interpreter.python.pyruntime import _aligned, _aligned_pair
    for name, group, table in (("three-musketeers", "orthogonal", True), ("force-3", "all", True),
                               ("force-3", "diagonal", True), ("3-a-side", "all", False),
                               ("tricouleur", "all", False)):
        game = load_game(name)
        t, dirs = game.tables, game.board.groups[group]
        lines, pairs = t.line_masks(dirs), t.line_pairs(dirs)
        assert (pairs is not None) == table
        through = [[ln for ln in lines if ln >> c & 1] for c in range(t.n)]
        for k in (1, 2, 3) if t.n < 64 else (1, 2):
            for cells in combinations(range(t.n), k):
                m = sum(1 << c for c in cells)
                want = any(not m & ~ln for ln in lines)
                assert _aligned(m, through) == want, (name, cells)
                if pairs is not None:
                    assert _aligned_pair(m, pairs) == want, (name, cells)
    assert pairs is None and not _aligned(0, through)
    assert not _aligned_pair(0, load_game("force-3").tables.line_pairs(["n"]))


# ---------------------------------------------------------------- built-in regions

def test_ranks_files_and_rows_are_regions(tmp_path):
    game = variant(tmp_path, "reg", '''variant of "three-musketeers"
new region edge: rank1 | file_e
''')
    names = game.board.names
    assert sorted(names[c] for c in game.ruleset.regions["edge"]) == \
        ["a1", "b1", "c1", "d1", "e1", "e2", "e3", "e4", "e5"]
    hexa = variant(tmp_path, "hexreg", '''variant of "3-a-side"
new region top: row1
''')
    assert sorted(hexa.board.names[c] for c in hexa.ruleset.regions["top"]) == ["d1", "f1", "h1", "j1"]


def test_a_declared_region_takes_a_built_in_name(tmp_path):
    game = variant(tmp_path, "own", '''variant of "three-musketeers"
new region rank1: c3
''')
    assert [game.board.names[c] for c in game.ruleset.regions["rank1"]] == ["c3"]


# ---------------------------------------------------------------- the previous ply

def test_no_placing_on_the_tile_just_moved(tmp_path):
    game = variant(tmp_path, "f3last", '''variant of "force-3"
ply place: place own disc onto tile - disc - last_to
''')
    s = play(game, "b1-b2")
    assert game.state_to_text(s) == "ttt/ttt/t.t Green reserve.disc=3,3 previous=slide:b1-b2"
    # The tile that slid to b2 takes no disc now; every other tile does.
    assert legal(game, s) == ["a1", "c1", "a2", "c2", "a3", "b3", "c3", "a1-b1", "c1-b1", "b3-b1"]
    assert game.state_from_text(game.state_to_text(s)) == s
    # 12 first plies, 11 answers each, but after each of the 4 slides one placing fewer.
    assert perft(game, 2) == [12, 128]


def test_force_3_no_undo_reads_the_previous_ply():
    game = load_game("force-3")
    s = play(game, "b1-b2")
    assert "b2-b1" not in legal(game, s)
    # Only slides and double slides are remembered: after a placing, no previous ply.
    assert game.state_to_text(play(game, "a1")) == "ttt/t.t/Ytt Green reserve.disc=2,3"


def test_not_the_same_piece_twice_in_a_row(tmp_path):
    game = variant(tmp_path, "twice", '''game "T"
board square 3 x 3
players A, B
piece p: owner each, symbol P/Q
setup p of A: a1, c1
setup p of B: a3, c3
turn: any then any
ply go: move own piece step orthogonal onto empty where not (last_ply(go) and from == last_to)
''')
    s = play(game, "a1-b1")
    # The piece now on b1 moved last: the second ply of the turn moves the other one.
    assert sorted(legal(game, s)) == ["c1-c2"]


# ---------------------------------------------------------------- slides, path, stalemate

SLIDES = '''game "S"
board square 4 x 4
players A, B
piece p: owner each, symbol P/Q
setup p of A: a1
setup p of B: d4
ply go: move own piece slide {motion} onto empty{where}
'''


@pytest.mark.parametrize("motion, where, expected", [
    ("2 up to 3", "", ["a1-a3", "a1-a4", "a1-c1", "a1-d1"]),
    ("2", "", ["a1-a3", "a1-c1"]),
    ("up to 2", "", ["a1-a2", "a1-a3", "a1-b1", "a1-c1"]),
    ("", " where count(path) == 1", ["a1-a3", "a1-c1"]),
    ("", " where count(path & rank1) > 0", ["a1-c1", "a1-d1"]),
])
def test_slide_bounds_and_path(tmp_path, motion, where, expected):
    game = variant(tmp_path, "s", SLIDES.format(motion=motion, where=where))
    assert legal(game, game.initial_state()) == expected


def test_a_stuck_player_may_pass_instead_of_losing(tmp_path):
    text = '''game "S"
board square 3 x 1
players A, B
piece p: owner each, symbol P/Q
setup p of A: a1
setup p of B: c1
ply go: move own piece step onto empty
'''
    loses = variant(tmp_path, "loses", text)
    passes = variant(tmp_path, "passes", text + "end stuck: then turn to mover if no legal ply\n")
    draws = variant(tmp_path, "draws", text + "end stuck: draw if no legal ply\n")
    assert loses.winner(loses.state_from_text(".PQ B")) == 0
    s = play(passes, "a1-b1")  # B is stuck: the turn goes back to A
    assert passes.state_to_text(s) == ".PQ A" and legal(passes, s) == ["b1-a1"]
    assert passes.state_from_text(".PQ A") == s
    # A position's text is read as written: the rules that change the game ran before it
    # was written, so B to move here is B stuck, and the default rule ends the game.
    assert passes.winner(passes.state_from_text(".PQ B")) == 0
    assert draws.is_draw(draws.state_from_text(".PQ B"))


# ---------------------------------------------------------------- leap (docs/DESIGN.md's worked example)

LEAPS = '''game "Leaps"
board square 4 x 4
players A, B
piece man: owner each, symbol M/m
setup man of A: a1, b1
setup man of B: b2, c3
ply jump: move own man leap orthogonal onto empty then remove path & opponent's piece
ply walk: move own man step orthogonal onto empty
end gone: mover wins if count(opponent's man) == 0
'''


def occupied(game, state):
    return {game.board.names[c] for c in range(game.board.size) if game.symbol_at(state, c) != "."}


def test_leap_jumps_one_adjacent_piece_onto_the_cell_beyond(tmp_path):
    game = variant(tmp_path, "leaps", LEAPS)
    s = game.initial_state()
    # a1: steps to a2 (b1 is taken); leaps east over b1 (its own man) onto c1.
    # b1: steps to c1 (a1, b2 taken); leaps north over b2 onto b3; west, a1 has nothing
    # beyond it; c1 is empty, so nothing to jump east.
    assert sorted(legal(game, s)) == ["a1-a2", "a1-c1", "b1-b3", "b1-c1"]
    # The man jumped over is removed only if it is the opponent's.
    assert occupied(game, play(game, "a1-c1")) == {"b1", "c1", "b2", "c3"}
    after = play(game, "b1-b3")
    assert occupied(game, after) == {"a1", "b3", "c3"}
    # B's c3: steps to c2, c4, d3 (b3 is taken), leaps west over b3 onto a3, taking it.
    assert sorted(legal(game, after)) == ["c3-a3", "c3-c2", "c3-c4", "c3-d3"]
    assert occupied(game, play(game, "b1-b3", "c3-a3")) == {"a1", "a3"}


def test_leap_perft_by_hand(tmp_path):
    game = variant(tmp_path, "leaps", LEAPS)
    # B's replies to A's four plies (no leap: each man B could jump has nothing beyond):
    #   a1-a2: b2 steps to c2, b3; c3 to c2, c4, b3, d3          6
    #   a1-c1: b2 to a2, c2, b3; c3 four                         7
    #   b1-c1: b2 to a2, c2, b1, b3; c3 four                     8
    #   b1-b3 (b2 taken): c3-a3, c2, c4, d3                      4
    assert perft(game, 2) == [4, 25]


def test_a_push_removes_what_its_effects_name(tmp_path):
    # A pushes a1 into b1; `remove opponent's man & adjacent(here)` takes c1 (next to b1):
    # B has no man left, A wins. (The generator listed the removal; apply dropped it.)
    game = variant(tmp_path, "shove", '''game "Push and remove"
board square 4 x 1
players A, B
piece man: owner each, symbol M/m
setup man of A: a1
setup man of B: c1
ply shove: move own man push 1 e onto empty then remove opponent's man & adjacent(here)
end gone: mover wins if count(opponent's man) == 0
''')
    s = game.initial_state()
    assert legal(game, s) == ["a1-b1"]
    assert game.captures(s, game.action_from_text(s, "a1-b1")) == 1
    after = play(game, "a1-b1")
    assert (occupied(game, after), game.winner(after)) == ({"b1"}, 0)


# ---------------------------------------------------------------- take (docs/DESIGN.md's worked example)

TAKES = '''game "Takes"
board square 4 x 1
players White, Black
piece stone: owner each, symbol W/B
setup stone of White: a1
setup stone of Black: b1, c1, d1
ply grab: take opponent's stone where here != d1
end two: mover wins if count(stone) == 2
'''


@pytest.mark.parametrize("backend", ["python", "native"])
def test_take_removes_the_chosen_piece_and_nothing_moves(tmp_path, backend):
    from interpreter.native.build import compiler
    if backend == "native" and compiler() is None:
        pytest.skip("no C compiler")
    path = tmp_path / "takes.game"
    path.write_text(TAKES)
    game = load_game(str(path), backend)
    s = game.initial_state()
    # White may take b1 or c1 (not d1, by `where`); its own a1 is no opponent's stone.
    assert legal(game, s) == ["b1", "c1"]
    after = game.apply(s, game.action_from_text(s, "c1"))
    assert game.state_to_text(after) == "WB.B Black"
    # Black's only take is White's a1; then two stones are left and Black, the mover, wins.
    assert legal(game, after) == ["a1"]
    end = game.apply(after, game.action_from_text(after, "a1"))
    assert (game.state_to_text(end), game.winner(end)) == (".B.B White result=Black", 1)
    assert [perft_at(game, s, d) for d in (1, 2, 3)] == [2, 2, 0]


def test_take_solves_by_hand(tmp_path):
    from interpreter.search import solve
    game = variant(tmp_path, "takes", TAKES)
    sol = solve(game)
    # The start, White's two takes, Black's take after each: five positions; Black
    # always answers by taking White's only stone, so White loses.
    assert len(sol) == 5 and sol.value(game.initial_state()) == "lose"


def test_take_refuses_from(tmp_path):
    with pytest.raises(RulesetError) as e:
        variant(tmp_path, "takes", TAKES.replace("where here != d1", "where from != d1"))
    assert str(e.value) == (
        f"{tmp_path / 'takes.game'}:7:39: error: 'from' is no cell in a `take` ply: a taken piece "
        "stands at `here`\n    ply grab: take opponent's stone where from != d1\n"
        "                                          ^~~~")
