"""Names and strings to put in every slot: the generated code's own identifiers, Python's
builtins and keywords, the grammar's words, hostile strings, huge numbers, and a canary.

The colliders are collected from the code itself, not typed in: the identifiers of the
Python source that the Python back-end (interpreter/python/, dsl/constructs/) writes for every bundled ruleset, the names
interpreter/python/compile.py puts in that module's namespace, the identifiers quoted in
those modules and compile.py (what they may emit), Python's builtins and keywords.
"""

from __future__ import annotations

import builtins
import functools
import glob
import io
import keyword
import os
import re
import tokenize

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

# Named in issue #11, and what a splice of user text into source would most likely hit.
ALWAYS = ["BIT", "occ", "add", "exec", "eval", "s", "a", "b", "frm", "tgt", "here", "len",
          "range", "print", "__import__", "__builtins__", "__name__", "globals", "locals",
          "open", "compile", "setattr", "getattr", "object", "type", "self", "cls", "None",
          "True", "False", "lambda", "import", "def", "class", "return", "yield", "pass",
          "del", "global", "nonlocal", "async", "await", "with", "try", "except", "raise",
          "assert", "while", "for", "if", "else", "elif", "in", "is", "not", "and", "or",
          "acts", "found", "stack", "route", "routes", "removed", "captured", "keep", "slot",
          "pieces", "dests", "limit", "path", "seen", "t", "c", "d", "n", "i", "u", "m", "x"]

# A name that, spliced into generated code as an identifier, would be a new global; as
# part of a string spliced unescaped, the code below would create the canary file.
CANARY_NAME = "rc_fuzz_canary_global"
CANARY_ATTR = "rc_fuzz_canary_pwned"


CANARY_FILE = "rc-fuzz-canary"


def canary_path() -> str:
    """The canary file, relative: each input runs in a fresh folder of its own, so one
    worker's canary (or the harness's own self-test) is never seen by another."""
    return CANARY_FILE


def canary_payloads() -> list[str]:
    """Texts that are code if they ever reach Python unescaped (in strings: no `"`)."""
    p = canary_path()
    touch = f"__import__('pathlib').Path('{p}').touch()"
    setg = f"setattr(__import__('builtins'), '{CANARY_ATTR}', 1)"
    return [
        f"'); {touch}; ('",
        f"'''); {touch} #",
        f"' + str({touch}) + '",
        f"{{{touch}}}",  # an f-string splice
        f"\\'); {setg}; (\\'",
        f"'); {setg}; ('",
        f"%(x)s{touch}",
        f"$({touch})",
        f"'; import os; os.system('touch {p}'); '",
    ]


def canary_tripped() -> str | None:
    """What shows a canary ran (None if nothing did)."""
    if os.path.exists(canary_path()):
        return f"the canary file {canary_path()} was created (in the input's working folder)"
    if hasattr(builtins, CANARY_ATTR):
        return f"builtins.{CANARY_ATTR} was set"
    if CANARY_NAME in globals() or hasattr(builtins, CANARY_NAME):
        return f"a global {CANARY_NAME} was set"
    return None


def clear_canary() -> None:
    try:
        os.remove(canary_path())
    except FileNotFoundError:
        pass
    for attr in (CANARY_ATTR, CANARY_NAME):
        if hasattr(builtins, attr):
            delattr(builtins, attr)


def _quoted_identifiers(path: str) -> set[str]:
    """Identifiers inside the string literals of a Python file (what it may emit)."""
    out: set[str] = set()
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.string.lstrip("rbfuRBFU").startswith(('"""', "'''")):
            continue  # a docstring: prose, not code
        if tok.type == tokenize.STRING or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            out.update(re.findall(r"\b[A-Za-z_][A-Za-z0-9_]*\b", tok.string))
    return out


@functools.lru_cache(maxsize=1)
def colliders() -> tuple[str, ...]:
    """Every identifier the generated code, its namespace or Python itself gives a meaning."""
    from dsl.load import bundled_names
    from interpreter import load_game

    found: set[str] = set(ALWAYS)
    for name in bundled_names():
        try:
            game = load_game(name)
        except Exception:  # noqa: BLE001 - a broken bundled ruleset is the fuzzer's finding, not here
            continue
        for tok in tokenize.generate_tokens(io.StringIO(game.python_rules.source).readline):
            if tok.type == tokenize.NAME:
                found.add(tok.string)
        found.update(k for k in _namespace_keys(game) if IDENT.match(k))
    emitters = glob.glob(os.path.join(REPO, "interpreter", "python", "py*.py")) + \
        glob.glob(os.path.join(REPO, "dsl", "constructs", "*.py")) + [os.path.join(REPO, "interpreter", "python", "compile.py")]
    for f in sorted(emitters):
        found.update(_quoted_identifiers(f))
    found.update(n for n in dir(builtins) if IDENT.match(n))
    found.update(keyword.kwlist)
    found.update(getattr(keyword, "softkwlist", []))
    found.add(CANARY_NAME)
    # Two-letter-and-shorter words stay too: `a`, `s`, `b`, `c0` are the generated locals.
    return tuple(sorted(n for n in found if IDENT.match(n) and len(n) < 64))


def _namespace_keys(game) -> list[str]:
    """The generated module's globals."""
    return list(game.python_rules.namespace)


# ---------------------------------------------------------------- hostile text
CONTROL = [chr(c) for c in range(1, 32) if c not in (9, 10)] + ["\x7f"]
UNICODE_SPACES = ["\u00a0", "\u1680", "\u2000", "\u2003", "\u2009", "\u200a", "\u200b", "\u202f",
                  "\u205f", "\u3000", "\ufeff", "\u2028", "\u2029", "\u0085", "\x0b", "\x0c", "\r",
                  "\x1c", "\x1d", "\x1e"]
ANSI = ["\x1b[31m", "\x1b[0m", "\x1b[2J", "\x1b]0;pwned\x07", "\x1b[1000D", "\x9b31m", "\x1bc"]
ODD_UNICODE = ["\u202e", "\u0301", "é", "ß", "ﬁ", "Ⅻ", "²", "١", "０", "１２", "𝟗", "٣", "🙂", "\U0010ffff",
               "ǅ", "ı", "K", "\u00ad", "\u034f", "\ud7ff", "ｘ", "－", "＝", "⁄", "∕"]


def hostile_strings() -> list[str]:
    out = CONTROL + UNICODE_SPACES + ANSI + ODD_UNICODE + canary_payloads()
    out += ["\ufeff", "\r\n", "\t", "\\", "'", '"', "`", "#", "//", "/*", "${x}", "%s%n", "{0}",
            "x" * 300, "n" * 10_000, "(" * 500, ")" * 500, "[" * 300, "-" * 200, "9" * 400,
            "a1" * 200, "é" * 2000]
    return out


NUMBERS = ["0", "1", "2", "3", "4", "5", "00", "007", "-1", "-0", "10", "16", "64", "999999999",
           "1000000000", "1000000001", "4294967296", "9223372036854775808", "1" + "0" * 40,
           "9" * 400, "0" * 300 + "1"]
