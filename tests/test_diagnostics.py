"""Every diagnostic of the checker, each with its exact expected message."""

import pytest

from dsl.diagnostics import RulesetError
from dsl.load import load
from test_registry import EXPECTED_A_MOTION  # "expected 'anywhere', ...": the registry's motions

BASE = '''game "T"
board square 3 x 3
players A, B
piece p: owner A, symbol P
piece q: owner B, symbol Q
setup p: a1
setup q: c3
var score per player = 0
ply go: move own piece step onto empty
end e: A wins if count(p) == 0
'''


# name: (text to replace in BASE, replacement)
CASES = {
 # name: (replace-from, replace-to) applied to BASE
 "syntax_keyword": ("ply go: move own piece step onto empty", "ply go: move own piece hop onto empty"),
 "syntax_start": ("var score", "vra score"),
 "syntax_early": ("end e: A wins if count(p) == 0", "end e: A wins if (count(p) == 0"),
 "syntax_char": ("setup q: c3", "setup q: c3 $"),
 "number_too_large": ("var score per player = 0", "var score per player = 99999999999"),
 # in a construct's own rule (built by the construct, outside the transformer's methods)
 "number_too_large_in_a_motion": ("ply go: move own piece step onto empty",
                                  "ply go: move own piece push 99999999999 onto empty"),
 "unknown_shape": ("board square 3 x 3", "board circle 3"),
 "board_too_large": ("board square 3 x 3", "board square 52 x 200"),
 "star_too_large": ("board square 3 x 3", "board star 7"),
 "star_two_sizes": ("board square 3 x 3", "board star 2 x 3"),
 "board_option": ("board square 3 x 3", "board square 3 x 3 with hexes"),
 "possessive_ply": ("ply go: move own piece step onto empty", "ply go: move C's piece step onto empty"),
 "possessive_unknown_player": ("end e: A wins if count(p) == 0", "end e: A wins if count(C's p) == 0"),
 "direction_one_list": ("var score per player = 0", "var score per player = 0\ndirection forward: n"),
 "direction_per_player": ("var score per player = 0", "var score per player = 0\ndirection forward: n / s / e"),
 "direction_in_an_end": ("end e: A wins if count(p) == 0",
                         "direction forward: n / s\nend e: A wins if count(adjacent(p, forward)) == 0"),
 "link_by_taken": ("board square 3 x 3", "board square 3 x 3\nlink a1 -- b1 by e"),
 "link_by_unknown": ("board square 3 x 3", "board square 3 x 3\nlink a1 -- c3 by ne"),
 "colour_unknown": ("piece q: owner B, symbol Q", "piece q: owner B, symbol Q, colour teal"),
 "colour_count": ("piece q: owner B, symbol Q", "piece q: owner B, symbol Q, shape disc/square"),
 "slide_or_more_up_to": ("ply go: move own piece step onto empty", "ply go: move own piece slide 2 or more up to 3 onto empty"),
 "end_before_in_a_ruleset": ("end e: A wins if count(p) == 0", "end e before f: A wins if count(p) == 0"),
 "board_options_two": ("board square 3 x 3", "board square 3 x 3 with diagonals, alternate diagonals"),
 "placed_whole_moved": ("piece q: owner B, symbol Q\nsetup p: a1\nsetup q: c3",
                        "piece q: owner B, size 2, symbol Q\nsetup p: a1\nply put: place own q onto empty"),
 "no_board": ("board square 3 x 3\n", ""),
 "no_players": ("players A, B\n", ""),
 "seven_players": ("players A, B", "players A, B, C, D, E, F, G"),
 "duplicate_piece": ("piece q: owner B, symbol Q", "piece p: owner B, symbol Q"),
 "duplicate_name": ("piece q: owner B, symbol Q", "piece A: owner B, symbol Q"),
 "unknown_owner": ("piece q: owner B, symbol Q", "piece q: owner C, symbol Q"),
 "no_owner": ("piece q: owner B, symbol Q", "piece q: symbol Q"),
 "neutral_and_owned": ("piece q: owner B, symbol Q", "piece q: owner B, neutral, symbol Q"),
 "bad_symbol": ("piece q: owner B, symbol Q", "piece q: owner B, symbol \".\""),
 "long_symbol": ("piece q: owner B, symbol Q", "piece q: owner B, symbol QQ"),
 "same_symbol": ("piece q: owner B, symbol Q", "piece q: owner B, symbol P"),
 "each_needs_symbols": ("piece q: owner B, symbol Q", "piece q: owner each, symbol Q"),
 "setup_off_board": ("setup q: c3", "setup q: d4"),
 "setup_unknown_piece": ("setup q: c3", "setup r: c3"),
 "setup_twice": ("setup q: c3", "setup q: c3\nsetup q: b3"),
 "setup_overlap": ("setup q: c3", "setup q: a1"),
 "setup_placement": ("piece q: owner B, symbol Q", "piece q: owner B, size 2, symbol Q"),
 "setup_dynamic": ("setup q: c3", "setup q: empty"),
 "unknown_direction": ("step onto empty", "step nw onto empty"),
 "unknown_ply_piece": ("move own piece step", "move own pawn step"),
 "onto_type": ("step onto empty", "step onto 3"),
 "where_type": ("step onto empty", "step onto empty where count(empty)"),
 "here_in_end": ("count(p) == 0", "count(here) == 0"),
 "stuck_in_ply": ("step onto empty", "step onto empty where no legal ply"),
 "per_player_no_index": ("count(p) == 0", "score > 3"),
 "effect_unknown_var": ("step onto empty", "step onto empty then points[mover] += 1"),
 "effect_needs_index": ("step onto empty", "step onto empty then score += 1"),
 "compare_types": ("count(p) == 0", "count(p) == p"),
 "plus_cells": ("count(p) == 0", "count(p + q) == 0"),
 "ordered_compare_cells": ("count(p) == 0", "p < q"),
 "and_number": ("count(p) == 0", "count(p) and true_thing"),
 "unknown_function": ("count(p) == 0", "size(p) == 0"),
 "arity": ("count(p) == 0", "count(p, q) == 0"),
 "in_a_row_length": ("count(p) == 0", "in_a_row(count(p), p, all)"),
 "wrong_arg": ("count(p) == 0", "aligned(p, 3)"),
 "winner_type": ("end e: A wins", "end e: p wins"),
 "unknown_turn_ply": ("end e:", "turn: go then og\nend e:"),
 "duplicate_ply": ("end e:", "ply go: move own piece step\nend e:"),
 "duplicate_end": ("ply go:", "end e: draw if count(p) == 9\nply go:"),
 "no_title": ('game "T"\n', ""),
 "unknown_cell_name": ("count(p) == 0", "count(zz) == 0"),
 "remove_unknown": ("players A, B", "remove z9\nplayers A, B"),
 "link_unknown": ("players A, B", "link a1 -- q7\nplayers A, B"),
 "drop_outside_variant": ("players A, B", "drop end e\nplayers A, B"),
 "region_dynamic": ("players A, B", "players A, B\nregion r: p"),
 "region_cells": ("players A, B", "players A, B\nregion r: a1 | 3"),
 "wide_piece_step": ("piece q: owner B, symbol Q\n", "piece q: owner B, size 2, symbol Q\n"),
 # keyword hints come from the grammar
 "syntax_start_relation": ("end e:", "relaton prey: p > q\nend e:"),
 "syntax_start_compulsory": ("end e:", "compulsary capture\nend e:"),
 "unknown_name_keyword": ("step onto empty", "step onto emtpy"),
 # directions a square board has only `with diagonals`
 "unknown_direction_diagonal": ("step onto empty", "step diagonal onto empty"),
 "unknown_direction_in_expression": ("count(p) == 0", "count(adjacent(p, se)) == 0"),
 # a syntax error does not hide the other declarations' errors, nor cascade
 "syntax_and_semantic": ("ply go: move own piece step onto empty\nend e: A wins if count(p) == 0",
                         "ply go: move own piece step onto emtpy\nply hop: move own q jump onto empty\n"
                         "turn: go or hop\nend e: A wins if count(own q) == 0 and score > 1"),
 "syntax_in_piece": ("piece q: owner B, symbol Q", "piece q: owner B symbol Q"),
 "syntax_in_board": ("board square 3 x 3", "board square 3 x"),
 "overflow_product": ("step onto empty", "step onto empty where score[mover] * score[mover] * score[mover] > 0"),
 "overflow_sum": ("count(p) == 0", "count(p) == 0 and " + " + ".join(["score[A] * score[B]"] * 10) + " > 0"),
 "overflow_negated": ("count(p) == 0", "-(score[A] * score[B] * 10) < 0"),
 "overflow_assign": ("var score per player = 0\nply go: move own piece step onto empty",
                     "var score per player = 0\nvar y = 0 in 0..223372036\n"
                     "ply go: move own piece step onto empty then score[mover] += score[A] * score[B] * 9 + score[A] * y"),
 "syntax_in_title": ('game "T"', "game T"),
 'player_region_count': ('end e: A wins if count(p) == 0', 'region r: a1 / c3 / b2\nend e: A wins if count(p & r[A]) == 0'),
 'player_region_bare': ('end e: A wins if count(p) == 0', 'region r: a1 / c3\nend e: A wins if count(p & r) == 0'),
 'player_region_in_a_region': ('end e: A wins if count(p) == 0', 'region r: a1 / c3\nregion home: r[A]\nend e: A wins if count(p) == 0'),
 'player_region_by_cell': ('end e: A wins if count(p) == 0', 'region r: a1 / c3\nend e: A wins if count(p & r[a1]) == 0'),
 'reserve_no_reserve': ('end e: A wins if count(p) == 0', 'end e: A wins if reserve(own p) == 0'),
 'reserve_of_cells': ('end e: A wins if count(p) == 0', 'end e: A wins if reserve(a1) == 0'),
 'holding_uncounted': ('end e: A wins if count(p) == 0', 'end e: A wins if count(holding(p, 1, 2)) == 0'),
 'back_along_no_track': ('end e: A wins if count(p) == 0', 'end e: A wins if count(back_along(a1, a1, p)) == 0'),
}

