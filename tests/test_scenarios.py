"""Rule scenarios: the project's own scenario files, the format's errors, failure reports, the CLI.

Every file in tests/scenarios/ runs through `run_files`, the code path of `rulecraft test`.
"""

from __future__ import annotations

import argparse
import json
import os
import textwrap

import pytest

from dsl.load import bundled_names
from interpreter.apps import cli, scenarios_cli
from interpreter.native import build as native_build
from interpreter.apps.scenarios import Report, load_file, run_files, runner

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIO_DIR = os.path.join(HERE, "scenarios")
SCENARIO_FILES = scenarios_cli.scenario_files([SCENARIO_DIR])  # what `rulecraft test` would run


def write(tmp_path, text: str, name: str = "s.yaml") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return str(path)


def run_text(tmp_path, text: str) -> tuple[Report, str]:
    path = write(tmp_path, text)
    return run_files([path]), path


def errors(tmp_path, text: str) -> list[str]:
    """The error lines a scenario file gets, with its path written FILE."""
    report, path = run_text(tmp_path, text)
    assert not report.ok
    found = [e.format() for e in report.file_errors]
    found += [r.error.format() for r in report.results if r.error is not None]
    return [m.replace(path, "FILE") for m in found]


def output(tmp_path, text: str) -> str:
    """The text report of a scenario file, with its path written FILE."""
    report, path = run_text(tmp_path, text)
    return report.format().replace(path, "FILE")


# ------------------------------------------------------------------ the project's scenarios

def test_every_ruling_file_is_present():
    names = {os.path.basename(p) for p in SCENARIO_FILES}
    assert {"three-musketeers.yaml", "3-spot.yaml", "3-spot-misere.yaml", "3-spot-optional-white.yaml",
            "3-spot-middle-points.yaml", "3-spot-score-rule.yaml"} <= names


@pytest.mark.parametrize("path", SCENARIO_FILES, ids=os.path.basename)
def test_scenario_file_passes(path):
    report = run_files([path])
    assert report.results and not report.file_errors
    assert report.ok, "\n" + report.format()


def test_rulecraft_test_runs_the_folder(capsys):
    # Through the real command line, registered in cli.COMMAND_MODULES.
    code = cli.main(["test", SCENARIO_DIR])
    out = capsys.readouterr().out.splitlines()
    total = sum(len(load_file(p)) for p in SCENARIO_FILES)
    assert code == 0
    assert out[-1] == f"{total} passed, 0 failed"
    assert len([line for line in out if line.startswith("PASS ")]) == total


@pytest.mark.skipif(native_build.compiler() is None, reason="no C compiler here")
@pytest.mark.slow  # builds every bundled ruleset's library (about 40 s); -m slow runs it
def test_the_scenarios_pass_on_the_native_backend_too(capsys, monkeypatch, tmp_path):
    # the rulings as a check of the C back-end: every scenario, each ruleset compiled to C
    monkeypatch.setenv("RULECRAFT_CACHE", str(tmp_path))
    games: list = []
    real = runner.Runner.game
    monkeypatch.setattr(runner.Runner, "game", lambda self, sc: games.append(real(self, sc)) or games[-1])
    code = cli.main(["test", SCENARIO_DIR, "--backend", "native"])
    out = capsys.readouterr().out.splitlines()
    total = sum(len(load_file(p)) for p in SCENARIO_FILES)
    assert code == 0 and out[-1] == f"{total} passed, 0 failed"
    assert games and all(g.native is not None for g in games)


# ------------------------------------------------------------------ a broken variant fails readably

BROKEN_VARIANT = """\
variant of "three-musketeers"
# Broken on purpose: musketeers may step onto empty squares too.
ply capture: move musketeer step orthogonal onto enemy | empty
"""


