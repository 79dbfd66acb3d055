"""The generated code's statements and expressions (codegen/writer.py, codegen/expr.py)
as C over a state `S`: sets of cells `M` (the prelude's m_and, m_or, ...), numbers
`int64_t`, players and yes/no `int`. Only numbers and names made here reach the source."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from dsl import model
from dsl.constructs import effects
from dsl.model import Ruleset

from interpreter.codegen.context import Ctx, Sink
from interpreter.codegen.writer import Writer
from interpreter.native.cchains import CChains
from interpreter.native.csource import CSource, Rays
from interpreter.runtime.layout import Layout
from interpreter.runtime.tables import Tables

_TYPE = {"cells": "M", "cell": "int", "num": "int64_t", "flag": "int"}
_HELPERS = {
    "adjacent": "rc_adjacent({0}, {1})",
    "support": "(SUPPORT[{1}] >= 0 ? {0}->c[SUPPORT[{1}]] : FULL)",
    "captured": "rc_captured({0}, {1}, {2})",
    "closer": "rc_closer({0}, {1}, {2}, LATTICE, {3}, {4})",
    "aligned_pair": "rc_aligned_pair({0}, {1})",
    "aligned": "rc_aligned({0}, {1})",
    "run": "rc_run({0}, {1}, {2}, {3})",
    "line": "rc_line({0}, {1}, {2})",
    "connected": "rc_connected({0}, {1}, {2}, {3})",
    "in_line": "rc_in_line({0}, {1}, {2}, {3})",
    "back_along": "rc_back_along({0}, {1}, {2}, {3}, {4})",
}


class CWriter(CChains, Writer):
    ZERO = "m_zero()"

    def __init__(self, rs: Ruleset, tables: Tables, layout: Layout, out: CSource):
        super().__init__(rs, tables, layout, out)
        self.cell_index = {slot: k for k, slot in enumerate(layout.cell_slots())}
        self.int_index = {s.index: j for j, s in enumerate(x for x in layout.slots if not x.kind.holds_cells)}
        self.loops = 0  # loop indices made so far (each loop's own, so nested loops differ)
        self.ray: tuple[str, str] = ("", "")  # the ray's pointer and its length's local
        self._chain_len = "0"  # the segments of a state a chain search pushes (its key)
        self._kept = False  # in each_landing's first_N form: a ply is kept, counted there

    def _index(self) -> str:
        self.loops += 1
        return f"k{self.loops}"

    # ------------------------------------------------------------ state slots and tables
    def slot(self, s: str, index: int) -> str:
        """The C lvalue of layout slot `index` in state pointer `s`."""
        if index in self.cell_index:
            return f"{s}->c[{self.cell_index[index]}]"
        return f"{s}->v[{self.int_index[index]}]"

    def P(self, s: str) -> str:
        return self.slot(s, self.L.P)

    def PH(self, s: str) -> str:
        return self.slot(s, self.L.PH)

    def OUT(self, s: str) -> str:
        return self.slot(s, self.L.OUT)

    def adj(self, dirs: tuple[str, ...] | list[str] | None) -> str:
        key = None if dirs is None else tuple(dirs)
        return self.out.mask_table(("adj", key), self.t.adjacency(None if dirs is None else list(dirs)), "ADJ")

    def mask_const(self, mask: int) -> str:
        return self.out.mask_const(mask)

    def full(self) -> str:
        return self.out.mask_const(self.t.full)

    def types_table(self, types: list[int]) -> tuple[str, int]:
        return self.out.int_table(("types", tuple(types)), types, "TY"), len(types)

    def rays(self, dirs: list[str]) -> Rays:
        pairs = [self.out.ragged(("ray", d), self.t.rays(d), "RAY") for d in dirs]
        flat, off = (self.out.named((what, tuple(dirs)), prefix,
                                    lambda n, xs=xs: f"static const int *const {n}[] = {{{', '.join(xs) or '0'}}};")
                     for what, prefix, xs in (("rayf", "RF", [f for f, _ in pairs]),
                                              ("rayo", "RO", [o for _, o in pairs])))
        return Rays(flat, off, len(dirs))

    def mask_list(self, key: tuple, masks: list[int], prefix: str) -> str:
        return f"{self.out.mask_table(key, list(masks), prefix)}, {len(masks)}"

    def mask_rows(self, key: tuple, rows: list[list[int]], prefix: str) -> str:
        return ", ".join(self.out.ragged_masks(key, rows, prefix))

    # ------------------------------------------------------------ expressions
    def number(self, value: int) -> str:
        return f"((int64_t){value})"

    def player(self, s: str) -> str:
        return f"(int){self.P(s)}"

    def slot_plus(self, s: str, base: int, offset: str) -> str:
        return f"{s}->v[{self.int_index[base]} + ({offset})]"

    def types_union(self, types: list[int], s: str) -> str:
        if not types:
            return "m_zero()"
        out = f"{s}->c[{types[0]}]"
        for i in types[1:]:
            out = f"m_or({out}, {s}->c[{i}])"
        return out

    def relate(self, name: str, pairs: tuple, cells: str, s: str) -> str:
        """The cells of the pieces that the pieces on `cells` relate to, by a function per relation."""
        def make(fn: str) -> str:
            body = [f"static inline M {fn}(const S *s, M cells) {{", "    M out = m_zero();"]
            for src, dst in pairs:
                test = " || ".join(f"m_any(m_and(s->c[{i}], cells))" for i in src) or "0"
                adds = "".join(f" out = m_or(out, s->c[{i}]);" for i in dst)
                body.append(f"    if ({test}) {{{adds} }}")
            return "\n".join(body + ["    return out;", "}"])
        return f"{self.out.named(('relation', name, pairs), 'REL', make)}({s}, {cells})"

    def within(self, a: str, b: str) -> str:
        return f"m_within({a}, {b})"

    def arith(self, op: str, a: str, b: str) -> str:
        return f"((int64_t)({a}) {op} (int64_t)({b}))"

    def negate(self, a: str) -> str:
        return f"(-(int64_t)({a}))"

    def one_of(self, value: str, choices: list[int]) -> str:
        return "(" + " || ".join(f"{value} == {i}" for i in choices) + ")"

    def cell_of(self, one: str, known: str | None = None) -> str:
        return known or f"m_cell({one})"

    def points(self, e: model.Expr, cx: Ctx) -> str:
        return self.expr(e, cx)

    def and_(self, a: str, b: str) -> str:
        return f"m_and({a}, {b})"

    def or_(self, a: str, b: str) -> str:
        return f"m_or({a}, {b})"

    def andn(self, a: str, b: str) -> str:
        return f"m_andn({a}, {b})"

    def any_(self, a: str) -> str:
        return f"m_any({a})"

    def none(self, a: str) -> str:
        return f"!m_any({a})"

    def eq(self, a: str, b: str) -> str:
        return f"m_eq({a}, {b})"

    def has(self, mask: str, cell: str, bit: str | None = None) -> str:
        return f"m_has({mask}, {cell})"

    def bit(self, cell: str) -> str:
        return f"m_bit({cell})"

    def cell(self, name: str) -> str:
        return name

    def count(self, a: str) -> str:
        return f"((int64_t)m_pop({a}))"

    def pieces(self, s: str, t: str) -> str:
        return f"{s}->c[{t}]"

    def movers(self, s: str, t: str) -> str:
        # a list generator makes the plies of the pieces on `only`, landing on `to` (the
        # un-move solver's check of one candidate ply; FULL and FULL from rc_legal)
        return f"m_and({s}->c[{t}], only)" if self.sink is Sink.LIST else self.pieces(s, t)

    def landing(self, target: str) -> str:
        return f"m_and({target}, to)" if self.sink is Sink.LIST else target

    def number_slot(self, slot: int) -> int:
        return self.int_index[slot]

    def number_at(self, s: str, slot: str) -> str:
        return f"{s}->v[{slot}]"

    def not_(self, cond: str) -> str:
        return f"!({cond})"

    def all_(self, *conds: str) -> str:
        return conds[0] if len(conds) == 1 else "(" + " && ".join(f"({c})" for c in conds) + ")"

    def any_of(self, *conds: str) -> str:
        return conds[0] if len(conds) == 1 else "(" + " || ".join(f"({c})" for c in conds) + ")"

    def call(self, helper: str, *args: str) -> str:
        return _HELPERS[helper].format(*args)

    # ------------------------------------------------------------ counted pieces
    def amount(self, s: str, t: int, cells: str) -> str:
        return f"rc_amount({s}->v + {self.int_index[self.L.count_offsets[t]]}, {cells})"

    def count_check(self, eff: model.Effect, kind: str, high: int, target: str) -> None:
        self.line(f"if (!(0 <= {target} && {target} <= {high}LL)) return RC_ERR_RANGE;")

    def holding(self, s: str, t: int, low: str, high: str) -> str:
        return f"rc_holding({s}->v + {self.int_index[self.L.count_offsets[t]]}, {low}, {high})"

    def sow_end(self, s: str, t: str, track: str, at: str, length: int, frm: str, skip: str) -> str:
        return f"rc_sow_end({s}->v + {self.count_bases()}[{t}], {track}, {at}, {length}, {frm}, {skip})"

    def sow(self, b: str, t: str, track: str, at: str, length: int, frm: str, skip: str) -> None:
        self.line(f"rc_sow({b}->v + {self.count_bases()}[{t}], &{b}->c[{t}], {track}, {at}, {length}, "
                  f"{frm}, {skip});")

    # ------------------------------------------------------------ tables
    def masks(self, key: tuple, values: list[int], prefix: str) -> str:
        return self.out.mask_table(key, list(values), prefix)

    def ints(self, key: tuple, values: list[int], prefix: str) -> str:
        return self.out.int_table(key, values, prefix)

    # ------------------------------------------------------------ statements
    def let(self, kind: str, name: str, value: str) -> None:
        self.line(f"{_TYPE[kind]} {name} = {value};")

    def set(self, name: str, value: str) -> None:
        self.line(f"{name} = {value};")

    def or_into(self, name: str, value: str) -> None:
        self.line(f"{name} = m_or({name}, {value});")

    def add_to(self, target: str, amount: str) -> None:
        self.line(f"{target} += {amount};")

    def skip_if(self, cond: str) -> None:
        self.line(f"if ({cond}) continue;")

    def skip(self) -> None:
        self.line("continue;")

    def stop_if(self, cond: str) -> None:
        self.line(f"if ({cond}) break;")

    def if_(self, cond: str):
        return self.block(f"if ({cond}) {{", "}")

    def else_(self):
        return self.block("else {", "}")

    def ret(self, value: str) -> None:
        self.line(f"return {value};")

    def effect(self, eff: model.Effect, cx: Ctx) -> None:
        effects.emit(self, eff, cx)

    def update(self, target: str, op: str, value: str) -> None:
        self.line(f"{target} {op} {value};")

    def range_check(self, var: model.Var, target: str) -> None:
        self.line(f"if (!({var.low}LL <= {target} && {target} <= {var.high}LL)) return RC_ERR_RANGE;")

    def reset_pieces(self, s: str) -> None:
        for i in range(self.L.types):
            self.line(f"{s}->c[{i}] = SETUP[{i}];")

    # ------------------------------------------------------------ loops
    @contextmanager
    def each_type(self, types: list[int], t: str = "t") -> Iterator[None]:
        table, count = self.types_table(types)
        k = self._index()
        with self.block(f"for (int {k} = 0; {k} < {count}; {k}++) {{", "}"):
            self.line(f"int {t} = {table}[{k}];")
            yield

    def each_index(self, count: str, var: str):
        return self.block(f"for (int64_t {var} = 0; {var} < {count}; {var}++) {{", "}")

    @contextmanager
    def each_bit(self, mask: str, bit: str, cell: str, eager: bool = False) -> Iterator[None]:
        with self.block(f"while (m_any({mask})) {{", "}"):
            self.line(f"int {cell} = m_poplow(&{mask}); M {bit} = m_bit({cell});")
            yield

    @contextmanager
    def each_landing(self, mask: str, bit: str, cell: str) -> Iterator[None]:
        if self.sink is not Sink.FIRST:  # (first_N: the lowest cell's ply kept, the rest counted)
            with self.each_bit(mask, bit, cell):
                yield
            return
        with self.if_(f"!nply && m_any({mask})"):
            self.line(f"M low = {mask}; int {cell} = m_poplow(&low); M {bit} = m_bit({cell});")
            self._kept = True
            yield
            self._kept = False
        self.line(f"nply += m_pop({mask});")

    @contextmanager
    def each_record(self, key: tuple, rows: list, fields: list[tuple[str, str]], index: str | None,
                    prefix: str) -> Iterator[None]:
        flat_rows = [rows] if index is None else rows
        off = [0]
        for r in flat_rows:
            off.append(off[-1] + len(r))
        tables = []
        for j, (kind, _) in enumerate(fields):
            column = [rec[j] for r in flat_rows for rec in r]
            tables.append(self.masks(key + ("col", j), column, prefix) if kind == "cells"
                          else self.ints(key + ("col", j), column, prefix))
        k = self._index()
        if index is None:
            opening = f"for (int {k} = 0; {k} < {off[-1]}; {k}++) {{"
        else:
            offs = self.ints(key + ("off",), off, prefix)
            opening = f"for (int {k} = {offs}[{index}]; {k} < {offs}[{index} + 1]; {k}++) {{"
        with self.block(opening, "}"):
            for (kind, name), table in zip(fields, tables):
                self.line(f"{_TYPE[kind]} {name} = {table}[{k}];")
            yield

    @contextmanager
    def each_of(self, table: str, index: str, var: str) -> Iterator[None]:
        k = self._index()
        with self.block(f"for (int {k} = {table}_OFF[{index}]; {k} < {table}_OFF[{index} + 1]; {k}++) {{", "}"):
            self.line(f"int {var} = {table}[{k}];")
            yield

    @contextmanager
    def each_dir(self, dirs: list[str], start: str, values: dict[str, list[str]] | None = None,
                 index: str | None = None, bind: bool = False, lands: bool = False) -> Iterator[None]:
        rays = self.rays(dirs)
        di = index or self._index()
        arrays = {}
        for name, vals in (values or {}).items():
            arrays[name] = f"{name}_{di}"
            self.line(f"int64_t {arrays[name]}[] = {{{', '.join(vals)}}};")
        with self.block(f"for (int {di} = 0; {di} < {rays.count}; {di}++) {{", "}"):
            if lands and self.sink is Sink.LIST:  # (the un-move solve asks for one landing)
                cells = [sum(1 << c for c in ray) for d in dirs for ray in self.t.rays(d)]
                spans = self.out.mask_table(("ray cells", tuple(dirs)), cells, "RM")
                self.line(f"if (!m_any(m_and({spans}[{di} * {self.t.n} + {start}], to))) continue;")
            ray, n = f"ray_{di}", f"len_{di}"
            self.line(f"const int *{ray} = {rays.flat}[{di}] + {rays.off}[{di}][{start}];")
            self.line(f"int {n} = {rays.off}[{di}][{start} + 1] - {rays.off}[{di}][{start}];")
            for name, array in arrays.items():
                self.line(f"int64_t {name} = {array}[{di}];")
            saved, self.ray = self.ray, (ray, n)
            try:
                yield
            finally:
                self.ray = saved

    @contextmanager
    def each_ray_cell(self, cell: str) -> Iterator[None]:
        ray, n = self.ray
        k = self._index()
        with self.block(f"for (int {k} = 0; {k} < {n}; {k}++) {{", "}"):
            self.line(f"int {cell} = {ray}[{k}];")
            yield

    def ray_at(self, i: int) -> str:
        return f"{self.ray[0]}[{i}]"

    def ray_len(self) -> str:
        return self.ray[1]

    def maxdots(self, targets: str, vectors: list[tuple[int, int]]) -> list[str]:
        n = len(vectors)
        self.line(f"const int64_t pdx[] = {{{', '.join(str(dx) for dx, _ in vectors) or '0'}}};")
        self.line(f"const int64_t pdy[] = {{{', '.join(str(dy) for _, dy in vectors) or '0'}}};")
        self.line(f"int64_t bests[{max(n, 1)}];")
        self.line(f"rc_maxdots({targets}, LATTICE, pdx, pdy, {n}, bests);")
        return [f"bests[{i}]" for i in range(n)]

    @contextmanager
    def each_placement(self, size: int, free: str, index: str, here: str) -> Iterator[None]:
        masks = self.t.placement_masks(size)
        pl = self.out.mask_table(("placements", size), masks, "PL")
        with self.block(f"for (int {index} = 0; {index} < {len(masks)}; {index}++) {{", "}"):
            self.line(f"M {here} = {pl}[{index}];")
            self.skip_if(f"m_any(m_andn({here}, {free}))")
            yield

    def placement(self, size: int, index: str) -> str:
        return f"{self.out.mask_table(('placements', size), self.t.placement_masks(size), 'PL')}[{index}]"

    # ------------------------------------------------------------ functions
    _GENERATORS = {Sink.LIST: "int moves_{}(const S *s, Buf *out, M only, M to)",
                   Sink.EXISTS: "int has_{}(const S *s)", Sink.FIRST: "int first_{}(const S *s, A *first)"}

    @contextmanager
    def generator(self, code: int, sink: Sink) -> Iterator[None]:
        self.sink = sink
        self.out.function(self._GENERATORS[sink].format(code))
        self.depth = 1
        if sink is Sink.FIRST:
            self.line("int nply = 0;")
        yield
        self.line("return nply;" if sink is Sink.FIRST else "return 0;")
        self.depth = 0
        self.out.end()

    def ply(self, code: int, fields: list[str], removal: str | None) -> None:
        items = [str(code)] + fields + ["0"] * (3 - len(fields)) + [removal or "m_zero()"]
        if self.sink is Sink.LIST:
            self.line(f"if (buf_push(out, act({', '.join(items)}))) return RC_ERR_MEMORY;")
        elif self.sink is Sink.FIRST:  # (each_landing counts its own)
            self.line(f"*first = act({', '.join(items)});" if self._kept else
                      f"if (!nply++) *first = act({', '.join(items)});")
        else:
            self.line("return 1;")

    _SIGNATURES = {"apply": "int apply_{}(const S *s, const A *a, S *b)",
                   "pass": "int pass_{}(const S *s, S *b)",
                   "taken": "M taken_{}(const S *s, const A *a)",
                   "lands": "int lands_{}(const S *s, int t, int c, int d, int64_t n)"}

    @contextmanager
    def function(self, kind: str, code: int | str) -> Iterator[None]:
        self.out.function(self._SIGNATURES[kind].format(code))
        self.depth = 1
        if kind == "taken":  # an empty landing reads neither
            self.line("(void)s; (void)a;")
        yield
        self.depth = 0
        self.out.end()

    def field(self, i: int) -> str:
        return f"a->x[{i}]"

    def removed_field(self, i: int) -> str:
        return "a->rem"

    def copy_state(self) -> None:
        self.line("*b = *s;")

    def cut_types(self, s: str, clear: str) -> None:
        self.let("cells", "clear", clear)
        for i in range(self.L.types):
            self.line(f"{s}->c[{i}] = m_andn({s}->c[{i}], clear);")

    def cut_row(self, table: str, index: str, s: str, clear: str) -> None:
        self.let("cells", "clear", clear)
        with self.each_of(table, index, "i"):
            self.line(f"{s}->c[i] = m_andn({s}->c[i], clear);")

    def sort_sets(self, s: str, group: tuple[int, ...]) -> None:
        n = len(group)
        idx = self.out.int_table(("group", group), group, "GROUP")
        self.line(f"for (int i = 1; i < {n}; i++)")  # insertion sort, as Python's `sorted` orders
        self.line(f"    for (int j = i; j > 0 && m_less({s}->c[{idx}[j]], {s}->c[{idx}[j - 1]]); j--) "
                  f"{{ M x = {s}->c[{idx}[j]]; {s}->c[{idx}[j]] = {s}->c[{idx}[j - 1]]; "
                  f"{s}->c[{idx}[j - 1]] = x; }}")
