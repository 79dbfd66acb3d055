"""The checked syntax tree -> the game model (dsl.model): names resolved, types fixed.

Runs after every check passed, so each expression here has its type and each name
what it denotes (the checker's findings); nothing here can fail.
"""

from __future__ import annotations

from dsl import board as boards
from dsl import constructs
from dsl import model
from dsl import syntax as syn

_OWNED = {"own": model.Owner.OWN, "opponent's": model.Owner.OPPONENT, None: model.Owner.ANY}
_MOVED = {"own": model.Owner.OWN, "opponent's": model.Owner.OPPONENT, None: model.Owner.OWN_OR_NEUTRAL}


class Lowering:
    def __init__(self, board: boards.Board, regions: dict[str, frozenset[int]],
                 relations: dict[str, list[tuple[str, str]]], typed: dict[int, str | None],
                 refs: dict[int, tuple], players: list[str], relative: dict[str, list[list[str]]],
                 counted: frozenset[str] = frozenset(),
                 player_regions: dict[str, tuple[int, ...]] | None = None):
        self.board, self.regions, self.relations = board, regions, relations
        self.counted = counted  # the counted kinds: `seed[CELLS]` reads and changes their counts
        self.player_regions = player_regions or {}  # `region NAME: A / B`: each player's cells
        self.players = players
        self.relative = relative  # each player's own directions, by name
        self.as_player = 0  # whose a player's own direction is, while a ply is lowered
        self.relative_used = False
        self.typed, self.refs = typed, refs  # the checker's findings, by node

    def expr(self, e: syn.Expr) -> model.Expr:
        s = e.span
        if isinstance(e, syn.Num):
            return model.Num(s, int(e.value))
        if isinstance(e, syn.Name):
            return self.name(e)
        if isinstance(e, syn.Keyword):
            return model.Ref(s, model.Word(e.word))
        if isinstance(e, syn.Owned):
            kind = None if e.kind == "piece" else e.kind
            if e.owner in _OWNED:
                return model.Pieces(s, kind, _OWNED[e.owner])
            return model.Pieces(s, kind, model.Owner.ANY, self.players.index(e.owner[:-2]))
        if isinstance(e, syn.Index):
            if e.name in self.counted:  # `seed[CELLS]`: the pieces of a counted kind on cells
                return model.Amount(s, e.name, self.expr(e.index))
            if e.name in self.player_regions:  # `store[mover]`: one player's cells
                return model.RegionOf(s, e.name, self.player_regions[e.name], self.expr(e.index))
            return model.VarRead(s, e.name, self.expr(e.index))
        if isinstance(e, syn.Call):
            if e.func in self.relations:
                return model.Relate(s, e.func, tuple(self.relations[e.func]), self.expr(e.args[0]))
            return model.Call(s, e.func, tuple(self.expr(a) for a in e.args), model.Type(self.typed[id(e)]))
        if isinstance(e, syn.BinOp):
            return model.Binary(s, e.op, self.expr(e.left), self.expr(e.right), model.Type(self.typed[id(e)]))
        if isinstance(e, syn.Compare):
            return model.Compare(s, e.op, self.expr(e.left), self.expr(e.right))
        if isinstance(e, syn.BoolOp):
            return model.BoolOp(s, e.op, self.expr(e.left), self.expr(e.right))
        if isinstance(e, syn.Not):
            return model.Not(s, self.expr(e.operand))
        if isinstance(e, syn.Negate):
            return model.Negate(s, self.expr(e.operand))
        raise AssertionError(e)

    def name(self, e: syn.Name) -> model.Expr:
        kind, val = self.refs[id(e)]
        s = e.span
        if kind == "cell":
            return model.Cells(s, 1 << int(val), e.name)
        if kind == "region":
            return model.Cells(s, sum(1 << c for c in self.regions[val]), e.name)
        if kind == "kind":
            return model.Pieces(s, val, model.Owner.ANY)
        if kind == "player":
            return model.Player(s, int(val))
        if kind == "var":
            return model.VarRead(s, val)
        if kind == "dirs":
            return model.Dirs(s, tuple(val))
        if kind == "reldirs":
            self.relative_used = True
            return model.Dirs(s, tuple(self.relative[val][self.as_player]))
        if kind == "ply":
            return model.PlyName(s, val)
        if kind == "flag":
            return model.Flag(s, val)
        raise AssertionError(kind)

    def opt(self, e: syn.Expr | None) -> model.Expr | None:
        return None if e is None else self.expr(e)

    def dirs(self, dirs: list[tuple[str, syn.Span]] | None) -> tuple[str, ...] | None:
        if not dirs:
            return None
        out: list[str] = []
        for d, _ in dirs:
            if d in self.relative:
                self.relative_used = True
            for label in self.relative[d][self.as_player] if d in self.relative else self.board.resolve_dirs([d]):
                if label not in out:
                    out.append(label)
        return tuple(out)

    def motion(self, mo: syn.MotionSyntax) -> model.Motion:
        return constructs.SYNTAX[mo.kind].lower(mo, self.dirs(mo.dirs), self.opt)

    def effect(self, eff: syn.Effect) -> model.Effect:
        return constructs.EFFECTS[eff.kind].lower(self, eff)

    def ply(self, p: syn.PlyDecl) -> model.Ply:
        """The rule; one that names a player's own direction, also as each player makes it."""
        self.as_player, self.relative_used = 0, False
        first = self._ply(p)
        if self.relative_used:
            copies = []
            for i in range(len(self.players)):
                self.as_player = i
                copies.append(self._ply(p))
            first.players = tuple(copies)
        self.as_player, self.relative_used = 0, False
        return first

    def _ply(self, p: syn.PlyDecl) -> model.Ply:
        onto = self.expr(p.onto) if p.onto is not None else self.default_onto(p)
        owner = _MOVED[p.owner] if p.owner in _MOVED else self.players.index(p.owner[:-2])
        return model.Ply(p.span, p.name, owner, None if p.kind == "piece" else p.kind,
                      self.motion(p.motion), onto, self.opt(p.where),
                      tuple(self.effect(e) for e in p.effects))

    def default_onto(self, p: syn.PlyDecl) -> model.Expr:
        """A ply's target without `onto`: its construct's default (empty cells, or all)."""
        if constructs.SYNTAX[p.motion.kind].default_onto == "any":
            return model.Cells(p.span, (1 << len(self.board.names)) - 1, "all cells")
        return model.Ref(p.span, model.Word.EMPTY)

    def end(self, e: syn.EndDecl) -> model.End:
        return model.End(e.span, e.name, model.Outcome(e.result), self.opt(e.player), self.expr(e.cond),
                         tuple(self.effect(x) for x in e.effects), e.plural)

    def var(self, v: syn.VarDecl) -> model.Var:
        return model.Var(v.span, v.name, v.per_player, v.initial, v.low, v.high)