def test_broken_variant_fails_the_relevant_scenarios_with_a_diff(tmp_path, capsys):
    (tmp_path / "broken.game").write_text(BROKEN_VARIANT)
    with open(os.path.join(SCENARIO_DIR, "three-musketeers.yaml")) as f:
        text = f.read()
    assert "\nruleset: three-musketeers\n" in text
    path = tmp_path / "three-musketeers.yaml"
    path.write_text(text.replace("\nruleset: three-musketeers\n", "\nruleset: broken.game\n"))
    code = scenarios_cli.run(argparse.Namespace(paths=[str(path)], json=False))
    out = capsys.readouterr().out.replace(str(path), "FILE")
    assert code == 1
    assert textwrap.dedent("""\
        FAIL FILE:25: a musketeer steps only onto an orthogonally adjacent enemy
            position: M..../o.oo./.oM.o/.o.../....M Musketeers
            legal (line 40): 5 extra
              expected: a5xa4, c3xb3, c3xc4
              actual:   a5xa4, a5-b5, c3xb3, c3-c2, c3xc4, c3-d3, e1-d1, e1-e2
              extra:    a5-b5, c3-c2, c3-d3, e1-d1, e1-e2
        """) in out
    assert textwrap.dedent("""\
        FAIL FILE:139: Musketeers win when they have no capture, even when the Enemy's own ply made it so
            position: ....M/...../..M../.o.../M.... Musketeers
            outcome (line 147): expected Musketeers win, actual ongoing (Musketeers to move)
        """) in out
    assert "FAIL FILE:178: ten plies from the setup, then perft in the middle of the game" in out
    assert out.splitlines()[-1] == "13 passed, 3 failed"


# ------------------------------------------------------------------ the forms of a file and a start

def test_a_file_may_be_one_scenario_or_a_list(tmp_path):
    one = """
        ruleset: three-musketeers
        name: setup
        expect: {outcome: ongoing}
        """
    many = """
        - {name: first, ruleset: three-musketeers, expect: {outcome: ongoing}}
        - {name: second, ruleset: 3-spot, expect: {to_move: Blue}}
        """
    assert output(tmp_path, one) == "PASS FILE:1: setup\n1 passed, 0 failed"
    assert output(tmp_path, many) == "PASS FILE:1: first\nPASS FILE:2: second\n2 passed, 0 failed"


def test_start_from_pieces_with_all_other_cells_and_per_player_vars(tmp_path):
    assert output(tmp_path, """
        scenarios:
          - name: musketeers setup written out
            ruleset: three-musketeers
            start:
              pieces:
                musketeer: a1, c3, e5
                enemy: all other cells
              to_move: Musketeers
            expect:
              state: ooooM/ooooo/ooMoo/ooooo/Moooo Musketeers
          - name: a 3-Spot position in the middle of a turn
            ruleset: 3-spot
            start:
              pieces: {blue: [c2, c3], red: [a1, a2], white: [b1, b2]}
              to_move: Blue
              ply: 2
              vars: {score: [4, 7]}
            expect:
              state: ..B/RWB/RW. Blue ply=2 score=4,7
        """).endswith("2 passed, 0 failed")


def test_ply_texts_match_whatever_the_order_of_cells_and_the_capture_sign(tmp_path):
    assert output(tmp_path, """
        - name: 3-Spot cells in any order
          ruleset: 3-spot
          expect:
            legal: [c2+c1-c3+c2, c1+c2-b3+a3, c2+c1-c3+b3]
        - name: cells in any order in plies too
          ruleset: 3-spot
          plies: [c2+c1-b3+a3]
          expect:
            state: BB./RW./RW. Blue ply=2 score=0,0
        - name: x and - are the same sign
          ruleset: three-musketeers
          plies: [a1-b1, a2xa1]
          expect:
            legal_includes: [b1-a1, c3-c4]
        """).endswith("3 passed, 0 failed")


def test_yaml_anchors_and_merge_keys_share_a_start(tmp_path):
    assert output(tmp_path, """
        ruleset: 3-spot
        scenarios:
          - name: base
            start: &pos
              pieces: {blue: [a3, b3], red: [a1, a2], white: [b2, c2]}
              to_move: Blue
              vars: {score: [10, 6]}
            plies: [a3+b3-b1+c1]
            expect: {winner: Blue}
          - name: merged
            start:
              <<: *pos
              vars: {score: [10, 5]}
            plies: [a3+b3-b1+c1]
            expect: {winner: Red}
        """).endswith("2 passed, 0 failed")


