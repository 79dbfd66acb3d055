"""Hostile or unusual rulesets and texts: each a clean error or a correct run.

Move lists are derived by hand in the comments, on boards of a single row (a1 ... e1)
where every line of play can be followed.
"""

import pytest

from dsl.diagnostics import RulesetError
from interpreter.runtime import limits
from interpreter import load_game
from interpreter.python import pysource
from interpreter.apps.cli import main
from interpreter.runtime.game import IllegalActionError, PositionError
from interpreter.runtime.limits import RuleLimitError

ROW = '''game "row"
board square 5 x 1
players A, B
var score per player = 0
piece man: owner each, symbol M/m
'''


ROW_GAME = ROW + "ply p: move own man step\n"


def game_of(tmp_path, text, name="t"):
    path = tmp_path / f"{name}.game"
    path.write_text(text)
    return load_game(str(path))


def legal(game, state):
    return sorted(game.action_to_text(state, a) for a in game.legal_actions(state))


def errors(tmp_path, text):
    with pytest.raises(RulesetError) as e:
        game_of(tmp_path, text)
    return [d.format().splitlines()[0].replace(str(tmp_path) + "/", "") for d in e.value.diagnostics]


def play_out(game, plies=60):
    """Every ply of a few games, first legal ply each time, and the texts round-trip."""
    s = game.initial_state()
    for _ in range(plies):
        if game.is_terminal(s):
            break
        acts = game.legal_actions(s)
        for a in acts:
            assert game.action_from_text(s, game.action_to_text(s, a)) == a
        s = game.apply(s, acts[0])
        assert game.state_from_text(game.state_to_text(s)) == s


# ------------------------------------------------------------ generated code, every slot


def test_a_chained_slide_onto_here(tmp_path):
    # From a1 east: b1 and c1 have no foe beside them; d1 has e1 beside it, which goes, and
    # from d1 no segment takes more. `onto here` allows every cell, so a1-b1, a1-c1, a1-d1
    # (a chain is written as its route, whatever it takes).
    g = game_of(tmp_path, ROW + '''setup man of A: a1
setup man of B: e1
ply p: move own man slide chained onto here then remove adjacent(here) & opponent's man
''')
    s = g.initial_state()
    assert legal(g, s) == ["a1-b1", "a1-c1", "a1-d1"]
    assert g.state_to_text(g.apply(s, g.action_from_text(s, "a1-d1"))) == "...M. B score=0,0 result=A"
    play_out(g)


def test_a_chained_slide_onto_from_lands_nowhere(tmp_path):
    # A segment never ends where it began: no ply, and A, stuck, loses.
    g = game_of(tmp_path, ROW + '''setup man of A: a1
setup man of B: e1
ply p: move own man slide chained onto from then remove adjacent(here) & opponent's man
''')
    s = g.initial_state()
    assert legal(g, s) == [] and g.is_terminal(s) and g.winner(s) == 1


def test_a_chain_goes_on_only_over_pieces(tmp_path):
    # `remove here` names the cell landed on, which is empty: no piece goes, so no chain
    # goes on (it used to search every set of cells). A's man at c1: b1, a1, d1 (e1 holds m).
    g = game_of(tmp_path, ROW + '''setup man of A: c1
setup man of B: e1
ply p: move own man slide chained then remove here
''')
    assert legal(g, g.initial_state()) == ["c1-a1", "c1-b1", "c1-d1"]


def test_a_chain_never_removes_its_own_mover(tmp_path):
    # adjacent(path) holds the mover's own cell; it is not taken, so chains stay short.
    # c1 east: d1 (path empty); c1 west: b1, a1 (path b1: adjacent a1, c1, nothing else).
    g = game_of(tmp_path, ROW + '''setup man of A: c1
setup man of B: e1
ply p: move own man slide chained then remove adjacent(path)
''')
    assert legal(g, g.initial_state()) == ["c1-a1", "c1-b1", "c1-d1"]


TWO_SEGMENTS = '''game "two"
board square 5 x 5
players A, B
piece man: owner each, symbol M/m
setup man of A: a1
setup man of B: b2, d3
ply p: move own man slide chained {bound}then remove opponent's man & adjacent(path)
'''


