"""The frameworks' own checks on every ruleset of the library (the bundled ones have
theirs in test_pettingzoo_adapter.py, test_openspiel_adapter.py and test_vector.py):
PettingZoo's api_test and parallel_api_test, Gymnasium's check_env, and OpenSpiel's
random_sim_test."""

from __future__ import annotations

import functools
import warnings

import pytest

from dsl.load import bundled_names, library_names
from interpreter import load_game

LIBRARY = [f"rulesets/library/{n}.game" for n in library_names()]
# The bundled rulesets on their C: the seed games in the default run, their variants
# (`3-spot-misere` after `3-spot`: the same adapter on other rules, each variant's batches
# a library to build) with -m slow.
BUNDLED = [pytest.param(name, marks=pytest.mark.slow) if any(name.startswith(base + "-") for base in bundled_names())
           else name for name in bundled_names()]


@functools.lru_cache(maxsize=None)
def game_of(path: str):
    # the library on the Python back-end (no C to build for 60 rulesets: test_vector.py
    # steps them in C with -m slow); the bundled ones with their C, built by other tests
    return load_game(path, "python" if path.startswith("rulesets/library/") else "auto")


@pytest.mark.parametrize("path", LIBRARY + BUNDLED)
def test_pettingzoo_api_test(path):  # the bundled ones here with their C (test_pettingzoo_adapter: Python)
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from interpreter.adapters.pettingzoo import env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on observation bounds: covered in the bundled tests
        api_test(env(game_of(path)), num_cycles=60, verbose_progress=False)


@pytest.mark.parametrize("path", LIBRARY + bundled_names())
def test_pettingzoo_parallel_api_test(path):
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import parallel_api_test

    from interpreter.adapters.pettingzoo_parallel import parallel_env

    parallel_api_test(parallel_env(game_of(path)), num_cycles=200)


@pytest.mark.parametrize("path", LIBRARY + bundled_names())
def test_gymnasium_check_env(path):
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from interpreter.adapters.gymnasium_env import RulecraftEnv

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on observation bounds and float32 planes
        check_env(RulecraftEnv(game_of(path)), skip_render_check=True)


@pytest.mark.parametrize("path", LIBRARY)
def test_openspiel_random_sim_test(path):
    pyspiel = pytest.importorskip("pyspiel")
    import interpreter.adapters.openspiel  # noqa: F401 - registers the game

    # on the Python back-end, as the other frameworks' checks above: the library's C (the
    # adapter's path through vector.OneGame) is stepped in test_vector.py with -m slow
    game = pyspiel.load_game("rulecraft", {"ruleset": path, "max_game_length": 200, "backend": "python"})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
