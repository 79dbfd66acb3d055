"""The structural check of a scenario file, made before any ruleset is read: what each value
must look like (`Spec` and its kinds), and the file's schema built from them (`FILE_SCHEMA`,
which docs/SCENARIOS.md's "The structure, in full" lists key by key).

What only the game can tell (cells, pieces, players, variables) is checked when a scenario runs.
"""

from __future__ import annotations

from typing import Iterable

from interpreter.apps.scenarios import limits
from interpreter.apps.scenarios.errors import Problem, clip, close
from interpreter.apps.scenarios.yaml_nodes import Node, TooBig, described


class Spec:
    """One rule of the structural check: what a value must look like."""

    what = "a value"
    kind = "scalar"  # the kind of value it takes, by which `Either` chooses

    def check(self, node: Node, name: str, errors: list[Problem]) -> None:
        """Add to `errors` what is wrong with `node`, the value of `name`."""
        raise NotImplementedError

    def wrong(self, node: Node, name: str) -> Problem:
        """The error of a value that is not what this spec wants."""
        return Problem(node, f"'{name}' must be {self.what}, found {described(node)}")


class Text(Spec):
    """Any scalar, read as its source text."""

    def __init__(self, what: str = "a string") -> None:
        self.what = what

    def check(self, node: Node, name: str, errors: list[Problem]) -> None:
        if node.kind != "scalar" or not node.text.strip():
            errors.append(self.wrong(node, name))


class Whole(Spec):
    """A whole number (decimal digits), at least `minimum`."""

    def __init__(self, minimum: int | None = None, what: str = "a whole number") -> None:
        self.minimum, self.what = minimum, what

    def check(self, node: Node, name: str, errors: list[Problem]) -> None:
        v = node.value
        if isinstance(v, TooBig):
            errors.append(Problem(node, v.problem()))
        elif not isinstance(v, int) or (self.minimum is not None and v < self.minimum):
            errors.append(self.wrong(node, name))


class ListOf(Spec):
    """A list of values of one spec, from `min_items` to `max_items` of them."""

    kind = "list"

    def __init__(self, item: Spec, what: str, min_items: int = 0, max_items: int | None = None,
                 items: str = "items") -> None:
        self.item, self.what, self.min_items, self.max_items, self.items = item, what, min_items, max_items, items

    def check(self, node: Node, name: str, errors: list[Problem]) -> None:
        if node.kind != "list":
            errors.append(self.wrong(node, name))
            return
        if len(node.value) < self.min_items:
            errors.append(Problem(node, f"'{name}' must be {self.what}, found an empty list"))
        if self.max_items is not None and len(node.value) > self.max_items:
            errors.append(Problem(node, f"'{name}' lists {len(node.value):,} {self.items}; the limit "
                                        f"is {self.max_items:,}"))
            return
        for i, item in enumerate(node.value, start=1):
            self.item.check(item, f"{name}[{i}]", errors)


class PerftList(ListOf):
    """`perft`: at most MAX_PERFT_DEPTH counts, which together stay within MAX_SCENARIO_PLIES."""

    def __init__(self) -> None:
        super().__init__(Whole(0, "a whole number of 0 or more"), "a list of leaf counts for depths 1, 2, ...",
                         min_items=1, max_items=limits.MAX_PERFT_DEPTH, items="depths")

    def check(self, node: Node, name: str, errors: list[Problem]) -> None:
        before = len(errors)
        super().check(node, name, errors)
        if len(errors) > before:
            return
        total = sum(n.value for n in node.value)
        if total > limits.MAX_SCENARIO_PLIES:
            errors.append(Problem(node, f"'{name}' counts {total:,} plies in all; the limit of a "
                                        f"scenario is {limits.MAX_SCENARIO_PLIES:,}"))


class MapOf(Spec):
    """A mapping with keys of the ruleset's own (pieces, variables), checked later."""

    kind = "mapping"

    def __init__(self, value: Spec, what: str) -> None:
        self.value, self.what = value, what

    def check(self, node: Node, name: str, errors: list[Problem]) -> None:
        if node.kind != "mapping" or not node.value:
            errors.append(Problem(node, f"'{name}' must be {self.what}, found "
                                        f"{'an empty mapping' if node.kind == 'mapping' else described(node)}"))
            return
        for key, value in node.value.items():
            self.value.check(value, clip(key), errors)


