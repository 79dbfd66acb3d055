"""YAML text to a tree of `Node`s that remember their line and column.

`Loader` is PyYAML's reader, scanner, parser and composer without a constructor, so that
nothing is built from the file but text, whole numbers, null, lists and mappings; any other
tag is an error. The size of the tree is bounded (limits.MAX_NODES values, aliases
expanded; limits.MAX_DEPTH levels; limits.MAX_TEXT characters a value).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.parser import Parser
from yaml.reader import Reader
from yaml.resolver import BaseResolver
from yaml.scanner import Scanner

from interpreter.apps.scenarios import limits
from interpreter.apps.scenarios.errors import Problem, Where, clip

STR_TAG = "tag:yaml.org,2002:str"
INT_TAG = "tag:yaml.org,2002:int"
NULL_TAG = "tag:yaml.org,2002:null"
MAP_TAG = "tag:yaml.org,2002:map"
SEQ_TAG = "tag:yaml.org,2002:seq"
MERGE_TAG = "tag:yaml.org,2002:merge"
_INT = re.compile(r"[-+]?[0-9]+\Z")  # decimal only, as in YAML 1.2's core schema ([0-9] is ASCII)
_NULL = re.compile(r"(?:~|null|Null|NULL|)\Z")
_BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


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
        """"mapping", "list", "null" or "scalar"."""
        if isinstance(self.value, dict):
            return "mapping"
        if isinstance(self.value, list):
            return "list"
        return "null" if self.value is None else "scalar"

    @property
    def key_lines(self) -> dict[str, int]:
        """The line of each key of a mapping."""
        return {k: p[0] for k, p in self.key_pos.items()}

    def get(self, key: str) -> Node | None:
        """The value of `key` in a mapping (None if absent or not a mapping)."""
        return self.value.get(key) if isinstance(self.value, dict) else None


def described(node: Node) -> str:
    """A value as an error says what was found instead of what was wanted."""
    if node.kind == "mapping":
        return "a mapping"
    if node.kind == "list":
        return "a list"
    if node.kind == "null":
        return "nothing"
    return f"'{clip(node.text)}'"


class TooBig(str):
    """A whole number past MAX_NUMBER, kept as its text: fine as a name, an error as a number."""

    def problem(self) -> str:
        """The error of this text used as a number."""
        sign = "-" if self.startswith("-") else ""
        digits = self.lstrip("+-").lstrip("0") or "0"
        return f"number {clip(sign + digits, 16)} is beyond the limit of {sign}{limits.MAX_NUMBER:,}"


def _mark(mark: Any) -> tuple[int, int]:
    return mark.line + 1, mark.column + 1


class Loader(Reader, Scanner, Parser, Composer, BaseResolver):
    """PyYAML's reader, scanner, parser and composer, and no constructor: the document
    becomes a tree of yaml nodes and nothing else. A plain scalar resolves to a whole number
    (decimal digits), null (`~`, `null`, nothing) or text: never a date, a float or a truth
    value. Composing stops past MAX_DEPTH levels or MAX_NODES values (PyYAML's composer
    recurses once per level)."""

    def __init__(self, text: str) -> None:
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
            if self.depth > limits.MAX_DEPTH:
                raise Problem(_mark(self.peek_event().start_mark),
                              f"values nest more than {limits.MAX_DEPTH} levels deep")
            if self.count > limits.MAX_NODES:
                raise Problem(_mark(self.peek_event().start_mark),
                              f"the file holds more than {limits.MAX_NODES:,} values")
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


Loader.add_implicit_resolver(INT_TAG, _INT, list("-+0123456789"))
Loader.add_implicit_resolver(NULL_TAG, _NULL, ["~", "n", "N", ""])
Loader.add_implicit_resolver(MERGE_TAG, re.compile(r"<<\Z"), ["<"])


def parse_yaml(text: str) -> Node | None:
    """The document in `text` as a `Node` tree (None when empty); raises Problem."""
    try:
        # The reader checks every character of a str here, and never again.
        loader = Loader(text)
    except yaml.reader.ReaderError as e:
        before = text[: e.position]
        line = before.count("\n") + 1
        col = e.position - (before.rfind("\n") + 1) + 1
        raise Problem((line, col), f"invalid YAML: character U+{e.character:04X} is not allowed "
                                   f"in a YAML file") from None
    try:
        root = loader.get_single_node()
        return None if root is None else _convert(root, [limits.MAX_NODES], 1)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        raise Problem(_mark(mark) if mark else None, f"invalid YAML: {_explained(e, mark)}") from None
    except yaml.YAMLError as e:
        raise Problem(None, f"invalid YAML: {e}") from None
    finally:
        loader.dispose()


def _explained(e: yaml.MarkedYAMLError, mark: Any) -> str:
    """PyYAML's problem and its context (where it is not at `mark`) as one phrase."""
    what = e.problem or e.context or "cannot be read"
    if e.context and e.problem and e.problem.startswith("but "):
        what = f"{e.context}, {e.problem}"  # "expected a single document..., but found another"
    elif e.context and e.problem:
        at = f" at line {e.context_mark.line + 1}" if e.context_mark and e.context_mark is not mark else ""
        what += f" ({e.context}{at})"
    return what