# ------------------------------------------------------------------ failure reports

def test_every_kind_of_failed_expectation_is_reported(tmp_path):
    assert output(tmp_path, """
        ruleset: 3-spot
        name: all wrong
        plies: [c1+c2-a3+b3]
        expect:
          state: .../RWB/RWB Blue ply=1 score=0,0
          to_move: Red
          ply: 1
          outcome: Blue wins
          vars: {score: {Blue: 2, Red: 0}}
          legal: [b1+b2-b1+c1, b1+b2-a3+b3]
          legal_includes: [b1+b2-b2+c2, b1+b2-b2+b3]
          legal_excludes: [b1+b2-c1+c2]
          perft: [4, 13]
        """) == textwrap.dedent("""\
        FAIL FILE:1: all wrong
            position: BB./RW./RW. Blue ply=2 score=0,0
            state (line 5): the position differs
              expected: .../RWB/RWB Blue ply=1 score=0,0
              actual:   BB./RW./RW. Blue ply=2 score=0,0
            to_move (line 6): expected Red, actual Blue
            ply (line 7): expected ply 1 of the turn, actual ply 2
            outcome (line 8): expected Blue wins, actual ongoing (Blue to move)
            vars.score (line 9): expected Blue 2, Red 0; actual Blue 0, Red 0
            legal (line 10): 1 missing, 3 extra
              expected: b1+b2-a3+b3, b1+b2-b1+c1
              actual:   b1+b2-b1+c1, b1+b2-b2+c2, b1+b2-c1+c2, b1+b2-c2+c3
              missing:  b1+b2-a3+b3
              extra:    b1+b2-b2+c2, b1+b2-c1+c2, b1+b2-c2+c3
            legal_includes (line 11): not legal: b1+b2-b2+b3
              actual: b1+b2-b1+c1, b1+b2-b2+c2, b1+b2-c1+c2, b1+b2-c2+c3
            legal_excludes (line 12): legal, but should not be: b1+b2-c1+c2
              actual: b1+b2-b1+c1, b1+b2-b2+c2, b1+b2-c1+c2, b1+b2-c2+c3
            perft (line 13): first difference at depth 2: expected 13, actual 12
              expected: 4, 13
              actual:   4, 12
        0 passed, 1 failed""")


def test_json_report(tmp_path, capsys):
    path = write(tmp_path, """
        ruleset: three-musketeers
        scenarios:
          - name: right
            expect: {perft: [8, 16]}
          - name: wrong
            plies: [a1xb1]
            expect: {legal: [a2-a1, c1-b1], winner: Enemy}
        """)
    code = scenarios_cli.run(argparse.Namespace(paths=[path], json=True))
    data = json.loads(capsys.readouterr().out)
    assert code == 1
    assert (data["passed"], data["failed"], data["errors"], data["ok"]) == (1, 1, 0, False)
    assert data["scenarios"][0] == {"file": path, "line": 3, "name": "right", "status": "pass"}
    wrong = data["scenarios"][1]
    assert wrong["status"] == "fail" and wrong["position"] == "ooooM/ooooo/ooMoo/ooooo/.Mooo Enemy"
    assert wrong["failures"] == [
        {"check": "winner", "line": 7, "message": "expected Enemy wins, actual ongoing (Enemy to move)",
         "expected": "Enemy wins", "actual": "ongoing (Enemy to move)"},
        {"check": "legal", "line": 7, "message": "1 missing", "expected": ["a2-a1", "c1-b1"],
         "actual": ["a2-a1"], "missing": ["c1-b1"], "extra": [], "repeated": []},
    ]


# ------------------------------------------------------------------ bad files: file:line: error

def test_yaml_syntax_error(tmp_path):
    assert errors(tmp_path, """
        ruleset: three-musketeers
        name: x
        expect: {legal: [a1xb1
        """) == ["FILE:4:1: error: invalid YAML: expected ',' or ']', but got '<stream end>' "
                 "(while parsing a flow sequence at line 3)"]


