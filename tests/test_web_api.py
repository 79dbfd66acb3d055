"""The web page's API (interpreter/apps/web/api.py) without a browser: as pure functions, in
the worker pool, and over HTTP with Starlette's TestClient when the `web` extra is
installed."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import warnings

import pytest

from dsl.diagnostics import RulesetError
from interpreter import load_game_from_text
from interpreter.apps.records import parse_record, replay
from interpreter.apps.web import api

from conftest import all_rulesets

TTT = api.bundled_text("tic-tac-toe")
BROKEN = TTT.replace("onto empty", "onto emptyy").replace("line(3,", "line(3")


def handle(op: str, **request) -> dict:
    return api.handle(op, request)


# ------------------------------------------------------------------ check

def test_check_gives_the_checkers_diagnostics_exactly():
    answer = handle("check", text=BROKEN)
    assert answer["ok"] is False
    with pytest.raises(RulesetError) as e:
        load_game_from_text(BROKEN, api.EDITOR)
    expected = [(d.span.line, d.span.col, d.span.end_line, d.span.end_col, d.message, d.hint)
                for d in e.value.diagnostics]
    got = [(d["line"], d["col"], d["end_line"], d["end_col"], d["message"], d["hint"])
           for d in answer["diagnostics"]]
    assert got == expected
    assert got == [(11, 32, 11, 38, "unknown name 'emptyy'", "did you mean 'empty'?"),
                   (14, 32, 14, 35, "expected ')', ',', 'and', 'in', 'or', a comparison (==, <, >=, ...) "
                                    "or an operator, found 'own'", None)]
    assert all(d["in_text"] for d in answer["diagnostics"])
    assert answer["diagnostics"][0]["text"].startswith("ruleset.game:11:32: error: unknown name 'emptyy'\n")


def test_check_of_a_good_ruleset():
    assert handle("check", text=TTT) == {"ok": True, "title": "Tic-tac-toe", "players": ["X", "O"],
                                         "diagnostics": [], "warnings": [],
                                         "perfect": {"offered": True, "why": ""}}
    assert handle("check", ruleset="3-spot-misere")["ok"] is True


def test_check_gives_the_warnings_of_a_good_ruleset():
    text = TTT.replace("end line: mover wins", "end line: X wins")
    answer = handle("check", text=text)
    assert answer["ok"] is True
    [w] = answer["warnings"]
    assert (w["line"], w["message"].split(":")[0]) == (14, "'own' in an end rule means the player who made the last ply, whoever that is, yet this rule names X")
    assert w["text"].startswith(f"{api.EDITOR}:14:")


def test_a_variant_of_a_bundled_ruleset_checks_and_a_base_on_disk_is_refused():
    assert handle("check", text='variant of "3-spot"\n')["ok"] is True
    answer = handle("check", text='# a file of the machine\nvariant of "/etc/secret.game"\n')
    [d] = answer["diagnostics"]
    assert (d["line"], d["col"], d["message"]) == (2, 12, "base ruleset '/etc/secret.game' is not a bundled ruleset")


def test_a_text_over_the_size_limit_is_refused_with_a_message():
    answer = handle("check", text="# " + "x" * 300_000 + "\n")
    [d] = answer["diagnostics"]
    assert d["message"] == "text is larger than the limit of 64,000 bytes"
    assert answer["ok"] is False


def test_bad_requests_are_errors_not_exceptions():
    assert handle("check")["error"].startswith("the request needs `text`")
    assert api.handle("view", [1, 2])["error"] == "the request must be a JSON object"
    assert api.handle("solve", {})["status"] == 404
    assert handle("view", ruleset="chess")["error"] == "no bundled ruleset named 'chess'"
    assert handle("view", ruleset="tic-tac-toe", plies="b2")["error"] == "`plies` must be a list of plies in notation"
    assert handle("view", text=BROKEN)["status"] == 422


# ------------------------------------------------------------------ the board and plies

@pytest.mark.parametrize("name", all_rulesets())
def test_the_view_of_a_bundled_game_has_every_cell(name):
    view = handle("view", ruleset=name)
    drawn = set(re.findall(r'class="(?:cell|goal)" data-cell="([^"]+)"', view["svg"]))
    assert set(view["cells"]) <= drawn and view["cells"]
    assert view["to_move"] == view["players"][0] and view["result"] is None
    assert view["legal"] and all(set(p["from"] + p["to"]) <= drawn for p in view["legal"])


def test_playing_plies_by_notation():
    view = handle("play", ruleset="tic-tac-toe", plies=["b2"], ply="A1")  # typed as a person may
    assert view["plies"] == ["b2", "a1"]
    assert view["moves"] == [{"number": 1, "player": "X", "ply": "b2"},
                             {"number": 2, "player": "O", "ply": "a1"}]
    assert view["to_move"] == "X" and view["position"] == ".../.X./O.. X"
    assert {"ply": "c3", "from": [], "to": ["c3"]} in view["legal"] and len(view["legal"]) == 7
    assert 'class="last"' in view["svg"]
    won = handle("view", ruleset="tic-tac-toe", plies=["a1", "a2", "b1", "b2", "c1"])
    assert won["result"] == "X wins" and won["to_move"] is None and won["legal"] == []


def test_the_legal_plies_read_as_the_move_list_and_the_cli():
    view = handle("view", ruleset="three-musketeers")
    plies = sorted(p["ply"] for p in view["legal"])  # every opening ply takes an enemy
    assert plies == ["a1xa2", "a1xb1", "c3xb3", "c3xc2", "c3xc4", "c3xd3", "e5xd5", "e5xe4"]
    after = handle("play", ruleset="three-musketeers", plies=[], ply="c3-c2")  # typed with -
    assert after["moves"] == [{"number": 1, "player": "Musketeers", "ply": "c3xc2"}]


def test_moves_are_numbered_by_turn_as_records_number_them():
    plies = ["c1+c2-c2+c3", "b1+b2-a3+b3", "a1+a2-a1+b1", "a3+b3-a2+b2"]  # 3-Spot: two a turn
    view = handle("view", ruleset="3-spot", plies=plies)
    assert [(m["number"], m["player"]) for m in view["moves"]] == [(1, "Blue"), (1, "Blue"), (2, "Red"), (2, "Red")]
    record = parse_record(handle("record", ruleset="3-spot", plies=plies)["record"], "r.txt")
    assert (record.plies, record.movers) == (plies, ["Blue", "Blue", "Red", "Red"])


def test_an_illegal_ply_is_refused_with_the_games_message():
    answer = handle("play", ruleset="tic-tac-toe", plies=["b2"], ply="b2")
    assert answer["status"] == 400 and "'b2' is not a legal ply" in answer["error"]
    answer = handle("view", ruleset="tic-tac-toe", plies=["b2", "b2", "a1"])
    assert answer["bad_ply"] == 1 and answer["error"].startswith("ply 2, b2: ")
    kept = handle("view", ruleset="tic-tac-toe", plies=["b2", "b2", "a1"], lenient=True)
    assert kept["plies"] == ["b2"] and kept["dropped"] == 2


def test_a_piece_selected_shows_its_targets():
    view = handle("view", ruleset="three-musketeers", select="c3")
    assert view["selected"] == "c3" and view["targets"] == ["c2", "b3", "d3", "c4"]
    assert sorted(re.findall(r'class="target" data-cell="(\w+)"', view["svg"])) == ["b3", "c2", "c4", "d3"]
    spot = handle("view", ruleset="3-spot", select="c1")  # a piece covering two cells
    assert spot["targets"] == ["c2", "a3", "b3", "c3"]
    assert {"ply": "c1+c2-b3+c3", "from": ["c1", "c2"], "to": ["b3", "c3"]} in spot["legal"]


def test_undo_goes_back_to_the_persons_last_ply():
    plies = ["b2", "a1", "c1", "a3"]
    back = handle("undo", ruleset="tic-tac-toe", plies=plies, players=["human", "random"])
    assert back["plies"] == ["b2", "a1"]
    back = handle("undo", ruleset="tic-tac-toe", plies=plies[:3], players=["human", "random"])
    assert back["plies"] == ["b2", "a1"]
    back = handle("undo", ruleset="tic-tac-toe", plies=plies, players=["human", "human"])
    assert back["plies"] == plies[:3]
    back = handle("undo", ruleset="tic-tac-toe", plies=plies[:1], players=["random", "human"])
    assert back["plies"] == []
    assert handle("undo", ruleset="tic-tac-toe", plies=plies, players=["human"])["status"] == 400


def test_a_machine_reply_is_legal_and_seeded():
    first = handle("machine", ruleset="three-musketeers", plies=["c3xc4"], player="random", seed=7)
    again = handle("machine", ruleset="three-musketeers", plies=["c3xc4"], player="random", seed=7)
    assert first["plies"] == again["plies"] and len(first["plies"]) == 2
    assert first["moves"][1]["player"] == "Enemy" and first["to_move"] == "Musketeers"
    for player in ("mcts:30", "mcts:0.05s", "alphabeta:2"):
        assert len(handle("machine", ruleset="three-musketeers", plies=[], player=player)["plies"]) == 1


def test_the_perfect_player_answers_the_centre_with_a_corner():
    for seed in range(4):  # against b2 only a corner holds the draw
        reply = handle("machine", ruleset="tic-tac-toe", plies=["b2"], player="perfect", seed=seed)
        assert reply["plies"][1] in ("a1", "c1", "a3", "c3")


def test_machine_players_are_bounded(monkeypatch):
    def error(player: str) -> str:
        return handle("machine", ruleset="tic-tac-toe", plies=[], player=player)["error"]

    assert error("mcts:100000000") == "mcts:100000000: a number above 0 and at most 50000 on this page"
    assert error("alphabeta:40") == "alphabeta:40: a number above 0 and at most 12 on this page"
    assert error("mcts:60s") == "mcts:60s: a number above 0 and at most 5 on this page"
    assert error("perfect:/etc/passwd").startswith("unknown player 'perfect:/etc/passwd'")
    monkeypatch.setattr(api, "MAX_SOLVE_POSITIONS", 1000)
    api._cache.clear()
    answer = handle("machine", text=api.bundled_text("three-musketeers") + "\n", plies=[], player="perfect")
    assert answer["error"].startswith("perfect play is not offered: the game cannot be solved here: "
                                      "more than 1,000 positions")
    over = handle("machine", ruleset="tic-tac-toe", plies=["a1", "a2", "b1", "b2", "c1"], player="random")
    assert over["error"] == "the game is over"
    api._cache.clear()


def test_perfect_is_asked_for_before_it_is_offered(monkeypatch):
    api._cache.clear()
    assert handle("perfect", ruleset="tic-tac-toe") == {"perfect": True, "positions": 5478}
    three = TTT.replace("players X, O", "players X, O, Z").replace("symbol X/O", "symbol X/O/Z")
    assert handle("perfect", text=three) == {"perfect": False, "why": (
        "perfect play is not offered: the game cannot be solved here: the solver finds win, "
        "loss and draw values of two-player games; Tic-tac-toe has 3 players (play it with "
        "mcts, alphabeta or random players; count its plies with perft)")}
    monkeypatch.setattr(api, "MAX_SOLVE_POSITIONS", 1000)
    assert handle("perfect", text=TTT + "\n") == {"perfect": False, "why": (
        "perfect play is not offered: the game cannot be solved here: more than 1,000 "
        "positions are reachable")}
    api._cache.clear()


def test_check_says_whether_perfect_can_play_without_solving(monkeypatch):
    def unsolved(*args, **kwargs):
        raise AssertionError("solved on a check")

    monkeypatch.setattr(api, "solve", unsolved)
    api._cache.clear()
    assert handle("check", ruleset="tic-tac-toe")["perfect"] == {"offered": True, "why": ""}
    assert handle("check", ruleset="whistling-captures")["perfect"] == {"offered": False, "why": (
        "perfect play is not offered: the game cannot be solved here: more than 500,000 "
        "positions are reachable")}
    assert handle("check", text=TTT + "# mine\n")["perfect"] == {"offered": None, "why": ""}
    three = TTT.replace("players X, O", "players X, O, Z").replace("symbol X/O", "symbol X/O/Z")
    assert handle("check", text=three)["perfect"]["offered"] is False
    api._cache.clear()


def test_every_bundled_ruleset_has_its_verdict():
    """verdicts.json is worked out again after a bundled ruleset is edited (see verdicts.py)."""
    from interpreter.apps.web.verdicts import text_key, verdicts

    assert {name: v["sha256"] for name, v in verdicts().items()} == {
        name: text_key(api.bundled_text(name)) for name in api.bundled_names()}


@pytest.mark.slow
def test_the_verdicts_are_the_solvers():
    from interpreter.apps.web.make_verdicts import work_out
    from interpreter.apps.web.verdicts import verdicts

    api._cache.clear()
    assert work_out() == verdicts()
    api._cache.clear()


def test_a_game_is_solved_once_whichever_worker_asks(monkeypatch, tmp_path):
    """The workers share a folder: what one solved (or found too large), another reads."""
    api._cache.clear()
    monkeypatch.setattr(api, "_solutions", [str(tmp_path)])
    monkeypatch.setattr(api, "MAX_SOLVE_POSITIONS", 1000)
    small = handle("perfect", text=TTT)  # tic-tac-toe: 5,478 positions
    assert small["perfect"] is False
    monkeypatch.setattr(api, "MAX_SOLVE_POSITIONS", 10_000)
    api._cache.clear()  # another worker: found too large all the same, without solving
    assert handle("perfect", text=TTT) == small
    key = api.compiled(TTT).key
    (tmp_path / f"{key}.why").unlink()
    api._cache.clear()
    assert handle("perfect", text=TTT) == {"perfect": True, "positions": 5478}
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{key}.solution"]

    def unsolved(*args, **kwargs):
        raise AssertionError("solved twice")

    monkeypatch.setattr(api, "solve", unsolved)
    api._cache.clear()  # a third worker: reads the solution, and plays from it
    reply = handle("machine", text=TTT, plies=["b2"], player="perfect")
    assert reply["plies"][1] in ("a1", "c1", "a3", "c3")
    api._cache.clear()


def test_the_record_is_the_game_record_text():
    plies = ["b2", "a1", "c3"]
    answer = handle("record", text=TTT, ruleset="tic-tac-toe", plies=plies, players=["human", "random"])
    assert answer["filename"] == "tic-tac-toe.record"
    text = answer["record"]
    assert text.startswith("# rulecraft game record\nGame: Tic-tac-toe\nRuleset: tic-tac-toe\n")
    assert "Players: human, random\nResult: game going on\n\n1. X b2\n2. O a1\n3. X c3\n" in text
    rec = parse_record(text, "game.record")
    assert rec.plies == plies and len(replay(rec, api.compiled(TTT).game, text)) == 4
    edited = handle("record", text=TTT + "\n", ruleset="tic-tac-toe", plies=plies)
    assert edited["filename"] == "ruleset.record" and "Ruleset: ruleset.game\n" in edited["record"]


def test_the_cache_is_bounded():
    for k in range(api.CACHE_SIZE + 3):
        api.compiled(TTT + f"# {k}\n")
    assert len(api._cache) == api.CACHE_SIZE


# ------------------------------------------------------------------ the worker pool

def test_the_pool_stops_a_request_past_its_time_limit_and_goes_on():
    from interpreter.apps.web.worker import Pool

    pool = Pool(1, limit=1.0)
    try:
        slow = pool.call("machine", {"ruleset": "whistling-captures", "player": "mcts:5s"})
        assert slow["status"] == 503
        assert slow["error"].startswith("the request took longer than the limit of 1 seconds and was stopped")
        pool.limit = 60.0  # the new worker's first answer, which a loaded machine may slow
        assert pool.call("check", {"ruleset": "tic-tac-toe"})["ok"] is True
    finally:
        pool.close()


# ------------------------------------------------------------------ over HTTP

needs_web = pytest.mark.skipif(
    not all(importlib.util.find_spec(m) for m in ("starlette", "uvicorn", "httpx")),
    reason="the web extra is not installed (pip install 'rulecraft[web,browser]')")


@pytest.fixture(scope="module")
def client():
    if not all(importlib.util.find_spec(m) for m in ("starlette", "uvicorn", "httpx")):
        pytest.skip("the web extra is not installed (pip install 'rulecraft[web,browser]')")
    with warnings.catch_warnings():  # newer Starlette prefers httpx2 to httpx: either works
        warnings.filterwarnings("ignore", message=".*httpx2")
        from starlette.testclient import TestClient

    from interpreter.apps.web.app import make_app

    with TestClient(make_app(workers=1, hosts=["testserver"])) as c:
        yield c


@needs_web
def test_http_check_and_play(client):
    r = client.post("/api/check", json={"text": BROKEN})
    assert r.status_code == 200 and r.json()["diagnostics"][0]["message"] == "unknown name 'emptyy'"
    r = client.post("/api/play", json={"ruleset": "tic-tac-toe", "plies": ["b2"], "ply": "a1"})
    assert r.status_code == 200 and r.json()["plies"] == ["b2", "a1"]
    r = client.post("/api/play", json={"ruleset": "tic-tac-toe", "plies": ["b2"], "ply": "b2"})
    assert r.status_code == 400 and "is not a legal ply" in r.json()["error"]
    assert client.get("/api/rulesets").json()["names"] == all_rulesets()
    assert client.get("/api/rulesets/tic-tac-toe").json()["text"] == TTT


@needs_web
def test_http_refuses_an_oversize_body_with_a_clear_message(client):
    body = json.dumps({"text": "#" * (api.MAX_BODY + 10)})
    r = client.post("/api/check", content=body, headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json() == {"error": "the request is larger than the limit of 256 KB"}


@needs_web
def test_http_refuses_a_huge_ruleset_text_at_once(client):
    text = "game \"x\"\n" + "piece p: owner each, symbol P/Q\n" * 6000  # ~200 KB
    r = client.post("/api/check", json={"text": text})
    assert r.status_code == 200
    assert r.json()["diagnostics"][0]["message"] == "text is larger than the limit of 64,000 bytes"


@needs_web
def test_http_errors_are_json(client):
    r = client.post("/api/check", content="text=1", headers={"Content-Type": "text/plain"})
    assert r.status_code == 415 and r.json()["error"].startswith("send a JSON object")
    r = client.post("/api/check", content="{", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json() == {"error": "the request is not valid JSON"}
    assert client.get("/nowhere").json() == {"error": "Not Found"}
    assert client.get("/api/rulesets/nope").status_code == 404
    assert client.post("/api/solve", json={}).status_code == 404
    r = client.get("/", headers={"Host": "evil.example"})
    assert r.status_code == 400 and r.json()["error"].startswith("this server answers only for")


@needs_web
def test_http_serves_the_page_and_its_files_with_a_strict_policy(client):
    r = client.get("/")
    assert r.status_code == 200 and '<script src="/static/app.js"' in r.text
    assert r.headers["content-security-policy"].startswith("default-src 'self'")
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert "http" not in re.sub(r"https?://www\.w3\.org", "", r.text)  # nothing from elsewhere


def test_serve_without_the_web_extra_says_what_to_install(monkeypatch, capsys):
    from interpreter.apps import cli

    for name in [m for m in sys.modules if m.split(".")[0] in ("starlette", "uvicorn")] + ["starlette"]:
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed
    monkeypatch.delitem(sys.modules, "interpreter.apps.web.app", raising=False)
    # (an address that cannot be listened on, should the import ever succeed: no server starts)
    assert cli.main(["serve", "--no-browser", "--host", "256.0.0.1"]) == 2
    assert capsys.readouterr().err == ("rulecraft serve: error: the web page needs Starlette and "
                                       "Uvicorn: pip install 'rulecraft[web]'\n")
