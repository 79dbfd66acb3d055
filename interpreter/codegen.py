"""Python source for a checked ruleset: move generators, apply functions and end rules.

The generated code is specialised per rule and per player, over integer bitmasks,
so a ply costs what a hand-written implementation's would. Only integers and
identifiers made here reach the source: no text of the .game file ever does
(names are resolved to indices by the checker first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from rulecraft.dsl import model as m
from rulecraft.dsl.check import Ruleset

from . import limits
from .limits import chain_guard, range_guard
from .tables import Tables


@dataclass(frozen=True)
class Layout:
    """Where each part of a state lives in the state tuple."""

    types: int  # masks 0..types-1, one per piece type
    players: int
    var_offsets: dict[str, int]  # variable name -> first slot
    reserve_offsets: dict[int, int]  # piece type -> slot of its owner's reserve
    memory: int | None  # first of 3 slots: the previous ply's rule (previous_index), from, here
    length: int

    @property
    def P(self) -> int:  # player to move
        return self.types

    @property
    def PH(self) -> int:  # phase of the turn
        return self.types + 1

    @property
    def OUT(self) -> int:  # outcome: -1 going on, a winner's index, or `players` for a draw
        return self.length - 1


def make_layout(rs: Ruleset) -> Layout:
    offsets, slot = {}, len(rs.types) + 2
    for v in rs.vars:
        offsets[v.name] = slot
        slot += len(rs.players) if v.per_player else 1
    reserves = {}
    for i, t in enumerate(rs.types):
        if rs.kinds[t.kind].reserve is not None:
            reserves[i] = slot
            slot += 1
    memory = None
    if rs.remembers:
        memory, slot = slot, slot + 3
    return Layout(len(rs.types), len(rs.players), offsets, reserves, memory, slot + 1)


@dataclass
class Ctx:
    """What an expression may refer to where it is compiled."""

    s: str  # the state sequence's local name
    mover: int
    here: str | None = None
    frm: str | None = None
    stuck: str | None = None
    next_is_mover: bool = True  # while generating plies, the player to move is the mover
    path: str = "0"  # the cells a slide passes (strictly between from and here)
    hoist: "Hoister | None" = None  # where loop-invariant subexpressions go
    single: bool = False  # here and from are single cells (table lookups work on them)
    adj_path: dict | None = None  # directions -> the local kept as adjacent(path) grows


class Hoister:
    """Locals for subexpressions that do not change inside a loop, computed above it.

    `inner` names what changes per candidate ply (here, path; from too for a push);
    what depends on none of it is computed once per call ("outer") or once per piece
    ("piece", when it depends on from).
    """

    def __init__(self, prefix: str, inner: set[str]):
        self.prefix, self.inner = prefix, inner
        self.outer: list[tuple[str, str]] = []
        self.piece: list[tuple[str, str]] = []
        self._names: dict[str, str] = {}

    def local(self, code: str, level: str) -> str:
        if code not in self._names:
            name = f"{self.prefix}{len(self._names)}"
            self._names[code] = name
            (self.piece if level == "piece" else self.outer).append((name, code))
        return self._names[code]


class Emitter:
    def __init__(self, rs: Ruleset, tables: Tables, layout: Layout):
        self.rs, self.t, self.L = rs, tables, layout
        self.ns: dict[str, object] = {}
        self._ids: dict[tuple, str] = {}
        self.lines: list[str] = []

    # ------------------------------------------------------------ namespace
    def const(self, key: tuple, value: object, prefix: str) -> str:
        """A namespace entry for a table or constant, named here (never from the source)."""
        if key not in self._ids:
            name = f"{prefix}{len(self._ids)}"
            self._ids[key] = name
            self.ns[name] = value
        return self._ids[key]

    def _steps(self, dirs: list[str]) -> list[tuple[int, int]]:
        """Each direction's step on the lattice, in lattice units."""
        board = self.rs.board
        out = []
        for d in dirs:
            arc = next(((u, v) for u, v, ds in board.graph.edges() if ds == (d,)), None)
            if arc is None:  # no cell has a neighbour that way (a board one file wide): no ray
                out.append((0, 0))
                continue
            (ux, uy), (vx, vy) = board.lattice[arc[0]], board.lattice[arc[1]]
            out.append((vx - ux, vy - uy))
        return out

    def direction_vectors(self, dirs: list[str]) -> list[tuple[int, int]]:
        """Each direction's step weighted by the metric (for dot products)."""
        mx, my = self.rs.board.metric
        return [(dx * mx, dy * my) for dx, dy in self._steps(dirs)]

    def direction_norms(self, dirs: list[str]) -> list[int]:
        """Each direction's squared length in the metric."""
        mx, my = self.rs.board.metric
        return [dx * dx * mx + dy * dy * my for dx, dy in self._steps(dirs)]

    def adj(self, dirs: list[str] | None) -> str:
        return self.const(("adj", None if dirs is None else tuple(dirs)), self.t.adjacency(dirs), "ADJ")

    def mask_const(self, mask: int) -> str:
        return self.const(("mask", mask), mask, "K")

    def occ(self, s: str) -> str:
        return self.types_expr(list(range(self.L.types)), s)

    def types_expr(self, types: list[int], s: str) -> str:
        """The union of the masks of `types` in state `s` (a loop past a few types, so that
        the source grows with the rules, not with rules x kinds)."""
        if not types:
            return "0"
        if len(types) > UNROLL:
            return f"_union({s}, {self.type_tuple(types)})"
        return "(" + " | ".join(f"{s}[{i}]" for i in types) + ")"

    def type_tuple(self, types: list[int]) -> str:
        """A tuple of piece types as the source writes it (a named constant when long)."""
        t = tuple(types)
        return repr(t) if len(t) <= UNROLL else self.const(("types", t), t, "TYPES")

    # ------------------------------------------------------------ expressions
    def deps(self, e: m.Expr) -> set[str]:
        """What `e` reads: here, from, path (the ply's cells) and state (the position)."""
        out: set[str] = set()
        for n in m.walk(e):
            if isinstance(n, m.Keyword):
                out.add(n.word if n.word in ("here", "from", "path") else "state")
            elif isinstance(n, (m.Owned, m.Index)) or (isinstance(n, m.Call) and n.func in self.rs.relations):
                out.add("state")
            elif isinstance(n, m.Call) and n.func == "undoes":  # compares this ply with the last
                out |= {"here", "from", "state"}
            elif isinstance(n, m.Name) and n.ref and n.ref[0] in ("kind", "var"):
                out.add("state")
        return out

    def expr(self, e: m.Expr, cx: Ctx) -> str:
        """Source of `e` (typed by the checker) as a Python expression."""
        if cx.hoist is not None and isinstance(e, (m.Call, m.BinOp, m.Owned, m.Compare,
                                                   m.BoolOp, m.Not, m.Index)):
            d = self.deps(e)
            if not d & cx.hoist.inner:
                code = self._expr(e, replace(cx, hoist=None))
                return cx.hoist.local(code, "piece" if "from" in d else "outer")
        return self._expr(e, cx)

    def _expr(self, e: m.Expr, cx: Ctx) -> str:
        rs, s = self.rs, cx.s
        if isinstance(e, m.Num):
            return str(int(e.value))
        if isinstance(e, m.Name):
            kind, val = e.ref
            if kind == "cell":
                return self.mask_const(1 << int(val))
            if kind == "region":
                return self.mask_const(sum(1 << c for c in rs.regions[val]))
            if kind == "kind":
                return self.types_expr(rs.types_of(val), s)
            if kind == "player":
                return str(int(val))
            if kind == "var":
                return f"{s}[{self.L.var_offsets[val]}]"
            raise AssertionError(kind)
        if isinstance(e, m.Keyword):
            w = e.word
            if w == "empty":
                return f"({self.t.full} & ~{self.occ(s)})" if self.t.n < 64 else \
                    f"({self.mask_const(self.t.full)} & ~{self.occ(s)})"
            if w == "here":
                return cx.here
            if w == "from":
                return cx.frm
            if w == "mover":
                return str(cx.mover)
            if w == "opponent":
                return str(1 - cx.mover)
            if w == "next":
                return str(cx.mover) if cx.next_is_mover else f"{s}[{self.L.P}]"
            if w == "no legal ply":
                return cx.stuck
            if w == "path":
                return cx.path
            if w == "captured":
                return "captured"
            if w == "last_from":
                return f"{s}[{self.L.memory + 1}]"
            if w == "last_to":
                return f"{s}[{self.L.memory + 2}]"
            raise AssertionError(w)
        if isinstance(e, m.Owned):
            owner: int | None | str = "any"
            if e.owner == "own":
                owner = cx.mover
            elif e.owner == "opponent's":
                owner = 1 - cx.mover
            return self.types_expr(rs.types_of(e.kind, owner), s)
        if isinstance(e, m.Index):
            base = self.L.var_offsets[e.name]
            idx = self.expr(e.index, cx)
            if idx.isdigit():
                return f"{s}[{base + int(idx)}]"
            return f"{s}[{base} + {idx}]"
        if isinstance(e, m.Call):
            args = [a for a in e.args]
            if e.func in rs.relations:
                pairs = tuple((tuple(rs.types_of(a)), tuple(rs.types_of(b)))
                              for a, b in rs.relations[e.func])
                rel = self.const(("relation", e.func), pairs, "REL")
                return f"_relate({self.expr(args[0], cx)}, {s}, {rel})"
            if e.func == "closer":
                a, b = self.expr(args[0], cx), self.expr(args[1], cx)
                points = f"_points({self.expr(args[2], replace(cx, hoist=None))}, LATTICE)"
                if cx.hoist is not None and not self.deps(args[2]) & cx.hoist.inner:
                    points = cx.hoist.local(points, "piece" if "from" in self.deps(args[2]) else "outer")
                return f"_closer({a}, {b}, {points}, LATTICE, METRIC)"
            if e.func == "count":
                return f"({self.expr(args[0], cx)}).bit_count()"
            if e.func == "adjacent":
                dirs = args[1].ref[1] if len(args) > 1 else None
                key = None if dirs is None else tuple(dirs)
                what = args[0]
                if isinstance(what, m.Keyword) and what.word == "path" and cx.adj_path is not None \
                        and key in cx.adj_path:
                    return cx.adj_path[key]  # kept up to date as the path grows
                if isinstance(what, m.Keyword) and what.word in ("here", "from") and cx.single:
                    return f"{self.adj(dirs)}[({self.expr(what, cx)}).bit_length() - 1]"
                return f"_adjacent({self.expr(args[0], cx)}, {self.adj(dirs)})"
            if e.func in ("line", "aligned", "in_a_row"):
                # One predicate: N of the cells on one straight line (gaps allowed), or N
                # next to each other; aligned(C, D) is line(count(C), C, D), in_a_row(N, C, D)
                # is line(N, C, D, contiguous).
                if e.func == "aligned":
                    cells, dirs_arg, n_expr, contiguous = args[0], args[1], None, False
                else:
                    cells, dirs_arg, n_expr = args[1], args[2], args[0]
                    contiguous = e.func == "in_a_row" or len(args) > 3
                cells_src = self.expr(cells, cx)
                dirs = tuple(dirs_arg.ref[1])
                whole = n_expr is None or (isinstance(n_expr, m.Call) and n_expr.func == "count"
                                           and self.expr(n_expr.args[0], cx) == cells_src)
                if whole and not contiguous:  # all of C on one line: one through its lowest cell
                    lines = self.t.line_masks(list(dirs))
                    through = self.const(("through", dirs), [[ln for ln in lines if ln >> c & 1]
                                                            for c in range(self.t.n)], "THROUGH")
                    return f"_aligned({cells_src}, {through})"
                n = self.expr(n_expr, cx)
                if contiguous:
                    wins = self.const(("windows", dirs), self.t.windows(list(dirs)), "WIN")
                    return f"_run({cells_src}, {n}, {wins})"
                lines = self.const(("lines", dirs), self.t.line_masks(list(dirs)), "LINES")
                return f"_line({cells_src}, {n}, {lines})"
            if e.func == "last_ply":
                M = self.L.memory
                if not args:
                    return f"({s}[{M}] != 0)"
                idx = tuple(sorted(previous_index(rs, a.ref[1]) for a in args))
                return f"({s}[{M}] in {idx!r})"
            if e.func == "undoes":
                # This ply leaves the cell the previous ply reached, for the cell it left.
                idx = tuple(previous_index(rs, a.ref[1]) for a in args)
                M = self.L.memory
                return (f"({s}[{M}] in {idx!r} and {cx.frm} == {s}[{M + 2}] "
                        f"and {cx.here} == {s}[{M + 1}])")
            raise AssertionError(e.func)
        if isinstance(e, m.BinOp):
            a, b = self.expr(e.left, cx), self.expr(e.right, cx)
            if e.type == "cells":
                return {"&": f"({a} & {b})", "|": f"({a} | {b})", "-": f"({a} & ~{b})"}[e.op]
            return f"({a} {e.op} {b})"
        if isinstance(e, m.Compare):
            if e.op == "in":
                return f"_within({self.expr(e.left, cx)}, {self.expr(e.right, cx)})"
            return f"({self.expr(e.left, cx)} {e.op} {self.expr(e.right, cx)})"
        if isinstance(e, m.BoolOp):
            return f"({self.expr(e.left, cx)} {e.op} {self.expr(e.right, cx)})"
        if isinstance(e, m.Not):
            return f"(not {self.expr(e.operand, cx)})"
        if isinstance(e, m.Negate):
            return f"(-{self.expr(e.operand, cx)})"
        raise AssertionError(e)

    # ------------------------------------------------------------ output
    def emit(self, indent: int, text: str) -> None:
        if len(self.lines) >= MAX_SOURCE_LINES:
            raise TooLarge(len(self.lines))
        self.lines.append("    " * indent + text)

    def source(self) -> str:
        """The module; in each function, a local set up front but never read is dropped.

        Each move generator is written once, with `yield`, and turned here into two plain
        functions: `moves_N` (builds the list of plies) and `has_N` (stops at the first):
        no generator object is made on the hot path.
        """
        out, block = [], []
        for line in self.lines + ["def"]:
            if line.startswith("def") and block:
                for variant in _variants(block):
                    out.extend(_drop_unread(variant))
                block = []
            block.append(line)
        return "\n".join(out) + "\n"


