"""The native back-end bounded like the Python one: a ruleset whose C would take too long
to build, a compiler that does not finish, and commands that never need C (check, info,
render, replay) each end in a clean, positioned message, never a traceback or a wait."""

from __future__ import annotations

import pytest

from dsl.load import load
from interpreter.apps.cli import main
from interpreter.runtime.game import Game
from interpreter.native import backend as native_backend
from interpreter.native import build as native_build
from interpreter.native.build import NativeUnavailable

needs_cc = pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")

KINDS = 200


def many_kinds(n: int) -> str:
    """A ruleset of n piece kinds, each with its own step rule: a few lines of C each."""
    lines = ['game "many"', "board square 8 x 8", "players A, B"]
    # each held in reserve, so that no rule is one that never moves a piece (a warning)
    lines += [f'piece k{i}: owner A, reserve 1, symbol "{chr(0x100 + i)}"' for i in range(n)]
    lines += ["piece z: owner B, symbol Z", "setup z: h8", "setup k0: a1"]
    lines += [f"ply m{i}: move own k{i} step onto empty" for i in range(n)]
    lines += ["ply zz: move own z step onto empty", "end e: A wins if no legal ply", ""]
    return "\n".join(lines)


TOO_LARGE = (f"many.game:{KINDS + 7}:1: this ruleset compiles to more C than the native back-end builds "
             f"in seconds (over 20,000 lines, 1,000,000 bytes of code or 4,000,000 of tables; {KINDS + 1} "
             f"ply rules, 2 players, "
             f"{KINDS + 1} piece types); the Python back-end runs it (`--backend python`)")


@pytest.fixture
def many(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("RULECRAFT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(native_backend, "_noticed", [False])
    (tmp_path / "many.game").write_text(many_kinds(KINDS), encoding="utf-8")
    return "many.game"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_ruleset_too_large_for_c_is_refused_by_the_native_back_end_with_its_position(many):
    with pytest.raises(NativeUnavailable) as info:
        Game(load(many), backend="native")
    assert str(info.value) == TOO_LARGE
    assert not (native_build.cache_dir()).exists()  # refused before any compiler ran


def test_perft_on_auto_falls_back_to_python_saying_why(many, capsys):
    code, out, err = run(capsys, "perft", many, "--depth", "2", "--json")
    assert (code, out.strip()) == (0, '{"perft": [2, 4]}')
    assert err == f"rulecraft: using the Python back-end: {TOO_LARGE}\n"


def test_perft_on_native_stops_with_the_message(many, capsys):
    code, out, err = run(capsys, "perft", many, "--depth", "1", "--backend", "native")
    assert (code, out) == (2, "")
    assert err == f"rulecraft perft: error: the native back-end: {TOO_LARGE}\n"


@pytest.mark.parametrize("argv", [["check"], ["info"], ["render", "-o", "x.svg"]])
def test_commands_that_need_no_c_never_run_the_compiler(many, capsys, monkeypatch, argv):
    """With no compiler at all, `auto` would say so on its first try: nothing is said."""
    monkeypatch.setenv("CC", "/nonexistent/cc")
    code, out, err = run(capsys, argv[0], many, *argv[1:])
    assert (code, err) == (0, "")


def test_a_record_of_such_a_ruleset_replays(many, capsys):
    code, _, _ = run(capsys, "play", many, "--players", "random,random", "--seed", "1",
                     "--max-plies", "6", "--record", "game.txt", "--backend", "python")
    assert code == 0
    code, out, err = run(capsys, "replay", "game.txt", "--at", "2")
    assert (code, err) == (0, "")
    assert "after ply 2 of 6" in out


@needs_cc
def test_a_compiler_that_does_not_finish_in_time_is_a_clean_error(tmp_path, monkeypatch):
    monkeypatch.setenv("RULECRAFT_CACHE", str(tmp_path))
    monkeypatch.setattr(native_build, "BUILD_TIMEOUT", 0.001)
    with pytest.raises(NativeUnavailable) as info:
        Game(load("tic-tac-toe"), backend="native")
    assert str(info.value) == "the C compiler did not finish within 0.001 s"


def test_the_bundled_rulesets_fit_the_c_limit_many_times_over():
    from dsl.load import bundled_names
    from interpreter.native.cgen import generate_c
    from interpreter.native.cgen import fixed_c
    from interpreter.native.csource import MAX_C_BYTES, MAX_C_LINES

    fixed = "".join(fixed_c(f) for f in ("prelude.c", "runtime.c"))
    for name in bundled_names():
        source = generate_c(load(name)).source
        lines, size = source.count("\n") - fixed.count("\n"), len(source) - len(fixed)
        assert lines < 1000 <= MAX_C_LINES // 20 and size < 160_000 < MAX_C_BYTES // 6, name


@needs_cc
def test_a_push_on_a_board_of_one_cell_builds(tmp_path, monkeypatch):
    """Its push tables are empty: gcc saw a bound passed in a loop that cannot run and
    refused the C (found by the fuzzer's native category)."""
    monkeypatch.setenv("RULECRAFT_CACHE", str(tmp_path))
    (tmp_path / "one.game").write_text('game "one"\nboard square 1 x 1 with diagonals\nplayers O, B\n'
                                       "piece m: owner each, symbol X/Y\nsetup m of O: a1\n"
                                       "ply shove: move own m push 1 onto empty\nend e: B wins if no legal ply\n")
    game = Game(load(str(tmp_path / "one.game")), backend="native")
    s = game.initial_state()
    assert (game.legal_actions(s), game.native.perft(s, 1)) == ([], 0)
