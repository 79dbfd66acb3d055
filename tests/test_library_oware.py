"""The library's Oware against an Oware written here from its rules (not from rulecraft's).

The reference is a board of 2m counts in the order seeds are sown (South's pits west to
east, then North's east to west), the two stores and the player to move; a ply is the
index of the pit emptied.
"""

from importlib import resources
import os
import random

import pytest

from dsl.load import load_text
from interpreter import load_game, perft
from interpreter.runtime.game import Game

BACKENDS = ["python", "native"]
LIBRARY = os.path.join(str(resources.files("rulesets") / "library"))


# ---------------------------------------------------------------- the reference

def start(m: int, n: int):
    return (tuple([n] * (2 * m)), (0, 0), 0)


def own(p: int, m: int) -> range:
    return range(0, m) if p == 0 else range(m, 2 * m)


def sow(board, i: int, m: int) -> tuple[list[int], int]:
    """The board after sowing pit i (the pit left is passed over), and the last pit."""
    b = list(board)
    seeds, b[i] = b[i], 0
    j = i
    while seeds:
        j = (j + 1) % (2 * m)
        if j != i:
            b[j] += 1
            seeds -= 1
    return b, j


def feeds(board, i: int, p: int, m: int) -> bool:
    b, _ = sow(board, i, m)
    return sum(b[k] for k in own(1 - p, m)) > 0


def moves(state, m: int) -> list[int]:
    board, stores, p = state
    if winner(state, m) is not None:
        return []
    mine = [i for i in own(p, m) if board[i] > 0]
    if sum(board[k] for k in own(1 - p, m)) == 0:
        mine = [i for i in mine if feeds(board, i, p, m)]
    return mine


def play(state, i: int, m: int):
    board, stores, p = state
    b, j = sow(board, i, m)
    theirs = own(1 - p, m)
    run, k = [], j
    while k in theirs and b[k] in (2, 3):  # back along the opponent's row
        run.append(k)
        k -= 1
    taken = sum(b[k] for k in run)
    st = list(stores)
    if taken < sum(b[k] for k in theirs):  # a grand slam captures nothing
        st[p] += taken
        for k in run:
            b[k] = 0
    return settle((tuple(b), tuple(st), 1 - p), m)


def settle(state, m: int):
    """The player to move who cannot feed an empty opponent takes their own row."""
    board, stores, p = state
    if sum(board[k] for k in own(1 - p, m)) == 0 and not any(
            board[i] > 0 and feeds(board, i, p, m) for i in own(p, m)):
        st = list(stores)
        st[p] += sum(board[k] for k in own(p, m))
        return (tuple(0 for _ in board), tuple(st), p)
    return state


def winner(state, m: int) -> int | None:
    """0 or 1 for a won game, 2 for a draw, None going on."""
    board, (s0, s1), _ = state
    left = sum(board)
    if s0 > s1 + left:
        return 0
    if s1 > s0 + left:
        return 1
    return 2 if left == 0 else None


def ref_perft(state, depth: int, m: int) -> int:
    if depth == 0:
        return 1
    return sum(ref_perft(play(state, i, m), depth - 1, m) for i in moves(state, m))


def ref_value(m: int, n: int) -> int:
    """+1, 0, -1 for South, by retrograde analysis over every reachable position (play
    can cycle: a position whose value is never decided is a draw)."""
    first = start(m, n)
    seen, order, children = {first}, [first], {}
    for s in order:
        children[s] = [play(s, i, m) for i in moves(s, m)]
        for c in children[s]:
            if c not in seen:
                seen.add(c)
                order.append(c)
    value: dict = {}
    for s in order:  # finished games: from the view of the player to move
        w = winner(s, m)
        if w is not None:
            value[s] = 0 if w == 2 else (1 if w == s[2] else -1)
    changed = True
    while changed:
        changed = False
        for s in order:
            if s in value:
                continue
            vals = [value.get(c) for c in children[s]]
            vals = [None if v is None else -v for v in vals]
            if 1 in vals:
                value[s], changed = 1, True
            elif all(v == -1 for v in vals):
                value[s], changed = -1, True
    v = value.get(first, 0)
    return v if first[2] == 0 else -v


# ---------------------------------------------------------------- rulecraft's

def pit_names(m: int) -> list[str]:
    files = "abcdefgh"[:m]
    return [f + "1" for f in files] + [f + "2" for f in reversed(files)]


def oware(m: int, n: int, backend: str = "python") -> Game:
    """Oware on m pits a side with n seeds each, as a variant of the library's Oware."""
    files = "abcdefgh"[:m]
    text = (f'variant of "{os.path.join(LIBRARY, "oware.game")}"\ngame "Oware ({m}, {n})"\n'
            f"board square {m} x 2\ngoal south_store: {files[-1]}1 by e\n"
            f"track around: {', '.join(pit_names(m))}\nsetup seed: {n} each on rank1 | rank2\n")
    return Game(load_text(text, f"oware-{m}x{n}.game"), backend)