def test_chained_up_to_n_segments(tmp_path):
    # First segments from a1: north to a2 (takes nothing), a3, a4, a5 (the path passes a2,
    # beside b2: b2 goes); east to b1 (nothing), c1, d1, e1 (path b1, beside b2).
    # Second segments, b2 gone: from c1 north, c4 or c5 (path c2, c3; c3 is beside d3);
    # from e1 north, e4 or e5 (path e2, e3; e3 beside d3); from a4 east to e4 (path b4, c4,
    # d4; d4 beside d3) is the ply a1-e1-e4 again (same start, end and pieces taken).
    # Nothing else: a3 and a5 east, d1 north (d3 blocks), the returns, take nothing.
    # A third segment from c4, c5, e4, e5 finds no piece left to take.
    firsts = ["a1-a2", "a1-a3", "a1-a4", "a1-a5", "a1-b1", "a1-c1", "a1-d1", "a1-e1"]
    two = game_of(tmp_path, TWO_SEGMENTS.format(bound=""))
    s = two.initial_state()
    assert legal(two, s) == sorted(firsts + ["a1-c1-c4", "a1-c1-c5", "a1-e1-e4", "a1-e1-e5"])
    assert {two.action_to_text(s, a) for a in two.legal_actions(s) if two.captures(s, a) == 2} \
        == {"a1-c1-c4", "a1-c1-c5", "a1-e1-e4", "a1-e1-e5"}
    one = game_of(tmp_path, TWO_SEGMENTS.format(bound="up to 1 segments "), name="one")
    assert legal(one, one.initial_state()) == firsts
    play_out(two)


def test_a_push_onto_cells_next_to_from(tmp_path):
    # push 1: the man moves one cell; d1 west to c1, or east into e1, taking B's man.
    g = game_of(tmp_path, ROW + '''setup man of A: d1
setup man of B: e1
ply p: move own man push 1 onto adjacent(from) then score[mover] += captured
''')
    s = g.initial_state()
    assert legal(g, s) == ["d1-c1", "d1xe1"]
    taken = g.apply(s, g.action_from_text(s, "d1xe1"))
    assert g.state_to_text(taken) == "....M B score=1,0 result=A"  # B has no man left
    quiet = g.apply(s, g.action_from_text(s, "d1-c1"))
    assert g.state_to_text(quiet) == "..M.m B score=0,0"


def test_from_is_no_cell_in_a_place_ply(tmp_path):
    assert errors(tmp_path, ROW + '''setup man of A: a1
ply p: place own man onto adjacent(from)
''') == ["t.game:7:36: error: 'from' is no cell in a `place` ply: the piece comes from the supply"]


def test_compulsory_capture_of_a_placement(tmp_path):
    # B's man on c1: placing on b1 or d1 takes it, a1 and e1 do not; capture is compulsory.
    g = game_of(tmp_path, ROW + '''setup man of B: c1
ply p: place own man then remove adjacent(here) & opponent's man
compulsory capture
''')
    s = g.initial_state()
    assert legal(g, s) == ["b1", "d1"]
    play_out(g)


def test_a_region_cannot_be_a_variable(tmp_path):
    assert errors(tmp_path, ROW + "region r: score[A]\nply p: place own man\n") == [
        "t.game:6:11: error: a variable changes during play; this needs a fixed set of cells"]


def test_generated_names_cannot_collide(tmp_path):
    # Names the generated code uses itself, as the designer's names in every slot: the game
    # still plays (names never reach the source; the checker resolves them to indices).
    kinds = ["BIT", "frm", "tgt", "acts", "FULL", "b", "t", "exec"]
    pieces = "\n".join(f"piece {n}: owner each, symbol {chr(65 + i)}/{chr(97 + i)}"
                       for i, n in enumerate(kinds))
    text = f'''game "names"
board square 4 x 4
players occ, yield
var add per player = 0
var here = 0
{pieces}
region keep: a1, b1
setup BIT of occ: a1
setup tgt of yield: d4
ply apply_0: move own BIT step then add[mover] += count(keep & own BIT), here += 1
ply moves_0: move own tgt step onto empty - keep then add[mover] -= 1
'''
    g = game_of(tmp_path, text)
    s = g.initial_state()
    assert legal(g, s) == ["a1-a2", "a1-b1"]  # no diagonals
    s = g.apply(s, g.action_from_text(s, "a1-b1"))
    assert g.state_to_text(s) == "...c/..../..../.A.. yield add=1,0 here=1"
    play_out(g)


