"""The documentation runs: every console example of README.md and docs/*.md is run and its
output compared, every Python example runs, and every file quoted "in full" is the file.

Transcripts
-----------
A fenced block tagged ```console (or ```sh, ```shell, ```bash holding a `$ ` line) is a
transcript, in the manner of cram and doctest:

    ```console
    $ printf 'variant of "3-spot"\\n' > v.game
    $ rulecraft check v.game
    v.game: ok (3-Spot: 9 cells, 3 opening plies)
    ```

- A line starting with `$ ` is a command (a line ending in `\\` continues on the next); the
  lines under it, up to the next command, are what it prints: standard output and standard
  error together, as a user sees them.
- The commands of a block run in order, by `/bin/sh`, in a fresh temporary folder of their
  own (so a file one command writes is there for the next). The checkout's top-level
  folders (`rulesets/`, `tests/`, `examples/`, ...) are linked into that folder, so a
  command may name `tests/scenarios` as from the checkout. The environment is fixed: `PATH`
  starts with the folder of the Python running the tests (its `rulecraft`), `LC_ALL` and
  `LANG` are `C.UTF-8`, `NO_COLOR=1`, `TERM=dumb`, `COLUMNS=80`, standard input is empty
  (`/dev/null`), and each command has a time limit (TIMEOUT seconds).
- The output must match exactly, except that trailing spaces and blank lines at the end are
  ignored, and that `...` elides what varies (timings, absolute paths, long listings):
  - a line that is only `...` matches any number of lines, none included;
  - `...` within a line matches any text within that line.
- Exit codes: a line `[N]` as the last line of a command's output says that the command
  exits with code N (cram's convention). Without it any exit code is accepted, provided the
  doc shows something of what the command printed (a failing command with no output shown,
  or shown only as `...`, is an error), and no output may hold a Python traceback unless the
  doc shows one.
- An HTML comment on the line before the block (blank lines between are allowed), which a
  rendered page does not show, changes how a block is run:
  - `<!-- transcript: slow (WHY) -->`: a long command (a solve of many seconds); the block
    runs only with the `slow` tests (`pytest -m slow`), with a time limit of SLOW_TIMEOUT
    seconds;
  - `<!-- transcript: skip (WHY) -->`: never run (a run of many minutes or gigabytes).
  Keep both rare, and say why.
- ```sh blocks without `$ ` lines (setup commands shown without output) are not run.

Python
------
Every ```python block of the docs is a complete program and is run (in a fresh temporary
folder, with a time limit): it must exit 0 without a traceback. So is every
`examples/*.py`.

In full
-------
Wherever the docs say that something is shown "in full", the block that follows is compared
with its source: a ruleset file named in the sentence, byte for byte; the structure of a
scenario file (docs/SCENARIOS.md), key by key with `interpreter/apps/scenarios/schema.py`'s schema.

Each test is named by the file and line of its block (`docs/CLI.md:12`). Run them alone
with `.venv/bin/pytest -q tests/test_docs_transcripts.py` (add `-m slow` for the slow blocks).
"""

from __future__ import annotations

import difflib
import functools
import glob
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass

import pytest

from interpreter.native.build import cache_dir as native_cache_dir

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DOCS = ["README.md"] + sorted(os.path.relpath(p, REPO) for p in glob.glob(os.path.join(REPO, "docs", "*.md")))
EXAMPLES = sorted(os.path.relpath(p, REPO) for p in glob.glob(os.path.join(REPO, "examples", "*.py")))

TIMEOUT = 30  # seconds, per command of a block
SLOW_TIMEOUT = 900  # per command of a `slow` block
PYTHON_TIMEOUT = 60  # per Python example