EXPECTED = {
    'syntax_keyword': "t.game:9:24: error: " + EXPECTED_A_MOTION + ", found 'hop'\n    ply go: move own piece hop onto empty\n                           ^~~",
    'syntax_start': "t.game:8:1: error: expected a declaration (game, board, players, piece, setup, ply, turn, end, ...), found 'vra'\n    vra score per player = 0\n    ^~~\n  hint: did you mean 'var'?",
    'syntax_early': "t.game:10:32: error: the declaration ends too early: expected ')'\n    end e: A wins if (count(p) == 0\n                                   ^",
    'syntax_char': "t.game:7:13: error: unexpected character '$'\n    setup q: c3 $\n                ^",
    'number_too_large': 't.game:8:24: error: number 99999999999 is larger than the limit of 1,000,000,000\n    var score per player = 99999999999\n                           ^~~~~~~~~~~',
    'number_too_large_in_a_motion': 't.game:9:29: error: number 99999999999 is larger than the limit of 1,000,000,000\n    ply go: move own piece push 99999999999 onto empty\n                                ^~~~~~~~~~~',
    'unknown_shape': "t.game:2:1: error: unknown board shape 'circle' (known: square, hexagon, rhombus, star)\n    board circle 3\n    ^~~~~~~~~~~~~~",
    'star_too_large': "t.game:2:1: error: a star's points have a side from 1 to 6\n    board star 7\n    ^~~~~~~~~~~~",
    'star_two_sizes': 't.game:2:1: error: a star takes one size, the side of its points: `board star 4`\n    board star 2 x 3\n    ^~~~~~~~~~~~~~~~',
    'board_too_large': 't.game:2:1: error: a board of 10,400 cells is larger than the limit of 4,096 cells\n    board square 52 x 200\n    ^~~~~~~~~~~~~~~~~~~~~',
    'possessive_ply': "t.game:9:18: error: unknown player 'C' (players: A, B)\n    ply go: move C's piece step onto empty\n                     ^~~~~",
    'possessive_unknown_player': "t.game:10:24: error: unknown player 'C' (players: A, B)\n    end e: A wins if count(C's p) == 0\n                           ^~~~~",
    'direction_one_list': "t.game:9:21: error: the declaration ends too early: expected '/'\n    direction forward: n\n                        ^",
    'direction_per_player': "t.game:9:1: error: direction 'forward' needs one list of directions for each of the 2 players, separated by /, found 3\n    direction forward: n / s / e\n    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~\n  hint: `direction forward: n / s` gives A n and B s",
    'direction_in_an_end': "t.game:11:36: error: 'forward' is each player's own direction: it is known in a ply rule, not here\n    end e: A wins if count(adjacent(p, forward)) == 0\n                                       ^~~~~~~\n  hint: name the board's directions",
    'link_by_taken': "t.game:3:18: error: a1 already has a neighbour e (b1): a straight line goes one way\n    link a1 -- b1 by e\n                     ^\n  hint: remove the cells between them first, or link without `by`",
    'link_by_unknown': "t.game:3:18: error: a link goes by one of the board's directions, with its opposite back (this board has: n, e, s, w)\n    link a1 -- c3 by ne\n                     ^~\n  hint: did you mean 'n'?",
    'colour_unknown': "t.game:5:36: error: unknown colour 'teal' (known: white, black, red, blue, green, yellow, orange, purple, brown, grey, cream, pink)\n    piece q: owner B, symbol Q, colour teal\n                                       ^~~~",
    'colour_count': "t.game:5:35: error: piece 'q' takes one shape, found 2\n    piece q: owner B, symbol Q, shape disc/square\n                                      ^~~~",
    'slide_or_more_up_to': "t.game:9:46: error: `slide 2 or more` has no maximum\n    ply go: move own piece slide 2 or more up to 3 onto empty\n                                                 ^\n  hint: write `slide 2 up to N` for at most N steps",
    'end_before_in_a_ruleset': "t.game:10:14: error: `before` places a variant's end rule among its base's; here the end rules are checked in the order they are written\n    end e before f: A wins if count(p) == 0\n                 ^\n  hint: move the rule above end 'f'",
    'board_options_two': 't.game:2:1: error: a square board takes one option: `with diagonals` or `with alternate diagonals`\n    board square 3 x 3 with diagonals, alternate diagonals\n    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~',
    'placed_whole_moved': "t.game:9:24: error: pieces of 'q' cover several cells and are placed whole: no rule may 'step' them\n    ply go: move own piece step onto empty\n                           ^~~~\n  hint: a placed piece covering several cells stays where it is put; use another kind for pieces that move",
    'board_option': "t.game:2:25: error: unknown square board option 'hexes' (known: diagonals, alternate diagonals)\n    board square 3 x 3 with hexes\n                            ^~~~~",
    'no_board': 't.game:1:1: error: the ruleset declares no board\n    game "T"\n    ^~~~~~~~\n  hint: add a line such as `board square 5 x 5`',
    'no_players': 't.game:1:1: error: the ruleset declares no players\n    game "T"\n    ^~~~~~~~\n  hint: add a line such as `players White, Black` (the first moves first)',
    'seven_players': 't.game:3:1: error: a game has 2 to 6 players; this one names 7\n    players A, B, C, D, E, F, G\n    ^~~~~~~~~~~~~~~~~~~~~~~~~~~',
    'duplicate_piece': "t.game:5:1: error: piece 'p' is declared twice (first at line 4)\n    piece p: owner B, symbol Q\n    ^~~~~~~~~~~~~~~~~~~~~~~~~~",
    'duplicate_name': "t.game:5:7: error: 'A' is already the name of a player (line 3)\n    piece A: owner B, symbol Q\n          ^\nt.game:7:7: error: unknown piece 'q'\n    setup q: c3\n          ^",
    'unknown_owner': "t.game:5:16: error: unknown player 'C'\n    piece q: owner C, symbol Q\n                   ^",
    'no_owner': "t.game:5:7: error: piece 'q' needs an owner\n    piece q: symbol Q\n          ^\n  hint: add `owner A`, `owner each` or `neutral`",
    'neutral_and_owned': "t.game:5:1: error: piece 'q' cannot be both neutral and owned\n    piece q: owner B, neutral, symbol Q\n    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~",
    'bad_symbol': 't.game:5:26: error: a symbol is one visible character other than . / # (no space or control character); got \'.\'\n    piece q: owner B, symbol "."\n                             ^~~',
    'long_symbol': "t.game:5:26: error: a symbol is one visible character other than . / # (no space or control character); got 'QQ'\n    piece q: owner B, symbol QQ\n                             ^~",
    'same_symbol': "t.game:5:26: error: symbol 'P' is already used (line 4)\n    piece q: owner B, symbol P\n                             ^",
    'each_needs_symbols': "t.game:5:7: error: piece 'q' needs 2 symbols (one per player, e.g. `symbol R/r`)\n    piece q: owner each, symbol Q\n          ^",
    'setup_off_board': "t.game:7:10: error: no cell 'd4' on this board (cells a1 to c3)\n    setup q: d4\n             ^~",
    'setup_unknown_piece': "t.game:7:7: error: unknown piece 'r'\n    setup r: c3\n          ^",
    'setup_twice': "t.game:8:1: error: setup 'q' is declared twice (first at line 7)\n    setup q: b3\n    ^~~~~~~~~~~",
    'setup_overlap': 't.game:7:1: error: cell a1 is already set up (line 6)\n    setup q: a1\n    ^~~~~~~~~~~',
    'setup_placement': "t.game:7:1: error: piece 'q' covers 2 cells in a straight line; c3 is not such a placement\n    setup q: c3\n    ^~~~~~~~~~~\n  hint: list the 2 cells one piece covers, e.g. `setup q: a1, b1`\nt.game:9:24: error: pieces covering several cells move only `anywhere` (`place` puts them down whole); 'step' is not supported for them\n    ply go: move own piece step onto empty\n                           ^~~~",
    'setup_dynamic': "t.game:7:10: error: 'empty' depends on the position; this needs a fixed set of cells\n    setup q: empty\n             ^~~~~",
    'unknown_direction': "t.game:9:29: error: unknown direction 'nw' (this board has: n, e, s, w, orthogonal, all)\n    ply go: move own piece step nw onto empty\n                                ^~\n  hint: add `with diagonals` to the board declaration (`board square 3 x 3 with diagonals`)",
    'unknown_ply_piece': "t.game:9:18: error: unknown piece 'pawn'\n    ply go: move own pawn step onto empty\n                     ^~~~",
    'onto_type': 't.game:9:34: error: expected a set of cells, found a number\n    ply go: move own piece step onto 3\n                                     ^',
    'where_type': 't.game:9:46: error: expected a condition, found a number\n    ply go: move own piece step onto empty where count(empty)\n                                                 ^~~~~~~~~~~~',
    'here_in_end': "t.game:10:24: error: 'here' means a cell of the ply being made; it is used only in ply rules\n    end e: A wins if count(here) == 0\n                           ^~~~",
    'stuck_in_ply': "t.game:9:46: error: 'no legal ply' is used only in end rules\n    ply go: move own piece step onto empty where no legal ply\n                                                 ^~~~~~~~~~~~",
    'per_player_no_index': "t.game:10:18: error: 'score' is kept per player: say whose\n    end e: A wins if score > 3\n                     ^~~~~\n  hint: write score[mover] or score[A]",
    'effect_unknown_var': "t.game:9:45: error: unknown variable 'points'\n    ply go: move own piece step onto empty then points[mover] += 1\n                                                ^~~~~~",
    'effect_needs_index': "t.game:9:45: error: 'score' is kept per player: say whose\n    ply go: move own piece step onto empty then score += 1\n                                                ^~~~~\n  hint: write score[mover]",
    'compare_types': 't.game:10:18: error: cannot compare a number with a set of cells\n    end e: A wins if count(p) == p\n                     ^~~~~~~~~~~~~',
    'plus_cells': "t.game:10:24: error: join sets of cells with '|', not '+'\n    end e: A wins if count(p + q) == 0\n                           ^~~~~",
    'ordered_compare_cells': "t.game:10:18: error: '<' compares numbers; a set of cells can only be compared with == or !=\n    end e: A wins if p < q\n                     ^~~~~",
    'and_number': "t.game:10:18: error: 'and' joins conditions; this is a number\n    end e: A wins if count(p) and true_thing\n                     ^~~~~~~~\nt.game:10:31: error: unknown name 'true_thing'\n    end e: A wins if count(p) and true_thing\n                                  ^~~~~~~~~~",
    'unknown_function': "t.game:10:18: error: unknown function 'size' (known: count, adjacent, aligned, in_a_row, undoes, last_ply, line, closer, connected, in_line, reserve, holding, back_along)\n    end e: A wins if size(p) == 0\n                     ^~~~~~~",
    'arity': 't.game:10:18: error: count() takes 1 argument, given 2\n    end e: A wins if count(p, q) == 0\n                     ^~~~~~~~~~~',
    'in_a_row_length': 't.game:10:27: error: in_a_row() needs a fixed length from 1 to 9\n    end e: A wins if in_a_row(count(p), p, all)\n                              ^~~~~~~~',
    'wrong_arg': 't.game:10:29: error: aligned() expects directions here, found a number\n    end e: A wins if aligned(p, 3)\n                                ^',
    'winner_type': 't.game:10:8: error: expected a player, found a set of cells\n    end e: p wins if count(p) == 0\n           ^',
    'unknown_turn_ply': "t.game:10:15: error: unknown ply 'og'\n    turn: go then og\n                  ^~",
    'duplicate_ply': "t.game:10:1: error: ply 'go' is declared twice (first at line 9)\n    ply go: move own piece step\n    ^~~~~~~~~~~~~~~~~~~~~~~~~~~",
    'duplicate_end': "t.game:11:1: error: end 'e' is declared twice (first at line 9)\n    end e: A wins if count(p) == 0\n    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~",
    'no_title': 't.game:1:1: error: the ruleset has no title\n    board square 3 x 3\n    ^~~~~~~~~~~~~~~~~~\n  hint: add a line such as `game "My Game"`',
    'unknown_cell_name': "t.game:10:24: error: unknown name 'zz'\n    end e: A wins if count(zz) == 0\n                           ^~",
    'remove_unknown': "t.game:3:8: error: cannot remove 'z9': no such cell\n    remove z9\n           ^~",
    'link_unknown': "t.game:3:12: error: cannot link 'q7': no such cell\n    link a1 -- q7\n               ^~",
    'drop_outside_variant': 't.game:3:1: error: \'drop\' is used only in a variant\n    drop end e\n    ^~~~~~~~~~\n  hint: start the file with `variant of "BASE"`',
    'region_dynamic': 't.game:4:11: error: pieces move; this needs a fixed set of cells (cells or regions)\n    region r: p\n              ^',
    'region_cells': "t.game:4:11: error: '|' needs a set of cells on both sides; the right side is a number\n    region r: a1 | 3\n              ^~~~~~",
    'wide_piece_step': "t.game:7:1: error: piece 'q' covers 2 cells in a straight line; c3 is not such a placement\n    setup q: c3\n    ^~~~~~~~~~~\n  hint: list the 2 cells one piece covers, e.g. `setup q: a1, b1`\nt.game:9:24: error: pieces covering several cells move only `anywhere` (`place` puts them down whole); 'step' is not supported for them\n    ply go: move own piece step onto empty\n                           ^~~~",
    'syntax_start_relation': "t.game:10:1: error: expected a declaration (game, board, players, piece, setup, ply, turn, end, ...), found 'relaton'\n    relaton prey: p > q\n    ^~~~~~~\n  hint: did you mean 'relation'?",
    'syntax_start_compulsory': "t.game:10:1: error: expected a declaration (game, board, players, piece, setup, ply, turn, end, ...), found 'compulsary'\n    compulsary capture\n    ^~~~~~~~~~\n  hint: did you mean 'compulsory'?",
    'unknown_name_keyword': "t.game:9:34: error: unknown name 'emtpy'\n    ply go: move own piece step onto emtpy\n                                     ^~~~~\n  hint: did you mean 'empty'?",
    'unknown_direction_diagonal': "t.game:9:29: error: unknown direction 'diagonal' (this board has: n, e, s, w, orthogonal, all)\n    ply go: move own piece step diagonal onto empty\n                                ^~~~~~~~\n  hint: add `with diagonals` to the board declaration (`board square 3 x 3 with diagonals`)",
    'unknown_direction_in_expression': "t.game:10:36: error: unknown direction 'se' (this board has: n, e, s, w, orthogonal, all)\n    end e: A wins if count(adjacent(p, se)) == 0\n                                       ^~\n  hint: add `with diagonals` to the board declaration (`board square 3 x 3 with diagonals`)",
    'syntax_and_semantic': "t.game:9:34: error: unknown name 'emtpy'\n    ply go: move own piece step onto emtpy\n                                     ^~~~~\n  hint: did you mean 'empty'?\nt.game:10:21: error: " + EXPECTED_A_MOTION + ", found 'jump'\n    ply hop: move own q jump onto empty\n                        ^~~~\nt.game:12:40: error: 'score' is kept per player: say whose\n    end e: A wins if count(own q) == 0 and score > 1\n                                           ^~~~~\n  hint: write score[mover] or score[A]",
    'syntax_in_piece': "t.game:5:18: error: expected ',' or the end of the declaration, found 'symbol'\n    piece q: owner B symbol Q\n                     ^~~~~~",
    'syntax_in_board': 't.game:2:17: error: the declaration ends too early: expected a number\n    board square 3 x\n                    ^',
    'overflow_product': "t.game:9:46: error: this can reach 1,000,000,000,000,000,000,000,000,000, past the 64-bit numbers the rules compute with (-9,223,372,036,854,775,808..9,223,372,036,854,775,807)\n    ply go: move own piece step onto empty where score[mover] * score[mover] * score[mover] > 0\n                                                 ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n  hint: declare a narrower range for 'score' (`var NAME = ... in LOW..HIGH`), or compute less at once",
    'overflow_sum': "t.game:10:36: error: this can reach 10,000,000,000,000,000,000, past the 64-bit numbers the rules compute with (-9,223,372,036,854,775,808..9,223,372,036,854,775,807)\n    end e: A wins if count(p) == 0 and score[A] * score[B] + score[A] * score[B] + score[A] * score[B] +...\n                                       ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n  hint: declare a narrower range for 'score' (`var NAME = ... in LOW..HIGH`), or compute less at once",
    'overflow_negated': "t.game:10:20: error: this can reach 10,000,000,000,000,000,000, past the 64-bit numbers the rules compute with (-9,223,372,036,854,775,808..9,223,372,036,854,775,807)\n    end e: A wins if -(score[A] * score[B] * 10) < 0\n                       ^~~~~~~~~~~~~~~~~~~~~~~~\n  hint: declare a narrower range for 'score' (`var NAME = ... in LOW..HIGH`), or compute less at once",
    'overflow_assign': "t.game:10:61: error: 'score += ...' can reach 9,223,372,037,000,000,000, past the 64-bit numbers the rules compute with (-9,223,372,036,854,775,808..9,223,372,036,854,775,807)\n    ply go: move own piece step onto empty then score[mover] += score[A] * score[B] * 9 + score[A] * y\n                                                                ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n  hint: declare a narrower range for 'score' and 'y' (`var NAME = ... in LOW..HIGH`), or compute less at once",
    'syntax_in_title': 't.game:1:6: error: expected a quoted string (e.g. "Three Musketeers"), found \'T\'\n    game T\n         ^',
    'player_region_count': "t.game:10:1: error: region 'r' needs one set of cells for each of the 2 players, separated by /, found 3\n    region r: a1 / c3 / b2\n    ^~~~~~~~~~~~~~~~~~~~~~",
    'player_region_bare': "t.game:11:28: error: 'r' is a region per player: say whose\n    end e: A wins if count(p & r) == 0\n                               ^\n  hint: write r[mover] or r[A]",
    'player_region_in_a_region': "t.game:11:14: error: 'r' is a region per player: it is read in the rules, where a player is known\n    region home: r[A]\n                 ^~~~",
    'player_region_by_cell': 't.game:11:30: error: expected a player, found a set of cells\n    end e: A wins if count(p & r[a1]) == 0\n                                 ^~',
    'reserve_no_reserve': "t.game:10:26: error: 'p' has no reserve: its pieces are never held off the board\n    end e: A wins if reserve(own p) == 0\n                             ^~~~~\n  hint: give it one: `piece p: ..., reserve N`",
    'reserve_of_cells': "t.game:10:26: error: reserve() counts pieces held off the board: name them as in a ply, e.g. `own man` or `White's man`\n    end e: A wins if reserve(a1) == 0\n                             ^~",
    'holding_uncounted': "t.game:10:32: error: 'p' is not counted: a cell holds one at most\n    end e: A wins if count(holding(p, 1, 2)) == 0\n                                   ^\n  hint: write `p` for the cells holding one",
    'back_along_no_track': 't.game:10:35: error: back_along() goes along a track: name one declared with `track`\n    end e: A wins if count(back_along(a1, a1, p)) == 0\n                                      ^~',
}


