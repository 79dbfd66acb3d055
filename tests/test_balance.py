"""`rulecraft balance`: the statistics against hand-computed values, known results of
tic-tac-toe (perfect play draws in 9 plies; uniformly random play: X wins 0.5849, O 0.2881,
draws 0.1270), determinism whatever the number of processes, the JSON schema, two
rulesets side by side and the figure."""

import json
import math
import sys
import xml.etree.ElementTree as ET

import pytest

from interpreter.apps import cli
from interpreter.apps.balance import percentile, wilson
from interpreter.apps.balance.selfplay import checkpoint_ply, game_seed
from interpreter.apps.balance.stats import buckets


def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def balance_json(capsys, *argv):
    code, out, err = run(capsys, "balance", *argv, "--json", "-q")
    assert code == 0, err
    return json.loads(out)


# ---------------------------------------------------------------- statistics

def test_wilson_interval_against_hand_computed_values():
    # 5 of 10, z = 1.959964: centre (0.5 + z²/20) / (1 + z²/10) = 0.5, half-width
    # z / (1 + z²/10) * sqrt(0.025 + z²/400) = 0.263414
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    # 0 of 10: [0, z² / (n + z²)] = [0, 3.841459 / 13.841459]
    assert wilson(0, 10)[0] == 0.0 and math.isclose(wilson(0, 10)[1], 3.841459 / 13.841459, rel_tol=1e-6)
    # 81 of 263 (a textbook example): [0.2553, 0.3662]
    assert tuple(round(x, 4) for x in wilson(81, 263)) == (0.2553, 0.3662)
    assert wilson(0, 0) == (0.0, 1.0)


def test_percentiles_interpolate_between_ranks():
    values = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert [percentile(values, q) for q in (0, 10, 50, 90, 100)] == [1, 1.9, 5.5, 9.1, 10]
    assert percentile([7], 90) == 7


def test_buckets_and_checkpoints():
    assert buckets(9) == [(1, 5), (6, 10)]
    assert buckets(700) == [(1, 5), (6, 10), (11, 20), (21, 40), (41, 80), (81, 160), (161, 320),
                            (321, 640), (641, 1280)]
    assert buckets(0) == []
    assert [checkpoint_ply(c, 9) for c in ("25%", "50%", "75%", "8", "9")] == [2, 4, 6, 8, None]
    assert game_seed(0, 0) != game_seed(0, 1) and game_seed(5, 3) == game_seed(5, 3)


# ---------------------------------------------------------------- known results

def test_perfect_play_of_tic_tac_toe_is_always_a_nine_ply_draw(capsys):
    rep = balance_json(capsys, "tic-tac-toe", "--players", "perfect,perfect", "--games", "6",
                       "--jobs", "1", "--early-budget", "0")
    assert rep["drawishness"] == {"draw_rate": 1.0, "cut_rate": 0.0}
    length = rep["length"]
    assert (length["min"], length["max"], length["mean"], length["sd"]) == (9, 9, 9.0, 0.0)
    assert rep["first_player_advantage"]["advantage"] == 0.0
    # every position of a 9-ply game has 9, 8, ..., 1 legal plies
    assert rep["branching"]["per_ply"] == [9.0, 8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]
    sol = rep["solution"]
    assert (sol["value"], sol["remoteness"], sol["positions"]) == ("draw", None, 5478)
    assert sol["counts"]["win"] + sol["counts"]["lose"] + sol["counts"]["draw"] == 5478
    assert sol["longest_forced_win"] is not None and 1 <= sol["longest_forced_win"] <= 9


def test_random_play_of_tic_tac_toe_matches_the_exact_probabilities(capsys):
    # Exact for uniformly random play: X wins 0.5849, O 0.2881, a draw 0.1270. Each must lie
    # in its 95% interval from 3,000 games (a wrong move generator or bookkeeping fails).
    rep = balance_json(capsys, "tic-tac-toe", "--games", "3000", "--seed", "11",
                       "--early-budget", "0", "--jobs", "2")
    x, o = rep["seats"]
    for measured, exact in ((x["wins"], 0.5849), (o["wins"], 0.2881), (x["draws"], 0.1270)):
        assert measured["low"] <= exact <= measured["high"], (measured, exact)
    assert x["wins"]["count"] + x["draws"]["count"] + x["losses"]["count"] == 3000
    assert x["losses"] == o["wins"]