SHELL_LANGS = {"console", "sh", "shell", "bash", "shell-session"}
PYTHON_LANGS = {"python", "py", "python3"}
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[^\s`]*)")
MARKER = re.compile(r"^\s*<!--\s*transcript:\s*(?P<what>\w+)(?:\s*\((?P<why>[^)]*)\))?\s*-->\s*$")
EXIT = re.compile(r"^\[(\d+)\]$")


# ------------------------------------------------------------------ reading the docs

@dataclass
class Block:
    """A fenced block of a Markdown file."""

    path: str  # relative to the repository
    line: int  # of the opening fence, 1-based
    lang: str
    lines: list[str]  # the body, the fence's indentation taken off
    marker: str | None = None  # 'slow' or 'skip'
    why: str | None = None

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    @property
    def is_transcript(self) -> bool:
        return self.lang in SHELL_LANGS and any(line.startswith("$ ") for line in self.lines)


def read_blocks(path: str) -> list[Block]:
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        text = f.read().split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(text):
        m = FENCE.match(text[i])
        if not m:
            i += 1
            continue
        indent, fence = m.group("indent"), m.group("fence")
        j = i + 1
        while j < len(text) and not (text[j].strip().startswith(fence[0] * len(fence))
                                     and text[j].strip().strip(fence[0]) == ""):
            j += 1
        body = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in text[i + 1:j]]
        block = Block(path, i + 1, m.group("lang").lower(), body)
        # The marker: the nearest non-blank line above the fence.
        k = i - 1
        while k >= 0 and not text[k].strip():
            k -= 1
        if k >= 0 and (mk := MARKER.match(text[k])):
            block.marker, block.why = mk.group("what"), (mk.group("why") or "").strip()
        blocks.append(block)
        i = j + 1
    return blocks


@functools.lru_cache(maxsize=None)
def all_blocks() -> tuple[Block, ...]:
    return tuple(b for path in DOCS for b in read_blocks(path))


def param(block: Block):
    marks = [pytest.mark.slow] if block.marker == "slow" else []
    return pytest.param(block, id=block.where, marks=marks)


# ------------------------------------------------------------------ transcripts

@dataclass
class Command:
    line: int  # in the doc
    text: str
    expected: list[str]
    exit_code: int | None


def parse_transcript(block: Block) -> list[Command]:
    commands: list[Command] = []
    lines = block.lines
    i = 0
    while i < len(lines) and not lines[i].startswith("$ "):
        assert not lines[i].strip(), f"{block.where}: text before the first `$ ` line: {lines[i]!r}"
        i += 1
    while i < len(lines):
        line_no = block.line + 1 + i
        cmd = lines[i][2:]
        while cmd.endswith("\\") and i + 1 < len(lines):
            i += 1
            cmd = cmd + "\n" + lines[i]  # the shell joins a backslash-newline
        i += 1
        out: list[str] = []
        while i < len(lines) and not lines[i].startswith("$ "):
            out.append(lines[i])
            i += 1
        while out and not out[-1].strip():
            out.pop()
        code = None
        if out and (m := EXIT.match(out[-1].strip())):
            code = int(m.group(1))
            out.pop()
        commands.append(Command(line_no, cmd, [line.rstrip() for line in out], code))
    return commands


def _line_pattern(expected: str) -> re.Pattern:
    return re.compile(".*".join(re.escape(part) for part in expected.split("...")), re.S)


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """`expected` against `actual`: a line `...` is any number of lines, `...` in a line any text."""
    patterns = [None if e.strip() == "..." else _line_pattern(e) for e in expected]

    @functools.lru_cache(maxsize=None)
    def match(i: int, j: int) -> bool:
        if i == len(patterns):
            return j == len(actual)
        if patterns[i] is None:
            return any(match(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and patterns[i].fullmatch(actual[j]) is not None and match(i + 1, j + 1)

    return match(0, 0)


def shows_something(expected: list[str]) -> bool:
    return any(e.replace("...", "").strip() for e in expected)


def environment(cache_dir: str) -> dict[str, str]:
    bin_dir = os.path.dirname(sys.executable)
    assert os.path.exists(os.path.join(bin_dir, "rulecraft")), \
        f"no rulecraft beside {sys.executable}: run the tests with the project's virtualenv"
    return {
        "PATH": os.pathsep.join([bin_dir, "/usr/local/bin", "/usr/bin", "/bin"]),
        "HOME": os.environ.get("HOME", "/tmp"),
        "XDG_CACHE_HOME": cache_dir,  # Lark's tables, built once per test session
        # the games' C libraries: the cache every other test builds into, so that a game's
        # library is built once in a run, not again in each worker's fresh XDG cache
        "RULECRAFT_CACHE": str(native_cache_dir().parent),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "NO_COLOR": "1",
        "TERM": "dumb",
        "COLUMNS": "80",
        "LINES": "24",
        "TZ": "UTC",
        "PYTHONUNBUFFERED": "1",  # stdout and stderr interleaved as on a terminal
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONHASHSEED": "0",
    }


@pytest.fixture(scope="session")
def env(tmp_path_factory) -> dict[str, str]:
    return environment(str(tmp_path_factory.mktemp("cache")))


@pytest.fixture
def workdir(tmp_path) -> str:
    """A fresh folder in which the checkout's top-level folders are links."""
    for name in sorted(os.listdir(REPO)):
        src = os.path.join(REPO, name)
        if not name.startswith(".") and os.path.isdir(src) and not name.endswith(".egg-info") \
                and name != "__pycache__":
            os.symlink(src, tmp_path / name)
    return str(tmp_path)


def run(argv: list[str], cwd: str, env: dict[str, str], timeout: float) -> tuple[int | None, str]:
    """Exit code (None after the time limit) and stdout+stderr as one text."""
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        code = None
    return code, out.decode("utf-8", errors="backslashreplace")


def check_transcript(block: Block, cwd: str, env: dict[str, str]) -> None:
    if block.marker == "skip":
        pytest.skip(f"{block.where}: {block.why}")
    timeout = SLOW_TIMEOUT if block.marker == "slow" else TIMEOUT
    for cmd in parse_transcript(block):
        code, out = run(["/bin/sh", "-c", cmd.text], cwd, env, timeout)
        where = f"{block.path}:{cmd.line}: $ {cmd.text}"
        assert code is not None, f"{where}\ndid not finish within {timeout} s; output so far:\n{out}"
        actual = out.rstrip("\n").split("\n") if out.strip() else []
        actual = [line.rstrip() for line in actual]
        while actual and not actual[-1]:
            actual.pop()
        if not output_matches(cmd.expected, actual):
            diff = "\n".join(difflib.unified_diff(cmd.expected, actual, "the doc", "the program",
                                                   lineterm=""))
            pytest.fail(f"{where}\nthe output differs (exit code {code}; `...` in the doc elides):\n{diff}")
        if "Traceback (most recent call last)" in out:
            assert any("Traceback" in e for e in cmd.expected), f"{where}\nprinted a traceback:\n{out}"
        if cmd.exit_code is not None:
            assert code == cmd.exit_code, f"{where}\nexit code {code}, the doc says [{cmd.exit_code}]"
        elif code != 0:
            assert shows_something(cmd.expected), \
                f"{where}\nexit code {code}, and the doc shows nothing of its output:\n{out}"


TRANSCRIPTS = [b for b in all_blocks() if b.is_transcript]


@pytest.mark.parametrize("block", [param(b) for b in TRANSCRIPTS])
def test_transcript(block: Block, workdir, env):
    check_transcript(block, workdir, env)


def test_the_docs_have_transcripts():
    assert len(TRANSCRIPTS) >= 10
    assert {b.path for b in TRANSCRIPTS} >= {"README.md", "docs/CLI.md", "docs/SOLUTIONS.md"}


@pytest.mark.parametrize("block", [pytest.param(b, id=b.where) for b in all_blocks()])
def test_blocks_are_well_formed(block: Block):
    """A console block is a transcript; a marker is known, has a reason and marks a block that runs."""
    if block.lang == "console":
        assert block.is_transcript, f"{block.where}: a console block without a `$ ` command line"
    if block.marker is not None:
        assert block.marker in ("slow", "skip"), f"{block.where}: unknown marker 'transcript: {block.marker}'"
        assert block.why, f"{block.where}: say why the block is {block.marker} ('transcript: {block.marker} (WHY)')"
        assert block.is_transcript or block.lang in PYTHON_LANGS, \
            f"{block.where}: a marker on a block that is not run (not a transcript, not Python)"
    if block.is_transcript:
        parse_transcript(block)


def test_few_blocks_are_left_out():
    """Slow and skipped transcripts stay the exception."""
    out = [b.where for b in TRANSCRIPTS if b.marker]
    assert len(out) <= 4, f"too many transcripts marked slow or skip: {out}"


# ------------------------------------------------------------------ the matcher itself

@pytest.mark.parametrize("expected, actual, ok", [
    (["a", "b"], ["a", "b"], True),
    (["a", "b"], ["a", "c"], False),
    (["a"], ["a", "b"], False),
    (["..."], [], True),
    (["..."], ["x", "y"], True),
    (["a", "...", "d"], ["a", "d"], True),
    (["a", "...", "d"], ["a", "b", "c", "d"], True),
    (["a", "...", "d"], ["a", "b", "c"], False),
    (["...", "c", "..."], ["a", "b", "c", "d"], True),
    (["perft(1) = 8  (... s)"], ["perft(1) = 8  (0.001 s)"], True),
    (["perft(1) = 8  (... s)"], ["perft(1) = 9  (0.001 s)"], False),
    (["x.y [z]"], ["xAy [z]"], False),  # the rest is literal, not a regular expression
])
def test_output_matching(expected, actual, ok):
    assert output_matches(expected, actual) is ok


def test_parsing_a_transcript():
    block = Block("x.md", 10, "console", ["$ printf 'a\\n' \\", "  > f", "$ false", "[1]", "$ cat f", "a", ""])
    cmds = parse_transcript(block)
    assert [(c.line, c.text, c.expected, c.exit_code) for c in cmds] == [
        (11, "printf 'a\\n' \\\n  > f", [], None), (13, "false", [], 1), (15, "cat f", ["a"], None)]


# ------------------------------------------------------------------ Python examples

PYTHON_BLOCKS = [b for b in all_blocks() if b.lang in PYTHON_LANGS]


def check_python(argv: list[str], where: str, cwd: str, env: dict[str, str]) -> None:
    code, out = run([sys.executable, *argv], cwd, env, PYTHON_TIMEOUT)
    assert code is not None, f"{where}: did not finish within {PYTHON_TIMEOUT} s:\n{out}"
    assert code == 0 and "Traceback (most recent call last)" not in out, f"{where}: exit code {code}:\n{out}"


# An example that uses an optional extra runs only where the extra is installed (CI installs
# them all): what it imports -> the module that must be there.
OPTIONAL = {"observation": "numpy", "numpy": "numpy", "adapters.openspiel": "pyspiel",
            "pyspiel": "pyspiel", "adapters.pettingzoo": "pettingzoo", "pettingzoo": "pettingzoo"}


def skip_without_extras(source: str, where: str) -> None:
    import importlib.util
    for name, module in OPTIONAL.items():
        if re.search(rf"^\s*(from|import)\s+[\w.]*\b{re.escape(name)}\b", source, re.M) \
                and importlib.util.find_spec(module) is None:
            pytest.skip(f"{where}: needs {module}, an optional extra that is not installed")


@pytest.mark.parametrize("block", [param(b) for b in PYTHON_BLOCKS])
def test_python_example_in_the_docs(block: Block, workdir, env):
    if block.marker == "skip":
        pytest.skip(f"{block.where}: {block.why}")
    skip_without_extras("\n".join(block.lines), block.where)
    script = os.path.join(workdir, "example.py")
    with open(script, "w", encoding="utf-8") as f:
        f.write("\n".join(block.lines) + "\n")
    check_python([script], block.where, workdir, env)


@pytest.mark.parametrize("path", EXAMPLES)
def test_example_script_runs(path: str, workdir, env):
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        skip_without_extras(f.read(), path)
    check_python([os.path.join(REPO, path)], path, workdir, env)


def test_the_examples_are_found():
    assert PYTHON_BLOCKS and "examples/search_api.py" in EXAMPLES


# ------------------------------------------------------------------ "in full"

IN_FULL = re.compile(r"(?<![\"`])\bin full\b(?![\"`])", re.I)  # "in full" in quotes is a mention


def in_full_claims() -> list[tuple[str, int, str]]:
    """Every line of the docs that says something is shown in full: (path, line, text)."""
    out = []
    for path in DOCS:
        with open(os.path.join(REPO, path), encoding="utf-8") as f:
            for n, line in enumerate(f.read().split("\n"), start=1):
                if IN_FULL.search(line):
                    out.append((path, n, line))
    return out


def block_after(path: str, line: int) -> Block:
    """The first fenced block starting after `line` of `path`."""
    return next(b for b in all_blocks() if b.path == path and b.line > line)


SCHEMA_DEFINITIONS = {"file": "FILE_SCHEMA", "scenario": "SCENARIO", "start-map": "START", "expect": "EXPECT"}


def check_scenario_structure(block: Block) -> None:
    """docs/SCENARIOS.md's structure lists each mapping of the schema with exactly its keys,
    the optional ones marked `?`."""
    from interpreter.apps import scenarios as sc

    definitions: dict[str, str] = {}
    name = None
    for line in block.lines:
        m = re.match(r"^([\w-]+)\s+=\s*(.*)$", line)
        if m:
            name = m.group(1)
            definitions[name] = m.group(2)
        elif name and line.strip():
            definitions[name] += " " + line.strip()
    assert set(SCHEMA_DEFINITIONS) <= set(definitions), f"{block.where}: defines {sorted(definitions)}"

    def keys_of(text: str) -> dict[str, bool]:
        """{key: required} of the first mapping `{ ... }` of a definition, its top level only."""
        keys: dict[str, bool] = {}
        depth, start = 0, text.index("{")
        for m in re.finditer(r"[{}\[\]()]|([\w-]+)(\??):", text[start:]):
            tok = m.group(0)
            if tok in "{[(":
                depth += 1
            elif tok in "}])":
                depth -= 1
                if depth == 0:
                    break
            elif depth == 1:
                keys[m.group(1)] = not m.group(2)
        return keys

    def fields_of(spec) -> "sc.Fields":
        if isinstance(spec, sc.Either):
            (spec,) = [o for o in spec.options if isinstance(o, sc.Fields)]
        return spec

    schema_fields = set()

    def walk(spec) -> None:
        if isinstance(spec, sc.Fields):
            schema_fields.add(id(spec))
            for s in spec.fields.values():
                walk(s)
        elif isinstance(spec, sc.Either):
            for s in spec.options:
                walk(s)
        elif isinstance(spec, (sc.ListOf, sc.MapOf)):
            walk(getattr(spec, "item", None) or getattr(spec, "value", None))

    walk(sc.FILE_SCHEMA)
    documented = set()
    for doc_name, attr in SCHEMA_DEFINITIONS.items():
        spec = fields_of(getattr(sc, attr))
        documented.add(id(spec))
        want = {k: k in spec.required for k in spec.fields}
        assert keys_of(definitions[doc_name]) == want, \
            f"{block.where}: '{doc_name}' lists {keys_of(definitions[doc_name])}; the schema ({attr}) has {want}"
    assert schema_fields <= documented, f"{block.where}: the schema has a mapping the structure leaves out"


@pytest.mark.parametrize("path, line, text", [pytest.param(*c, id=f"{c[0]}:{c[1]}") for c in in_full_claims()])
def test_what_is_shown_in_full_is_the_whole_thing(path, line, text):
    block = block_after(path, line)
    named = re.findall(r"`([^`\s]+\.game)`", text)
    if named:
        assert len(named) == 1, f"{path}:{line}: names several files: {named}"
        with open(os.path.join(REPO, named[0]), encoding="utf-8") as f:
            source = f.read()
        shown = "\n".join(block.lines)
        assert shown.rstrip("\n") == source.rstrip("\n"), \
            f"{path}:{line}: the block at {block.where} is not {named[0]} in full:\n" + "\n".join(
                difflib.unified_diff(shown.split("\n"), source.rstrip("\n").split("\n"), "the doc",
                                     named[0], lineterm=""))
    elif path == "docs/SCENARIOS.md" and "structure" in text:
        check_scenario_structure(block)
    else:
        pytest.fail(f"{path}:{line}: says 'in full' but names no `.game` file whose text the next "
                    f"block is, and no check of this test covers it: {text.strip()}")


def test_in_full_claims_are_found():
    assert {(p, "structure" in t) for p, _, t in in_full_claims()} >= {("README.md", False), ("docs/SCENARIOS.md", True)}