def test_tab_indentation(tmp_path):
    assert errors(tmp_path, "ruleset: 3-spot\nname: x\nexpect:\n\tperft: [3]\n") == [
        "FILE:4:1: error: invalid YAML: found character '\\t' that cannot start any token "
        "(while scanning for the next token)"]


def test_a_file_that_is_not_a_mapping_or_a_list(tmp_path):
    assert errors(tmp_path, "42\n") == [
        "FILE:1:1: error: a scenario file is a mapping or a list of scenarios, found '42'"]
    assert errors(tmp_path, "# nothing here\n") == ["FILE: error: the file holds no scenarios"]


def test_more_than_one_yaml_document(tmp_path):
    assert errors(tmp_path, "name: a\n---\nname: b\n") == [
        "FILE:2:1: error: invalid YAML: expected a single document in the stream, "
        "but found another document"]


def test_structural_errors_all_at_once(tmp_path):
    assert errors(tmp_path, """
        ruleset: three-musketeers
        scenarios:
          - name: x
            expect:
              legl: [a1xb1]
              perft: 3
          - expect: {}
          - 7
        """) == [
        "FILE:5:7: error: unknown key 'legl' in 'expect' (did you mean 'legal'?)",
        "FILE:6:14: error: 'perft' must be a list of leaf counts for depths 1, 2, ..., found '3'",
        "FILE:7:5: error: 'scenarios[2]' is missing 'name'",
        "FILE:7:13: error: 'expect' is empty: give at least one of legal, legal_includes, legal_excludes, "
        "outcome, winner, to_move, ply, state, vars, perft",
        "FILE:8:5: error: 'scenarios[3]' must be a scenario (a mapping), found '7'",
    ]


def test_wrongly_typed_values(tmp_path):
    assert errors(tmp_path, """
        ruleset: 3-spot
        name: x
        start: {pieces: {blue: {c1: yes}}, to_move: Blue, ply: 0}
        plies: c1+c2-a3+b3
        expect:
          perft: [3, -1, true]
          vars: {score: [1, x]}
        """) == [
        "FILE:3:24: error: 'blue' must be a list of cells (or 'all other cells'), found a mapping",
        "FILE:3:56: error: 'ply' must be a whole number from 1 (the ply of the turn), found '0'",
        "FILE:4:8: error: 'plies' must be a list of ply texts, found 'c1+c2-a3+b3'",
        "FILE:6:14: error: 'perft[2]' must be a whole number of 0 or more, found '-1'",
        "FILE:6:18: error: 'perft[3]' must be a whole number of 0 or more, found 'true'",
        "FILE:7:21: error: 'score[2]' must be a whole number, found 'x'",
    ]


def test_duplicate_keys_and_names(tmp_path):
    assert errors(tmp_path, """
        ruleset: three-musketeers
        name: x
        expect:
          legal: [a1xb1]
          legal: [a1xa2]
        """) == ["FILE:5:3: error: duplicate key 'legal' (first at line 4)"]
    assert errors(tmp_path, """
        - {name: same, ruleset: 3-spot, expect: {ply: 1}}
        - {name: same, ruleset: 3-spot, expect: {ply: 1}}
        """) == ["FILE:2:10: error: scenario name 'same' is used twice (first at line 1)"]


def test_no_ruleset(tmp_path):
    assert errors(tmp_path, "- {name: x, expect: {ply: 1}}\n") == [
        "FILE:1:3: error: scenario 'x' names no ruleset (give 'ruleset' in it or at the top of the file)"]


def test_unknown_ruleset(tmp_path):
    assert errors(tmp_path, "ruleset: three-musketeer\nname: x\nexpect: {ply: 1}\n") == [
        "FILE:1:10: error: unknown ruleset 'three-musketeer': no file 'three-musketeer.game' beside this "
        "one, and no bundled ruleset of that name (did you mean 'three-musketeers'?); a ruleset is a path "
        f"to a '.game' file or a bundled name (bundled: {', '.join(bundled_names())})"]


