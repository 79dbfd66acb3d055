"""A chain's hops from its search's graph, for action ids a hop at a time (action_ids.py).

A chained ply that removes pieces takes an id a hop: the straight segments of one of its
routes. Listing every route of every chain costs as many searches as there are routes,
and routes multiply (a chain's segments may come in many orders). Instead one piece's
chain search records its graph (`HopGraph`: each search state once, numbered as
expanded, and its hops), and a hop may come next where it ends a legal ply or leads to a
state from which one can still be reached. The native back-end does the same in C
(native/hops.c).
"""

from __future__ import annotations

from typing import Any

from interpreter.runtime.game import Action

Hop = tuple[int, int]  # the cell a hop goes to, and 1 if it ends the ply there


class HopGraph:
    """What a chain search fills in (`chains_N(..., graph=...)`): `nodes`, each state's key
    -> its number (the start is 0); `edges`, per hop (from state, to cell, removed so far,
    kind, the state it goes on to): kind 0 goes on, 1 ends the chain at its cell, 2 ends
    it at the state it leaves (reached there)."""

    def __init__(self) -> None:
        self.nodes: dict[Any, int] = {}
        self.edges: list[tuple[int, int, int, int, Any]] = []


class PieceHops:
    """The hops of one piece's legal chains in one position: which may come next at each
    state of its search, and where each goes."""

    def __init__(self, graph: HopGraph, start: int, plies: dict[tuple[int, int], Action]):
        self.plies = plies  # the legal chains, by (final cell, removed)
        self.out: list[list[tuple[int, int, int, int | None]]] = [[] for _ in graph.nodes]
        self.cell = [start] + [-1] * (len(graph.nodes) - 1)
        for me, to, removed, kind, key in graph.edges:
            child = graph.nodes[key] if kind == 0 else None
            if child is not None:
                self.cell[child] = to
            self.out[me].append((to, removed, kind, child))
        self._live: dict[int, bool] = {}

    def _ends_at(self, y: int) -> Action | None:
        """The legal ply that ends at state y itself (reached there), if any."""
        for _, removed, kind, _ in self.out[y]:
            if kind == 2:
                return self.plies.get((self.cell[y], removed))
        return None

    def _live_from(self, x: int) -> bool:
        """Whether a legal ply goes on from state x (one more hop at least)."""
        if x not in self._live:
            self._live[x] = False  # removals only grow along a chain: no state comes round
            self._live[x] = any(self.plies.get((to, removed)) is not None if kind == 1 else
                                kind == 0 and (self._ends_at(child) is not None or self._live_from(child))
                                for to, removed, kind, child in self.out[x])
        return self._live[x]

    def next(self, x: int) -> list[Hop]:
        """The hops that may come next at state x."""
        out = []
        for to, removed, kind, child in self.out[x]:
            if kind == 1 and self.plies.get((to, removed)) is not None:
                out.append((to, 1))
            elif kind == 0:
                if self._ends_at(child) is not None:
                    out.append((to, 1))
                if self._live_from(child):
                    out.append((to, 0))
        return out

    def take(self, x: int, hop: Hop) -> int | Action | None:
        """Hop `hop` at state x: the state it goes on to (an int), the legal ply it ends (a
        tuple), or None if it is no legal hop there."""
        to, end = hop
        for t, removed, kind, child in self.out[x]:
            if t != to:
                continue
            ply = None
            if end and kind == 1:
                ply = self.plies.get((to, removed))
            elif end and kind == 0:
                ply = self._ends_at(child)
            if ply is not None:
                return ply
            if not end and kind == 0 and self._live_from(child):
                return child
        return None

    def at(self, x: int) -> int:
        """The cell of state x."""
        return self.cell[x]
