"""A scenario file is untrusted input: whatever it holds, `rulecraft test` reports a clear
`file:line:col: error: ...` (or `file: error: ...`), exits 1, and runs within bounded work;
never a traceback, a hang or another file's contents.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import textwrap
import time

import pytest

from dsl.load import bundled_names
from interpreter.apps import scenarios, scenarios_cli
from interpreter.apps.scenarios import Runner, run_files

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIO_DIR = os.path.join(HERE, "scenarios")
TAGS = "(a scenario file holds text, whole numbers, lists and mappings)"


def report_of(tmp_path, text: str | bytes, name: str = "s.yaml"):
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(textwrap.dedent(text).lstrip("\n") if "\n" in text else text)
    return run_files([str(path)]), str(path)


def errors(tmp_path, text: str | bytes) -> list[str]:
    """The error lines a scenario file gets, with its path written FILE."""
    report, path = report_of(tmp_path, text)
    assert not report.ok
    found = [e.format() for e in report.file_errors]
    found += [r.error.format() for r in report.results if r.error is not None]
    return [m.replace(path, "FILE") for m in found]


def output(tmp_path, text: str) -> str:
    report, path = report_of(tmp_path, text)
    return report.format().replace(path, "FILE")


def one(body: str) -> str:
    """A 3-Spot scenario file whose `expect` mapping is `body`."""
    return f"ruleset: 3-spot\nname: x\nexpect: {body}\n"


# ------------------------------------------------------------------ YAML's implicit types and tags

def test_a_date_is_text_where_text_is_wanted(tmp_path):
    # YAML 1.1 would build a date (and fail on an impossible one): here a name stays a name.
    assert output(tmp_path, "ruleset: 3-spot\nname: 2001-02-30\nexpect: {ply: 1}\n") == (
        "PASS FILE:1: 2001-02-30\n1 passed, 0 failed")
    assert output(tmp_path, "ruleset: 3-spot\nname: 2001-12-14t21:59:43.10-05:00\nexpect: {ply: 1}\n") == (
        "PASS FILE:1: 2001-12-14t21:59:43.10-05:00\n1 passed, 0 failed")


def test_a_date_or_other_implicit_type_where_a_number_is_wanted(tmp_path):
    def ply(value: str) -> list[str]:
        return errors(tmp_path, one(f"{{ply: {value}}}"))
    want = "FILE:3:15: error: 'ply' must be a whole number from 1 (the ply of the turn), found '{}'"
    for value in ("2001-02-30", "2001-12-14 21:59:43", "1.0", "1e3", ".inf", "0x1", "1_0", "true", "yes", "12:30"):
        assert ply(value) == [want.format(value)], value


def test_truth_values_and_null_words_stay_names(tmp_path):
    # `No` is the name No (YAML 1.1 would read false), and `null` a missing value.
    assert errors(tmp_path, one("{to_move: No}")) == [
        "FILE:3:19: error: unknown player 'No' (players: Blue, Red)"]
    assert errors(tmp_path, "ruleset: 3-spot\nname: null\nexpect: {ply: 1}\n") == [
        "FILE:2:7: error: 'name' must be a string, found nothing"]


@pytest.mark.parametrize("value, message", [
    ("!!int abc", "FILE:4:8: error: 'abc' is tagged !!int but is not a whole number"),
    ("!!null x", "FILE:4:8: error: 'x' is tagged !!null but is not empty"),
    ("!!binary aGVsbG8=", f"FILE:4:8: error: unsupported YAML tag '!!binary' {TAGS}"),
    ("!!timestamp 2001-02-30", f"FILE:4:8: error: unsupported YAML tag '!!timestamp' {TAGS}"),
    ("!!float 1", f"FILE:4:8: error: unsupported YAML tag '!!float' {TAGS}"),
    ("!!bool yes", f"FILE:4:8: error: unsupported YAML tag '!!bool' {TAGS}"),
    ("!!python/name:os.system", f"FILE:4:8: error: unsupported YAML tag '!!python/name:os.system' {TAGS}"),
    ("!!python/object/apply:os.system [ls]",
     f"FILE:4:8: error: unsupported YAML tag '!!python/object/apply:os.system' {TAGS}"),
    ("!!python/object/new:dict {}", f"FILE:4:8: error: unsupported YAML tag '!!python/object/new:dict' {TAGS}"),
    ("!!set {a, b}", f"FILE:4:8: error: unsupported YAML tag '!!set' {TAGS}"),
    ("!!omap [a: 1]", f"FILE:4:8: error: unsupported YAML tag '!!omap' {TAGS}"),
    ("!foo x", f"FILE:4:8: error: unsupported YAML tag '!foo' {TAGS}"),
    ("!<tag:example.com,2000:x> x", f"FILE:4:8: error: unsupported YAML tag 'tag:example.com,2000:x' {TAGS}"),
])
def test_tags_other_than_text_numbers_lists_and_mappings(tmp_path, value, message):
    marker = tmp_path / "ran"
    assert errors(tmp_path, f"ruleset: 3-spot\nname: x\nexpect:\n  ply: {value}\n") == [message]
    assert not marker.exists()


def test_tags_that_say_what_is_meant_anyway(tmp_path):
    assert output(tmp_path, "ruleset: !!str 3-spot\nname: !!str 5\nexpect: {ply: !!int 1}\n") == (
        "PASS FILE:1: 5\n1 passed, 0 failed")


def test_a_tag_on_a_key(tmp_path):
    assert errors(tmp_path, "ruleset: 3-spot\nname: x\n!!binary aGk=: 1\nexpect: {ply: 1}\n") == [
        f"FILE:3:1: error: unsupported YAML tag '!!binary' {TAGS}"]


# ------------------------------------------------------------------ numbers

def test_a_5000_digit_integer(tmp_path):
    # int() would refuse it (the int-string limit) with a ValueError: here it never gets there.
    assert errors(tmp_path, one("{ply: " + "9" * 5000 + "}")) == [
        "FILE:3:15: error: number 9999999999999999... is beyond the limit of 1,000,000,000"]
    assert errors(tmp_path, one("{perft: [-" + "9" * 5000 + "]}")) == [
        "FILE:3:18: error: number -999999999999999... is beyond the limit of -1,000,000,000"]


def test_numbers_at_the_limit(tmp_path):
    assert errors(tmp_path, one("{ply: 1000000001}")) == [
        "FILE:3:15: error: number 1000000001 is beyond the limit of 1,000,000,000"]
    assert output(tmp_path, one("{ply: 1000000000}")).startswith("FAIL FILE:1: x\n")
    # Where text is wanted, digits are text however many.
    assert output(tmp_path, "ruleset: 3-spot\nname: " + "7" * 50 + "\nexpect: {ply: 1}\n") == (
        f"PASS FILE:1: {'7' * 50}\n1 passed, 0 failed")
    # Decimal, as in YAML 1.2: leading zeros change nothing (YAML 1.1 would read octal).
    assert output(tmp_path, one("{ply: 0001000000000}")).startswith("FAIL FILE:1: x\n")
    assert output(tmp_path, one("{ply: 010}")).endswith("expected ply 10 of the turn, actual ply 1\n0 passed, 1 failed")


# ------------------------------------------------------------------ characters

def test_a_raw_control_character(tmp_path):
    assert errors(tmp_path, "ruleset: 3-spot\nname: ab\x01c\nexpect: {ply: 1}\n") == [
        "FILE:2:9: error: invalid YAML: character U+0001 is not allowed in a YAML file"]
    assert errors(tmp_path, "ruleset: 3-spot\nname: x\x00\n") == [
        "FILE:2:8: error: invalid YAML: character U+0000 is not allowed in a YAML file"]


@pytest.mark.parametrize("escape, message", [
    ("\\e[31m", "character U+001B (a control character) is not allowed in a value"),
    ("\\0", "character U+0000 (a control character) is not allowed in a value"),
    ("\\x85", "character U+0085 (a control character) is not allowed in a value"),
    ("\\ud800", "character U+D800 (a lone surrogate) is not allowed in a value"),
    ("\\u202e", "character U+202E (a bidirectional control) is not allowed in a value"),
])
def test_escaped_characters_that_a_report_cannot_show(tmp_path, escape, message):
    # A terminal escape in a scenario's name would be printed on its PASS line.
    assert errors(tmp_path, f'ruleset: 3-spot\nname: "x{escape}"\nexpect: {{ply: 1}}\n') == [
        f"FILE:2:7: error: {message}"]


def test_tabs_and_line_breaks_in_text_are_fine(tmp_path):
    assert output(tmp_path, 'ruleset: 3-spot\nname: "a\\tb"\ndescription: |\n  one\n  two\nexpect: {ply: 1}\n') == (
        "PASS FILE:1: a\tb\n1 passed, 0 failed")


def test_not_utf8_has_a_position(tmp_path):
    assert errors(tmp_path, b"ruleset: 3-spot\nname: caf\xe9\n") == ["FILE:2:10: error: not UTF-8 text"]


def test_a_very_long_string(tmp_path):
    assert errors(tmp_path, "ruleset: 3-spot\nname: " + "n" * 100_001 + "\nexpect: {ply: 1}\n") == [
        "FILE:2:7: error: a value of 100,001 characters is longer than the limit of 100,000"]


def test_long_text_is_clipped_in_messages(tmp_path):
    long = "z" * 1000  # YAML allows a plain key of 1024 characters at most
    assert errors(tmp_path, one(f"{{{long}: 1}}")) == [
        f"FILE:3:10: error: unknown key '{'z' * 60}...' in 'expect' (known: legal, legal_includes, "
        "legal_excludes, outcome, winner, to_move, ply, state, vars, perft)"]
    assert errors(tmp_path, one(f"{{to_move: {long}}}")) == [
        f"FILE:3:19: error: unknown player '{'z' * 60}...' (players: Blue, Red)"]


# ------------------------------------------------------------------ nesting and size

def test_nesting_5000_deep(tmp_path):
    # PyYAML's composer recurses once per level: 5,000 levels would be a RecursionError.
    assert errors(tmp_path, one("[" * 5000 + "]" * 5000)) == [
        "FILE:3:58: error: values nest more than 50 levels deep"]
    assert errors(tmp_path, one("{a: " * 5000 + "1" + "}" * 5000)) == [
        "FILE:3:202: error: values nest more than 50 levels deep"]
    assert errors(tmp_path, "ruleset: 3-spot\nname: x\nexpect:\n  ply:\n    " + "- " * 5000 + "x\n") == [
        "FILE:5:101: error: values nest more than 50 levels deep"]


def test_a_recursive_alias(tmp_path):
    assert errors(tmp_path, "a: &a [*a]\n") == [
        "FILE:1:4: error: values nest more than 50 levels deep (a recursive alias?)"]
    assert errors(tmp_path, "a: &a {b: *a}\n") == [
        "FILE:1:4: error: values nest more than 50 levels deep (a recursive alias?)"]


def test_a_file_over_a_megabyte(tmp_path):
    text = one("{ply: 1}") + "# padding\n" * 100_001
    started = time.perf_counter()
    assert errors(tmp_path, text) == ["FILE: error: file is larger than the limit of 1,000,000 bytes"]
    assert time.perf_counter() - started < 1


def test_a_file_of_too_many_values(tmp_path, monkeypatch):
    monkeypatch.setattr(scenarios.limits, "MAX_NODES", 1_000)  # the real limit, 100,000, takes seconds to reach
    assert errors(tmp_path, "- x\n" * 2_000) == ["FILE:1000:3: error: the file holds more than 1,000 values"]


def test_too_many_scenarios(tmp_path):
    text = "ruleset: 3-spot\nscenarios:\n" + "".join(f"- {{name: s{i}, expect: {{ply: 1}}}}\n" for i in range(1001))
    assert errors(tmp_path, text) == ["FILE:3:1: error: 'scenarios' lists 1,001 scenarios; the limit is 1,000"]
    listed = "".join(f"- {{name: s{i}, ruleset: 3-spot, expect: {{ply: 1}}}}\n" for i in range(1001))
    assert errors(tmp_path, listed) == ["FILE:1:1: error: 'scenarios' lists 1,001 scenarios; the limit is 1,000"]


def test_too_many_plies(tmp_path):
    text = "ruleset: 3-spot\nname: x\nplies: [" + ", ".join(["pass"] * 1001) + "]\nexpect: {ply: 1}\n"
    assert errors(tmp_path, text) == ["FILE:3:8: error: 'plies' lists 1,001 plies; the limit is 1,000"]


# ------------------------------------------------------------------ perft and the work of a scenario

def test_perft_depth_is_bounded(tmp_path):
    zeros = ", ".join(["0"] * 40)
    assert errors(tmp_path, f"ruleset: three-musketeers\nname: x\nexpect: {{perft: [{zeros}]}}\n") == [
        "FILE:3:17: error: 'perft' lists 40 depths; the limit is 10"]
    assert errors(tmp_path, "ruleset: three-musketeers\nname: x\nexpect: {perft: [8, 250000]}\n") == [
        "FILE:3:17: error: 'perft' counts 250,008 plies in all; the limit of a scenario is 200,000"]
    assert errors(tmp_path, "ruleset: three-musketeers\nname: x\nexpect: {perft: [8, -16]}\n") == [
        "FILE:3:21: error: 'perft[2]' must be a whole number of 0 or more, found '-16'"]


def test_perft_past_the_budget_fails_the_scenario(tmp_path):
    # Ten depths of Three Musketeers hold far more than 200,000 plies: the walk stops there.
    zeros = ", ".join(["0"] * 10)
    started = time.perf_counter()
    assert output(tmp_path, f"ruleset: three-musketeers\nname: deep\nexpect: {{perft: [{zeros}]}}\n") == (
        "FAIL FILE:1: deep\n"
        "    position: ooooM/ooooo/ooMoo/ooooo/Moooo Musketeers\n"
        "    perft (line 3): not checked: counting depths 1 to 10 would pass the limit of 200,000 plies "
        "generated by a scenario\n"
        "0 passed, 1 failed")
    assert time.perf_counter() - started < 5


def test_perft_budget_in_json(tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text("ruleset: three-musketeers\nname: deep\nexpect: {perft: [0, 0, 0, 0, 0, 0, 0, 0]}\n")
    assert scenarios_cli.run(argparse.Namespace(paths=[str(path)], json=True)) == 1
    (result,) = json.loads(capsys.readouterr().out)["scenarios"]
    assert result["status"] == "fail"
    assert result["failures"] == [{
        "check": "perft", "line": 3, "message": "not checked: counting depths 1 to 8 would pass the limit "
        "of 200,000 plies generated by a scenario", "expected": [0] * 8, "actual": None, "limit": 200_000}]


def test_perft_counts_match_analysis_perft():
    from interpreter import load_game, perft
    for name in ("three-musketeers", "3-spot", "force-3"):
        game = load_game(name)
        state = game.initial_state()
        assert scenarios.perft_counts(game, state, 4, 10**6) == [perft(game, state, d) for d in range(1, 5)]
    assert scenarios.perft_counts(game, state, 4, 100) is None


def test_the_work_of_playing_plies_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(scenarios.limits, "MAX_SCENARIO_PLIES", 20)  # ply 4 lists the 21st ply generated
    assert errors(tmp_path, "ruleset: three-musketeers\nname: x\nplies: [c3xc2, d3-c3, c2xb2, e3-d3]\n"
                            "expect: {ply: 1}\n") == [
        "FILE:3:30: error: ply 4: stopped at the limit of 20 plies generated by a scenario"]


def test_the_work_of_a_file_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(scenarios.limits, "MAX_FILE_PLIES", 40)  # one: 8 + 8 + 16, two: 8, then none left
    assert output(tmp_path, """
        ruleset: three-musketeers
        scenarios:
          - {name: one, expect: {perft: [8, 16]}}
          - {name: two, expect: {perft: [8]}}
          - {name: three, expect: {perft: [8]}}
        """).splitlines() == [
        "PASS FILE:3: one",
        "FAIL FILE:4: two",
        "    position: ooooM/ooooo/ooMoo/ooooo/Moooo Musketeers",
        "    perft (line 4): not checked: counting depth 1 would pass the limit of 40 plies generated by "
        "the scenarios of a file",
        "FILE:5:5: error: scenario 'three' not run: the scenarios before it reached the limit of 40 plies "
        "generated by the scenarios of a file",
        "1 passed, 1 failed, 1 error"]


# ------------------------------------------------------------------ rulesets: .game files and bundled names only

@pytest.mark.parametrize("name", ["/etc/passwd", "../../../../../../../../etc/passwd", "/proc/self/status",
                                  "/dev/zero", "/etc/shadow"])
def test_a_ruleset_that_is_not_a_game_file_is_never_read(tmp_path, name):
    found = errors(tmp_path, f"ruleset: {name}\nname: x\nexpect: {{ply: 1}}\n")
    beside = "" if name.startswith("/") else " beside this one"
    assert found == [f"FILE:1:10: error: unknown ruleset '{name}': no file '{name}.game'{beside}, and no "
                     f"bundled ruleset of that name; a ruleset is a path to a '.game' file or a bundled "
                     f"name (bundled: {', '.join(bundled_names())})"]


def test_a_text_file_beside_is_not_a_ruleset(tmp_path):
    (tmp_path / "secret.txt").write_text("password: hunter2\n")
    (tmp_path / "secret").write_text("password: hunter2\n")
    for name in ("secret.txt", "secret"):
        (found,) = errors(tmp_path, f"ruleset: {name}\nname: x\nexpect: {{ply: 1}}\n")
        assert found.startswith(f"FILE:1:10: error: unknown ruleset '{name}': no file '{name}.game' beside")
        assert "hunter2" not in found


def test_a_game_file_that_links_elsewhere(tmp_path):
    (tmp_path / "secret.txt").write_text("password: hunter2\n")
    os.symlink(tmp_path / "secret.txt", tmp_path / "evil.game")
    assert errors(tmp_path, "ruleset: evil.game\nname: x\nexpect: {ply: 1}\n") == [
        "FILE:1:10: error: ruleset 'evil.game' is a link to a file that is not a '.game' file"]


def test_a_missing_game_file(tmp_path):
    assert errors(tmp_path, "ruleset: nope.game\nname: x\nexpect: {ply: 1}\n") == [
        "FILE:1:10: error: unknown ruleset 'nope.game': no such file beside this one"]


def test_a_ruleset_is_found_as_a_variant_finds_its_base(tmp_path):
    # dsl.load.find_ruleset: a bare NAME.game not beside is the bundled one; a path may leave
    # off `.game`; a `.game` name that is there but unreadable is an error of the ruleset.
    os.makedirs(tmp_path / "rules")
    shutil.copy(os.path.join(SCENARIO_DIR, "3-spot-long-white.game"), tmp_path / "rules" / "v.game")
    for name in ("3-spot.game", "rules/v", "rules/v.game"):
        report, _ = report_of(tmp_path, f"ruleset: {name}\nname: x\nexpect: {{ply: 1}}\n")
        assert report.summary() == "1 passed, 0 failed", name
    os.makedirs(tmp_path / "dir.game")
    os.symlink(tmp_path / "gone.game", tmp_path / "broken.game")
    for name in ("dir", "broken.game"):
        (found,) = errors(tmp_path, f"ruleset: {name}\nname: x\nexpect: {{ply: 1}}\n")
        assert found.startswith(f"FILE:1:10: error: ruleset '{name}' has errors:\n    "), found


def test_a_rule_past_an_interpreter_limit(tmp_path):
    (tmp_path / "counting.game").write_text(
        'variant of "tic-tac-toe"\nnew var count = 0 in 0..1\nnew after each ply: count += 1\n')
    (found,) = errors(tmp_path, "ruleset: counting.game\nname: two plies\nplies: [a1, b1]\nexpect: {ply: 1}\n")
    assert found.splitlines() == [
        "FILE:1:10: error: ruleset 'counting.game' went past a limit in scenario 'two plies':",
        f"    {tmp_path / 'counting.game'}:2:5: error: variable 'count' would be 2, outside its range 0..1",
        "      hint: declare the range it needs (`var count = ... in LOW..HIGH`), or bound it in the rules"]


# ------------------------------------------------------------------ wrong types anywhere

@pytest.mark.parametrize("text, message", [
    ("ruleset: 3-spot\nname: x\nexpect: [ply]\n", "FILE:3:9: error: 'expect' must be a mapping, found a list"),
    ("ruleset: 3-spot\nname: {a: 1}\nexpect: {ply: 1}\n", "FILE:2:7: error: 'name' must be a string, found a mapping"),
    ("ruleset: [3-spot]\nname: x\nexpect: {ply: 1}\n",
     "FILE:1:10: error: 'ruleset' must be a ruleset's name or path, found a list"),
    ("ruleset: 3-spot\nname: x\nexpect:\n", "FILE:3:8: error: 'expect' must be a mapping, found nothing"),
    ("ruleset: 3-spot\nname: x\nstart: ~\nexpect: {ply: 1}\n",
     "FILE:3:8: error: 'start' must be 'setup', a state's text, or a mapping with pieces and to_move, found nothing"),
    ("ruleset: 3-spot\nname: x\nplies: [~]\nexpect: {ply: 1}\n",
     "FILE:3:9: error: 'plies[1]' must be a ply's text, found nothing"),
    ("ruleset: 3-spot\nname: x\nplies: [[c1]]\nexpect: {ply: 1}\n",
     "FILE:3:9: error: 'plies[1]' must be a ply's text, found a list"),
    ("ruleset: 3-spot\nname: x\n1: x\nexpect: {ply: 1}\n",
     "FILE:3:1: error: unknown key '1' in 'scenario' (known: name, description, ruleset, start, plies, expect)"),
    ("ruleset: 3-spot\nname: x\n~: x\nexpect: {ply: 1}\n",
     "FILE:3:1: error: unknown key '~' in 'scenario' (known: name, description, ruleset, start, plies, expect)"),
    ("ruleset: 3-spot\nname: x\n[a]: x\nexpect: {ply: 1}\n",
     "FILE:3:1: error: a mapping key must be a plain word, not a list or mapping"),
    ("ruleset: 3-spot\nname: x\n? {a: 1}\n: x\nexpect: {ply: 1}\n",
     "FILE:3:3: error: a mapping key must be a plain word, not a list or mapping"),
    ("ruleset: 3-spot\nname: x\nexpect: {ply: yes}\n",
     "FILE:3:15: error: 'ply' must be a whole number from 1 (the ply of the turn), found 'yes'"),
    ("ruleset: 3-spot\nname: x\nexpect: {perft: [true]}\n",
     "FILE:3:18: error: 'perft[1]' must be a whole number of 0 or more, found 'true'"),
    ("ruleset: 3-spot\nname: x\nexpect: {perft: 3}\n",
     "FILE:3:17: error: 'perft' must be a list of leaf counts for depths 1, 2, ..., found '3'"),
    ("ruleset: 3-spot\nname: x\nexpect: {vars: {score: {Blue: [1], Red: 2}}}\n",
     "FILE:3:31: error: 'Blue' must be a whole number, found a list"),
    ("ruleset: 3-spot\nname: x\nexpect: {vars: []}\n",
     "FILE:3:16: error: 'vars' must be a mapping of variable to value, found a list"),
    ("ruleset: 3-spot\nname: x\nstart: {pieces: [blue], to_move: Blue}\nexpect: {ply: 1}\n",
     "FILE:3:17: error: 'pieces' must be a mapping of piece to cells, found a list"),
    ("ruleset: 3-spot\nname: x\nstart: {pieces: {blue: ~}, to_move: Blue}\nexpect: {ply: 1}\n",
     "FILE:3:24: error: 'blue' must be a list of cells (or 'all other cells'), found nothing"),
    ("ruleset: 3-spot\nname: x\nstart: {pieces: {blue: [c1, c2]}, to_move: [Blue]}\nexpect: {ply: 1}\n",
     "FILE:3:44: error: 'to_move' must be a player's name, found a list"),
    ("a: &a x\nb: {<<: *a}\n", "FILE:2:5: error: a merge key (<<) takes a mapping or a list of mappings"),
    ("a: *nope\n", "FILE:1:4: error: invalid YAML: found undefined alias 'nope'"),
    ("[1, 2\n", "FILE:2:1: error: invalid YAML: expected ',' or ']', but got '<stream end>' "
                "(while parsing a flow sequence at line 1)"),
    ("- - - -\n", "FILE:1:3: error: 'scenarios[1]' must be a scenario (a mapping), found a list"),
    ("'\n", "FILE:2:1: error: invalid YAML: found unexpected end of stream (while scanning a quoted scalar at line 1)"),
    ("%YAML 9.9\n--- x\n", "FILE:1:1: error: invalid YAML: found incompatible YAML document (version 1.* is required)"),
])
def test_wrong_types(tmp_path, text, message):
    assert errors(tmp_path, text) == [message]


def test_malformed_position_and_ply_texts(tmp_path):
    def start(text: str) -> list[str]:
        return errors(tmp_path, f"ruleset: 3-spot\nname: x\nstart: '{text}'\nexpect: {{ply: 1}}\n")
    assert start("garbage") == [
        "FILE:3:8: error: start: a position is `<rows> <player to move> [key=value ...]`"]
    assert start(".../RWB/RWB Blue ply=99999999999999999999999") == [
        "FILE:3:8: error: start: ply is a whole number from 1, found '99999999999999999999999'"]
    assert start(".../RWB/RWB Blue score=1,٣") == [
        "FILE:3:8: error: start: score takes 2 whole numbers, found '1,٣'"]
    assert start(".../RWB/RWB Blue result=Nobody") == [
        "FILE:3:8: error: start: result is a player, draw or none, found 'Nobody'"]
    assert errors(tmp_path, "ruleset: 3-spot\nname: x\nplies: ['+-+x-']\nexpect: {ply: 1}\n") == [
        "FILE:3:9: error: ply 1 '+-+x-' is not legal in .../RWB/RWB Blue ply=1 score=0,0 "
        "(legal: c1+c2-a3+b3, c1+c2-b3+c3, c1+c2-c2+c3)"]


def test_a_long_legal_list_is_clipped_in_an_error(tmp_path):
    (found,) = errors(tmp_path, "ruleset: whistling-captures\nname: x\nplies: [zz]\nexpect: {ply: 1}\n")
    assert re.search(r"\(legal: ([^,]+, ){20}\.\.\. \(\d+ in all\)\)$", found), found


# ------------------------------------------------------------------ files that are not files

def test_a_named_pipe_is_not_read(tmp_path, capsys):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert [e.format() for e in run_files([str(fifo)]).file_errors] == [f"{fifo}: error: not a regular file"]
    assert scenarios_cli.main([str(fifo)]) == 2
    (tmp_path / "ok.yaml").write_text("ruleset: 3-spot\nname: ok\nexpect: {ply: 1}\n")
    assert scenarios_cli.main([str(tmp_path)]) == 0  # the folder's pipe is left out
    captured = capsys.readouterr()
    assert captured.err == f"rulecraft test: error: not a file or folder: '{fifo}'\n"
    assert captured.out == f"PASS {tmp_path / 'ok.yaml'}:1: ok\n1 passed, 0 failed\n"


def test_a_bad_file_exits_1_with_the_error_on_stdout(tmp_path, capsys):
    path = tmp_path / "s.yaml"
    path.write_text(one("{ply: 2001-02-30}"))
    assert scenarios_cli.main([str(path)]) == 1
    assert capsys.readouterr().out == (
        f"{path}:3:15: error: 'ply' must be a whole number from 1 (the ply of the turn), found '2001-02-30'\n"
        "0 passed, 0 failed, 1 error\n")


# ------------------------------------------------------------------ random mutations of the project's files

GARBAGE = [
    "~", "null", "", "[]", "{}", "[a, [b, {c: d}]]", "{x: 1}", "true", "no", "-1", "0", "1000000001",
    "9" * 40, "1.5", ".nan", "0x1F", "2001-02-30", "12:30:00", "!!python/name:os.system", "!!binary aGk=",
    "!foo x", "!!int x", "!!set {a}", "&a x", "*a", "*nope", "<<: *a", "<<: x", "'", '"', "[", "{", "]", "}",
    ":", "- ", "? x", "---", "...", "%YAML 1.1", "\x01", "\x7f", '"\\e[2J"', '"\\ud800"', "\t", "#", "|", ">",
    "é", "x" * 300, "setup", "a1xb1", "c1+c2-a3+b3", "pass", "/etc/passwd", "../../../etc/passwd",
    "3-spot", "tic-tac-toe", "perft: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]", "plies: [a1xb1, a2-a1]",
    "start: {pieces: {enemy: all other cells, musketeer: [a1]}, to_move: Enemy}", "legal: [", "vars: {x: [1]}",
    "name: dup", "- {name: dup, expect: {ply: 1}}", "expect: {}", "ruleset:", "ply: 3",
]


def mutate(rng: random.Random, text: str) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 3)):
        if not lines:
            lines = [rng.choice(GARBAGE)]
        i = rng.randrange(len(lines))
        kind = rng.randrange(7)
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines.insert(i, lines[i])
        elif kind == 2:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == 3 and ":" in lines[i]:  # swap a value's type
            head = lines[i].split(":", 1)[0]
            lines[i] = f"{head}: {rng.choice(GARBAGE)}"
        elif kind == 4:  # garbage inside a line
            k = rng.randint(0, len(lines[i]))
            lines[i] = lines[i][:k] + rng.choice(GARBAGE) + lines[i][k:]
        elif kind == 5:  # a new line of garbage, indented like its neighbour
            indent = len(lines[i]) - len(lines[i].lstrip())
            lines.insert(i, " " * rng.choice([indent, indent + 2, max(indent - 2, 0)]) + rng.choice(GARBAGE))
        else:  # indentation changed
            lines[i] = " " * rng.choice([0, 1, 2, 4]) + lines[i].lstrip()
    return "\n".join(lines) + rng.choice(["\n", ""])


MUTANTS = 150
ERROR_LINE = re.compile(r"^(?P<file>.+?)(:\d+(:\d+)?)?: error: ")


def test_random_mutations_of_the_project_scenarios_give_clean_reports(tmp_path, monkeypatch, capsys):
    # Bounded work per mutant, so that the loop stays fast: a deep perft stops at 2,000 plies.
    monkeypatch.setattr(scenarios.limits, "MAX_SCENARIO_PLIES", 2_000)
    monkeypatch.setattr(scenarios.limits, "MAX_FILE_PLIES", 4_000)
    shutil.copy(os.path.join(SCENARIO_DIR, "3-spot-long-white.game"), tmp_path)
    originals = {}
    for name in sorted(os.listdir(SCENARIO_DIR)):
        if name.endswith(".yaml"):
            with open(os.path.join(SCENARIO_DIR, name), encoding="utf-8") as f:
                originals[name] = f.read()
    runner = Runner()  # one for every mutant: each ruleset is compiled once
    rng = random.Random(20240611)
    outcomes = {"pass": 0, "fail": 0, "error": 0, "file_error": 0}
    for count in range(MUTANTS):
        name = rng.choice(sorted(originals))
        text = mutate(rng, originals[name])
        path = tmp_path / f"m{count:03}.yaml"
        path.write_text(text, encoding="utf-8")
        as_json = count % 2 == 1
        try:
            # `rulecraft test [--json] FILE`, with the run itself made by the shared runner.
            report = runner.run_files([str(path)])
            monkeypatch.setattr(scenarios, "run_files", lambda files, backend="python", report=report: report)
            code = scenarios_cli.main([str(path), "--json"] if as_json else [str(path)])
        except Exception as e:  # pragma: no cover - the failure to report
            pytest.fail(f"{type(e).__name__}: {e}\n--- mutant {count} of {name}:\n{text}")
        out = capsys.readouterr().out
        assert code == (0 if report.ok else 1)
        if as_json:
            assert json.loads(out)["ok"] == report.ok
        else:
            assert out.splitlines()[-1] == report.summary()
        for error in report.file_errors + [r.error for r in report.results if r.error is not None]:
            match = ERROR_LINE.match(error.format())
            assert match and match["file"] == str(path), error.format()
        assert "root:" not in out and "Traceback" not in out
        outcomes["file_error"] += bool(report.file_errors)
        for r in report.results:
            outcomes[r.status] += 1
    # The mutations reach past the YAML reader: some scenarios still run, some fail, some are errors.
    assert all(outcomes.values()), outcomes
