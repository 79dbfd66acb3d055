"""The state layout: which slot of a state tuple holds what, each slot typed.

A state is a tuple of integers. The layout says what each one is, so that the code
generator, the solver's codec and the symmetry code read one description instead
of guessing: a slot holding cells (a piece type's bitmask, or a cell the previous
ply left or reached) is mapped by a board symmetry; a counter or the player to
move is not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from dsl.model import Ruleset


class SlotKind(Enum):
    PIECES = "pieces"  # a bitmask of the cells one piece type stands on
    PLAYER = "player"  # the player to move
    PHASE = "phase"  # the phase of the turn
    COUNTER = "counter"  # a variable's value (a per-player variable: one slot a player)
    RESERVE = "reserve"  # how many pieces of a type its owner still holds off the board
    COUNT = "count"  # how many pieces of a counted type stand on one cell (one slot a cell)
    LAST_RULE = "last rule"  # history: the previous ply's rule (0: none remembered)
    LAST_CELLS = "last cells"  # history: the cells the previous ply left (from) or reached (here)
    OUTCOME = "outcome"  # -1 going on, a winner's index, or the number of players: a draw

    @property
    def holds_cells(self) -> bool:
        """Whether the slot is a bitmask of cells (so a board symmetry maps it)."""
        return self in (SlotKind.PIECES, SlotKind.LAST_CELLS)


@dataclass(frozen=True)
class Slot:
    index: int
    kind: SlotKind
    name: str  # for people: `man/White`, `score[Black]`, `previous.from`, ...
    low: int | None = None  # the values a counter keeps to (None: no bound known here)
    high: int | None = None


@dataclass(frozen=True)
class Layout:
    """Where each part of a state lives in the state tuple."""

    types: int  # masks 0..types-1, one per piece type
    players: int
    var_offsets: dict[str, int]  # variable name -> first slot
    reserve_offsets: dict[int, int]  # piece type -> slot of its owner's reserve
    memory: int | None  # first of 3 slots: the previous ply's rule, its from cell, its here cell
    length: int
    slots: tuple[Slot, ...]
    # counted piece type -> the slot of its count on cell 0 (cell c's: that slot + c)
    count_offsets: dict[int, int] = field(default_factory=dict)

    @property
    def P(self) -> int:  # player to move
        return self.types

    @property
    def PH(self) -> int:  # phase of the turn
        return self.types + 1

    @property
    def OUT(self) -> int:  # outcome: -1 going on, a winner's index, or `players` for a draw
        return self.length - 1

    def cell_slots(self) -> tuple[int, ...]:
        """The slots holding cell masks, in order."""
        return tuple(s.index for s in self.slots if s.kind.holds_cells)


def make_layout(rs: Ruleset) -> Layout:
    """Piece masks, player, phase, variables, counts, reserves, the previous ply, the outcome."""
    slots = [Slot(i, SlotKind.PIECES, _type_name(rs, i)) for i in range(len(rs.types))]
    slots += [Slot(len(slots), SlotKind.PLAYER, "player"), Slot(len(slots) + 1, SlotKind.PHASE, "phase")]
    offsets: dict[str, int] = {}
    for v in rs.vars:
        offsets[v.name] = len(slots)
        owners = [f"{v.name}[{p}]" for p in rs.players] if v.per_player else [v.name]
        slots += [Slot(len(slots) + i, SlotKind.COUNTER, n, v.low, v.high) for i, n in enumerate(owners)]
    counts: dict[int, int] = {}
    for i, t in enumerate(rs.types):
        if t.counted:
            counts[i] = len(slots)
            slots += [Slot(len(slots) + c, SlotKind.COUNT, f"{_type_name(rs, i)}[{name}]", 0, t.counted)
                      for c, name in enumerate(rs.board.names)]
    reserves: dict[int, int] = {}
    for i, t in enumerate(rs.types):
        if t.reserve is not None:
            reserves[i] = len(slots)
            slots.append(Slot(len(slots), SlotKind.RESERVE, "reserve." + _type_name(rs, i), 0, t.reserve))
    memory = None
    if rs.remembers:
        memory = len(slots)
        slots += [Slot(memory, SlotKind.LAST_RULE, "previous.rule"),
                  Slot(memory + 1, SlotKind.LAST_CELLS, "previous.from"),
                  Slot(memory + 2, SlotKind.LAST_CELLS, "previous.here")]
    slots.append(Slot(len(slots), SlotKind.OUTCOME, "outcome"))
    return Layout(len(rs.types), len(rs.players), offsets, reserves, memory, len(slots), tuple(slots),
                  counts)


def _type_name(rs: Ruleset, i: int) -> str:
    t = rs.types[i]
    return t.kind + ("" if t.owner is None else "/" + rs.players[t.owner])
