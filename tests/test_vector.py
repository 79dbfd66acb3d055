"""Vectorised games (interpreter/adapters/vector.py): the batch stepped in C against the
same batch stepped in Python a game at a time (ActionSpace, Observer and Game: none of
the C's tables), and the Gymnasium and PettingZoo environments over them."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")

import functools  # noqa: E402

from dsl.load import library_names  # noqa: E402
from interpreter import load_game  # noqa: E402
from interpreter.native.build import compiler  # noqa: E402
from interpreter.runtime.action_ids import ActionSpace, has_chains  # noqa: E402
from interpreter.runtime.game import Game, IllegalActionError  # noqa: E402
from interpreter.runtime.observation import Observer  # noqa: E402

from conftest import all_rulesets  # noqa: E402

needs_c = pytest.mark.skipif(compiler() is None, reason="no C compiler")
EVERY = all_rulesets() + [f"rulesets/library/{n}.game" for n in library_names()]


@functools.lru_cache(maxsize=None)
def game_of(name: str):
    return load_game(name, "auto")


def vector(name, n, **kw):
    from interpreter.adapters.vector import VectorGames
    return VectorGames(game_of(name), n, **kw)


def lockstep(name: str, n: int, steps: int, seed: int, **kw) -> int:
    """Both batches stepped with the same random legal ids; every array compared at every
    step. The games finished."""
    c, py = vector(name, n, native=True, **kw), vector(name, n, native=False, **kw)
    rng = np.random.default_rng(seed)
    c.reset()
    py.reset()
    ended = 0
    for _ in range(steps):
        for a in ("masks", "observations", "rewards", "terminated", "truncated", "plies"):
            assert np.array_equal(getattr(c, a), getattr(py, a)), a
        assert np.array_equal(c.to_move, py.to_move) and c.states() == py.states()
        assert c.prefixes() == py.prefixes()  # the chains begun
        ids = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in c.masks]
        c.step(ids)
        py.step(ids)
        ended += int(c.terminated.sum() + c.truncated.sum())
    return ended


# The bundled rulesets and a few of the library by default (each builds its C); the rest
# of the library with -m slow.
DEFAULT = set(all_rulesets()) | {f"rulesets/library/{n}.game" for n in ("connect-four", "kalah")}


@needs_c
@pytest.mark.parametrize("name", [n if n in DEFAULT else pytest.param(n, marks=pytest.mark.slow)
                                  for n in EVERY])
def test_the_batch_in_c_is_the_batch_in_python(name):
    lockstep(name, 4, 60, seed=len(name), max_plies=40)


@needs_c
@pytest.mark.parametrize("name, kw", [("tic-tac-toe", {"grid": True}), ("3-spot", {"perspective": "absolute"}),
                                      ("tricouleur", {"grid": True}), ("rulesets/library/kalah.game", {}),
                                      pytest.param("rulesets/library/triad.game", {}, marks=pytest.mark.slow)])
def test_grids_perspectives_counts_and_three_players_in_c(name, kw):
    assert lockstep(name, 6, 150, seed=3, **kw) > 0


def test_a_game_that_ends_starts_again_at_the_next_step():
    v = vector("tic-tac-toe", 2)
    v.reset()
    start = v.observations[0].copy()
    for ply in ("a1", "a2", "b1", "b2"):
        i = v.game.action_from_text(v.states()[0], ply)
        v.step([v.space.encode(v.states()[0], i)[0]] * 2)
    win = v.space.encode(v.states()[0], v.game.action_from_text(v.states()[0], "c1"))[0]
    v.step([win, win])
    assert v.terminated.tolist() == [True, True] and v.rewards.tolist() == [[1, -1], [1, -1]]
    assert not v.masks.any()  # nothing is legal once a game is over
    v.step([12345, 0])  # not read: the games start again
    assert not v.terminated.any() and v.plies.tolist() == [0, 0] and (v.observations[0] == start).all()
    assert v.rewards.tolist() == [[0, 0], [0, 0]] and v.masks.sum() == 18


@pytest.mark.parametrize("native", [pytest.param(True, marks=needs_c), False])
def test_an_illegal_id_names_its_game_or_ends_it_with_a_penalty(native):
    v = vector("tic-tac-toe", 3, native=native)
    v.reset()
    with pytest.raises(IllegalActionError) as e:
        v.step([0, 4, 9])
    assert str(e.value) == "game 2: action id 9 is out of range 0..8"
    v.step([4, 4, 0])  # X b2 in each (id 4: b2, as ActionSpace numbers the cells)
    with pytest.raises(IllegalActionError) as e:
        v.step([0, 4, 1])
    assert str(e.value) == "game 1: action id place mark b2 makes no legal ply in this position (8 legal)"
    p = vector("tic-tac-toe", 3, native=native, illegal_reward=-1.0)
    p.reset()
    p.step([4, 4, 4])
    p.step([0, 4, 99])  # O: a1, then b2 taken, then no such id: both games end, O penalised
    assert p.terminated.tolist() == [False, True, True] and p.rewards[:, 1].tolist() == [0, -1, -1]
    assert p.masks[1:].sum() == 0 and p.masks[0].sum() == 7 and p.plies.tolist() == [2, 1, 1]


def test_truncation_after_max_plies():
    v = vector("three-musketeers", 2, max_plies=3)
    v.reset()
    for _ in range(3):
        v.step([np.flatnonzero(m)[0] for m in v.masks])
    assert v.truncated.tolist() == [True, True] and not v.terminated.any()


def segments_variant():
    """Whistling Captures with at most two segments a chain (the search's states count them)."""
    from interpreter import load_game_from_text
    text = open("rulesets/whistling-captures.game").read()
    assert "slide chained onto empty" in text
    return load_game_from_text(text.replace("slide chained onto empty", "slide chained up to 2 segments onto empty"),
                               "rulesets/two-segments.game", "auto")


@needs_c
@pytest.mark.parametrize("name", ["whistling-captures", "rulesets/library/english-draughts.game",
                                  "rulesets/library/alquerque.game", "rulesets/library/konane.game",
                                  "two segments"])
def test_chains_step_in_c_a_hop_at_a_time_as_in_python(name):
    # the C walks its chain search's graph; the Python lists every route of every chain
    from interpreter.adapters.vector import VectorGames

    game = segments_variant() if name == "two segments" else game_of(name)
    assert has_chains(game) and VectorGames(game, 1).native
    c, py = VectorGames(game, 4, native=True), VectorGames(game, 4, native=False)
    c.reset()
    py.reset()
    begun = 0
    for step in range(120):
        for a in ("masks", "observations", "rewards", "terminated", "truncated", "plies"):
            assert np.array_equal(getattr(c, a), getattr(py, a)), a
        assert c.states() == py.states() and c.prefixes() == py.prefixes()
        begun += sum(map(bool, c.prefixes()))
        ids = py.random_ids(step)
        assert np.array_equal(ids, c.random_ids(step))
        c.step(ids)
        py.step(ids)
    assert begun > 0  # some chains were begun and went on


@needs_c
def test_a_double_jump_hop_by_hop_in_c():
    from interpreter.adapters.vector import OneGame

    game = game_of("rulesets/library/english-draughts.game")
    # Black's man on a1 must jump b2 onto c3, then d4 onto e5: one ply, two hops
    s = game.state_from_text("..../..../..../..../.w../..../w.../b... Black")
    one, space = OneGame(game), ActionSpace(game)
    flat = bytes(game.native.flat(s))
    first = one.legal(flat)
    assert [space.id_text(i) for i in first] == ["bjump bman a1-c3"]
    after, prefix, over = one.apply(flat, (), first[0])
    assert (after, prefix, over) == (flat, (first[0],), False)  # the position waits for the ply
    second = one.legal(flat, prefix)
    assert [space.id_text(i) for i in second] == ["bjump bman c3-e5 end"]
    with pytest.raises(IllegalActionError):
        one.apply(flat, prefix, first[0])
    done, prefix, over = one.apply(flat, prefix, second[0])
    assert game.state_to_text(one.state(done)) == "..../..../..../..b./..../..../..../.... White result=Black"
    assert prefix == () and over
    planes = one.observe(flat, (first[0],))
    route, at = (Observer(game).planes.index(p) for p in ("route", "chain at"))
    assert [game.board.names[c] for c in np.flatnonzero(planes[route])] == ["a1", "c3"]
    assert [game.board.names[c] for c in np.flatnonzero(planes[at])] == ["c3"]


# ------------------------------------------------------------------ Gymnasium

def test_one_game_passes_gymnasiums_checker():
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from interpreter.adapters.gymnasium_env import RulecraftEnv

    for name in ("tic-tac-toe", "three-musketeers", "whistling-captures"):
        check_env(RulecraftEnv(name), skip_render_check=True)


@needs_c
def test_the_vector_env_is_gymnasiums_sync_vector_env_of_single_games():
    """The batch in C against Gymnasium's own SyncVectorEnv over single games in Python."""
    pytest.importorskip("gymnasium")
    from gymnasium.vector import SyncVectorEnv

    from interpreter.adapters.gymnasium_env import RulecraftEnv, vector_env

    env = vector_env("3-spot", 5, native=True)
    sync = SyncVectorEnv([lambda: RulecraftEnv("3-spot", native=False) for _ in range(5)])
    obs, info = env.reset(seed=1)
    sobs, sinfo = sync.reset(seed=1)
    rng = np.random.default_rng(1)
    finished = 0
    for _ in range(400):
        assert np.array_equal(obs, sobs) and np.array_equal(info["action_mask"], np.stack(sinfo["action_mask"]))
        ids = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in info["action_mask"]])
        obs, rew, term, trunc, info = env.step(ids)
        sobs, srew, sterm, strunc, sinfo = sync.step(ids)
        assert np.array_equal(rew, srew) and np.array_equal(term, sterm) and np.array_equal(trunc, strunc)
        finished += int(term.sum())
    assert finished > 0 and env.observation_space.contains(obs)


