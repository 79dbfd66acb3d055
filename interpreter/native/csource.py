"""A small builder of C source: named constant tables and functions.

Only integers and identifiers made here reach the source: no text of a .game file
ever does (the model's names are resolved to indices before).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from interpreter.python.pysource import TooLarge

# Generated C (the fixed runtime and solver aside): gcc takes about 10 s a megabyte of
# code, so these keep a build to seconds; a bundled game needs under 1,000 lines and 160 KB.
# Tables (a board's masks) build a few times faster: the largest board's are 3 MB.
MAX_C_LINES = 20_000
MAX_C_BYTES = 1_000_000  # of code
MAX_TABLE_BYTES = 4_000_000


@dataclass(frozen=True)
class Rays:
    """The straight lines from every cell along some directions, as C tables: direction
    di's cells from cell c are flat[di][off[di][c] .. off[di][c + 1])."""

    flat: str
    off: str
    count: int


class CSource:
    """The game's C: `decls` (tables, prototypes) before `lines` (function bodies)."""

    def __init__(self, cells: int):
        self.cells = cells
        self.words = max(1, (cells + 63) // 64)
        self.defines: list[str] = []  # the configuration macros: before rulecraft.h (cgen)
        self.decls: list[str] = []
        self.protos: list[str] = []
        self.lines: list[str] = []
        self._ids: dict[tuple, str] = {}
        self.code_bytes = self.table_bytes = 0

    def _grow(self, text: str, table: bool = False) -> None:
        if table:
            self.table_bytes += len(text) + 1
        else:
            self.code_bytes += len(text) + 1
        if (len(self.lines) + len(self.decls) >= MAX_C_LINES or self.code_bytes > MAX_C_BYTES
                or self.table_bytes > MAX_TABLE_BYTES):
            raise TooLarge(len(self.lines) + len(self.decls))

    def line(self, indent: int, text: str) -> None:
        self._grow(text)
        self.lines.append("    " * indent + text)

    def decl(self, text: str) -> None:
        """A declaration before the functions; a `#define` goes before rulecraft.h with the
        configuration macros (RC_UNDO and its tables' sizes are the emitters')."""
        self._grow(text, table=True)
        (self.defines if text.startswith("#define ") else self.decls).append(text)

    def function(self, signature: str) -> None:
        """`static SIGNATURE {`: its prototype goes first, so functions call each other freely."""
        self.protos.append(f"static __attribute__((unused)) {signature};")
        self.line(0, f"static {signature} {{")

    def end(self) -> None:
        self.line(0, "}")
        self.line(0, "")

    # ------------------------------------------------------------ constants
    def mask(self, value: int) -> str:
        """A mask literal: `{{word, ...}}`."""
        words = ", ".join(f"0x{(value >> (64 * i)) & 0xFFFFFFFFFFFFFFFF:x}ULL" for i in range(self.words))
        return "{{" + words + "}}"

    def named(self, key: tuple, prefix: str, make) -> str:
        """A table declared once under a name made here; `make(name)` writes its declaration."""
        if key not in self._ids:
            name = f"{prefix}{len(self._ids)}"
            self._ids[key] = name
            self.decl(make(name))
        return self._ids[key]

    def mask_const(self, value: int) -> str:
        return self.named(("mask", value), "K", lambda n: f"static const M {n} = {self.mask(value)};")

    def mask_table(self, key: tuple, values: list[int], prefix: str = "T") -> str:
        """`static const M NAME[] = {...}` (at least one entry, so C accepts it)."""
        body = ", ".join(self.mask(v) for v in values) or self.mask(0)
        return self.named(("masks",) + key, prefix, lambda n: f"static const M {n}[] = {{{body}}};")

    def int_table(self, key: tuple, values: Iterable[int], prefix: str = "I") -> str:
        body = ", ".join(str(int(v)) for v in values) or "0"
        return self.named(("ints",) + key, prefix, lambda n: f"static const int {n}[] = {{{body}}};")

    def ragged(self, key: tuple, rows: list[list[int]], prefix: str) -> tuple[str, str]:
        """Rows of cells as one flat table and its offsets: row i is flat[off[i] .. off[i+1])."""
        off = [0]
        for r in rows:
            off.append(off[-1] + len(r))
        # two zeros after the last row: a read one or two past a row that its length check
        # guards stays in the table, where gcc's bounds warning (an error here) looks for it
        flat = self.int_table(key + ("flat",), [c for r in rows for c in r] + [0, 0], prefix)
        return flat, self.int_table(key + ("off",), off, prefix)

    def ragged_masks(self, key: tuple, rows: list[list[int]], prefix: str) -> tuple[str, str]:
        """Rows of masks as one flat mask table and its offsets."""
        off = [0]
        for r in rows:
            off.append(off[-1] + len(r))
        flat = self.mask_table(key + ("flat",), [m for r in rows for m in r], prefix)
        return flat, self.int_table(key + ("off",), off, prefix)

    def source(self) -> str:
        return "\n".join(self.decls + [""] + self.protos + [""] + self.lines) + "\n"
