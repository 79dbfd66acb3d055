"""The generated Python of two small bundled rulesets, pinned (tests/golden/*.py).

A change of the code generator shows here as a diff of the code it writes. When the
change is meant, write the new files with
`RULECRAFT_UPDATE_GOLDEN=1 pytest tests/test_golden_source.py` and read the diff.
"""

from __future__ import annotations

import difflib
import os

import pytest

from dsl.load import bundled_dir, load
from interpreter.python.compile import generate

GOLDEN = os.path.join(os.path.dirname(__file__), "golden")
PINNED = ["three-musketeers", "force-3"]


@pytest.mark.parametrize("name", PINNED)
def test_generated_source_is_pinned(name):
    source = generate(load(os.path.join(bundled_dir(), name + ".game"))).source
    path = os.path.join(GOLDEN, f"{name}.py")
    if os.environ.get("RULECRAFT_UPDATE_GOLDEN"):
        with open(path, "w", encoding="utf-8") as f:
            f.write(source)
    with open(path, encoding="utf-8") as f:
        golden = f.read()
    diff = "".join(difflib.unified_diff(golden.splitlines(True), source.splitlines(True),
                                        f"golden/{name}.py", "generated"))
    assert not diff, "the generated code changed:\n" + diff


@pytest.mark.parametrize("name", PINNED)
def test_golden_source_runs_with_its_runtime(name):
    # The pinned text is real code: run with the globals generate() gives, it plays.
    from interpreter import load_game

    g = generate(load(os.path.join(bundled_dir(), name + ".game")))
    namespace = dict(g.globals)
    with open(os.path.join(GOLDEN, f"{name}.py"), encoding="utf-8") as f:
        exec(compile(f.read(), f"golden/{name}.py", "exec"), namespace)  # noqa: S102 - our own file
    game = load_game(name)
    start = game.initial_state()
    listed = namespace["moves_0"](start)
    assert listed == [a for a in game.legal_actions(start) if a[0] == 0]
    assert namespace["has_0"](start) is bool(listed)
