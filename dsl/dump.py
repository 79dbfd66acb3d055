"""The game model (dsl/model.py) as indented text: `rulecraft compile --emit-model`."""

from __future__ import annotations

import dataclasses
from enum import Enum

from dsl import board as boards


def dump(node: object) -> str:
    """A model (or any node of it) as indented text, spans left out."""
    return "\n".join(_dump(node, 0))


def _is_node(v: object) -> bool:
    return dataclasses.is_dataclass(v) and not isinstance(v, (type, boards.Board))


def _text(v: object) -> str:
    if isinstance(v, Enum):
        return v.name
    if isinstance(v, boards.Board):
        return f"<board {v.shape}, {v.size} cells>"
    return repr(v)


def _dump(v: object, depth: int) -> list[str]:
    pad = "  " * depth
    if isinstance(v, (list, tuple)) and any(_is_node(x) for x in v):
        out = []
        for x in v:
            lines = _dump(x, depth + 1)
            out += [pad + "- " + lines[0].lstrip()] + lines[1:]
        return out
    if not _is_node(v):
        return [pad + _text(v)]
    out = [pad + type(v).__name__]
    for f in dataclasses.fields(v):  # type: ignore[arg-type]
        if f.name in ("span", "sources"):
            continue
        x = getattr(v, f.name)
        if f.name in ("players", "warnings") and not x and isinstance(x, (list, tuple)):
            continue  # a rule the same for every player, a ruleset without warnings
        nested = _is_node(x) or (isinstance(x, (list, tuple)) and any(_is_node(y) for y in x))
        if nested:
            out += [f"{pad}  {f.name}:"] + _dump(x, depth + 2)
        else:
            out.append(f"{pad}  {f.name}: {_text(x)}")
    return out
