"""What generated code is compiled against: the expression contexts, the hoisting of
loop-invariant subexpressions, and the sinks of move generators."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from dsl import model


class Sink(Enum):
    """What a move generator does with each ply it finds."""

    LIST = "moves"  # `moves_N(s)`: lists it
    EXISTS = "has"  # `has_N(s)`: answers yes at the first
    FIRST = "first"  # `first_N(s, a)`: counts them, keeping the first (the native solver's)


@dataclass
class Ctx:
    """What a model expression may refer to where it is compiled: the state's local, the
    mover, the locals of here, from and the path, and what is hoisted out of loops."""

    s: str  # the state's local name
    mover: int
    here: str | None = None
    frm: str | None = None
    stuck: str | None = None
    next_is_mover: bool = True  # while generating plies, the player to move is the mover
    path: str | None = None  # the cells a slide passes (None: none)
    hoist: "Hoister | None" = None  # where loop-invariant subexpressions go
    single: bool = False  # here and from are single cells (table lookups work on them)
    adj_path: dict | None = None  # directions -> the local kept as adjacent(path) grows
    here_cell: str | None = None  # the local naming here's cell index, where there is one


class Hoister:
    """Locals for subexpressions that do not change inside a loop, computed above it.

    `inner` names what changes per candidate ply (here, path; from too for a push);
    what depends on none of it is computed once per call ("outer") or once per piece
    ("piece", when it depends on from). Each local keeps its kind, for a typed back-end.
    """

    def __init__(self, prefix: str, inner: set[str]):
        self.prefix, self.inner = prefix, inner
        self.outer: list[tuple[str, str, str]] = []
        self.piece: list[tuple[str, str, str]] = []
        self._names: dict[str, str] = {}

    def local(self, code: str, level: str, kind: str) -> str:
        if code not in self._names:
            name = f"{self.prefix}{len(self._names)}"
            self._names[code] = name
            (self.piece if level == "piece" else self.outer).append((name, code, kind))
        return self._names[code]


KIND_OF_TYPE = {model.Type.CELLS: "cells", model.Type.NUMBER: "num", model.Type.BOOL: "flag",
                model.Type.PLAYER: "flag"}


def deps(e: model.Expr) -> set[str]:
    """What `e` reads: here, from, path (the ply's cells) and state (the position)."""
    out: set[str] = set()
    for n in model.walk(e):
        if isinstance(n, model.Ref):
            w = n.word.value
            out.add(w if w in ("here", "from", "path") else "state")
        elif isinstance(n, (model.Pieces, model.VarRead, model.Relate, model.Amount)):
            out.add("state")
        elif isinstance(n, model.Call) and n.func == "undoes":  # compares this ply with the last
            out |= {"here", "from", "state"}
    return out
