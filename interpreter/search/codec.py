"""A state tuple packed into one non-negative integer, slot by slot as the layout types them.

The slots that hold cells (`SlotKind.holds_cells`: the piece masks, then the cells the
previous ply left and reached) come first, one bit per cell each, in the low bits, so that
a board symmetry permutes those bits only (`symmetry.Canonicalizer`). Every other slot
follows, biased to start at 0 and as wide as the values its kind allows:

- the player to move: 0 .. players - 1; the phase of the turn: 0 .. phases - 1;
- a counter (a variable): its declared range `low..high`; a variable declared without a
  range keeps to the language's default bound (about +-10^9), where VAR_BITS bits (-32768
  to 32767) are stored instead, as 31 bits would widen every key (3-Spot's from 63 to 93
  bits, past the 64 that keep a solution's keys in a compact array) for values no
  bundled game comes near;
- a reserve: 0 .. the pieces its owner starts with;
- the previous ply's rule: 0 (none) .. the number of rules + 1 (a pass);
- the outcome: -1 .. players.
A slot of a single value takes no bit.
"""

from __future__ import annotations

from typing import NamedTuple

from dsl.syntax import VAR_BOUND

from interpreter.runtime.game import Game, State
from interpreter.runtime.layout import Slot, SlotKind

VAR_BITS = 16  # a variable without a declared range: -32768..32767


class SolveError(Exception):
    """A solve that cannot be done (too many positions, too much memory, a state that
    cannot be packed). `limit` names the cap that stopped it: "positions", "memory" or
    None. (Defined here, where the codec meets the last of these; solver exports it.)"""

    def __init__(self, message: str, limit: str | None = None):
        super().__init__(message)
        self.limit = limit
        self.tiers_may_help = False  # the memory cap: a native solve out of core may need less


def two_players_only(game) -> None:
    """SolveError unless the game has two players: values are a win, a loss or a draw for
    the player to move, and with more players no such value says how the others play."""
    if len(game.players) != 2:
        raise SolveError(f"the solver finds win, loss and draw values of two-player games; "
                         f"{game.title} has {len(game.players)} players (play it with mcts, "
                         f"alphabeta or random players; count its plies with perft)")


class OutOfMemory(SolveError):
    """A solve or search that ran out of memory (MemoryError) before its cap stopped it."""


class Field(NamedTuple):
    """Where one slot that is not a cell mask sits in a key."""

    slot: int
    kind: SlotKind
    shift: int
    low: int  # the least value stored, packed as 0
    high: int  # the greatest, packed as high - low
    width: int  # bits: enough for high - low


def slot_range(game: Game, slot: Slot) -> tuple[int, int]:
    """The least and greatest value a slot that holds no cells is stored with."""
    L, rs, kind = game.layout, game.ruleset, slot.kind
    if kind is SlotKind.PLAYER:
        return 0, L.players - 1
    if kind is SlotKind.PHASE:
        return 0, max(1, len(rs.first_turn or []) + len(rs.turn)) - 1
    if kind is SlotKind.LAST_RULE:  # Expressions.previous_index: 1 + a rule's index, or a pass
        return 0, len(rs.plies) + 1
    if kind is SlotKind.OUTCOME:
        return -1, L.players
    if slot.low is None or slot.high is None or (slot.low, slot.high) == (-VAR_BOUND, VAR_BOUND):
        return -(1 << (VAR_BITS - 1)), (1 << (VAR_BITS - 1)) - 1
    return slot.low, slot.high


class Codec:
    """Packs a state tuple into one non-negative int and back (see the module docstring)."""

    def __init__(self, game: Game):
        L = game.layout
        self.length = L.length
        self.cells = game.board.size
        self.mask_slots: tuple[int, ...] = L.cell_slots()
        self.masks = len(self.mask_slots)  # the low masks * cells bits of a key
        self._mask_shifts = [(i, k * self.cells) for k, i in enumerate(self.mask_slots)]
        shift = self.masks * self.cells
        self.fields: list[Field] = []
        for slot in L.slots:
            if slot.kind.holds_cells:
                continue
            low, high = slot_range(game, slot)
            width = (high - low).bit_length()
            self.fields.append(Field(slot.index, slot.kind, shift, low, high, width))
            shift += width
        self.bits = shift
        self.key_bytes = max(1, (shift + 7) // 8)
        self._limits = [(f.slot, f.shift, -f.low, f.high - f.low) for f in self.fields]
        self._widths = [(f.slot, f.shift, -f.low, (1 << f.width) - 1) for f in self.fields]
        self._names = _slot_names(game)

    def pack(self, state: State) -> int:
        """The key of `state`; SolveError if a slot holds a value its field cannot store."""
        key = 0
        for i, sh in self._mask_shifts:
            key |= state[i] << sh
        for i, sh, bias, top in self._limits:
            v = state[i] + bias
            if v < 0 or v > top:
                raise SolveError(f"{self._names[i]} holds {state[i]:,}, outside {-bias:,} to "
                                 f"{top - bias:,}, what a solution can store")
            key |= v << sh
        return key

    def unpack(self, key: int) -> State:
        """The state whose key is `key`."""
        full = (1 << self.cells) - 1
        out = [0] * self.length
        for i, sh in self._mask_shifts:
            out[i] = (key >> sh) & full
        for i, sh, bias, lim in self._widths:
            out[i] = ((key >> sh) & lim) - bias
        return tuple(out)

    def describe(self) -> dict:
        """The packing, for a solution file's header: a file is read only by the same one."""
        return {"cells": self.cells, "length": self.length, "masks": list(self.mask_slots),
                "fields": [[f.slot, f.kind.value, f.shift, f.low, f.high, f.width]
                           for f in self.fields]}


def _slot_names(game: Game) -> dict[int, str]:
    """What each slot holds, for messages: `variable score of Blue`, `slot 5 (reserve...)`."""
    L = game.layout
    names = {s.index: f"slot {s.index} of the state ({s.name})" for s in L.slots}
    firsts = set(L.var_offsets.values())
    for name, first in L.var_offsets.items():
        owned = [first]  # a per-player variable: one counter slot a player, in a row
        while (owned[-1] + 1 < L.length and owned[-1] + 1 not in firsts
               and L.slots[owned[-1] + 1].kind is SlotKind.COUNTER):
            owned.append(owned[-1] + 1)
        for k, i in enumerate(owned):
            names[i] = f"variable {name}" + (f" of {game.players[k]}" if len(owned) > 1 else "")
    return names