# ------------------------------------------------------------------ PettingZoo

@pytest.mark.parametrize("name", ["tic-tac-toe", "3-spot", "whistling-captures"])
def test_pettingzoos_parallel_api_test(name):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import parallel_api_test

    from interpreter.adapters.pettingzoo_parallel import parallel_env

    parallel_api_test(parallel_env(name), num_cycles=300)
    parallel_api_test(parallel_env(name, agent_names="player_N", grid=False), num_cycles=300)


def test_the_worked_example_learns_to_beat_random_play():
    import re
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "examples/train_policy.py", "--iterations", "100", "--seed", "2"],
                         capture_output=True, text=True, check=True, timeout=300).stdout
    before, after = map(float, re.search(r"random play ([0-9.]+) before, ([0-9.]+) after", out).groups())
    # random play scores about 0.5 against itself (tic-tac-toe: the first player wins more)
    assert after >= 0.75 and after - before >= 0.25, out


@needs_c
@pytest.mark.parametrize("name", ["three-musketeers", "3-a-side", "rulesets/library/kalah.game"])
def test_random_legal_ids_are_the_same_in_c_and_in_python(name):
    c, py = vector(name, 8, native=True), vector(name, 8, native=False)
    c.reset()
    py.reset()
    for step in range(40):
        ids = c.random_ids(step)
        assert np.array_equal(ids, py.random_ids(step))
        assert all(m[i] == 1 for m, i in zip(c.masks, ids) if i >= 0)
        c.step(ids)
        py.step(ids)


