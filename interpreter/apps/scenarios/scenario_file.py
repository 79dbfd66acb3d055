"""Reading a scenario file: its bytes (bounded, UTF-8), its YAML, the structural check, and
the `Scenario`s it holds."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

from interpreter.apps.scenarios import limits
from interpreter.apps.scenarios.errors import Problem, ScenarioError, ScenarioFileError, Where, clip
from interpreter.apps.scenarios.schema import FILE_SCHEMA, SCENARIO, SCENARIO_LIST
from interpreter.apps.scenarios.yaml_nodes import Node, described, parse_yaml


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
            data = f.read(limits.MAX_FILE_BYTES + 1)
    except OSError as e:
        raise fail(None, f"cannot read: {e.strerror}") from None
    if len(data) > limits.MAX_FILE_BYTES:
        raise fail(None, f"file is larger than the limit of {limits.MAX_FILE_BYTES:,} bytes")
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
    except Problem as p:
        raise ScenarioFileError([p.error(path)]) from None
    if root is None:
        raise ScenarioFileError([ScenarioError(path, None, "the file holds no scenarios")])
    problems: list[Problem] = []
    items, file_ruleset = _checked_items(root, path, problems)
    if problems:
        raise ScenarioFileError([p.error(path) for p in problems])
    scenarios = _scenarios(items, file_ruleset, path, problems)
    if problems:
        raise ScenarioFileError([p.error(path) for p in problems])
    return scenarios


def _checked_items(root: Node, path: str, problems: list[Problem]) -> tuple[Node, Node | None]:
    """The list of scenarios of one of the file's three shapes, and the file's ruleset, if it
    gives one; adds to `problems` what the structural check finds."""
    if root.kind == "list":
        SCENARIO_LIST.check(root, "scenarios", problems)
        return root, None
    if root.kind == "mapping" and "scenarios" in root.value:
        FILE_SCHEMA.check(root, "file", problems)
        return root.value["scenarios"], root.get("ruleset")
    if root.kind == "mapping":  # a file of one scenario
        SCENARIO.check(root, "scenario", problems)
        return Node([root], root.line, root.col), None
    raise ScenarioFileError([ScenarioError(
        path, root, f"a scenario file is a mapping or a list of scenarios, found {described(root)}")])


def _scenarios(items: Node, file_ruleset: Node | None, path: str, problems: list[Problem]) -> list[Scenario]:
    """The scenarios of checked `items`; adds to `problems` a name used twice and a missing ruleset."""
    scenarios: list[Scenario] = []
    names: dict[str, int] = {}
    for item in items.value:
        name_node = item.value["name"]
        name = name_node.text
        if name in names:
            problems.append(Problem(name_node, f"scenario name '{clip(name)}' is used twice "
                                               f"(first at line {names[name]})"))
        names.setdefault(name, name_node.line)
        ruleset = item.get("ruleset") or file_ruleset
        if ruleset is None:
            problems.append(Problem(item, f"scenario '{clip(name)}' names no ruleset "
                                          f"(give 'ruleset' in it or at the top of the file)"))
            continue
        plies = item.get("plies")
        scenarios.append(Scenario(path, item.line, name, ruleset, item.get("start"),
                                  plies.value if plies else [], item.value["expect"], item.col))
    return scenarios
