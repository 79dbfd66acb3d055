"""Boards: directed graphs of named cells with plane coordinates and direction labels.

A generator builds the graph (`square`, `hexagon`), then edits remove cells, add
links and add off-board goals. Every arc carries the labels of its directions
(`dirs`: `("n",)`, ...; an arc into a goal may be entered along several), or `("link",)`
for an extra edge that has no direction; straight lines follow direction labels
only, never links.
"""

from __future__ import annotations

import string
from dataclasses import dataclass, field

from dsl.arcs import Arcs


MAX_CELLS = 4_096  # tables and masks stay small enough to build in about a second
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
# Hexagon directions on the lattice (x in half units, y in rows, growing to the north).
HEX_DIRS = {"e": (2, 0), "w": (-2, 0), "ne": (1, 1), "nw": (-1, 1), "se": (1, -1), "sw": (-1, -1)}
LINK = "link"  # the label of an extra edge: adjacency without a direction
MAX_HEX_SIDE = 13  # column letters a-z, A-Z cover 4 * (side - 1) + 1 half-unit columns


class BoardError(Exception):
    """A board declaration that cannot be built; `.message` says why."""


@dataclass
class Board:
    """The compiled geometry every later stage reads (indices, never names, on hot paths)."""

    graph: Arcs
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
    # Exact lattice coordinates: squared distance = dx*dx*sx + dy*dy*sy (integers).
    lattice: list[tuple[int, int]] = field(default_factory=list)
    metric: tuple[int, int] = (1, 1)
    goals: list[int] = field(default_factory=list)  # off-board cells, drawn apart
    _steps: dict[str, list[int | None]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def size(self) -> int:
        """Cells in the graph, off-board goals included."""
        return len(self.names)

    @property
    def text_rows(self) -> list[list[int]]:
        """The rows of a position's text: the board's rows, then one row of its goals."""
        return self.rows + ([list(self.goals)] if self.goals else [])

    def neighbour(self, cell: int, direction: str) -> int | None:
        """The cell one step from `cell` in `direction`, or None."""
        step = self._steps.get(direction)
        if step is None:  # one pass over the arcs per direction, then a lookup
            step = self._steps[direction] = [None] * self.size
            for u, v, ds in self.graph.edges():
                if direction in ds and step[u] is None:
                    step[u] = v
        return step[cell]

    def neighbours(self, cell: int, directions: list[str] | None = None) -> list[int]:
        """Cells one step away, along the given directions (None: every arc, links included)."""
        out = []
        for v, ds in self.graph.out_edges(cell):
            if directions is None or any(d in directions for d in ds):
                if v not in out:
                    out.append(v)
        return sorted(out)

    def ray(self, cell: int, direction: str) -> list[int]:
        """The cells in a straight line from `cell` (excluded) along `direction`."""
        if direction == LINK:
            return []
        out, cur = [], self.neighbour(cell, direction)
        while cur is not None and cur != cell and len(out) < self.size:
            out.append(cur)
            cur = self.neighbour(cur, direction)
        return out

    def lines(self, direction: str) -> list[list[int]]:
        """The maximal straight lines of cells along `direction`."""
        entered = {v for v in (self.neighbour(c, direction) for c in range(self.size)) if v is not None}
        return [[c] + self.ray(c, direction) for c in range(self.size) if c not in entered]

    def opposite(self, direction: str) -> str | None:
        """The label of the arcs going back along `direction` (n -> s, ne -> sw, ...)."""
        for u, v, ds in self.graph.edges():
            if ds == (direction,) and self.graph.has_edge(v, u):
                back = self.graph.dirs(v, u)
                return back[0] if len(back) == 1 and back[0] != LINK else None
        return None

    def builtin_regions(self) -> dict[str, frozenset[int]]:
        """Regions every board of its shape has: ranks and files of a square board
        (`rank1`, `file_a`), rows of a hexagon (`row1` is the north row)."""
        out: dict[str, frozenset[int]] = {}
        if self.shape in ("square", "rhombus"):
            for c, name in enumerate(self.names):
                if c in self.goals:
                    continue
                letters = name.rstrip("0123456789")
                out.setdefault(f"file_{letters}", set()).add(c)
                out.setdefault(f"rank{name[len(letters):]}", set()).add(c)
        elif self.shape == "hexagon":
            for c, name in enumerate(self.names):
                if c not in self.goals:
                    out.setdefault(f"row{name.lstrip(FILE_LETTERS)}", set()).add(c)
        return {k: frozenset(v) for k, v in out.items()}

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


def _files_and_ranks(shape: str, width: int, height: int | None) -> int:
    """The height of a board of files and ranks (the width when not given), checked."""
    height = width if height is None else height
    if width < 1 or height < 1:
        raise BoardError(f"a {shape} board needs a width and a height of at least 1")
    if width > len(FILE_LETTERS):
        raise BoardError(f"a {shape} board is at most {len(FILE_LETTERS)} files wide "
                         f"(files are named a-z, then A-Z)")
    if width * height > MAX_CELLS:
        raise BoardError(f"a board of {width * height:,} cells is larger than the limit "
                         f"of {MAX_CELLS:,} cells")
    return height


def build_square(width: int, height: int | None, options: list[str]) -> Board:
    height = _files_and_ranks("square", width, height)
    unknown = [o for o in options if o not in ("diagonals", "alternate diagonals")]
    if unknown:
        raise BoardError(f"unknown square board option '{unknown[0]}' (known: diagonals, alternate diagonals)")
    if len(options) > 1:
        raise BoardError("a square board takes one option: `with diagonals` or `with alternate diagonals`")
    diagonals = bool(options)
    # Alternate diagonals are the lines drawn on alquerque-style boards: through a1 and
    # every other cell (file + rank even), so no diagonal arc leaves a cell of odd parity.
    alternate = options == ["alternate diagonals"]
    used = ["n", "e", "s", "w"] + (["ne", "se", "sw", "nw"] if diagonals else [])
    g = Arcs()
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
                if alternate and dx and dy and (file + rank) % 2:
                    continue
                if 0 <= f2 < width and 0 <= r2 < height:
                    g.add_edge(i, r2 * width + f2, dirs=(d,))
    groups = {"orthogonal": SQUARE_GROUPS["orthogonal"], "all": used}
    if diagonals:
        groups["diagonal"] = SQUARE_GROUPS["diagonal"]
    rows = [[r * width + f for f in range(width)] for r in reversed(range(height))]
    lattice = [(int(x), int(y)) for x, y in coords]
    return Board(g, names, {n: i for i, n in enumerate(names)}, coords, used, groups, rows,
                 [0] * height, "square", width, height, lattice, (1, 1))


def _lattice_arcs(g: Arcs, at: dict[tuple[int, int], int]) -> None:
    """The arcs between neighbouring cells of the triangular lattice (`at`: half-unit x and
    row -> cell), each labelled with its direction."""
    for (x2, y), i in at.items():
        for d, (dx, dy) in HEX_DIRS.items():
            j = at.get((x2 + dx, y + dy))
            if j is not None:
                g.add_edge(i, j, dirs=(d,))


def build_hexagon(side: int, height: int | None, options: list[str]) -> Board:
    """A hexagon of side `side` on the triangular lattice: 3s(s-1)+1 cells in 2s-1 rows.

    The same graph serves hex-vertex boards (3-A-Side) and boards of hexagonal cells
    (Tricouleur). Names: the column letter of the cell's half-unit position (a-z, then
    A-Z, west to east) and its row number from the north, so the middle row of side 4
    is a4, c4, ..., m4 and the seed of Whistling Captures reads as written (w19, G19).
    """
    if height is not None:
        raise BoardError("a hexagon takes one size: `board hexagon 4`")
    if options:
        raise BoardError(f"unknown hexagon option '{options[0]}'")
    if not 2 <= side <= MAX_HEX_SIDE:
        raise BoardError(f"a hexagon's side is from 2 to {MAX_HEX_SIDE}")
    rows_n = 2 * side - 1
    g = Arcs()
    names, coords, lattice, rows, at = [], [], [], [], {}
    for r in range(rows_n):
        length = side + min(r, rows_n - 1 - r)
        offset = rows_n - length  # in half units
        row = []
        for c in range(length):
            x2, y = offset + 2 * c, side - 1 - r
            i = len(names)
            names.append(f"{FILE_LETTERS[x2]}{r + 1}")
            coords.append((x2 / 2, y * 3 ** 0.5 / 2))
            lattice.append((x2, y))
            at[(x2, y)] = i
            g.add_node(i)
            row.append(i)
        rows.append(row)
    _lattice_arcs(g, at)
    used = ["e", "ne", "nw", "w", "sw", "se"]
    # squared distance between centres, times 4: dx2^2 + 3 dy^2
    return Board(g, names, {n: i for i, n in enumerate(names)}, coords, used, {"all": used},
                 rows, [0] * rows_n, "hexagon", side, rows_n, lattice, (1, 3))


def build_rhombus(width: int, height: int | None, options: list[str]) -> Board:
    """A parallelogram of hexagonal cells (Hex's board): W files by H ranks on the triangular
    lattice, each rank half a cell east of the one below. Named like a square board (a1 is
    the south-west corner); cell (f, r) neighbours (f±1, r), (f, r±1), (f+1, r-1), (f-1, r+1)."""
    if options:
        raise BoardError(f"unknown rhombus option '{options[0]}'")
    height = _files_and_ranks("rhombus", width, height)
    g = Arcs()
    names, coords, lattice, at = [], [], [], {}
    for rank in range(height):
        for file in range(width):
            i = len(names)
            x2 = 2 * file + rank  # half units
            names.append(f"{FILE_LETTERS[file]}{rank + 1}")
            coords.append((x2 / 2, rank * 3 ** 0.5 / 2))
            lattice.append((x2, rank))
            at[(x2, rank)] = i
            g.add_node(i)
    _lattice_arcs(g, at)
    used = ["e", "ne", "nw", "w", "sw", "se"]
    rows = [[r * width + f for f in range(width)] for r in reversed(range(height))]
    return Board(g, names, {n: i for i, n in enumerate(names)}, coords, used, {"all": used},
                 rows, [0] * height, "rhombus", width, height, lattice, (1, 3))


def build_star(point: int, height: int | None, options: list[str]) -> Board:
    """Chinese checkers' six-pointed star: the hexagon of side 2N+1 (`hexagon`'s names)
    keeping only the cells of two triangles of side 3N+1, one pointing north and one south
    (N is a point's side: 4 gives 121 cells)."""
    if height is not None:
        raise BoardError("a star takes one size, the side of its points: `board star 4`")
    if options:
        raise BoardError(f"unknown star option '{options[0]}'")
    if not 1 <= point <= (MAX_HEX_SIDE - 1) // 2:
        raise BoardError(f"a star's points have a side from 1 to {(MAX_HEX_SIDE - 1) // 2}")
    hexagon = build_hexagon(2 * point + 1, None, options)
    centre = 2 * point  # in half units, the middle row's (lattice y = 0)
    out = []
    for i, (x2, y) in enumerate(hexagon.lattice):
        q, r = (x2 - 2 * centre + y) // 2, -y  # axial: q along the row, r down
        cube = (q, r, -q - r)
        if max(cube) > point and min(cube) < -point:
            out.append(i)
    return remove_cells(hexagon, out)


GENERATORS = {"square": build_square, "hexagon": build_hexagon, "rhombus": build_rhombus,
              "star": build_star}


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
    g = Arcs()
    for i in range(len(keep)):
        g.add_node(i)
    for u, v, ds in board.graph.edges():
        if u in renumber and v in renumber:
            g.add_edge(renumber[u], renumber[v], dirs=ds)
    names = [board.names[i] for i in keep]
    rows, offsets = [], []
    for row, off in zip(board.rows, board.row_offsets):
        kept = [renumber[c] for c in row if c in renumber]
        if kept:
            rows.append(kept)
            offsets.append(off)
    return Board(g, names, {n: i for i, n in enumerate(names)}, [board.coords[i] for i in keep],
                 board.directions, board.groups, rows, offsets, board.shape, board.width,
                 board.height, [board.lattice[i] for i in keep], board.metric,
                 [renumber[c] for c in board.goals if c in renumber])


def opposite_of(board: Board, direction: str) -> str | None:
    """The direction opposite one of the board's (n -> s, ne -> sw), None if it has none."""
    vectors = SQUARE_DIRS if board.shape == "square" else HEX_DIRS
    if direction not in vectors or direction not in board.directions:
        return None
    dx, dy = vectors[direction]
    return next((d for d, v in vectors.items() if v == (-dx, -dy) and d in board.directions), None)


def add_link(board: Board, a: int, b: int, by: tuple[str, str] | None = None) -> None:
    """An extra edge between `a` and `b`, in both senses: labelled `link` (no direction),
    or `by` (direction, opposite): a drawn line that straight lines follow, from a to b."""
    there, back = by if by is not None else (LINK, LINK)
    board.graph.add_edge(a, b, dirs=(there,))
    board.graph.add_edge(b, a, dirs=(back,))
    board._steps.clear()
    if there == LINK and LINK not in board.directions:
        board.directions.append(LINK)


def add_goal(board: Board, name: str, cells: list[int], dirs: list[str]) -> int:
    """An off-board cell entered from each of `cells` by a step in any of `dirs`; nothing leaves it."""
    g = board.size
    board._steps.clear()
    board.graph.add_node(g)
    board.names.append(name)
    board.index[name] = g
    xs = [board.coords[c][0] for c in cells]
    ys = [board.coords[c][1] for c in cells]
    board.coords.append((sum(xs) / len(xs), sum(ys) / len(ys)))
    lx = [board.lattice[c] for c in cells]
    board.lattice.append((sum(x for x, _ in lx) // len(lx), sum(y for _, y in lx) // len(lx)))
    board.goals.append(g)
    for c in cells:
        # One arc, entered along every direction listed: a line may arrive along any of them.
        board.graph.add_edge(c, g, dirs=tuple(dirs))
    return g
