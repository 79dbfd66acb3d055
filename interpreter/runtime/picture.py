"""Positions drawn as SVG pictures, for any board the language builds.

Everything is read from the board's graph and plane coordinates, the piece types
(symbols, owners, carriers, wide pieces) and the state; nothing here knows a game.
Three styles of board:
- `squares`: a square board's cells as squares (alquerque's drawn diagonals over them,
  not a king's board's, where every corner joins);
- `hexagons`: a hexagon board's cells as hexagons;
- `points`: every cell a point and every edge a line, links and goals included (a board
  played on the vertices, e.g. 3-A-Side's).
The default is `squares` on square boards, `points` where lines join cells apart (the
morris boards); on hexagon boards `points` when the board has links or goals (the graph
then matters more than the tiling), else `hexagons`.
"""

from __future__ import annotations

import math
import re
import textwrap
from dataclasses import dataclass
from typing import Iterable, Sequence
from xml.sax.saxutils import escape

from dsl.board import LINK, Board
from dsl.model import PieceType
from dsl.pictures import COLOURS

from interpreter.runtime.ending import ending_cells
from interpreter.runtime.game import Action, Game, State

STYLES = ("squares", "hexagons", "points")
DIAGONALS = ("ne", "nw", "se", "sw")
UNIT = 48.0  # pixels between neighbouring cells
MARGIN = 36.0  # room for the coordinates around the board
CAPTION_CHAR = 8.5  # the most a character of the 14-pixel caption takes, on average, in a line
CAPTION_MIN = 32  # characters a caption line may hold under any board ("Blue to move (ply 1 of the turn)")
# Owners' colours (fill, ink), then the neutral pieces'; regions' tints in declaration order.
PLAYER_COLOURS = [("#f8f4e8", "#222222"), ("#2b2b2b", "#f4f4f4"), ("#c0392b", "#ffffff"),
                  ("#2e6fb7", "#ffffff")]
NEUTRAL_COLOUR = ("#e0b020", "#222222")
CARRIER_COLOUR = ("#b08a5a", "#3a2a10")
REGION_TINTS = ["#cfe8cf", "#f6d7b0", "#d5d5f2", "#f2d0e0", "#d8ecf2"]
BOARD_FILL, LINE_INK, LABEL_INK = "#efe6d2", "#6b5a3c", "#555555"


@dataclass(frozen=True)
class Geometry:
    """Where each cell is drawn (pixels, y down), how big, and the picture's size."""

    style: str
    centers: list[tuple[float, float]]
    radius: float  # half the distance between neighbouring cells
    width: float
    height: float


def default_style(board: Board) -> str:
    """The style a board is drawn in unless one is asked for (see the module docstring)."""
    if board.shape == "square":  # as points where lines join cells apart (morris boards)
        far = any(math.dist(board.coords[u], board.coords[v]) > 1.5 for u, v, _ in board.graph.edges()
                  if u not in board.goals and v not in board.goals)
        return "points" if far else "squares"
    has_links = any(LINK in ds for _, _, ds in board.graph.edges())
    return "points" if has_links or board.goals else "hexagons"


def geometry(board: Board, style: str | None = None) -> Geometry:
    """Pixel positions of the cells: the board's plane coordinates scaled so neighbours
    are UNIT apart; off-board goals set beyond the cells they are entered from."""
    style = style or default_style(board)
    if style not in STYLES:
        raise ValueError(f"unknown style '{style}' (known: {', '.join(STYLES)})")
    pts = [(x, -y) for x, y in board.coords]  # y grows to the north on the board
    on_board = [c for c in range(board.size) if c not in board.goals]
    near = [math.dist(pts[u], pts[v]) for u, v, ds in board.graph.edges()
            if LINK not in ds and u not in board.goals and v not in board.goals]
    step = min((d for d in near if d > 0), default=1.0)
    cx = sum(pts[c][0] for c in on_board) / len(on_board)
    cy = sum(pts[c][1] for c in on_board) / len(on_board)
    for g in board.goals:  # pushed out from the board's centre, one step past its cells
        dx, dy = pts[g][0] - cx, pts[g][1] - cy
        norm = math.hypot(dx, dy) or 1.0
        pts[g] = (pts[g][0] + dx / norm * step, pts[g][1] + dy / norm * step)
    scale = UNIT / step
    xs, ys = [x * scale for x, _ in pts], [y * scale for _, y in pts]
    left, top = min(xs) - UNIT / 2 - MARGIN, min(ys) - UNIT / 2 - MARGIN
    centers = [(round(x - left, 2), round(y - top, 2)) for x, y in zip(xs, ys)]
    width = max(xs) - left + UNIT / 2 + MARGIN
    height = max(ys) - top + UNIT / 2 + MARGIN
    return Geometry(style, centers, UNIT / 2, round(width, 2), round(height, 2))


