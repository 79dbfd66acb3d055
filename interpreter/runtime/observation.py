"""Observation tensors: a position as planes over the board's cells, for neural networks.

One plane per piece type (absolute) or per kind and owner relative to the player
observing (by default the player to move), `own` first (perspective "mover"); then one plane per player (filled with 1
for the player to move), one per phase of the turn when there are several, one per
variable slot and per reserve (filled with the value), one per counted piece type (each
cell's count), the previous ply when the rules
read it (one plane per remembered rule, then its from and here cells), and, for rules
with chained plies, the route of a chain begun (its cells so far, and where the piece
stands). `Observer.planes` names them in order.

A tensor is `(planes, cells)`, or with `grid=True` `(planes, rows, columns)`: square
boards by rank and file, hexagonal boards in axial coordinates (row from the north;
a step east is one column on), off-board goals on one extra row at the bottom.
`Observer.coordinates` gives each cell's (row, column), and `Observer.adjacency()` the
board's arcs as a (cells, cells) matrix for any graph. numpy is needed
(`pip install 'rulecraft[numpy]'`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dsl.board import Board

from interpreter.runtime.action_ids import has_chains
from interpreter.runtime.game import Game, State
from interpreter.runtime.tables import cells_of

if TYPE_CHECKING:
    import numpy as np

PERSPECTIVES = ("mover", "absolute")
# What a plane holds, for each observing player: (op, slot, value), read from the state's
# slots. One program for both the tensor here and the native vectorised games (vector.py).
NOTHING = 0  # zeros
MASK = 1  # 1 on the cells of the mask state[slot]
EQUALS = 2  # 1 everywhere when state[slot] == value
VALUE = 3  # state[slot] everywhere
COUNTS = 4  # state[slot + c] on cell c (a counted type's counts)
ROUTE = 5  # 1 on the cells of a chain begun
CHAIN_AT = 6  # 1 where the piece of a chain begun stands
Op = tuple[int, int, int]


def numpy() -> Any:
    """numpy, or ImportError saying how to get it."""
    try:
        import numpy as np  # noqa: PLC0415 - an optional dependency
    except ImportError:
        raise ImportError("observation tensors need numpy: pip install 'rulecraft[numpy]'") from None
    return np


def grid_coordinates(board: Board) -> tuple[list[tuple[int, int]], tuple[int, int]]:
    """Each cell's (row, column) on a rectangular grid, and the grid's (rows, columns)."""
    on = [c for c in range(board.size) if c not in set(board.goals)]
    ys = [board.lattice[c][1] for c in on]
    top = max(ys)
    rows = {c: top - board.lattice[c][1] for c in on}
    if board.shape in ("hexagon", "rhombus"):  # x in half units: axial column = (x + row) / 2
        raw = {c: board.lattice[c][0] + rows[c] for c in on}
    else:
        raw = {c: 2 * board.lattice[c][0] for c in on}
    left = min(raw.values())
    coords = {c: (rows[c], (raw[c] - left) // 2) for c in on}
    height = max(rows.values()) + 1
    width = max(col for _, col in coords.values()) + 1
    for i, g in enumerate(board.goals):
        coords[g] = (height, i)
    if board.goals:
        height, width = height + 1, max(width, len(board.goals))
    return [coords[c] for c in range(board.size)], (height, width)


def _relative(rel: int, players: int) -> str:
    """How a plane names the player `rel` seats after the one observing."""
    return "own " if rel == 0 else "opponent's " if players == 2 else f"player+{rel} "


class Observer:
    """The planes of a game's positions as seen by one player (or absolutely)."""

    def __init__(self, game: Game, perspective: str = "mover", grid: bool = False):
        if perspective not in PERSPECTIVES:
            raise ValueError(f"unknown perspective '{perspective}' (known: {', '.join(PERSPECTIVES)})")
        self.game, self.perspective, self.grid = game, perspective, grid
        self.coordinates, self.grid_shape = grid_coordinates(game.board)
        self.planes: list[str] = []
        self.ranges: list[tuple[float, float]] = []  # each plane's least and greatest value
        self.program: list[list[Op]] = []  # each plane's op for each observing player
        self._pieces()
        self._scalars()
        self._history()
        if has_chains(game):
            self._add("route", (ROUTE, 0, 0))
            self._add("chain at", (CHAIN_AT, 0, 0))
        n = game.board.size
        self.shape: tuple[int, ...] = (len(self.planes),) + (self.grid_shape if grid else (n,))

    def adjacency(self) -> "np.ndarray":
        """The board as a (cells, cells) int8 matrix, 1 where an arc leads from the row's
        cell to the column's (links and goals included): beside a `(planes, cells)` tensor,
        the graph a graph network reads on any board."""
        np = numpy()
        n = self.game.board.size
        out = np.zeros((n, n), np.int8)
        for u, v, _ in self.game.board.graph.edges():
            out[u, v] = 1
        return out

    def _add(self, name: str, op: Op | list[Op], low: float = 0, high: float = 1) -> None:
        """A plane: one op for every observer, or a list with one for each."""
        self.planes.append(name)
        self.ranges.append((float(low), float(high)))
        self.program.append(op if isinstance(op, list) else [op] * len(self.game.players))

    def limits(self) -> tuple["np.ndarray", "np.ndarray"]:
        """The least and the greatest value of every item of a tensor (arrays of `shape`):
        0 and 1 but for variables (their declared range) and reserves (0 to their size)."""
        np = numpy()
        low, high = (np.array([r[i] for r in self.ranges], dtype=np.float32) for i in (0, 1))
        extra = (1,) * (len(self.shape) - 1)
        return (np.broadcast_to(low.reshape(-1, *extra), self.shape).copy(),
                np.broadcast_to(high.reshape(-1, *extra), self.shape).copy())

    def _pieces(self) -> None:
        rs, k = self.game.ruleset, len(self.game.players)
        if self.perspective == "absolute":
            for t in range(len(rs.types)):
                self._add(self.game.layout.slots[t].name, (MASK, t, 0))
            return
        for kind in dict.fromkeys(t.kind for t in rs.types):
            for t in rs.types_of(kind, None):
                self._add(kind, (MASK, t, 0))
            owned = {t_.owner: i for i, t_ in enumerate(rs.types) if t_.kind == kind and t_.owner is not None}
            if not owned:
                continue
            for rel in range(k):
                self._add(_relative(rel, k) + kind, [(MASK, owned[(p + rel) % k], 0) if (p + rel) % k in owned
                                                     else (NOTHING, 0, 0) for p in range(k)])

    def _scalars(self) -> None:
        g, L = self.game, self.game.layout
        k = len(g.players)
        for i, name in enumerate(g.players):
            self._add(f"to move: {name}", (EQUALS, L.P, i))
        phases = len(g.ruleset.first_turn or []) + len(g.ruleset.turn)
        if phases > 1:
            for ph in range(phases):
                self._add(f"phase {ph}", (EQUALS, L.PH, ph))
        mover = self.perspective == "mover"
        for v in g.ruleset.vars:
            base = L.var_offsets[v.name]
            low, high = L.slots[base].low, L.slots[base].high
            if not v.per_player:
                self._add(v.name, (VALUE, base, 0), low, high)
                continue
            for i in range(k):
                name = _relative(i, k) + v.name if mover else f"{v.name}[{g.players[i]}]"
                self._add(name, [(VALUE, base + ((p + i) % k if mover else i), 0) for p in range(k)],
                          low, high)
        for t, slot in L.reserve_offsets.items():
            self._add(L.slots[slot].name, (VALUE, slot, 0), 0, L.slots[slot].high)
        for t, base in L.count_offsets.items():  # a counted type: how many stand on each cell
            self._add(f"count: {g.ruleset.types[t].kind}", (COUNTS, base, 0), 0, g.ruleset.types[t].counted)

    def _history(self) -> None:
        L, rs = self.game.layout, self.game.ruleset
        if L.memory is None:
            return
        m = L.memory
        names = [p.name for p in rs.plies] + ["pass"]
        for value, name in enumerate(names, start=1):
            if name in rs.remembers:
                self._add(f"previous: {name}", (EQUALS, m, value))
        self._add("previous from", (MASK, m + 1, 0))
        self._add("previous here", (MASK, m + 2, 0))

    def tensor(self, state: State, player: int | None = None, route: tuple[int, ...] = ()) -> "np.ndarray":
        """The planes of `state` seen by `player` (default: the player to move), float32,
        of `shape`; `route`: the cells of a chain begun (its start, then each hop's end)."""
        np = numpy()
        p = self.game.to_move(state) if player is None else player
        n = self.game.board.size
        flat = np.zeros((len(self.planes), n), dtype=np.float32)
        for i, ops in enumerate(self.program):
            op, slot, value = ops[p]
            if op == MASK:
                if state[slot]:
                    flat[i, cells_of(state[slot])] = 1.0
            elif op == EQUALS:
                flat[i, :] = state[slot] == value
            elif op == VALUE:
                flat[i, :] = state[slot]
            elif op == COUNTS:
                flat[i, :] = state[slot:slot + n]
            elif op == ROUTE:
                flat[i, list(route)] = 1.0
            elif op == CHAIN_AT and route:
                flat[i, route[-1]] = 1.0
        if not self.grid:
            return flat
        out = np.zeros(self.shape, dtype=np.float32)
        rows, cols = zip(*self.coordinates)
        out[:, list(rows), list(cols)] = flat
        return out