_SETUP_LOCALS = ("occ", "path")
UNROLL = 8  # piece types written out one by one; more are looped over
MAX_SOURCE_LINES = 100_000  # generated lines (about 3 s to compile; a bundled game needs < 600): past it, the ruleset is refused


class TooLarge(Exception):
    """The generated module would pass MAX_SOURCE_LINES."""
FITS_MAX_CELLS = 16  # up to this size, the placements inside each set of free cells are tabled


def _variants(block: list[str]) -> list[list[str]]:
    head = re.fullmatch(r"def gen_(\d+)\(s\):", block[0])
    if head is None:
        return [block]
    code = head.group(1)
    body = [x for x in block[1:] if x.strip()]
    listing = [f"def moves_{code}(s):", "    acts = []", "    add = acts.append"]
    exists = [f"def has_{code}(s):"]
    for line in body:
        stripped = line.lstrip()
        indent = line[: len(line) - len(stripped)]
        if stripped.startswith("yield "):
            listing.append(f"{indent}add({stripped[6:]})")
            exists.append(f"{indent}return True")
        else:
            listing.append(line)
            exists.append(line)
    return [listing + ["    return acts", ""], exists + ["    return False", ""]]


def _drop_unread(block: list[str]) -> list[str]:
    keep = []
    for line in block:
        name = line.strip().split(" = ")[0]
        if line.startswith("    ") and not line.startswith("     ") and name in _SETUP_LOCALS:
            rest = "\n".join(x for x in block if x is not line)
            if not re.search(rf"\b{name}\b", rest):
                continue
        keep.append(line)
    return keep


