"""How the native solver's index ranks a position's pieces: the order of the piece types,
and the cells each one-cell type on the board is ranked among.

A block's index counts the placements of its pieces, a type at a time: the first type in
`order` varies slowest (solver/index.c). Each one-cell type on the board is ranked among
the cells it can ever stand on (dsl/domains.py), closed under the solve's symmetries,
and those of the types ranked before it, so that every position of a block leaves it the
same number of cells: 3-A-Side's men, ranked among the 35 cells off the goals, before the
ball among all 37, make its index 30% smaller. A type with fewer cells is ranked first.

With the players' swap, every position kept has player 0 to move, and the un-move solve
makes a position's predecessors by taking back player 0's plies (solver/unmoves.c): of
one-cell types on as many cells, those player 0's rules never move (the other side's men)
are ranked first. They stand still in every predecessor: where no symmetry but the
identity keeps them in the position taken back, each predecessor is in canonical form as
made, and their rank is kept. 3-A-Side's every arrangement, North's men ranked first,
took 281 s of CPU against 313 s (PERFORMANCE.md).

Every type ranked among every cell, in the order wide types, one-cell types, types on
other pieces (then by number) is the ranking the index had before it learnt the cells; a
solution file writes its ranking in its header (`ranking`) only when it is another, so
that files of either kind read back the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dsl import model
from dsl.domains import stand_cells
from interpreter.search.symmetry import Perm, permute_mask


@dataclass(frozen=True)
class Ranking:
    """The index's order of the piece types, and per type a mask of the cells it is
    ranked among (every cell for a type covering several cells or on another piece)."""

    order: tuple[int, ...]
    cells: tuple[int, ...]

    def header(self) -> dict:
        """The header field of a solution file that records it."""
        return {"order": list(self.order), "cells": [format(m, "x") for m in self.cells]}


def ranking(rs: model.Ruleset, sizes: list[int], levels: list[int], wide: int,
            perms: list[Perm], start: list[int] | None = None, swap: Any = None) -> Ranking:
    """The ranking of a solve of `rs` from the position whose piece masks are `start`
    (None: the setup), canonical under `perms` and `swap` (a player_swap.PlayerSwap: a
    type's pieces also stand where the swap puts its partner's); `wide`: every cell the
    placements of the types covering several cells cover."""
    stand = [_closed(m, perms) for m in stand_cells(rs, start)]
    if swap is not None:  # (the swap maps sets closed under `perms` to such sets)
        stand = [m | permute_mask(stand[swap.types[t]], swap.cells) for t, m in enumerate(stand)]
    return _nested(rs, sizes, levels, stand, wide, _moved_by(rs, 0) if swap is not None else frozenset())


def _moved_by(rs: model.Ruleset, p: int) -> frozenset[int]:
    """The piece types player `p`'s rules move, put down or take off."""
    return frozenset(t for ply in rs.plies for t in rs.selected(ply.kind, ply.owner, p))


def unknown(rs: model.Ruleset, sizes: list[int], levels: list[int]) -> Ranking:
    """The ranking of an index whose file names none: every type among every cell."""
    return _nested(rs, sizes, levels, [(1 << rs.board.size) - 1] * len(rs.types), 0)


def _nested(rs: model.Ruleset, sizes: list[int], levels: list[int], stand: list[int], wide: int,
            moved: frozenset[int] = frozenset()) -> Ranking:
    """The ranking of types that can stand on the cells `stand`: wide types first, then
    one-cell types on the board, fewer cells first, then types on other pieces (then those
    not in `moved` first, then by number), each one-cell type's cells joined with those of
    the types before it."""
    full = (1 << rs.board.size) - 1
    one = [levels[t] == 0 and sizes[t] <= 1 for t in range(len(sizes))]
    cells = [m if one[t] else full for t, m in enumerate(stand)]
    order = sorted(range(len(sizes)),
                   key=lambda t: (levels[t], sizes[t] == 1, bin(cells[t]).count("1"), t in moved, t))
    before = wide
    for t in order:
        if one[t]:
            cells[t] |= before
            before = cells[t]
    return Ranking(tuple(order), tuple(cells))


def from_header(value: object, rs: model.Ruleset) -> Ranking:
    """The ranking a solution file's header field `ranking` records; ValueError saying
    what is wrong with it (the C checks that its cells nest as they must)."""
    n, full = len(rs.types), (1 << rs.board.size) - 1
    if not isinstance(value, dict) or set(value) != {"order", "cells"}:
        raise ValueError("header field 'ranking' must be an object of 'order' and 'cells'")
    order, cells = value["order"], value["cells"]
    if (not isinstance(order, list) or len(order) != n or not all(type(o) is int for o in order)
            or sorted(order) != list(range(n))):
        raise ValueError(f"header field 'ranking': its order is not one of the game's {n} piece types, each once")
    if (not isinstance(cells, list) or len(cells) != n
            or not all(isinstance(c, str) and 0 < len(c) <= (rs.board.size + 3) // 4 and _hex(c) for c in cells)
            or any(int(c, 16) & ~full for c in cells)):
        raise ValueError(f"header field 'ranking': its cells are not {n} masks of the board's cells, in hexadecimal")
    return Ranking(tuple(order), tuple(int(c, 16) for c in cells))


def _hex(text: str) -> bool:
    return all(ch in "0123456789abcdef" for ch in text)


def _closed(mask: int, perms: list[Perm]) -> int:
    """`mask` with its images under `perms`, and theirs, until none adds a cell."""
    while True:
        more = mask
        for p in perms:
            for c in range(len(p)):
                if mask >> c & 1:
                    more |= 1 << p[c]
        if more == mask:
            return mask
        mask = more
