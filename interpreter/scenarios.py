"""Rule scenarios: YAML files that give a ruleset, a start position and plies to play, and
say what must then hold (legal plies, outcome, variables, perft). docs/SCENARIOS.md is the
format's reference.

Reading goes: text -> a tree of `Node`s that remember their line and column (composed by
`_Loader`, a YAML reader that builds nothing: every scalar is text, a whole number or
null, and any other tag is an error) -> the structural check against `FILE_SCHEMA` ->
`Scenario`s. Running a scenario checks what needs the game (cells, pieces, players,
variables, the legality of each ply) and then every expectation.

A scenario file is untrusted input: every way it can be wrong ends in a `ScenarioError`
(`file:line:col: error: ...`), and every cost it can ask for is bounded (the limits below).
"""

from __future__ import annotations

import difflib
import os
import re
import stat
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Iterable, Union

import yaml
from yaml.composer import Composer
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import BaseResolver
from yaml.scanner import Scanner

from rulecraft.dsl.diagnostics import RulesetError
from rulecraft.dsl.load import bundled_dir, bundled_names, load
from rulecraft.dsl.placements import placements

from .game import Game, IllegalActionError, PositionError, State
from .limits import RuleLimitError

# The limits (docs/SCENARIOS.md, "Limits").
MAX_FILE_BYTES = 1_000_000
MAX_NODES = 100_000  # values in a file, aliases expanded: an alias bomb stops long before it costs memory
MAX_DEPTH = 50  # levels of lists and mappings
MAX_TEXT = 100_000  # characters of one value (a position's text, a name, a description)
MAX_NUMBER = 1_000_000_000  # the size of a whole number, as in the language
MAX_SCENARIOS = 1_000  # scenarios in one file
MAX_PLIES = 1_000  # plies a scenario plays
MAX_PERFT_DEPTH = 10  # depths a `perft` list gives
# The work of running scenarios, counted in plies generated (every ply of every position whose
# plies are listed: to play a ply, to check the expectations, to count perft): one scenario's,
# and all the scenarios of one file together.
MAX_SCENARIO_PLIES = 200_000
MAX_FILE_PLIES = 500_000

STR_TAG = "tag:yaml.org,2002:str"
INT_TAG = "tag:yaml.org,2002:int"
NULL_TAG = "tag:yaml.org,2002:null"
MAP_TAG = "tag:yaml.org,2002:map"
SEQ_TAG = "tag:yaml.org,2002:seq"
MERGE_TAG = "tag:yaml.org,2002:merge"
_INT = re.compile(r"[-+]?[0-9]+\Z")  # decimal only, as in YAML 1.2's core schema ([0-9] is ASCII)
_NULL = re.compile(r"(?:~|null|Null|NULL|)\Z")
_BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _clip(text: str, width: int = 60) -> str:
    """Text from the file as a message shows it: at most `width` characters."""
    return text if len(text) <= width else text[:width] + "..."


def _close(word: str, options: Iterable[str]) -> str | None:
    """The option closest to a misspelt `word`, if any (not tried on long words: difflib is slow)."""
    if len(word) > 64:
        return None
    found = difflib.get_close_matches(word, list(options), n=1)
    return found[0] if found else None


# ------------------------------------------------------------------ errors

Where = Union["Node", tuple, int, None]


def _position(where: Where) -> tuple[int | None, int | None]:
    """(line, column) of a Node, a (line, column) pair, a line alone, or None (the whole file)."""
    if where is None:
        return None, None
    if isinstance(where, int):
        return where, None
    if isinstance(where, tuple):
        return where
    return where.line, where.col


class ScenarioError(Exception):
    """Something wrong in a scenario file, at a line and column (None: the file as a whole)."""

    def __init__(self, file: str, where: Where, message: str):
        self.file, self.message = file, message
        self.line, self.col = _position(where)
        super().__init__(self.format())

    def format(self) -> str:
        """`file:line:col: error: message` (`file: error: message` for the file as a whole)."""
        where = self.file
        if self.line is not None:
            where += f":{self.line}" + (f":{self.col}" if self.col is not None else "")
        return f"{where}: error: {self.message}"


class ScenarioFileError(Exception):
    """A scenario file that cannot be run at all; carries every error found in it."""

    def __init__(self, errors: list[ScenarioError]):
        self.errors = sorted(errors, key=lambda e: (e.file, e.line or 0, e.col or 0))
        super().__init__("\n".join(e.format() for e in self.errors))


class _Problem(Exception):
    """An error found before the file name is at hand (inside the YAML walk)."""

    def __init__(self, where: Where, message: str):
        super().__init__(message)
        self.line, self.col = _position(where)
        self.message = message

    def error(self, file: str) -> ScenarioError:
        return ScenarioError(file, (self.line, self.col) if self.line is not None else None, self.message)


# ------------------------------------------------------------------ YAML with positions

def _mark(mark: Any) -> tuple[int, int]:
    return mark.line + 1, mark.column + 1


class _Loader(Reader, Scanner, Parser, Composer, BaseResolver):
    """PyYAML's reader, scanner, parser and composer, and no constructor: the document
    becomes a tree of yaml nodes and nothing else. A plain scalar resolves to a whole number
    (decimal digits), null (`~`, `null`, nothing) or text: never a date, a float or a truth
    value. Composing stops past MAX_DEPTH levels or MAX_NODES values (PyYAML's composer
    recurses once per level)."""

    def __init__(self, text: str):
        Reader.__init__(self, text)
        Scanner.__init__(self)
        Parser.__init__(self)
        Composer.__init__(self)
        BaseResolver.__init__(self)
        self.depth = 0
        self.count = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            return super().compose_node(parent, index)
        self.depth += 1
        self.count += 1
        try:
            if self.depth > MAX_DEPTH:
                raise _Problem(_mark(self.peek_event().start_mark),
                               f"values nest more than {MAX_DEPTH} levels deep")
            if self.count > MAX_NODES:
                raise _Problem(_mark(self.peek_event().start_mark),
                               f"the file holds more than {MAX_NODES:,} values")
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


_Loader.add_implicit_resolver(INT_TAG, _INT, list("-+0123456789"))
_Loader.add_implicit_resolver(NULL_TAG, _NULL, ["~", "n", "N", ""])
_Loader.add_implicit_resolver(MERGE_TAG, re.compile(r"<<\Z"), ["<"])


