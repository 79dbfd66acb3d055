"""The native back-end (the rules compiled to C) against the Python back-end: the same
plies in the same order, the same states, perft and seeded playouts, the same errors,
on every bundled ruleset and on rulesets generated over every construct."""

from __future__ import annotations

import os
import sys

import pytest

from dsl.load import bundled_names, load
from interpreter.search.analysis import SplitMix, perft, random_playouts
from interpreter.runtime.game import Game
from interpreter.runtime.limits import RuleLimitError
from interpreter.native import build as native_build

pytestmark = pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")

# perft depths the Python back-end reaches in well under a second
DEPTHS = {"tricouleur": 2, "whistling-captures": 2, "force-3": 4, "three-musketeers": 5,
          "tic-tac-toe": 5}


_FILES: list[str] = []  # where load_text writes


def load_text(text: str, name: str):
    path = os.path.join(_FILES[0], name)
    with open(path, "w") as f:
        f.write(text)
    return load(path)


@pytest.fixture(scope="module", autouse=True)
def ruleset_files(tmp_path_factory):
    """Where load_text writes. The built libraries go to the run's own cache ($RULECRAFT_CACHE
    or the user's), shared by every module and worker: a library is keyed by its whole
    source and written atomically, so a game's C is compiled once per run, not per module."""
    _FILES[:] = [str(tmp_path_factory.mktemp("rulesets"))]


def pair(rs_loader) -> tuple[Game, Game]:
    return Game(rs_loader()), Game(rs_loader(), backend="native")


def same_games(py: Game, nat: Game, games: int, plies: int) -> int:
    """Seeded random games on both: every position's legal plies (in order), outcome and
    successor compared; the number of positions compared."""
    seen = 0
    for g in range(games):
        rng = SplitMix(g, g)
        s = py.initial_state()
        for _ in range(plies):
            acts = py.legal_actions(s)
            assert nat.legal_actions(s) == acts
            assert nat.outcome(s) == py.outcome(s)
            seen += 1
            if not acts:
                break
            a = acts[rng.next() % len(acts)]
            s2 = py.apply(s, a)
            assert nat.apply(s, a) == s2
            s = s2
    return seen


@pytest.mark.parametrize("name", bundled_names())
def test_every_bundled_ruleset_the_same_on_both(name):
    py, nat = pair(lambda: load(name))
    assert nat.backend == "native" and py.backend == "python"
    assert same_games(py, nat, 6, 80) > 30
    depth = DEPTHS.get(name, 3)
    assert nat.native.perft(nat.initial_state(), depth) == perft(py, py.initial_state(), depth)
    a = random_playouts(py, 20, seed=5, max_plies=300)
    b = random_playouts(nat, 20, seed=5, max_plies=300)
    assert (a.wins, a.draws, a.unfinished, a.plies) == (b.wins, b.draws, b.unfinished, b.plies)


def test_hand_counted_perft_natively():
    # tic-tac-toe: 9 * 8 * 7 openings; Three Musketeers' 8 first plies (RULES.md's figures)
    nat = Game(load("tic-tac-toe"), backend="native")
    assert [nat.native.perft(nat.initial_state(), d) for d in (1, 2, 3)] == [9, 72, 504]
    tm = Game(load("three-musketeers"), backend="native")
    assert tm.native.perft(tm.initial_state(), 1) == 8


def generated_rulesets(count: int, seed: int) -> list[str]:
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from tests.fuzz.chooser import RandomChooser
    from tests.fuzz.rulesets import generate_ruleset

    out = []
    for k in range(count * 20):
        text = generate_ruleset(RandomChooser(f"native-{seed}-{k}"))
        try:
            Game(load_text(text, f"gen{seed}.game"))
        except Exception:  # the generator also writes rulesets the checker refuses
            continue
        out.append(text)
        if len(out) == count:
            break
    return out


# Every batch with -m slow (each ruleset builds a library: on a fresh machine, cold).
@pytest.mark.parametrize("batch,half", [pytest.param(0, 0, marks=pytest.mark.slow),
                                        pytest.param(0, 1, marks=pytest.mark.slow),
                                        pytest.param(1, None, marks=pytest.mark.slow),
                                        pytest.param(2, None, marks=pytest.mark.slow),
                                        pytest.param(3, None, marks=pytest.mark.slow)])