def test_the_same_seed_gives_the_same_report_whatever_the_jobs(capsys):
    argv = ["3-spot", "--players", "mcts:10,random", "--games", "7", "--seed", "3",
            "--max-plies", "60", "--early-budget", "10", "--checkpoints", "10,50%"]
    one = run(capsys, "balance", *argv, "--json", "-q", "--jobs", "1")
    two = run(capsys, "balance", *argv, "--json", "-q", "--jobs", "2")
    assert one == two and one[0] == 0
    assert run(capsys, "balance", *argv, "-q", "--jobs", "1") == run(capsys, "balance", *argv, "-q", "--jobs", "2")
    rep = json.loads(one[1])
    # 7 games: A first in games 0, 2, 4, 6
    assert rep["first_seat"] == {"A": 4, "B": 3}
    assert [c["at"] for c in rep["decided_early"]["checkpoints"]] == ["10", "50%"]
    assert rep["decided_early"]["budget"] == 10
    assert rep["length"]["max"] <= 60


# ---------------------------------------------------------------- the report

SCHEMA_KEYS = ["schema", "file", "title", "players", "agents", "games", "seed", "max_plies",
               "first_seat", "interval", "seats", "scores", "first_player_advantage", "length",
               "branching", "decided_early", "repetition", "drawishness", "solution"]


def test_the_json_schema(capsys):
    rep = balance_json(capsys, "3-spot", "--players", "random,mcts:5", "--games", "3", "--jobs", "1",
                       "--early-budget", "5")
    assert list(rep) == SCHEMA_KEYS
    assert rep["schema"] == "rulecraft-balance/1" and rep["interval"] == "wilson-95"
    assert (rep["players"], rep["agents"]) == (["Blue", "Red"], ["random", "mcts:5"])
    rate = {"count", "of", "rate", "low", "high"}
    for seat in rep["seats"]:
        assert set(seat) == {"player", "wins", "draws", "losses", "cut"}
        assert all(set(seat[k]) == rate for k in ("wins", "draws", "losses", "cut"))
    assert [set(s) for s in rep["scores"]] == [{"agent", "wins", "draws_or_cut", "losses", "score"}] * 2
    assert set(rep["first_player_advantage"]) == {"score", "advantage", "low", "high"}
    assert set(rep["length"]) == {"mean", "sd", "p10", "p50", "p90", "min", "max", "cut"}
    assert set(rep["branching"]) == {"mean", "buckets", "per_ply", "reached"}
    assert set(rep["branching"]["buckets"][0]) == {"plies", "positions", "mean"}
    assert set(rep["decided_early"]) == {"budget", "draw_band", "checkpoints"}
    assert [c["at"] for c in rep["decided_early"]["checkpoints"]] == ["25%", "50%", "75%"]
    assert set(rep["repetition"]) == rate
    assert set(rep["drawishness"]) == {"draw_rate", "cut_rate"}
    assert rep["solution"] is None
    off = balance_json(capsys, "3-spot", "--games", "2", "--early-budget", "0", "--jobs", "1")
    assert off["decided_early"] is None


def test_a_game_cut_by_the_ply_limit(capsys):
    rep = balance_json(capsys, "3-a-side", "--games", "2", "--max-plies", "5", "--jobs", "1",
                       "--early-budget", "3")
    assert rep["length"] == {"mean": 5.0, "sd": 0.0, "p10": 5.0, "p50": 5.0, "p90": 5.0, "min": 5,
                             "max": 5, "cut": 2}
    assert rep["drawishness"] == {"draw_rate": 0.0, "cut_rate": 1.0}
    assert rep["seats"][0]["cut"]["count"] == 2
    assert rep["first_player_advantage"]["advantage"] == 0.0  # a cut game scores 1/2
    # no result to agree with: no game is judged
    assert all(c["agreement"]["of"] == 0 for c in rep["decided_early"]["checkpoints"])


