"""The library's Triad (three players) against a Triad written here from its rules.

The reference numbers the hexagon as boardspace.net does: column X (0..8, A..I) of 5 to 9
cells, row r counted so that (X, r) touches (X, r±1), (X±1, r), (X+1, r+1) and (X-1, r-1);
a cell's colour is (X + r) % 3 (0 Red, 1 Green, 2 Blue). Its cells are named as
rulecraft's `hexagon 5` names them (docs/LANGUAGE.md): row X + 1 from the north, the
column letter its position in half steps from the west.
"""

import functools
from importlib import resources
import os
import random

import pytest

from interpreter import load_game, perft
from interpreter.runtime.game import Game

BACKENDS = ["python", "native"]
TRIAD = os.path.join(str(resources.files("rulesets") / "library"), "triad.game")

# ---------------------------------------------------------------- the reference

CELLS = [(x, r) for x in range(9) for r in range(1 + max(0, x - 4), 6 + min(x, 4))]
STEPS = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)]
NEIGHBOURS = {c: [(c[0] + dx, c[1] + dy) for dx, dy in STEPS if (c[0] + dx, c[1] + dy) in set(CELLS)]
              for c in CELLS}
START = {0: ["C1", "D1", "D2", "E1", "E2", "E3", "F2", "F3", "G3"],  # boardspace's
         1: ["A5", "A4", "A3", "B6", "B5", "B4", "C7", "C6", "C5"],
         2: ["I9", "I8", "I7", "H9", "H8", "H7", "G9", "G8", "G7"]}


def colour(cell) -> int:
    return (cell[0] + cell[1]) % 3


def name(cell) -> str:
    x, r = cell
    j = r - max(0, x - 4)
    return "abcdefghijklmnopq"[abs(x - 4) + 2 * (j - 1)] + str(x + 1)


def start():
    board = {c: None for c in CELLS}
    for p, cells in START.items():
        for t in cells:
            board[(ord(t[0]) - 65, int(t[1:]))] = p
    return board, 0, None  # board, player to move, the candidate while a drop is due


def moves(state):
    """The legal plies: ("move", from, to) with the most captures, or ("drop", cell, owner)."""
    board, p, cand = state
    if cand is not None:
        bunny = 3 - p - cand
        return [("drop", c, bunny) for c in CELLS if board[c] is None]
    found = []
    for c in CELLS:
        if board[c] != p:
            continue
        for dx, dy in STEPS:
            t = (c[0] + dx, c[1] + dy)
            while t in board and board[t] is None:
                if colour(t) != p:
                    taken = sum(1 for n in NEIGHBOURS[t] if board[n] not in (None, p))
                    found.append((taken, ("move", c, t)))
                t = (t[0] + dx, t[1] + dy)
    best = max((n for n, _ in found), default=0)
    return [m for n, m in found if n == best]


def play(state, m):
    board, p, cand = state
    b = dict(board)
    if m[0] == "drop":
        b[m[1]] = m[2]
        return b, cand, None
    _, f, t = m
    b[f], b[t] = None, p
    for n in NEIGHBOURS[t]:
        if b[n] not in (None, p):
            b[n] = None
    return b, p, colour(t)


def result(state):
    """None while it goes on; ("wins", X) or ("loses", X)."""
    board, p, cand = state
    count = [sum(1 for v in board.values() if v == q) for q in range(3)]
    out = [q for q in range(3) if count[q] == 0]
    if not out and cand is None and not moves(state):
        out = [p]  # a stuck player is eliminated
    if not out:
        return None
    rest = [q for q in range(3) if q not in out]
    if len(rest) == 1:
        return ("wins", rest[0])
    y, z = rest
    if count[y] == count[z]:
        return ("loses", out[0])
    return ("wins", y if count[y] > count[z] else z)


def ref_perft(state, depth: int) -> int:
    if depth == 0:
        return 1
    if result(state) is not None:
        return 0
    return sum(ref_perft(play(state, m), depth - 1) for m in moves(state))


@functools.cache
def reference_perfts() -> list[int]:
    return [ref_perft(start(), d) for d in range(1, 6)]


def text(m) -> str:
    return name(m[1]) if m[0] == "drop" else f"{name(m[1])}-{name(m[2])}"


