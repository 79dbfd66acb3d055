"""Where a piece that covers several cells can stand: straight runs of cells along a direction."""

from __future__ import annotations

from dsl.board import Board


def placements(board: Board, size: int) -> list[tuple[int, ...]]:
    """Every set of `size` cells in a straight line, each as a sorted tuple, in a fixed order."""
    found: set[tuple[int, ...]] = set()
    for cell in range(board.size):
        if size == 1:
            found.add((cell,))
            continue
        for d in board.directions:
            run = [cell] + board.ray(cell, d)[: size - 1]
            if len(run) == size:
                found.add(tuple(sorted(run)))
    return sorted(found)


MAX_WIDE_PIECES = 16  # pieces of one kind covering several cells: keeps the split search small
SPLIT_BUDGET = 100_000  # search steps before a split gives up (a hostile drawing cannot hang)


class SplitTooHard(Exception):
    """The search for a split ran out of its budget."""


def split_into_pieces(cells: int, masks: list[int], limit: int = 2) -> list[list[int]]:
    """The ways (at most `limit`) to cover the mask `cells` exactly with placements from `masks`.

    Pieces of one kind are interchangeable, so a way is a sorted list of placement masks.
    Each step covers the lowest cell left, so every way is found once. Raises
    SplitTooHard past MAX_WIDE_PIECES pieces or SPLIT_BUDGET steps.
    """
    ways: list[list[int]] = []
    steps = 0

    def cover(left: int, chosen: list[int]) -> None:
        nonlocal steps
        steps += 1
        if steps > SPLIT_BUDGET or len(chosen) > MAX_WIDE_PIECES:
            raise SplitTooHard()
        if len(ways) >= limit:
            return
        if not left:
            ways.append(sorted(chosen))
            return
        low = left & -left
        for mk in masks:
            if mk & low and not mk & ~left:
                cover(left & ~mk, chosen + [mk])

    cover(cells, [])
    return ways