def test_two_rulesets_side_by_side(capsys):
    argv = ["tic-tac-toe", "3-spot", "--games", "4", "--jobs", "1", "--early-budget", "0", "-q"]
    code, out, err = run(capsys, "balance", *argv)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[:3] == ["balance: A = random, B = random; 4 games a ruleset, seed 0",
                         "A first in 2 games, B in 2; a game is cut after 1000 plies",
                         "rates with 95% Wilson score intervals; a draw or cut game scores 1/2"]
    heading = lines[4]
    assert heading.split() == ["tic-tac-toe", "3-spot"]
    column = heading.index("3-spot")
    assert heading.index("tic-tac-toe") == 24 and column == 24 + 28
    game = next(line for line in lines if line.startswith("game "))
    assert game[24:].split("  ")[0] == "Tic-tac-toe" and game[column:] == "3-Spot"
    # 3-Spot's games are longer: its ply buckets show `-` in tic-tac-toe's column
    bucket = next(line for line in lines if line.startswith("legal plies 11-20"))
    assert bucket[24:column].strip() == "-" and bucket[column:].strip() != "-"
    reports = balance_json(capsys, *argv)
    assert [r["title"] for r in reports] == ["Tic-tac-toe", "3-Spot"]


def test_a_saved_solution_is_used(capsys, tmp_path):
    path = str(tmp_path / "t.sol")
    assert run(capsys, "solve", "tic-tac-toe", "--save", path)[0] == 0
    rep = balance_json(capsys, "tic-tac-toe", "--games", "2", "--jobs", "1", "--early-budget", "0",
                       "--solution", path)
    assert rep["solution"]["value"] == "draw" and rep["solution"]["positions"] == 5478
    rep = balance_json(capsys, "tic-tac-toe", "--games", "4", "--jobs", "2", "--early-budget", "0",
                       "--players", f"perfect:{path},random")
    assert rep["solution"]["value"] == "draw"
    assert rep["scores"][0]["losses"] == 0  # perfect play never loses


@pytest.mark.parametrize("argv, message", [
    (["--players", "random"], "--players takes 2 comma-separated programs (A,B)"),
    (["--players", "human,random"], "--players: balance plays programs only"),
    (["--players", "random,robot"], "--players: unknown player 'robot'"),
    (["--checkpoints", "0%"], "--checkpoints: '0%' is neither a ply count"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--early-budget", "-1"], "--early-budget must be 0 or more"),
    (["--plot", "out.pdf"], "--plot: the file name must end in .svg or .png"),
    (["--plot", "/nonexistent/out.svg"], "--plot: cannot write into the folder /nonexistent"),
    (["3-spot", "force-3"], "at most 2 rulesets, side by side"),
    (["--solution", "nosuch.sol"], "--solution: "),
])
def test_usage_errors(capsys, argv, message):
    code, out, err = run(capsys, "balance", "tic-tac-toe", *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"rulecraft balance: error: {message}"), err


# ---------------------------------------------------------------- the figure

def test_plot_writes_the_same_svg_for_the_same_seed(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    files = [tmp_path / "a.svg", tmp_path / "b.svg"]
    for f in files:
        code, _, err = run(capsys, "balance", "tic-tac-toe", "3-spot", "--games", "6", "--jobs", "1",
                           "--early-budget", "0", "-q", "--plot", str(f))
        assert code == 0, err
    root = ET.parse(files[0]).getroot()  # well-formed XML
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert files[0].read_bytes() == files[1].read_bytes()
    text = files[0].read_text()
    assert "game length" in text and "legal plies by ply" in text
    assert run(capsys, "balance", "tic-tac-toe", "--games", "2", "--jobs", "1", "-q",
               "--plot", str(tmp_path / "c.png"))[0] == 0
    assert (tmp_path / "c.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_says_how_to_install_it(capsys, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib: ImportError
    code, out, err = run(capsys, "balance", "tic-tac-toe", "--plot", str(tmp_path / "x.svg"))
    assert (code, out) == (2, "")
    assert err == "rulecraft balance: error: --plot needs matplotlib: pip install 'rulecraft[plot]'\n"
