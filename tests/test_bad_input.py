"""Untrusted input: every kind of bad file gets a clear error, never a traceback or a hang."""

import pytest

from rulecraft.dsl.diagnostics import RulesetError
from rulecraft.dsl.load import load

GOOD_HEAD = 'game "g"\nboard square 3 x 3\nplayers A, B\npiece p: owner A, symbol P\nsetup p: a1\n' \
            "ply s: move p step\n"


def error_of(path) -> str:
    with pytest.raises(RulesetError) as info:
        load(str(path))
    return info.value.format()


def test_missing_file(tmp_path):
    assert error_of(tmp_path / "nope.game") == f"{tmp_path}/nope.game: error: no such file"


def test_directory(tmp_path):
    (tmp_path / "d.game").mkdir()
    assert error_of(tmp_path / "d.game") == f"{tmp_path}/d.game: error: is a directory, not a ruleset file"


def test_binary_garbage(tmp_path):
    (tmp_path / "b.game").write_bytes(bytes(range(256)) * 10)
    assert error_of(tmp_path / "b.game") == f"{tmp_path}/b.game: error: not a text file (it contains NUL bytes)"


def test_not_utf8(tmp_path):
    (tmp_path / "b.game").write_bytes(b'game "caf\xe9"\n')
    assert error_of(tmp_path / "b.game") == f"{tmp_path}/b.game: error: not UTF-8 text (bad byte at offset 9)"


def test_empty_file(tmp_path):
    (tmp_path / "e.game").write_text("# nothing but a comment\n\n")
    assert error_of(tmp_path / "e.game") == f"{tmp_path}/e.game: error: empty ruleset: no declarations"


def test_ten_megabytes(tmp_path):
    (tmp_path / "big.game").write_text('game "x"\n' + "# filler line\n" * 800_000)
    assert error_of(tmp_path / "big.game") == \
        f"{tmp_path}/big.game: error: file is larger than the limit of 1,000,000 bytes"


def test_deeply_nested_expression(tmp_path):
    (tmp_path / "n.game").write_text(GOOD_HEAD + "end e: A wins if " + "1 + " * 5000 + "1 > 0\n")
    assert "error: expression nested more than 60 deep" in error_of(tmp_path / "n.game")


def test_many_parentheses_are_fine(tmp_path):
    (tmp_path / "n.game").write_text(GOOD_HEAD + "end e: A wins if " + "(" * 3000 + "1" + ")" * 3000 + " > 0\n")
    assert load(str(tmp_path / "n.game")).ends[0].name == "e"


def test_a_board_of_a_million_cells(tmp_path):
    (tmp_path / "m.game").write_text('game "m"\nboard square 52 x 20000\nplayers A, B\n')
    assert "error: a board of 1,040,000 cells is larger than the limit of 10,000 cells" \
        in error_of(tmp_path / "m.game")


def test_huge_number(tmp_path):
    (tmp_path / "h.game").write_text(GOOD_HEAD + "end e: A wins if 1" + "0" * 5000 + " > 0\n")
    assert "error: number 1000000000000000... is larger than the limit of 1,000,000,000" \
        in error_of(tmp_path / "h.game")


def test_all_errors_of_a_file_at_once(tmp_path):
    text = GOOD_HEAD + "piec q: owner A\nend e: A wins if count(zz)\nend f: B winz if 1\n"
    (tmp_path / "m.game").write_text(text)
    out = error_of(tmp_path / "m.game")
    # two syntax errors, each in its own declaration, and the other declarations' errors
    assert out.count(": error: ") == 3
    assert ":7:1: error: expected a declaration" in out
    assert ":8:24: error: unknown name 'zz'" in out
    assert ":9:10: error: expected 'lose', 'loses', 'win' or 'wins', found 'winz'" in out


def test_many_errors_are_capped(tmp_path):
    (tmp_path / "m.game").write_text(GOOD_HEAD + "".join(f"oops{i}\n" for i in range(300)))
    out = error_of(tmp_path / "m.game")
    assert out.count(": error: ") == 50
    assert out.endswith("... and 250 more errors")


def test_a_game_file_never_reaches_python(tmp_path):
    # Text that would be code in Python is just an unknown name or a syntax error here.
    (tmp_path / "x.game").write_text(GOOD_HEAD + 'end e: A wins if __import__("os")\n')
    assert "error:" in error_of(tmp_path / "x.game")