def uses(e: m.Expr | None, *words: str) -> bool:
    """Whether `e` mentions any of the keywords (here, from, no legal ply, ...)."""
    return e is not None and any(isinstance(n, m.Keyword) and n.word in words for n in m.walk(e))


def movable_types(rs: Ruleset, ply: m.PlyDecl, p: int) -> list[int]:
    """The piece types player `p` may move with this rule (own or neutral, per the selector)."""
    if ply.owner == "own":
        return rs.types_of(ply.kind, p)
    if ply.owner == "opponent's":
        return rs.types_of(ply.kind, 1 - p)
    return rs.types_of(ply.kind, p) + rs.types_of(ply.kind, None)


def emit_rule(em: Emitter, ply: m.PlyDecl, p: int, code: int, fin: str) -> tuple[str, str] | None:
    """Emit the generator and the apply function of one rule for one player."""
    rs, L = em.rs, em.L
    types = movable_types(rs, ply, p)
    if not types:
        return None
    sizes = {rs.types[t].size for t in types}
    multi = max(sizes) > 1
    gname, aname = f"gen_{code}", f"apply_{code}"
    cx = Ctx("s", p, here="here", frm="frm")
    onto = ply.onto if ply.onto is not None else m.Keyword(ply.span, word="empty")
    if ply.onto is None:
        onto.type = "cells"
    motion = ply.motion
    tgt_level = 2 if uses(onto, "here") else 1 if uses(onto, "from") else 0
    if motion.kind == "push" and tgt_level == 1:  # a push's `from` is known per line
        tgt_level = 2
    tgt_src = em.expr(onto, cx)
    # Conditions and removals are compiled with what does not change per candidate hoisted.
    hoist = Hoister(f"h{code}_", {"here", "path"} | ({"from"} if motion.kind == "push" else set()))
    single = not multi and motion.kind in ("step", "slide", "walk", "anywhere")
    adj_path = {k: f"adjp{i}" for i, k in enumerate(path_adjacencies(ply))} \
        if motion.kind == "slide" else None
    cx = Ctx("s", p, here="here", frm="frm", path="path", hoist=hoist, single=single,
             adj_path=adj_path)
    # A straight slide that must end closer to some target: tested by projection (see below).
    projected = closer_targets(em, ply) if motion.kind == "slide" and not motion.chained else None
    where = None
    if ply.where is not None and projected is None:
        where = em.expr(ply.where, cx)

    def emit_target(level: int, indent: int) -> None:
        if tgt_level == level:
            em.emit(indent, f"tgt = {tgt_src}")

    removal = removal_expr(em, ply, cx)

    def emit_hoisted(level: str, indent: int) -> None:
        for name, src in (hoist.outer if level == "outer" else hoist.piece):
            em.emit(indent, f"{name} = {src}")

    # A piece standing on another kind (`on KIND`) only ever moves onto one of those.
    riders = motion.kind != "push" and any(rs.types[t].carrier is not None for t in types)

    def emit_base(indent: int) -> None:
        if riders:
            em.emit(indent, "base = s[SUPPORT[t]] if SUPPORT[t] >= 0 else FULL")

    def emit_yield(indent: int, payload: str) -> None:
        if riders:
            em.emit(indent, "if not here & base: continue")
        if tgt_level == 2:
            emit_target(2, indent)
            em.emit(indent, "if not (here & tgt): continue" if not multi else "if here & ~tgt: continue")
        if where is not None:
            em.emit(indent, f"if not {where}: continue")
        if removal is not None:
            em.emit(indent, f"yield ({code}, {payload}, {removal})")
        else:
            em.emit(indent, f"yield ({code}, {payload})")

    if motion.chained:
        emit_chain(em, ply, p, code, fin, types, onto)
        return gname, aname
    em.emit(0, f"def {gname}(s):")
    em.emit(1, f"occ = {em.occ('s')}")
    em.emit(1, "path = 0")
    emit_target(0, 1)
    emit_hoisted("outer", 1)
    if projected is not None:
        em.emit(1, f"targets = _points({em.expr(projected, replace(cx, hoist=None))}, LATTICE)")
        for i, (dx, dy) in enumerate(em.direction_vectors(slide_dirs(em, motion))):
            em.emit(1, f"M{i} = _maxdot(targets, {dx}, {dy})")
    if motion.kind == "place":
        slots = em.const(("slots", tuple(types)),
                         tuple((t, L.reserve_offsets.get(t, -1)) for t in types), "SLOTS")
        em.emit(1, "frm = 0")
        emit_hoisted("piece", 1)
        em.emit(1, f"for t, slot in {slots}:")
        em.emit(2, "if slot >= 0 and s[slot] <= 0: continue")
        emit_base(2)
        em.emit(2, "dests = " + ("tgt" if tgt_level < 2 else "FULL"))
        em.emit(2, "while dests:")
        em.emit(3, "here = dests & -dests")
        em.emit(3, "dests ^= here")
        emit_yield(3, "t, here.bit_length() - 1")
        em.emit(0, "")
        reserve_slots = {t: L.reserve_offsets[t] for t in types if t in L.reserve_offsets}
        put = ["b[t] |= here"]
        if reserve_slots:
            table = em.const(("reserve slots", tuple(reserve_slots.items())), reserve_slots, "RESERVE")
            put += [f"slot = {table}.get(t)", "if slot is not None: b[slot] -= 1"]
        head = ["frm = 0", "here = BIT[a[2]]"] + (["removed = a[3]"] if removal else [])
        emit_apply(em, aname, ply, p, fin, head, "~(here | removed)" if removal else "~here", put)
        return gname, aname
    if motion.kind == "push":
        emit_push(em, ply, p, code, fin, types, tgt_level, emit_yield)
        return gname, aname
    em.emit(1, f"for t in {em.type_tuple(types)}:")
    emit_base(2)
    if multi:
        if motion.kind != "anywhere":
            raise AssertionError("checked: only `anywhere` moves pieces covering several cells")
        size = rs.types[types[0]].size
        pl = em.const(("placements", size), em.t.placement_masks(size), "PL")
        em.emit(2, "frm = s[t]")
        em.emit(2, "if not frm: continue")
        emit_target(1, 2)
        emit_hoisted("piece", 2)
        em.emit(2, "free = tgt | frm" if tgt_level < 2 else "free = FULL")
        if em.t.n <= FITS_MAX_CELLS:
            fits = em.const(("fits", size), em.t.placements_within(size), "FITS")
            em.emit(2, f"for i, here in {fits}[free]:")
            em.emit(3, "if here == frm: continue")
        else:
            em.emit(2, f"for i, here in enumerate({pl}):")
            em.emit(3, "if here == frm or here & ~free: continue")
        emit_yield(3, "t, i")
    else:
        em.emit(2, "pieces = s[t]")
        if motion.kind == "step" and tgt_level == 0:
            # Fewer targets than pieces (an enemy's steps into a few empty cells): walk them.
            dirs = em.rs.board.resolve_dirs([d for d, _ in motion.dirs]) if motion.dirs else None
            back = em.const(("back", None if dirs is None else tuple(dirs)),
                            em.t.reverse_adjacency(dirs), "BACK")
            em.emit(2, "if pieces.bit_count() > tgt.bit_count():")
            em.emit(3, "dests = tgt")
            em.emit(3, "while dests:")
            em.emit(4, "here = dests & -dests")
            em.emit(4, "dests ^= here")
            em.emit(4, "d = here.bit_length() - 1")
            em.emit(4, f"sources = {back}[d] & pieces")
            em.emit(4, "while sources:")
            em.emit(5, "frm = sources & -sources")
            em.emit(5, "sources ^= frm")
            em.emit(5, "c = frm.bit_length() - 1")
            emit_hoisted("piece", 5)
            emit_yield(5, "t, c, d")
            em.emit(3, "continue")
        em.emit(2, "while pieces:")
        em.emit(3, "frm = pieces & -pieces")
        em.emit(3, "pieces ^= frm")
        em.emit(3, "c = frm.bit_length() - 1")
        emit_target(1, 3)
        emit_hoisted("piece", 3)
        if motion.kind == "step":
            adj = em.adj(em.rs.board.resolve_dirs([d for d, _ in motion.dirs]) if motion.dirs else None)
            em.emit(3, f"dests = {adj}[c]" + (" & tgt" if tgt_level < 2 else ""))
            em.emit(3, "while dests:")
            em.emit(4, "here = dests & -dests")
            em.emit(4, "dests ^= here")
            emit_yield(4, "t, c, here.bit_length() - 1")
        elif motion.kind == "anywhere":
            em.emit(3, "dests = " + ("tgt & ~frm" if tgt_level < 2 else "FULL & ~frm"))
            em.emit(3, "while dests:")
            em.emit(4, "here = dests & -dests")
            em.emit(4, "dests ^= here")
            emit_yield(4, "t, c, here.bit_length() - 1")
        elif motion.kind == "slide":
            dirs = slide_dirs(em, motion)
            rays = tuple(em.const(("rays", d), em.t.rays(d), "RAY") for d in dirs)
            # Two lines from one cell may reach the same cell (3-A-Side's goals): one ply.
            dedupe = em.t.rays_overlap(dirs)
            least = motion.least or 1
            bounded = motion.limit is not None or motion.least is not None
            if motion.limit is not None:
                em.emit(3, f"limit = {em.expr(motion.limit, Ctx('s', p, here='here', frm='frm'))}")
                em.emit(3, f"if limit < {least}: continue")
            elif motion.least is not None:
                em.emit(3, f"limit = {least}")  # `slide N`: exactly N steps
            if dedupe:
                em.emit(3, "seen = 0")
            if projected is not None:
                # Ending k steps along d is closer to some target e than the start f
                # iff 2 (e - f).d > k |d|^2: one bound per line, then a product per step.
                vectors = em.direction_vectors(dirs)
                lines = ", ".join(f"({r}, {dx}, {dy}, {dd}, M{i})"
                                  for i, (r, (dx, dy), dd) in
                                  enumerate(zip(rays, vectors, em.direction_norms(dirs))))
                em.emit(3, "fx, fy = LATTICE[c]")
                em.emit(3, f"for ray, dx, dy, dd, best in ({lines},):")
                em.emit(4, "bound = 2 * (best - fx * dx - fy * dy)")
            else:
                em.emit(3, f"for ray in ({', '.join(rays)},):")
            em.emit(4, "n = 0")
            em.emit(4, "path = 0")
            for var in (adj_path or {}).values():
                em.emit(4, f"{var} = 0")
            em.emit(4, "for d in ray[c]:")
            if bounded or projected is not None:
                em.emit(5, "n += 1")
            if bounded:
                em.emit(5, "if n > limit: break")
            if projected is not None:
                em.emit(5, "if n * dd >= bound: break")  # no farther cell is closer either
            em.emit(5, "here = BIT[d]")
            emit_target(2, 5)
            em.emit(5, "if here & tgt" + (" & base" if riders else "")
                    + (f" and n >= {least}" if least > 1 else "")
                    + (" and not here & seen" if dedupe else "")
                    + (f" and {where}" if where else "") + ":")
            if dedupe:
                em.emit(6, "seen |= here")
            em.emit(6, f"yield ({code}, t, c, d" + (f", {removal})" if removal else ")"))
            em.emit(5, "if here & occ: break")
            em.emit(5, "path |= here")
            for key, var in (adj_path or {}).items():
                em.emit(5, f"{var} |= {em.adj(None if key is None else list(key))}[d]")
        elif motion.kind == "walk":
            adj = em.adj(em.rs.board.resolve_dirs([d for d, _ in motion.dirs]) if motion.dirs else None)
            em.emit(3, f"limit = {em.expr(motion.limit, Ctx('s', p, here='here', frm='frm'))}")
            em.emit(3, "seen = frontier = frm")
            em.emit(3, "reached = 0")
            em.emit(3, "for _ in range(limit):")
            em.emit(4, f"step = _adjacent(frontier, {adj}) & ~seen")
            em.emit(4, "reached |= step")
            em.emit(4, "seen |= step")
            em.emit(4, "frontier = step & ~occ")  # a walk goes on through empty cells only
            em.emit(4, "if not frontier: break")
            em.emit(3, "dests = reached" + (" & tgt" if tgt_level < 2 else ""))
            em.emit(3, "while dests:")
            em.emit(4, "here = dests & -dests")
            em.emit(4, "dests ^= here")
            emit_yield(4, "t, c, here.bit_length() - 1")
        else:
            raise AssertionError(motion.kind)
    em.emit(0, "")

    if multi:
        size = rs.types[types[0]].size
        pl = em.const(("placements", size), em.t.placement_masks(size), "PL")
        emit_apply(em, aname, ply, p, fin, ["frm = s[t]", f"here = {pl}[a[2]]"],
                   "~(here & ~frm)", ["b[t] = here"])
    else:
        head = ["frm = BIT[a[2]]", "here = BIT[a[3]]"]
        emit_apply(em, aname, ply, p, fin, head + (["removed = a[4]"] if removal else []),
                   "~here" if not removal else "~(here | removed)", ["b[t] = (s[t] & ~frm) | here"])
    return gname, aname