@dataclass
class Node:
    """A YAML value and where it starts (1-based line and column).

    `value` is None, int or str for a scalar, list[Node] for a list, or dict[str, Node] for
    a mapping. A scalar keeps its source `text` too (a key is always its text), so that a
    name such as `no` or `2001-02-03` stays a name.
    """

    value: Any
    line: int
    col: int | None = None
    text: str = ""
    key_pos: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        if isinstance(self.value, dict):
            return "mapping"
        if isinstance(self.value, list):
            return "list"
        return "null" if self.value is None else "scalar"

    @property
    def key_lines(self) -> dict[str, int]:
        return {k: p[0] for k, p in self.key_pos.items()}

    def get(self, key: str) -> Node | None:
        return self.value.get(key) if isinstance(self.value, dict) else None


def _tag(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


def parse_yaml(text: str) -> Node | None:
    """The document in `text` as a `Node` tree (None when empty); raises _Problem."""
    try:
        loader = _Loader(text)
    except yaml.reader.ReaderError as e:  # the reader checks every character first
        return _reader_error(text, e)
    try:
        root = loader.get_single_node()
        return None if root is None else _convert(root, [MAX_NODES], 1)
    except yaml.reader.ReaderError as e:
        return _reader_error(text, e)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        what = e.problem or e.context or "cannot be read"
        if e.context and e.problem and e.problem.startswith("but "):
            what = f"{e.context}, {e.problem}"  # "expected a single document..., but found another"
        elif e.context and e.problem:
            at = f" at line {e.context_mark.line + 1}" if e.context_mark and e.context_mark is not mark else ""
            what += f" ({e.context}{at})"
        raise _Problem(_mark(mark) if mark else None, f"invalid YAML: {what}") from None
    except yaml.YAMLError as e:
        raise _Problem(None, f"invalid YAML: {e}") from None
    finally:
        loader.dispose()


def _reader_error(text: str, e: yaml.reader.ReaderError) -> None:
    before = text[: e.position]
    line = before.count("\n") + 1
    col = e.position - (before.rfind("\n") + 1) + 1
    if isinstance(e.character, int):
        raise _Problem((line, col), f"invalid YAML: character U+{e.character:04X} is not allowed "
                                    f"in a YAML file") from None
    raise _Problem((line, col), f"invalid YAML: {e.reason}") from None


class _TooBig(str):
    """A whole number past MAX_NUMBER, kept as its text: fine as a name, an error as a number."""

    def problem(self) -> str:
        sign = "-" if self.startswith("-") else ""
        digits = self.lstrip("+-").lstrip("0") or "0"
        return f"number {_clip(sign + digits, 16)} is beyond the limit of {sign}{MAX_NUMBER:,}"


def _scalar(node: yaml.ScalarNode) -> int | str | None:
    """A scalar's value: text, a whole number or None; any other tag is an error. A number
    past MAX_NUMBER stays text (`_TooBig`): int() is never given thousands of digits."""
    where = _mark(node.start_mark)
    text = node.value
    if len(text) > MAX_TEXT:
        raise _Problem(where, f"a value of {len(text):,} characters is longer than the limit of "
                              f"{MAX_TEXT:,}")
    for ch in text:
        if ch in "\t\n\r":
            continue
        kind = unicodedata.category(ch)
        if kind in ("Cc", "Cs") or ch in _BIDI:
            what = {"Cc": "a control character", "Cs": "a lone surrogate"}.get(kind, "a bidirectional control")
            raise _Problem(where, f"character U+{ord(ch):04X} ({what}) is not allowed in a value")
    if node.tag == STR_TAG:
        return text
    if node.tag == INT_TAG:
        if not _INT.match(text):
            raise _Problem(where, f"'{_clip(text)}' is tagged !!int but is not a whole number")
        digits = text.lstrip("+-").lstrip("0")
        if len(digits) > len(str(MAX_NUMBER)) or int(digits or "0") > MAX_NUMBER:
            return _TooBig(text)
        return int(text)
    if node.tag == NULL_TAG:
        if not _NULL.match(text):
            raise _Problem(where, f"'{_clip(text)}' is tagged !!null but is not empty")
        return None
    raise _Problem(where, f"unsupported YAML tag '{_clip(_tag(node.tag))}' (a scenario file holds "
                          f"text, whole numbers, lists and mappings)")


def _convert(node: yaml.Node, budget: list[int], depth: int) -> Node:
    line, col = _mark(node.start_mark)
    budget[0] -= 1
    if budget[0] < 0:
        raise _Problem((line, col), f"the document expands to more than {MAX_NODES:,} values "
                                    f"(aliases repeated too often?)")
    if depth > MAX_DEPTH:
        raise _Problem((line, col), f"values nest more than {MAX_DEPTH} levels deep (a recursive alias?)")
    if isinstance(node, yaml.ScalarNode):
        return Node(_scalar(node), line, col, node.value)
    if isinstance(node, yaml.SequenceNode):
        if node.tag != SEQ_TAG:
            raise _Problem((line, col), f"unsupported YAML tag '{_clip(_tag(node.tag))}' (a scenario "
                                        f"file holds text, whole numbers, lists and mappings)")
        return Node([_convert(n, budget, depth + 1) for n in node.value], line, col)
    if node.tag != MAP_TAG:
        raise _Problem((line, col), f"unsupported YAML tag '{_clip(_tag(node.tag))}' (a scenario "
                                    f"file holds text, whole numbers, lists and mappings)")
    out: dict[str, Node] = {}
    key_pos: dict[str, tuple[int, int]] = {}
    merged: dict[str, Node] = {}
    merged_pos: dict[str, tuple[int, int]] = {}
    for k, v in node.value:
        kpos = _mark(k.start_mark)
        if k.tag == MERGE_TAG:
            # `<<: *base` (or a list of them): the keys of base that this mapping does not
            # give itself. Done here rather than by PyYAML's flatten_mapping, which edits
            # the node in place and so would see duplicates when an alias visits it again.
            for source in (v.value if isinstance(v, yaml.SequenceNode) else [v]):
                if not isinstance(source, yaml.MappingNode):
                    raise _Problem(kpos, "a merge key (<<) takes a mapping or a list of mappings")
                base = _convert(source, budget, depth + 1)
                for key, value in base.value.items():
                    if key not in merged:  # the first mapping listed wins, as in YAML
                        merged[key], merged_pos[key] = value, base.key_pos[key]
            continue
        if not isinstance(k, yaml.ScalarNode):
            raise _Problem(kpos, "a mapping key must be a plain word, not a list or mapping")
        _scalar(k)  # the same checks as a value: length, characters, tag
        key = k.value
        if key in out:
            raise _Problem(kpos, f"duplicate key '{_clip(key)}' (first at line {key_pos[key][0]})")
        key_pos[key] = kpos
        out[key] = _convert(v, budget, depth + 1)
    for key, value in merged.items():
        if key not in out:
            out[key], key_pos[key] = value, merged_pos[key]
    return Node(out, line, col, key_pos=key_pos)


# ------------------------------------------------------------------ schema

def _found(node: Node) -> str:
    if node.kind == "mapping":
        return "a mapping"
    if node.kind == "list":
        return "a list"
    if node.kind == "null":
        return "nothing"
    return f"'{_clip(node.text)}'"


class Spec:
    """One rule of the structural check: what a value must look like."""

    what = "a value"
    kind = "scalar"

    def check(self, node: Node, name: str, errors: list[_Problem]) -> None:
        raise NotImplementedError


class Text(Spec):
    """Any scalar, read as its source text."""

    def __init__(self, what: str = "a string"):
        self.what = what

    def check(self, node: Node, name: str, errors: list[_Problem]) -> None:
        if node.kind != "scalar" or not node.text.strip():
            errors.append(_Problem(node, f"'{name}' must be {self.what}, found {_found(node)}"))


class Whole(Spec):
    """A whole number (decimal digits), at least `minimum`."""

    def __init__(self, minimum: int | None = None, what: str = "a whole number"):
        self.minimum, self.what = minimum, what

    def check(self, node: Node, name: str, errors: list[_Problem]) -> None:
        v = node.value
        if isinstance(v, _TooBig):
            errors.append(_Problem(node, v.problem()))
        elif not isinstance(v, int) or (self.minimum is not None and v < self.minimum):
            errors.append(_Problem(node, f"'{name}' must be {self.what}, found {_found(node)}"))


class ListOf(Spec):
    kind = "list"

    def __init__(self, item: Spec, what: str, min_items: int = 0, max_items: int | None = None,
                 items: str = "items"):
        self.item, self.what, self.min_items, self.max_items, self.items = item, what, min_items, max_items, items

    def check(self, node: Node, name: str, errors: list[_Problem]) -> None:
        if node.kind != "list":
            errors.append(_Problem(node, f"'{name}' must be {self.what}, found {_found(node)}"))
            return
        if len(node.value) < self.min_items:
            errors.append(_Problem(node, f"'{name}' must be {self.what}, found an empty list"))
        if self.max_items is not None and len(node.value) > self.max_items:
            errors.append(_Problem(node, f"'{name}' lists {len(node.value):,} {self.items}; the limit "
                                         f"is {self.max_items:,}"))
            return
        for i, item in enumerate(node.value, start=1):
            self.item.check(item, f"{name}[{i}]", errors)


class PerftList(ListOf):
    """`perft`: at most MAX_PERFT_DEPTH counts, which together stay within MAX_SCENARIO_PLIES."""

    def __init__(self) -> None:
        super().__init__(Whole(0, "a whole number of 0 or more"), "a list of leaf counts for depths 1, 2, ...",
                         min_items=1, max_items=MAX_PERFT_DEPTH, items="depths")

    def check(self, node: Node, name: str, errors: list[_Problem]) -> None:
        before = len(errors)
        super().check(node, name, errors)
        if len(errors) == before and sum(n.value for n in node.value) > MAX_SCENARIO_PLIES:
            errors.append(_Problem(node, f"'{name}' counts {sum(n.value for n in node.value):,} plies "
                                         f"in all; the limit of a scenario is {MAX_SCENARIO_PLIES:,}"))


class MapOf(Spec):
    """A mapping with keys of the ruleset's own (pieces, variables), checked later."""

    kind = "mapping"

    def __init__(self, value: Spec, what: str):
        self.value, self.what = value, what

    def check(self, node: Node, name: str, errors: list[_Problem]) -> None:
        if node.kind != "mapping" or not node.value:
            errors.append(_Problem(node, f"'{name}' must be {self.what}, found "
                                         f"{'an empty mapping' if node.kind == 'mapping' else _found(node)}"))
            return
        for key, value in node.value.items():
            self.value.check(value, _clip(key), errors)


class Fields(Spec):
    """A mapping with fixed keys: unknown ones and missing required ones are errors."""

    kind = "mapping"

    def __init__(self, fields: dict[str, Spec], required: Iterable[str] = (), what: str = "a mapping",
                 nonempty: bool = False):
        self.fields, self.required, self.what, self.nonempty = fields, list(required), what, nonempty

    def check(self, node: Node, name: str, errors: list[_Problem]) -> None:
        if node.kind != "mapping":
            errors.append(_Problem(node, f"'{name}' must be {self.what}, found {_found(node)}"))
            return
        for key, value in node.value.items():
            if key not in self.fields:
                close = _close(key, self.fields)
                hint = f"did you mean '{close}'?" if close else f"known: {', '.join(self.fields)}"
                errors.append(_Problem(node.key_pos[key], f"unknown key '{_clip(key)}' in '{name}' ({hint})"))
            else:
                self.fields[key].check(value, key, errors)
        for key in self.required:
            if key not in node.value:
                errors.append(_Problem(node, f"'{name}' is missing '{key}'"))
        if self.nonempty and not node.value:
            errors.append(_Problem(node, f"'{name}' is empty: give at least one of "
                                         f"{', '.join(self.fields)}"))


class Either(Spec):
    """One of several specs, chosen by the kind of the value (scalar, list or mapping)."""

    def __init__(self, *options: Spec, what: str):
        self.options, self.what = options, what

    def check(self, node: Node, name: str, errors: list[_Problem]) -> None:
        for spec in self.options:
            if spec.kind == node.kind:
                spec.check(node, name, errors)
                return
        errors.append(_Problem(node, f"'{name}' must be {self.what}, found {_found(node)}"))


PLY_LIST = ListOf(Text("a ply's text"), "a list of ply texts")
CELLS = Either(Text(), ListOf(Text("a cell's name"), "a list of cells", min_items=1),
               what="a list of cells (or 'all other cells')")
VALUE = Either(Whole(), ListOf(Whole(), "a list of whole numbers, one per player", min_items=1),
               MapOf(Whole(), "a mapping of player to value"),
               what="a whole number, a list with one per player, or a mapping of player to value")
START = Either(
    Text("'setup' or a state's text"),
    Fields({
        "pieces": MapOf(CELLS, "a mapping of piece to cells"),
        "to_move": Text("a player's name"),
        "ply": Whole(1, "a whole number from 1 (the ply of the turn)"),
        "vars": MapOf(VALUE, "a mapping of variable to value"),
    }, required=["pieces", "to_move"]),
    what="'setup', a state's text, or a mapping with pieces and to_move")
EXPECT = Fields({
    "legal": PLY_LIST,
    "legal_includes": ListOf(Text("a ply's text"), "a list of ply texts", min_items=1),
    "legal_excludes": ListOf(Text("a ply's text"), "a list of ply texts", min_items=1),
    "outcome": Text("'ongoing', 'draw', 'NAME wins' or 'NAME loses'"),
    "winner": Text("a player's name"),
    "to_move": Text("a player's name"),
    "ply": Whole(1, "a whole number from 1 (the ply of the turn)"),
    "state": Text("a state's text"),
    "vars": MapOf(VALUE, "a mapping of variable to value"),
    "perft": PerftList(),
}, nonempty=True)
SCENARIO_FIELDS: dict[str, Spec] = {
    "name": Text(),
    "description": Text(),
    "ruleset": Text("a ruleset's name or path"),
    "start": START,
    "plies": ListOf(Text("a ply's text"), "a list of ply texts", max_items=MAX_PLIES, items="plies"),
    "expect": EXPECT,
}
SCENARIO = Fields(SCENARIO_FIELDS, required=["name", "expect"], what="a scenario (a mapping)")
SCENARIO_LIST = ListOf(SCENARIO, "a list of scenarios", min_items=1, max_items=MAX_SCENARIOS, items="scenarios")
FILE_SCHEMA = Fields({
    "ruleset": Text("a ruleset's name or path"),
    "description": Text(),
    "scenarios": SCENARIO_LIST,
}, required=["scenarios"])


# ------------------------------------------------------------------ scenarios

@dataclass
class Scenario:
    """One scenario as read from its file (values still carry their lines)."""

    file: str
    line: int
    name: str
    ruleset: Node
    start: Node | None
    plies: list[Node]
    expect: Node
    col: int | None = None


def load_file(path: str) -> list[Scenario]:
    """The scenarios of a YAML file, structurally checked; raises ScenarioFileError."""
    def fail(where: Where, message: str) -> ScenarioFileError:
        return ScenarioFileError([ScenarioError(path, where, message)])
    try:
        # Not blocking on a named pipe: only a regular file is read.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise fail(None, f"cannot read: {e.strerror}") from None
    try:
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                raise fail(None, "not a regular file")
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise fail(None, f"cannot read: {e.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise fail(None, f"file is larger than the limit of {MAX_FILE_BYTES:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = data.rfind(b"\n", 0, e.start) + 1
        col = len(data[line_start:e.start].decode("utf-8", errors="replace")) + 1
        raise fail((data[: e.start].count(b"\n") + 1, col), "not UTF-8 text") from None
    return parse_scenarios(text, path)


def parse_scenarios(text: str, path: str) -> list[Scenario]:
    """The scenarios in `text` (read from `path`); raises ScenarioFileError."""
    try:
        root = parse_yaml(text)
    except _Problem as p:
        raise ScenarioFileError([p.error(path)]) from None
    if root is None:
        raise ScenarioFileError([ScenarioError(path, None, "the file holds no scenarios")])
    problems: list[_Problem] = []
    file_ruleset: Node | None = None
    if root.kind == "list":
        items = root
        SCENARIO_LIST.check(root, "scenarios", problems)
    elif root.kind == "mapping" and "scenarios" in root.value:
        FILE_SCHEMA.check(root, "file", problems)
        items = root.value["scenarios"]
        file_ruleset = root.get("ruleset")
    elif root.kind == "mapping":
        items = Node([root], root.line, root.col)  # a file of one scenario
        SCENARIO.check(root, "scenario", problems)
    else:
        raise ScenarioFileError([ScenarioError(
            path, root, f"a scenario file is a mapping or a list of scenarios, found {_found(root)}")])
    if problems:
        raise ScenarioFileError([p.error(path) for p in problems])
    scenarios: list[Scenario] = []
    names: dict[str, int] = {}
    for item in items.value:
        name_node = item.value["name"]
        name = name_node.text
        if name in names:
            problems.append(_Problem(name_node, f"scenario name '{_clip(name)}' is used twice "
                                                f"(first at line {names[name]})"))
        names.setdefault(name, name_node.line)
        ruleset = item.get("ruleset") or file_ruleset
        if ruleset is None:
            problems.append(_Problem(item, f"scenario '{_clip(name)}' names no ruleset "
                                           f"(give 'ruleset' in it or at the top of the file)"))
            continue
        plies = item.get("plies")
        scenarios.append(Scenario(path, item.line, name, ruleset, item.get("start"),
                                  plies.value if plies else [], item.value["expect"], item.col))
    if problems:
        raise ScenarioFileError([p.error(path) for p in problems])
    return scenarios


# ------------------------------------------------------------------ results

@dataclass
class Failure:
    """One expectation that does not hold."""

    check: str  # the expectation's key, e.g. "legal" or "vars.score"
    line: int
    message: str  # first line of the explanation
    details: list[str] = field(default_factory=list)  # further lines (expected, actual, diff)
    data: dict[str, Any] = field(default_factory=dict)  # the same, for --json

    def format(self) -> str:
        return "\n".join([f"{self.check} (line {self.line}): {self.message}"]
                         + ["  " + d for d in self.details])


@dataclass
class Result:
    """The outcome of one scenario: pass, fail (expectations unmet) or error (bad scenario)."""

    file: str
    line: int
    name: str
    status: str
    position: str = ""  # the state text the expectations were checked in
    failures: list[Failure] = field(default_factory=list)
    error: ScenarioError | None = None

    def format(self) -> str:
        if self.status == "error":
            assert self.error is not None
            return self.error.format()
        head = f"{self.status.upper()} {self.file}:{self.line}: {self.name}"
        if self.status == "pass":
            return head
        lines = [head, f"    position: {self.position}"]
        for f in self.failures:
            lines += ["    " + x for x in f.format().splitlines()]
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "line": self.line, "name": self.name,
                               "status": self.status}
        if self.status == "fail":
            out["position"] = self.position
            out["failures"] = [{"check": f.check, "line": f.line, "message": f.message, **f.data}
                               for f in self.failures]
        if self.error is not None:
            out["error"] = self.error.format()
        return out


@dataclass
class Report:
    """Every scenario result of a run, and the files that could not be run at all."""

    results: list[Result] = field(default_factory=list)
    file_errors: list[ScenarioError] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(r.status == status for r in self.results)

    @property
    def ok(self) -> bool:
        return not self.file_errors and all(r.status == "pass" for r in self.results)

    def summary(self) -> str:
        """`N passed, M failed` (and `, K errors` for bad scenarios and files)."""
        errors = self.count("error") + len(self.file_errors)
        text = f"{self.count('pass')} passed, {self.count('fail')} failed"
        return text + (f", {errors} error{'s' if errors != 1 else ''}" if errors else "")

    def format(self) -> str:
        """The text report: a line per scenario (with the reasons of a failure), then a summary."""
        lines = [r.format() for r in self.results] + [e.format() for e in self.file_errors]
        return "\n".join(lines + [self.summary()])

    def to_json(self) -> dict[str, Any]:
        return {"passed": self.count("pass"), "failed": self.count("fail"),
                "errors": self.count("error") + len(self.file_errors), "ok": self.ok,
                "scenarios": [r.to_json() for r in self.results],
                "file_errors": [e.format() for e in self.file_errors]}


# ------------------------------------------------------------------ running

class Budget:
    """The plies a scenario may still generate: its own limit, or what is left of its file's."""

    def __init__(self, limit: int | None = None, of_file: bool = False):
        self.limit, self.spent = MAX_SCENARIO_PLIES if limit is None else limit, 0
        self.of_file = of_file  # the file's limit is the tighter one

    @property
    def left(self) -> int:
        return self.limit - self.spent

    def describe(self) -> str:
        if self.of_file:
            return f"the limit of {MAX_FILE_PLIES:,} plies generated by the scenarios of a file"
        return f"the limit of {self.limit:,} plies generated by a scenario"

    def spend(self, plies: int, file: str, where: Where, what: str) -> None:
        """Count `plies` generated; past the limit, the scenario stops with an error."""
        self.spent += plies
        if self.spent > self.limit:
            raise ScenarioError(file, where, f"{what}: stopped at {self.describe()}")


class Runner:
    """Runs scenarios, compiling each ruleset once per run."""

    def __init__(self) -> None:
        self._games: dict[str, Game] = {}
        self._broken: dict[str, str] = {}  # path -> its diagnostics, reported once

    def run_files(self, paths: list[str]) -> Report:
        """Load and run every scenario of every file, in order."""
        report = Report()
        for path in paths:
            try:
                scenarios = load_file(path)
            except ScenarioFileError as e:
                report.file_errors.extend(e.errors)
                continue
            left = MAX_FILE_PLIES
            for sc in scenarios:
                if left <= 0:
                    report.results.append(Result(sc.file, sc.line, sc.name, "error", error=ScenarioError(
                        sc.file, (sc.line, sc.col), f"scenario '{_clip(sc.name)}' not run: the scenarios before it "
                                          f"reached the limit of {MAX_FILE_PLIES:,} plies generated by "
                                          f"the scenarios of a file")))
                    continue
                budget = Budget(min(MAX_SCENARIO_PLIES, left), of_file=left < MAX_SCENARIO_PLIES)
                report.results.append(self.run(sc, budget))
                left -= budget.spent
        return report

    def run(self, sc: Scenario, budget: Budget | None = None) -> Result:
        """Run one scenario; a problem in the scenario itself becomes an `error` result."""
        try:
            return self._run(sc, Budget() if budget is None else budget)
        except ScenarioError as e:
            return Result(sc.file, sc.line, sc.name, "error", error=e)
        except RuleLimitError as e:  # a rule of the ruleset went past a bound of the interpreter
            body = "\n".join("    " + x for x in str(e).splitlines())
            return Result(sc.file, sc.line, sc.name, "error", error=ScenarioError(
                sc.file, sc.ruleset, f"ruleset '{_clip(sc.ruleset.text.strip())}' went past a limit "
                                     f"in scenario '{_clip(sc.name)}':\n{body}"))

    def game(self, sc: Scenario) -> Game:
        """The scenario's compiled ruleset: a `.game` file (a path relative to the scenario
        file), or NAME.game beside the scenario file, else the bundled ruleset NAME. Nothing
        else is read, so no other file's lines can end up in an error."""
        node = sc.ruleset
        name = node.text.strip()
        here = os.path.dirname(os.path.abspath(sc.file))
        bundled = bundled_names()
        if name.endswith(".game"):
            candidates = [os.path.join(here, name)]
        else:
            candidates = [os.path.join(here, name + ".game")]
            if name in bundled:
                candidates.append(os.path.join(bundled_dir(), name + ".game"))
        path = next((os.path.abspath(c) for c in candidates if os.path.isfile(c)), None)
        shown = _clip(name)
        if path is None:
            if name.endswith(".game"):
                beside = "" if os.path.isabs(name) else " beside this one"
                raise ScenarioError(sc.file, node, f"unknown ruleset '{shown}': no such file{beside}")
            close = _close(name, bundled)
            beside = "" if os.path.isabs(name) else " beside this one"
            raise ScenarioError(sc.file, node, f"unknown ruleset '{shown}': no file '{shown}.game'{beside}, "
                                               f"and no bundled ruleset of that name"
                                               + (f" (did you mean '{close}'?)" if close else "")
                                               + f"; a ruleset is a path to a '.game' file or a bundled "
                                               f"name (bundled: {', '.join(bundled)})")
        if not os.path.realpath(path).endswith(".game"):
            raise ScenarioError(sc.file, node, f"ruleset '{shown}' is a link to a file that is not a "
                                               f"'.game' file")
        if path in self._broken:
            raise ScenarioError(sc.file, node, f"ruleset '{shown}' has errors (listed at {self._broken[path]})")
        if path not in self._games:
            try:
                self._games[path] = Game(load(path))
            except RulesetError as e:
                self._broken[path] = f"{sc.file}:{node.line}:{node.col}"
                body = "\n".join("    " + x for x in e.format().splitlines())
                raise ScenarioError(sc.file, node, f"ruleset '{shown}' has errors:\n{body}") from None
        return self._games[path]

    def _run(self, sc: Scenario, budget: Budget) -> Result:
        game = self.game(sc)
        state = start_state(game, sc)
        for n, ply in enumerate(sc.plies, start=1):
            state = _play(game, state, ply, n, sc.file, budget)
        failures = check_expectations(game, state, sc.expect, sc.file, budget)
        return Result(sc.file, sc.line, sc.name, "fail" if failures else "pass",
                      game.state_to_text(state), failures)


def run_files(paths: list[str]) -> Report:
    """Run every scenario in `paths` (the code path of `rulecraft test`)."""
    return Runner().run_files(paths)


def _play(game: Game, state: State, ply: Node, n: int, file: str, budget: Budget) -> State:
    # Matched by `ply_key`, as expectations are, so that `c2+c1-b2+c2` plays like `c1+c2-b2+c2`
    # (the game's action_from_text wants its own order of cells).
    key = ply_key(game, ply.text)
    actions = game.legal_actions(state)
    budget.spend(len(actions), file, ply, f"ply {n}")
    for action in actions:
        if ply_key(game, game.action_to_text(state, action)) == key:
            return game.apply(state, action)
    try:
        return game.apply(state, game.action_from_text(state, ply.text))
    except IllegalActionError:
        where = game.state_to_text(state)
        if game.is_terminal(state):
            raise ScenarioError(file, ply, f"ply {n} '{_clip(ply.text)}' cannot be played: the game "
                                           f"is over ({where})") from None
        legal = [game.action_to_text(state, a) for a in game.legal_actions(state)]
        raise ScenarioError(file, ply, f"ply {n} '{_clip(ply.text)}' is not legal in {where} "
                                       f"(legal: {_listing(legal, most=20)})") from None


# ------------------------------------------------------------------ the start

def start_state(game: Game, sc: Scenario) -> State:
    """The state a scenario starts from: the setup, a state's text, or pieces on cells."""
    node = sc.start
    if node is None or (node.kind == "scalar" and node.text.strip() == "setup"):
        return game.initial_state()
    if node.kind == "scalar":
        try:
            return game.state_from_text(node.text)
        except PositionError as e:
            raise ScenarioError(sc.file, node, f"start: {e}") from None
    return game_state_from_pieces(game, node, sc.file)


def _piece_types(game: Game) -> dict[str, int]:
    """Scenario names of the piece types: the kind, or `kind of Player` for kinds every player has."""
    out: dict[str, int] = {}
    types = game.ruleset.types
    for i, t in enumerate(types):
        shared = sum(u.kind == t.kind for u in types) > 1
        out[f"{t.kind} of {game.players[t.owner]}" if shared and t.owner is not None else t.kind] = i
    return out


def _cell(game: Game, node: Node, file: str) -> int:
    name = node.text.strip()
    if name not in game.board.index:
        hint = _close(name, game.board.names)
        raise ScenarioError(file, node, f"'{_clip(name)}' is not a cell of the board"
                                        + (f" (did you mean '{hint}'?)" if hint else ""))
    return game.board.index[name]


def game_state_from_pieces(game: Game, node: Node, file: str) -> State:
    """The state of a `start:` mapping (pieces, to_move, ply, vars), through the game's state text."""
    kinds = _piece_types(game)
    types = game.ruleset.types
    owner_of: dict[tuple[int, int], tuple[int, int]] = {}  # (cell, level) -> (type, line)
    rest: tuple[int, Node] | None = None
    pieces = node.value["pieces"]
    for key, cells_node in pieces.value.items():
        kpos = pieces.key_pos[key]
        if key not in kinds:
            hint = _close(key, kinds)
            shared = [k for k in kinds if k.startswith(key + " of ")]
            msg = (f"every player has '{key}' pieces: say whose, e.g. '{shared[0]}'" if shared else
                   f"unknown piece '{_clip(key)}' (" + (f"did you mean '{hint}'?" if hint
                                                        else f"pieces: {', '.join(kinds)}") + ")")
            raise ScenarioError(file, kpos, msg)
        tid = kinds[key]
        if cells_node.kind == "scalar" and " ".join(cells_node.text.split()) == "all other cells":
            if rest is not None:
                raise ScenarioError(file, cells_node, "only one piece can fill 'all other cells'")
            if types[tid].size > 1:
                raise ScenarioError(file, cells_node,
                                    f"'{key}' covers {types[tid].size} cells; it cannot fill 'all other cells'")
            rest = (tid, cells_node)
            continue
        if cells_node.kind == "scalar":  # `a1, c3, e5` written on one line
            items = [Node(c.strip(), cells_node.line, cells_node.col, c.strip())
                     for c in cells_node.text.split(",")]
        else:
            items = cells_node.value
        cells = []
        level = types[tid].level  # a disc may stand on a tile's cell: one piece per level
        for item in items:
            c = _cell(game, item, file)
            if (c, level) in owner_of:
                other = _name_of(kinds, owner_of[c, level][0])
                raise ScenarioError(file, item, f"cell '{item.text.strip()}' is given twice "
                                                     f"({other} at line {owner_of[c, level][1]})")
            owner_of[c, level] = (tid, item.line)
            cells.append(c)
        size = types[tid].size
        if size > 1 and tuple(sorted(cells)) not in placements(game.board, size):
            shown = ", ".join(game.board.names[c] for c in sorted(cells))
            raise ScenarioError(file, cells_node,
                                f"'{key}' covers {size} cells in a straight line; {shown} is not "
                                f"one of its placements")
    if rest is not None:
        level = types[rest[0]].level
        for c in range(game.board.size):
            if (c, level) not in owner_of and c not in game.board.goals:
                owner_of[c, level] = (rest[0], rest[1].line)
    top: dict[int, tuple[int, int]] = {}  # cell -> (level, type) of its top piece
    for (c, level), (tid, _) in owner_of.items():
        if c not in top or level > top[c][0]:
            top[c] = (level, tid)
    # Build the game's own state text, so the game settles its end rules as for any position.
    rows = "/".join("".join(types[top[c][1]].symbol if c in top else "." for c in row)
                    for row in game.board.text_rows)
    to_move = node.value["to_move"]
    player = _player(game, to_move, file)
    fields = [rows, game.players[player]]
    if "ply" in node.value:
        fields.append(f"ply={node.value['ply'].value}")
    for vname, vnode in (node.get("vars").value.items() if node.get("vars") else []):
        values = _var_values(game, vname, vnode, node.value["vars"].key_pos[vname], file)
        fields.append(f"{vname}=" + ",".join(str(v) for v in values))
    try:
        return game.state_from_text(" ".join(fields))
    except PositionError as e:
        raise ScenarioError(file, node, f"start: {e}") from None


def _name_of(kinds: dict[str, int], tid: int) -> str:
    return next(k for k, v in kinds.items() if v == tid)


def _player(game: Game, node: Node, file: str) -> int:
    name = node.text.strip()
    if name not in game.players:
        raise ScenarioError(file, node, f"unknown player '{_clip(name)}' (players: {', '.join(game.players)})")
    return game.players.index(name)


def _var_values(game: Game, name: str, node: Node, key_pos: tuple[int, int], file: str) -> list[int]:
    """A variable's values as written (number, list per player, or player -> number), checked."""
    var = next((v for v in game.ruleset.vars if v.name == name), None)
    if var is None:
        known = ", ".join(v.name for v in game.ruleset.vars) or "none"
        raise ScenarioError(file, key_pos, f"unknown variable '{_clip(name)}' (variables: {known})")
    if not var.per_player:
        if node.kind != "scalar":
            raise ScenarioError(file, node, f"'{name}' is one number for the whole game, "
                                                 f"found {_found(node)}")
        return [node.value]
    n = len(game.players)
    if node.kind == "mapping":
        for key in node.value:
            if key not in game.players:
                raise ScenarioError(file, node.key_pos[key], f"unknown player '{_clip(key)}' "
                                                             f"(players: {', '.join(game.players)})")
        missing = [p for p in game.players if p not in node.value]
        if missing:
            raise ScenarioError(file, node, f"'{name}' needs a value for every player; "
                                                 f"missing: {', '.join(missing)}")
        return [node.value[p].value for p in game.players]
    values = [x.value for x in node.value] if node.kind == "list" else [node.value]
    if len(values) != n:
        raise ScenarioError(file, node, f"'{name}' is per player: give {n} values "
                                             f"({', '.join(game.players)}), found {len(values)}")
    return values


# ------------------------------------------------------------------ plies as sets

_CELLISH = re.compile(r"^[A-Za-z]+[0-9]+$")
_SEPARATOR = re.compile(r"-|(?<=[0-9])x(?=[A-Za-z])")


def ply_key(game: Game, text: str) -> tuple | str:
    """What identifies a ply's text: its groups of cells (`-` and `x` alike, the cells of a
    group in any order); a text that is not cells joined that way compares as written."""
    text = text.strip()
    groups = []
    for group in _SEPARATOR.split(text):
        cells = group.split("+")
        if not all(c in game.board.index for c in cells):
            return text
        groups.append(tuple(sorted(game.board.index[c] for c in cells)))
    return tuple(groups)


def _expected_plies(game: Game, nodes: list[Node], check: str, file: str) -> list[tuple[tuple | str, str]]:
    """(key, text) of each ply an expectation lists; a cell off the board or a repeat is an error."""
    out: list[tuple[tuple | str, str]] = []
    seen: dict[tuple | str, int] = {}
    for node in nodes:
        text = node.text.strip()
        for token in re.split(r"[-+]|(?<=[0-9])x(?=[A-Za-z])", text):
            if _CELLISH.match(token) and token not in game.board.index:
                raise ScenarioError(file, node, f"{check}: '{_clip(text)}' names '{_clip(token)}', "
                                                f"which is not a cell of the board")
        key = ply_key(game, text)
        if key in seen:
            raise ScenarioError(file, node, f"{check}: '{_clip(text)}' is listed twice "
                                                 f"(first at line {seen[key]})")
        seen[key] = node.line
        out.append((key, text))
    return out


def _natural(text: str) -> list:
    # a2 before a10, and a capture sorted with the step to the same cell.
    # Digit runs compare by length, then text: numbers by value, without int() of a huge one.
    parts = re.split(r"([0-9]+)", _SEPARATOR.sub("-", text))
    return [(len(p.lstrip("0")), p.lstrip("0")) if i % 2 else p for i, p in enumerate(parts)]


def _listing(texts: list[str], most: int | None = None) -> str:
    """Plies for a person to compare: in natural order (not the generator's), comma-separated
    (the first `most` of them and how many in all, when `most` is given)."""
    if not texts:
        return "(none)"
    shown = sorted(texts, key=_natural)
    if most is not None and len(shown) > most:
        return ", ".join(shown[:most]) + f", ... ({len(shown)} in all)"
    return ", ".join(shown)


# ------------------------------------------------------------------ expectations

def check_expectations(game: Game, state: State, expect: Node, file: str,
                       budget: Budget | None = None) -> list[Failure]:
    """Every unmet expectation of `expect` in `state` (errors in `expect` raise ScenarioError)."""
    failures: list[Failure] = []
    budget = Budget() if budget is None else budget
    e = expect.value
    line = expect.key_lines
    legal = game.legal_actions(state)
    budget.spend(len(legal), file, expect, "expect")
    actual = [game.action_to_text(state, a) for a in legal]
    actual_keys = [ply_key(game, t) for t in actual]

    if "state" in e:
        try:
            want = game.state_from_text(e["state"].text)
        except PositionError as err:
            raise ScenarioError(file, e["state"], f"state: {err}") from None
        if want != state:
            failures.append(Failure("state", line["state"], "the position differs", [
                f"expected: {game.state_to_text(want)}", f"actual:   {game.state_to_text(state)}"],
                {"expected": game.state_to_text(want), "actual": game.state_to_text(state)}))

    if "to_move" in e:
        p = _player(game, e["to_move"], file)
        if p != game.to_move(state):
            failures.append(Failure("to_move", line["to_move"],
                                    f"expected {game.players[p]}, actual {game.players[game.to_move(state)]}",
                                    data={"expected": game.players[p],
                                          "actual": game.players[game.to_move(state)]}))

    if "ply" in e and e["ply"].value != game.phase(state) + 1:
        failures.append(Failure("ply", line["ply"], f"expected ply {e['ply'].value} of the turn, "
                                                    f"actual ply {game.phase(state) + 1}",
                                data={"expected": e["ply"].value, "actual": game.phase(state) + 1}))

    if "outcome" in e and "winner" in e:
        raise ScenarioError(file, expect.key_pos["winner"], "give 'outcome' or 'winner', not both")
    for key in ("outcome", "winner"):
        if key in e:
            want_text, holds = _outcome(game, e[key], key, file, state)
            if not holds:
                got = _outcome_text(game, state)
                failures.append(Failure(key, line[key], f"expected {want_text}, actual {got}",
                                        data={"expected": want_text, "actual": got}))

    if "vars" in e:
        vars_node = e["vars"]
        for name, vnode in vars_node.value.items():
            want_values = _var_values(game, name, vnode, vars_node.key_pos[name], file)
            got_values = [game.var(state, name, i) for i in range(len(want_values))]
            if want_values != got_values:
                failures.append(Failure(f"vars.{name}", vars_node.key_lines[name],
                                        f"expected {_values(game, want_values)}; "
                                        f"actual {_values(game, got_values)}",
                                        data={"expected": want_values, "actual": got_values}))

    if "legal" in e:
        want = _expected_plies(game, e["legal"].value, "legal", file)
        failure = _legal_diff(want, actual, actual_keys, line["legal"])
        if failure:
            failures.append(failure)

    if "legal_includes" in e:
        want = _expected_plies(game, e["legal_includes"].value, "legal_includes", file)
        missing = [t for k, t in want if k not in actual_keys]
        if missing:
            failures.append(Failure("legal_includes", line["legal_includes"],
                                    f"not legal: {_listing(missing)}", [f"actual: {_listing(actual)}"],
                                    {"missing": missing, "actual": actual}))

    if "legal_excludes" in e:
        want = _expected_plies(game, e["legal_excludes"].value, "legal_excludes", file)
        keys = {k for k, _ in want}
        present = [t for t, k in zip(actual, actual_keys) if k in keys]
        if present:
            failures.append(Failure("legal_excludes", line["legal_excludes"],
                                    f"legal, but should not be: {_listing(present)}",
                                    [f"actual: {_listing(actual)}"], {"present": present, "actual": actual}))

    if "perft" in e:
        want_counts = [n.value for n in e["perft"].value]
        got = perft_counts(game, state, len(want_counts), budget.left)
        if got is None:
            budget.spent = budget.limit
            failures.append(Failure("perft", line["perft"],
                                    f"not checked: counting {_depths(len(want_counts))} would pass "
                                    f"{budget.describe()}",
                                    data={"expected": want_counts, "actual": None, "limit": budget.limit}))
            return failures
        budget.spent += sum(got)
        got_counts = got
        if want_counts != got_counts:
            depth = next(i for i, (a, b) in enumerate(zip(want_counts, got_counts), start=1) if a != b)
            failures.append(Failure("perft", line["perft"],
                                    f"first difference at depth {depth}: expected {want_counts[depth - 1]}, "
                                    f"actual {got_counts[depth - 1]}",
                                    [f"expected: {', '.join(map(str, want_counts))}",
                                     f"actual:   {', '.join(map(str, got_counts))}"],
                                    {"expected": want_counts, "actual": got_counts}))
    return failures


def _depths(n: int) -> str:
    return "depth 1" if n == 1 else f"depths 1 to {n}"


def perft_counts(game: Game, state: State, depth: int, budget: int) -> list[int] | None:
    """[perft(1), ..., perft(depth)] from `state` in one walk of the tree (docs/RULES.md's
    definition: a position that is over has no plies), or None as soon as the counts
    together pass `budget` plies (each counted ply costs a move generation or less)."""
    counts = [0] * depth
    total = 0
    stack = [(state, 0)]
    legal, apply = game.legal_actions, game.apply
    while stack:
        s, d = stack.pop()
        actions = legal(s)
        counts[d] += len(actions)
        total += len(actions)
        if total > budget:
            return None
        if d + 1 < depth:
            stack.extend((apply(s, a), d + 1) for a in actions)
    return counts


def _legal_diff(want: list[tuple[tuple | str, str]], actual: list[str], actual_keys: list,
                line: int) -> Failure | None:
    """The `legal` expectation: the legal plies are exactly `want`, each once."""
    want_keys = {k for k, _ in want}
    missing = [t for k, t in want if k not in actual_keys]
    extra = [t for t, k in zip(actual, actual_keys) if k not in want_keys]
    repeated = sorted({t for t, k in zip(actual, actual_keys) if actual_keys.count(k) > 1})
    if not (missing or extra or repeated):
        return None
    parts = []
    if missing:
        parts.append(f"{len(missing)} missing")
    if extra:
        parts.append(f"{len(extra)} extra")
    if repeated:
        parts.append(f"{len(repeated)} listed more than once")
    details = [f"expected: {_listing([t for _, t in want])}", f"actual:   {_listing(actual)}"]
    if missing:
        details.append(f"missing:  {_listing(missing)}")
    if extra:
        details.append(f"extra:    {_listing(extra)}")
    if repeated:
        details.append(f"repeated: {_listing(repeated)}")
    return Failure("legal", line, ", ".join(parts), details,
                   {"expected": [t for _, t in want], "actual": actual, "missing": missing,
                    "extra": extra, "repeated": repeated})


def _values(game: Game, values: list[int]) -> str:
    if len(values) == 1 and len(game.players) != 1:
        return str(values[0])
    return ", ".join(f"{p} {v}" for p, v in zip(game.players, values))


def _outcome(game: Game, node: Node, key: str, file: str, state: State) -> tuple[str, bool]:
    """What an `outcome`/`winner` expectation says, and whether it holds in `state`."""
    words = node.text.split()
    if key == "winner":
        p = _player(game, node, file)
        return f"{game.players[p]} wins", game.winner(state) == p
    if words == ["ongoing"]:
        return "ongoing", not game.is_terminal(state)
    if words == ["draw"]:
        return "draw", game.is_draw(state)
    if len(words) == 2 and words[1] in ("wins", "win", "loses", "lose"):
        # `win` and `lose` as in the language (`Musketeers win`); a loss is a win of another.
        p = _player(game, Node(words[0], node.line, node.col, words[0]), file)
        w = game.winner(state)
        if words[1].startswith("win"):
            return f"{words[0]} {words[1]}", w == p
        return f"{words[0]} {words[1]}", w is not None and w != p
    raise ScenarioError(file, node, f"outcome must be 'ongoing', 'draw', 'NAME wins' or "
                                    f"'NAME loses', found '{_clip(node.text)}'")


def _outcome_text(game: Game, state: State) -> str:
    if not game.is_terminal(state):
        return f"ongoing ({game.players[game.to_move(state)]} to move)"
    w = game.winner(state)
    return "draw" if w is None else f"{game.players[w]} wins"
