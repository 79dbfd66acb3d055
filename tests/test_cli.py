"""The command line: outputs, JSON forms and exit codes."""

import io
import json
import os
import subprocess
import sys

import pytest

from rulecraft.interpreter import cli


def run(capsys, *argv, stdin: str | None = None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_bundled_rulesets(capsys):
    code, out, err = run(capsys, "check", "three-musketeers", "3-spot", "3-spot-misere")
    assert code == 0 and err == ""
    assert out.splitlines() == [
        "three-musketeers: ok (Three Musketeers: 25 cells, 8 opening plies)",
        "3-spot: ok (3-Spot: 9 cells, 3 opening plies)",
        "3-spot-misere: ok (3-Spot (misère): 9 cells, 3 opening plies)",
    ]


def test_check_reports_errors_with_exit_1(capsys, write_game):
    path = write_game('game "x"\nboard square 3 x 3\nplayers A, B\npiece p: owner C, symbol P\n')
    code, out, err = run(capsys, "check", path)
    assert code == 1
    assert f"{path}:4:16: error: unknown player 'C'" in err


def test_check_json(capsys, write_game):
    path = write_game('game "x"\nboard square 3 x 3\nplayers A\n')
    code, out, _ = run(capsys, "check", "--json", "3-spot", path)
    data = json.loads(out)
    assert code == 1
    assert data["results"][0] == {"file": "3-spot", "ok": True, "title": "3-Spot"}
    assert data["results"][1]["ok"] is False
    assert "rulecraft plays two-player games; this one names 1" in data["results"][1]["errors"][0]


def test_unknown_ruleset_lists_the_bundled_ones(capsys):
    code, out, err = run(capsys, "info", "three-musketeer")
    assert code == 1
    assert err.startswith("three-musketeer: error: no such ruleset\n  hint: a path to a .game file")
    assert "three-musketeers" in err


def test_perft_json_is_stable(capsys):
    code, out, _ = run(capsys, "perft", "three-musketeers", "--depth", "6", "--json")
    assert code == 0
    assert json.loads(out) == {"perft": [8, 16, 132, 736, 5540, 38740]}
    code, out, _ = run(capsys, "perft", "3-spot", "--depth", "4", "--json")
    assert json.loads(out) == {"perft": [3, 10, 33, 97]}


def test_perft_from_a_position(capsys):
    # One musketeer boxed in by empties, one able to capture: exactly one ply.
    pos = "...oM/...../..M../...../M.... Musketeers"
    code, out, _ = run(capsys, "perft", "three-musketeers", "--depth", "1", "--position", pos, "--json")
    assert json.loads(out) == {"perft": [1]}


def test_bad_position_is_a_usage_error(capsys):
    code, out, err = run(capsys, "perft", "three-musketeers", "--depth", "1", "--position", "xx/yy Musketeers")
    assert code == 2
    assert err == "rulecraft perft: error: --position: expected 5 rows separated by '/', found 2\n"


def test_bad_arguments_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["perft", "3-spot"])
    assert info.value.code == 2
    code, _, err = run(capsys, "perft", "3-spot", "--depth", "-1")
    assert code == 2 and "--depth must be 0 or more" in err


def test_info_json(capsys):
    code, out, _ = run(capsys, "info", "3-spot", "--json")
    data = json.loads(out)
    assert data["players"] == ["Blue", "Red"]
    assert data["board"] == {"shape": "square", "cells": 9, "width": 3, "height": 3, "goals": []}
    assert data["legal"] == ["c1+c2-c2+c3", "c1+c2-a3+b3", "c1+c2-b3+c3"]
    assert data["position"] == ".../RWB/RWB Blue ply=1 score=0,0"
    assert [p["kind"] for p in data["pieces"]] == ["blue", "red", "white"]


def test_info_text(capsys):
    code, out, _ = run(capsys, "info", "three-musketeers")
    assert code == 0
    assert "8 legal plies: a1xb1, a1xa2, c3xc2, c3xb3, c3xd3, c3xc4, e5xe4, e5xd5" in out
    assert "  3 o o M o o" in out


def test_random_json_is_reproducible(capsys):
    _, a, _ = run(capsys, "random", "three-musketeers", "--games", "30", "--seed", "7", "--json")
    _, b, _ = run(capsys, "random", "three-musketeers", "--games", "30", "--seed", "7", "--json")
    da, db = json.loads(a), json.loads(b)
    for d in (da, db):
        d.pop("plies_per_second")
        d.pop("seconds")
    assert da == db
    assert da["games"] == 30 and sum(da["wins"].values()) + da["draws"] + da["unfinished"] == 30


def test_play_human_against_random(capsys, monkeypatch):
    code, out, _ = run(capsys, "play", "three-musketeers", "--players", "human,random", "--seed", "1",
                       stdin="zz\na1xb1\nquit\n", monkeypatch=monkeypatch)
    assert code == 0
    assert "'zz' is not a legal ply here; legal: a1xb1, a1xa2" in out
    assert "Enemy plays a2-a1" in out
    assert out.rstrip().endswith("stopped.")


def test_play_random_against_random_to_the_end(capsys):
    code, out, _ = run(capsys, "play", "3-spot", "--players", "random,random", "--seed", "3")
    assert code == 0
    assert "result=" in out.splitlines()[-1]


def test_play_bad_players(capsys):
    code, _, err = run(capsys, "play", "3-spot", "--players", "human")
    assert code == 2 and "--players takes 2 comma-separated players (Blue, Red in that order)" in err
    code, _, err = run(capsys, "play", "3-spot", "--players", "human,robot")
    assert code == 2 and "unknown player 'robot'" in err


def test_installed_command_from_another_directory(tmp_path):
    exe = os.path.join(os.path.dirname(sys.executable), "rulecraft")
    if not os.path.exists(exe):
        pytest.skip("the rulecraft script is not installed beside this Python")
    done = subprocess.run([exe, "perft", "3-spot", "--depth", "3", "--json"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"perft": [3, 10, 33]}