def removal_expr(em: Emitter, ply: m.PlyDecl, cx: Ctx) -> str | None:
    """The cells a ply's `remove` effects empty, as an expression on the position before it."""
    parts = [em.expr(e.value, cx) for e in ply.effects if e.kind == "remove"]
    return " | ".join(parts) if parts else None


def slide_dirs(em: Emitter, motion: m.Motion) -> list[str]:
    return em.rs.board.resolve_dirs([d for d, _ in motion.dirs]) if motion.dirs else \
        [d for d in em.rs.board.directions if d != "link"]


def path_adjacencies(ply: m.PlyDecl) -> list[tuple[str, ...] | None]:
    """The direction sets of every `adjacent(path ...)` a ply's condition and removals read."""
    found: list[tuple[str, ...] | None] = []
    exprs = [ply.where] + [e.value for e in ply.effects if e.kind == "remove"]
    for e in exprs:
        for n in m.walk(e) if e is not None else []:
            if isinstance(n, m.Call) and n.func == "adjacent" and isinstance(n.args[0], m.Keyword) \
                    and n.args[0].word == "path":
                key = tuple(n.args[1].ref[1]) if len(n.args) > 1 else None
                if key not in found:
                    found.append(key)
    return found


def closer_targets(em: Emitter, ply: m.PlyDecl) -> m.Expr | None:
    """T, when a ply's whole condition is `closer(here, from, T)` with T fixed for the call."""
    w = ply.where
    if isinstance(w, m.Call) and w.func == "closer":
        a, b, t = w.args
        if isinstance(a, m.Keyword) and a.word == "here" and isinstance(b, m.Keyword) \
                and b.word == "from" and not em.deps(t) & {"here", "from", "path"}:
            return t
    return None


