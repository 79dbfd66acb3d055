"""The library's Chinese checkers (three players) against one written here from its rules.

The reference works in cube coordinates (q, r, s), q + r + s = 0, r growing southward and
q eastward: the star is the cells with every coordinate at most 4, or every one at
least -4. A man's moves are the empty neighbours and every cell its own breadth-first
search of hops reaches (the man's start left empty). Cells are named as rulecraft's
hexagon boards name them (docs/LANGUAGE.md): the column letter of the position in half
steps from the west, the row from the north, on the hexagon of side 9 the star sits in.
"""

import functools
import random

import pytest

from interpreter import load_game, perft

BACKENDS = ["python", "native"]
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
STEPS = [(1, 0, -1), (-1, 0, 1), (0, 1, -1), (0, -1, 1), (1, -1, 0), (-1, 1, 0)]
CELLS = [(q, r, -q - r) for q in range(-8, 9) for r in range(-8, 9)
         if abs(q + r) <= 8 and (max(q, r, -q - r) <= 4 or min(q, r, -q - r) >= -4)]
CELL_SET = set(CELLS)
POINTS = {"north": lambda c: c[1] < -4, "south": lambda c: c[1] > 4,
          "northeast": lambda c: c[0] > 4, "southwest": lambda c: c[0] < -4,
          "northwest": lambda c: c[2] > 4, "southeast": lambda c: c[2] < -4}
HOMES = ["north", "southeast", "southwest"]  # Red, Green, Blue
TARGETS = ["south", "northwest", "northeast"]


def name(c) -> str:
    q, r, _ = c
    return LETTERS[2 * q + r + 16] + str(r + 9)


def start():
    board = {c: None for c in CELLS}
    for p, home in enumerate(HOMES):
        for c in CELLS:
            if POINTS[home](c):
                board[c] = p
    return board, 0


def add(c, d, k=1):
    return (c[0] + k * d[0], c[1] + k * d[1], c[2] + k * d[2])


def destinations(board, c) -> set:
    steps = {add(c, d) for d in STEPS if add(c, d) in CELL_SET and board[add(c, d)] is None}
    seen, todo = {c}, [c]
    while todo:  # hops, the man gone from c
        x = todo.pop()
        for d in STEPS:
            over, to = add(x, d), add(x, d, 2)
            if to in CELL_SET and board[over] is not None and over != c and board[to] is None \
                    and to not in seen:
                seen.add(to)
                todo.append(to)
    return steps | (seen - {c})


def winner(state):
    board, _ = state
    for p, target in enumerate(TARGETS):
        if all(POINTS[target](c) for c in CELLS if board[c] == p):
            return p
    return None


def moves(state):
    board, p = state
    if winner(state) is not None:
        return []
    return [(c, t) for c in CELLS if board[c] == p for t in destinations(board, c)]


def play(state, m):
    board, p = state
    b = dict(board)
    b[m[0]], b[m[1]] = None, p
    return b, (p + 1) % 3


def ref_perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    if depth == 1:
        return len(moves(state))
    return sum(ref_perft(play(state, m), depth - 1) for m in moves(state))


@functools.cache
def reference_perfts() -> list[int]:
    return [ref_perft(start(), d) for d in range(1, 5)]


def ends(game, s, a) -> tuple[str, str]:
    text = game.action_to_text(s, a)
    return text.split("-")[0], text.split("-")[-1]


# ---------------------------------------------------------------- the tests

def test_the_reference_star_is_the_library_board():
    game = load_game("chinese-checkers")
    assert sorted(name(c) for c in CELLS) == sorted(game.board.names)
    at = game.board.index
    s = game.initial_state()
    assert {name(c): v for c, v in start()[0].items()} == \
        {n: "RGB".find(game.symbol_at(s, at[n])) if game.symbol_at(s, at[n]) != "." else None
         for n in game.board.names}


@pytest.mark.parametrize("backend", BACKENDS)
def test_perft_against_a_chinese_checkers_written_here(backend):
    game = load_game("chinese-checkers", backend=backend)
    assert [perft(game, game.initial_state(), d) for d in range(1, 5)] == reference_perfts()
    assert reference_perfts()[0] == 14  # 8 steps from the front row, 6 hops over it


@pytest.mark.parametrize("backend", BACKENDS)
def test_seeded_games_against_a_chinese_checkers_written_here(backend):
    """Every position of seeded random games, the men drifting to their targets: the same
    men, moves (by start and end cell) and player to move."""
    game = load_game("chinese-checkers", backend=backend)
    rng = random.Random(7)
    for _ in range(2):
        s, ref = game.initial_state(), start()
        for _ in range(120):
            legal = moves(ref)
            mine = {ends(game, s, a): a for a in game.legal_actions(s)}
            assert len(mine) == len(game.legal_actions(s))  # one ply a start and end
            assert sorted(mine) == sorted((name(c), name(t)) for c, t in legal)
            assert game.to_move(s) == ref[1]
            # prefer moves toward the target, so that the men meet in the middle
            goal = {0: 1, 1: 2, 2: 0}[ref[1]]
            best = max(t[goal] - c[goal] for c, t in legal)
            m = rng.choice([(c, t) for c, t in legal if t[goal] - c[goal] >= best - 1])
            s, ref = game.apply(s, mine[(name(m[0]), name(m[1]))]), play(ref, m)


def text_of(board, player: int) -> str:
    rows = []
    for r in range(-8, 9):
        row = sorted((c for c in CELLS if c[1] == r), key=lambda c: c[0])
        rows.append("".join("." if board[c] is None else "RGB"[board[c]] for c in row))
    return "/".join(rows) + " " + ["Red", "Green", "Blue"][player]


def test_the_last_man_home_wins():
    """Red has nine men in the south point and the tenth next to its one empty cell."""
    game = load_game("chinese-checkers")
    south = [c for c in CELLS if POINTS["south"](c)]
    edge = min(south, key=lambda c: (c[1], c[0]))  # n14, the point's north-west corner
    outside = add(edge, (0, -1, 1))  # the cell north-west of it, in the middle hexagon
    assert outside in CELL_SET and not POINTS["south"](outside)
    board = {c: None for c in CELLS}
    for c in south:
        board[c] = 0 if c != edge else None
    board[outside] = 0
    board[add(outside, (0, -1, 1))] = 1  # a Green and a Blue man elsewhere
    board[add(outside, (1, -1, 0), 2)] = 2
    s = game.state_from_text(text_of(board, 0))
    assert not game.is_terminal(s) and winner((board, 0)) is None
    won = game.apply(s, game.action_from_text(s, f"{name(outside)}-{name(edge)}"))
    assert winner(play((board, 0), (outside, edge))) == 0
    assert (game.outcome(won).winner, game.returns(won)) == (0, (1.0, -0.5, -0.5))