class Fields(Spec):
    """A mapping with fixed keys: unknown ones and missing required ones are errors."""

    kind = "mapping"

    def __init__(self, fields: dict[str, Spec], required: Iterable[str] = (), what: str = "a mapping",
                 nonempty: bool = False) -> None:
        self.fields, self.required, self.what, self.nonempty = fields, list(required), what, nonempty

    def check(self, node: Node, name: str, errors: list[Problem]) -> None:
        if node.kind != "mapping":
            errors.append(self.wrong(node, name))
            return
        for key, value in node.value.items():
            if key not in self.fields:
                near = close(key, self.fields)
                hint = f"did you mean '{near}'?" if near else f"known: {', '.join(self.fields)}"
                errors.append(Problem(node.key_pos[key], f"unknown key '{clip(key)}' in '{name}' ({hint})"))
            else:
                self.fields[key].check(value, key, errors)
        for key in self.required:
            if key not in node.value:
                errors.append(Problem(node, f"'{name}' is missing '{key}'"))
        if self.nonempty and not node.value:
            errors.append(Problem(node, f"'{name}' is empty: give at least one of "
                                        f"{', '.join(self.fields)}"))


class Either(Spec):
    """One of several specs, chosen by the kind of the value (scalar, list or mapping)."""

    def __init__(self, *options: Spec, what: str) -> None:
        self.options, self.what = options, what

    def check(self, node: Node, name: str, errors: list[Problem]) -> None:
        for spec in self.options:
            if spec.kind == node.kind:
                spec.check(node, name, errors)
                return
        errors.append(self.wrong(node, name))


PLIES_TO_FIND = ListOf(Text("a ply's text"), "a list of ply texts", min_items=1)
TURN_PLY = Whole(1, "a whole number from 1 (the ply of the turn)")
PLY_LIST = ListOf(Text("a ply's text"), "a list of ply texts")
CELLS = Either(Text(), ListOf(Text("a cell's name"), "a list of cells", min_items=1),
               what="a list of cells (or 'all other cells')")
VALUE = Either(Whole(), ListOf(Whole(), "a list of whole numbers, one per player", min_items=1),
               MapOf(Whole(), "a mapping of player to value"),
               what="a whole number, a list with one per player, or a mapping of player to value")
VARS = MapOf(VALUE, "a mapping of variable to value")
START = Either(
    Text("'setup' or a state's text"),
    Fields({
        "pieces": MapOf(CELLS, "a mapping of piece to cells"),
        "to_move": Text("a player's name"),
        "ply": TURN_PLY,
        "vars": VARS,
    }, required=["pieces", "to_move"]),
    what="'setup', a state's text, or a mapping with pieces and to_move")
EXPECT = Fields({
    "legal": PLY_LIST,
    "legal_includes": PLIES_TO_FIND,
    "legal_excludes": PLIES_TO_FIND,
    "outcome": Text("'ongoing', 'draw', 'NAME wins' or 'NAME loses'"),
    "winner": Text("a player's name"),
    "to_move": Text("a player's name"),
    "ply": TURN_PLY,
    "state": Text("a state's text"),
    "vars": VARS,
    "perft": PerftList(),
}, nonempty=True)
SCENARIO_FIELDS: dict[str, Spec] = {
    "name": Text(),
    "description": Text(),
    "ruleset": Text("a ruleset's name or path"),
    "start": START,
    "plies": ListOf(Text("a ply's text"), "a list of ply texts", max_items=limits.MAX_PLIES, items="plies"),
    "expect": EXPECT,
}
SCENARIO = Fields(SCENARIO_FIELDS, required=["name", "expect"], what="a scenario (a mapping)")
SCENARIO_LIST = ListOf(SCENARIO, "a list of scenarios", min_items=1, max_items=limits.MAX_SCENARIOS,
                       items="scenarios")
FILE_SCHEMA = Fields({
    "ruleset": Text("a ruleset's name or path"),
    "description": Text(),
    "scenarios": SCENARIO_LIST,
}, required=["scenarios"])