def emit_chain(em: Emitter, ply: m.PlyDecl, p: int, code: int, fin: str, types: list[int],
               onto: m.Expr) -> None:
    """A chained slide: segments in straight lines, each after the first turning and removing.

    Depth-first over (cell, removed so far, last direction), each state expanded once;
    a segment goes on only if it took pieces (so a chain ends), at most `segments` of them,
    and the search stops with an error past MAX_CHAIN_STATES states. A ply is its start, final cell and removed set;
    `routes` collects every route to each, for notation.
    """
    L, rs = em.L, em.rs
    dirs = rs.board.resolve_dirs([d for d, _ in ply.motion.dirs]) if ply.motion.dirs \
        else [d for d in rs.board.directions if d != "link"]
    rays = ", ".join(em.const(("rays", d), em.t.rays(d), "RAY") for d in dirs)
    adj_path = {k: f"adjp{i}" for i, k in enumerate(path_adjacencies(ply))}
    hoist = Hoister(f"c{code}_", {"here", "path"})  # per segment start: the position, from
    seg = Ctx("sc", p, here="here", frm="frm", path="path", hoist=hoist, single=True,
              adj_path=adj_path)
    removal = " | ".join(em.expr(e.value, seg) for e in ply.effects if e.kind == "remove")
    tgt = em.expr(onto, Ctx("sc", p, here="here", frm="frm"))
    per_cell = uses(onto, "here")
    motion = ply.motion
    more = "" if motion.segments is None else f" and len(route) < {motion.segments}"
    state = "(c, removed, last)" if motion.segments is None else "(c, removed, last, len(route))"
    budget = limits.MAX_CHAIN_STATES
    too_many = em.const(("chain limit", code), chain_guard(ply.span, ply.name, rs.board.names, budget),
                        "CHAIN")
    em.emit(0, f"def chains_{code}(s, t, c0, routes=False):")
    em.emit(1, "found = {}")
    em.emit(1, "start = BIT[c0]")
    em.emit(1, "expanded = set()")
    em.emit(1, "stack = [(c0, 0, -1, (c0,))]")
    em.emit(1, f"budget = {budget}")
    em.emit(1, "while stack:")
    em.emit(2, "c, removed, last, route = stack.pop()")
    em.emit(2, "if not routes:")
    em.emit(3, f"if {state} in expanded: continue")
    em.emit(3, f"expanded.add({state})")
    em.emit(2, "budget -= 1")
    em.emit(2, f"if budget < 0: {too_many}(c0)")
    em.emit(2, "sc = [x & ~removed for x in s]")  # stones are removed as they are passed
    em.emit(2, "sc[t] = (sc[t] & ~start) | BIT[c]")  # the start cell is empty while it moves
    em.emit(2, f"occ = {em.occ('sc')}")
    em.emit(2, "frm = BIT[c]")
    if not per_cell:
        em.emit(2, f"tgt = {tgt}")
    if motion.limit is not None:
        em.emit(2, f"limit = {em.expr(motion.limit, Ctx('sc', p, here='here', frm='frm'))}")
    # Each segment must take pieces still on the board, other than the mover: a chain ends.
    for name, src in hoist.outer + hoist.piece:
        em.emit(2, f"{name} = {src}")
    em.emit(2, f"for di, ray in enumerate(({rays},)):")
    em.emit(3, "if di == last: continue")  # the same direction is the same segment
    em.emit(3, "path = 0")
    for var in adj_path.values():
        em.emit(3, f"{var} = 0")
    if motion.limit is not None:
        em.emit(3, "n = 0")
    em.emit(3, "for d in ray[c]:")
    if motion.limit is not None:
        em.emit(4, "n += 1")
        em.emit(4, "if n > limit: break")
    em.emit(4, "here = BIT[d]")
    em.emit(4, "if here & occ: break")
    if per_cell:
        em.emit(4, f"tgt = {tgt}")
    if all(_opponents_only(e.value) for e in ply.effects if e.kind == "remove"):
        em.emit(4, f"rem = {removal}")  # already pieces on the board, never the mover
    else:
        em.emit(4, f"rem = ({removal}) & occ & ~frm")
    em.emit(4, "if (rem or last < 0) and here & tgt:")
    em.emit(5, "key = (d, removed | rem)")
    em.emit(5, "if key not in found: found[key] = []")
    em.emit(5, "if routes or not found[key]: found[key].append(route + (d,))")
    em.emit(5, f"if rem{more}: stack.append((d, removed | rem, di, route + (d,)))")
    em.emit(4, "path |= here")
    for key, var in adj_path.items():
        em.emit(4, f"{var} |= {em.adj(None if key is None else list(key))}[d]")
    em.emit(1, "return found")
    em.emit(0, "")
    whole_hoist = Hoister(f"w{code}_", {"here"})
    whole = Ctx("s", p, here="here", frm="frm", hoist=whole_hoist, single=True)
    where = em.expr(ply.where, whole) if ply.where is not None else None
    em.emit(0, f"def gen_{code}(s):")
    for name, src in whole_hoist.outer:
        em.emit(1, f"{name} = {src}")
    em.emit(1, f"for t in {em.type_tuple(types)}:")
    em.emit(2, "pieces = s[t]")
    em.emit(2, "while pieces:")
    em.emit(3, "frm = pieces & -pieces")
    em.emit(3, "pieces ^= frm")
    em.emit(3, "c0 = frm.bit_length() - 1")
    for name, src in whole_hoist.piece:
        em.emit(3, f"{name} = {src}")
    em.emit(3, f"for final, removed in chains_{code}(s, t, c0):")
    em.emit(4, "here = BIT[final]")
    if any(rs.types[t].carrier is not None for t in types):  # a rider ends on its carrier
        em.emit(4, "if SUPPORT[t] >= 0 and not here & s[SUPPORT[t]]: continue")
    if where is not None:  # closeness and the like: the whole ply, start to final cell
        em.emit(4, f"if not {where}: continue")
    em.emit(4, f"yield ({code}, t, c0, final, removed)")
    em.emit(0, "")
    emit_apply(em, f"apply_{code}", ply, p, fin, ["frm = BIT[a[2]]", "here = BIT[a[3]]", "removed = a[4]"],
               "~(here | removed)", ["b[t] = (s[t] & ~frm) | here"])