# ------------------------------------------------------------ variables keep to a range


def test_a_variable_that_grows_without_end(tmp_path):
    g = game_of(tmp_path, ROW + '''var x = 2
setup man of A: a1
setup man of B: e1
ply p: move own man step
after each ply: x = x * x
''')
    s = g.initial_state()
    with pytest.raises(RuleLimitError) as e:
        for _ in range(10):  # 4, 16, 256, 65536, 4294967296: out of range on the fifth
            s = g.apply(s, g.legal_actions(s)[0])
    assert str(e.value) == (
        f"{tmp_path}/t.game:6:1: error: variable 'x' would be 4294967296, outside its range "
        "-1000000000..1000000000\n"
        "  hint: declare the range it needs (`var x = ... in LOW..HIGH`), or bound it in the rules")


def test_a_declared_range(tmp_path):
    g = game_of(tmp_path, ROW + '''var moves = 0 in 0..2
setup man of A: a1
setup man of B: e1
ply p: move own man step
after each ply: moves += 1
''')
    s = g.initial_state()
    for ply in ("a1-b1", "e1-d1"):
        s = g.apply(s, g.action_from_text(s, ply))
    assert g.state_to_text(s) == ".M.m. A score=0,0 moves=2"
    with pytest.raises(RuleLimitError, match="variable 'moves' would be 3, outside its range 0..2"):
        g.apply(s, g.legal_actions(s)[0])
    with pytest.raises(PositionError, match="moves is kept from 0 to 2, found 5"):
        g.state_from_text(".M.m. A moves=5")


def test_range_errors_of_the_checker(tmp_path):
    assert errors(tmp_path, ROW + "var x = 0 in 5..1\nvar y = 7 in 0..5\nply p: place own man\n") == [
        "t.game:6:1: error: the range of 'x' is empty: 5 is more than 1",
        "t.game:7:1: error: 'y' starts at 7, outside its range 0..5"]


def test_an_end_effect_keeps_its_guard(tmp_path):
    # `then ... when ...` in an end rule: the guard used to be dropped.
    g = game_of(tmp_path, ROW + '''setup man of A: a1
setup man of B: e1
ply p: move own man step
end mark: then score[mover] += 1 when count(own man & b1) == 1 if count(own man) == 1
''')
    s = g.initial_state()
    s = g.apply(s, g.action_from_text(s, "a1-b1"))
    assert g.state_to_text(s).endswith("score=1,0")
    s = g.apply(s, g.action_from_text(s, "e1-d1"))
    assert g.state_to_text(s).endswith("score=1,0")


# ------------------------------------------------------------ bounded chains and code


def test_a_chain_search_past_its_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_CHAIN_STATES", 1)  # a1, then b1 (c1 taken): two states
    g = game_of(tmp_path, ROW + '''setup man of A: a1
setup man of B: c1, e1
ply p: move own man slide chained then remove opponent's man & adjacent(here)
''')
    with pytest.raises(RuleLimitError) as e:
        g.legal_actions(g.initial_state())
    assert str(e.value) == (
        f"{tmp_path}/t.game:8:1: error: ply 'p': the chains from a1 take more than 1 states to list\n"
        "  hint: bound them with `chained up to N segments`, or make each segment remove fewer pieces")


def test_code_too_large_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(pysource, "MAX_SOURCE_LINES", 500)
    plies = "".join(f"ply p{i}: move own man step\n" for i in range(20))
    assert errors(tmp_path, ROW + "setup man of A: a1\n" + plies) == [
        "t.game:7:1: error: this ruleset compiles to more than 500 lines of code (20 ply rules, "
        "2 players, 2 piece types), the limit that keeps compiling to a few seconds"]


def test_many_kinds_compile_in_a_loop(tmp_path):
    # 60 kinds x 60 rules: the code grows with the rules, not rules x kinds.
    kinds = "".join(f'piece k{i}: owner each, symbol "{chr(0x100 + 2 * i)}"/"{chr(0x101 + 2 * i)}"\n'
                    for i in range(60))
    plies = "".join(f"ply p{i}: move own k{i} step\n" for i in range(60))
    g = game_of(tmp_path, ROW + kinds + "setup k7 of A: a1\nsetup k9 of B: e1\n" + plies)
    assert len(g.python_rules.source.splitlines()) < 60 * 2 * 90
    assert legal(g, g.initial_state()) == ["a1-b1"]