def _tag(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


def _unsupported(where: Where, tag: str) -> Problem:
    return Problem(where, f"unsupported YAML tag '{clip(_tag(tag))}' (a scenario file holds text, whole "
                          f"numbers, lists and mappings)")


def _scalar(node: yaml.ScalarNode) -> int | str | None:
    """A scalar's value: text, a whole number or None; any other tag is an error. A number
    past MAX_NUMBER stays text (`TooBig`): int() is never given thousands of digits."""
    where = _mark(node.start_mark)
    text = node.value
    if len(text) > limits.MAX_TEXT:
        raise Problem(where, f"a value of {len(text):,} characters is longer than the limit of "
                             f"{limits.MAX_TEXT:,}")
    for ch in text:
        if ch in "\t\n\r":
            continue
        kind = unicodedata.category(ch)
        if kind in ("Cc", "Cs") or ch in _BIDI:
            what = {"Cc": "a control character", "Cs": "a lone surrogate"}.get(kind, "a bidirectional control")
            raise Problem(where, f"character U+{ord(ch):04X} ({what}) is not allowed in a value")
    if node.tag == STR_TAG:
        return text
    if node.tag == INT_TAG:
        if not _INT.match(text):
            raise Problem(where, f"'{clip(text)}' is tagged !!int but is not a whole number")
        digits = text.lstrip("+-").lstrip("0")
        if len(digits) > len(str(limits.MAX_NUMBER)) or int(digits or "0") > limits.MAX_NUMBER:
            return TooBig(text)
        return int(text)
    if node.tag == NULL_TAG:
        if not _NULL.match(text):
            raise Problem(where, f"'{clip(text)}' is tagged !!null but is not empty")
        return None
    raise _unsupported(where, node.tag)


def _convert(node: yaml.Node, budget: list[int], depth: int) -> Node:
    """`node` as a Node tree; `budget[0]` counts down the values left (aliases expanded)."""
    line, col = _mark(node.start_mark)
    budget[0] -= 1
    if budget[0] < 0:
        raise Problem((line, col), f"the document expands to more than {limits.MAX_NODES:,} values "
                                   f"(aliases repeated too often?)")
    if depth > limits.MAX_DEPTH:
        raise Problem((line, col), f"values nest more than {limits.MAX_DEPTH} levels deep (a recursive alias?)")
    if isinstance(node, yaml.ScalarNode):
        return Node(_scalar(node), line, col, node.value)
    expected = SEQ_TAG if isinstance(node, yaml.SequenceNode) else MAP_TAG
    if node.tag != expected:
        raise _unsupported((line, col), node.tag)
    if isinstance(node, yaml.SequenceNode):
        return Node([_convert(n, budget, depth + 1) for n in node.value], line, col)
    return _mapping(node, Node({}, line, col), budget, depth)


def _mapping(node: yaml.MappingNode, out: Node, budget: list[int], depth: int) -> Node:
    """Fill `out` (an empty mapping Node) with the keys of `node`, merge keys (`<<`) included."""
    merged = Node({}, out.line, out.col)  # what `<<` brings, for the keys the mapping lacks
    for k, v in node.value:
        kpos = _mark(k.start_mark)
        if k.tag == MERGE_TAG:
            _merge(v, kpos, merged, budget, depth)
            continue
        if not isinstance(k, yaml.ScalarNode):
            raise Problem(kpos, "a mapping key must be a plain word, not a list or mapping")
        _scalar(k)  # the same checks as a value: length, characters, tag
        key = k.value
        if key in out.value:
            raise Problem(kpos, f"duplicate key '{clip(key)}' (first at line {out.key_pos[key][0]})")
        out.key_pos[key] = kpos
        out.value[key] = _convert(v, budget, depth + 1)
    for key, value in merged.value.items():
        if key not in out.value:
            out.value[key], out.key_pos[key] = value, merged.key_pos[key]
    return out


def _merge(v: yaml.Node, kpos: tuple[int, int], merged: Node, budget: list[int], depth: int) -> None:
    """`<<: *base` (or a list of them): add to `merged` the keys of each base it lacks.

    Done here rather than by PyYAML's flatten_mapping, which edits the node in place and so
    would see duplicates when an alias visits it again."""
    for source in (v.value if isinstance(v, yaml.SequenceNode) else [v]):
        if not isinstance(source, yaml.MappingNode):
            raise Problem(kpos, "a merge key (<<) takes a mapping or a list of mappings")
        base = _convert(source, budget, depth + 1)
        for key, value in base.value.items():
            if key not in merged.value:  # the first mapping listed wins, as in YAML
                merged.value[key], merged.key_pos[key] = value, base.key_pos[key]