def subset_of(e: m.Expr, leaf) -> bool:
    """Whether the cells `e` names always lie among those of the atoms `leaf` accepts
    (carried through `&`, `-` and `|`)."""
    if isinstance(e, m.BinOp):
        if e.op == "&":
            return subset_of(e.left, leaf) or subset_of(e.right, leaf)
        if e.op == "-":
            return subset_of(e.left, leaf)
        if e.op == "|":
            return subset_of(e.left, leaf) and subset_of(e.right, leaf)
        return False
    return leaf(e)


def _opponents_only(e: m.Expr) -> bool:
    """Whether the cells `e` names always hold opponent's pieces (so a mover's never)."""
    return subset_of(e, lambda x: isinstance(x, m.Owned) and x.owner == "opponent's")


def emit_apply(em: Emitter, aname: str, ply: m.PlyDecl, p: int, fin: str, head: list[str],
               keep: str, put: list[str]) -> None:
    """An apply function: the move on a copy (whatever stood on `here` removed), the
    effects on the position after it, then the turn goes on."""
    code = int(aname.rsplit("_", 1)[1])
    emit_taken(em, code, head, lands_on_empty(ply.onto) and ply.motion.kind != "push")
    em.emit(0, f"def {aname}(s, a):")
    em.emit(1, "t = a[1]")
    for line in head:
        em.emit(1, line)
    emit_captured(em, ply, p, code)
    em.emit(1, "b = list(s)")
    em.emit(1, f"keep = {keep}")
    stacked = any(t.level for t in em.rs.types)
    if stacked:
        # Landing removes what stands at the mover's level and above, not what it lands on.
        em.emit(1, "for i in CLEAR[t]:")
        em.emit(2, "b[i] &= keep")
    elif em.L.types > UNROLL:
        em.emit(1, f"for i in range({em.L.types}):")
        em.emit(2, "b[i] &= keep")
    else:
        for i in range(em.L.types):
            em.emit(1, f"b[{i}] &= keep")
    for i, t in enumerate(em.rs.types):
        if t.size > 1:  # a piece covering several cells goes whole, wherever it is hit
            em.emit(1, f"if b[{i}] != s[{i}]: b[{i}] = 0")
    for line in put:
        em.emit(1, line)
    if stacked and ply.motion.kind != "place":
        em.emit(1, "for u in ABOVE[t]:")  # the pieces standing on the mover ride along
        em.emit(2, "if s[u] & frm:")
        em.emit(3, "b[u] = (b[u] & ~frm) | here")
    emit_sort_pieces(em)
    emit_effects(em, ply, p)
    em.emit(1, f"return {fin}(b, s[{em.L.PH}])")
    em.emit(0, "")


