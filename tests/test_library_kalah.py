"""The library's Kalah against a Kalah written here from its rules (not from rulecraft's),
and against the values Irving, Donkers and Uiterwijk published ("Solving Kalah", 2000).

The reference is a board of 2m + 2 counts (South's pits west to east, South's store,
North's pits east to west, North's store: the order seeds are sown in) and the player to
move; a ply is the index of the pit emptied.
"""

from functools import lru_cache
from importlib import resources
import os
import random

import pytest

from dsl.load import load_text
from interpreter import load_game, perft
from interpreter.runtime.game import Game

BACKENDS = ["python", "native"]
LIBRARY = os.path.join(str(resources.files("rulesets") / "library"))

# Kalah(m, n) with perfect play, for the first player (Irving, Donkers, Uiterwijk 2000).
PUBLISHED = {(1, 1): 0, (1, 2): -1, (1, 3): 1, (2, 1): 1, (2, 2): -1, (2, 3): -1,
             (3, 1): 0, (3, 2): 1, (3, 3): 1, (4, 1): 1, (4, 2): 1}


# ---------------------------------------------------------------- the reference

def start(m: int, n: int):
    return (tuple([n] * m + [0] + [n] * m + [0]), 0)


def over(board, m: int) -> bool:
    return sum(board[:m]) == 0 or sum(board[m + 1:2 * m + 1]) == 0


def moves(state, m: int) -> list[int]:
    board, p = state
    if over(board, m):
        return []
    first = 0 if p == 0 else m + 1
    return [i for i in range(first, first + m) if board[i] > 0]


def play(state, i: int, m: int):
    board, p = state
    b = list(board)
    seeds, b[i] = b[i], 0
    mine, theirs = (m, 2 * m + 1) if p == 0 else (2 * m + 1, m)
    j = i
    while seeds:
        j = (j + 1) % (2 * m + 2)
        if j != theirs:
            b[j] += 1
            seeds -= 1
    own_pits = range(0, m) if p == 0 else range(m + 1, 2 * m + 1)
    opposite = 2 * m - j
    if j in own_pits and b[j] == 1 and b[opposite] > 0:
        b[mine] += b[j] + b[opposite]
        b[j] = b[opposite] = 0
    return (tuple(b), p if j == mine else 1 - p)


def result(board, m: int) -> int:
    """+1 South has more seeds, -1 North, 0 equal (the game is over)."""
    south, north = board[m] + sum(board[:m]), board[2 * m + 1] + sum(board[m + 1:2 * m + 1])
    return (south > north) - (south < north)


def ref_value(m: int, n: int) -> int:
    @lru_cache(maxsize=None)
    def value(state) -> int:  # for the player to move
        board, p = state
        if over(board, m):
            return result(board, m) * (1 if p == 0 else -1)
        best = -1
        for i in moves(state, m):
            child = play(state, i, m)
            best = max(best, value(child) if child[1] == p else -value(child))
        return best
    return value(start(m, n))


def ref_perft(state, depth: int, m: int) -> int:
    if depth == 0:
        return 1
    return sum(ref_perft(play(state, i, m), depth - 1, m) for i in moves(state, m))


# ---------------------------------------------------------------- rulecraft's

def pit_names(m: int) -> list[str]:
    """The reference's indices as rulecraft's cells."""
    files = "abcdefgh"[:m]
    return [f + "1" for f in files] + ["south_store"] + [f + "2" for f in reversed(files)] + ["north_store"]


def kalah(m: int, n: int, backend: str = "python") -> Game:
    """Kalah(m, n) as a variant of the library's Kalah, written as a designer would."""
    files = "abcdefgh"[:m]
    track = ", ".join(pit_names(m))
    text = (f'variant of "{os.path.join(LIBRARY, "kalah.game")}"\ngame "Kalah ({m}, {n})"\n'
            f"board square {m} x 2\ngoal south_store: {files[-1]}1 by e\n"
            f"track around: {track}\nsetup seed: {n} each on rank1 | rank2\n")
    return Game(load_text(text, f"kalah-{m}x{n}.game"), backend)


