"""The built-in functions of expressions: each one's signature and its code.

One entry per function in SIGNATURES (the checker types calls from it) and one branch
in `emit`, for both back-ends (the expression compiler passed in writes the syntax).
`line`, `aligned` and `in_a_row` are one predicate: N of the cells on one straight line (gaps allowed), or N next to each
other; aligned(C, D) is line(count(C), C, D), in_a_row(N, C, D) is line(N, C, D, contiguous).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dsl import model

if TYPE_CHECKING:  # the back-end passes itself in; the model never imports it
    from interpreter.codegen.context import Ctx
    from interpreter.codegen.expr import Expressions

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
    "connected": (["cells", "cells", "cells", "dirs?"], "bool"),
    "in_line": (["number", "cells", "dirs"], "cells"),
    "reserve": (["pieces"], "number"),
    "holding": (["pieces", "number", "number"], "cells"),
    "back_along": (["track", "cells", "cells"], "cells"),
}


def _is(e: model.Expr, word: model.Word) -> bool:
    return isinstance(e, model.Ref) and e.word is word


def emit(c: Expressions, e: model.Call, cx: Ctx) -> str:
    """A call as an expression of the back-end whose expression compiler `c` passes itself
    in (helpers `adjacent`, `line`, ... are its runtime's)."""
    args, s = e.args, cx.s
    if e.func == "count":
        return c.count(c.expr(args[0], cx))
    if e.func == "adjacent":
        return _adjacent(c, args, cx)
    if e.func == "closer":
        a, b = c.expr(args[0], cx), c.expr(args[1], cx)
        return c.call("closer", a, b, c.points(args[2], cx), *map(str, c.rs.board.metric))
    if e.func in ("line", "aligned", "in_a_row"):
        return _line(c, e, cx)
    if e.func == "in_line":
        wins, dirs = c.t.windows(list(args[2].labels)), tuple(args[2].labels)
        lengths = [int(args[0].value)] if isinstance(args[0], model.Num) else range(1, wins.longest + 1)
        rows = [wins[k] if k in lengths and 1 <= k <= wins.longest else [] for k in range(wins.longest + 1)]
        return c.call("in_line", c.expr(args[1], cx), c.expr(args[0], cx),
                      c.mask_rows(("windows", dirs, tuple(lengths)), rows, "WIN"), str(wins.longest))
    if e.func == "connected":
        dirs = args[3].labels if len(args) > 3 else None
        return c.call("connected", *(c.expr(a, cx) for a in args[:3]), c.adj(dirs))
    if e.func == "reserve":  # the reserves of the selected types, whose owners are known here
        slots = [c.slot(s, c.L.reserve_offsets[t]) for t in c.types_of(args[0], cx)
                 if t in c.L.reserve_offsets]
        out = slots[0] if slots else c.number(0)
        for slot in slots[1:]:
            out = c.arith("+", out, slot)
        return out
    if e.func == "holding":  # the cells holding LOW..HIGH pieces of a counted kind
        lo, hi = c.expr(args[1], cx), c.expr(args[2], cx)
        parts = [c.holding(s, t, lo, hi) for t in c.rs.types_of(args[0].kind)]
        return c.union(parts) if parts else c.ZERO
    if e.func == "back_along":  # a run of CELLS back along the track from one cell
        track, at, length = c.track_tables(args[0].name)
        return c.call("back_along", track, at, str(length), c.expr(args[1], cx), c.expr(args[2], cx))
    M = c.L.memory
    if e.func == "last_ply":
        if not args:
            return c.arith("!=", c.slot(s, M), "0")
        return c.one_of(c.slot(s, M), sorted(c.previous_index(a.name) for a in args))
    if e.func == "undoes":
        # This ply leaves the cell the previous ply reached, for the cell it left.
        rules = c.one_of(c.slot(s, M), [c.previous_index(a.name) for a in args])
        return c.all_(rules, c.eq(cx.frm, c.slot(s, M + 2)), c.eq(cx.here, c.slot(s, M + 1)))
    raise AssertionError(e.func)


def _adjacent(c: Expressions, args: tuple[model.Expr, ...], cx: Ctx) -> str:
    dirs = args[1].labels if len(args) > 1 else None
    what = args[0]
    if _is(what, model.Word.PATH) and cx.adj_path is not None and dirs in cx.adj_path:
        return cx.adj_path[dirs]  # kept up to date as the path grows
    if (_is(what, model.Word.HERE) or _is(what, model.Word.FROM)) and cx.single:
        known = cx.here_cell if _is(what, model.Word.HERE) else None
        return f"{c.adj(dirs)}[{c.cell_of(c.expr(what, cx), known)}]"
    return c.call("adjacent", c.expr(what, cx), c.adj(dirs))


def _line(c: Expressions, e: model.Call, cx: Ctx) -> str:
    """`line`, `aligned` and `in_a_row`: N of the cells on one straight line, gaps allowed,
    or N next to each other (contiguous); all of the cells: a line through their lowest."""
    args, t = e.args, c.t
    if e.func == "aligned":
        cells, dirs_arg, n_expr, contiguous = args[0], args[1], None, False
    else:
        cells, dirs_arg, n_expr = args[1], args[2], args[0]
        contiguous = e.func == "in_a_row" or len(args) > 3
    cells_src, dirs = c.expr(cells, cx), list(dirs_arg.labels)
    whole = n_expr is None or (isinstance(n_expr, model.Call) and n_expr.func == "count"
                               and c.expr(n_expr.args[0], cx) == cells_src)
    if whole and not contiguous:  # all of C on one line: the one through its two lowest cells
        pairs = t.line_pairs(dirs)
        if pairs is not None:
            return c.call("aligned_pair", cells_src, c.mask_rows(("pairs", tuple(dirs)), pairs, "PAIR"))
        lines = t.line_masks(dirs)  # (else one through its lowest cell)
        through = [[ln for ln in lines if ln >> i & 1] for i in range(t.n)]
        return c.call("aligned", cells_src, c.mask_rows(("through", tuple(dirs)), through, "THROUGH"))
    n = c.expr(n_expr, cx)
    if contiguous:  # the runs of each length (of the one length, when it is a number)
        wins = t.windows(dirs)
        lengths = [int(n_expr.value)] if isinstance(n_expr, model.Num) else range(1, wins.longest + 1)
        rows = [wins[k] if k in lengths and 1 <= k <= wins.longest else [] for k in range(wins.longest + 1)]
        return c.call("run", cells_src, n, c.mask_rows(("windows", tuple(dirs), tuple(lengths)), rows, "WIN"),
                      str(wins.longest))
    return c.call("line", cells_src, n, c.mask_list(("lines", tuple(dirs)), t.line_masks(dirs), "LINES"))