def test_generated_rulesets_the_same_on_both(batch, half):
    """Rulesets over every construct of the language (tests/fuzz's generator)."""
    compared = 0
    texts = generated_rulesets(12, batch)
    assert len(texts) == 12
    texts = texts if half is None else texts[half * 6:half * 6 + 6]
    for text in texts:
        py, nat = pair(lambda: load_text(text, f"gen{batch}.game"))
        try:
            compared += same_games(py, nat, 4, 40)
        except RuleLimitError:
            continue  # a rule past its bounds: checked below
    # Every ruleset compared on each game's start at least (many generated games end there;
    # the sample follows the grammar, so a new construct changes which rulesets are drawn).
    assert compared >= 4 * len(texts)


ROW = '''game "row"
board square 5 x 1
players A, B
piece man: owner each, symbol M/m
setup man of A: a1
setup man of B: e1
ply p: move own man step
'''


NO_LINE = '''game "no line"
board square 2 x 1
players A, B
piece mark: neutral, symbol E
var score = 0
setup mark: b1
ply hop: move own mark leap
ply jump: move own mark leap then remove own piece, remove mark
ply step: move mark leap s onto here then score = 0 when line(0, from, all)
turn: step then pass when possible then pass
end line: A wins if 1 < score
'''


def test_a_leap_on_a_board_without_a_line_of_two_cells_compiles():
    # the leap reads its lines' cells past a length check gcc cannot follow into an empty
    # table: -Warray-bounds, an error for generated code, until the tables were padded
    py, nat = pair(lambda: load_text(NO_LINE, "noline.game"))
    assert same_games(py, nat, 2, 10) > 0


def test_a_rule_error_is_the_python_error():
    text = ROW + "var x = 2\nafter each ply: x = x * x\n"
    py, nat = pair(lambda: load_text(text, "t.game"))
    errors = []
    for g in (py, nat):
        s = g.initial_state()
        with pytest.raises(RuleLimitError) as e:
            for _ in range(10):
                s = g.apply(s, g.legal_actions(s)[0])
        errors.append(str(e.value))
    assert errors[0] == errors[1] and "would be 4294967296" in errors[0]
    with pytest.raises(RuleLimitError):
        random_playouts(nat, 3, seed=1)


def test_no_text_of_the_ruleset_reaches_the_c():
    text = ROW.replace('"row"', '"QQtitleQQ"').replace("man", "QQpieceQQ").replace("ply p", "ply QQplyQQ")
    nat = Game(load_text(text, "QQfileQQ.game"), backend="native")
    assert "QQ" not in nat.native.source


def test_a_library_is_built_once_and_rebuilt_for_a_change():
    a = Game(load_text(ROW, "t.game"), backend="native").native.path
    stamp = a.stat().st_mtime_ns
    b = Game(load_text(ROW, "t.game"), backend="native").native.path
    assert a == b and b.stat().st_mtime_ns == stamp
    c = Game(load_text(ROW.replace("5 x 1", "6 x 1"), "t.game"), backend="native").native.path
    assert c != a


def test_auto_keeps_the_plies_in_python_and_the_bulk_in_c():
    g = Game(load("tic-tac-toe"), backend="auto")
    assert g.native is not None and g.backend == "native"
    assert g.rules.name == "python"  # a ply at a time: no crossing into C
    assert perft(g, g.initial_state(), 3) == 504


def test_auto_without_a_compiler_runs_python_with_a_notice(monkeypatch, capsys):
    from interpreter.native import backend
    monkeypatch.setenv("CC", "/nonexistent/cc")
    monkeypatch.setattr(backend, "_noticed", [False])
    g = Game(load("tic-tac-toe"), backend="auto")
    assert g.backend == "python"
    assert capsys.readouterr().err == ("rulecraft: using the Python back-end: no C compiler found (set CC, "
                                       "or install one, e.g. `apt-get install gcc`)\n")
    with pytest.raises(native_build.NativeUnavailable, match="no C compiler found"):
        Game(load("tic-tac-toe"), backend="native")
    with pytest.raises(ValueError, match="unknown back-end 'fast'"):
        Game(load("tic-tac-toe"), backend="fast")


def test_the_command_line_takes_a_backend(capsys):
    from interpreter.apps import cli
    outs = []
    for b in ("python", "native"):
        assert cli.main(["perft", "three-musketeers", "--depth", "4", "--json", "--backend", b]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] == '{"perft": [8, 16, 132, 736]}\n'
    for b in ("python", "native"):
        assert cli.main(["random", "tricouleur", "--games", "5", "--json", "--backend", b]) == 0
        out = capsys.readouterr().out
        outs.append(out[:out.index('"plies_per_second"')])
    assert outs[2] == outs[3]


def test_warnings_are_errors_for_generated_code():
    assert "-Werror" in native_build.FLAGS and "-Wall" in native_build.FLAGS