def diagnose(text: str, tmp_path) -> str:
    path = tmp_path / "t.game"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesetError) as info:
        load(str(path))
    # Paths are printed as given; the tests compare from the file name on.
    return info.value.format().replace(str(tmp_path) + "/", "")


def test_base_is_valid(tmp_path):
    path = tmp_path / "t.game"
    path.write_text(BASE, encoding="utf-8")
    assert load(str(path)).title == "T"


# The constructs of hex boards, goals, links, walks and end effects (3-A-Side).
HEX = '''game "H"
board hexagon 3
remove a3, i3
link b2 -- b4
goal top: c1, e1, g1 by ne, nw
players A, B
piece m: owner each, symbol X/Y
piece ball: neutral, symbol o
setup m of A: c5
setup m of B: c1
setup ball: e3
ply step: move own m step onto empty - top
ply kick: move ball slide up to count(own m & adjacent(from))
end g: A wins if ball in top
'''

HEX_CASES = {
 "hex_two_sizes": ("board hexagon 3", "board hexagon 3 x 3"),
 "hex_side": ("board hexagon 3", "board hexagon 40"),
 "link_missing_vertex": ("link b2 -- b4", "link b2 -- z4"),
 "link_same": ("link b2 -- b4", "link b2 -- b2"),
 "goal_unknown_cell": ("goal top: c1, e1, g1", "goal top: c1, e1, q1"),
 "goal_unknown_direction": ("by ne, nw", "by ne, n"),
 "goal_inner_direction": ("by ne, nw", "by ne, e"),
 "goal_named_like_cell": ("goal top:", "goal c1:"),
 "slide_along_link": ("slide up to", "slide link up to"),
 "here_in_limit": ("adjacent(from))", "adjacent(here))"),
 "reset_in_ply": ("onto empty - top", "onto empty - top then reset setup"),
 "in_number": ("ball in top", "3 in top"),
 "turn_to_cells": ("end g: A wins if ball in top", "end g: then turn to ball if ball in top"),
}

