"""The command line: outputs, JSON forms and exit codes."""

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter.apps import cli


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
    assert data["results"][0] == {"file": "3-spot", "ok": True, "title": "3-Spot", "warnings": []}
    assert data["results"][1]["ok"] is False
    assert "a game has 2 to 6 players; this one names 1" in data["results"][1]["errors"][0]


def test_unknown_ruleset_lists_the_bundled_ones(capsys):
    code, out, err = run(capsys, "info", "three-musketeer")
    assert code == 1
    assert err.startswith("three-musketeer: error: no such ruleset\n  hint: did you mean 'three-musketeers'? "
                          "(or a path to a .game file, or a bundled ruleset: 3-a-side, ")
    code, out, err = run(capsys, "info", "xyzzy")
    assert code == 1
    assert err.startswith("xyzzy: error: no such ruleset\n  hint: a path to a .game file, or a bundled "
                          "ruleset: 3-a-side, ")


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


# ---------------------------------------------------------------- compile

def generated(name: str) -> str:
    """The source compile_ruleset generates for a ruleset."""
    from dsl.load import load
    from interpreter.python.compile import compile_ruleset

    return compile_ruleset(load(name)).source


def test_compile_prints_a_summary(capsys):
    lines = generated("three-musketeers").count("\n")
    code, out, err = run(capsys, "compile", "three-musketeers")
    assert (code, err) == (0, "")
    assert out == f"three-musketeers: ok (Three Musketeers: 2 ply rules compiled to {lines:,} lines of Python)\n"
    assert run(capsys, "compile", "-q", "three-musketeers") == (0, "", "")
    lines = generated("tic-tac-toe").count("\n")
    assert run(capsys, "compile", "tic-tac-toe") == (
        0, f"tic-tac-toe: ok (Tic-tac-toe: 1 ply rule compiled to {lines:,} lines of Python)\n", "")


def test_compile_emit_source_prints_the_generated_python(capsys):
    code, out, err = run(capsys, "compile", "tic-tac-toe", "--emit-source")
    assert (code, err) == (0, "")
    assert out == generated("tic-tac-toe")
    assert sum(line.startswith("def ") for line in out.splitlines()) >= 2
    compile(out, "tic-tac-toe.py", "exec")  # valid Python (a SyntaxError fails the test)


def test_compile_emit_model_prints_the_checked_model(capsys):
    code, out, err = run(capsys, "compile", "tic-tac-toe", "--emit-model")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:2] == ["Ruleset", "  title: 'Tic-tac-toe'"]
    # the one ply rule: a mark placed on an empty cell
    at = lines.index("    - Ply")
    assert lines[at:at + 6] == ["    - Ply", "        name: 'place'", "        owner: OWN",
                                "        kind: 'mark'", "        motion:", "          Place"]


def test_compile_emits_the_golden_source(capsys):
    # tests/golden/ pins the generated code; the command prints exactly that
    with open(os.path.join(os.path.dirname(__file__), "golden", "three-musketeers.py")) as f:
        assert run(capsys, "compile", "three-musketeers", "--emit-source") == (0, f.read(), "")


def test_compile_json(capsys, tmp_path, monkeypatch):
    source = generated("tic-tac-toe")
    summary = {"file": "tic-tac-toe", "title": "Tic-tac-toe", "rules": 1, "lines": source.count("\n")}
    code, out, _ = run(capsys, "compile", "tic-tac-toe", "--json")
    assert (code, json.loads(out)) == (0, summary)
    code, out, _ = run(capsys, "compile", "tic-tac-toe", "--json", "--emit-source")
    assert (code, json.loads(out)) == (0, {**summary, "source": source})


def test_compile_reports_errors_like_check(capsys, write_game):
    path = write_game('game "x"\nboard square 3 x 3\nplayers A, B\npiece p: owner C, symbol P\n')
    code, out, err = run(capsys, "compile", path, "--emit-source")
    assert (code, out) == (1, "")
    assert err == run(capsys, "check", path)[2]
    assert f"{path}:4:16: error: unknown player 'C'" in err
    code, out, _ = run(capsys, "compile", path, "--json")
    data = json.loads(out)
    assert code == 1 and data["error"] == "the ruleset has errors"
    assert any(e.startswith(f"{path}:4:16: error: unknown player 'C'") for e in data["errors"])


