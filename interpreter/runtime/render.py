"""Boards drawn as text for people: squares with coordinates, hexagons as hexagons."""

from __future__ import annotations

import re
import string
from typing import Callable, Sequence

from dsl.board import FILE_LETTERS, LINK, Board
from dsl.model import PieceType

HEX_ROWS = "    (rows count from the north; columns are half a cell apart)"
LATTICE_MAX_SIDE = 6  # larger hexagons are drawn as dots only, to stay readable
_PAINT = re.compile(r"\x1b\[[0-9;]*m")  # a colour terminal's paint around a symbol


def visible(text: str) -> str:
    """`text` as it shows: without a terminal's colour codes (they take no room)."""
    return _PAINT.sub("", text)


def draw_position(board: Board, types: Sequence[PieceType], state: tuple[int, ...],
                  symbol_at: Callable[[int], str]) -> str:
    """The board with a position's pieces; `symbol_at(cell)` gives a cell's top piece (or `.`)."""
    carriers = {t.carrier for t in types if t.carrier is not None}
    if not carriers:
        return draw(board, symbol_at)

    def stack_at(cell: int) -> str:
        # A carrier is drawn as brackets around what stands on it: [Y], [ ].
        bit = 1 << cell
        if any(state[i] & bit for i in carriers):
            top = symbol_at(cell)
            return "[" + (" " if any(state[i] & bit for i in carriers if
                                     types[i].symbol == visible(top)) else top) + "]"
        return " " + symbol_at(cell) + " "

    return draw(board, stack_at)


def draw(board: Board, symbol_at: Callable[[int], str]) -> str:
    """The board drawn; `symbol_at(cell)` gives the character shown on a cell."""
    if board.shape == "square":
        body = _square(board, symbol_at)
    elif board.shape == "rhombus":
        body = _rhombus(board, symbol_at)
    elif board.shape == "hexagon" and board.width <= LATTICE_MAX_SIDE:
        body = _hex_lattice(board, symbol_at)
    else:
        body = _hex_dots(board, symbol_at)
    return _with_goals(board, body, symbol_at)


def _square(board: Board, symbol_at) -> list[str]:
    """Ranks top first; a cell under its file's letter (a removed cell leaves a gap)."""
    names = board.names
    lines = []
    width = 1
    for row in board.rows:
        label = names[row[0]].lstrip(string.ascii_letters)
        shown = {board.lattice[c][0]: symbol_at(c) for c in row}
        width = max(len(visible(x)) for x in shown.values())
        cells = [shown.get(x, " " * width) for x in range(board.width)]
        lines.append((f"{label:>3} " + " ".join(cells)).rstrip())
    lines.append("    " + " ".join(letter.center(width) for letter in FILE_LETTERS[:board.width]).rstrip())
    return lines


def _rhombus(board: Board, symbol_at) -> list[str]:
    """Ranks top first, each half a cell east of the one below, as hexagonal cells sit."""
    names, lines = board.names, []
    for row in board.rows:
        label = names[row[0]].lstrip(string.ascii_letters)
        indent = " " * (int(label) - 1)
        lines.append(f"{label:>3} " + indent + " ".join(symbol_at(c) for c in row))
    lines.append("    " + " ".join(names[c].rstrip("0123456789") for c in board.rows[-1]))
    return lines


def _column_letters(board: Board, at) -> str:
    """A line of the hexagon's column letters, each at `at(lattice x)` characters in."""
    chars: list[str] = []
    for c in (c for row in board.rows for c in row):
        pos, letters = at(board.lattice[c][0]), board.names[c].rstrip("0123456789")
        chars.extend(" " * (pos + len(letters) - len(chars)))
        chars[pos:pos + len(letters)] = letters
    return "".join(chars).rstrip()


def _hex_dots(board: Board, symbol_at) -> list[str]:
    lines = []
    for r, row in enumerate(board.rows, start=1):
        chars = [" "] * (max(board.lattice[c][0] for c in range(board.size)) + 1)
        for c in row:
            chars[board.lattice[c][0]] = symbol_at(c)
        lines.append(f"{r:>3} " + "".join(chars).rstrip())
    letters = _column_letters(board, lambda x: 4 + x)
    return [letters] + lines + [letters, HEX_ROWS]


def _hex_lattice(board: Board, symbol_at) -> list[str]:
    """Vertices joined by their edges, like the seed diagrams: x---x, / and \\ between rows."""
    lat = board.lattice
    cells = [c for row in board.rows for c in row]
    width = 2 * max(lat[c][0] for c in cells) + 3
    line_of = {}
    grid: list[list[str]] = []
    for r, row in enumerate(board.rows):
        grid.append([" "] * width)
        line_of[lat[row[0]][1]] = 2 * r
        if r < len(board.rows) - 1:
            grid.append([" "] * width)
    for c in cells:
        x, y = lat[c]
        line = grid[line_of[y]]
        line[2 * x + 1] = symbol_at(c)
        for v, ds in board.graph.out_edges(c):
            d = ds[0]
            if v not in line_of.values() and v in board.goals:
                continue
            vx, vy = lat[v]
            if d == "e":
                for k in range(2 * x + 2, 2 * vx + 1):
                    line[k] = "-"
            elif d in ("se", "sw") and vy in line_of:
                between = grid[line_of[y] + 1]
                between[x + vx + 1] = "\\" if d == "se" else "/"
            elif d == LINK and vy < y:
                # A link between rows two apart: `|` beside the missing corner.
                col = 2 * min(x, vx) if 2 * x < width // 2 else 2 * max(x, vx) + 2
                for ln in range(line_of[y] + 1, line_of[vy]):
                    grid[ln][col] = "|"
    labels = [f"{r:>3} " for r in range(1, len(board.rows) + 1)]
    out = []
    for i, line in enumerate(grid):
        prefix = labels[i // 2] if i % 2 == 0 else "    "
        out.append((prefix + "".join(line)).rstrip())
    letters = _column_letters(board, lambda x: 4 + 2 * x + 1)
    return [letters] + out + [letters, HEX_ROWS]


def _with_goals(board: Board, body: list[str], symbol_at) -> list[str]:
    """Goals (off-board cells) drawn above or below the board, where they are entered from."""
    if not board.goals:
        return "\n".join(body)
    top_row = set(board.rows[0])
    above, below = [], []
    for g in board.goals:
        entries = {u for u, _ in board.graph.in_edges(g)}
        text = f"    [{board.names[g]}: {symbol_at(g)}]"
        (above if entries & top_row else below).append(text)
    return "\n".join(above + body + below)
