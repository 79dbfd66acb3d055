"""The PettingZoo adapter: PettingZoo's own API test on every bundled ruleset, and
hand-checked positions, chained plies, determinism, truncation and errors."""

import contextlib
import io
import os
import pickle
import random
import subprocess
import sys
import warnings

import pytest

pytest.importorskip("pettingzoo")

import numpy as np  # noqa: E402 - after the skip: numpy comes with the extra
from gymnasium import spaces  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from conftest import REPO, game_of  # noqa: E402
from dsl.load import bundled_names  # noqa: E402
from interpreter import IllegalActionError  # noqa: E402
from interpreter.runtime.action_ids import ActionSpace  # noqa: E402
from interpreter.adapters.pettingzoo import env, raw_env  # noqa: E402

# api_test's play loop stops at the game's end, else after num_cycles rounds; few rounds for
# the two games whose masks are long (171,367 and 328,684 ids), built and checked each step.
BIG = {"tricouleur", "whistling-captures"}

# What api_test warns of in every environment outside the classic ones it exempts by
# name: a dict observation (theirs too), and agents named after the players, not `player_0`.
EXPECTED_WARNINGS = ("Observation is not a NumPy array",
                     "Observation space for each agent probably should be gymnasium.spaces.box",
                     "We recommend agents to be named in the format")


def quiet_api_test(e, num_cycles: int) -> None:
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(e, num_cycles=num_cycles, verbose_progress=False)
    assert [str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)] == []


@pytest.mark.parametrize("name", bundled_names())
def test_api(name):
    quiet_api_test(env(game_of(name)), num_cycles=10 if name in BIG else 200)


@pytest.mark.parametrize("name", bundled_names())
def test_api_truncated(name):
    # the other way an episode ends: every agent truncated mid-game
    quiet_api_test(env(game_of(name), max_steps=3), num_cycles=10)


@pytest.mark.parametrize("name", ["3-spot", "force-3", "whistling-captures"])
def test_api_absolute_flat(name):
    # the other observations: planes by piece type and player, one row of cells
    quiet_api_test(env(game_of(name), perspective="absolute", grid=False), num_cycles=10)


def play_ids(e, ids):
    for i in ids:
        e.step(i)


def test_tic_tac_toe_spaces_and_a_win():
    e = env("tic-tac-toe")
    e.reset()
    assert e.possible_agents == ["X", "O"]
    assert e.action_space("X") == spaces.Discrete(9)  # nine cells (no `pass`: no turn allows one)
    obs = e.observe("X")
    assert obs["action_mask"].dtype == np.int8
    assert obs["action_mask"].tolist() == [1] * 9
    assert not e.observe("O")["action_mask"].any()  # not O's turn
    assert e.observation_space("X")["observation"].shape == obs["observation"].shape == (4, 3, 3)
    # ids are cells a1, b1, c1, a2, ...: X takes the first rank, O plays on the second
    play_ids(e, [0, 3, 1, 4])
    assert e.agent_selection == "X" and not any(e.terminations.values())
    e.step(2)
    assert e.terminations == {"X": True, "O": True}
    assert e.rewards == {"X": 1.0, "O": -1.0}
    _, reward, terminated, truncated, _ = e.last()
    assert terminated and not truncated and reward == e.rewards[e.agent_selection]
    e.step(None)
    e.step(None)
    assert e.agents == []
    assert not e.observe("X")["action_mask"].any()  # an agent gone may still be observed


def test_tic_tac_toe_cumulative_rewards_reach_each_agent():
    e = env("tic-tac-toe")
    e.reset()
    play_ids(e, [0, 3, 1, 4, 2])
    seen = {}
    for agent in e.agent_iter():
        _, reward, terminated, _, _ = e.last()
        assert terminated
        seen[agent] = reward
        e.step(None)
    assert seen == {"X": 1.0, "O": -1.0}


def test_observation_is_the_observing_agents():
    e = env("tic-tac-toe", perspective="mover", grid=False)
    e.reset()
    e.step(4)  # X on b2
    x, o = e.observe("X")["observation"], e.observe("O")["observation"]
    assert e.unwrapped.observer.planes[:2] == ["own mark", "opponent's mark"]
    assert x[0, 4] == 1 and x[1, 4] == 0  # b2 is cell 4
    assert o[0, 4] == 0 and o[1, 4] == 1


def test_three_musketeers_start():
    e = env("three-musketeers")
    e.reset()
    assert e.action_space("Musketeers") == spaces.Discrete(1250)
    mask = e.observe("Musketeers")["action_mask"]
    # corner musketeers a1 and e5 can take two enemies each, c3 four
    assert mask.sum() == 8
    space = ActionSpace(e.unwrapped.game)
    assert sorted(space.id_text(i) for i in np.flatnonzero(mask)) == sorted(
        f"capture musketeer {m}" for m in ("a1-b1", "a1-a2", "c3-c2", "c3-b3", "c3-d3", "c3-c4",
                                           "e5-e4", "e5-d5"))


