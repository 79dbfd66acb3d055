import functools
import os

import pytest

from dsl.load import bundled_dir
from interpreter import Game, load_game

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@functools.lru_cache(maxsize=None)
def game_of(name: str) -> Game:
    """A compiled game, compiled once per test session."""
    return load_game(name)


@pytest.fixture
def write_game(tmp_path):
    """Write a .game file (and return its path) for tests of the language."""
    def write(text: str, name: str = "t.game") -> str:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return str(path)
    return write


def all_rulesets() -> list[str]:
    """Every ruleset shipped in rulesets/ (the installed copy: what users get)."""
    return sorted(f[:-5] for f in os.listdir(bundled_dir()) if f.endswith(".game"))


@pytest.fixture
def native_calls(monkeypatch):
    """The sizes of the solves the native solver finished (it falls back to Python otherwise)."""
    from interpreter.search import native_solve, solver

    done: list[int] = []
    real = native_solve.solve_native

    def counted(*args, **kwargs):
        sol = real(*args, **kwargs)
        done.append(len(sol))
        return sol

    monkeypatch.setattr(solver, "solve_native", counted)  # the name the solver calls
    return done
