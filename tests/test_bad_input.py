"""Untrusted input: every kind of bad file gets a clear error, never a traceback or a hang."""

import os
import time

import pytest

from dsl.diagnostics import RulesetError
from dsl.load import load

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
        f"{tmp_path}/big.game: error: file is larger than the limit of 64,000 bytes"


def test_deeply_nested_expression(tmp_path):
    (tmp_path / "n.game").write_text(GOOD_HEAD + "end e: A wins if " + "1 + " * 5000 + "1 > 0\n")
    assert "error: expression nested more than 60 deep" in error_of(tmp_path / "n.game")


def test_a_hundred_parentheses_are_fine(tmp_path):
    (tmp_path / "n.game").write_text(GOOD_HEAD + "end e: A wins if " + "(" * 100 + "1" + ")" * 100 + " > 0\n")
    assert load(str(tmp_path / "n.game")).ends[0].name == "e"


def test_a_board_of_a_million_cells(tmp_path):
    (tmp_path / "m.game").write_text('game "m"\nboard square 52 x 20000\nplayers A, B\n')
    assert "error: a board of 1,040,000 cells is larger than the limit of " in error_of(tmp_path / "m.game")


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
    # The parser stops at the 50th syntax error: the rest of the file is not even read.
    (tmp_path / "m.game").write_text(GOOD_HEAD + "".join(f"oops{i}\n" for i in range(300)))
    out = error_of(tmp_path / "m.game")
    assert out.count(": error: ") == 50
    assert out.endswith(":56:1: error: expected a declaration (game, board, players, piece, setup, ply, "
                        "turn, end, ...), found 'oops49'\n    oops49\n    ^~~~~~\n"
                        "... too many errors; stopping")


def test_many_checker_errors_are_all_counted(tmp_path):
    # Declarations that parse are all checked; past 50, the rest are counted.
    (tmp_path / "m.game").write_text(GOOD_HEAD + "".join(f"end e{i}: A wins if z{i}\n" for i in range(80)))
    out = error_of(tmp_path / "m.game")
    assert out.count(": error: ") == 50
    assert out.endswith("... and 30 more errors")


def test_a_game_file_never_reaches_python(tmp_path):
    # Text that would be code in Python is just an unknown name or a syntax error here.
    (tmp_path / "x.game").write_text(GOOD_HEAD + 'end e: A wins if __import__("os")\n')
    assert "error:" in error_of(tmp_path / "x.game")


# ---------------------------------------------------------------- what a file may hold

def shown_error(path) -> str:
    """The error of a file, paths printed from the file name on."""
    return error_of(path).replace(str(path.parent) + "/", "")


def test_a_byte_order_mark_is_ignored_and_columns_stay_right(tmp_path):
    path = tmp_path / "b.game"
    path.write_bytes("\ufeff".encode() + (GOOD_HEAD + "end e: A wins if zz\n").encode())
    assert shown_error(path) == ("b.game:7:18: error: unknown name 'zz'\n"
                                 "    end e: A wins if zz\n"
                                 "                     ^~")
    path.write_bytes('\ufeffgame "x" $\n'.encode())
    assert shown_error(path) == ("b.game:1:10: error: unexpected character '$'\n"
                                 '    game "x" $\n'
                                 "             ^")
    path.write_bytes("\ufeff".encode() + GOOD_HEAD.encode())
    assert load(str(path)).title == "g"


def test_windows_line_ends_are_fine(tmp_path):
    path = tmp_path / "w.game"
    path.write_bytes((GOOD_HEAD + "end e: A wins if zz\n").replace("\n", "\r\n").encode())
    assert shown_error(path) == ("w.game:7:18: error: unknown name 'zz'\n"
                                 "    end e: A wins if zz\n"
                                 "                     ^~")


CONTROL_HINT = "  hint: delete it (most editors do not show it; it may have come with pasted text)"


def control_error(line: int, col: int, code: str, source: str, caret: str) -> str:
    return (f"c.game:{line}:{col}: error: control character U+{code} is not allowed; a ruleset is plain "
            f"text (tabs and line ends aside)\n    {source}\n    {caret}\n{CONTROL_HINT}")