def counts(game: Game, state) -> tuple[int, ...]:
    names = pit_names((game.board.size - 2) // 2)
    base = next(iter(game.layout.count_offsets.values()))
    return tuple(state[base + game.board.index[c]] for c in names)


@pytest.mark.parametrize("backend", BACKENDS)
def test_kalah_perft_against_a_kalah_written_here(backend):
    game = load_game(os.path.join(LIBRARY, "kalah.game"), backend=backend)
    mine = [perft(game, game.initial_state(), d) for d in range(1, 7)]
    assert mine == [ref_perft(start(6, 4), d, 6) for d in range(1, 7)]
    assert mine == [6, 35, 185, 942, 4690, 23233]


@pytest.mark.parametrize("backend", BACKENDS)
def test_kalah_along_random_games_against_a_kalah_written_here(backend):
    """Every position of seeded random games: the same counts, player to move, plies and end."""
    game = load_game(os.path.join(LIBRARY, "kalah.game"), backend=backend)
    names = pit_names(6)
    rng = random.Random(7)
    for _ in range(30):
        s, ref = game.initial_state(), start(6, 4)
        while True:
            assert counts(game, s) == ref[0], game.state_to_text(s)
            assert over(ref[0], 6) or game.to_move(s) == ref[1], game.state_to_text(s)
            mine = sorted(game.action_to_text(s, a).split("-")[0] for a in game.legal_actions(s))
            assert mine == sorted(names[i] for i in moves(ref, 6))
            assert game.state_from_text(game.state_to_text(s)) == s
            if not mine:
                break
            i = rng.choice(moves(ref, 6))
            a = next(a for a in game.legal_actions(s) if game.action_to_text(s, a).startswith(names[i] + "-"))
            s, ref = game.apply(s, a), play(ref, i, 6)
        winner = {1: 0, -1: 1, 0: None}[result(ref[0], 6)]
        assert game.is_terminal(s) and game.winner(s) == winner


def held(game: Game, state) -> dict[str, int]:
    base = next(iter(game.layout.count_offsets.values()))
    return {game.board.names[c]: state[base + c] for c in range(game.board.size) if state[base + c]}


def test_a_sowing_laps_the_board_and_a_capture_takes_both_pits():
    """Hand-derived. Thirteen seeds from a1 go once round the 13 cells South sows in (not
    North's store): the last lands in a1 itself, emptied, so it takes a2's seeds (2 + 1)."""
    game = load_game(os.path.join(LIBRARY, "kalah.game"))
    s = game.state_from_text("o...../o.o.../.. South count.seed=a2:2,a1:13,c1:1")
    after = game.apply(s, game.action_from_text(s, "a1-a1"))
    assert held(game, after) == {"b1": 1, "c1": 2, "d1": 1, "e1": 1, "f1": 1, "south_store": 5,
                                 "f2": 1, "e2": 1, "d2": 1, "c2": 1, "b2": 1}
    assert game.to_move(after) == 1 and not game.is_terminal(after)
    # Two seeds from d1: the last in f1, empty, but f2 holds none: no capture.
    s = game.state_from_text("oo..../...o../.. South count.seed=a2:1,b2:5,d1:2")
    after = game.apply(s, game.action_from_text(s, "d1-f1"))
    assert held(game, after) == {"a2": 1, "b2": 5, "e1": 1, "f1": 1}
    # One seed into b1, empty: it takes b2's five, which empties North's row: South 6, North 0.
    s = game.state_from_text(".o..../o...../.. South count.seed=b2:5,a1:1")
    after = game.apply(s, game.action_from_text(s, "a1-b1"))
    assert held(game, after) == {"south_store": 6}
    assert game.winner(after) == 0
    # The last seed in one's own store: the same player plays again.
    s = game.state_from_text("o...../....oo/.. South count.seed=a2:1,e1:2,f1:3")
    after = game.apply(s, game.action_from_text(s, "e1-south_store"))
    assert game.to_move(after) == 0 and held(game, after) == {"a2": 1, "f1": 4, "south_store": 1}


# Two sizes in the default run; the others, with Kalah(4,2) (40 s, the library's
# kalah-4x2), with -m slow: each size is a game of its own, whose native solver is built
# (a few seconds of the compiler) before it solves.
@pytest.mark.parametrize("m,n", [k if k in {(1, 1), (2, 1)} else pytest.param(*k, marks=pytest.mark.slow)
                                 for k in sorted(PUBLISHED) if k != (4, 2)])
def test_small_kalah_values_are_the_published_ones(m, n):
    game = kalah(m, n, "native")
    from interpreter.search.solver import solve
    value = {"win": 1, "draw": 0, "lose": -1}[solve(game).value(game.initial_state())]
    assert value == ref_value(m, n) == PUBLISHED[(m, n)]


@pytest.mark.slow
def test_kalah_4x2_is_a_first_player_win():
    from interpreter.search.solver import solve
    game = load_game(os.path.join(LIBRARY, "kalah-4x2.game"), backend="native")
    assert solve(game).value(game.initial_state()) == "win" and PUBLISHED[(4, 2)] == 1


def test_the_library_3x3_variant_is_kalah_3_3():
    game = load_game(os.path.join(LIBRARY, "kalah-3x3.game"), backend="native")
    assert [perft(game, game.initial_state(), d) for d in range(1, 7)] == \
        [ref_perft(start(3, 3), d, 3) for d in range(1, 7)]