HEX_EXPECTED = {
    'hex_two_sizes': 't.game:2:1: error: a hexagon takes one size: `board hexagon 4`\n    board hexagon 3 x 3\n    ^~~~~~~~~~~~~~~~~~~',
    'hex_side': "t.game:2:1: error: a hexagon's side is from 2 to 13\n    board hexagon 40\n    ^~~~~~~~~~~~~~~~",
    'link_missing_vertex': "t.game:4:12: error: cannot link 'z4': no such cell\n    link b2 -- z4\n               ^~",
    'link_same': 't.game:4:1: error: a link joins two different cells\n    link b2 -- b2\n    ^~~~~~~~~~~~~',
    'goal_unknown_cell': "t.game:5:19: error: a goal is entered from a cell of the board; 'q1' is not one\n    goal top: c1, e1, q1 by ne, nw\n                      ^~",
    'goal_unknown_direction': "t.game:5:29: error: a goal is entered by a direction of the board; this board has no direction 'n' (it has: e, ne, nw, w, sw, se)\n    goal top: c1, e1, g1 by ne, n\n                                ^\n  hint: did you mean 'nw'?",
    'goal_inner_direction': 't.game:5:1: error: c1 already has a neighbour to the e (e1); a goal is entered by a step that leaves the board\n    goal top: c1, e1, g1 by ne, e\n    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~',
    'goal_named_like_cell': "t.game:5:6: error: goal 'c1' has the name of a cell\n    goal c1: c1, e1, g1 by ne, nw\n         ^~\nt.game:12:40: error: unknown name 'top'\n    ply step: move own m step onto empty - top\n                                           ^~~\nt.game:14:26: error: unknown name 'top'\n    end g: A wins if ball in top\n                             ^~~",
    'slide_along_link': 't.game:13:27: error: a link has no direction, so no straight line follows it\n    ply kick: move ball slide link up to count(own m & adjacent(from))\n                              ^~~~\n  hint: move along links with `step link`',
    'here_in_limit': "t.game:13:56: error: 'here' is not known yet: a distance is counted before the piece moves\n    ply kick: move ball slide up to count(own m & adjacent(here))\n                                                           ^~~~\n  hint: use 'from', the cell it leaves",
    'reset_in_ply': 't.game:12:49: error: `reset setup` is an effect of end rules only\n    ply step: move own m step onto empty - top then reset setup\n                                                    ^~~~~~~~~~~',
    'in_number': "t.game:14:18: error: 'in' asks whether cells lie in a set; the left side is a number\n    end g: A wins if 3 in top\n                     ^~~~~~~~",
    'turn_to_cells': 't.game:14:21: error: expected a player, found a set of cells\n    end g: then turn to ball if ball in top\n                        ^~~~',
}