def _attr(text: str) -> str:
    """`text` as an attribute value between double quotes."""
    return escape(text, {'"': "&quot;"})


def _polygon(center: tuple[float, float], radius: float, sides: int, turn: float) -> str:
    x, y = center
    points = [(x + radius * math.cos(turn + 2 * math.pi * k / sides),
               y + radius * math.sin(turn + 2 * math.pi * k / sides)) for k in range(sides)]
    return " ".join(f"{px:.2f},{py:.2f}" for px, py in points)


def _cell_shape(geo: Geometry, cell: int, attrs: str) -> str:
    """One cell's outline (a square, a hexagon or a point) with SVG attributes."""
    (x, y), r = geo.centers[cell], geo.radius
    if geo.style == "squares":
        return f'<rect x="{x - r:.2f}" y="{y - r:.2f}" width="{2 * r:.2f}" height="{2 * r:.2f}" {attrs}/>'
    if geo.style == "hexagons":  # pointy-topped: neighbours east and west share a side
        return f'<polygon points="{_polygon((x, y), r * 2 / math.sqrt(3), 6, math.pi / 6)}" {attrs}/>'
    return f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r * 0.42:.2f}" {attrs}/>'


def _board_layer(game: Game, geo: Geometry) -> list[str]:
    """The cells, regions shaded, and the edges the style shows: every edge between points;
    on squares the drawn diagonals only (alquerque's lines, over the cells), where not
    every cell has them (then they are the squares' corners), the sides joining the rest."""
    board = game.ruleset.board
    tint = _region_tints(game)
    cells = []
    for c in range(board.size):
        shape = "goal" if c in board.goals else "cell"
        cells.append(_cell_shape(geo, c, f'class="{shape}" data-cell="{_attr(board.names[c])}" '
                                         f'fill="{tint.get(c, BOARD_FILL)}" stroke="{LINE_INK}" '
                                         'stroke-width="1"'))
    edges = []
    drawn_diagonals = geo.style == "squares" and not _every_diagonal(board)
    for u, v, ds in board.graph.edges():
        if geo.style == "hexagons" or not (u < v or v in board.goals or LINK in ds):
            continue
        if geo.style == "squares" and not (drawn_diagonals and any(d in DIAGONALS for d in ds)) \
                and LINK not in ds:
            continue
        (x1, y1), (x2, y2) = geo.centers[u], geo.centers[v]
        dash = ' stroke-dasharray="5,4"' if LINK in ds else ""
        edges.append(f'<line class="edge" x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" '
                     f'y2="{y2:.2f}" stroke="{LINE_INK}" stroke-width="1.5"{dash}/>')
    layers = cells + edges if geo.style == "squares" else edges + cells
    return ['<g class="board">', *layers, "</g>"]


def _every_diagonal(board: Board) -> bool:
    """Whether every two cells touching at a corner are joined (`with diagonals`: a king's
    board), rather than along drawn lines only (`with alternate diagonals`)."""
    at = {(round(x), round(y)): c for c, (x, y) in enumerate(board.coords) if c not in board.goals}
    for (x, y), c in at.items():
        for d, (dx, dy) in (("ne", (1, 1)), ("nw", (-1, 1))):
            if (x + dx, y + dy) in at and board.neighbour(c, d) != at[(x + dx, y + dy)]:
                return False
    return True


def _region_tints(game: Game) -> dict[int, str]:
    """A tint for each cell of a declared region (the first region a cell is in)."""
    builtin = set(game.ruleset.board.builtin_regions())
    tints: dict[int, str] = {}
    named = [n for n in game.ruleset.regions if n not in builtin]
    for k, name in enumerate(named):
        for c in sorted(game.ruleset.regions[name]):
            tints.setdefault(c, REGION_TINTS[k % len(REGION_TINTS)])
    return tints


