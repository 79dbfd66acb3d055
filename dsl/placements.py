"""Where a piece that covers several cells can stand: straight runs of cells along a direction."""

from __future__ import annotations

from .board import Board


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
