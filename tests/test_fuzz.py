"""The small seeded fuzzing run of the default test suite (issue #11; docs/FUZZING.md).

Every category of tests/fuzz, a fixed set of examples each (hypothesis, derandomized),
each run in a forked worker within a time and memory budget: it must end in a clean
diagnostic or a successful run. A failure is shrunk by hypothesis to a small input.
The long run is the command: `.venv/bin/python -m tests.fuzz --count 20000 --seed 1 --jobs 2`.
"""

from __future__ import annotations

import os
import signal
import sys
import tempfile
import time

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from tests.fuzz import harness  # noqa: E402
from tests.fuzz.chooser import DataChooser  # noqa: E402
from tests.fuzz.harness import Budget, Outcome, run_case, run_many  # noqa: E402
from tests.fuzz.inputs import GENERATORS, Case, Context, collider_count, make_case  # noqa: E402
from tests.fuzz.names import (CANARY_ATTR, CANARY_NAME, canary_path, canary_payloads,  # noqa: E402
                              canary_tripped, clear_canary)

BUDGET = Budget(seconds=10.0, memory=1 << 30)
CTX = Context()

def fuzz_settings(examples: int):
    return settings(max_examples=examples, derandomize=True, deadline=None, database=None,
                    suppress_health_check=list(HealthCheck), print_blob=False)


def describe(case: Case, out: Outcome) -> str:
    files = "\n".join(f"--- {name}\n{content if isinstance(content, str) else repr(content[:300])}"
                      for name, content in case.files.items())
    return (f"{out.status} at {out.site}\n{out.detail}\n\ninput ({case.category}): {case.params}\n{files}\n"
            f"{harness.reproducer(case)}")


def run_category(category: str, examples: int) -> None:
    @fuzz_settings(examples)
    @given(st.data())
    def check(data):
        case = GENERATORS[category](DataChooser(data), CTX, 0)
        case.label = "hypothesis"
        out = run_case(case, CTX, BUDGET)
        assert not out.failed(), describe(case, out)

    check()


@pytest.fixture(scope="module", autouse=True)
def prewarm():
    CTX.prewarm(list(GENERATORS))


# The default run's share of each category; `python -m tests.fuzz` runs them at length.
@pytest.mark.parametrize("category,examples", [
    ("ruleset-gen", 20),
    ("ruleset-grammar", 15),
    ("ruleset-mutant", 20),
    ("ruleset-variant", 10),
    ("position", 40),
    ("ply", 40),
    ("scenario", 15),
    ("solution", 12),
    ("cli", 25),
    ("native", 3),
    ("solver", 2),
    ("lsp", 10),
    ("serve", 5),
])
def test_category(category, examples):
    run_category(category, examples)


# A sixteenth of the rotations in the default run (each builds a library); the rest with -m slow.
@pytest.mark.parametrize("part", [0] + [pytest.param(q, marks=pytest.mark.slow) for q in range(1, 16)])
def test_colliders_in_every_name_slot(part):
    """Every identifier of the generated code, its namespace, Python's builtins and keywords
    in every name slot of a ruleset (a rotation: ruleset i gives slot k collider i + 37k)."""
    failures: list[str] = []

    def on_result(tag, out, case):
        if out.failed():
            failures.append(f"rotation {tag}: {out.status} at {out.site}\n{out.detail}")

    n = collider_count()
    run_many([(i, (lambda i=i: make_case("colliders", 0, i, CTX))) for i in range(part, n, 16)], CTX,
             BUDGET, jobs=2, on_result=on_result)
    assert not failures, "\n\n".join(failures[:5])


def canary_ruleset() -> str:
    payloads = [p for p in canary_payloads() if '"' not in p]
    return (f'game "{payloads[0]}"\nboard square 3 x 3\nplayers {CANARY_NAME}, B\n'
            f'region {CANARY_NAME}_r: a1\n'
            f'piece {CANARY_NAME}_p: owner each, symbol X/O\n'
            f'var {CANARY_NAME}_v = 0\n'
            f'setup {CANARY_NAME}_p of {CANARY_NAME}: a1\n'
            f'ply {CANARY_NAME}_ply: place own {CANARY_NAME}_p onto empty - {CANARY_NAME}_r '
            f'then {CANARY_NAME}_v += 1\n'
            f'end {CANARY_NAME}_end: mover wins if {CANARY_NAME}_v >= 3\n')