def chain_position(game, space, seed):
    """Random play up to a position with a legal ply of two or more hops: the ids that
    reach it (one a ply), the position, and the ply."""
    rng, state, ids = random.Random(seed), game.initial_state(), []
    while not game.is_terminal(state):
        actions = game.legal_actions(state)
        chains = [a for a in actions if len(space.encode(state, a)) >= 2]
        if chains:
            return ids, state, chains[0]
        action = rng.choice(actions)
        ids += space.encode(state, action)
        state = game.apply(state, action)
    pytest.fail("random play found no chained ply")


def test_chained_ply_keeps_its_agent():
    game = game_of("whistling-captures")
    space = ActionSpace(game)
    before, state, ply = chain_position(game, space, seed=2)
    hops = space.encode(state, ply)
    e = env(game)
    e.reset()
    play_ids(e, before)
    assert e.unwrapped.game_state == state
    mover = e.agent_selection
    assert mover == game.players[game.to_move(state)]
    for k, i in enumerate(hops[:-1]):
        assert e.observe(mover)["action_mask"][i] == 1
        e.step(i)
        assert e.agent_selection == mover  # mid-ply: the same agent makes the next hop
        assert e.unwrapped.prefix == hops[:k + 1] and e.unwrapped.game_state == state
        mask = e.observe(mover)["action_mask"]
        assert mask[hops[k + 1]] == 1
        with pytest.raises(IllegalActionError, match=rf"\({mask.sum()} legal id"):  # those going on
            e.step(hops[k])
        assert not e.observe(game.players[1 - game.to_move(state)])["action_mask"].any()
    e.step(hops[-1])
    assert e.unwrapped.prefix == ()
    assert e.unwrapped.game_state == game.apply(state, ply)
    assert e.agent_selection == game.players[game.to_move(e.unwrapped.game_state)]


def test_illegal_ids_raise():
    e = env("tic-tac-toe")
    e.reset()
    e.step(4)
    with pytest.raises(IllegalActionError, match=r"O: action id 4 \(place mark b2\) is not legal here \(8 legal"):
        e.step(4)
    assert e.agent_selection == "O" and e.unwrapped.steps == 1  # nothing changed
    with pytest.raises(IllegalActionError, match="out of range 0..8"):
        e.unwrapped.step(9)  # the wrapped env asserts first
    with pytest.raises(IllegalActionError, match="needs an action id"):
        e.unwrapped.step(None)


def trajectory(seed, name="3-spot"):
    e = env(game_of(name), max_steps=150)
    e.reset(seed=seed)
    out = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        action = None if terminated or truncated else int(e.action_space(agent).sample(obs["action_mask"]))
        out.append((agent, action, reward, obs["observation"].tobytes()))
        e.step(action)
    return out


def test_same_seed_same_trajectory():
    a, b = trajectory(7), trajectory(7)
    assert len(a) > 10 and a == b
    assert trajectory(8) != a