# ---------------------------------------------------------------- the main parser

def test_version(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as info:
        cli.main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr() == (f"rulecraft {version('rulecraft')}\n", "")


def test_no_arguments_print_the_help(capsys):
    assert cli.main([]) == 0
    out, err = capsys.readouterr()
    assert err == "" and out == cli.build_parser().format_help()
    assert out.startswith("usage: rulecraft [-h] [--version] COMMAND ...\n")


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
                       stdin="zz\nA1XB1\nc3\nc2\nquit\n", monkeypatch=monkeypatch)
    assert code == 0
    assert "'zz' is not a legal ply here; legal: a1xb1, a1xa2" in out
    assert "Enemy plays a2-a1" in out
    # `A1XB1` in capitals, then `c3` (no ply), then `c2`, the only ply into c2 (c3xc2)
    assert "'c3' is not a legal ply here" in out
    assert out.endswith("\nstopped.\n\n" + "\n".join([
        "  5 o o o o M", "  4 o o o o o", "  3 o o . o o", "  2 o o M o o", "  1 . M o o o",
        "    a b c d e", "Musketeers to move",
        "position: ooooM/ooooo/oo.oo/ooMoo/.Mooo Musketeers", "result: game going on",
        "moves:", "  1. Musketeers a1xb1", "  2. Enemy a2-a1", "  3. Musketeers c3xc2",
        "  4. Enemy a1-a2", ""]))


def test_play_random_against_random_to_the_end(capsys):
    code, out, _ = run(capsys, "play", "3-spot", "--players", "random,random", "--seed", "3")
    assert code == 0
    end = out[out.rindex("position: "):].splitlines()
    assert "result=" in end[0] and end[1] in ("result: Blue wins", "result: Red wins")
    assert end[2] == "moves:" and end[3].startswith("  1. Blue ")
    assert len(end) - 3 == int(end[-1].split(".")[0])  # every ply, numbered from 1


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


# ---------------------------------------------------------------- hostile arguments

BUNDLED_HINT = "  hint: a path to a .game file, or a bundled ruleset: 3-a-side, "


@pytest.mark.parametrize("name", ["/etc/passwd", "/proc/self/status", "../../../../../../../etc/passwd"])
def test_check_a_file_that_is_no_ruleset_prints_one_error_and_no_contents(capsys, name):
    code, out, err = run(capsys, "check", name)
    assert (code, out) == (1, "")
    assert err.startswith(f"{name}: error: not a ruleset file: its name does not end in .game\n" + BUNDLED_HINT)
    assert err.count("\n") == 2
    code, out, err = run(capsys, "check", "--json", name)
    assert code == 1 and err == ""
    result, = json.loads(out)["results"]
    assert result["ok"] is False and len(result["errors"]) == 1
    assert "root" not in out and "Name:" not in out


def test_a_bundled_name_and_a_relative_path_work_from_any_directory(capsys, monkeypatch, tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "mine.game").write_text('variant of "3-spot"\ngame "Mine"\n')
    (tmp_path / "3-spot").write_text("not a ruleset\n")  # a file of the bundled name: not read
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "check", "3-spot", "3-spot.game", "sub/mine.game", "tic-tac-toe")
    assert (code, err) == (0, "")
    assert [line.split(":")[0] for line in out.splitlines()] == ["3-spot", "3-spot.game", "sub/mine.game",
                                                                 "tic-tac-toe"]
    monkeypatch.chdir(tmp_path / "sub")
    code, out, _ = run(capsys, "check", "mine")  # NAME.game in the current directory
    assert (code, out) == (0, "mine: ok (Mine: 9 cells, 3 opening plies)\n")


