"""The statement language of move generators and apply functions, written once.

A motion's construct (dsl/constructs) writes its generators and its apply function
through a `Writer`: locals, conditions, loops over piece types, over the cells of a set,
over a table's row and along a direction's ray, a ply found, and calls to the runtime's
helpers. Each back-end's writer (interpreter/python/pywriter.py, native/cwriter.py)
prints these in its own language; neither holds a rule of any game.

Values are the back-end's source text: `cells` (a set of cells), `cell` (one cell's
index), `num` (a number), `flag` (yes or no). A set's bit loop names both the cell's
one-cell set and, through `cell`, its index, so either may be read.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from dsl import model

from interpreter.codegen.context import Ctx, Sink
from interpreter.codegen.expr import Expressions


class Writer(Expressions):
    """A back-end's syntax for the statement language and the expressions (subclasses
    print them); it holds the ruleset `rs`, the tables `t`, the layout `L` and the
    source `out` being written."""

    FULL = "FULL"  # every cell (a table of the generated code)

    def __init__(self, rs: model.Ruleset, tables, layout, out):
        super().__init__(rs, tables, layout, out)
        self.depth = 0
        self.sink = Sink.LIST

    # ------------------------------------------------------------ text and blocks
    def line(self, text: str) -> None:
        self.out.line(self.depth, text)

    @contextmanager
    def block(self, opening: str, closing: str | None) -> Iterator[None]:
        self.line(opening)
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
            if closing is not None:
                self.line(closing)

    @contextmanager
    def at(self, depth: int) -> Iterator[None]:
        """Write at `depth` (a function's body is at 1)."""
        saved, self.depth = self.depth, depth
        try:
            yield
        finally:
            self.depth = saved

    # ------------------------------------------------------------ expressions
    def ctx(self, s: str, mover: int, **where: Any) -> Ctx:
        return Ctx(s, mover, **where)

    def union(self, cells: list[str]) -> str | None:
        """The union of some sets (None: no set)."""
        out = None
        for x in cells:
            out = x if out is None else self.or_(out, x)
        return out

    def any_(self, a: str) -> str: raise NotImplementedError  # a set is not empty (a condition)
    def none(self, a: str) -> str: raise NotImplementedError
    def has(self, mask: str, cell: str, bit: str | None = None) -> str:
        """Whether `mask` holds `cell` (`bit`: its one-cell set, where a local holds it)."""
        raise NotImplementedError
    def bit(self, cell: str) -> str: raise NotImplementedError  # a cell's one-cell set
    def cell(self, name: str) -> str: raise NotImplementedError  # a loop's cell index, by name
    def pieces(self, s: str, t: str) -> str: raise NotImplementedError  # type t's cells in s
    def movers(self, s: str, t: str) -> str:  # the cells of type t whose plies a generator makes
        return self.pieces(s, t)
    def landing(self, target: str) -> str:  # the target cells a generator makes one-cell plies onto
        return target
    def number_slot(self, slot: int) -> int: raise NotImplementedError  # a slot's index among numbers
    def number_at(self, s: str, slot: str) -> str: raise NotImplementedError  # that number in s

    # ------------------------------------------------------------ counted pieces
    def count_bases(self) -> str:
        """A table: piece type -> the number slot of its count on cell 0 (-1: not counted)."""
        bases = [self.number_slot(self.L.count_offsets[t]) if t in self.L.count_offsets else -1
                 for t in range(self.L.types)]
        return self.ints(("count_base",), bases, "COUNT_BASE")

    def count_check(self, eff: model.Effect, kind: str, high: int, target: str) -> None:
        """Play stops with the counted kind's error where a count `target` left 0..high."""
        raise NotImplementedError

    def count_at(self, s: str, t: int, cell: str) -> str:
        """The count of counted type `t` on one cell, by index (assignable)."""
        return self.slot_plus(s, self.L.count_offsets[t], cell)

    def sow_end(self, s: str, t: str, track: str, at: str, length: int, frm: str, skip: str) -> str:
        """The cell the last piece of type t's sowing from cell `frm` reaches, -1 for none
        (`track`, `at`: the track's cells and each cell's place on it; `skip`: cells left out)."""
        raise NotImplementedError

    def sow(self, b: str, t: str, track: str, at: str, length: int, frm: str, skip: str) -> None:
        """The sowing of type t's pieces from cell `frm`, on the state being written."""
        raise NotImplementedError

    # ------------------------------------------------------------ tables (subclasses)
    def masks(self, key: tuple, values: list[int], prefix: str) -> str:
        """A constant table of sets: NAME[i]."""
        raise NotImplementedError

    def ints(self, key: tuple, values: list[int], prefix: str) -> str:
        """A constant table of numbers: NAME[i]."""
        raise NotImplementedError

    def placement(self, size: int, index: str) -> str:
        """The cells of placement `index` of a piece covering `size` cells."""
        raise NotImplementedError

    # ------------------------------------------------------------ statements (subclasses)
    def let(self, kind: str, name: str, value: str) -> None: raise NotImplementedError  # a new local
    def set(self, name: str, value: str) -> None: raise NotImplementedError
    def or_into(self, name: str, value: str) -> None: raise NotImplementedError  # name |= value (sets)
    def add_to(self, target: str, amount: str) -> None: raise NotImplementedError  # numbers
    def update(self, target: str, op: str, value: str) -> None: raise NotImplementedError  # =, +=, -= ...
    def skip_if(self, cond: str) -> None: raise NotImplementedError  # on to the loop's next turn
    def skip(self) -> None: raise NotImplementedError
    def stop_if(self, cond: str) -> None: raise NotImplementedError  # leave the innermost loop
    def if_(self, cond: str) -> Any: raise NotImplementedError  # a block (`with`)
    def else_(self) -> Any: raise NotImplementedError  # the block after an `if_`'s
    def ret(self, value: str) -> None: raise NotImplementedError
    def effect(self, eff: model.Effect, cx: Ctx) -> None: raise NotImplementedError  # dsl/constructs/effects
    def range_check(self, var: model.Var, target: str) -> None:
        """Play stops with the variable's error where `target` left its range."""
        raise NotImplementedError

    # ------------------------------------------------------------ loops (subclasses; each a block)
    def each_type(self, types: list[int], t: str = "t") -> Any:
        """Each piece type of `types` as `t`."""
        raise NotImplementedError

    def each_index(self, count: str, var: str) -> Any:
        """`var` from 0 to `count` - 1."""
        raise NotImplementedError

    def each_bit(self, mask: str, bit: str, cell: str, eager: bool = False) -> Any:
        """Each cell of the set in local `mask` (which it empties), lowest first: its set
        `bit`; its index by `cell(cell)`, or as a local of that name (`eager`)."""
        raise NotImplementedError

    def each_landing(self, mask: str, bit: str, cell: str) -> Any:
        """each_bit over cells each of which is a ply with no condition: a back-end may
        count them rather than visit each (Sink.FIRST)."""
        return self.each_bit(mask, bit, cell)

    def each_record(self, key: tuple, rows: list, fields: list[tuple[str, str]], index: str | None,
                    prefix: str) -> Any:
        """Each record of row `index` of a constant table of rows (of `rows` itself, for
        None): `fields` its (kind, name) locals."""
        raise NotImplementedError

    def each_of(self, table: str, index: str, var: str) -> Any:
        """Each entry `var` of row `index` of a runtime table of rows (CLEAR, ABOVE)."""
        raise NotImplementedError

    def each_dir(self, dirs: list[str], start: str, values: dict[str, list[str]] | None = None,
                 index: str | None = None, bind: bool = False, lands: bool = False) -> Any:
        """Each direction of `dirs`, its ray of cells from cell `start` ready for
        `each_ray_cell`, `ray_at` and `ray_len`; `values`: numbers per direction, as
        locals; `index`: the direction's index as a local; `bind`: the ray read by index;
        `lands`: every ply made there lands on the ray (a generator asked for the plies
        landing on some cells may pass over a direction whose ray holds none)."""
        raise NotImplementedError

    def each_ray_cell(self, cell: str) -> Any:
        """Each cell of the direction's ray, nearest first, as `cell`."""
        raise NotImplementedError

    def ray_at(self, i: int) -> str: raise NotImplementedError  # the ray's cell i (nearest: 0)
    def ray_len(self) -> str: raise NotImplementedError

    def each_placement(self, size: int, free: str, index: str, here: str) -> Any:
        """Each placement of a piece covering `size` cells inside the cells `free`: its
        index and its cells."""
        raise NotImplementedError

    def maxdots(self, targets: str, vectors: list[tuple[int, int]]) -> list[str]:
        """Per direction vector, the largest projection of the cells `targets` on it (on the
        board's lattice), as locals."""
        raise NotImplementedError

    # ------------------------------------------------------------ chains of segments (subclasses)
    def chain_search(self, code: int, budget: int, segments: int | None, ply: model.Ply) -> Any:
        """`chains_N(s, t, c0)`: a depth-first search over (cell c, removed so far, last
        direction), each expanded once (the state `sc` has the removed cleared and the
        piece at c), past `budget` an error of the rule's."""
        raise NotImplementedError

    def chain_end(self, cell: str, removed: str, reached: bool = False) -> None:
        """A chain found, ending at `cell` (`reached`: the cell being expanded, already on its route)."""
        raise NotImplementedError
    def chain_push(self, cell: str, removed: str, direction: str) -> None:  # a state to expand
        raise NotImplementedError
    def chain_length(self) -> str: raise NotImplementedError  # the segments so far

    def each_chain(self, code: int, final: str, removed: str) -> Any:
        """Each chain of piece type t from cell c0 (`chains_N`): its final cell, its removed."""
        raise NotImplementedError

    # ------------------------------------------------------------ functions (subclasses)
    def generator(self, code: int, sink: Sink) -> Any:
        """A move generator of rule `code` (its plies go through `ply`)."""
        raise NotImplementedError

    def ply(self, code: int, fields: list[str], removal: str | None) -> None:
        """A ply found: the rule, its action's fields, the cells it removes."""
        raise NotImplementedError

    def function(self, kind: str, code: int | str) -> Any:
        """`apply_N(s, a)` (the state after action `a`), `taken_N(s, a)` (the cells whose
        pieces it takes) or `pass_P(s)`: the body returns with `ret`."""
        raise NotImplementedError

    def field(self, i: int) -> str:
        """Item `i` of the action `a` after its rule (runtime/actions.py's order)."""
        raise NotImplementedError

    def removed_field(self, i: int) -> str:
        """The removed cells of the action `a`, its item `i` after the rule."""
        raise NotImplementedError

    def copy_state(self) -> None: raise NotImplementedError  # b, the state written, from s
    def cut_types(self, s: str, clear: str) -> None: raise NotImplementedError  # every type loses `clear`
    def cut_row(self, table: str, index: str, s: str, clear: str) -> None:  # the types of a row lose it
        raise NotImplementedError
    def sort_sets(self, s: str, group: tuple[int, ...]) -> None:  # the types' sets in ascending order
        raise NotImplementedError
    def reset_pieces(self, s: str) -> None: raise NotImplementedError  # the setup's pieces