@needs_c
def test_a_push_of_a_piece_type_other_than_the_first():
    # the tile is the third type here (index 2): a push's first integer is its direction,
    # which the C's id must not read as a piece type
    from interpreter import load_game_from_text
    from interpreter.adapters.vector import VectorGames

    text = open("rulesets/force-3.game").read().replace(
        "piece tile: neutral, symbol t\n", "").replace(
        "piece disc: owner each, on tile, reserve 3, symbol Y/G, colour yellow/green\n",
        "piece disc: owner each, on tile, reserve 3, symbol Y/G, colour yellow/green\n"
        "piece tile: neutral, symbol t\n")
    game = load_game_from_text(text, "rulesets/moved-tile.game", "auto")
    assert [t.kind for t in game.ruleset.types][-1] == "tile"
    c, py = VectorGames(game, 4, native=True), VectorGames(game, 4, native=False)
    c.reset()
    py.reset()
    for step in range(80):
        assert np.array_equal(c.masks, py.masks) and np.array_equal(c.observations, py.observations)
        ids = py.random_ids(step)
        c.step(ids)
        py.step(ids)


BUDGET = '''game "row"
board square 5 x 1
players A, B
piece man: owner each, symbol M/m
setup man of A: a1
setup man of B: e1
ply s: move own man step onto empty
ply p: move own man slide w chained then remove opponent's man & adjacent(here)
'''