def as_reference(game: Game, state):
    m = (game.board.size - 2) // 2
    base = next(iter(game.layout.count_offsets.values()))
    at = game.board.index
    board = tuple(state[base + at[c]] for c in pit_names(m))
    stores = (state[base + at["south_store"]], state[base + at["north_store"]])
    return board, stores


@pytest.mark.parametrize("backend", BACKENDS)
def test_oware_perft_against_an_oware_written_here(backend):
    game = load_game(os.path.join(LIBRARY, "oware.game"), backend=backend)
    mine = [perft(game, game.initial_state(), d) for d in range(1, 6)]
    assert mine == [ref_perft(start(6, 4), d, 6) for d in range(1, 6)]


@pytest.mark.parametrize("backend", BACKENDS)
def test_oware_along_random_games_against_an_oware_written_here(backend):
    """Every position of seeded random games: the same pits, stores, plies and end."""
    game = load_game(os.path.join(LIBRARY, "oware.game"), backend=backend)
    names = pit_names(6)
    rng = random.Random(5)
    ends = set()
    for _ in range(20 if backend == "python" else 6):
        s, ref = game.initial_state(), start(6, 4)
        for _ in range(400):
            assert as_reference(game, s) == ref[:2], game.state_to_text(s)
            mine = sorted(game.action_to_text(s, a).split("-")[0] for a in game.legal_actions(s))
            assert mine == sorted(names[i] for i in moves(ref, 6)), game.state_to_text(s)
            if not mine:
                break
            assert game.to_move(s) == ref[2]
            i = rng.choice(moves(ref, 6))
            a = next(a for a in game.legal_actions(s) if game.action_to_text(s, a).startswith(names[i] + "-"))
            s, ref = game.apply(s, a), play(ref, i, 6)
        w = winner(ref, 6)
        if w is not None:
            ends.add(w)
            assert game.is_terminal(s) and game.winner(s) == (None if w == 2 else w)
    if backend == "python":
        assert {0, 1} <= ends  # both players win some


def test_captures_go_back_along_the_row_and_a_grand_slam_takes_nothing():
    """Hand-derived positions on the library's board."""
    game = load_game(os.path.join(LIBRARY, "oware.game"))
    # South sows f1's two seeds into f2 and e2 (1 and 2 there: 2, 3): both taken, then d2
    # (holding 2 before, untouched) is not: the run is e2, f2 back from the last pit.
    s = game.state_from_text("...ooo/....oo/.. South count.seed=d2:2,e2:2,f2:1,e1:3,f1:2")
    after = game.apply(s, game.action_from_text(s, "f1-e2"))
    assert as_reference(game, after) == ((0, 0, 0, 0, 3, 0, 0, 0, 2, 0, 0, 0), (5, 0))
    # The same, with d2 empty: e2 and f2 are all North has, a grand slam: nothing is taken.
    s = game.state_from_text("....oo/....oo/.. South count.seed=e2:2,f2:1,e1:3,f1:2")
    after = game.apply(s, game.action_from_text(s, "f1-e2"))
    assert as_reference(game, after) == ((0, 0, 0, 0, 3, 0, 2, 3, 0, 0, 0, 0), (0, 0))
    # North has nothing: South must feed; only e1 (3 seeds, reaching f2) does, not a1.
    s = game.state_from_text("....../o...o./.. South count.seed=a1:1,e1:3")
    assert sorted(game.action_to_text(s, a) for a in game.legal_actions(s)) == ["e1-e2"]
    # South sows a1 into b1 (North still has a2's seed); North sows a2 round into a1, which
    # empties its row; South cannot feed it (a1 reaches b1, b1 reaches d1), so South takes
    # its own row: 3 against North's 2, and nothing is left: South wins.
    s = game.state_from_text("o...../oo..../.o South count.seed=a2:1,a1:1,b1:1,north_store:2")
    s = game.apply(s, game.action_from_text(s, "a1-b1"))
    assert not game.is_terminal(s)
    s = game.apply(s, game.action_from_text(s, "a2-a1"))
    assert as_reference(game, s) == ((0,) * 12, (3, 2)) and game.winner(s) == 0


@pytest.mark.parametrize("m,n", [(2, 1), (2, 2), (2, 3), (3, 1), pytest.param(3, 2, marks=pytest.mark.slow)])
def test_small_owares_are_solved_as_here(m, n):
    from interpreter.search.solver import solve
    game = oware(m, n)
    value = {"win": 1, "draw": 0, "lose": -1}[solve(game).value(game.initial_state())]
    assert value == ref_value(m, n)
