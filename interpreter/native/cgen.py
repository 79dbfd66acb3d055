"""A checked ruleset -> its C translation unit: the native back-end's code generator.

The C is a second reading of the typed model, next to the Python back-end's, built the
same way (one function per rule and player, the same loops in the same order), so the
two list the same plies in the same order and reach the same states. Only numbers and
names made here reach the source.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from importlib import resources

from dsl.model import Ruleset

from interpreter.python.compile import RuleInfo, _phases, _runtime
from interpreter.runtime.layout import Layout, make_layout
from interpreter.runtime.tables import Tables
from interpreter.codegen.rules import emit_rules
from interpreter.native import cends, cundo
from interpreter.native.cwriter import CWriter
from interpreter.native.csource import CSource

GENERATOR_VERSION = 1  # part of the cache key: a change here rebuilds every library


@dataclass
class CGenerated:
    """`source`: the game's translation unit (play, perft, playouts); `vector_source`: the
    same with the batches after it (vector.c, for the vectorised games and OpenSpiel's
    states); `solver_source`: the same with the solver after it. Most uses never solve
    nor batch, and the batches take more of the compiler's time than the game, the solver
    four fifths of it, so each is a library of its own, built on first use."""
    source: str
    vector_source: str
    solver_source: str
    rules: list[RuleInfo]
    layout: Layout
    words: int


def fixed_c(name: str, seen: set[str] | None = None) -> str:
    """One of the package's fixed C files (rulecraft.h, prelude.c, runtime.c, solver.c and
    its units solver/*.c, solution_index.c; "" if there is none), each `#include "file"`
    line in it replaced by that file's text, as the C preprocessor would (the name taken
    relative to the including file): the translation unit holds every line it compiles,
    so the build's cache key covers them. A file already in `seen` (one set per
    translation unit) is left out, as its include guard would leave it."""
    path = resources.files(__package__).joinpath(*name.split("/"))
    if not path.is_file():
        return ""
    seen = set() if seen is None else seen
    seen.add(name)
    folder = posixpath.dirname(name)
    out = []
    for line in path.read_text().splitlines(keepends=True):
        if line.startswith('#include "') and line.rstrip().endswith('"'):
            inc = posixpath.normpath(posixpath.join(folder, line.rstrip()[len('#include "'):-1]))
            if inc not in seen:
                text = fixed_c(inc, seen)
                if not text:
                    raise FileNotFoundError(f"{name} includes {inc}, which the package does not hold")
                out.append(text if text.endswith("\n") else text + "\n")
            continue
        out.append(line)
    return "".join(out)


def generate_c(rs: Ruleset) -> CGenerated:
    """The game's whole C translation unit."""
    tables = Tables(rs.board)
    layout = make_layout(rs)
    phases, turn_start, next_phase = _phases(rs)
    out = CSource(tables.n)
    c = CWriter(rs, tables, layout, out)
    n_players = len(rs.players)
    _tables(c, rs, tables, layout, phases, next_phase, turn_start)
    rules, moved = emit_rules(c)
    skips = any(ph.when_possible for ph in phases)
    for p in range(n_players):
        cends.emit_ends(c, p)
        cends.emit_finish(c, p, skips)
    codes = {(r.name, r.player): r.code for r in rules}
    cundo.emit_undo(c, rs, tables, moved, phases, codes)
    cends.emit_turns(c, phases, codes, n_players, rules[-1].code)
    cends.emit_captures(c, rules, rs.compulsory is not None and rs.compulsory.value == "maximum")
    cends.emit_dispatch(c, rules, n_players)
    cends.emit_chains(c, rules)
    cends.emit_outcome(c, n_players)
    # the order rulecraft.h describes: the configuration, the header and primitives, the
    # game's code, then the fixed code that calls it
    seen: set[str] = set()
    defines = _defines(c, layout, n_players, len(rules), out.defines)
    source = "\n".join([defines, fixed_c("prelude.c", seen), *_GAME_CODE_OPEN, out.source(),
                        _GAME_CODE_CLOSE, fixed_c("runtime.c", seen)])
    vector = "\n".join([source, fixed_c("vector.c", set(seen))])
    solver = "\n".join([source, fixed_c("solver.c", seen), fixed_c("solution_index.c", seen)])
    return CGenerated(source, vector, solver, rules, layout, out.words)


# A generic emitter declares the locals a rule may read (`here`, `frm`, a count), and a
# given rule may not read some: in the game's code alone, an unused local is no warning.
# The fixed C keeps every warning an error.
_GAME_CODE_OPEN = ["#pragma GCC diagnostic push", '#pragma GCC diagnostic ignored "-Wunused-variable"',
                   '#pragma GCC diagnostic ignored "-Wunused-but-set-variable"']
_GAME_CODE_CLOSE = "#pragma GCC diagnostic pop"


def _defines(c: CWriter, layout: Layout, n_players: int, n_rules: int, more: list[str]) -> str:
    """The configuration macros rulecraft.h expects (its part 1), then those the emitters
    defined (`more`: RC_UNDO and the un-move tables' sizes)."""
    cells = len(layout.cell_slots())
    ints = layout.length - cells
    return "\n".join([
        "/* generated by rulecraft's native back-end */",
        f"#define RC_CELLS {c.t.n}", f"#define RC_W {c.out.words}", f"#define RC_NC {cells}",
        f"#define RC_NT {layout.types}", f"#define RC_NI {ints}", "#define RC_P 0", "#define RC_PH 1",
        f"#define RC_OUT {ints - 1}", f"#define RC_PLAYERS {n_players}", f"#define RC_RULES {n_rules}",
        *more, ""])


def _tables(c: CWriter, rs: Ruleset, tables: Tables, layout: Layout, phases, next_phase: list[int],
            turn_start: int) -> None:
    """The tables every game's code reads (pyruntime.Runtime's, in C)."""
    out = c.out
    rt = _runtime(rs, tables, layout, phases, next_phase, turn_start)
    out.decl(f"static const M FULL = {out.mask(tables.full)};")
    out.decl(f"static const int NEXT[] = {{{', '.join(map(str, next_phase))}}};")
    out.decl(f"static const int TURN_START = {turn_start};")
    when = [1 if ph.when_possible else 0 for ph in phases] or [0]
    out.decl(f"static const int WHEN_POSSIBLE[] = {{{', '.join(map(str, when))}}};")
    out.decl(f"static const M SETUP[] = {{{', '.join(out.mask(m) for m in rt.SETUP) or out.mask(0)}}};")
    for name, rows in (("CLEAR", rt.CLEAR), ("ABOVE", rt.ABOVE)):
        flat, off = [x for r in rows for x in r], [0]
        for r in rows:
            off.append(off[-1] + len(r))
        out.decl(f"static const int {name}[] = {{{', '.join(map(str, flat)) or '0'}}};")
        out.decl(f"static const int {name}_OFF[] = {{{', '.join(map(str, off))}}};")
    out.decl(f"static const int SUPPORT[] = {{{', '.join(map(str, rt.SUPPORT)) or '0'}}};")
    lat = ", ".join(f"{{{x}, {y}}}" for x, y in rs.board.lattice) or "{0, 0}"
    out.decl(f"static const int32_t LATTICE[][2] = {{{lat}}};")
    for name in ("FULL", "NEXT", "TURN_START", "WHEN_POSSIBLE", "SETUP", "CLEAR", "CLEAR_OFF", "ABOVE",
                 "ABOVE_OFF", "SUPPORT", "LATTICE"):
        out.decl(f"static const void *const unused_{name} __attribute__((unused)) = &{name};")