def test_a_ruleset_with_errors(tmp_path):
    (tmp_path / "bad.game").write_text('game "x"\nboard square 3\nplayers A, B\n'
                                       'piece p: owner Q, symbol P\nply go: move own p step onto empty\n')
    (found,) = errors(tmp_path, "ruleset: bad.game\nname: x\nexpect: {ply: 1}\n")
    lines = found.splitlines()
    assert lines[0] == "FILE:1:10: error: ruleset 'bad.game' has errors:"
    assert lines[1] == f"    {tmp_path / 'bad.game'}:4:16: error: unknown player 'Q'"


def test_a_cell_not_on_the_board(tmp_path):
    assert errors(tmp_path, """
        ruleset: three-musketeers
        name: x
        start:
          pieces:
            musketeer: [a1, c3, f6]
            enemy: [b1]
          to_move: Enemy
        expect: {outcome: ongoing}
        """) == ["FILE:5:25: error: 'f6' is not a cell of the board"]
    assert errors(tmp_path, """
        ruleset: three-musketeers
        name: x
        start: {pieces: {musketeer: [a1, c3, e6]}, to_move: Enemy}
        expect: {outcome: ongoing}
        """) == ["FILE:3:38: error: 'e6' is not a cell of the board"]


def test_bad_pieces(tmp_path):
    def start(pieces: str) -> list[str]:
        return errors(tmp_path, f"ruleset: 3-spot\nname: x\nstart:\n  pieces: {pieces}\n"
                                f"  to_move: Blue\nexpect: {{ply: 1}}\n")
    assert start("{bleu: [c1, c2]}") == ["FILE:4:12: error: unknown piece 'bleu' (did you mean 'blue'?)"]
    assert start("{blue: [c1, c2], red: [c2, c3]}") == [
        "FILE:4:34: error: cell 'c2' is given twice (blue at line 4)"]
    assert start("{blue: [a1, b2]}") == [
        "FILE:4:18: error: 'blue' covers 2 cells in a straight line; a1, b2 is not one of its placements"]
    assert start("{blue: all other cells}") == [
        "FILE:4:18: error: 'blue' covers 2 cells; it cannot fill 'all other cells'"]


def test_unknown_player(tmp_path):
    assert errors(tmp_path, "ruleset: 3-spot\nname: x\nstart: {pieces: {blue: [c1, c2]}, to_move: Green}\n"
                            "expect: {ply: 1}\n") == [
        "FILE:3:44: error: unknown player 'Green' (players: Blue, Red)"]
    assert errors(tmp_path, "ruleset: 3-spot\nname: x\nexpect:\n  winner: Green\n") == [
        "FILE:4:11: error: unknown player 'Green' (players: Blue, Red)"]


def test_a_bad_state_text(tmp_path):
    assert errors(tmp_path, "ruleset: 3-spot\nname: x\nstart: ../RWB/RWB Blue\nexpect: {ply: 1}\n") == [
        "FILE:3:8: error: start: row 1 has 3 cells, found 2: '..'"]
    assert errors(tmp_path, "ruleset: 3-spot\nname: x\nexpect:\n  state: .../RWB/RWB Blue score=1\n") == [
        "FILE:4:10: error: state: score takes 2 whole numbers, found '1'"]


def test_an_illegal_ply_in_plies(tmp_path):
    assert errors(tmp_path, """
        ruleset: three-musketeers
        name: x
        plies:
          - a1xb1
          - b2-b1
        expect: {outcome: ongoing}
        """) == ["FILE:5:5: error: ply 2 'b2-b1' is not legal in ooooM/ooooo/ooMoo/ooooo/.Mooo Enemy "
                 "(legal: a2-a1)"]


def test_a_ply_after_the_end(tmp_path):
    assert errors(tmp_path, """
        ruleset: three-musketeers
        name: x
        start: {pieces: {musketeer: [a3, e3, c2], enemy: [c3, b1]}, to_move: Musketeers}
        plies: [c2xc3, b1-b2]
        expect: {outcome: ongoing}
        """) == ["FILE:4:16: error: ply 2 'b1-b2' cannot be played: the game is over "
                 "(...../...../M.M.M/...../.o... Enemy result=Enemy)"]