def test_a_board_past_the_cell_limit(tmp_path):
    assert errors(tmp_path, 'game "big"\nboard square 52 x 80\nplayers A, B\n') == [
        "t.game:2:1: error: a board of 4,160 cells is larger than the limit of 4,096 cells"]


def test_symbols_are_visible_characters(tmp_path):
    assert errors(tmp_path, ROW_GAME.replace("symbol M/m", 'symbol "\u00a0"/m')) == [
        "t.game:5:31: error: a symbol is one visible character other than . / # "
        "(no space or control character); got '\\xa0'"]


# ------------------------------------------------------------ position and ply texts


@pytest.mark.parametrize("text, message", [
    ("..... A score=1,\u00b2", "score takes 2 whole numbers, found '1,\u00b2'"),
    ("..... A ply=" + "9" * 5000, "ply is a whole number from 1, found '" + "9" * 40 + "...'"),
    ("..... A score=" + "1" * 30 + ",0", "score takes 2 whole numbers, found '" + "1" * 30 + ",0'"),
    ("..... A score=0,0 \x1b[31m=1", "a position holds printable characters only, found U+001B "
                                     "at character 19"),
    ("." * 200_000 + " A", "a position is at most 100,000 characters, found 200,002"),
    ("..... A score=5000000000,0", "score is kept from -1000000000 to 1000000000, found 5000000000"),
])
def test_bad_position_texts(tmp_path, text, message):
    g = game_of(tmp_path, ROW_GAME)
    with pytest.raises(PositionError) as e:
        g.state_from_text(text)
    assert str(e.value) == message


def test_bad_ply_texts(tmp_path):
    g = game_of(tmp_path, ROW + "setup man of A: a1\nply p: move own man step\n")
    s = g.initial_state()
    with pytest.raises(IllegalActionError, match="^a ply holds printable characters only, found U"
                                                 r"\+0007 at character 3$"):
        g.action_from_text(s, "a1\x07-b1")
    with pytest.raises(IllegalActionError, match=r"^'a1-b1a1-b1a1-b1a1-b1a1-b1a1-b1a1-b1a1-b1\.\.\.' "
                                                 "is not a legal ply here; legal: a1-b1$"):
        g.action_from_text(s, "a1-b1" * 1000)


def test_a_bad_position_on_the_command_line_is_usage(tmp_path, capsys):
    path = tmp_path / "t.game"
    path.write_text(ROW_GAME)
    assert main(["perft", str(path), "--position", "..... A score=1,\u00b2", "--depth", "1"]) == 2
    assert capsys.readouterr().err == (
        "rulecraft perft: error: --position: score takes 2 whole numbers, found '1,\u00b2'\n")


# ------------------------------------------------------------ found by the fuzzing suite


def test_a_board_with_every_cell_removed(tmp_path):
    assert errors(tmp_path, 'game "g"\nboard square 1\nremove a1\nplayers W, X\nregion zone: a1\n') == [
        "t.game:3:1: error: this removes every cell of the board: none is left to play on"]


def test_reading_a_position_does_not_run_effects_again(tmp_path):
    # `then v += 1 if 1 == 1` runs after every ply and on the setup, never on reading a text.
    g = game_of(tmp_path, '''game "g"
board square 2 x 1
players A, B
piece p: owner A, symbol P
var v = 0
setup p: a1
ply go: move p step
end bump: then v += 1 if 1 == 1
''')
    s = g.initial_state()
    assert g.state_to_text(s) == "P. A v=1"
    assert g.state_from_text("P. A v=1") == s
    after = g.apply(s, g.legal_actions(s)[0])
    assert g.state_to_text(after) == ".P B v=2 result=A"  # B has no piece: stuck, loses
    assert g.state_from_text(g.state_to_text(after)) == after


def test_piece_of_mixed_sizes_in_one_rule(tmp_path):
    assert errors(tmp_path, '''game "g"
board square 3 with diagonals
players Black, White
piece disc8: owner Black, symbol M
piece disc: owner Black, size 2, symbol v
setup disc: b2, c2
ply jump0: move own piece anywhere
''') == ["t.game:7:21: error: 'piece' here means pieces covering 1 and 2 cells: one rule "
         "moves pieces of one size"]