def test_truncation_at_max_steps():
    e = env("three-musketeers", max_steps=4)
    e.reset()
    for _ in range(3):
        e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
        assert not any(e.truncations.values())
    e.step(int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"])[0]))
    assert e.truncations == {"Musketeers": True, "Enemy": True}
    assert not any(e.terminations.values())
    assert e.rewards == {"Musketeers": 0.0, "Enemy": 0.0}
    assert not e.observe(e.agent_selection)["action_mask"].any()
    e.step(None)
    e.step(None)
    assert e.agents == []
    e.reset()  # a new episode starts afresh
    assert not any(e.truncations.values()) and e.unwrapped.steps == 0


def test_render_modes(capsys):
    e = env("tic-tac-toe", render_mode="ansi")
    e.reset()
    e.step(0)
    assert e.render() == "  3 . . .\n  2 . . .\n  1 X . .\n    a b c\nO to move"
    h = env("tic-tac-toe", render_mode="human")
    h.reset()
    h.step(4)
    assert "  2 . X .\n" in capsys.readouterr().out
    with pytest.raises(ValueError, match="unknown render_mode"):
        raw_env("tic-tac-toe", render_mode="rgb_array")


def test_render_shows_a_chain_begun():
    game = game_of("whistling-captures")
    space = ActionSpace(game)
    before, state, ply = chain_position(game, space, seed=0)
    e = env(game, render_mode="ansi")
    e.reset()
    play_ids(e, before)
    first = space.encode(state, ply)[0]
    e.step(first)
    assert e.render() == game.render(state) + f"\nchain begun: {space.id_text(first)}"


def test_name_pickle_and_bounds():
    e = raw_env(game_of("3-spot"))
    assert str(e) == "rulecraft_3_spot_v0"
    box = e.observation_space("Blue")["observation"]
    assert box.dtype == np.float32 and box.low.min() < 0 < 1 < box.high.max()  # the scores
    copy = pickle.loads(pickle.dumps(e))
    copy.reset()
    assert copy.game.title == "3-Spot" and copy.agents == ["Blue", "Red"]


def test_import_error_names_the_extra():
    code = "import sys; sys.modules['pettingzoo'] = None\nimport interpreter.adapters.pettingzoo"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert "ImportError: the PettingZoo adapter needs" in run.stderr
    assert "pip install 'rulecraft[pettingzoo]'" in run.stderr


def test_selfplay_example():
    script = os.path.join(REPO, "examples", "pettingzoo_selfplay.py")
    run = subprocess.run([sys.executable, script, "--games", "5", "--seed", "3"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].startswith("Three Musketeers: collected ") and lines[0].endswith("from 5 games")
    n = int(lines[0].split()[3])
    assert f"observations ({n}, 6, 5, 5) float32, masks ({n}, 1250) int8, actions ({n},) int64" in lines[1]
    results = dict(part.rsplit(" ", 1) for part in lines[2].removeprefix("  results: ").split(", "))
    assert sum(map(int, results.values())) == 5


def test_three_players_triad():
    e = env(game_of("triad"))
    quiet_api_test(e, num_cycles=30)
    e.reset()
    assert e.possible_agents == ["Red", "Green", "Blue"]
    rng = random.Random(2)
    final = {}
    while e.agents:
        obs, reward, term, trunc, _ = e.last()
        if term or trunc:
            final[e.agent_selection] = reward
        e.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert sorted(final.values()) in ([-0.5, -0.5, 1.0], [-1.0, 0.5, 0.5])  # zero-sum


def test_player_n_agent_names():
    e = env("three-musketeers", agent_names="player_N")
    quiet_api_test(e, num_cycles=20)
    e.reset()
    assert e.possible_agents == ["player_0", "player_1"] and e.agent_selection == "player_0"
    with pytest.raises(ValueError, match="agent_names is 'players' or 'player_N', not 'names'"):
        env("tic-tac-toe", agent_names="names")


def test_an_illegal_id_ends_the_game_with_the_penalty():
    e = env("tic-tac-toe", illegal_reward=-1)
    quiet_api_test(e, num_cycles=20)
    e.reset()
    e.step(4)  # X takes b2
    e.step(4)  # O asks for it again: illegal
    assert e.terminations == {"X": True, "O": True}
    assert e._cumulative_rewards == {"X": 0.0, "O": -1.0}
    assert e.infos["O"]["illegal_move"].startswith("O: action id 4 (place mark b2) is not legal here")
    _, reward, term, _, _ = e.last()
    assert e.agent_selection == "O" and term and reward == -1.0
    e.step(None)  # each agent in turn leaves the ended game
    e.step(None)
    assert e.agents == []


def test_steps_default_to_the_rules_bound():
    assert env("tic-tac-toe").unwrapped.max_steps == 9  # nine cells, a mark a step
    assert env("three-musketeers").unwrapped.max_steps == 1000  # pieces move: no bound
    assert env("tic-tac-toe", max_steps=4).unwrapped.max_steps == 4


@pytest.mark.parametrize("name, perspective", [("three-musketeers", "mover"), ("3-spot", "absolute"),
                                               ("tricouleur", "mover"), ("rulesets/library/konane.game", "mover"),
                                               ("rulesets/library/alquerque.game", "absolute")])
def test_the_environment_in_c_is_the_environment_in_python(name, perspective):
    """With a native game the C makes the plies, masks and the mover's tensors: every
    observation of every agent, reward and selection is the Python environment's."""
    from interpreter import load_game
    from interpreter.native.build import compiler

    if compiler() is None:
        pytest.skip("no C compiler")
    fast = raw_env(load_game(name, "auto"), max_steps=60, perspective=perspective)
    slow = raw_env(game_of(name), max_steps=60, perspective=perspective)
    assert fast._vec is not None and slow._vec is None
    rng = random.Random(7)
    for episode in range(3):
        fast.reset(seed=episode)
        slow.reset(seed=episode)
        while True:
            assert fast.agent_selection == slow.agent_selection
            assert fast.rewards == slow.rewards and fast.terminations == slow.terminations
            assert fast.truncations == slow.truncations and fast.game_state == slow.game_state
            assert fast.prefix == slow.prefix  # a chain begun
            for agent in fast.possible_agents:
                a, b = fast.observe(agent), slow.observe(agent)
                assert np.array_equal(a["observation"], b["observation"])
                assert np.array_equal(a["action_mask"], b["action_mask"])
            agent = fast.agent_selection
            if fast.terminations[agent] or fast.truncations[agent]:
                break
            action = rng.choice(np.flatnonzero(fast.observe(agent)["action_mask"]).tolist())
            fast.step(action)
            slow.step(action)
    with pytest.raises(IllegalActionError) as e1:
        fast.reset()
        fast.step(fast.ids.size)
    with pytest.raises(IllegalActionError) as e2:
        slow.reset()
        slow.step(slow.ids.size)
    assert str(e1.value) == str(e2.value)
