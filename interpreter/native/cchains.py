"""The C of chained motions (a jump chain, say): the search of a chain's states, as
`chains_N` functions over a stack and sets of states the prelude keeps (chain_hop
records each hop for the move graph). A mixin of CWriter, whose lines, blocks and
tables it writes with."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from dsl import model

from interpreter.native.csource import CSource
from interpreter.runtime.layout import Layout


class CChains:
    """CWriter's chained motions (see the module); its line, block and _index are
    CWriter's."""

    out: CSource
    L: Layout
    depth: int
    _chain_len: str  # the segments of a state a chain search pushes (its key)

    @contextmanager
    def chain_search(self, code: int, budget: int, segments: int | None, ply: model.Ply) -> Iterator[None]:
        self.out.function(f"int chains_{code}(const S *s, int t, int c0)")
        self._chain_len = "0" if segments is None else "len + 1"  # a pushed state's key
        self.depth = 1
        self.line("if (chainset_reset(&rc_expanded, 1u << 18) || chainset_reset(&rc_found_set, 1u << 12)) "
                  "return RC_ERR_MEMORY;")
        self.line("rc_found.n = rc_stack.n = 0;")
        self.line("M start = m_bit(c0);")
        self.line("if (chainlist_push(&rc_stack, c0, m_zero(), -1, 1)) return RC_ERR_MEMORY;")
        self.line(f"int budget = {budget};")
        with self.block("while (rc_stack.n) {", "}"):
            self.line("ChainItem it = rc_stack.a[--rc_stack.n];")
            self.line("int c = it.c, last = it.last, len = it.len; M removed = it.removed;")
            self.line(f"int fresh = chainset_add(&rc_expanded, c, removed, last, {'0' if segments is None else 'len'});")
            self.line("if (fresh < 0) return fresh;")
            self.line("if (!fresh) continue;")
            self.line("int me = (int)rc_expanded.count - 1;  /* this state's id (rc_graph) */")
            self.line("if (--budget < 0) return RC_ERR_CHAIN;")
            self.line("S scs = *s; S *sc = &scs;")
            self.line(f"for (int i = 0; i < {self.L.types}; i++) sc->c[i] = m_andn(sc->c[i], removed);")
            self.line("sc->c[t] = m_or(m_andn(sc->c[t], start), m_bit(c));")
            yield
        self.line("return 0;")
        self.depth = 0
        self.out.end()

    def chain_length(self) -> str:
        return "len"

    def chain_end(self, cell: str, removed: str, reached: bool = False) -> None:
        self.line(f"int f = chainset_add(&rc_found_set, {cell}, {removed}, 0, 0);")
        self.line("if (f < 0) return f;")
        self.line(f"if (f && chainlist_push(&rc_found, {cell}, {removed}, 0, 0)) return RC_ERR_MEMORY;")
        kind = 2 if reached else 1
        self.line(f"if (rc_graph.on && chain_hop(me, {cell}, {removed}, {kind}, 0, 0)) return RC_ERR_MEMORY;")

    def chain_push(self, cell: str, removed: str, direction: str) -> None:
        self.line(f"if (chainlist_push(&rc_stack, {cell}, {removed}, {direction}, len + 1)) return RC_ERR_MEMORY;")
        self.line(f"if (rc_graph.on && chain_hop(me, {cell}, {removed}, 0, {direction}, {self._chain_len})) "
                  "return RC_ERR_MEMORY;")

    @contextmanager
    def each_chain(self, code: int, final: str, removed: str) -> Iterator[None]:
        self.line(f"int e = chains_{code}(s, t, c0);")
        self.line("if (e < 0) return e;")
        k = self._index()
        with self.block(f"for (int {k} = 0; {k} < rc_found.n; {k}++) {{", "}"):
            self.line(f"int {final} = rc_found.a[{k}].c;")
            self.line(f"M {removed} = rc_found.a[{k}].removed;")
            yield