def test_a_directory_a_fifo_and_an_empty_file(capsys, tmp_path):
    (tmp_path / "d.game").mkdir()
    os.mkfifo(tmp_path / "f.game")
    (tmp_path / "e.game").write_text("")
    for name, message in (("d.game", "is a directory, not a ruleset file"),
                          ("f.game", "is not a regular file (a device, a pipe or a socket), not a ruleset file"),
                          ("e.game", "empty ruleset: no declarations")):
        path = str(tmp_path / name)
        code, out, err = run(capsys, "check", path)
        assert (code, out, err) == (1, "", f"{path}: error: {message}\n")
        code, out, err = run(capsys, "info", path)
        assert (code, out, err) == (1, "", f"{path}: error: {message}\n")


def test_names_with_control_characters_or_bad_bytes_are_printed_escaped(capsys, tmp_path):
    for arg, shown in (("\x1b[2J.game", "\\x1b[2J.game"), ("caf\udce9.game", "caf\\xe9.game"),
                       ("\u202eevil", "\\u202eevil")):
        code, out, err = run(capsys, "check", arg)
        assert code == 1
        assert err.startswith(f"{shown}: error: ")
        assert "\x1b" not in err and "\u202e" not in err
        code, out, _ = run(capsys, "check", "--json", arg)
        assert json.loads(out)["results"][0]["file"] == shown
    good = tmp_path / "\udcff.game".encode("utf-8", "surrogateescape").decode("utf-8", "surrogateescape")
    good.write_text('variant of "3-spot"\n')
    code, out, _ = run(capsys, "check", str(good))
    assert code == 0 and out == f"{tmp_path}/\\xff.game: ok (3-Spot: 9 cells, 3 opening plies)\n"
    code, _, err = run(capsys, "play", "3-spot", "--players", "human,\x1b[2J")
    assert code == 2 and err == ("rulecraft play: error: --players: unknown player '\\x1b[2J' (known: "
                                 + err.split("(known: ", 1)[1])