def test_hex_base_is_valid(tmp_path):
    path = tmp_path / "t.game"
    path.write_text(HEX, encoding="utf-8")
    assert load(str(path)).board.size == 18  # 19 - 2 removed + 1 goal


# Stacks, pushes and looking back at the previous ply (Force 3).
STACK = '''game "S"
board square 3 x 3
players A, B
piece tile: neutral, symbol t
piece disc: owner each, on tile, reserve 2, symbol X/Y
setup tile: a1, b1, c1, a2, c2
ply place: place own disc onto tile - disc
ply slide: move tile step onto empty where not undoes(slide, double)
ply double: move tile push 2 orthogonal onto empty where not undoes(slide, double)
end e: mover wins if in_a_row(3, own disc, all)
'''

STACK_CASES = {
 "on_unknown": ("on tile,", "on tyle,"),
 "on_loop": ("piece tile: neutral, symbol t", "piece tile: neutral, on disc, symbol t"),
 "on_owned_each": ("piece tile: neutral, symbol t", "piece tile: owner each, symbol t/u"),
 "setup_without_carrier": ("setup tile: a1, b1, c1, a2, c2", "setup tile: a1, b1, c1, a2, c2\nsetup disc of A: c3"),
 "undoes_not_ply": ("undoes(slide, double)\nply double", "undoes(slide, tile)\nply double"),
 "undoes_in_end": ("in_a_row(3, own disc, all)", "undoes(slide)"),
 "undoes_empty": ("where not undoes(slide, double)\nply double", "where not undoes()\nply double"),
 "push_zero": ("push 2", "push 0"),
 "push_link": ("push 2 orthogonal", "push 2 link"),
}

