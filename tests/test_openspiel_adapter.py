"""The OpenSpiel adapter: every bundled ruleset passes OpenSpiel's own random simulation
test, and hand-checked positions, chains, truncation, serialization and MCTS behave."""

from __future__ import annotations

import importlib
import pickle
import random
import subprocess
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")

from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.observation import INFO_STATE_OBS_TYPE, make_observation  # noqa: E402

from dsl.load import bundled_names  # noqa: E402
from interpreter import RulesetError, load_game, load_game_from_text  # noqa: E402
from interpreter.runtime.actions import Shape  # noqa: E402
from interpreter.adapters import openspiel as adapter  # noqa: E402
from interpreter.runtime.game import IllegalActionError  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# the rulesets whose random games are long or whose positions are large: fewer, shorter sims
SLOW = {"whistling-captures", "tricouleur", "3-a-side", "3-a-side-balanced",
        "3-a-side-free-ball", "3-a-side-match"}


def ids_of(state: pyspiel.State, *plies: str) -> list[int]:
    """The action ids of plies written in notation, played in turn from `state` (a copy)."""
    rules, state = state.get_game().rules, state.clone()
    out = []
    for text in plies:
        ids = rules.space.encode(state.position, rules.game.action_from_text(state.position, text))
        for i in ids:
            state.apply_action(i)
        out += ids
    return out


@pytest.mark.parametrize("name", bundled_names())
def test_random_sim_test_passes(name: str) -> None:
    # OpenSpiel's checks: legal ids sorted and their strings unique, clones equal, returns
    # summing to zero within the utilities, observation sizes, serialization round trips.
    game = pyspiel.load_game("rulecraft", {"ruleset": name, "max_game_length": 200})
    pyspiel.random_sim_test(game, num_sims=2 if name in SLOW else 5, serialize=True, verbose=False)


def test_tic_tac_toe_facts() -> None:
    game = pyspiel.load_game("rulecraft", {"ruleset": "tic-tac-toe"})
    assert str(game) == "rulecraft(backend=auto,grid=False,max_game_length=0,ruleset=tic-tac-toe)"
    assert game.num_distinct_actions() == 9  # 9 cells, as OpenSpiel's own tic-tac-toe
    assert game.num_players() == 2 and game.max_game_length() == 9  # 0: the rules' bound, 9 cells
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    state = game.new_initial_state()
    assert state.legal_actions() == list(range(9))
    assert [state.action_to_string(0, a) for a in (0, 4, 8)] == ["a1", "b2", "c3"]
    moves = ids_of(state, "a1", "a2", "b1", "b2", "c1")  # X completes the first rank
    assert moves == [0, 3, 1, 4, 2]
    for i, a in enumerate(moves):
        assert state.current_player() == i % 2
        state.apply_action(a)
    assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [1.0, -1.0]
    assert state.legal_actions() == []


def test_tic_tac_toe_observation() -> None:
    game = adapter.load("tic-tac-toe")
    assert game.observation_tensor_shape() == [4, 9]  # own, opponent's marks; who moves
    state = game.new_initial_state()
    assert sum(state.observation_tensor(0)) == 9  # only the "X to move" plane
    state.apply_action(4)  # X on b2
    for player in (0, 1):
        planes = np.array(state.observation_tensor(player)).reshape(4, 9)
        own, other = (1, 0) if player == 0 else (0, 1)  # b2 is X's: own for X only
        assert planes[0, 4] == own and planes[1, 4] == other
        assert planes[:2].sum() == 1 and planes[3].sum() == 9 and planes[2].sum() == 0
        assert state.observation_string(player) == ".../.X./... O"


def test_observers_made_by_open_spiel() -> None:
    game = adapter.load("tic-tac-toe")
    state = game.new_initial_state()
    state.apply_action(4)
    observation = make_observation(game)  # OpenSpiel's Python route
    observation.set_from(state, 1)
    assert observation.dict["observation"].shape == (4, 9)
    assert observation.dict["observation"][1, 4] == 1  # b2: O's opponent's
    assert observation.string_from(state, 1) == ".../.X./... O"
    history = make_observation(game, INFO_STATE_OBS_TYPE)  # perfect recall: the ids so far
    assert history.string_from(state, 0) == state.information_state_string(0) == "4"
    # the C++ route, which passes the parameters alone
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False,
                            observer=game.make_observer({}))
    with pytest.raises(ValueError, match="take no parameters"):
        make_observation(game, None, {"grid": True})


def test_three_musketeers_facts() -> None:
    game = pyspiel.load_game("rulecraft", {"ruleset": "three-musketeers"})
    assert game.num_distinct_actions() == 1250
    state = game.new_initial_state()
    assert len(state.legal_actions()) == 8
    assert game.observation_tensor_shape() == [6, 25]


def whistling_chain() -> tuple[pyspiel.State, tuple]:
    """A seeded random game of Whistling Captures up to a position whose mover has a chained
    ply of several hops; the state and that ply."""
    game = adapter.load("whistling-captures")
    rules, rng = game.rules, random.Random(3)
    state = game.new_initial_state()
    while not state.is_terminal():
        plies = [p for p in rules.game.legal_actions(state.position)
                 if len(rules.space.encode(state.position, p)) >= 2]
        if plies:
            return state, plies[0]
        state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no chain of several hops in the seeded game")