def _labels(board: Board, geo: Geometry) -> list[str]:
    """Coordinates on every edge: each column's letters above its top cell and below its
    bottom cell, each row's number left of its first cell and right of its last; none
    where a goal is drawn (3-A-Side's goals sit in column g's places)."""
    out = ['<g class="coordinates" font-family="sans-serif" font-size="15" '
           f'fill="{LABEL_INK}" text-anchor="middle">']
    columns: dict[str, list[int]] = {}
    rows: dict[str, list[int]] = {}
    for c in range(board.size):
        if c in board.goals:
            continue
        m = re.fullmatch(r"([A-Za-z]+)(\d+)", board.names[c])
        if m:
            columns.setdefault(m.group(1), []).append(c)
            rows.setdefault(m.group(2), []).append(c)
    off = geo.radius + 12
    cells_on = [c for cells in rows.values() for c in cells]
    top = min((geo.centers[c][1] for c in cells_on), default=0.0) - off + 4
    bottom = max((geo.centers[c][1] for c in cells_on), default=0.0) + off + 4
    goals = [geo.centers[g] for g in board.goals]
    half = geo.radius * (0.42 if geo.style == "points" else 1.0)  # a goal's drawn half-size

    def free(x: float, y: float) -> bool:  # a label (about 8 x 12 pixels) clear of every goal
        return all(abs(x - gx) > half + 4 or abs(y - 4 - gy) > half + 6 for gx, gy in goals)

    for letters, cells in columns.items():  # on one line above the board and one below
        x = geo.centers[cells[0]][0]
        out += [f'<text x="{x:.2f}" y="{y:.2f}">{letters}</text>' for y in (top, bottom) if free(x, y)]
    for number, cells in rows.items():
        y = geo.centers[cells[0]][1] + 4
        left, right = min(geo.centers[c][0] for c in cells), max(geo.centers[c][0] for c in cells)
        out.append(f'<text x="{left - off:.2f}" y="{y:.2f}">{number}</text>')
        out.append(f'<text x="{right + off:.2f}" y="{y:.2f}">{number}</text>')
    out.append("</g>")
    return out


def piece_colours(pt: PieceType) -> tuple[str, str]:
    """The piece's declared colour (`colour red`), else its owner's."""
    if pt.colour is not None:
        return COLOURS[pt.colour]
    return NEUTRAL_COLOUR if pt.owner is None else PLAYER_COLOURS[pt.owner % len(PLAYER_COLOURS)]


def _piece_shape(pt: PieceType, x: float, y: float, size: float, attrs: str) -> str:
    """The piece's outline (`shape square`, ...), centred on (x, y), `size` its radius."""
    if pt.shape == "square":
        return (f'<rect {attrs} x="{x - size * 0.9:.2f}" y="{y - size * 0.9:.2f}" width="{size * 1.8:.2f}" '
                f'height="{size * 1.8:.2f}" rx="{size * 0.15:.2f}"/>')
    sides = {"diamond": (4, 0.0), "triangle": (3, -math.pi / 2), "hexagon": (6, 0.0)}.get(pt.shape)
    if sides is not None:
        points = _polygon((x, y), size * (1.15 if pt.shape == "triangle" else 1.0), sides[0], sides[1])
        return f'<polygon {attrs} points="{points}" stroke-width="1.5"/>'
    if pt.shape == "ring":
        return f'<circle {attrs} cx="{x:.2f}" cy="{y:.2f}" r="{size * 0.8:.2f}" stroke-width="{size * 0.35:.2f}"/>'
    return f'<circle {attrs} cx="{x:.2f}" cy="{y:.2f}" r="{size:.2f}" stroke-width="1.5"/>'


def _pieces_layer(game: Game, geo: Geometry, state: State) -> list[str]:
    """Carriers first (tiles), then what stands on the board, wide pieces joined across
    their cells; each piece's symbol written on it (a counted kind's count)."""
    types, board = game.ruleset.types, game.ruleset.board
    out = ['<g class="pieces" font-family="sans-serif" text-anchor="middle">']
    order = sorted(range(len(types)), key=lambda t: types[t].level)
    carriers = {t.carrier for t in types if t.carrier is not None}
    r = geo.radius
    for t in order:
        mask, pt = state[t], types[t]
        cells = [c for c in range(board.size) if mask >> c & 1]
        fill, ink = CARRIER_COLOUR if t in carriers and pt.colour is None else piece_colours(pt)
        if pt.size > 1:  # a wide piece: a bar through its neighbouring cells
            for u, v, _ in board.graph.edges():
                if u < v and mask >> u & 1 and mask >> v & 1:
                    (x1, y1), (x2, y2) = geo.centers[u], geo.centers[v]
                    for colour, width in ((ink, r * 1.3 + 3), (fill, r * 1.3)):  # outlined
                        out.append(f'<line class="wide" x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" '
                                   f'y2="{y2:.2f}" stroke="{colour}" stroke-width="{width:.2f}" '
                                   f'stroke-linecap="round"/>')
        for c in cells:
            x, y = geo.centers[c]
            name = _attr(board.names[c])
            kind = _attr(pt.kind)
            if t in carriers:
                out.append(f'<rect class="piece carrier" data-cell="{name}" data-kind="{kind}" '
                           f'x="{x - r * 0.85:.2f}" y="{y - r * 0.85:.2f}" width="{r * 1.7:.2f}" '
                           f'height="{r * 1.7:.2f}" rx="{r * 0.25:.2f}" fill="{fill}" stroke="{ink}"/>')
                continue
            size = r * (0.55 if pt.level else 0.72)
            attrs = f'class="piece" data-cell="{name}" data-kind="{kind}" fill="{fill}" stroke="{ink}"'
            if pt.shape == "ring":  # a ring is drawn in its colour, its symbol in the ink
                attrs = f'class="piece" data-cell="{name}" data-kind="{kind}" fill="none" stroke="{fill}"'
            out.append(_piece_shape(pt, x, y, size, attrs))
            # a counted type's cell shows how many stand there, not its symbol
            label = str(state[game.layout.count_offsets[t] + c]) if pt.counted else pt.symbol
            out.append(f'<text x="{x:.2f}" y="{y + size * 0.35:.2f}" font-size="{size:.1f}" '
                       f'fill="{ink if pt.shape != "ring" else LABEL_INK}">{escape(label)}</text>')
    out.append("</g>")
    return out


