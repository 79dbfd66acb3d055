"""Game records (interpreter/apps/records.py, `play --record`, `replay`): written, read back and
replayed on seeded games of every bundled ruleset; every error with its exact message."""

import random

import pytest
from conftest import all_rulesets, game_of

from interpreter.apps import cli
from interpreter.apps.records import (RecordError, format_record, parse_record, read_record,
    record_game, replay)

SLOW = {"tricouleur": 12, "whistling-captures": 8}  # plies per game where a ply is slow


def seeded_game(game, seed: int, plies: int):
    rng = random.Random(seed)
    state, actions = game.initial_state(), []
    while len(actions) < plies and not game.is_terminal(state):
        a = rng.choice(game.legal_actions(state))
        actions.append(a)
        state = game.apply(state, a)
    return actions


@pytest.mark.parametrize("name", all_rulesets())
def test_every_bundled_ruleset_round_trips(name):
    game = game_of(name)
    for seed in range(2):
        actions = seeded_game(game, seed, SLOW.get(name, 60))
        rec = record_game(game, name, ["random", "random"][:len(game.players)], game.initial_state(), actions)
        text = format_record(rec)
        back = parse_record(text, "g.txt")
        assert (back.plies, back.movers, back.result, back.players) == (rec.plies, rec.movers, rec.result,
                                                                         rec.players)
        assert format_record(back) == text
        states = replay(back, game, text)
        expected = [game.initial_state()]
        for a in actions:
            expected.append(game.apply(expected[-1], a))
        assert states == expected


RECORD = """# rulecraft game record
Game: Three Musketeers
Ruleset: three-musketeers
Players: human, random
Result: game going on

1. Musketeers c3xc2
2. Enemy b3-c3
3. Musketeers a1xa2
"""


def test_the_format_is_the_documented_one():
    game = game_of("three-musketeers")
    state = game.initial_state()
    actions = []
    for ply in ("c3xc2", "b3-c3", "a1xa2"):
        actions.append(game.action_from_text(state, ply))
        state = game.apply(state, actions[-1])
    rec = record_game(game, "three-musketeers", ["human", "random"], game.initial_state(), actions)
    lines = format_record(rec).split("\n")
    assert lines[3].startswith("Fingerprint: ") and len(lines[3]) == 13 + 64
    assert "\n".join(lines[:3] + lines[4:]) == RECORD


def test_a_start_other_than_the_setup_is_written_and_replayed():
    game = game_of("tic-tac-toe")
    start = game.state_from_text("X../.O./... X")
    ply = game.action_from_text(start, "c3")
    rec = record_game(game, "tic-tac-toe", ["random", "random"], start, [ply])
    text = format_record(rec)
    assert "Start: X../.O./... X\n" in text and text.endswith("\n1. X c3\n")
    assert replay(parse_record(text, "t.txt"), game)[-1] == game.apply(start, ply)


@pytest.mark.parametrize("change, expected", [
    (("3. Musketeers a1xa2", "3. Musketeers a1xb2"),
     "g.txt:9:15: error: 'a1xb2' is not a legal ply here; legal: a1xb1, a1xa2, c2xc1, c2xb2, c2xd2, "
     "c2xc3, e5xe4, e5xd5\n    3. Musketeers a1xb2\n                  ^~~~~"),
    (("2. Enemy b3-c3", "2. Musketeers b3-c3"),
     "g.txt:8:15: error: it is Enemy's ply here, not Musketeers's\n    2. Musketeers b3-c3\n"
     "                  ^~~~~"),
    (("Result: game going on", "Result: draw"),
     "g.txt: error: the record says `draw`, but the plies end in `game going on`"),
    (("1. Musketeers", "1 Musketeers"),
     "g.txt:7:1: error: expected `Key: value` before the plies, or a turn `N. PLAYER PLY ...`\n"
     "    1 Musketeers c3xc2\n    ^~~~~~~~~~~~~~~~~~"),
    (("Players: human, random\n", ""), "g.txt: error: the record has no `Players:` line"),
])
def test_a_bad_record_is_reported_where_it_is_wrong(change, expected):
    text = RECORD.replace(*change)
    with pytest.raises(RecordError) as e:
        replay(parse_record(text, "g.txt"), game_of("three-musketeers"), text)
    assert e.value.format() == expected


def test_play_records_and_replay_reads_back(tmp_path, capsys):
    path = str(tmp_path / "g.txt")
    assert cli.main(["play", "three-musketeers", "--players", "random,random", "--seed", "1",
                     "--max-plies", "3", "--record", path]) == 0
    assert capsys.readouterr().out.endswith(f"record written to {path}\n")
    rec, text = read_record(path)
    assert rec.plies == ["c3xc2", "b3-c3", "a1xa2"] and rec.result == "game going on"
    svg = str(tmp_path / "a.svg")
    assert cli.main(["replay", path, "--at", "2", "--render", svg]) == 0
    out = capsys.readouterr().out
    assert out.endswith("position: ooooM/ooooo/o.ooo/ooMoo/Moooo Musketeers\n"
                        "after ply 2 of 3; result of the game: game going on\n"
                        "moves:\n  1. Musketeers c3xc2\n  2. Enemy b3-c3\n")
    assert open(svg).read().startswith("<svg ")


def test_the_result_reads_as_the_rules_write_it_and_older_records_still_replay(tmp_path, capsys):
    path = tmp_path / "g.txt"
    for seed in range(1, 20):  # a game the Musketeers win: `Musketeers win if no legal ply`
        assert cli.main(["play", "three-musketeers", "--players", "random,random", "--seed",
                         str(seed), "--record", str(path)]) == 0
        if "\nResult: Musketeers win\n" in path.read_text():
            break
    assert capsys.readouterr().out.count("result: Musketeers win\n") >= 1
    older = path.read_text().replace("Result: Musketeers win\n", "Result: Musketeers wins\n")
    path.write_text(older)
    assert cli.main(["replay", str(path)]) == 0
    assert "result of the game: Musketeers win\n" in capsys.readouterr().out


def test_replay_reports_a_bad_ply_and_exits_1(tmp_path, capsys):
    path = tmp_path / "g.txt"
    path.write_text(RECORD.replace("b3-c3", "b3-b2"))
    assert cli.main(["replay", str(path)]) == 1
    assert capsys.readouterr().err.startswith(f"{path}:8:10: error: 'b3-b2' is not a legal ply here")


def test_replay_refuses_another_version_of_the_ruleset(tmp_path, capsys):
    path = tmp_path / "g.txt"
    path.write_text(RECORD.replace("Players:", "Fingerprint: " + "0" * 64 + "\nPlayers:"))
    assert cli.main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == (
        "rulecraft replay: error: the record was played under another version of three-musketeers "
        "(its fingerprint differs); give the ruleset to replay under with --ruleset\n")
    assert cli.main(["replay", str(path), "--ruleset", "three-musketeers"]) == 0
