"""Untrusted input to the search: solution files, caps on solving, perft, player specs.

Every bad input gets one clear message (no traceback) and, on the command line, exit 2.
"""

import functools
import hashlib
import json
import os
import signal
import subprocess
import sys

import pytest

from interpreter.apps import cli
from interpreter import load_game
from interpreter.search.analysis import PerftBudgetError, perft
from interpreter.search import memory, solution_file, solver
from interpreter.search.agents import make_agent
from interpreter.search.alphabeta import AlphaBeta
from interpreter.search.proof import ProofSearch, proof_value
from interpreter.search.solver import Solution, SolutionFileError, SolveError, parse_size, solve

from conftest import game_of

EMPTY = ".../.../... X"


@functools.lru_cache(maxsize=None)
def good_bytes() -> bytes:
    """A sound solution file of tic-tac-toe (with its 8 symmetries: 765 positions)."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "t.sol")
        solve(game_of("tic-tac-toe"), symmetry=True).save(path)
        with open(path, "rb") as f:
            return f.read()


def parts():
    data = good_bytes()
    hlen = int.from_bytes(data[8:12], "little")
    return json.loads(data[12:12 + hlen]), data[12 + hlen:-32]


def build(header, body=None, magic=b"RCSOLVE3", checksum=True) -> bytes:
    """A file from its parts, with a correct checksum (unless told otherwise)."""
    blob = header if isinstance(header, bytes) else json.dumps(header).encode()
    data = magic + len(blob).to_bytes(4, "little") + blob + (parts()[1] if body is None else body)
    return data + (hashlib.sha256(data).digest() if checksum else bytes(32))


def header_with(**changes):
    header = dict(parts()[0])
    for name, value in changes.items():
        if value is ...:
            del header[name]
        else:
            header[name] = value
    return header


def load_error(tmp_path, data: bytes) -> str:
    path = tmp_path / "x.sol"
    path.write_bytes(data)
    with pytest.raises(SolutionFileError) as info:
        Solution.load(str(path), game_of("tic-tac-toe"))
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    return message[len(f"{path}: "):]


def test_the_good_file_loads(tmp_path):
    path = tmp_path / "x.sol"
    path.write_bytes(build(parts()[0]))
    sol = Solution.load(str(path), game_of("tic-tac-toe"))
    assert len(sol) == 765 and sol.lookup(sol.root) == ("draw", None)
    assert path.read_bytes() == good_bytes()


# ------------------------------------------------------------------ the file itself

def test_missing_file(tmp_path):
    with pytest.raises(SolutionFileError, match="^") as info:
        Solution.load(str(tmp_path / "nope.sol"), game_of("tic-tac-toe"))
    assert str(info.value) == f"{tmp_path}/nope.sol: no such file"


def test_directory(tmp_path):
    with pytest.raises(SolutionFileError) as info:
        Solution.load(str(tmp_path), game_of("tic-tac-toe"))
    assert str(info.value) == f"{tmp_path}: is a directory, not a solution file"


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_not_a_regular_file():
    with pytest.raises(SolutionFileError) as info:
        Solution.load("/dev/null", game_of("tic-tac-toe"))
    assert str(info.value) == "/dev/null: not a regular file"


def test_nul_in_the_path_and_control_characters_are_escaped():
    with pytest.raises(SolutionFileError) as info:
        Solution.load("a\0b", game_of("tic-tac-toe"))
    assert str(info.value) == "a\\x00b: not a usable file name"
    with pytest.raises(SolutionFileError) as info:
        Solution.load("\x1b[2Jnope", game_of("tic-tac-toe"))
    assert str(info.value) == "\\x1b[2Jnope: no such file"


def test_empty_file(tmp_path):
    assert load_error(tmp_path, b"") == "empty file, not a solution file"


@pytest.mark.parametrize("data", [b"not a solution", b"RCSOLVE", b"RCSOLVEx" + bytes(40),
                                  b"\x00" * 100])
def test_not_a_solution_file(tmp_path, data):
    assert load_error(tmp_path, data) == "not a rulecraft solution file"


def test_a_file_of_the_first_format_asks_for_a_new_solve(tmp_path):
    assert load_error(tmp_path, b"RCSOLVE1" + good_bytes()[8:]) == (
        "solution format 1, from an earlier rulecraft, has no checksum and is no longer read: "
        "solve the game again (rulecraft solve FILE --save PATH)")


def test_a_file_of_the_second_format_asks_for_a_new_solve(tmp_path):
    # format 2 packed every variable, reserve and remembered slot in 16 bits; format 3
    # packs each slot as its kind needs, so a key of one means nothing to the other
    assert load_error(tmp_path, b"RCSOLVE2" + good_bytes()[8:]) == (
        "solution format 2, from an earlier rulecraft, packs its positions otherwise and is no "
        "longer read: solve the game again (rulecraft solve FILE --save PATH)")


def test_a_file_of_the_fourth_format_asks_for_a_new_solve(tmp_path):
    # format 4 ordered the native index's blocks with the type placed first varying
    # fastest, and chose among a position's images otherwise: its bits mean other positions
    assert load_error(tmp_path, b"RCSOLVE4" + good_bytes()[8:]) == (
        "solution format 4, from an earlier rulecraft, orders its index otherwise and is no "
        "longer read: solve the game again (rulecraft solve FILE --save PATH)")


def test_a_file_of_a_newer_format(tmp_path):
    assert load_error(tmp_path, b"RCSOLVE7" + good_bytes()[8:]) == \
        "solution format 7 is newer than this rulecraft reads (3, 5 and 6)"


def test_a_format_its_header_contradicts(tmp_path):
    assert load_error(tmp_path, b"RCSOLVE5" + good_bytes()[8:]) == \
        "header field 'format' says 3, its first bytes 5"


def test_cut_inside_the_first_bytes(tmp_path):
    assert load_error(tmp_path, b"RCSOLVE3\x01") == \
        "truncated: 9 bytes, too short for a solution file"


def test_huge_header_length(tmp_path):
    data = good_bytes()
    assert load_error(tmp_path, data[:8] + b"\xff\xff\xff\xff" + data[12:]) == (
        f"damaged: the header length (4,294,967,295 bytes) runs past the end of the file "
        f"({len(data):,} bytes)")


def test_header_length_over_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(solution_file, "MAX_HEADER", 100)
    hlen = int.from_bytes(good_bytes()[8:12], "little")
    assert load_error(tmp_path, good_bytes()) == \
        f"damaged: a header length of {hlen:,} bytes is over the limit of 100"


def test_truncated(tmp_path):
    data = good_bytes()
    assert load_error(tmp_path, data[:-100]) == \
        f"truncated: {len(data) - 100:,} bytes where its header announces {len(data):,}"


def test_trailing_data(tmp_path):
    data = good_bytes()
    assert load_error(tmp_path, data + b"xx") == \
        f"trailing data: {len(data) + 2:,} bytes where its header announces {len(data):,}"


# ------------------------------------------------------------------ the header

@pytest.mark.parametrize("blob, message", [
    (b"[1, 2]", "damaged header: a JSON list, not an object"),
    (b"42", "damaged header: a JSON number, not an object"),
    (b"null", "damaged header: JSON null, not an object"),
    (b'"text"', "damaged header: a JSON string, not an object"),
    (b"{\"format\": 2", "damaged header: not JSON (Expecting ',' delimiter: line 1 column 13 "
                       "(char 12))"),
    (b'{"title": "\xff"}', "damaged header: not UTF-8 text"),
    (b"[" * 100_000 + b"]" * 100_000, "damaged header: JSON nested too deeply"),
    (b'{"positions": 1' + b"0" * 5000 + b"}", "damaged header: a number too long to read"),
])
def test_header_that_is_not_an_object(tmp_path, blob, message):
    assert load_error(tmp_path, build(blob)) == message


FIELDS = ["format", "title", "players", "fingerprint", "root", "positions", "key_bytes",
          "codec", "symmetries", "seconds"]


@pytest.mark.parametrize("name", FIELDS)
def test_missing_field(tmp_path, name):
    assert load_error(tmp_path, build(header_with(**{name: ...}))) == \
        f"header field '{name}' is missing"


@pytest.mark.parametrize("name, value, message", [
    ("format", None, "header field 'format' must be 3, 5 or 6, found null"),
    ("format", 2, "header field 'format' must be 3, 5 or 6, found 2"),
    ("format", "3", "header field 'format' must be 3, 5 or 6, found \"3\""),
    ("title", None, "header field 'title' must be a string, found null"),
    ("title", 5, "header field 'title' must be a string, found 5"),
    ("players", None, "header field 'players' must be a list of player names, found null"),
    ("players", ["X", 0], "header field 'players' must be a list of player names, found [\"X\", 0]"),
    ("fingerprint", None, "header field 'fingerprint' must be 64 hexadecimal digits, found null"),
    ("fingerprint", "x", "header field 'fingerprint' must be 64 hexadecimal digits, found \"x\""),
    ("root", None, "header field 'root' must be a position's text, found null"),
    ("root", ["..."], "header field 'root' must be a position's text, found [\"...\"]"),
    ("positions", None, "header field 'positions' must be a whole number of at least 1, found null"),
    ("positions", "765", "header field 'positions' must be a whole number of at least 1, found \"765\""),
    ("positions", 0, "header field 'positions' must be a whole number of at least 1, found 0"),
    ("positions", -5, "header field 'positions' must be a whole number of at least 1, found -5"),
    ("positions", 765.0, "header field 'positions' must be a whole number of at least 1, found 765.0"),
    ("key_bytes", True, "header field 'key_bytes' must be a whole number of at least 1, found true"),
    ("key_bytes", None, "header field 'key_bytes' must be a whole number of at least 1, found null"),
    ("codec", None, "header field 'codec' must be an object, found null"),
    ("codec", [1, 2], "header field 'codec' must be an object, found [1, 2]"),
    ("symmetries", None, "header field 'symmetries' must be a list of cell permutations, found null"),
    ("symmetries", [1, 2], "header field 'symmetries' must be a list of cell permutations, "
                           "found [1, 2]"),
    ("seconds", "fast", "header field 'seconds' must be a number of seconds or null, found \"fast\""),
    ("seconds", -1, "header field 'seconds' must be a number of seconds or null, found -1"),
    ("seconds", float("nan"), "header field 'seconds' must be a number of seconds or null, found NaN"),
    ("seconds", "x" * 100, "header field 'seconds' must be a number of seconds or null, found "
                           "\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."),
])
def test_field_of_the_wrong_type(tmp_path, name, value, message):
    assert load_error(tmp_path, build(header_with(**{name: value}))) == message


def test_unknown_field(tmp_path):
    assert load_error(tmp_path, build(header_with(extra=1))) == "unknown header field \"extra\""


def test_values_that_do_not_fit_this_game(tmp_path):
    assert load_error(tmp_path, build(header_with(key_bytes=7))) == \
        "the state layout differs from this game's"
    assert load_error(tmp_path, build(header_with(codec={"types": 2}))) == \
        "the state layout differs from this game's"
    more = len(good_bytes()) + parts()[0]["key_bytes"] + 5  # one position more
    assert load_error(tmp_path, build(header_with(positions=766))) == \
        f"truncated: {len(good_bytes()):,} bytes where its header announces {more:,}"


IDENTITY = list(range(9))


@pytest.mark.parametrize("symmetries, message", [
    ([[0, 1, 2]], "entry 0 is not a permutation of the board's 9 cells (0 to 8, each once)"),
    ([IDENTITY, [0, 1, 2, 3, 4, 5, 6, 7, 99]],
     "entry 1 is not a permutation of the board's 9 cells (0 to 8, each once)"),
    ([IDENTITY, [0, 1, 2, 3, 4, 5, 6, 7, -1]],
     "entry 1 is not a permutation of the board's 9 cells (0 to 8, each once)"),
    ([IDENTITY, [0, 0, 2, 3, 4, 5, 6, 7, 8]],
     "entry 1 is not a permutation of the board's 9 cells (0 to 8, each once)"),
    ([IDENTITY, [0, 1, 2, 3, 4, 5, 6, 7, 8.0]],
     "entry 1 is not a permutation of the board's 9 cells (0 to 8, each once)"),
    ([IDENTITY, ["0", 1, 2, 3, 4, 5, 6, 7, 8]],
     "entry 1 is not a permutation of the board's 9 cells (0 to 8, each once)"),
    ([IDENTITY, IDENTITY], "entry 1 repeats an earlier one"),
])
def test_bad_symmetries(tmp_path, symmetries, message):
    assert load_error(tmp_path, build(header_with(symmetries=symmetries))) == \
        "header field 'symmetries': " + message


def test_too_many_symmetries(tmp_path, monkeypatch):
    monkeypatch.setattr(solution_file, "MAX_CANDIDATES", 1)
    assert load_error(tmp_path, build(parts()[0])) == (
        "header field 'symmetries' holds 8 permutations, more than the 1 a board may have")


def test_root_that_is_not_a_position(tmp_path):
    assert load_error(tmp_path, build(header_with(root="nonsense"))) == (
        "header field 'root' is not a position of this game (a position is "
        "`<rows> <player to move> [key=value ...]`)")


def test_root_that_the_file_does_not_hold(tmp_path):
    assert load_error(tmp_path, build(header_with(root="XOX/XOX/OXO X"))) == \
        "its start position (header field 'root') is not among its positions"


def test_solution_for_another_ruleset(tmp_path, write_game):
    path = tmp_path / "x.sol"
    path.write_bytes(good_bytes())
    other = load_game(write_game('game "Other"\nboard square 3 x 3\nplayers A, B\n'
                                 'piece p: owner A, symbol P\nsetup p: a1\n'
                                 'ply s: move p step orthogonal\n'))
    with pytest.raises(SolutionFileError) as info:
        Solution.load(str(path), other)
    assert str(info.value) == (f"{path}: this solution was made for another ruleset "
                               f"('Tic-tac-toe'), or for another version of this one: "
                               f"solve it again")


# ------------------------------------------------------------------ the data and the checksum

def test_swapped_wins_and_losses_fail_the_checksum(tmp_path):
    header, body = parts()
    n, kb = header["positions"], header["key_bytes"]
    data = bytearray(good_bytes())
    start = len(data) - 32 - len(body) + n * kb
    for i in range(start, start + n):
        if data[i] in (1, 2):
            data[i] = 3 - data[i]
    assert load_error(tmp_path, bytes(data)) == \
        "checksum mismatch: the file is damaged or was edited"


@pytest.mark.parametrize("where", ["header", "keys", "values", "remoteness", "checksum"])
def test_any_changed_byte_fails_the_checksum(tmp_path, where):
    header, body = parts()
    n, kb = header["positions"], header["key_bytes"]
    data = bytearray(good_bytes())
    base = len(data) - 32 - len(body)
    offset = {"header": data.index(b"Tic-tac-toe"), "keys": base + 3,
              "values": base + n * kb + 1, "remoteness": base + n * (kb + 1) + 2,
              "checksum": len(data) - 1}[where]
    data[offset] ^= 0x01  # the title stays a string: "Uic-tac-toe"
    assert load_error(tmp_path, bytes(data)) == \
        "checksum mismatch: the file is damaged or was edited"


def test_file_without_a_checksum_fails_it(tmp_path):
    assert load_error(tmp_path, build(parts()[0], checksum=False)) == \
        "checksum mismatch: the file is damaged or was edited"


@pytest.mark.parametrize("byte, index", [(0, 0), (7, 5), (4, 764), (255, 100)])
def test_value_byte_that_is_no_value(tmp_path, byte, index):
    header, body = parts()
    n, kb = header["positions"], header["key_bytes"]
    body = bytearray(body)
    body[n * kb + index] = byte
    assert load_error(tmp_path, build(header, bytes(body))) == \
        f"value byte {byte} at position {index:,} is not a value code (1 win, 2 lose, 3 draw)"


def test_keys_out_of_order(tmp_path):
    header, body = parts()
    kb = header["key_bytes"]
    body = bytearray(body)
    body[kb * 10:kb * 11], body[kb * 11:kb * 12] = body[kb * 11:kb * 12], body[kb * 10:kb * 11]
    assert load_error(tmp_path, build(header, bytes(body))) == \
        "the keys are not in ascending order (position 11)"


def test_key_beyond_the_state_layout(tmp_path):
    header, body = parts()
    n, kb = header["positions"], header["key_bytes"]
    body = bytearray(body)
    body[(n - 1) * kb:n * kb] = b"\xff" * kb
    assert load_error(tmp_path, build(header, bytes(body))) == \
        "key 764 does not fit the state layout"


def test_eight_byte_keys_round_trip(tmp_path, write_game):
    game = load_game(write_game(
        'game "Wide"\nboard square 6 x 5\nplayers Blue, Red\npiece blue: owner Blue, symbol B\n'
        'piece red: owner Red, symbol R\nregion goal: f5\nsetup blue: b2\nsetup red: a1\n'
        'ply step: move own piece step orthogonal\n'
        'end home: Red wins if count(red & goal) == 1\n'))
    sol = solve(game)
    assert sol.codec.key_bytes == 8
    path = tmp_path / "w.sol"
    sol.save(str(path))
    loaded = Solution.load(str(path), game)
    assert list(loaded.keys) == list(sol.keys) and loaded.values == sol.values


# ------------------------------------------------------------------ the command line

def run(capsys, *argv):
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_analyze_with_a_damaged_solution(capsys, tmp_path):
    path = tmp_path / "x.sol"
    path.write_bytes(good_bytes()[:-1])
    code, out, err = run(capsys, "analyze", "tic-tac-toe", "--position", EMPTY,
                         "--solution", str(path))
    assert code == 2 and out == ""
    assert err == (f"rulecraft analyze: error: --solution: {path}: truncated: "
                   f"{len(good_bytes()) - 1:,} bytes where its header announces "
                   f"{len(good_bytes()):,}\n")


@pytest.mark.parametrize("name, data, message", [
    ("missing.sol", None, "no such file"),
    ("empty.sol", b"", "empty file, not a solution file"),
    ("list.sol", build(b"[]"), "damaged header: a JSON list, not an object"),
])
def test_cli_analyze_and_play_with_bad_files(capsys, tmp_path, name, data, message):
    path = tmp_path / name
    if data is not None:
        path.write_bytes(data)
    code, _, err = run(capsys, "analyze", "tic-tac-toe", "--position", EMPTY, "--solution", str(path))
    assert code == 2 and err == f"rulecraft analyze: error: --solution: {path}: {message}\n"
    code, _, err = run(capsys, "play", "tic-tac-toe", "--players", f"perfect:{path},random")
    assert code == 2 and err == f"rulecraft play: error: --players: {path}: {message}\n"


def test_cli_play_with_a_directory_as_solution(capsys, tmp_path):
    code, _, err = run(capsys, "play", "tic-tac-toe", "--players", f"random,perfect:{tmp_path}")
    assert code == 2
    assert err == f"rulecraft play: error: --players: {tmp_path}: is a directory, not a solution file\n"


def test_cli_save_where_it_cannot(capsys, tmp_path):
    code, _, err = run(capsys, "solve", "tic-tac-toe", "--save", str(tmp_path))
    assert code == 2 and err == f"rulecraft solve: error: --save: {tmp_path}: is a directory\n"
    target = tmp_path / "no" / "x.sol"
    code, _, err = run(capsys, "solve", "tic-tac-toe", "--save", str(target))
    assert code == 2
    assert err == f"rulecraft solve: error: --save: {target}: no such directory {tmp_path / 'no'}\n"


def test_cli_saved_file_loads_and_the_perfect_player_uses_it(capsys, tmp_path, monkeypatch):
    path = tmp_path / "t.sol"
    code, out, _ = run(capsys, "solve", "tic-tac-toe", "--symmetry", "--save", str(path))
    assert code == 0 and f"saved: {path}" in out
    loads = []
    real_load = Solution.load
    monkeypatch.setattr(Solution, "load", lambda p, g: loads.append(p) or real_load(p, g))
    code, out, _ = run(capsys, "play", "tic-tac-toe", "--players", f"perfect:{path},perfect:{path}",
                       "--seed", "3")
    assert code == 0 and "result=draw" in out
    assert loads == [str(path)]  # both players read the one copy


# ------------------------------------------------------------------ caps on solving

def test_max_positions_on_three_musketeers(capsys):
    code, out, err = run(capsys, "solve", "three-musketeers", "--max-positions", "1000")
    assert code == 2 and out == ""
    assert err == ("rulecraft solve: error: more than 1,000 positions are reachable "
                   "(--max-positions)\n")


def test_max_positions_with_json_prints_an_error_object(capsys):
    code, out, err = run(capsys, "solve", "three-musketeers", "--max-positions", "1000", "--json")
    assert code == 2
    assert json.loads(out) == {"error": "more than 1,000 positions are reachable (--max-positions)"}
    assert err == ("rulecraft solve: error: more than 1,000 positions are reachable "
                   "(--max-positions)\n")


def test_max_positions_applies_to_the_proof_search(capsys):
    code, out, err = run(capsys, "solve", "three-musketeers", "--proof", "--max-positions", "1000",
                         "--json")
    message = "more than 1,000 positions in the proof table, and no answer yet (--max-positions)"
    assert code == 2 and json.loads(out) == {"error": message}
    assert err == f"rulecraft solve: error: {message}\n"


def test_max_memory_stops_a_solve(capsys):
    # stopped in memory, then again out of core (the tiers need more than 4 MiB too)
    code, out, err = run(capsys, "solve", "three-musketeers", "--max-memory", "4M", "--json")
    assert code == 2
    message = json.loads(out)["error"]
    assert err == ("rulecraft: the solve would pass the memory cap of 4.0 MiB in memory: "
                   "solving again out of core, a tier at a time, its blocks in a temporary "
                   f"file ($TMPDIR; --out-of-core starts so)\nrulecraft solve: error: {message}\n")
    head, _, tail = message.partition(" positions: ")
    assert head.startswith("stopped at ") and int(head[11:].replace(",", "")) > 1000
    assert tail == "the solve would need more than the memory cap of 4.0 MiB; " \
                   "--max-memory SIZE sets another cap"


def test_max_memory_stops_a_proof_search(capsys):
    code, out, err = run(capsys, "solve", "three-musketeers", "--proof", "--max-memory", "1M")
    assert code == 2 and out == ""
    assert err.startswith("rulecraft solve: error: the proof search would need more than the "
                          "memory cap of 1.0 MiB (stopped at ")
    assert err.endswith(" positions in its table, no answer yet); --max-memory SIZE sets another "
                        "cap\n")


def test_the_default_memory_cap_follows_the_available_memory(capsys, monkeypatch):
    monkeypatch.setattr(memory, "available_memory", lambda: 8 << 20)
    assert solver.default_memory_cap() == 6 << 20
    code, out, err = run(capsys, "analyze", "three-musketeers", "--position",
                         "ooooM/ooooo/ooMoo/ooooo/Moooo Musketeers")
    assert code == 2 and out == ""
    notice, error = err.split("\n", 1)  # stopped in memory, then out of core
    assert notice == ("rulecraft: the solve would pass the memory cap of 6.0 MiB in memory: "
                      "solving again out of core, a tier at a time, its blocks in a temporary "
                      "file ($TMPDIR; --out-of-core starts so)")
    assert error.startswith("rulecraft analyze: error: stopped at ")
    assert err.endswith(" positions: the solve would need more than the memory cap of 6.0 MiB "
                        "(three quarters of the memory available); --max-memory SIZE sets "
                        "another\n")


def test_the_default_memory_cap_without_a_figure(monkeypatch):
    monkeypatch.setattr(memory, "available_memory", lambda: None)
    assert solver.default_memory_cap() == 3 << 29  # 3/4 of 2 GiB


def test_available_memory_is_known_on_linux():
    if not os.path.exists("/proc/meminfo"):
        pytest.skip("not Linux")
    assert solver.available_memory() > 0


def test_a_memory_error_is_a_clean_failure(capsys, monkeypatch):
    def greedy(*args):
        raise MemoryError

    monkeypatch.setattr(solver, "_solve", greedy)
    with pytest.raises(solver.OutOfMemory, match="ran out of memory"):
        solve(game_of("tic-tac-toe"))
    code, out, err = run(capsys, "solve", "tic-tac-toe", "--json")
    message = ("ran out of memory (the machine had less free memory than the cap assumed): "
               "give a lower --max-memory")
    assert code == 2 and json.loads(out) == {"error": message}
    assert err == f"rulecraft solve: error: {message}\n"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc: Linux")
def test_running_out_of_memory_for_real():
    # An address-space limit 40 MB above what the process holds, and a cap above it: the
    # solve runs into MemoryError, which must end in the message and exit 2
    script = (
        "import resource, sys\n"
        "from interpreter import load_game\n"
        "from interpreter.apps import cli\n"
        "load_game('three-musketeers')\n"
        "vm = int(open('/proc/self/statm').read().split()[0]) * resource.getpagesize()\n"
        "resource.setrlimit(resource.RLIMIT_AS, (vm + (40 << 20), vm + (40 << 20)))\n"
        "sys.exit(cli.main(['solve', 'three-musketeers', '--max-memory', '100G']))\n")
    p = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert p.returncode == 2, p.stderr
    assert p.stderr == ("rulecraft solve: error: ran out of memory (the machine had less free "
                        "memory than the cap assumed): give a lower --max-memory\n")


@pytest.mark.parametrize("option, value, message", [
    ("--max-memory", "0", "expected a size of at least 1 byte, found '0'"),
    ("--max-memory", "lots", "expected a size such as 500M or 2G, found 'lots'"),
    ("--max-memory", "-5M", "expected a size such as 500M or 2G, found '-5M'"),
    ("--max-memory", "1" * 50, "expected a size such as 500M or 2G, found '" + "1" * 50 + "'"),
    ("--max-positions", "0", "must be a whole number of at least 1, found '0'"),
    ("--max-positions", "-4", "must be a whole number of at least 1, found '-4'"),
    ("--max-positions", "1e9", "must be a whole number of at least 1, found '1e9'"),
    ("--max-positions", "9" * 40, "must be at most 15 digits long, found '" + "9" * 27 + "...'"),
])
def test_bad_cap_values_are_usage_errors(capsys, option, value, message):
    with pytest.raises(SystemExit) as info:
        cli.main(["solve", "tic-tac-toe", f"{option}={value}"])
    assert info.value.code == 2
    assert capsys.readouterr()[1].endswith(f"rulecraft solve: error: argument {option}: {message}\n")


@pytest.mark.parametrize("text, size", [("1", 1), ("500M", 500 << 20), ("2G", 2 << 30),
                                        ("1.5g", 3 << 29), ("2GiB", 2 << 30), ("64kb", 64 << 10),
                                        (" 1T ", 1 << 40)])
def test_sizes(text, size):
    assert parse_size(text) == size


def test_solve_refuses_bad_caps_from_python():
    with pytest.raises(ValueError, match="max_memory must be a number of bytes"):
        solve(game_of("tic-tac-toe"), max_memory=-1)
    with pytest.raises(ValueError, match="max_positions must be a whole number"):
        solve(game_of("tic-tac-toe"), max_positions=0)


def test_proof_value_stopped_by_a_budget_says_so():
    # before, a search stopped by its node budget answered "draw"
    game = game_of("three-musketeers")
    with pytest.raises(SolveError) as info:
        proof_value(game, game.initial_state(), max_nodes=100)
    assert str(info.value) == "the proof search reached its node budget (101 expansions), no answer yet"


def test_proof_search_deeper_than_the_recursion_limit(write_game):
    # a race along 52 cells: the proof follows one line 51 plies deep
    game = load_game(write_game(
        'game "Line"\nboard square 52 x 1\nplayers First, Second\n'
        'piece token: neutral, symbol T\nsetup token: a1\nply push: move token step e\n'
        'end home: mover wins if count(token & Z1) == 1\n'))
    assert ProofSearch(game, 0).prove(game.initial_state()).proven is True
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 30)  # room for a line of about 20 plies only
    try:
        res = ProofSearch(game, 0).prove(game.initial_state())
    finally:
        sys.setrecursionlimit(limit)
    assert res.proven is None
    assert res.stopped == (f"the proof search followed a line of play deeper than Python's "
                           f"recursion limit ({depth + 30:,} calls), no answer yet; the "
                           f"retrograde solver handles long lines of play")


# ------------------------------------------------------------------ perft

SHUTTLE = ('game "Shuttle"\nboard square 2 x 1\nplayers First, Second\n'
           'piece token: neutral, symbol T\nsetup token: a1\n'
           'ply shuttle: move token step orthogonal\n')


def test_perft_far_deeper_than_the_recursion_limit(write_game):
    game = load_game(write_game(SHUTTLE))  # one ply from every position, forever
    assert perft(game, game.initial_state(), 5000) == 1


def test_perft_node_budget_on_a_cycling_game():
    game = game_of("three-musketeers")
    with pytest.raises(PerftBudgetError) as info:
        perft(game, game.initial_state(), 1000, max_nodes=5000)
    assert str(info.value) == "perft(1000) stopped after 5,000 positions (the node budget)"
    assert perft(game, game.initial_state(), 4, max_nodes=5000) == 736


def test_perft_matches_the_recursive_definition():
    def reference(game, state, depth):
        if depth == 0:
            return 1
        return sum(reference(game, game.apply(state, a), depth - 1)
                   for a in game.legal_actions(state))

    for name, depth in (("tic-tac-toe", 5), ("3-spot", 6), ("force-3", 3)):
        game = game_of(name)
        for d in range(depth + 1):
            assert perft(game, game.initial_state(), d) == reference(game, game.initial_state(), d)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_ctrl_c_stops_a_long_perft_with_130():
    p = subprocess.Popen(
        [sys.executable, "-c", "import sys; from interpreter.apps import cli; "
         "sys.exit(cli.main(sys.argv[1:]))", "perft", "three-musketeers", "--depth", "100"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        for line in p.stdout:
            if line.startswith("perft(6)"):
                break
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
    assert p.returncode == 130 and err == ""


# ------------------------------------------------------------------ player specs

@pytest.mark.parametrize("spec, message", [
    ("mcts:abc", "mcts's iterations must be a whole number from 1 to 100,000,000, found 'abc'"),
    ("mcts:0", "mcts's iterations must be a whole number from 1 to 100,000,000, found '0'"),
    ("mcts:-5", "mcts's iterations must be a whole number from 1 to 100,000,000, found '-5'"),
    ("mcts:²", "mcts's iterations must be a whole number from 1 to 100,000,000, found '²'"),
    ("mcts:999999999", "mcts's iterations must be a whole number from 1 to 100,000,000, "
                       "found '999999999'"),
    ("mcts:" + "9" * 5000, "mcts's iterations must be a whole number from 1 to 100,000,000, "
                           "found '999999999999999999999999999...'"),
    ("mcts:infs", "mcts's time must be a number of seconds, found 'infs'"),
    ("mcts:nans", "mcts's time must be a number of seconds, found 'nans'"),
    ("mcts:-1s", "mcts's time must be a number of seconds, found '-1s'"),
    ("mcts:0s", "mcts's time must be more than 0 and at most 86,400 seconds, found '0s'"),
    ("mcts:1e400s", "mcts's time must be more than 0 and at most 86,400 seconds, found '1e400s'"),
    ("mcts", "mcts needs an iteration count or a time: mcts:1000 or mcts:2s"),
    ("alphabeta:99999999999999999999", "alphabeta's depth must be a whole number from 1 to 500, "
                                       "found '99999999999999999999'"),
    ("alphabeta:-3", "alphabeta's depth must be a whole number from 1 to 500, found '-3'"),
    ("alphabeta:501", "alphabeta's depth must be a whole number from 1 to 500, found '501'"),
    ("alphabeta:", "alphabeta needs a depth: alphabeta:4, or alphabeta:4:2s for at most 2 "
                   "seconds a ply"),
    ("alphabeta:3:", "alphabeta's time must be a number of seconds, found ''"),
    ("alphabeta:3:x", "alphabeta's time must be a number of seconds, found 'x'"),
    ("perfect:", "perfect: needs the path of a solution file after the colon (perfect:PATH), "
                 "or no colon at all to solve first"),
    ("random:", "unknown player 'random:' (known: random, mcts:N, mcts:Ts, alphabeta:DEPTH[:T], "
                "perfect, perfect:PATH)"),
    ("\x1b[2J", "unknown player '\\x1b[2J' (known: random, mcts:N, mcts:Ts, "
                "alphabeta:DEPTH[:T], perfect, perfect:PATH)"),
])
def test_bad_player_specs(spec, message):
    with pytest.raises(ValueError) as info:
        make_agent(spec, game_of("tic-tac-toe"), seed=0)
    assert str(info.value) == message


def test_bad_player_spec_on_the_command_line(capsys):
    code, _, err = run(capsys, "play", "tic-tac-toe", "--players", "human,alphabeta:99999999999999999999")
    assert code == 2 and err == ("rulecraft play: error: --players: alphabeta's depth must be a "
                                 "whole number from 1 to 500, found '99999999999999999999'\n")


def test_good_specs_at_their_bounds():
    game = game_of("tic-tac-toe")
    s = game.state_from_text("OO./.../XX. X")
    for spec in ("mcts:1", "mcts:0.01s", "alphabeta:1", "alphabeta:2:0.5", "alphabeta:2:1s"):
        assert game.action_to_text(s, make_agent(spec, game, seed=0)(s)) == "c1"


def test_alphabeta_refuses_a_depth_beyond_its_bound():
    game = game_of("tic-tac-toe")
    with pytest.raises(ValueError, match="the depth must be from 1 to 500, found 501"):
        AlphaBeta(game).search(game.initial_state(), depth=501)


# ------------------------------------------------------------------ other input

def test_a_position_whose_variables_a_solution_cannot_store(capsys):
    code, out, err = run(capsys, "solve", "3-spot", "--position",
                         ".../RWB/RWB Blue ply=1 score=99999,0", "--json")
    message = "variable score of Blue holds 99,999, outside -32,768 to 32,767, what a solution can store"
    assert code == 2 and json.loads(out) == {"error": message}
    assert err == f"rulecraft solve: error: {message}\n"


def test_symmetry_tables_larger_than_the_cap():
    with pytest.raises(SolveError) as info:
        solve(game_of("tic-tac-toe"), symmetry=True, max_memory=1000)
    assert str(info.value) == "the symmetry tables alone would need more than the memory cap of 1,000 bytes"
    assert info.value.limit == "memory"
    with pytest.raises(SolveError, match="the symmetry tables alone"):
        ProofSearch(game_of("tic-tac-toe"), 0, symmetry=True, max_memory=1000)


def test_an_overlong_typed_line_is_refused_whole():
    import io

    from interpreter.search.agents import make_player

    game = game_of("tic-tac-toe")
    out = io.StringIO()
    human = make_player("human", game, None, io.StringIO("x" * 10_000 + "\nb2\n"), out)
    assert game.action_to_text(game.initial_state(), human(game.initial_state())) == "b2"
    assert out.getvalue() == "X> a ply is at most 4,096 characters\nX> "


def test_a_solution_missing_a_child_of_what_it_holds(tmp_path):
    # An edited file, sealed again, can pass every check of its own: analyze finds the hole.
    path = tmp_path / "x.sol"
    path.write_bytes(good_bytes())
    game = game_of("tic-tac-toe")
    sol = Solution.load(str(path), game)
    start = game.initial_state()
    i = sol._index(game.apply(start, game.action_from_text(start, "b2")))
    for column in (sol.keys, sol.values, sol.remoteness):
        del column[i]
    with pytest.raises(SolutionFileError, match=r"^the solution holds \.\.\./\.\.\./\.\.\. X but not "
                                                 r"the position after b2: it is not a whole solution "
                                                 r"\(was it edited\?\)$"):
        sol.analyze(start)


@pytest.mark.parametrize("swap, message", [
    ([1, 0], 'must be an object of "cells" and "types"'),
    ({"cells": IDENTITY}, 'must be an object of "cells" and "types"'),
    ({"cells": IDENTITY, "types": [1, 0], "more": 1}, 'must be an object of "cells" and "types"'),
    ({"cells": IDENTITY[:8], "types": [1, 0]},
     "its cells are not a permutation of the board's 9 cells"),
    ({"cells": IDENTITY, "types": [0, 0]},
     "its types do not exchange the game's 2 piece types in pairs"),
    ({"cells": IDENTITY, "types": [1, True]},
     "its types do not exchange the game's 2 piece types in pairs"),
])
def test_bad_swap_of_the_players(tmp_path, swap, message):
    expected = "header field 'swap'" + (" " if message.startswith("must") else ": ") + message
    assert load_error(tmp_path, build(header_with(swap=swap))) == expected
