"""`push N [DIRS]`: a line of N pieces moves one step along a direction into the cell `here`.

Whatever stands in `here` is taken (if the target set allows it); every stack on the
line moves with it. Action: (rule, direction index, far cell of the line, here[, removed
cells]); the removed cells are taken off before the line moves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from dsl import model
from dsl import syntax as syn
from dsl.constructs.slide import straight

if TYPE_CHECKING:  # the parser and the back-end pass themselves in; the model never imports them
    from interpreter.native.crules import CRuleGen
    from interpreter.python.pyrules import RuleGen

    from dsl.to_syntax import ToSyntax


@dataclass(eq=False)
class Push(model.Motion):
    """A line of `count` pieces moves one step along a direction into `here`."""

    dirs: tuple[str, ...]
    count: int

    name = "push"


NODE = Push  # the model's node of this motion


@dataclass(eq=False)
class PushSyntax(syn.MotionSyntax):
    """A push as written."""

    count: int = 1  # how many pieces in the line


def to_syntax(t: ToSyntax, span: syn.Span, c: list) -> PushSyntax:
    """`push N [DIRS]`: the parse tree's children -> the syntax tree's node."""
    return PushSyntax(span, "push", dirs=c[1], count=t.to_int(c[0]))


STRAIGHT = True
FROM_A_CELL = False
FROM_PER_CANDIDATE = True  # `from`, the line's far end, is known with `here`
ACTION = "push"  # (rule, direction, far end, here)


def lower(mo: PushSyntax, dirs: tuple[str, ...] | None,
          expr: Callable[[syn.Expr | None], model.Expr | None]) -> model.Motion:
    """The checked syntax -> the model's node (directions resolved, expressions lowered)."""
    return Push(mo.span, dirs, mo.count)


def check(p: syn.PlyDecl, error: Callable[..., None], cells: int) -> None:
    if not 1 <= p.motion.count <= cells:
        error(p.motion.span, f"a push moves a line of 1 to {cells} pieces")


def _geometry(g: RuleGen | CRuleGen) -> tuple[list, dict]:
    """Per cell `here`: the lines that can push into it (direction, mask, far end); per
    (direction, here): the cells cleared and each (from, to) shift."""
    board, t = g.rs.board, g.t
    dirs = straight(board, g.motion.dirs)
    n = g.motion.count
    table: list[list[tuple[int, int, int]]] = [[] for _ in range(t.n)]
    shifts: dict[tuple[int, int], tuple[int, list[tuple[int, int]]]] = {}
    goals = set(board.goals)
    for di, d in enumerate(dirs):
        back = board.opposite(d)
        for h in range(t.n):
            line = t.rays(back)[h][:n] if back else []
            if len(line) < n or goals.intersection(line):  # nothing leaves a goal
                continue
            mask = sum(1 << c for c in line)
            table[h].append((di, mask, line[-1]))
            targets = [h] + line[:-1]
            shifts[(di, h)] = (mask | 1 << h, [(1 << c, 1 << x) for c, x in zip(line, targets)])
    return table, shifts


def _tables(g: RuleGen) -> tuple[str, str]:
    """The geometry as the Python module's constants."""
    table, shifts = _geometry(g)
    key = (g.motion.count, tuple(straight(g.rs.board, g.motion.dirs)))
    return g.c.const(("push",) + key, table, "PUSH"), g.c.const(("shift",) + key, shifts, "SHIFT")


def emit_moves(g: RuleGen) -> None:
    lines, _ = _tables(g)
    g.head(occ=False)
    g.line(1, "movable = " + g.c.types_expr(g.types, "s"))
    g.line(1, f"dests = {g.all_or_target()}")
    g.out.bits(1, "dests", "here")
    g.line(2, f"for di, line, far in {lines}[here.bit_length() - 1]:")
    g.line(3, "if movable & line != line: continue")
    g.line(3, "frm = BIT[far]")
    g.candidate(3, "di, far, here.bit_length() - 1")