def lands_on_empty(onto: m.Expr | None) -> bool:
    """Whether every cell `onto` allows is empty (then landing takes nothing)."""
    return onto is None or subset_of(onto, lambda x: isinstance(x, m.Keyword) and x.word == "empty")


def emit_taken(em: Emitter, code: int, head: list[str], empty_landing: bool = False) -> None:
    """`taken_N(s, a)`: the cells whose pieces the action takes off the board.

    The one definition of a capture: what stands where the piece lands, at its level
    or above (a disc put on a tile takes nothing), and whatever the ply removes on its
    way, each cell once (a chain may end on a cell it emptied itself).
    """
    em.emit(0, f"def taken_{code}(s, a):")
    removal = [x.split(" = ", 1)[1] for x in head if x.startswith("removed = ")]
    removes = bool(removal)
    if empty_landing:  # only what the ply removes on its way
        em.emit(1, f"return {removal[0]}" if removes else "return 0")
        em.emit(0, "")
        return
    em.emit(1, "t = a[1]")
    for line in head:
        em.emit(1, line)
    if any(t.level for t in em.rs.types):
        em.emit(1, "occ = 0")
        em.emit(1, "for i in CLEAR[t]:")
        em.emit(2, "occ |= s[i]")
    else:
        em.emit(1, f"occ = {em.occ('s')}")
    removed = " | removed" if removes else ""
    em.emit(1, f"return (occ & here & ~frm){removed}")
    em.emit(0, "")


def emit_captured(em: Emitter, ply: m.PlyDecl | None, p: int, code: int | None) -> None:
    """`captured`, for the effects that read it: the opponent's pieces the ply takes."""
    if not counts_captures(em.rs, ply):
        return
    if code is None:
        em.emit(1, "captured = 0")
    else:
        em.emit(1, f"captured = _captured(s, taken_{code}(s, a), OPP[{p}])")


def piece_groups(rs: Ruleset) -> list[tuple[int, ...]]:
    """The piece types that are interchangeable pieces of one wide kind (one type a piece)."""
    groups: dict[tuple, list[int]] = {}
    for i, t in enumerate(rs.types):
        if t.size > 1:
            groups.setdefault((t.kind, t.owner), []).append(i)
    return [tuple(g) for g in groups.values() if len(g) > 1]


def emit_sort_pieces(em: Emitter) -> None:
    """Keep each group's masks in ascending order, so one position has one state."""
    for group in piece_groups(em.rs):
        slots = ", ".join(f"b[{i}]" for i in group)
        em.emit(1, f"{slots} = sorted(({slots},))")


def previous_index(rs: Ruleset, name: str) -> int:
    """How the previous ply's rule is remembered: 1 + its index, or 1 + the rule count for a pass."""
    names = [p.name for p in rs.plies]
    return 1 + (names.index(name) if name in names else len(names))


def emit_memory(em: Emitter, ply: m.PlyDecl | None) -> None:
    """Remember this ply (its rule, from and here) for the rules that read the previous one."""
    M = em.L.memory
    if M is None:
        return
    name = ply.name if ply is not None else "pass"
    if name in em.rs.remembers:
        em.emit(1, f"b[{M}] = {previous_index(em.rs, name)}")
        em.emit(1, f"b[{M + 1}] = frm")
        em.emit(1, f"b[{M + 2}] = here")
    else:  # no rule tells this ply apart from none: forgotten, so one position is one state
        em.emit(1, f"b[{M}] = b[{M + 1}] = b[{M + 2}] = 0")


def emit_push(em: Emitter, ply: m.PlyDecl, p: int, code: int, fin: str, types: list[int],
              tgt_level: int, emit_yield) -> None:
    """push N: a line of N pieces moves one step along a direction into the cell `here`."""
    board, t = em.rs.board, em.t
    dirs = board.resolve_dirs([d for d, _ in ply.motion.dirs]) if ply.motion.dirs else \
        [d for d in board.directions if d != "link"]
    n = ply.motion.count
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
    lines = em.const(("push", n, tuple(dirs)), table, "PUSH")
    shift = em.const(("shift", n, tuple(dirs)), shifts, "SHIFT")
    em.emit(1, "movable = " + em.types_expr(types, "s"))
    em.emit(1, "dests = " + ("tgt" if tgt_level < 2 else "FULL"))
    em.emit(1, "while dests:")
    em.emit(2, "here = dests & -dests")
    em.emit(2, "dests ^= here")
    em.emit(2, f"for di, line, far in {lines}[here.bit_length() - 1]:")
    em.emit(3, "if movable & line != line: continue")
    em.emit(3, "frm = BIT[far]")
    emit_yield(3, "di, far, here.bit_length() - 1")
    em.emit(0, "")
    em.emit(0, f"def taken_{code}(s, a):")  # what stands where the line moves in
    em.emit(1, f"return BIT[a[3]] & {em.occ('s')}")
    em.emit(0, "")
    em.emit(0, f"def apply_{code}(s, a):")
    em.emit(1, f"clear, pairs = {shift}[(a[1], a[3])]")
    em.emit(1, "frm = BIT[a[2]]")
    em.emit(1, "here = BIT[a[3]]")
    emit_captured(em, ply, p, code)
    em.emit(1, "b = list(s)")
    em.emit(1, f"for i in range({em.L.types}):")  # every stack on the line shifts one cell
    em.emit(2, "m = s[i]")
    em.emit(2, "if m & clear:")
    em.emit(3, "moved = m & ~clear")
    em.emit(3, "for src, dst in pairs:")
    em.emit(4, "if m & src: moved |= dst")
    em.emit(3, "b[i] = moved")
    emit_sort_pieces(em)
    emit_effects(em, ply, p)
    em.emit(1, f"return {fin}(b, s[{em.L.PH}])")
    em.emit(0, "")


def counts_captures(rs: Ruleset, ply: m.PlyDecl | None) -> bool:
    """Whether `captured` is read after this ply (in its effects or after each ply)."""
    effects = (ply.effects if ply is not None else []) + rs.after
    return any(uses(e.value, "captured") or uses(e.guard, "captured") for e in effects)