def test_chain_hops_keep_the_player_and_complete_the_ply() -> None:
    state, ply = whistling_chain()
    rules = state.get_game().rules
    chain = next(s for s in rules.space.segments if s.shape is Shape.CHAIN)
    before, player = state.position, state.current_player()
    hops = rules.space.encode(before, ply)
    for k, hop in enumerate(hops):
        legal = state.legal_actions()
        assert hop in legal
        if k:  # inside the chain, every legal id is a hop of it
            assert all(chain.start <= i < chain.start + chain.size for i in legal)
            assert state.position == before and state.prefix == hops[:k]
            assert state.current_player() == player
            route = rules.space.route(hops[:k])
            shape = state.get_game().observation_tensor_shape()
            planes = np.array(state.observation_tensor(player)).reshape(shape)
            assert planes[rules.observer.planes.index("chain at"), route[-1]] == 1
            assert "chain begun: " in str(state)
        last = k == len(hops) - 1
        expected = rules.game.action_to_text(before, ply) if last else rules.space.id_text(hop)
        assert state.action_to_string(player, hop) == expected
        state.apply_action(hop)
    assert state.prefix == ()
    assert state.position == rules.game.apply(before, ply)


def test_truncation_is_a_draw() -> None:
    game = adapter.load("tic-tac-toe", max_game_length=3)
    assert game.max_game_length() == 3
    state = game.new_initial_state()
    for a in (0, 3, 1):  # X a1, O a2, X b1: X threatens, the rules go on
        state.apply_action(a)
    assert state.is_terminal() and state.truncated()
    assert state.returns() == [0.0, 0.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions() == []
    assert "max_game_length" in str(state)
    with pytest.raises(IllegalActionError, match="the game is over"):
        state.apply_action(2)


def test_truncation_inside_a_chain() -> None:
    state, ply = whistling_chain()
    game = adapter.load("whistling-captures", max_game_length=len(state.history()) + 1)
    truncated = game.new_initial_state()
    for a in state.history() + [state.get_game().rules.space.encode(state.position, ply)[0]]:
        truncated.apply_action(a)
    assert truncated.prefix and truncated.is_terminal()
    assert truncated.returns() == [0.0, 0.0]


def test_illegal_id_raises() -> None:
    state = adapter.load("tic-tac-toe").new_initial_state()
    state.apply_action(4)
    with pytest.raises(IllegalActionError, match="b2"):
        state.apply_action(4)  # taken
    assert state.history() == [4]


def test_serialize_round_trip() -> None:
    state, ply = whistling_chain()
    state.apply_action(state.get_game().rules.space.encode(state.position, ply)[0])
    assert state.prefix  # a chain begun: the hardest state to restore
    game = state.get_game()
    for copy in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):
        assert (copy.position, copy.prefix, copy.steps) == (state.position, state.prefix, state.steps)
        assert copy.history() == state.history()
        assert str(copy) == str(state)
        assert copy.legal_actions() == state.legal_actions()
    assert pickle.loads(pickle.dumps(game)) == game


def test_load_a_game_object() -> None:
    source = (ROOT / "rulesets" / "tic-tac-toe.game").read_text()
    rules = load_game_from_text(source, name="mine.game")
    game = adapter.load(rules, max_game_length=20)
    assert game.rules.game is rules
    assert adapter.load(rules, max_game_length=20) == game  # the same key for the same object
    key = game.get_parameters()["ruleset"]
    assert key.startswith("mine.game#")
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_notice_for_hops_printed_once(capsys: pytest.CaptureFixture[str]) -> None:
    rules = load_game("whistling-captures")  # a new object: prepared afresh
    adapter.load(rules)
    adapter.load(rules)
    err = capsys.readouterr().err
    assert err.count("rulecraft: Whistling Captures: the chained plies of 'whistle'") == 1
    adapter.load("tic-tac-toe")
    assert capsys.readouterr().err == ""


def test_mcts_takes_the_win() -> None:
    game = adapter.load("tic-tac-toe")
    state = game.new_initial_state()
    for a in ids_of(state, "a1", "a2", "b1", "b2"):  # X to move: c1 wins, O threatens c2
        state.apply_action(a)
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=100,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    assert bot.step(state) == ids_of(state, "c1")[0] == 2


def test_register_is_idempotent() -> None:
    adapter.register()
    adapter.register()
    assert pyspiel.registered_names().count("rulecraft") == 1
    assert pyspiel.load_game("rulecraft").num_distinct_actions() == 9  # tic-tac-toe by default


def test_bad_parameters() -> None:
    with pytest.raises(ValueError, match="max_game_length must be at least 1"):
        adapter.load("tic-tac-toe", max_game_length=-1)
    with pytest.raises(RulesetError, match="no such ruleset"):
        adapter.load("no-such-game")