def test_an_escape_sequence_in_the_title_is_an_error_shown_escaped(tmp_path):
    path = tmp_path / "c.game"
    path.write_text('game "\x1b[31mRed\x1b[0m"\n' + GOOD_HEAD.split("\n", 1)[1])
    out = shown_error(path)
    assert "\x1b" not in out  # nothing raw reaches the terminal
    assert out == control_error(1, 7, "001B", r'game "\x1b[31mRed\x1b[0m"', "      ^~~~")


def test_control_characters_anywhere(tmp_path):
    path = tmp_path / "c.game"
    path.write_text(GOOD_HEAD.replace("symbol P", 'symbol "\x07"') + "# a comment \x9b\n"
                    + "end e: A wins if\n\tcount(p) \x0c> 0\n" + "end f: B wins if 1 \r== 1\n")
    out = shown_error(path)
    assert not any(ch in out for ch in "\x07\x9b\x0c\r\t")
    assert out == "\n".join([
        control_error(4, 27, "0007", r'piece p: owner A, symbol "\x07"', " " * 26 + "^~~~"),
        control_error(7, 13, "009B", r"# a comment \x9b", " " * 12 + "^~~~"),
        control_error(9, 11, "000C", r" count(p) \x0c> 0", " " * 10 + "^~~~"),
        control_error(10, 20, "000D", r"end f: B wins if 1 \x0d== 1", " " * 19 + "^~~~"),
    ])


def test_bidirectional_overrides_are_refused(tmp_path):
    path = tmp_path / "c.game"
    path.write_text(GOOD_HEAD + 'end e: A wins if count(p) == 0 # \u202e }\n')
    assert shown_error(path) == control_error(7, 34, "202E", r"end e: A wins if count(p) == 0 # \u202e }",
                                              " " * 33 + "^~~~~~")


def test_the_source_line_is_escaped_and_the_caret_stays_under_its_token(tmp_path):
    # A control character on the line of another error (here: in another declaration's
    # continuation is impossible, so through the API) is shown escaped, the caret moved.
    from dsl.diagnostics import Diagnostic
    from dsl.syntax import Span
    d = Diagnostic(Span("f", 1, 8, 1, 10), "unknown name 'zz'")
    assert d.format({"f": "a \x1b\x1b b zz c\n"}) == ("f:1:8: error: unknown name 'zz'\n"
                                                       "    a \\x1b\\x1b b zz c\n"
                                                       "    " + " " * 13 + "^~")
    assert Diagnostic(None, "bad \x1b[2J", "\u202e", file="x\udcff.game").format() == (
        "x\\xff.game: error: bad \\x1b[2J\n  hint: \\u202e")


def test_a_long_name_is_clipped_in_messages(tmp_path):
    path = tmp_path / "l.game"
    path.write_text(GOOD_HEAD + "end e: A wins if " + "x" * 5000 + " $\n")
    out = shown_error(path)
    assert len(out) < 1500
    assert "error: unexpected character '$'" in out


# ---------------------------------------------------------------- the cost of bad files

def timed_error(path) -> tuple[str, float]:
    begin = time.perf_counter()
    out = error_of(path)
    return out, time.perf_counter() - begin


def test_thirty_thousand_syntax_errors_answer_at_once(tmp_path):
    path = tmp_path / "e.game"
    path.write_text(GOOD_HEAD + "x\n" * 31_000)
    out, seconds = timed_error(path)
    assert out.count(": error: ") == 50 and out.endswith("... too many errors; stopping")
    assert seconds < 5


def test_thousands_of_checker_errors_answer_quickly(tmp_path):
    path = tmp_path / "e.game"
    path.write_text(GOOD_HEAD + "".join(f"end e{i}: A wins if z{i}\n" for i in range(2000)))
    out, seconds = timed_error(path)
    assert out.endswith("... and 1950 more errors")
    assert seconds < 5


def test_thirty_thousand_control_characters(tmp_path):
    path = tmp_path / "e.game"
    path.write_text(GOOD_HEAD + "\x1b\n" * 30_000)
    out, seconds = timed_error(path)
    assert out.count(": error: control character U+001B") == 50
    assert out.endswith("... too many errors; stopping") and "\x1b" not in out
    assert seconds < 5