def emit_effects(em: Emitter, ply: m.PlyDecl | None, p: int) -> None:
    """A ply's `then` effects, then it is remembered, then the effects after each ply, all on
    the position after it (list `b`): a ply's own rules read the ply before it as the
    previous one; what comes after it reads the ply itself."""
    bx = Ctx("b", p, here="here", frm="frm")
    own = [e for e in (ply.effects if ply is not None else []) if e.kind == "assign"]
    for group in (own, None, em.rs.after):
        if group is None:
            emit_memory(em, ply)
            continue
        for eff in group:
            emit_assign(em, eff, bx, 1)


def emit_assign(em: Emitter, eff: m.Effect, cx: Ctx, indent: int) -> None:
    """`var op value [when guard]`, and the check that the variable keeps to its range."""
    target = assign_target(em, eff, cx)
    if eff.guard is not None:
        em.emit(indent, f"if {em.expr(eff.guard, cx)}:")
        indent += 1
    em.emit(indent, f"{target} {eff.op} {em.expr(eff.value, cx)}")
    var = next(v for v in em.rs.vars if v.name == eff.var)
    fixed = eff.op == "=" and isinstance(eff.value, m.Num)
    if not (fixed and var.low <= eff.value.value <= var.high):  # else: checked statically
        guard = em.const(("range", var.name), range_guard(var.span, var.name, var.low, var.high),
                         "RANGE")
        em.emit(indent, f"if not {var.low} <= {target} <= {var.high}: {guard}({target})")


def lazy_tail(rs: Ruleset) -> int | None:
    """Where the end rules that only ask `no legal ply` begin, if nothing else follows them.

    From there on the outcome depends only on whether the player to move is stuck, so the
    state need not decide it when a ply is made: it is settled when asked (as the legal
    plies are computed anyway). None when a later rule asks more, or names `mover`.
    """
    for i, end in enumerate(rs.ends):
        if uses(end.cond, "no legal ply"):
            for later in rs.ends[i:]:
                pure = isinstance(later.cond, m.Keyword) and later.cond.word == "no legal ply"
                who = later.player
                plain = who is None or isinstance(who, m.Name) or \
                    (isinstance(who, m.Keyword) and who.word == "next")
                if not pure or not plain or later.result == "effects":
                    return None
            return i
    return len(rs.ends)


def emit_ends(em: Emitter, p: int, name: str) -> None:
    """The end rules, in order, for a ply just made by player `p`; then the default rule."""
    L = em.L
    cx = Ctx("b", p, stuck="stuck", next_is_mover=False)
    # moves: a ply is known to exist already; settle: a position read from its text, whose
    # effects (rules `then ... if ...`) already ran when it was reached.
    em.emit(0, f"def {name}(b, moves=False, settle=False):")
    stuck_known = False
    changed = False
    tail = lazy_tail(em.rs)
    rules = list(em.rs.ends) + [None] if tail is None else list(em.rs.ends[:tail])
    for end in rules:
        cond = end.cond if end is not None else m.Keyword(em.rs.ends[0].span if em.rs.ends
                                                           else None, word="no legal ply")
        if uses(cond, "no legal ply") and not stuck_known:
            em.emit(1, "stuck = not has_move(b)" if changed else "stuck = not moves and not has_move(b)")
            stuck_known = True
        if end is None:
            em.emit(1, "if stuck:")
            em.emit(2, f"b[{L.OUT}] = 1 - b[{L.P}]")
            em.emit(2, "return tuple(b)")
            continue
        em.emit(1, f"if {'not settle and ' if end.result == 'effects' else ''}{em.expr(cond, cx)}:")
        if end.result == "effects":
            # The game goes on, changed; the rules below see the changed position.
            changed = True
            for eff in end.effects:
                emit_end_effect(em, eff, cx)
            if stuck_known:
                em.emit(2, "stuck = not has_move(b)")
            continue
        if end.result == "draw":
            em.emit(2, f"b[{L.OUT}] = {L.players}")
        elif end.result == "wins":
            em.emit(2, f"b[{L.OUT}] = {em.expr(end.player, cx)}")
        else:
            em.emit(2, f"b[{L.OUT}] = 1 - {em.expr(end.player, cx)}")
        em.emit(2, "return tuple(b)")
    em.emit(1, f"b[{L.OUT}] = -1")
    em.emit(1, "return tuple(b)")
    em.emit(0, "")


def emit_end_effect(em: Emitter, eff: m.Effect, cx: Ctx) -> None:
    L = em.L
    if eff.kind == "reset":
        em.emit(2, f"b[:{L.types}] = SETUP")
        for slot in L.reserve_offsets.values():
            em.emit(2, f"b[{slot}] = INITIAL[{slot}]")
    elif eff.kind == "turn":
        em.emit(2, f"b[{L.P}] = {em.expr(eff.player, cx)}")
        em.emit(2, f"b[{L.PH}] = TURN_START")
    else:
        emit_assign(em, eff, cx, 2)


def assign_target(em: Emitter, eff: m.Effect, cx: Ctx) -> str:
    slot = em.L.var_offsets[eff.var]
    if eff.index is None:
        return f"{cx.s}[{slot}]"
    idx = em.expr(eff.index, cx)
    return f"{cx.s}[{slot + int(idx)}]" if idx.isdigit() else f"{cx.s}[{slot} + {idx}]"


def emit_pass(em: Emitter, p: int) -> None:
    """The `pass` ply of player `p`: nothing moves; the effects after each ply still apply."""
    em.emit(0, f"def pass_{p}(s, a):")
    em.emit(1, "here = frm = 0")
    emit_captured(em, None, p, None)
    em.emit(1, "b = list(s)")
    emit_effects(em, None, p)
    em.emit(1, f"return finish_{p}(b, s[{em.L.PH}])")
    em.emit(0, "")


def emit_finish(em: Emitter, p: int, name: str, ends: str, skips: bool) -> None:
    """After a ply by `p`: the next phase (or the other player's turn), then the end rules."""
    L = em.L
    em.emit(0, f"def {name}(b, ph):")
    em.emit(1, "nph = NEXT[ph]")
    em.emit(1, "if nph < 0:")
    em.emit(2, f"b[{L.P}] = {1 - p}")
    em.emit(2, f"b[{L.PH}] = TURN_START")
    em.emit(1, "else:")
    em.emit(2, f"b[{L.P}] = {p}")
    em.emit(2, f"b[{L.PH}] = nph")
    em.emit(1, f"return {ends}(b, _skip(b))" if skips else f"return {ends}(b)")
    em.emit(0, "")