@pytest.mark.parametrize("native", [pytest.param(True, marks=needs_c), False])
def test_a_chain_search_past_its_budget_says_so_as_the_rules_do(native, tmp_path, monkeypatch):
    # a budget of one state (limits.MAX_CHAIN_STATES, read as the code is made): A's man
    # has no chain west of a1; A's step a1-b1 is made, then B's chains from e1 pass the
    # budget (c1 takes b1), as the next position's mask is made
    from interpreter import load_game_from_text
    from interpreter.adapters.vector import OneGame, VectorGames
    from interpreter.runtime import limits

    monkeypatch.setattr(limits, "MAX_CHAIN_STATES", 1)
    game = load_game_from_text(BUDGET, str(tmp_path / "t.game"), "native" if native else "python")
    message = (f"{tmp_path}/t.game:8:1: error: ply 'p': the chains from e1 take more than 1 states "
               "to list\n  hint: bound them with `chained up to N segments`, or make each segment "
               "remove fewer pieces")
    v = VectorGames(game, 2, native=native)
    v.reset()
    with pytest.raises(limits.RuleLimitError) as e:
        v.step(v.random_ids(0))
    assert str(e.value) == message
    if native:  # one game at a time, as OpenSpiel's states step on the C
        one = OneGame(game)
        [step] = one.legal(one.initial())  # A's a1-b1
        after, _, _ = one.apply(one.initial(), (), step)
        with pytest.raises(limits.RuleLimitError) as e:
            one.legal(after)
        assert str(e.value) == message


@needs_c
def test_a_batches_library_that_does_not_build_leaves_the_batches_in_python(monkeypatch):
    import interpreter.native.library as native_library
    from interpreter.adapters.vector import VectorGames, steps_in_c
    from interpreter.native.build import NativeUnavailable

    game = load_game("tic-tac-toe", backend="native")  # a Game of its own: no batches' library yet
    real, tries = native_library.build, []

    def build(source: str):
        if source == game.native._vector_source:
            tries.append(source)
            raise NativeUnavailable("the C compiler did not finish within 60 s")
        return real(source)

    monkeypatch.setattr(native_library, "build", build)
    assert not steps_in_c(game)
    batch = VectorGames(game, 2)
    assert batch.native is False
    batch.reset()
    assert batch.masks.tolist() == [[1] * 9, [1] * 9]
    with pytest.raises(ValueError, match="no native vectorised games here"):
        VectorGames(game, 2, native=True)
    # the failure is kept: not a compiler's run again for every batch or state that asks
    assert not steps_in_c(game) and len(tries) == 1
    with pytest.raises(NativeUnavailable, match="did not finish within 60 s"):
        game.native.vector
    # the game's own library, and a game loaded afresh, are unaffected
    monkeypatch.setattr(native_library, "build", real)
    fresh = Game(game.ruleset, backend="native")
    assert steps_in_c(fresh) and VectorGames(fresh, 2).native is True
