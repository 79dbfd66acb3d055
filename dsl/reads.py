"""Which piece types an expression may read: one generic pass over the model (`walk`), for
analyses that ask whether moving a piece can change a condition's value (the native
solver's quiet rules, interpreter/native/cundo.py).

Conservative: where an expression reads the board as a whole (`empty`, `no legal ply`,
the cells of the ply, a counted amount) or a function reads more than its arguments (the
remembered ply, reserves), it reads every type."""

from __future__ import annotations

from dsl import model

# the functions whose value depends on their arguments alone (dsl/constructs/functions.py)
PURE = frozenset({"count", "adjacent", "aligned", "in_a_row", "line", "closer", "connected", "in_line"})

# nodes that read no cell themselves (their subexpressions are walked)
_NO_CELLS = (model.Num, model.Player, model.Cells, model.VarRead, model.RegionOf, model.Dirs,
             model.Flag, model.Binary, model.Compare, model.BoolOp, model.Not, model.Negate)


def types_read(rs: model.Ruleset, expr: model.Expr | None) -> frozenset[int]:
    """The indices of the piece types (rs.types) whose cells `expr` may read."""
    every = frozenset(range(len(rs.types)))
    out: set[int] = set()
    for node in model.walk(expr):
        if isinstance(node, model.Pieces):
            out.update(rs.types_of(node.kind))
        elif isinstance(node, model.Relate):
            out.update(t for pair in node.pairs for kind in pair for t in rs.types_of(kind))
        elif isinstance(node, model.Ref):
            if node.type is not model.Type.PLAYER:  # (mover, opponent, next: no cell)
                return every
        elif isinstance(node, model.Call):
            if node.func not in PURE:
                return every
        elif not isinstance(node, _NO_CELLS):
            return every
    return frozenset(out)
