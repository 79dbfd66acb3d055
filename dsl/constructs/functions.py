"""The built-in functions of expressions: each one's signature and its Python code.

One entry per function in SIGNATURES (the checker types calls from it) and one branch
in `emit_python` (the Python back-end). `line`, `aligned` and `in_a_row` are one
predicate: N of the cells on one straight line (gaps allowed), or N next to each
other; aligned(C, D) is line(count(C), C, D), in_a_row(N, C, D) is line(N, C, D, contiguous).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from dsl import model

if TYPE_CHECKING:  # the back-end passes itself in; the model never imports it
    from interpreter.python.pyexpr import Ctx, ExprCompiler

SIGNATURES = {
    # name: (argument types, result type); "dirs?" is an optional directions argument
    "count": (["cells"], "number"),
    "adjacent": (["cells", "dirs?"], "cells"),
    "aligned": (["cells", "dirs"], "bool"),
    "in_a_row": (["number", "cells", "dirs"], "bool"),
    "undoes": (["ply+"], "bool"),
    "last_ply": (["ply*"], "bool"),
    "line": (["number", "cells", "dirs", "flag?"], "bool"),
    "closer": (["cells", "cells", "cells"], "bool"),
}


def _is(e: model.Expr, word: model.Word) -> bool:
    return isinstance(e, model.Ref) and e.word is word


def emit_python(c: ExprCompiler, e: model.Call, cx: Ctx) -> str:
    """A call as a Python expression (helpers `_adjacent`, `_line`, ... are the runtime's)."""
    args, s = e.args, cx.s
    if e.func == "count":
        return f"({c.expr(args[0], cx)}).bit_count()"
    if e.func == "adjacent":
        return _adjacent(c, args, cx)
    if e.func == "closer":
        return _closer(c, args, cx)
    if e.func in ("line", "aligned", "in_a_row"):
        return _line(c, e, cx)
    M = c.L.memory
    if e.func == "last_ply":
        if not args:
            return f"({s}[{M}] != 0)"
        idx = tuple(sorted(c.previous_index(a.name) for a in args))
        return f"({s}[{M}] in {idx!r})"
    if e.func == "undoes":
        # This ply leaves the cell the previous ply reached, for the cell it left.
        idx = tuple(c.previous_index(a.name) for a in args)
        return f"({s}[{M}] in {idx!r} and {cx.frm} == {s}[{M + 2}] and {cx.here} == {s}[{M + 1}])"
    raise AssertionError(e.func)


def _adjacent(c: ExprCompiler, args: tuple[model.Expr, ...], cx: Ctx) -> str:
    dirs = args[1].labels if len(args) > 1 else None
    what = args[0]
    if _is(what, model.Word.PATH) and cx.adj_path is not None and dirs in cx.adj_path:
        return cx.adj_path[dirs]  # kept up to date as the path grows
    if (_is(what, model.Word.HERE) or _is(what, model.Word.FROM)) and cx.single:
        return f"{c.adj(dirs)}[({c.expr(what, cx)}).bit_length() - 1]"
    return f"_adjacent({c.expr(what, cx)}, {c.adj(dirs)})"


def _closer(c: ExprCompiler, args: tuple[model.Expr, ...], cx: Ctx) -> str:
    a, b = c.expr(args[0], cx), c.expr(args[1], cx)
    points = f"_points({c.expr(args[2], replace(cx, hoist=None))}, LATTICE)"
    if cx.hoist is not None and not c.deps(args[2]) & cx.hoist.inner:
        points = cx.hoist.local(points, "piece" if "from" in c.deps(args[2]) else "outer")
    return f"_closer({a}, {b}, {points}, LATTICE, METRIC)"


def _line_args(c, e: model.Call, cx) -> tuple[str, tuple, model.Expr | None, bool, bool]:
    """A line call's cells (as source), directions, count, whether the cells must be
    contiguous, and whether the count is all of the cells (both back-ends read it so)."""
    args = e.args
    if e.func == "aligned":
        cells, dirs_arg, n_expr, contiguous = args[0], args[1], None, False
    else:
        cells, dirs_arg, n_expr = args[1], args[2], args[0]
        contiguous = e.func == "in_a_row" or len(args) > 3
    cells_src = c.expr(cells, cx)
    whole = n_expr is None or (isinstance(n_expr, model.Call) and n_expr.func == "count"
                               and c.expr(n_expr.args[0], cx) == cells_src)
    return cells_src, dirs_arg.labels, n_expr, contiguous, whole


def _line(c: ExprCompiler, e: model.Call, cx: Ctx) -> str:
    cells_src, dirs, n_expr, contiguous, whole = _line_args(c, e, cx)
    if whole and not contiguous:  # all of C on one line: one through its lowest cell
        lines = c.t.line_masks(list(dirs))
        through = c.const(("through", dirs), [[ln for ln in lines if ln >> i & 1]
                                              for i in range(c.t.n)], "THROUGH")
        return f"_aligned({cells_src}, {through})"
    n = c.expr(n_expr, cx)
    if contiguous:
        wins = c.const(("windows", dirs), c.t.windows(list(dirs)), "WIN")
        return f"_run({cells_src}, {n}, {wins})"
    lines = c.const(("lines", dirs), c.t.line_masks(list(dirs)), "LINES")
    return f"_line({cells_src}, {n}, {lines})"


def emit_c(c, e: model.Call, cx) -> str:
    """A call as a C expression (the native back-end's CExpr passes itself in); the same
    values as `emit_python`, helpers `rc_adjacent`, `rc_line`, ... from its prelude."""
    args, s = e.args, cx.s
    if e.func == "count":
        return f"((int64_t)m_pop({c.expr(args[0], cx)}))"
    if e.func == "adjacent":
        dirs = args[1].labels if len(args) > 1 else None
        what = args[0]
        if _is(what, model.Word.PATH) and cx.adj_path is not None and dirs in cx.adj_path:
            return cx.adj_path[dirs]
        if (_is(what, model.Word.HERE) or _is(what, model.Word.FROM)) and cx.single:
            here = _is(what, model.Word.HERE) and cx.here_cell
            return f"{c.adj(dirs)}[{cx.here_cell if here else f'm_cell({c.expr(what, cx)})'}]"
        return f"rc_adjacent({c.expr(what, cx)}, {c.adj(dirs)})"
    if e.func == "closer":
        a, b, t = (c.expr(x, cx) for x in args)
        mx, my = c.rs.board.metric
        return f"rc_closer({a}, {b}, {t}, LATTICE, {mx}, {my})"
    if e.func in ("line", "aligned", "in_a_row"):
        return _line_c(c, e, cx)
    slot = c.slot(s, c.L.memory) if c.L.memory is not None else None
    if e.func == "last_ply":
        if not args:
            return f"({slot} != 0)"
        idx = sorted(c.previous_index(a.name) for a in args)
        return "(" + " || ".join(f"{slot} == {i}" for i in idx) + ")"
    if e.func == "undoes":
        idx = [c.previous_index(a.name) for a in args]
        rule = " || ".join(f"{slot} == {i}" for i in idx)
        frm_slot, to_slot = c.slot(s, c.L.memory + 1), c.slot(s, c.L.memory + 2)
        return f"(({rule}) && m_eq({cx.frm}, {to_slot}) && m_eq({cx.here}, {frm_slot}))"
    raise AssertionError(e.func)


def _line_c(c, e: model.Call, cx) -> str:
    cells_src, dirs, n_expr, contiguous, whole = _line_args(c, e, cx)
    t = c.t
    if whole and not contiguous:  # all of C on one line: one through its lowest cell
        lines = t.line_masks(list(dirs))
        flat, off = c.out.ragged_masks(("through", dirs), [[ln for ln in lines if ln >> i & 1]
                                                           for i in range(t.n)], "THROUGH")
        return f"rc_aligned({cells_src}, {flat}, {off})"
    n = c.expr(n_expr, cx)
    if contiguous:
        wins = t.windows(list(dirs))
        lengths = [int(n_expr.value)] if isinstance(n_expr, model.Num) else range(1, wins.longest + 1)
        rows = [wins[k] if k in lengths and 1 <= k <= wins.longest else [] for k in range(wins.longest + 1)]
        flat, off = c.out.ragged_masks(("windows", dirs, tuple(lengths)), rows, "WIN")
        return f"rc_run({cells_src}, {n}, {flat}, {off}, {wins.longest})"
    lines = t.line_masks(list(dirs))
    table = c.out.mask_table(("lines", dirs), lines, "LINES")
    return f"rc_line({cells_src}, {n}, {table}, {len(lines)})"