def test_malformed_expectations(tmp_path):
    def expect(body: str) -> list[str]:
        return errors(tmp_path, f"ruleset: 3-spot\nname: x\nexpect:\n{body}")
    assert expect("  legal: [c1+c2-c3+c4]\n") == [
        "FILE:4:11: error: legal: 'c1+c2-c3+c4' names 'c4', which is not a cell of the board"]
    assert expect("  legal_includes: [c1+c2-c2+c3, c2+c1-c3+c2]\n") == [
        "FILE:4:33: error: legal_includes: 'c2+c1-c3+c2' is listed twice (first at line 4)"]
    assert expect("  outcome: Blue triumphs\n") == [
        "FILE:4:12: error: outcome must be 'ongoing', 'draw', 'NAME wins' or 'NAME loses', "
        "found 'Blue triumphs'"]
    assert expect("  outcome: ongoing\n  winner: Blue\n") == [
        "FILE:5:3: error: give 'outcome' or 'winner', not both"]
    assert expect("  vars: {scor: [0, 0]}\n") == ["FILE:4:10: error: unknown variable 'scor' (variables: score)"]
    assert expect("  vars: {score: [0, 0, 0]}\n") == [
        "FILE:4:17: error: 'score' is per player: give 2 values (Blue, Red), found 3"]
    assert expect("  vars:\n    score: {Blue: 0}\n") == [
        "FILE:5:12: error: 'score' needs a value for every player; missing: Red"]


def test_yaml_cannot_run_anything(tmp_path):
    marker = tmp_path / "ran"
    assert errors(tmp_path, f"""
        ruleset: 3-spot
        name: x
        expect: !!python/object/apply:os.system ["touch {marker}"]
        """) == ["FILE:3:9: error: unsupported YAML tag '!!python/object/apply:os.system' (a scenario file "
                 "holds text, whole numbers, lists and mappings)"]
    assert errors(tmp_path, "ruleset: 3-spot\nname: x\nexpect:\n  winner: !!python/name:os.system\n") == [
        "FILE:4:11: error: unsupported YAML tag '!!python/name:os.system' (a scenario file holds text, "
        "whole numbers, lists and mappings)"]
    assert not marker.exists()


def test_alias_bombs_and_loops_are_refused(tmp_path):
    rows = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]']
    for prev, name in zip("abcde", "bcdef"):
        rows.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 10) + "]")
    assert errors(tmp_path, "\n".join(rows) + "\n") == [
        "FILE:1:44: error: the document expands to more than 100,000 values (aliases repeated too often?)"]
    assert errors(tmp_path, "a: &a [*a]\n") == [
        "FILE:1:4: error: values nest more than 50 levels deep (a recursive alias?)"]