def _marks(geo: Geometry, names: list[str], cells: Iterable[int], css: str, colour: str,
           dotted: bool, size: float = 0.9, width: int = 3) -> list[str]:
    out = []
    for c in sorted(set(cells)):
        x, y = geo.centers[c]
        dash = ' stroke-dasharray="3,3"' if dotted else ""
        out.append(f'<circle class="{css}" data-cell="{_attr(names[c])}" cx="{x:.2f}" cy="{y:.2f}" '
                   f'r="{geo.radius * size:.2f}" fill="none" stroke="{colour}" '
                   f'stroke-width="{width}"{dash}/>')
    return out


def changed_cells(game: Game, before: State, after: State) -> set[int]:
    """The cells whose pieces a ply changed (moved from, to, removed or placed)."""
    n = game.ruleset.board.size
    return {c for t in range(len(game.ruleset.types)) for c in range(n)
            if (before[t] ^ after[t]) >> c & 1}


def targets_of(game: Game, state: State, cell: int) -> set[int]:
    """The cells the legal plies of the piece on `cell` go to."""
    out = set()
    for a in game.legal_actions(state):
        rec = game.notation.decode(a)
        if rec.from_cell == cell and rec.to_cell is not None:
            out.add(rec.to_cell)
    return out


def caption_lines(lines: list[str], width: float) -> list[str]:
    """The status lines broken at spaces to fit under a board `width` wide, or in
    CAPTION_MIN characters under a smaller one (the picture widens for them, and for a
    word longer than a line)."""
    chars = max(CAPTION_MIN, int((width - MARGIN) / CAPTION_CHAR))
    return [part for line in lines for part in (textwrap.wrap(line, chars, break_long_words=False) or [""])]


def position_svg(game: Game, state: State | None = None, *, style: str | None = None,
                 last: Action | None = None, before: State | None = None,
                 targets: Sequence[int] = ()) -> str:
    """The position as a standalone SVG document: the board with its coordinates, the
    pieces, and under it the variables, reserves and who is to move (Notation.status).
    `last` (played from `before`) outlines the cells the last ply changed; `targets` marks
    cells in dots; a finished game's deciding cells (ending.py: its winning line) are ringed."""
    state = game.initial_state() if state is None else state
    board = game.ruleset.board
    geo = geometry(board, style)
    caption = caption_lines(game.notation.status(state), geo.width)
    width = max(geo.width, math.ceil(MARGIN + CAPTION_CHAR * max(map(len, caption), default=0)))
    height = geo.height + 18 * len(caption) + 6
    body = _board_layer(game, geo) + _labels(board, geo) + _pieces_layer(game, geo, state)
    if last is not None and before is not None:
        body += _marks(geo, board.names, changed_cells(game, before, state), "last", "#e67e22", False)
    body += _marks(geo, board.names, targets, "target", "#27ae60", True)
    body += _marks(geo, board.names, ending_cells(game, state), "ended", "#d4a017", False, 0.72, 5)
    body.append(f'<g class="caption" font-family="sans-serif" font-size="14" fill="{LABEL_INK}">')
    for k, line in enumerate(caption):
        body.append(f'<text x="{MARGIN / 2:.2f}" y="{geo.height + 16 + 18 * k:.2f}">{escape(line)}</text>')
    body.append("</g>")
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.2f} {height:.2f}" data-unit="{UNIT:g}">')
    title = f"<title>{escape(game.ruleset.title)}: {escape(game.state_to_text(state))}</title>"
    return "\n".join([head, title, '<rect width="100%" height="100%" fill="#ffffff"/>', *body, "</svg>"]) + "\n"


Game.svg_picture = staticmethod(position_svg)  # type: ignore[assignment]  # Position._repr_svg_