def test_parentheses_nested_past_the_limit_never_reach_the_parser(tmp_path):
    path = tmp_path / "p.game"
    path.write_text(GOOD_HEAD + "end e: A wins if " + "(" * 101 + "1" + ")" * 101 + " > 0\n")
    assert shown_error(path) == (
        "p.game:7:118: error: parentheses nested more than 100 deep\n"
        "    ..." + "(" * 51 + "1" + ")" * 48 + "...\n"  # the caret under the 101st
        "    " + " " * 53 + "^\n"
        "  hint: split the expression into regions or simpler rules")
    for text, col, what in (("(" * 63_000, 118, "parentheses"), ("x[" * 31_000, 219, "brackets"),
                            ("(" * 31_000 + "1" + ")" * 31_000 + " > 0", 118, "parentheses"),
                            ("-(" * 31_000 + "1", 219, "parentheses")):
        path.write_text(GOOD_HEAD + "end e: A wins if " + text + "\n")
        out, seconds = timed_error(path)
        assert out.startswith(f"{path}:7:{col}: error: {what} nested more than 100 deep\n")
        assert out.count(": error: ") == 1 and seconds < 5


def test_parentheses_in_strings_and_comments_do_not_count(tmp_path):
    path = tmp_path / "p.game"
    path.write_text(GOOD_HEAD.replace('game "g"', 'game "' + "(" * 200 + '"')
                    + "# " + "(" * 200 + "\nend e: A wins if (1) > 0\n")
    assert load(str(path)).title == "(" * 200


def test_a_long_expression_just_under_the_size_limit(tmp_path):
    path = tmp_path / "l.game"
    path.write_text(GOOD_HEAD + "end e: A wins if " + "1 + " * 15_000 + "1 > 0\n")
    out, seconds = timed_error(path)
    assert "error: expression nested more than 60 deep" in out and seconds < 5


def test_formatting_splits_a_source_once():
    from dsl.diagnostics import source_lines
    text = "a\r\nb\x0cc\n\u2028d\n"
    assert source_lines(text) == ["a", "b\x0cc", "\u2028d", ""]
    assert source_lines(text) is source_lines(text)  # cached, not split again


# ---------------------------------------------------------------- files that are not rulesets

def test_a_fifo_is_refused_without_waiting(tmp_path):
    path = tmp_path / "f.game"
    os.mkfifo(path)
    assert error_of(path) == f"{path}: error: is not a regular file (a device, a pipe or a socket), " \
                             "not a ruleset file"


def test_a_device_is_refused(tmp_path):
    os.symlink("/dev/zero", tmp_path / "z.game")  # the link's name ends in .game, the file's not
    assert error_of(tmp_path / "z.game").startswith(
        f"{tmp_path}/z.game: error: not a ruleset file: a link to a file whose name does not end in .game\n"
        "  hint: a path to a .game file, or a bundled ruleset: 3-a-side, ")
    assert load_error_of_path("/dev/null.game") == "/dev/null.game: error: no such file"


def load_error_of_path(path: str) -> str:
    with pytest.raises(RulesetError) as info:
        load(path)
    return info.value.format()


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_a_file_without_read_permission(tmp_path):
    path = tmp_path / "p.game"
    path.write_text(GOOD_HEAD)
    path.chmod(0)
    assert error_of(path) == f"{path}: error: cannot read: Permission denied"


def test_a_file_that_cannot_be_opened(tmp_path, monkeypatch):
    # The same as above where tests run as root: opening fails with EACCES.
    path = tmp_path / "p.game"
    path.write_text(GOOD_HEAD)

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", refuse)
    assert error_of(path) == f"{path}: error: cannot read: Permission denied"


@pytest.mark.parametrize("name", ["/etc/passwd", "/proc/self/status", "../../../../../../etc/passwd",
                                  "/etc", "/dev/zero", "notes.txt"])
def test_a_path_not_ending_in_game_is_never_read(name):
    out = load_error_of_path(name)
    assert out.startswith(f"{name}: error: not a ruleset file: its name does not end in .game\n"
                          "  hint: a path to a .game file, or a bundled ruleset: 3-a-side, ")
    assert out.count("\n") == 1  # one error, no line of the file