def test_import_without_open_spiel(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # None in sys.modules: ImportError
    monkeypatch.delitem(sys.modules, adapter.__name__)
    with pytest.raises(ImportError, match=r"pip install 'rulecraft\[openspiel\]'"):
        importlib.import_module(adapter.__name__)


def test_example_runs() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "examples" / "openspiel_mcts.py"),
                          "--simulations", "30"],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    assert "Tic-tac-toe: MCTS (X) vs random (O)" in out
    assert out.count("result: ") == 2


def test_three_players_triad() -> None:
    # OpenSpiel's checks on a three-player game: returns summing to zero, ids, clones
    game = pyspiel.load_game("rulecraft", {"ruleset": "triad", "max_game_length": 200})
    assert game.num_players() == 3
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
    state = game.new_initial_state()
    ids = ids_of(state, "d4-n4", "e1")  # Red lands on Green's cell: Blue's stone dropped
    for i in ids:
        state.apply_action(i)
    assert state.current_player() == 1  # the candidate, Green, plays next
    # OpenSpiel's own MCTS plays it, one bot per seat, to the end
    bots = [mcts.MCTSBot(game, 2, 8, mcts.RandomRolloutEvaluator(1, np.random.RandomState(k)),
                         random_state=np.random.RandomState(k)) for k in range(3)]
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    returns = state.returns()
    assert sorted(returns) in ([-0.5, -0.5, 1.0], [-1.0, 0.5, 0.5], [0.0, 0.0, 0.0])


def test_grid_shaped_observations() -> None:
    flat = pyspiel.load_game("rulecraft", {"ruleset": "three-musketeers"})
    grid = adapter.load("three-musketeers", grid=True)
    assert flat.observation_tensor_shape() == [6, 25] and grid.observation_tensor_shape() == [6, 5, 5]
    state = grid.new_initial_state()
    planes = np.array(state.observation_tensor(0)).reshape(6, 5, 5)
    # the first plane: the Musketeers' own pieces, rows from the north: e5, c3, a1
    assert planes[0].tolist() == [[0, 0, 0, 0, 1], [0] * 5, [0, 0, 1, 0, 0], [0] * 5, [1, 0, 0, 0, 0]]
    assert np.array(flat.new_initial_state().observation_tensor(0)).sum() == planes.sum()
    pyspiel.random_sim_test(grid, num_sims=2, serialize=True, verbose=False)


NATIVE_LOCKSTEP = ["tic-tac-toe", "three-musketeers", "3-spot", "force-3", "3-a-side", "tricouleur",
                   "connect-four", "kalah", "whistling-captures", "rulesets/library/english-draughts.game"]


@pytest.mark.parametrize("name", NATIVE_LOCKSTEP)
@pytest.mark.parametrize("grid", [False, True])
def test_the_native_states_keep_step_with_the_python_ones(name: str, grid: bool) -> None:
    """On the C (ids, plies, a chain's hops, the mover's tensor from vector.c) and on Python, the same
    random games: every id list, player, tensor (each player's), text, end and return."""
    pytest.importorskip("interpreter.native.build").compiler() or pytest.skip("no C compiler")
    games = {b: pyspiel.load_game("rulecraft", {"ruleset": name, "backend": b, "grid": grid,
                                                "max_game_length": 120}) for b in ("native", "python")}
    assert games["native"].engine is not None and games["python"].engine is None
    rng = random.Random(7)
    for _ in range(3):
        c, p = games["native"].new_initial_state(), games["python"].new_initial_state()
        while True:
            assert c.flat is not None and p.flat is None
            assert (c.is_terminal(), c.current_player(), str(c)) == (p.is_terminal(), p.current_player(), str(p))
            assert c.prefix == p.prefix  # a chain begun, hop by hop
            for player in range(games["python"].num_players()):
                assert c.observation_tensor(player) == p.observation_tensor(player)
            if c.is_terminal():
                assert c.returns() == p.returns() and c.truncated() == p.truncated()
                break
            legal = c.legal_actions()
            assert legal == p.legal_actions()
            a = rng.choice(legal)
            assert c.action_to_string(a) == p.action_to_string(a)
            twin = c.clone()
            c.apply_action(a)
            p.apply_action(a)
            assert twin.legal_actions() == legal  # the clone did not move with it
        back = games["native"].deserialize_state(c.serialize())
        assert back.position == c.position == p.position and back.history() == c.history()


def test_a_native_state_refuses_an_illegal_id_and_stays() -> None:
    pytest.importorskip("interpreter.native.build").compiler() or pytest.skip("no C compiler")
    for backend in ("native", "python"):  # the same messages
        state = pyspiel.load_game("rulecraft", {"ruleset": "tic-tac-toe", "backend": backend}).new_initial_state()
        state.apply_action(4)
        before = state.position
        with pytest.raises(IllegalActionError) as e:
            state.apply_action(4)
        assert str(e.value) == "action id place mark b2 makes no legal ply in this position (8 legal)"
        with pytest.raises(IllegalActionError) as e:
            state.apply_action(9)
        assert str(e.value) == "action id 9 is out of range 0..8"
        assert state.position == before and state.legal_actions() == [0, 1, 2, 3, 5, 6, 7, 8]