@pytest.mark.parametrize("argv,message", [
    (["perft", "3-spot", "--depth", "99999999999999999999"], "--depth must be at most 100"),
    (["perft", "3-spot", "--depth", "-1"], "--depth must be 0 or more"),
    (["random", "3-spot", "--games", "0"], "--games must be at least 1"),
    (["random", "3-spot", "--games", "-5"], "--games must be at least 1"),
    (["random", "3-spot", "--games", str(10**30)], "--games must be at most 1,000,000,000"),
    (["random", "3-spot", "--max-plies", "0"], "--max-plies must be at least 1"),
    (["random", "3-spot", "--max-plies", str(10**12)], "--max-plies must be at most 1,000,000,000"),
    (["random", "3-spot", "--seed", "-1"], "--seed must be 0 or more"),
    (["random", "3-spot", "--seed", str(2**64)], "--seed must be at most 18,446,744,073,709,551,615"),
    (["play", "3-spot", "--seed", str(10**40)], "--seed must be at most 18,446,744,073,709,551,615"),
    (["play", "3-spot", "--max-plies", "-3"], "--max-plies must be at least 1"),
])
def test_numbers_out_of_bounds_are_usage_errors(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert (code, out, err) == (2, "", f"rulecraft {argv[0]}: error: {message}\n")


@pytest.mark.parametrize("value", ["9" * 5000, "1e9", "0x10", "", "\udcff"])
def test_numbers_that_are_not_numbers_are_usage_errors(capsys, value):
    with pytest.raises(SystemExit) as info:
        cli.main(["random", "3-spot", "--seed", value])
    assert info.value.code == 2
    assert "argument --seed: invalid int value" in capsys.readouterr().err


def test_the_largest_seed_works(capsys):
    code, out, _ = run(capsys, "random", "3-spot", "--games", "2", "--seed", str(2**64 - 1), "--json")
    assert code == 0 and json.loads(out)["games"] == 2


def test_check_a_folder_checks_every_ruleset_under_it(capsys, tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.game").write_text('variant of "3-spot"\n')
    (tmp_path / "a.game").write_text('variant of "tic-tac-toe"\nboard square 3 x 3 with diagonals\n')
    (tmp_path / "notes.txt").write_text("not a ruleset")
    code, out, err = run(capsys, "check", str(tmp_path))
    assert (code, err) == (0, "")
    assert out == (f"{tmp_path}/a.game: ok (Tic-tac-toe: 9 cells, 9 opening plies)\n"
                   f"{tmp_path}/sub/b.game: ok (3-Spot: 9 cells, 3 opening plies)\n")
    (tmp_path / "empty").mkdir()
    code, out, err = run(capsys, "check", str(tmp_path / "empty"))
    assert (code, out) == (2, "")
    assert err == f"rulecraft check: error: no ruleset (*.game) in the folder '{tmp_path}/empty'\n"


def test_info_shows_the_rules_and_the_outcome(capsys):
    code, out, err = run(capsys, "info", "3-spot-score-rule")
    assert code == 0
    assert ("variable score per player, starts at 0, kept in -1000000000..1000000000\n"
            "plies: colour, white\n"
            "region point: a1, b1, c1\n"
            "turn: colour then white when possible\n"
            "end rules, in order:\n"
            "  end won: Blue wins if score[Blue] - score[Red] >= 4 or score[Blue] >= 10\n"
            "  end lost: Red wins if score[Red] - score[Blue] >= 4 or score[Red] >= 10\n"
            "  then, always: the player to move with no legal ply loses\n") in out
    code, out, err = run(capsys, "info", "--json", "tic-tac-toe", "--position", "XXX/OO./... O")
    data = json.loads(out)
    assert (data["outcome"], data["to_move"], data["legal"]) == ("X", None, [])
    assert data["turn"] == [{"plies": ["place"], "pass": False, "when_possible": False}]
    assert data["ends"] == [{"name": "line", "rule": "end line: mover wins if line(3, own mark, all, contiguous)"},
                            {"name": "full", "rule": "end full: draw if count(empty) == 0"}]
    assert data["variables"] == [] and data["compulsory"] is None
    code, out, err = run(capsys, "info", "tic-tac-toe", "--position", "XXX/OO./... O")
    assert out.endswith("position: XXX/OO./... O result=X\ngame over: X wins\n")


def test_play_stopped_by_max_plies_says_so(capsys):
    code, out, _ = run(capsys, "play", "three-musketeers", "--players", "random,random", "--seed", "1",
                       "--max-plies", "3")
    assert code == 0
    assert "\nstopped after 3 plies (--max-plies 3).\n" in out
    assert out.endswith("result: game going on\nmoves:\n  1. Musketeers c3xc2\n  2. Enemy b3-c3\n"
                        "  3. Musketeers a1xa2\n")


def test_play_interrupted_shows_the_position_and_exits_130(capsys, monkeypatch):
    class Interrupting(io.StringIO):
        def readline(self, *args):
            raise KeyboardInterrupt

    monkeypatch.setattr(sys, "stdin", Interrupting())
    code = cli.main(["play", "tic-tac-toe", "--players", "human,random"])
    out = capsys.readouterr().out
    assert code == 130
    assert out.endswith("X> \ninterrupted.\n\n  3 . . .\n  2 . . .\n  1 . . .\n    a b c\nX to move\n"
                        "position: .../.../... X\nresult: game going on\nmoves: none\n")


def test_the_help_in_docs_cli_is_the_programs(monkeypatch, capsys):
    # docs/CLI.md ends with every command's --help, as printed 80 columns wide.
    monkeypatch.setenv("COLUMNS", "80")
    doc = (Path(__file__).parent.parent / "docs" / "CLI.md").read_text()
    section = doc[doc.index("## Help of every command"):]
    blocks = re.findall(r"```console\n\$ rulecraft (.*?)--help\n(.*?)```", section, re.S)
    assert [name.strip() for name, _ in blocks] == ["", "check", "compile", "info", "perft", "random",
                                                    "play", "replay", "render", "test", "solve", "analyze", "verify", "balance",
                                                    "lsp", "serve", "completion"]
    for name, shown in blocks:
        with pytest.raises(SystemExit):
            cli.main(name.split() + ["--help"])
        assert capsys.readouterr().out == shown, f"rulecraft {name}--help differs from docs/CLI.md"


@pytest.mark.parametrize("words, expected", [
    (["ch"], ["check"]),
    (["comp"], ["compile", "completion"]),
    (["compile", "tic-t"], ["tic-tac-toe"]),
    (["compile", "x.game", "--e"], ["--emit-model", "--emit-source"]),
    (["check", "three-m"], ["three-musketeers"]),
    (["play", "x.game", "--pl"], ["--players"]),
    (["play", "x.game", "--players", "human,a"], ["human,alphabeta:"]),
    (["completion", ""], ["bash", "fish", "zsh"]),
    (["nosuch", ""], []),
])
def test_completion_candidates(capsys, words, expected):
    assert cli.main(["__complete", *words]) == 0
    assert capsys.readouterr().out.split() == expected


COMPLETE_IN = {  # each shell loads the script, then completes `rulecraft check m`
    "bash": ('eval "$(rulecraft completion bash)"; COMP_WORDS=(rulecraft check m); COMP_CWORD=2; '
             '_rulecraft; printf "%s\\n" "${COMPREPLY[@]}"'),
    "zsh": ('eval "$(rulecraft completion zsh)"; compadd() { shift 3; print -l -- "$@"; }; '
            'words=(rulecraft check m); CURRENT=3; _rulecraft'),
    "fish": 'rulecraft completion fish | source; complete -C "rulecraft check m"',
}


@pytest.mark.parametrize("shell", sorted(COMPLETE_IN))
def test_completion_in_each_shell(tmp_path, shell):
    import shutil

    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed here")
    (tmp_path / "mine.game").write_text('variant of "3-spot"\n')
    (tmp_path / "notes.txt").write_text("")
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    argv = [shell, "-f", "-c", COMPLETE_IN[shell]] if shell == "zsh" else [shell, "-c", COMPLETE_IN[shell]]
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=60)
    assert done.stdout.split() == ["mine.game"], done.stderr


def on_a_terminal(write) -> str:
    """What `write(stream)` shows on a pseudo-terminal."""
    import pty
    import select

    master, slave = pty.openpty()
    with os.fdopen(slave, "w") as terminal:
        write(terminal)
        terminal.flush()
        data = b""
        while select.select([master], [], [], 0.2)[0]:
            data += os.read(master, 65536)
    os.close(master)
    return data.decode()


def test_progress_shows_on_a_terminal_only(tmp_path):
    import time

    from interpreter.apps.progress import Meter

    def count(quiet: bool):
        def write(terminal):
            with Meter("games", 10, quiet=quiet, stream=terminal, delay=0.1) as meter:
                for _ in range(10):
                    time.sleep(0.03)
                    meter.advance()
        return write

    bar = on_a_terminal(count(quiet=False))
    assert "games:" in bar and "/10 [" in bar
    assert on_a_terminal(count(quiet=True)) == ""
    with (tmp_path / "log").open("w") as log:  # not a terminal: nothing
        with Meter("games", 10, stream=log) as meter:
            meter.advance(10)
    assert (tmp_path / "log").read_text() == ""


def test_a_command_stopped_by_an_error_still_prints_json(capsys):
    code, out, err = run(capsys, "solve", "three-musketeers", "--position", "bad", "--json")
    assert code == 2
    assert json.loads(out) == {"error": "--position: a position is `<rows> <player to move> "
                                        "[key=value ...]`"}
    code, out, err = run(capsys, "info", "nosuch", "--json")
    assert code == 1
    data = json.loads(out)
    assert data["error"] == "the ruleset has errors"
    assert data["errors"][0].startswith("nosuch: error: no such ruleset")


def test_a_solves_progress_on_a_terminal():
    import time

    from interpreter.search.solver import Progress

    def write(terminal):
        progress = Progress(True, terminal, delay=0.05)
        for i in range(4):
            time.sleep(0.06)
            progress.update(f"{i:,} positions")
            time.sleep(0.5)
        progress.done()

    shown = on_a_terminal(write)
    assert "positions" in shown and "[00:0" in shown
