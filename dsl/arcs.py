"""The board's graph: cells joined by arcs, each arc labelled with the directions it is
entered along. A few dicts, so that most commands never import networkx (the search's
symmetry finder converts it with `to_networkx`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Dirs = tuple[str, ...]


class Arcs:
    """A directed graph of cells, kept in insertion order, one `dirs` label per arc."""

    def __init__(self) -> None:
        self.succ: dict[int, dict[int, Dirs]] = {}
        self.pred: dict[int, dict[int, Dirs]] = {}

    def add_node(self, n: int) -> None:
        self.succ.setdefault(n, {})
        self.pred.setdefault(n, {})

    def add_edge(self, u: int, v: int, dirs: Dirs) -> None:
        """The arc u -> v, labelled `dirs` (replacing the label of an arc already there)."""
        self.add_node(u)
        self.add_node(v)
        self.succ[u][v] = dirs
        self.pred[v][u] = dirs

    def has_edge(self, u: int, v: int) -> bool:
        return v in self.succ.get(u, ())

    def dirs(self, u: int, v: int) -> Dirs:
        return self.succ[u][v]

    def edges(self) -> Iterator[tuple[int, int, Dirs]]:
        """Every arc as (from, to, dirs), by source cell then insertion."""
        for u, out in self.succ.items():
            for v, ds in out.items():
                yield u, v, ds

    def out_edges(self, u: int) -> Iterator[tuple[int, Dirs]]:
        yield from self.succ.get(u, {}).items()

    def in_edges(self, v: int) -> Iterator[tuple[int, Dirs]]:
        yield from self.pred.get(v, {}).items()

    def to_networkx(self) -> Any:
        """The same graph as a networkx DiGraph (arcs carry `dirs`)."""
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(self.succ)
        for u, v, ds in self.edges():
            g.add_edge(u, v, dirs=ds)
        return g
