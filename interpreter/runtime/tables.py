"""Precomputed geometry: every board question the runtime asks is a list index or a mask.

Cells are bits: cell i is `1 << i`. Tables are built once per game and cached by
the direction set they serve.
"""

from __future__ import annotations

from dsl.board import Board
from dsl.placements import placements


class Tables:
    def __init__(self, board: Board):
        self.board = board
        self.n = board.size
        self.full = (1 << self.n) - 1
        self.bit = [1 << i for i in range(self.n)]
        self._adj: dict[tuple | None, list[int]] = {}
        self._rays: dict[str, list[list[int]]] = {}
        self._lines: dict[tuple, list[list[int]]] = {}
        self._placements: dict[int, list[int]] = {}

    def adjacency(self, dirs: list[str] | None) -> list[int]:
        """Per cell, the mask of its neighbours along `dirs` (None: every arc, links included)."""
        key = None if dirs is None else tuple(dirs)
        if key not in self._adj:
            self._adj[key] = [sum(1 << v for v in self.board.neighbours(c, dirs))
                              for c in range(self.n)]
        return self._adj[key]

    def rays(self, direction: str) -> list[list[int]]:
        """Per cell, the cells in a straight line from it along `direction`."""
        if direction not in self._rays:
            self._rays[direction] = [self.board.ray(c, direction) for c in range(self.n)]
        return self._rays[direction]

    def rays_overlap(self, dirs: list[str]) -> bool:
        """Whether two of the rays along `dirs` from one cell share a cell."""
        for c in range(self.n):
            cells = [x for d in dirs for x in self.rays(d)[c]]
            if len(cells) != len(set(cells)):
                return True
        return False

    def line_masks(self, dirs: list[str]) -> list[int]:
        """The masks of the maximal straight lines of cells along `dirs`, each once."""
        masks: dict[int, None] = {}  # ordered, and a membership test in O(1)
        for d in dirs:
            for line in self.board.lines(d):
                masks.setdefault(sum(1 << c for c in line))
        return list(masks)

    def line_pairs(self, dirs: list[str]) -> list[list[int]] | None:
        """Per cell c and cell d, the one line along `dirs` holding both (0 if none does; at
        [c][c] a line through c); None if two lines share two cells, or past 64 cells (the
        table holds n * n masks)."""
        if self.n > 64:
            return None
        pairs = [[0] * self.n for _ in range(self.n)]
        for line in self.line_masks(dirs):
            cells = [c for c in range(self.n) if line >> c & 1]
            for c in cells:
                pairs[c][c] = pairs[c][c] or line
                for d in cells:
                    if d != c:
                        if pairs[c][d]:
                            return None
                        pairs[c][d] = line
        return pairs

    def windows(self, dirs: list[str]) -> "Windows":
        """Per length n, the masks of every run of n consecutive cells along `dirs`."""
        return Windows(self.board, dirs)

    def reverse_adjacency(self, dirs: list[str] | None) -> list[int]:
        """Per cell, the mask of the cells that have it as a neighbour along `dirs`."""
        adj = self.adjacency(dirs)
        back = [0] * self.n
        for c, mask in enumerate(adj):
            for d in cells_of(mask):
                back[d] |= 1 << c
        return back

    def placements_within(self, size: int) -> list[tuple[tuple[int, int], ...]]:
        """Per set of free cells (a mask), the placements (index, mask) inside it."""
        masks = self.placement_masks(size)
        return [tuple((i, mk) for i, mk in enumerate(masks) if not mk & ~free)
                for free in range(1 << self.n)]

    def placement_masks(self, size: int) -> list[int]:
        """The masks of every placement of a piece covering `size` cells."""
        if size not in self._placements:
            self._placements[size] = [sum(1 << c for c in p) for p in placements(self.board, size)]
        return self._placements[size]


class Windows(dict):
    """Length n -> the masks of the runs of n consecutive cells along some directions.

    Filled on first use of each length: a large board needs only the lengths its rules
    ask for, not every length up to its longest line.
    """

    def __init__(self, board: Board, dirs: list[str]):
        super().__init__()
        self.rays = [[board.ray(c, d) for c in range(board.size)] for d in dirs]
        self.longest = max((len(r) + 1 for rays in self.rays for r in rays), default=0)

    def __missing__(self, n: int) -> list[int]:
        found: dict[int, None] = {}
        for rays in self.rays:
            for c, ray in enumerate(rays):
                if len(ray) >= n - 1:
                    found.setdefault(sum(1 << x for x in [c] + ray[:n - 1]))
        self[n] = out = list(found)
        return out


def cells_of(mask: int) -> list[int]:
    """The cell indices in `mask`, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