def test_not_utf8(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_bytes(b"ruleset: 3-spot\nname: \xff\n")
    report = run_files([str(path)])
    assert [e.format() for e in report.file_errors] == [f"{path}:2:7: error: not UTF-8 text"]


# ------------------------------------------------------------------ the command line

def test_exit_codes_and_usage_errors(tmp_path, capsys):
    good = write(tmp_path, "ruleset: 3-spot\nname: ok\nexpect: {ply: 1}\n", "good.yaml")
    bad = write(tmp_path, "ruleset: 3-spot\nname: wrong\nexpect: {ply: 2}\n", "bad.yaml")
    assert cli.main(["test", good]) == 0
    assert cli.main(["test", good, bad]) == 1
    assert cli.main(["test", str(tmp_path)]) == 1  # a folder: both files
    out = capsys.readouterr().out
    # The folder's files run in sorted order: bad.yaml, then good.yaml.
    assert out.endswith("FAIL " + bad + ":1: wrong\n"
                        "    position: .../RWB/RWB Blue ply=1 score=0,0\n"
                        "    ply (line 3): expected ply 2 of the turn, actual ply 1\n"
                        "PASS " + good + ":1: ok\n"
                        "1 passed, 1 failed\n")
    empty = tmp_path / "empty"
    empty.mkdir()
    assert cli.main(["test", str(empty)]) == 2
    assert cli.main(["test", str(tmp_path / "missing.yaml")]) == 2
    err = capsys.readouterr().err
    assert err == (f"rulecraft test: error: no scenario files (*.yaml, *.yml) in '{empty}'\n"
                   f"rulecraft test: error: no such file or folder: '{tmp_path / 'missing.yaml'}'\n")
    with pytest.raises(SystemExit) as exc:
        cli.main(["test"])
    assert exc.value.code == 2


def test_draw_outcomes(tmp_path):
    # No bundled game here can reach a draw by play; a position's text can say it is one.
    assert output(tmp_path, """
        ruleset: 3-spot
        scenarios:
          - name: drawn
            start: .../RWB/RWB Blue ply=1 score=0,0 result=draw
            expect: {outcome: draw, legal: []}
          - name: a draw is no loss
            start: .../RWB/RWB Blue ply=1 score=0,0 result=draw
            expect: {outcome: Blue loses}
          - name: a game going on is no draw
            expect: {outcome: draw}
        """) == textwrap.dedent("""\
        PASS FILE:3: drawn
        FAIL FILE:6: a draw is no loss
            position: .../RWB/RWB Blue ply=1 score=0,0 result=draw
            outcome (line 8): expected Blue loses, actual draw
        FAIL FILE:9: a game going on is no draw
            position: .../RWB/RWB Blue ply=1 score=0,0
            outcome (line 10): expected draw, actual ongoing (Blue to move)
        1 passed, 2 failed""")


def test_a_ply_the_game_lists_twice_is_reported(tmp_path, monkeypatch):
    # The interpreter lists each ply once (docs/RULES.md); simulate a game that does not.
    from interpreter.runtime.game import Game
    real = Game.legal_actions
    monkeypatch.setattr(Game, "legal_actions", lambda self, state: real(self, state)[:2] * 2)
    assert output(tmp_path, """
        ruleset: 3-spot
        name: each once
        expect:
          legal: [c1+c2-c2+c3, c1+c2-a3+b3]
        """) == textwrap.dedent("""\
        FAIL FILE:1: each once
            position: .../RWB/RWB Blue ply=1 score=0,0
            legal (line 4): 2 listed more than once
              expected: c1+c2-a3+b3, c1+c2-c2+c3
              actual:   c1+c2-a3+b3, c1+c2-a3+b3, c1+c2-c2+c3, c1+c2-c2+c3
              repeated: c1+c2-a3+b3, c1+c2-c2+c3
        0 passed, 1 failed""")


def test_the_example_in_docs_scenarios_passes(tmp_path):
    with open(os.path.join(HERE, "..", "docs", "SCENARIOS.md")) as f:
        doc = f.read()
    example = doc.split("```yaml\n", 1)[1].split("```", 1)[0]
    assert "ruleset: my-variant.game\n" in example
    (tmp_path / "my-variant.game").write_text('variant of "three-musketeers"\n')
    path = tmp_path / "my-variant.yaml"
    path.write_text(example)
    report = run_files([str(path)])
    assert report.ok and report.count("pass") == 2, report.format()


def test_a_broken_ruleset_is_reported_once(tmp_path):
    (tmp_path / "bad.game").write_text('variant of "3-spot"\nregion point: a1, z9\n')
    found = errors(tmp_path, """
        ruleset: bad.game
        scenarios:
          - {name: one, expect: {ply: 1}}
          - {name: two, expect: {ply: 1}}
        """)
    first = found[0].splitlines()
    assert first[0] == "FILE:1:10: error: ruleset 'bad.game' has errors:"
    assert first[1].startswith(f"    {tmp_path / 'bad.game'}:2:19: error: ")  # the ruleset's own diagnostic
    assert found[1:] == ["FILE:1:10: error: ruleset 'bad.game' has errors (listed at FILE:1:10)"]