def board_of(game: Game, state) -> dict:
    at = game.board.index
    return {c: "RGB".find(game.symbol_at(state, at[name(c)])) if game.symbol_at(state, at[name(c)]) != "."
            else None for c in CELLS}


# ---------------------------------------------------------------- the tests

def test_the_reference_board_is_the_library_board():
    game = load_game(TRIAD)
    assert sorted(name(c) for c in CELLS) == sorted(game.board.names)
    s = game.initial_state()
    assert board_of(game, s) == start()[0]
    homes = game.ruleset.player_regions["home"]
    for c in CELLS:
        assert homes[colour(c)] >> game.board.index[name(c)] & 1


@pytest.mark.parametrize("backend", BACKENDS)
def test_triad_perft_against_a_triad_written_here(backend):
    game = load_game(TRIAD, backend=backend)
    mine = [perft(game, game.initial_state(), d) for d in range(1, 6)]
    assert mine == reference_perfts()


@pytest.mark.parametrize("backend", BACKENDS)
def test_triad_along_random_games_against_a_triad_written_here(backend):
    """Every position of seeded random games: the same stones, player, plies and end."""
    game = load_game(TRIAD, backend=backend)
    rng = random.Random(3)
    ends = set()
    for _ in range(12 if backend == "python" else 4):
        s, ref = game.initial_state(), start()
        while True:
            assert board_of(game, s) == ref[0], game.state_to_text(s)
            legal = moves(ref) if result(ref) is None else []
            texts = game.texts(s)
            assert sorted(texts) == sorted(text(m) for m in legal), game.state_to_text(s)
            if not legal:
                break
            assert game.to_move(s) == ref[1]
            m = rng.choice(legal)
            s, ref = game.apply(s, texts[text(m)]), play(ref, m)
        how, who = result(ref)
        out = game.outcome(s)
        assert (out.winner, out.loser) == ((who, None) if how == "wins" else (None, who))
        assert game.returns(s) == tuple((1.0 if q == who else -0.5) if how == "wins" else
                                        (-1.0 if q == who else 0.5) for q in range(3))
        ends.add(how)
    if backend == "python":
        assert ends == {"wins", "loses"}  # a tie between the two others happens too


# Red a5, c3, e9; Green's last stone on i5; Blue e1, g1. Every legal move captures one
# stone (the most there is): c3-d2 takes Blue's e1, and a5-g5 or e9-h6 land next to i5
# and take Green's last stone, which ends the game with Red (3) ahead of Blue (2).
LAST_STONE = "BB.../....../R....../......../R...G..../......../......./....../R.... Red ply=1"


def test_alphabeta_and_mcts_take_the_last_stone_with_three_players():
    from interpreter.search.alphabeta import AlphaBeta
    from interpreter.search.mcts import MCTS
    game = load_game(TRIAD)
    s = game.state_from_text(LAST_STONE)
    assert {"a5-g5", "e9-h6", "c3-d2"} <= set(game.texts(s))
    found = AlphaBeta(game).search(s, depth=2)
    assert sorted(game.action_to_text(s, a) for a in found.best) == ["a5-g5", "e9-h6"]
    assert (found.value, found.remoteness) == ("win", 1)
    assert game.action_to_text(s, MCTS(game, iterations=50).choose(s)) in ("a5-g5", "e9-h6")
    won = game.apply(s, game.texts(s)["a5-g5"])
    assert (game.outcome(won).winner, game.returns(won)) == (0, (1.0, -0.5, -0.5))
    assert game.state_to_text(won).endswith("result=Red")


def test_a_tie_between_the_two_others_is_a_loss_of_the_third():
    game = load_game(TRIAD)
    # as above with a third Blue stone far off (m9): Red 3, Blue 3 once Green is gone
    s = game.state_from_text(LAST_STONE.replace("/R.... Red", "/R...B Red"))
    tied = game.apply(s, game.texts(s)["a5-g5"])
    out = game.outcome(tied)
    assert (out.winner, out.loser, out.describe(game.players)) == (None, 1, "Green loses")
    assert game.returns(tied) == (0.5, -1.0, 0.5)
    text = game.state_to_text(tied)
    assert text.endswith("result=Green-loses") and game.state_from_text(text) == tied