STACK_EXPECTED = {
    'on_unknown': "t.game:5:28: error: piece 'disc' stands on unknown piece 'tyle'\n    piece disc: owner each, on tyle, reserve 2, symbol X/Y\n                               ^~~~\n  hint: did you mean 'tile'?",
    'on_loop': 't.game:4:25: error: pieces standing on each other in a loop: disc on tile on disc\n    piece tile: neutral, on disc, symbol t\n                            ^~~~\nt.game:5:28: error: pieces standing on each other in a loop: tile on disc on tile\n    piece disc: owner each, on tile, reserve 2, symbol X/Y\n                               ^~~~',
    'on_owned_each': "t.game:5:28: error: piece 'disc' must stand on a kind with a single owner or none; 'tile' has one per player\n    piece disc: owner each, on tile, reserve 2, symbol X/Y\n                               ^~~~\nt.game:6:7: error: every player has 'tile' pieces: say whose\n    setup tile: a1, b1, c1, a2, c2\n          ^~~~\n  hint: write `setup tile of A: ...`",
    'setup_without_carrier': 't.game:7:1: error: a disc stands on a tile; c3 has none\n    setup disc of A: c3\n    ^~~~~~~~~~~~~~~~~~~',
    'undoes_not_ply': "t.game:8:62: error: undoes() takes ply names; 'tile' is not a ply\n    ply slide: move tile step onto empty where not undoes(slide, tile)\n                                                                 ^~~~",
    'undoes_in_end': "t.game:10:22: error: undoes() compares a ply with the one before it; it is used only in a ply's `where`\n    end e: mover wins if undoes(slide)\n                         ^~~~~~~~~~~~~",
    'undoes_empty': 't.game:8:48: error: undoes() names the plies it looks back at, e.g. undoes(slide)\n    ply slide: move tile step onto empty where not undoes()\n                                                   ^~~~~~~~',
    'push_zero': 't.game:9:23: error: a push moves a line of 1 to 9 pieces\n    ply double: move tile push 0 orthogonal onto empty where not undoes(slide, double)\n                          ^~~~~~~~~~~~~~~~~',
    'push_link': "t.game:9:30: error: unknown direction 'link' (this board has: n, e, s, w, orthogonal, all)\n    ply double: move tile push 2 link onto empty where not undoes(slide, double)\n                                 ^~~~",
}


def test_stack_base_is_valid(tmp_path):
    path = tmp_path / "t.game"
    path.write_text(STACK, encoding="utf-8")
    assert load(str(path)).remembers  # undoes() looks back at the previous ply


# Removals over a path, relations, closeness, chains, capture rules, setup boards.
WHISTLE = '''game "W"
board hexagon 3
players A, B
piece red: owner each, symbol R/r
piece blue: owner each, symbol B/b
relation beats: red > blue, blue > red
setup board:
  ". R ."
  ". . . ."
  ". . . . ."
  ". . . ."
  ". b ."
var quiet = 0
ply slide: move own piece slide chained onto empty where closer(here, from, opponent's piece)
  then remove opponent's piece & beats(from) & adjacent(path) - adjacent(from | here)
compulsory maximum capture
after each ply: quiet = 0 when captured > 0, quiet += 1 when captured == 0
end quiet: draw if quiet >= 10
'''

WHISTLE_CASES = {
 "relation_unknown_kind": ("red > blue, blue > red", "red > bleu, blue > red"),
 "relation_builtin_name": ("relation beats:", "relation count:"),
 "relation_arity": ("beats(from)", "beats(from, here)"),
 "closer_type": ("closer(here, from, opponent's piece)", "closer(here, 2, opponent's piece)"),
 "path_in_end": ("draw if quiet >= 10", "draw if count(path) > 0"),
 "captured_in_where": ("where closer(here, from, opponent's piece)", "where captured > 0"),
 "remove_after_ply": ("quiet = 0 when captured > 0,", "remove empty,"),
 "chained_without_remove": ("\n  then remove opponent's piece & beats(from) & adjacent(path) - adjacent(from | here)", ""),
 "guard_not_condition": ("when captured > 0,", "when captured,"),
 "board_rows": ('  ". b ."\n', ""),
 "board_row_length": ('  ". b ."', '  ". b . ."'),
 "board_symbol": ('  ". b ."', '  ". q ."'),
 "board_and_setup": ("var quiet = 0", "setup red of A: b1\nvar quiet = 0"),
 "compulsory_twice": ("compulsory maximum capture", "compulsory maximum capture\ncompulsory capture"),
 "relation_as_value": ("draw if quiet >= 10", "draw if count(beats) > 0"),
}

