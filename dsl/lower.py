"""The checked syntax tree -> the game model (dsl.ir): names resolved, types fixed.

Runs after every check passed, so each expression here has its type and each name
what it denotes (the checker's findings); nothing here can fail.
"""

from __future__ import annotations

from . import board as boards
from . import constructs
from .constructs import effects
from . import ir
from . import model as m

_OWNED = {"own": ir.Owner.OWN, "opponent's": ir.Owner.OPPONENT, None: ir.Owner.ANY}
_MOVED = {"own": ir.Owner.OWN, "opponent's": ir.Owner.OPPONENT, None: ir.Owner.OWN_OR_NEUTRAL}


class Lowering:
    def __init__(self, board: boards.Board, regions: dict[str, frozenset[int]],
                 relations: dict[str, list[tuple[str, str]]], typed: dict[int, str | None],
                 refs: dict[int, tuple]):
        self.board, self.regions, self.relations = board, regions, relations
        self.typed, self.refs = typed, refs  # the checker's findings, by node

    def expr(self, e: m.Expr) -> ir.Expr:
        s = e.span
        if isinstance(e, m.Num):
            return ir.Num(s, int(e.value))
        if isinstance(e, m.Name):
            return self.name(e)
        if isinstance(e, m.Keyword):
            return ir.Ref(s, ir.Word(e.word))
        if isinstance(e, m.Owned):
            return ir.Pieces(s, None if e.kind == "piece" else e.kind, _OWNED[e.owner])
        if isinstance(e, m.Index):
            return ir.VarRead(s, e.name, self.expr(e.index))
        if isinstance(e, m.Call):
            if e.func in self.relations:
                return ir.Relate(s, e.func, tuple(self.relations[e.func]), self.expr(e.args[0]))
            return ir.Call(s, e.func, tuple(self.expr(a) for a in e.args), ir.Type(self.typed[id(e)]))
        if isinstance(e, m.BinOp):
            return ir.Binary(s, e.op, self.expr(e.left), self.expr(e.right), ir.Type(self.typed[id(e)]))
        if isinstance(e, m.Compare):
            return ir.Compare(s, e.op, self.expr(e.left), self.expr(e.right))
        if isinstance(e, m.BoolOp):
            return ir.BoolOp(s, e.op, self.expr(e.left), self.expr(e.right))
        if isinstance(e, m.Not):
            return ir.Not(s, self.expr(e.operand))
        if isinstance(e, m.Negate):
            return ir.Negate(s, self.expr(e.operand))
        raise AssertionError(e)

    def name(self, e: m.Name) -> ir.Expr:
        kind, val = self.refs[id(e)]
        s = e.span
        if kind == "cell":
            return ir.Cells(s, 1 << int(val), e.name)
        if kind == "region":
            return ir.Cells(s, sum(1 << c for c in self.regions[val]), e.name)
        if kind == "kind":
            return ir.Pieces(s, val, ir.Owner.ANY)
        if kind == "player":
            return ir.Player(s, int(val))
        if kind == "var":
            return ir.VarRead(s, val)
        if kind == "dirs":
            return ir.Dirs(s, tuple(val))
        if kind == "ply":
            return ir.PlyName(s, val)
        if kind == "flag":
            return ir.Flag(s, val)
        raise AssertionError(kind)

    def opt(self, e: m.Expr | None) -> ir.Expr | None:
        return None if e is None else self.expr(e)

    def dirs(self, dirs: list[tuple[str, m.Span]] | None) -> tuple[str, ...] | None:
        return tuple(self.board.resolve_dirs([d for d, _ in dirs])) if dirs else None

    def motion(self, mo: m.Motion) -> ir.Motion:
        return constructs.SYNTAX[mo.kind].lower(mo, self.dirs(mo.dirs), self.opt)

    def effect(self, eff: m.Effect) -> ir.Effect:
        return effects.lower(self, eff)

    def ply(self, p: m.PlyDecl) -> ir.Ply:
        onto = self.expr(p.onto) if p.onto is not None else ir.Ref(p.span, ir.Word.EMPTY)
        return ir.Ply(p.span, p.name, _MOVED[p.owner], None if p.kind == "piece" else p.kind,
                      self.motion(p.motion), onto, self.opt(p.where),
                      tuple(self.effect(e) for e in p.effects))

    def end(self, e: m.EndDecl) -> ir.End:
        return ir.End(e.span, e.name, ir.Outcome(e.result), self.opt(e.player), self.expr(e.cond),
                      tuple(self.effect(x) for x in e.effects))

    def var(self, v: m.VarDecl) -> ir.Var:
        return ir.Var(v.span, v.name, v.per_player, v.initial, v.low, v.high)