def test_canary_never_reaches_python():
    """Names and strings that would run code (create the canary file, set a global) if any
    text of a game file were spliced into the generated code unescaped."""
    case = Case("ruleset", {"fuzz.game": canary_ruleset()}, {"file": "fuzz.game", "seed": 0})
    out = run_case(case, CTX, BUDGET)
    assert out.status == "ok", describe(case, out)
    for p in canary_payloads():
        if '"' in p:
            continue
        text = f'game "{p}"\nboard square 2 x 2\nplayers A, B\npiece m: owner each, symbol X/O\n' \
               f'ply put: place own m\n'
        out = run_case(Case("ruleset", {"fuzz.game": text}, {"file": "fuzz.game", "seed": 0}), CTX, BUDGET)
        assert out.status == "ok", out
    yaml_tag = f"ruleset: tic-tac-toe\nscenarios:\n  - name: x\n    expect: " \
               f"!!python/object/apply:os.system ['touch {canary_path()}']\n"
    out = run_case(Case("scenario", {"fuzz.yaml": yaml_tag}, {"argv": ["test", "fuzz.yaml"]}), CTX, BUDGET)
    assert out.status == "clean", out
    assert canary_tripped() is None


# ---------------------------------------------------------------- the harness itself
def _selftest(kind):
    def evaluate(case, ctx):
        if kind == "sleep":
            time.sleep(60)
        if kind == "spin":
            while True:
                pass
        if kind == "small":
            return Outcome("ok", detail=str(len(bytearray(200 << 20))))
        if kind == "memory":
            return Outcome("ok", detail=str(len(bytearray(2 << 30))))
        if kind == "crash":
            os.kill(os.getpid(), signal.SIGSEGV)
        if kind == "raise":
            raise KeyError("boom")
        if kind == "canary":
            open(canary_path(), "w").close()
        if kind == "global":
            import builtins
            setattr(builtins, CANARY_ATTR, 1)
        return Outcome("ok")
    return evaluate


@pytest.mark.parametrize("kind,status,site", [
    ("sleep", "TIMEOUT", "timeout at"), ("spin", "TIMEOUT", "over the CPU time at"),
    ("memory", "MEMORY", "MemoryError"), ("crash", "CRASH", "SIGSEGV"), ("raise", "TRACEBACK", "KeyError"),
    ("canary", "CANARY", "canary"), ("global", "CANARY", "canary"), ("fine", "ok", "")])
def test_harness_classifies(kind, status, site, monkeypatch, tmp_path):
    monkeypatch.setitem(harness.EVALUATORS, "selftest", _selftest(kind))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    begin = time.monotonic()
    out = run_case(Case("selftest"), CTX, Budget(seconds=1.0, memory=512 << 20))
    assert out.status == status, out
    assert site in out.site, out
    if status == "TIMEOUT":
        assert "test_fuzz.py" in out.detail  # faulthandler's stack of where it hung
        assert time.monotonic() - begin < 30  # the wall clock (6 s) stops a case that only waits
    assert os.listdir(tmp_path) == []  # the case's folder and stack dump gone, killed or not
    clear_canary()
    assert canary_tripped() is None  # the worker's canary never leaks into this process


def test_the_memory_budget_is_above_what_the_worker_already_maps(monkeypatch):
    """A parent that maps more than the budget (untouched: no RAM) still leaves each case
    its whole budget: what the parent ran before is not the case's."""
    import mmap
    held = mmap.mmap(-1, 768 << 20)
    try:
        monkeypatch.setitem(harness.EVALUATORS, "selftest", _selftest("small"))
        out = run_case(Case("selftest"), CTX, Budget(seconds=5.0, memory=512 << 20))
    finally:
        held.close()
    assert out.status == "ok", out


def test_command_is_deterministic(tmp_path):
    """The same seed gives the same inputs (what a failure folder's replay relies on)."""
    for category in GENERATORS:
        a, b = make_case(category, 7, 3, CTX), make_case(category, 7, 3, CTX)
        assert (a.files, a.params) == (b.files, b.params)