WHISTLE_EXPECTED = {
    'relation_unknown_kind': "t.game:6:23: error: unknown piece 'bleu'\n    relation beats: red > bleu, blue > red\n                          ^~~~\n  hint: did you mean 'blue'?",
    'relation_builtin_name': "t.game:6:10: error: 'count' is a built-in function\n    relation count: red > blue, blue > red\n             ^~~~~\nt.game:15:34: error: unknown function 'beats' (known: count, adjacent, aligned, in_a_row, undoes, last_ply, line, closer, connected, in_line, reserve, holding, back_along)\n      then remove opponent's piece & beats(from) & adjacent(path) - adjacent(from | here)\n                                     ^~~~~~~~~~~",
    'relation_arity': "t.game:15:34: error: beats() takes 1 argument, given 2\n      then remove opponent's piece & beats(from, here) & adjacent(path) - adjacent(from | here)\n                                     ^~~~~~~~~~~~~~~~~",
    'closer_type': "t.game:14:71: error: closer() expects a set of cells here, found a number\n    ply slide: move own piece slide chained onto empty where closer(here, 2, opponent's piece)\n                                                                          ^",
    'path_in_end': "t.game:18:26: error: 'path' means the cells a ply passes; it is used only in ply rules\n    end quiet: draw if count(path) > 0\n                             ^~~~",
    'captured_in_where': "t.game:14:58: error: 'captured' counts what a ply removed; it is used only in effects (`then`, `after each ply`)\n    ply slide: move own piece slide chained onto empty where captured > 0\n                                                             ^~~~~~~~",
    'remove_after_ply': 't.game:17:17: error: `remove` is an effect of plies only\n    after each ply: remove empty, quiet += 1 when captured == 0\n                    ^~~~~~~~~~~~',
    'chained_without_remove': "t.game:14:27: error: a chained slide goes on only after a segment removes pieces; this ply removes none\n    ply slide: move own piece slide chained onto empty where closer(here, from, opponent's piece)\n                              ^~~~~~~~~~~~~\n  hint: add `then remove CELLS`",
    'guard_not_condition': 't.game:17:32: error: expected a condition, found a number\n    after each ply: quiet = 0 when captured, quiet += 1 when captured == 0\n                                   ^~~~~~~~',
    'board_rows': 't.game:7:1: error: `setup board` needs 5 rows, one string each; found 4\n    setup board:\n    ^~~~~~~~~~~~',
    'board_row_length': 't.game:12:3: error: this row has 3 cells, the string gives 4\n      ". b . ."\n      ^~~~~~~~~',
    'board_symbol': 't.game:12:3: error: unknown symbol \'q\' (known: R, r, B, b and . for empty)\n      ". q ."\n      ^~~~~~~',
    'board_and_setup': 't.game:13:1: error: `setup board` gives the whole setup; drop this line or the board\n    setup red of A: b1\n    ^~~~~~~~~~~~~~~~~~',
    'compulsory_twice': 't.game:17:1: error: the capture rule is declared twice (first at line 16)\n    compulsory capture\n    ^~~~~~~~~~~~~~~~~~',
    'relation_as_value': "t.game:18:26: error: 'beats' is a relation: it takes a set of cells\n    end quiet: draw if count(beats) > 0\n                             ^~~~~\n  hint: write beats(CELLS)",
}


def test_sow_base_is_valid(tmp_path):
    path = tmp_path / "t.game"
    path.write_text(SOW, encoding="utf-8")
    assert load(str(path)).tracks == {"loop": (0, 1, 4, 3, 2)}


def test_whistle_base_is_valid(tmp_path):
    path = tmp_path / "t.game"
    path.write_text(WHISTLE, encoding="utf-8")
    rs = load(str(path))
    assert (rs.compulsory, list(rs.relations)) == ("maximum", ["beats"])

# Counted pieces and sowing (rulesets/library/kalah.game in small)
SOW = '''game "T"
board square 2 x 2
goal store: b1 by e
players A, B
piece seed: neutral, counted, symbol o
track loop: a1, b1, store, b2, a2
setup seed: 2 each on rank1 | rank2
ply sow: move seed sow loop where from in rank1
end e: A wins if seed[store] > 3
'''

SOW_CASES = {
 'counted_size': ('piece seed: neutral, counted, symbol o', 'piece seed: neutral, counted, size 2, symbol o'),
 'counted_owner_each': ('piece seed: neutral, counted, symbol o', 'piece seed: owner each, counted, symbol o/O'),
 'counted_beside_another_kind': ('piece seed: neutral, counted, symbol o', 'piece seed: neutral, counted, symbol o\npiece man: owner A, symbol M'),
 'each_zero': ('2 each on', '0 each on'),
 'unknown_track': ('sow loop', 'sow lop'),
 'track_twice_a_cell': ('track loop: a1, b1, store, b2, a2', 'track loop: a1, b1, a1'),
 'track_unknown_cell': ('track loop: a1, b1, store, b2, a2', 'track loop: a1, b1, store, b2, a2, z9'),
 'track_one_cell': ('track loop: a1, b1, store, b2, a2', 'track loop: a1'),
 'track_as_cells': ('end e: A wins if seed[store] > 3', 'end e: A wins if count(loop) > 3'),
 'counted_moved_by_step': ('ply sow: move seed sow loop where from in rank1', 'ply sow: move seed step'),
 'sow_uncounted': ('piece seed: neutral, counted, symbol o', 'piece seed: neutral, symbol o'),
 'index_not_cells': ('seed[store]', 'seed[3]'),
 'assign_without_cells': ('where from in rank1', 'where from in rank1 then seed = 0'),
 'remove_counted': ('where from in rank1', 'where from in rank1 then remove here'),
 'skipping_here': ('sow loop', 'sow loop skipping here'),
}

SOW_EXPECTED = {
    'counted_size': "t.game:5:7: error: a counted kind covers one cell: 'seed' is counted\n    piece seed: neutral, counted, size 2, symbol o\n          ^~~~\nt.game:8:20: error: pieces covering several cells move only `anywhere` (`place` puts them down whole); 'sow' is not supported for them\n    ply sow: move seed sow loop where from in rank1\n                       ^~~~~~~~",
    'counted_owner_each': "t.game:5:7: error: a counted kind has one owner or none: 'seed' is counted\n    piece seed: owner each, counted, symbol o/O\n          ^~~~",
    'counted_beside_another_kind': "t.game:6:7: error: 'man' is not counted, and 'seed' is: a game with counted pieces has only counted kinds\n    piece man: owner A, symbol M\n          ^~~\n  hint: add `counted` to 'man'",
    'each_zero': 't.game:7:1: error: `each on` puts at least one piece on each cell\n    setup seed: 0 each on rank1 | rank2\n    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~',
    'unknown_track': "t.game:8:24: error: unknown track 'lop'\n    ply sow: move seed sow lop where from in rank1\n                           ^~~\n  hint: did you mean 'loop'?",
    'track_twice_a_cell': "t.game:6:21: error: cell a1 is already on track 'loop': a track passes each cell once\n    track loop: a1, b1, a1\n                        ^~",
    'track_unknown_cell': "t.game:6:36: error: no cell 'z9' on this board\n    track loop: a1, b1, store, b2, a2, z9\n                                       ^~",
    'track_one_cell': "t.game:6:1: error: track 'loop' needs two cells or more\n    track loop: a1\n    ^~~~~~~~~~~~~~",
    'track_as_cells': "t.game:9:24: error: 'loop' is a track: `sow loop` follows it; it is no set of cells\n    end e: A wins if count(loop) > 3\n                           ^~~~",
    'counted_moved_by_step': "t.game:8:20: error: pieces of 'seed' are counted, a cell holding any number: only `sow` moves them, not 'step'\n    ply sow: move seed step\n                       ^~~~",
    'sow_uncounted': "t.game:7:1: error: `2 each on` sets up counted pieces; 'seed' is not counted: a cell holds one\n    setup seed: 2 each on rank1 | rank2\n    ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n  hint: add `counted` to piece 'seed'\nt.game:8:15: error: `sow` moves counted pieces; 'seed' is not counted\n    ply sow: move seed sow loop where from in rank1\n                  ^~~~\n  hint: add `counted` to piece 'seed'\nt.game:9:18: error: a cell holds one 'seed' at most: count the cells\n    end e: A wins if seed[store] > 3\n                     ^~~~~~~~~~~\n  hint: write count(seed & ...)",
    'index_not_cells': 't.game:9:23: error: expected a set of cells, found a number\n    end e: A wins if seed[3] > 3\n                          ^',
    'assign_without_cells': "t.game:8:54: error: 'seed' is counted cell by cell: say which cells\n    ply sow: move seed sow loop where from in rank1 then seed = 0\n                                                         ^~~~\n  hint: write seed[here]",
    'remove_counted': "t.game:8:54: error: `remove` is not for counted pieces ('seed')\n    ply sow: move seed sow loop where from in rank1 then remove here\n                                                         ^~~~~~~~~~~\n  hint: change counts with `seed[CELLS] = 0`, `+=`, `-=`",
    'skipping_here': "t.game:8:38: error: 'here' is not known yet: the cells left out are known before the pieces go\n    ply sow: move seed sow loop skipping here where from in rank1\n                                         ^~~~\n  hint: use 'from', the cell it leaves",
}