@pytest.mark.parametrize("name", ["ply", "turn", "result", "previous"])
def test_variables_cannot_take_a_text_field_name(tmp_path, name):
    assert errors(tmp_path, ROW_GAME + f"var {name} = 0\n") == [
        f"t.game:7:5: error: '{name}' is a field of a position's text (ply=, turn=, result=, "
        "previous=); a variable needs another name"]


def test_two_rules_making_plies_that_read_the_same(tmp_path):
    # The slide and the push both take the ball from d2 to d3 (and d1, c2, e2): each then
    # says its rule; the slide alone reaches b2 and a2.
    g = game_of(tmp_path, '''game "A game"
board square 5 x 3
players X, Y
piece ball: owner X, symbol 5
setup ball: d2
ply drop: move ball slide
ply nudge: move piece push 1
''')
    s = g.initial_state()
    assert legal(g, s) == ["d2-a2", "d2-b2", "drop:d2-c2", "drop:d2-d1", "drop:d2-d3", "drop:d2-e2",
                           "nudge:d2-c2", "nudge:d2-d1", "nudge:d2-d3", "nudge:d2-e2"]
    for a in g.legal_actions(s):
        assert g.action_from_text(s, g.action_to_text(s, a)) == a
    assert g.action_from_text(s, "drop:d2-a2") == g.action_from_text(s, "d2-a2")
    with pytest.raises(IllegalActionError, match="'d2-d3' is not a legal ply here"):
        g.action_from_text(s, "d2-d3")


def test_names_that_would_read_two_ways(tmp_path):
    assert errors(tmp_path, '''game "g"
board square 3 x 1
players draw, B
piece piece: neutral, symbol N
setup piece: c1
ply go: move piece step
''') == ["t.game:3:9: error: 'draw' cannot name a player: `result=draw` in a position's text "
         "means a drawn game",
         "t.game:4:7: error: 'piece' cannot name a piece kind: `move piece ...` means a piece "
         "of any kind"]


def test_a_drawn_setup_checks_wide_pieces(tmp_path):
    assert errors(tmp_path, '''game "g"
board square 4 x 2
players O, P
piece bar: owner O, size 3, symbol h
setup board:
  ". . . ."
  ". . . h"
ply drop: move piece anywhere onto a2
''') == ["t.game:5:1: error: the cells of 'bar' (d1) do not split into pieces covering 3 cells "
         "in a straight line"]


def test_a_closer_slide_along_directions_without_arcs(tmp_path):
    # One file: no arc goes east, west or diagonally; the man slides north only (b? none).
    g = game_of(tmp_path, '''game "g"
board square 1 x 3 with diagonals
players A, B
piece ball: owner each, symbol P/p
setup ball of A: a1
setup ball of B: a3
ply hop: move own ball slide where closer(here, from, opponent's ball)
''')
    assert legal(g, g.initial_state()) == ["a1-a2"]


def test_a_rule_past_its_bounds_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "t.game"
    path.write_text(ROW + '''var x = 2
setup man of A: a1
setup man of B: e1
ply p: move own man step
after each ply: x = x * x
''')
    assert main(["random", str(path), "--games", "1"]) == 1
    assert capsys.readouterr().err == (
        f"{path}:6:1: error: variable 'x' would be 4294967296, outside its range "
        "-1000000000..1000000000\n"
        "  hint: declare the range it needs (`var x = ... in LOW..HIGH`), or bound it in the rules\n")


def test_perft_node_budget_on_the_command_line(capsys):
    # Three Musketeers: perft 1..4 expand 1 + 8 + 16 + 132 = 157 positions; depth 5 more.
    assert main(["perft", "three-musketeers", "--depth", "5", "--max-nodes", "200", "--json"]) == 2
    out, err = capsys.readouterr()
    assert out == ('{"perft": [8, 16, 132, 736], "error": "perft(5) stopped after 200 positions '
                   '(the node budget)"}\n')
    assert err == "rulecraft perft: error: perft(5) stopped after 200 positions (the node budget)\n"


def test_the_unbounded_chain_of_the_issue(tmp_path):
    # `remove here` on 5 x 5 used to search every set of cells (7.5 GB and counting): the
    # landing cell is empty, nothing is taken, so each ply is one straight slide:
    # from a1 north a2..a5 and east b1..e1 (no diagonals).
    g = game_of(tmp_path, '''game "g"
board square 5 x 5
players A, B
piece man: owner each, symbol M/m
setup man of A: a1
setup man of B: e5
ply p: move own man slide chained then remove here
''')
    s = g.initial_state()
    assert legal(g, s) == ["a1-a2", "a1-a3", "a1-a4", "a1-a5", "a1-b1", "a1-c1", "a1-d1", "a1-e1"]
    play_out(g)


