"""The generated code's statements and expressions (codegen/writer.py, codegen/expr.py)
as Python over a state list of int bitmasks and counters.

Only integers and identifiers made here reach the source: no text of a .game file ever
does (the model's names are resolved to indices before)."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from typing import Iterator

from dsl import model
from dsl.constructs import effects
from dsl.model import Ruleset

from interpreter.codegen.context import Ctx, Sink
from interpreter.codegen.writer import Writer
from interpreter.python.pysource import PySource
from interpreter.runtime import limits
from interpreter.runtime.layout import Layout
from interpreter.runtime.tables import Tables

UNROLL = 8  # piece types written out one by one; more are looped over
FITS_MAX_CELLS = 16  # up to this size, the placements inside each set of free cells are tabled

_HELPERS = {
    "adjacent": "_adjacent({0}, {1})",
    "support": "({0}[SUPPORT[{1}]] if SUPPORT[{1}] >= 0 else FULL)",
    "captured": "_captured({0}, {1}, OPP[{2}])",
    "closer": "_closer({0}, {1}, {2}, LATTICE, METRIC)",
    "aligned_pair": "_aligned_pair({0}, {1})",
    "aligned": "_aligned({0}, {1})",
    "run": "_run({0}, {1}, {2}, {3})",
    "line": "_line({0}, {1}, {2})",
    "connected": "_connected({0}, {1}, {2}, {3})",
    "in_line": "_in_line({0}, {1}, {2}, {3})",
    "back_along": "_back_along({0}, {1}, {3}, {4})",
}


class PyWriter(Writer):
    ZERO = "0"

    def __init__(self, rs: Ruleset, tables: Tables, layout: Layout, out: PySource):
        super().__init__(rs, tables, layout, out)
        self.lazy: dict[str, str] = {}  # a bit loop's cell -> its index, computed where read
        self.ray: tuple[str, str] = ("", "")  # the ray's local, its start cell
        self.bound = ""  # the local holding the ray's cells (each_dir with bind)
        self._chain_child = ""  # the key of the state a chain search pushes (chain_search's)

    # ------------------------------------------------------------ constants
    def const(self, key: tuple, value: object, prefix: str) -> str:
        """A global of the module for a table or constant, named here."""
        return self.out.const(key, value, prefix)

    def adj(self, dirs: tuple[str, ...] | list[str] | None) -> str:
        key = None if dirs is None else tuple(dirs)
        return self.const(("adj", key), self.t.adjacency(None if dirs is None else list(dirs)), "ADJ")

    def mask_const(self, mask: int) -> str:
        return self.const(("mask", mask), mask, "K")

    def full(self) -> str:
        return str(self.t.full) if self.t.n < 64 else self.mask_const(self.t.full)

    def type_tuple(self, types: list[int]) -> str:
        """A tuple of piece types as the source writes it (a named constant when long)."""
        t = tuple(types)
        return repr(t) if len(t) <= UNROLL else self.const(("types", t), t, "TYPES")

    def mask_list(self, key: tuple, masks: list[int], prefix: str) -> str:
        return self.const(key, list(masks), prefix)

    def mask_rows(self, key: tuple, rows: list[list[int]], prefix: str) -> str:
        return self.const(key, [list(r) for r in rows], prefix)

    def range_guard(self, var: model.Var) -> str:
        """The function that stops play when `var` leaves its range, with its error."""
        guard = limits.range_guard(var.span, var.name, var.low, var.high)
        return self.const(("range", var.name), guard, "RANGE")

    # ------------------------------------------------------------ expressions
    def number(self, value: int) -> str:
        return str(value)

    def player(self, s: str) -> str:
        return f"{s}[{self.L.P}]"

    def slot_plus(self, s: str, base: int, offset: str) -> str:
        return f"{s}[{base} + {offset}]"

    def types_union(self, types: list[int], s: str) -> str:
        """The union of the masks of `types` in state `s` (a loop past a few types, so that
        the source grows with the rules, not with rules x kinds)."""
        if not types:
            return "0"
        if len(types) > UNROLL:
            return f"_union({s}, {self.type_tuple(types)})"
        return "(" + " | ".join(f"{s}[{i}]" for i in types) + ")"

    def relate(self, name: str, pairs: tuple, cells: str, s: str) -> str:
        return f"_relate({cells}, {s}, {self.const(('relation', name), pairs, 'REL')})"

    def within(self, a: str, b: str) -> str:
        return f"_within({a}, {b})"

    def arith(self, op: str, a: str, b: str) -> str:
        return f"({a} {op} {b})"

    def negate(self, a: str) -> str:
        return f"(-{a})"

    def one_of(self, value: str, choices: list[int]) -> str:
        return f"({value} in {tuple(choices)!r})"

    def cell_of(self, one: str, known: str | None = None) -> str:
        return f"({one}).bit_length() - 1"

    def points(self, e: model.Expr, cx: Ctx) -> str:
        """The lattice points of a set, computed above the loop where the set is the same."""
        points = f"_points({self.expr(e, replace(cx, hoist=None))}, LATTICE)"
        if cx.hoist is not None and not self.deps(e) & cx.hoist.inner:
            points = cx.hoist.local(points, "piece" if "from" in self.deps(e) else "outer", "value")
        return points

    def and_(self, a: str, b: str) -> str:
        return f"({a} & {b})"

    def or_(self, a: str, b: str) -> str:
        return f"({a} | {b})"

    def andn(self, a: str, b: str) -> str:
        return f"({a} & ~{b})"

    def any_(self, a: str) -> str:
        return a

    def none(self, a: str) -> str:
        return f"not {a}"

    def eq(self, a: str, b: str) -> str:
        return f"({a} == {b})"

    def has(self, mask: str, cell: str, bit: str | None = None) -> str:
        return f"{bit or f'BIT[{cell}]'} & {mask}"

    def bit(self, cell: str) -> str:
        return f"BIT[{cell}]"

    def cell(self, name: str) -> str:
        return self.lazy.get(name, name)

    def count(self, a: str) -> str:
        return f"({a}).bit_count()"

    def pieces(self, s: str, t: str) -> str:
        return f"{s}[{t}]"

    def slot(self, s: str, index: int) -> str:
        return f"{s}[{index}]"

    def number_slot(self, slot: int) -> int:
        return slot

    def number_at(self, s: str, slot: str) -> str:
        return f"{s}[{slot}]"

    def not_(self, cond: str) -> str:
        return f"not {cond}"

    def all_(self, *conds: str) -> str:
        return conds[0] if len(conds) == 1 else "(" + " and ".join(conds) + ")"

    def any_of(self, *conds: str) -> str:
        return conds[0] if len(conds) == 1 else "(" + " or ".join(conds) + ")"

    def call(self, helper: str, *args: str) -> str:
        return _HELPERS[helper].format(*args)

    # ------------------------------------------------------------ counted pieces
    def amount(self, s: str, t: int, cells: str) -> str:
        return f"_amount({s}, {self.L.count_offsets[t]}, {cells})"

    def count_check(self, eff: model.Effect, kind: str, high: int, target: str) -> None:
        guard = self.const(("count", kind, eff.span.line if eff.span else 0, eff.span.col if eff.span else 0),
                           limits.count_guard(eff.span, kind, high), "COUNT")
        self.line(f"if not 0 <= {target} <= {high}: {guard}({target})")

    def holding(self, s: str, t: int, low: str, high: str) -> str:
        return f"_holding({s}, {self.L.count_offsets[t]}, {self.rs.board.size}, {low}, {high})"

    def sow_end(self, s: str, t: str, track: str, at: str, length: int, frm: str, skip: str) -> str:
        return f"_sow_end({s}, {self.count_bases()}[{t}], {track}, {at}, {frm}, {skip})"

    def sow(self, b: str, t: str, track: str, at: str, length: int, frm: str, skip: str) -> None:
        self.line(f"_sow({b}, {self.count_bases()}[{t}], {t}, {track}, {at}, {frm}, {skip})")

    # ------------------------------------------------------------ tables
    def masks(self, key: tuple, values: list[int], prefix: str) -> str:
        return self.const(("masks",) + key, list(values), prefix)

    def ints(self, key: tuple, values: list[int], prefix: str) -> str:
        return self.const(("ints",) + key, tuple(values), prefix)

    # ------------------------------------------------------------ statements
    def let(self, kind: str, name: str, value: str) -> None:
        if kind == "points":  # a set's lattice points, for projections
            value = f"_points({value}, LATTICE)"
        self.line(f"{name} = {value}")

    def set(self, name: str, value: str) -> None:
        self.line(f"{name} = {value}")

    def or_into(self, name: str, value: str) -> None:
        self.line(f"{name} |= {value}")

    def add_to(self, target: str, amount: str) -> None:
        self.line(f"{target} += {amount}")

    def skip_if(self, cond: str) -> None:
        self.line(f"if {cond}: continue")

    def skip(self) -> None:
        self.line("continue")

    def stop_if(self, cond: str) -> None:
        self.line(f"if {cond}: break")

    def if_(self, cond: str):
        return self.block(f"if {cond}:", None)

    def else_(self):
        return self.block("else:", None)

    def ret(self, value: str) -> None:
        self.line(f"return {value}")

    def effect(self, eff: model.Effect, cx: Ctx) -> None:
        effects.emit(self, eff, cx)

    def update(self, target: str, op: str, value: str) -> None:
        self.line(f"{target} {op} {value}")

    def range_check(self, var: model.Var, target: str) -> None:
        self.line(f"if not {var.low} <= {target} <= {var.high}: {self.range_guard(var)}({target})")

    def reset_pieces(self, s: str) -> None:
        self.line(f"{s}[:{self.L.types}] = SETUP")

    # ------------------------------------------------------------ loops
    def each_type(self, types: list[int], t: str = "t"):
        return self.block(f"for {t} in {self.type_tuple(types)}:", None)

    def each_index(self, count: str, var: str):
        return self.block(f"for {var} in range({count}):", None)

    @contextmanager
    def each_bit(self, mask: str, bit: str, cell: str, eager: bool = False) -> Iterator[None]:
        with self.block(f"while {mask}:", None):
            self.line(f"{bit} = {mask} & -{mask}")
            self.line(f"{mask} ^= {bit}")
            index = f"{bit}.bit_length() - 1"
            saved = self.lazy.get(cell)
            if eager:
                self.line(f"{cell} = {index}")
                self.lazy.pop(cell, None)
            else:
                self.lazy[cell] = index
            try:
                yield
            finally:
                if saved is None:
                    self.lazy.pop(cell, None)
                else:
                    self.lazy[cell] = saved

    def each_record(self, key: tuple, rows: list, fields: list[tuple[str, str]], index: str | None,
                    prefix: str):
        names = ", ".join(name for _, name in fields)
        single = len(fields) == 1

        def row(r: list[tuple]) -> list:
            return [x[0] if single else tuple(x) for x in r]

        if index is None:
            table = self.const(("records",) + key, row(rows), prefix)
            return self.block(f"for {names} in {table}:", None)
        table = self.const(("records",) + key, [row(r) for r in rows], prefix)
        return self.block(f"for {names} in {table}[{index}]:", None)

    def each_of(self, table: str, index: str, var: str):
        return self.block(f"for {var} in {table}[{index}]:", None)

    @contextmanager
    def each_dir(self, dirs: list[str], start: str, values: dict[str, list[str]] | None = None,
                 index: str | None = None, bind: bool = False, lands: bool = False) -> Iterator[None]:
        rays = [self.const(("rays", d), self.t.rays(d), "RAY") for d in dirs]
        names = ["ray"] + list(values or {})
        items = [", ".join([r] + [v[i] for v in (values or {}).values()]) for i, r in enumerate(rays)]
        seq = ", ".join(f"({x})" if values else x for x in items)
        head = ", ".join(names)
        loop = f"for {index}, {head} in enumerate(({seq},)):" if index else f"for {head} in ({seq},):"
        with self.block(loop, None):
            saved = self.ray, self.bound
            self.ray, self.bound = ("ray", start), ""
            if bind:
                self.line(f"line = ray[{start}]")
                self.bound = "line"
            try:
                yield
            finally:
                self.ray, self.bound = saved

    def each_ray_cell(self, cell: str):
        ray, start = self.ray
        return self.block(f"for {cell} in {self.bound or f'{ray}[{start}]'}:", None)

    def ray_at(self, i: int) -> str:
        return f"{self.bound}[{i}]" if self.bound else f"{self.ray[0]}[{self.ray[1]}][{i}]"

    def ray_len(self) -> str:
        return f"len({self.bound or f'{self.ray[0]}[{self.ray[1]}]'})"

    def maxdots(self, targets: str, vectors: list[tuple[int, int]]) -> list[str]:
        self.line(f"targets = _points({targets}, LATTICE)")
        names = []
        for i, (dx, dy) in enumerate(vectors):
            self.line(f"best{i} = _maxdot(targets, {dx}, {dy})")
            names.append(f"best{i}")
        return names

    @contextmanager
    def each_placement(self, size: int, free: str, index: str, here: str) -> Iterator[None]:
        if self.t.n <= FITS_MAX_CELLS:
            fits = self.const(("fits", size), self.t.placements_within(size), "FITS")
            with self.block(f"for {index}, {here} in {fits}[{free}]:", None):
                yield
        else:
            pl = self.const(("placements", size), self.t.placement_masks(size), "PL")
            with self.block(f"for {index}, {here} in enumerate({pl}):", None):
                self.skip_if(f"{here} & ~{free}")
                yield

    def placement(self, size: int, index: str) -> str:
        return f"{self.const(('placements', size), self.t.placement_masks(size), 'PL')}[{index}]"

    # ------------------------------------------------------------ chained motions
    @contextmanager
    def chain_search(self, code: int, budget: int, segments: int | None, ply: model.Ply) -> Iterator[None]:
        # past the budget, the search stops with the rule's error
        guard = self.const(("chain limit", code),
                             limits.chain_guard(ply.span, ply.name, self.rs.board.names, budget), "CHAIN")
        state = "(c, removed, last)" if segments is None else "(c, removed, last, len(route))"
        self._chain_child = "({cell}, {removed}, {direction})" if segments is None else \
            "({cell}, {removed}, {direction}, len(route) + 1)"
        # `graph` (runtime/chain_hops.HopGraph): each state expanded, numbered, and its hops
        self.line(f"def chains_{code}(s, t, c0, routes=False, graph=None):")
        self.depth = 1
        self.line("found = {}")
        self.line("start = BIT[c0]")
        self.line("expanded = {}")
        self.line("if graph is not None: graph.nodes = expanded")
        self.line("stack = [(c0, 0, -1, (c0,))]")
        self.line(f"budget = {budget}")
        self.line("me = 0")
        with self.block("while stack:", None):
            self.line("c, removed, last, route = stack.pop()")
            with self.block("if not routes:", None):
                self.line(f"if {state} in expanded: continue")
                self.line(f"expanded[{state}] = me = len(expanded)")
            self.line("budget -= 1")
            self.line(f"if budget < 0: {guard}(c0)")
            types = self.L.types  # stones are removed as they are passed (the other slots stay)
            self.line(f"sc = [x & ~removed for x in s[:{types}]] + list(s[{types}:])")
            self.line("sc[t] = (sc[t] & ~start) | BIT[c]")  # the start cell is empty while it moves
            yield
        self.line("return found")
        self.depth = 0
        self.line("")

    def chain_length(self) -> str:
        return "len(route)"

    def chain_end(self, cell: str, removed: str, reached: bool = False) -> None:
        self.line(f"key = ({cell}, {removed})")
        self.line("if key not in found: found[key] = []")
        self.line(f"if routes or not found[key]: found[key].append({'route' if reached else f'route + ({cell},)'})")
        self.line(f"if graph is not None: graph.edges.append((me, {cell}, {removed}, {2 if reached else 1}, None))")

    def chain_push(self, cell: str, removed: str, direction: str) -> None:
        self.line(f"stack.append(({cell}, {removed}, {direction}, route + ({cell},)))")
        child = self._chain_child.format(cell=cell, removed=removed, direction=direction)
        self.line(f"if graph is not None: graph.edges.append((me, {cell}, {removed}, 0, {child}))")

    def each_chain(self, code: int, final: str, removed: str):
        return self.block(f"for {final}, {removed} in chains_{code}(s, t, c0):", None)

    # ------------------------------------------------------------ functions
    @contextmanager
    def generator(self, code: int, sink: Sink) -> Iterator[None]:
        self.sink = sink
        self.line(f"def {sink.value}_{code}(s):")
        self.depth = 1
        if sink is Sink.LIST:
            self.line("acts = []")
            self.line("add = acts.append")
        yield
        self.line("return acts" if sink is Sink.LIST else "return False")
        self.depth = 0
        self.line("")

    def ply(self, code: int, fields: list[str], removal: str | None) -> None:
        if self.sink is Sink.LIST:
            items = [str(code)] + [self.cell(f) for f in fields] + ([removal] if removal is not None else [])
            self.line(f"add(({', '.join(items)}))")
        else:
            self.line("return True")

    @contextmanager
    def function(self, kind: str, code: int | str) -> Iterator[None]:
        self.line(f"def {kind}_{code}(s, a):")
        self.depth = 1
        yield
        self.depth = 0
        self.line("")

    def field(self, i: int) -> str:
        return f"a[{i + 1}]"

    def removed_field(self, i: int) -> str:
        return f"a[{i + 1}]"

    def copy_state(self) -> None:
        self.line("b = list(s)")

    def cut_types(self, s: str, clear: str) -> None:
        """Every piece type's cells in state `s` lose the cells `clear`."""
        self.line(f"keep = ~{clear}")
        if self.L.types > UNROLL:
            with self.block(f"for i in range({self.L.types}):", None):
                self.line(f"{s}[i] &= keep")
        else:
            for i in range(self.L.types):
                self.line(f"{s}[{i}] &= keep")

    def cut_row(self, table: str, index: str, s: str, clear: str) -> None:
        self.line(f"keep = ~{clear}")
        with self.each_of(table, index, "i"):
            self.line(f"{s}[i] &= keep")

    def sort_sets(self, s: str, group: tuple[int, ...]) -> None:
        slots = ", ".join(f"{s}[{i}]" for i in group)
        self.line(f"{slots} = sorted(({slots},))")