# Three players (rulesets/library/triad.game in small)
THREE = '''game "T"
board square 3 x 3
players A, B, C
piece p: owner each, symbol X/Y/Z
region home: a1 / b1 / c1
setup p of A: a1
setup p of B: b1
setup p of C: c1
var score per player = 0
ply go: move own p step onto empty
ply drop: place C's p where mover == A
end e: A wins if count(B's p) == 0
'''

THREE_CASES = {
 'opponent_wins': ('end e: A wins', 'end e: opponent wins'),
 'opponent_index': ('where mover == A', 'where score[opponent] > 0'),
 'opponent_region': ('where mover == A', 'where here in home[opponent]'),
 'two_symbols': ('symbol X/Y/Z', 'symbol X/Y'),
 'two_regions': ('region home: a1 / b1 / c1', 'region home: a1 / b1'),
 'unknown_player_selector': ("place C's p", "place D's p"),
}

THREE_EXPECTED = {
    'opponent_wins': "t.game:12:8: error: 'opponent' is the other player of a two-player game; this one has 3\n    end e: opponent wins if count(B's p) == 0\n           ^~~~~~~~\n  hint: name a player, or use 'next' (who plays next)",
    'opponent_index': "t.game:11:35: error: 'opponent' is the other player of a two-player game; this one has 3\n    ply drop: place C's p where score[opponent] > 0\n                                      ^~~~~~~~\n  hint: name a player, or use 'next' (who plays next)",
    'opponent_region': "t.game:11:42: error: 'opponent' is the other player of a two-player game; this one has 3\n    ply drop: place C's p where here in home[opponent]\n                                             ^~~~~~~~\n  hint: name a player, or use 'next' (who plays next)",
    'two_symbols': "t.game:4:7: error: piece 'p' needs 3 symbols (one per player, e.g. `symbol R/G/B`)\n    piece p: owner each, symbol X/Y\n          ^",
    'two_regions': "t.game:5:1: error: region 'home' needs one set of cells for each of the 3 players, separated by /, found 2\n    region home: a1 / b1\n    ^~~~~~~~~~~~~~~~~~~~",
    'unknown_player_selector': "t.game:11:21: error: unknown player 'D' (players: A, B, C)\n    ply drop: place D's p where mover == A\n                        ^",
}


def test_three_base_is_valid(tmp_path):
    path = tmp_path / "t.game"
    path.write_text(THREE, encoding="utf-8")
    rs = load(str(path))
    assert (rs.players, [t.symbol for t in rs.types], rs.plies[1].owner) == (["A", "B", "C"], ["X", "Y", "Z"], 2)


# Each group: a valid base ruleset, edits that break it, and the exact diagnostics.
GROUPS = {
    "core": (BASE, CASES, EXPECTED),
    "hex": (HEX, HEX_CASES, HEX_EXPECTED),
    "stack": (STACK, STACK_CASES, STACK_EXPECTED),
    "whistle": (WHISTLE, WHISTLE_CASES, WHISTLE_EXPECTED),
    "sow": (SOW, SOW_CASES, SOW_EXPECTED),
    "three": (THREE, THREE_CASES, THREE_EXPECTED),
}


@pytest.mark.parametrize("group,name", [(g, n) for g, (_, cases, _) in GROUPS.items()
                                        for n in sorted(cases)])
def test_diagnostic(group, name, tmp_path):
    base, cases, expected = GROUPS[group]
    old, new = cases[name]
    assert old in base
    assert diagnose(base.replace(old, new, 1), tmp_path) == expected[name]


def test_every_case_has_its_expected_text():
    for base, cases, expected in GROUPS.values():
        assert set(cases) == set(expected)


def test_previous_ply_functions_outside_rules(tmp_path):
    # last_ply() and undoes() in a region or a setup line (they used to crash the checker)
    text = ('game "g"\nboard square 3 x 3\nplayers A, B\npiece man: owner each, symbol M/m\n'
            'region r: last_ply(hop)\nsetup man of A: undoes(hop)\nply hop: move own man step\n')
    assert diagnose(text, tmp_path) == (
        "t.game:5:11: error: expected a set of cells, found a condition\n"
        "    region r: last_ply(hop)\n"
        "              ^~~~~~~~~~~~~\n"
        "t.game:6:17: error: undoes() compares a ply with the one before it; it is used only "
        "in a ply's `where`\n"
        "    setup man of A: undoes(hop)\n"
        "                    ^~~~~~~~~~~")


def test_a_name_whose_declaration_has_a_syntax_error_stops_at_that_error(tmp_path):
    # The rule reading q is left untyped; the ruleset is refused with the syntax error
    # alone (the model used to be made from the untyped rule, and crashed).
    text = ('game "g"\nboard square 3 x 3\nplayers A, B\npiece man: owner each, symbol M/m\n'
            'var q = 10000000000000000000000\nsetup man of A: a1\n'
            'ply p: move own man step where not (1 < q)\n')
    assert diagnose(text, tmp_path) == (
        "t.game:5:9: error: number 1000000000000000... is larger than the limit of 1,000,000,000\n"
        "    var q = 10000000000000000000000\n"
        "            ^~~~~~~~~~~~~~~~~~~~~~~")