def test_a_piece_covering_two_cells_is_taken_whole(tmp_path):
    # Placing on b2, one cell of the domino b2+c2, takes the whole domino.
    g = game_of(tmp_path, '''game "g"
board square 3 x 2
players O, M
piece bar: owner M, size 2, symbol R
piece dot: owner O, symbol b
setup bar: b2, c2
ply keep: place own dot onto bar
''')
    s = g.initial_state()
    assert legal(g, s) == ["b2", "c2"]
    a = g.action_from_text(s, "b2")
    assert g.captures(s, a) == 1
    after = g.apply(s, a)
    assert g.state_to_text(after) == ".b./... M result=O"
    assert g.state_from_text(g.state_to_text(after)) == after


def test_a_ply_of_thousands_of_digits_in_a_scenario(tmp_path, capsys):
    path = tmp_path / "big.yaml"
    path.write_text("ruleset: tic-tac-toe\nscenarios:\n  - name: x\n    expect:\n"
                    f"      legal_includes: ['{'9' * 5000}']\n")
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"FAIL {path}:3: x\n") and "Traceback" not in out


def test_a_push_never_takes_a_piece_out_of_a_goal(tmp_path):
    # The man stands in the goal: a push line may not start there (nothing leaves a goal).
    g = game_of(tmp_path, '''game "g"
board hexagon 2
goal top: b1, d1 by ne, nw
players A, B
piece m: owner A, symbol M
setup m: top
ply shove: move m push 1
''')
    s = g.initial_state()
    assert g.legal_actions(s) == [] and g.state_to_text(s) == "../.../../M A result=B"


def test_one_rule_moving_a_piece_or_the_one_on_it(tmp_path):
    # From a1 the tile (carrying the disc) or the disc alone may go to b1: one rule, two
    # plies of one text, so each names its piece.
    g = game_of(tmp_path, '''game "g"
board square 3 x 1
players A, B
piece tile: owner A, symbol T
piece disc: owner A, on tile, symbol D
setup tile: a1, b1
setup disc: a1
ply kick: move piece anywhere onto b1
''')
    s = g.initial_state()
    assert legal(g, s) == ["D@a1-b1", "T@a1xb1"]
    for a in g.legal_actions(s):
        assert g.action_from_text(s, g.action_to_text(s, a)) == a


def test_the_parser_tables_cache_is_private_and_optional(tmp_path, monkeypatch):
    from dsl import parse

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = parse._parser_cache("grammar text")
    assert path.startswith(f"{tmp_path}/rulecraft/grammar-") and path.endswith(".cache")
    assert (tmp_path / "rulecraft").stat().st_mode & 0o777 == 0o700
    monkeypatch.setenv("RULECRAFT_NO_CACHE", "1")
    assert parse._parser_cache("grammar text") is False


EQ_BARS = '''game "eq"
board square 3 x 3
players A, B
piece bar: owner A, size 2, symbol "="
piece dot: owner B, symbol o
setup bar: b2 | c2, b3 | c3
ply put: place own dot onto empty
ply go: move own bar anywhere onto empty
end e: A wins if count(dot) == 3
'''


def test_a_wide_piece_whose_symbol_is_equals_reads_back(tmp_path):
    """`pieces.==b2+c2,b3+c3`: the symbol is one character, even when it is `=`."""
    game = game_of(tmp_path, EQ_BARS)
    s = game.initial_state()
    text = game.state_to_text(s)
    assert text == ".==/.==/... A pieces.==b2+c2,b3+c3"
    assert game.state_from_text(text) == s
    assert game.state_to_text(game.state_from_text(".==/.==/... A pieces.==b2+b3,c2+c3")) == \
        ".==/.==/... A pieces.==b2+b3,c2+c3"
    play_out(game)


def test_a_name_with_a_nul_character_is_a_clean_error():
    from dsl.load import load_text

    with pytest.raises(RulesetError) as e:
        load_text('game "x"\n', "q\0.game")
    assert e.value.format() == "q\\x00.game: error: a file name cannot hold a NUL character"