def emit_apply(g: RuleGen) -> None:
    _, shift = _tables(g)
    removes = g.removal is not None  # taken off first; the line then moves as it stands
    g.line(0, f"def taken_{g.code}(s, a):")  # what stands where the line moves in
    g.line(1, f"return BIT[a[3]] & {g.c.occ('s')}" + (" | a[4]" if removes else ""))
    g.line(0, "")
    g.line(0, f"def apply_{g.code}(s, a):")
    g.line(1, f"clear, pairs = {shift}[(a[1], a[3])]")
    g.line(1, "frm = BIT[a[2]]")
    g.line(1, "here = BIT[a[3]]")
    g.captured()
    g.line(1, "b = list(s)")
    g.line(1, f"for i in range({g.L.types}):")  # every stack on the line shifts one cell
    g.line(2, "m = s[i] & ~a[4]" if removes else "m = s[i]")
    g.line(2, "if m & clear:")
    g.line(3, "moved = m & ~clear")
    g.line(3, "for src, dst in pairs:")
    g.line(4, "if m & src: moved |= dst")
    g.line(3, "b[i] = moved")
    if removes:
        g.line(2, "else:")
        g.line(3, "b[i] = m")
    g.finish()


def _c_tables(g: CRuleGen) -> tuple[str, ...]:
    """`_tables` flattened for C: per here, its lines (PD direction, PM mask, PF far end);
    per (direction, here): the cleared cells (SC) and the shifts (SS source, SD target)."""
    dirs = straight(g.rs.board, g.motion.dirs)
    n, cells = g.motion.count, g.t.n
    table, shift = _geometry(g)
    out, key = g.out, ("push", n, tuple(dirs))
    pd, off = out.ragged(key + ("d",), [[di for di, _, _ in row] for row in table], "PD")
    pm = out.mask_table(key + ("m",), [mk for row in table for _, mk, _ in row], "PM")
    pf = out.int_table(key + ("f",), [far for row in table for _, _, far in row], "PF")
    clear = [shift.get((di, h), (0, []))[0] for di in range(len(dirs)) for h in range(cells)]
    pairs = [shift.get((di, h), (0, []))[1] for di in range(len(dirs)) for h in range(cells)]
    sc = out.mask_table(key + ("clear",), clear, "SC")
    ss, soff = out.ragged(key + ("src",), [[mask.bit_length() - 1 for mask, _ in p] for p in pairs], "SS")
    sd = out.int_table(key + ("dst",), [d.bit_length() - 1 for p in pairs for _, d in p], "SD")
    return pd, off, pm, pf, sc, ss, soff, sd


def emit_c_moves(g: CRuleGen) -> None:
    pd, off, pm, pf, *_ = _c_tables(g)
    g.head(occ=False)
    g.line(1, f"M movable = {g.c.types_expr(g.types, 's')};")
    g.line(1, f"M dests = {g.all_or_target()};")
    g.out.bits(1, "dests", "d")
    g.line(2, "M here = m_bit(d);")
    g.line(2, f"for (int k = {off}[d]; k < {off}[d + 1]; k++) {{")
    g.line(3, f"int di = {pd}[k], far = {pf}[k];")
    g.line(3, f"if (!m_eq(m_and(movable, {pm}[k]), {pm}[k])) continue;")
    g.line(3, "M frm = m_bit(far); (void)frm;")
    g.candidate(3, "di, far, d")
    g.line(2, "}")
    g.out.close(1)


def emit_c_apply(g: CRuleGen) -> None:
    *_, sc, ss, soff, sd = _c_tables(g)
    removes = g.removal is not None
    g.out.function(f"M taken_{g.code}(const S *s, const A *a)")
    g.line(1, f"return m_or(m_and(m_bit(a->x[2]), {g.c.occ('s')}), {'a->rem' if removes else 'm_zero()'});")
    g.out.end()
    g.out.function(f"int apply_{g.code}(const S *s, const A *a, S *b)")
    g.line(1, f"int key = a->x[0] * {g.t.n} + a->x[2];")
    g.line(1, f"M clear = {sc}[key];")
    g.line(1, "M frm = m_bit(a->x[1]), here = m_bit(a->x[2]); (void)frm; (void)here;")
    g.captured()
    g.line(1, "*b = *s;")
    g.line(1, f"for (int i = 0; i < {g.L.types}; i++) {{")  # every stack on the line shifts one cell
    g.line(2, "M m = m_andn(s->c[i], a->rem);" if removes else "M m = s->c[i];")
    g.line(2, "if (m_any(m_and(m, clear))) {")
    g.line(3, "M moved = m_andn(m, clear);")
    g.line(3, f"for (int k = {soff}[key]; k < {soff}[key + 1]; k++)")
    g.line(4, f"if (m_has(m, {ss}[k])) moved = m_or(moved, m_bit({sd}[k]));")
    g.line(3, "b->c[i] = moved;")
    g.line(2, "}" + (" else b->c[i] = m;" if removes else ""))
    g.line(1, "}")
    g.finish()
