"""Plies as a scenario writes them: what identifies one (`ply_key`), the checked lists of an
expectation, and lists of plies as a person reads them."""

from __future__ import annotations

import re

from interpreter.runtime.game import Game
from interpreter.apps.scenarios.errors import ScenarioError, clip
from interpreter.apps.scenarios.yaml_nodes import Node

_CELLISH = re.compile(r"^[A-Za-z]+[0-9]+$")
_SEPARATOR = re.compile(r"-|(?<=[0-9])x(?=[A-Za-z])")  # between groups: a step, or `x` for a capture
_CELL_SEPARATOR = re.compile(r"[-+]|(?<=[0-9])x(?=[A-Za-z])")  # between cells, within groups too

PlyKey = tuple | str


def ply_key(game: Game, text: str) -> PlyKey:
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


def expected_plies(game: Game, nodes: list[Node], check: str, file: str) -> list[tuple[PlyKey, str]]:
    """(key, text) of each ply an expectation lists; a cell off the board or a repeat is an error."""
    out: list[tuple[PlyKey, str]] = []
    seen: dict[PlyKey, int] = {}
    for node in nodes:
        text = node.text.strip()
        for token in _CELL_SEPARATOR.split(text):
            if _CELLISH.match(token) and token not in game.board.index:
                raise ScenarioError(file, node, f"{check}: '{clip(text)}' names '{clip(token)}', "
                                                f"which is not a cell of the board")
        key = ply_key(game, text)
        if key in seen:
            raise ScenarioError(file, node, f"{check}: '{clip(text)}' is listed twice "
                                            f"(first at line {seen[key]})")
        seen[key] = node.line
        out.append((key, text))
    return out


def _natural(text: str) -> list:
    # a2 before a10, and a capture sorted with the step to the same cell.
    # Digit runs compare by length, then text: numbers by value, without int() of a huge one.
    parts = re.split(r"([0-9]+)", _SEPARATOR.sub("-", text))
    return [(len(p.lstrip("0")), p.lstrip("0")) if i % 2 else p for i, p in enumerate(parts)]


def listing(texts: list[str], most: int | None = None) -> str:
    """Plies for a person to compare: in natural order (not the generator's), comma-separated
    (the first `most` of them and how many in all, when `most` is given)."""
    if not texts:
        return "(none)"
    shown = sorted(texts, key=_natural)
    if most is not None and len(shown) > most:
        return ", ".join(shown[:most]) + f", ... ({len(shown)} in all)"
    return ", ".join(shown)
