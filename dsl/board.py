"""Boards: directed graphs of named cells with plane coordinates and direction labels.

A generator builds the graph (`square` now; hexagonal boards join `GENERATORS`
later), then edits remove cells and add undirected links. Every arc carries the
label of its direction (`n`, `ne`, ...) or None for a link that has no direction.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field

import networkx as nx

MAX_CELLS = 10_000
FILE_LETTERS = string.ascii_lowercase + string.ascii_uppercase

# Square-grid directions: name -> (dx, dy), y growing to the north.
SQUARE_DIRS = {
    "n": (0, 1), "e": (1, 0), "s": (0, -1), "w": (-1, 0),
    "ne": (1, 1), "se": (1, -1), "sw": (-1, -1), "nw": (-1, 1),
}
SQUARE_GROUPS = {
    "orthogonal": ["n", "e", "s", "w"],
    "diagonal": ["ne", "se", "sw", "nw"],
}


class BoardError(Exception):
    """A board declaration that cannot be built; `.message` says why."""


@dataclass
class Board:
    """The compiled geometry every later stage reads (indices, never names, on hot paths)."""

    graph: nx.DiGraph
    names: list[str]
    index: dict[str, int]
    coords: list[tuple[float, float]]
    directions: list[str]  # direction labels in use, in a fixed order
    groups: dict[str, list[str]]  # named sets of directions (orthogonal, diagonal, ...)
    rows: list[list[int]]  # display rows, top first
    row_offsets: list[int] = field(default_factory=list)  # display indent of each row
    shape: str = ""
    width: int = 0
    height: int = 0

    @property
    def size(self) -> int:
        return len(self.names)

    def neighbour(self, cell: int, direction: str) -> int | None:
        """The cell one step from `cell` in `direction`, or None."""
        for _, v, d in self.graph.out_edges(cell, data="dir"):
            if d == direction:
                return v
        return None

    def neighbours(self, cell: int, directions: list[str] | None = None) -> list[int]:
        """Cells one step away, along the given directions (None: every arc, links included)."""
        out = []
        for _, v, d in self.graph.out_edges(cell, data="dir"):
            if directions is None or d in directions:
                if v not in out:
                    out.append(v)
        return sorted(out)

    def ray(self, cell: int, direction: str) -> list[int]:
        """The cells in a straight line from `cell` (excluded) along `direction`."""
        out, cur = [], self.neighbour(cell, direction)
        while cur is not None and cur != cell and len(out) < self.size:
            out.append(cur)
            cur = self.neighbour(cur, direction)
        return out

    def lines(self, direction: str) -> list[list[int]]:
        """The maximal straight lines of cells along `direction`."""
        starts = [c for c in range(self.size) if self.neighbour_back(c, direction) is None]
        return [[c] + self.ray(c, direction) for c in starts]

    def neighbour_back(self, cell: int, direction: str) -> int | None:
        for u, _, d in self.graph.in_edges(cell, data="dir"):
            if d == direction:
                return u
        return None

    def resolve_dirs(self, names: list[str] | None) -> list[str] | None:
        """Direction and group names -> direction labels (None stays None: every arc)."""
        if names is None:
            return None
        out: list[str] = []
        for name in names:
            for d in self.groups.get(name, [name]):
                if d not in out:
                    out.append(d)
        return out


def build_square(width: int, height: int | None, options: list[str]) -> Board:
    height = width if height is None else height
    if width < 1 or height < 1:
        raise BoardError("a square board needs a width and a height of at least 1")
    if width > len(FILE_LETTERS):
        raise BoardError(f"a square board is at most {len(FILE_LETTERS)} files wide "
                         f"(files are named a-z, then A-Z)")
    if width * height > MAX_CELLS:
        raise BoardError(f"a board of {width * height:,} cells is larger than the limit "
                         f"of {MAX_CELLS:,} cells")
    unknown = [o for o in options if o != "diagonals"]
    if unknown:
        raise BoardError(f"unknown square board option '{unknown[0]}' (known: diagonals)")
    used = ["n", "e", "s", "w"] + (["ne", "se", "sw", "nw"] if "diagonals" in options else [])
    g = nx.DiGraph()
    names, coords = [], []
    for rank in range(height):
        for file in range(width):
            i = rank * width + file
            names.append(f"{FILE_LETTERS[file]}{rank + 1}")
            coords.append((float(file), float(rank)))
            g.add_node(i)
    for rank in range(height):
        for file in range(width):
            i = rank * width + file
            for d in used:
                dx, dy = SQUARE_DIRS[d]
                f2, r2 = file + dx, rank + dy
                if 0 <= f2 < width and 0 <= r2 < height:
                    g.add_edge(i, r2 * width + f2, dir=d)
    groups = {"orthogonal": SQUARE_GROUPS["orthogonal"], "all": used}
    if "diagonals" in options:
        groups["diagonal"] = SQUARE_GROUPS["diagonal"]
    rows = [[r * width + f for f in range(width)] for r in reversed(range(height))]
    return Board(g, names, {n: i for i, n in enumerate(names)}, coords, used, groups, rows,
                 [0] * height, "square", width, height)


GENERATORS = {"square": build_square}


def build(shape: str, width: int, height: int | None, options: list[str]) -> Board:
    """Run the named generator; raises BoardError with a designer-facing message."""
    if shape not in GENERATORS:
        raise BoardError(f"unknown board shape '{shape}' (known: {', '.join(GENERATORS)})")
    return GENERATORS[shape](width, height, options)


def remove_cells(board: Board, cells: list[int]) -> Board:
    """The board without `cells`; indices are renumbered, rows keep their order."""
    gone = set(cells)
    keep = [i for i in range(board.size) if i not in gone]
    renumber = {old: new for new, old in enumerate(keep)}
    g = nx.DiGraph()
    g.add_nodes_from(range(len(keep)))
    for u, v, d in board.graph.edges(data="dir"):
        if u in renumber and v in renumber:
            g.add_edge(renumber[u], renumber[v], dir=d)
    names = [board.names[i] for i in keep]
    rows, offsets = [], []
    for row, off in zip(board.rows, board.row_offsets):
        kept = [renumber[c] for c in row if c in renumber]
        if kept:
            rows.append(kept)
            offsets.append(off)
    return Board(g, names, {n: i for i, n in enumerate(names)}, [board.coords[i] for i in keep],
                 board.directions, board.groups, rows, offsets, board.shape, board.width,
                 board.height)


def add_link(board: Board, a: int, b: int) -> None:
    """An extra edge between `a` and `b`, in both senses, with no direction label."""
    board.graph.add_edge(a, b, dir=None)
    board.graph.add_edge(b, a, dir=None)
