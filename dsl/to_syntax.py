"""The Lark parse tree of one declaration -> its syntax tree (dsl/syntax.py), with spans."""

from __future__ import annotations

from typing import TypeVar

from lark import Token, Transformer, v_args
from lark.tree import Meta

from dsl import constructs
from dsl import syntax as syn

D = TypeVar("D", bound=syn.Decl)

MAX_NUMBER = 1_000_000_000


class NumberTooLarge(Exception):
    """A number past MAX_NUMBER: `text` is how it is shown (clipped)."""

    def __init__(self, span: syn.Span, text: str):
        self.span, self.text = span, text


def _through(first: syn.Span, last: syn.Span) -> syn.Span:
    """The span from the start of `first` to the end of `last`."""
    return syn.Span(first.file, first.line, first.col, last.end_line, last.end_col)


class ToSyntax(Transformer):
    """Builds the syntax tree's nodes; `line_offset` maps chunk lines back to file lines."""

    def __init__(self, path: str, line_offset: int):
        super().__init__()
        self.path = path
        self.offset = line_offset

    # ---- positions
    def tok_span(self, tok: Token) -> syn.Span:
        """The file span of a token."""
        return syn.Span(self.path, tok.line + self.offset, tok.column,
                      tok.end_line + self.offset, tok.end_column)

    def meta_span(self, meta: Meta) -> syn.Span:
        """The file span of a rule's match (the declaration's first character when it matched nothing)."""
        if getattr(meta, "empty", True):
            return syn.Span(self.path, self.offset + 1, 1, self.offset + 1, 2)
        return syn.Span(self.path, meta.line + self.offset, meta.column,
                      meta.end_line + self.offset, meta.end_column)

    def to_int(self, tok: Token) -> int:
        """A NUMBER token's value; raises NumberTooLarge past MAX_NUMBER."""
        if len(tok) > 10 or int(tok) > MAX_NUMBER:
            raise NumberTooLarge(self.tok_span(tok), str(tok) if len(tok) < 20 else str(tok)[:16] + "...")
        return int(tok)

    def named(self, tok: Token) -> tuple[str, syn.Span]:
        return (str(tok), self.tok_span(tok))

    def named_decl(self, cls: type[D], meta: Meta, name: Token, **fields: object) -> D:
        """A declaration of `cls` named by the token `name`."""
        return cls(self.meta_span(meta), name=str(name), name_span=self.tok_span(name), **fields)

    # ---- declarations
    def start(self, c):
        new, decl = c
        decl.is_new = new is not None
        return decl

    @v_args(meta=True)
    def game_decl(self, meta, c):
        return syn.GameDecl(self.meta_span(meta), title=c[0][1:-1])

    @v_args(meta=True)
    def variant_decl(self, meta, c):
        decl = syn.VariantDecl(self.meta_span(meta), base=c[0][1:-1])
        decl.base_span = self.tok_span(c[0])  # the quoted base, where errors about it point
        return decl

    @v_args(meta=True)
    def board_decl(self, meta, c):
        shape, width, height, options = c
        return syn.BoardDecl(self.meta_span(meta), shape=str(shape), width=self.to_int(width),
                           height=self.to_int(height) if height is not None else None,
                           options=options or [])

    @v_args(meta=True)
    def remove_decl(self, meta, c):
        return syn.RemoveDecl(self.meta_span(meta), cells=c[0])

    @v_args(meta=True)
    def goal_decl(self, meta, c):
        return self.named_decl(syn.GoalDecl, meta, c[0], cells=c[1], dirs=c[2])

    @v_args(meta=True)
    def link_decl(self, meta, c):
        return syn.LinkDecl(self.meta_span(meta), a=self.named(c[0]), b=self.named(c[1]),
                            by=self.named(c[2]) if c[2] is not None else None)

    @v_args(meta=True)
    def players_decl(self, meta, c):
        return syn.PlayersDecl(self.meta_span(meta), names=c[0])

    @v_args(meta=True)
    def region_decl(self, meta, c):
        return self.named_decl(syn.RegionDecl, meta, c[0], items=c[1],
                               per_player=list(c[1:]) if len(c) > 2 else [])

    @v_args(meta=True)
    def piece_decl(self, meta, c):
        decl = self.named_decl(syn.PieceDecl, meta, c[0])
        for attribute, value in c[1:]:  # (attribute, value): what the callbacks below give
            setattr(decl, attribute, value)
        return decl

    def owner(self, c):
        return ("owner", self.named(c[0]))

    def neutral(self, c):
        return ("neutral", True)

    def size(self, c):
        return ("size", self.to_int(c[0]))

    def reserve(self, c):
        return ("reserve", self.to_int(c[0]))

    def on(self, c):
        return ("on", self.named(c[0]))

    def counted(self, c):
        return ("counted", True)

    def symbol(self, c):
        symbols = []
        for tok in c:
            if tok is not None:
                text = str(tok)[1:-1] if tok.type == "STRING" else str(tok)
                symbols.append((text, self.tok_span(tok)))
        return ("symbols", symbols)

    def colour(self, c):
        return ("colours", [self.named(t) for t in c])

    def shape(self, c):
        return ("shapes", [self.named(t) for t in c])

    @v_args(meta=True)
    def var_decl(self, meta, c):
        name, per_player, value, low, high = c
        bounds = {} if low is None else {"low": low, "high": high, "declared_range": True}
        return self.named_decl(syn.VarDecl, meta, name, per_player=per_player is not None,
                               initial=value, **bounds)

    def per_player(self, c):
        return True

    def signed_number(self, c):
        neg, num = c
        value = self.to_int(num)
        return -value if neg is not None else value

    @v_args(meta=True)
    def setup_decl(self, meta, c):
        piece, owner, each, cells = c
        return syn.SetupDecl(self.meta_span(meta), piece=str(piece), piece_span=self.tok_span(piece),
                           owner=self.named(owner) if owner is not None else None,
                           items=None if cells == "rest" else cells, each=each)

    def each_on(self, c):
        return self.to_int(c[0])

    @v_args(meta=True)
    def track_decl(self, meta, c):
        return self.named_decl(syn.TrackDecl, meta, c[0], cells=c[1])

    @v_args(meta=True)
    def setup_board(self, meta, c):
        return syn.SetupBoardDecl(self.meta_span(meta),
                                rows=[(str(t)[1:-1], self.tok_span(t)) for t in c])

    @v_args(meta=True)
    def relation_decl(self, meta, c):
        return self.named_decl(syn.RelationDecl, meta, c[0], pairs=list(c[1:]))

    @v_args(meta=True)
    def direction_decl(self, meta, c):
        return self.named_decl(syn.DirectionDecl, meta, c[0], per_player=list(c[1:]))

    def relation_pair(self, c):
        return (self.named(c[0]), self.named(c[1]))

    @v_args(meta=True)
    def compulsory_decl(self, meta, c):
        return syn.CompulsoryDecl(self.meta_span(meta), maximum=c[0] is not None)

    @v_args(meta=True)
    def after_decl(self, meta, c):
        return syn.AfterDecl(self.meta_span(meta), effects=list(c))

    def setup_rest(self, c):
        return "rest"

    @v_args(meta=True)
    def ply_decl(self, meta, c):
        name, (owner, kind, kind_span, motion), onto, where, then = c
        return self.named_decl(syn.PlyDecl, meta, name, owner=owner, kind=kind, kind_span=kind_span,
                               motion=motion, onto=onto, where=where, effects=then or [])

    def move_action(self, c):
        return c[0] + (c[1],)

    def selector(self, c):
        owner, kind = c
        return (owner, str(kind), self.tok_span(kind))

    def owner_q(self, c):
        return str(c[0])

    # ---- constructs: a motion's or an effect's rule is built by its construct (dsl/constructs)
    def __default__(self, data, children, meta):
        construct = constructs.SYNTAX.get(data) or constructs.EFFECTS.get(data)
        if construct is None:
            return super().__default__(data, children, meta)
        return construct.to_syntax(self, self.meta_span(meta), children)

    def onto(self, c):
        return c[0]

    def where(self, c):
        return c[0]

    def then(self, c):
        return list(c)

    def assign_op(self, c):
        return str(c[0])

    @v_args(meta=True)
    def turn_decl(self, meta, c):
        return syn.TurnDecl(self.meta_span(meta), first=c[0] is not None, phases=list(c[1:]))

    @v_args(meta=True)
    def phase(self, meta, c):
        when_possible = c[-1] is not None
        items = [self.named(t) for t in c[:-1]]
        return syn.Phase(self.meta_span(meta), items, when_possible)

    def when_possible(self, c):
        return True

    @v_args(meta=True)
    def end_decl(self, meta, c):
        name, _, before, (result, player, *plural), cond = c
        effects = player if result == "effects" else []
        return self.named_decl(syn.EndDecl, meta, name, result=result,
                               player=None if effects else player, cond=cond, effects=effects,
                               before=self.named(before) if before is not None else None,
                               plural=bool(plural and plural[0]))

    def player_ref(self, tok: Token) -> syn.Expr:
        if tok.type == "NAME":
            return syn.Name(self.tok_span(tok), name=str(tok))
        return syn.Keyword(self.tok_span(tok), word=str(tok))

    def wins(self, c):
        return ("wins", self.player_ref(c[0]), str(c[1]) == "win")

    def loses(self, c):
        return ("loses", self.player_ref(c[0]), str(c[1]) == "lose")

    def draw(self, c):
        return ("draw", None)

    def end_effects(self, c):
        return ("effects", list(c))

    # A drop's target is the key (syntax.py) of the declaration it drops.
    @v_args(meta=True)
    def drop_named(self, meta, c):
        what, name = c
        return syn.DropDecl(self.meta_span(meta), what=what, name=str(name),
                          name_span=self.tok_span(name), target=(what, str(name)))

    def droppable(self, c):
        return str(c[0])

    def undroppable(self, c):
        return str(c[0])

    @v_args(meta=True)
    def drop_link(self, meta, c):
        a, b = str(c[0]), str(c[1])
        return syn.DropDecl(self.meta_span(meta), what="link", name=f"{a} -- {b}",
                          name_span=_through(self.tok_span(c[0]), self.tok_span(c[1])),
                          target=("link", "--".join(sorted((a, b)))))

    @v_args(meta=True)
    def drop_remove(self, meta, c):
        cells = c[0]
        return syn.DropDecl(self.meta_span(meta), what="remove",
                          name=", ".join(name for name, _ in cells),
                          name_span=_through(cells[0][1], cells[-1][1]),
                          target=("remove", ",".join(name for name, _ in cells)))

    @v_args(meta=True)
    def drop_setup(self, meta, c):
        piece, owner = c
        name = str(piece) + (f" of {owner}" if owner is not None else "")
        return syn.DropDecl(self.meta_span(meta), what="setup", name=name,
                          name_span=_through(self.tok_span(piece),
                                             self.tok_span(owner if owner is not None else piece)),
                          target=("setup", str(piece) + (f"/{owner}" if owner is not None else "")))

    def _drop_whole(self, meta: Meta, what: str, name: str = "") -> syn.DropDecl:
        """`drop` of a declaration named by its keywords alone: the whole line is its name."""
        span = self.meta_span(meta)
        return syn.DropDecl(span, what=what, name=name, name_span=span, target=(what, name))

    @v_args(meta=True)
    def drop_setup_board(self, meta, c):
        return self._drop_whole(meta, "setup", "board")

    @v_args(meta=True)
    def drop_compulsory(self, meta, c):
        return self._drop_whole(meta, "compulsory")

    @v_args(meta=True)
    def drop_after(self, meta, c):
        return self._drop_whole(meta, "after")

    @v_args(meta=True)
    def drop_first_turn(self, meta, c):
        return self._drop_whole(meta, "turn", "first")

    @v_args(meta=True)
    def drop_required(self, meta, c):
        return self._drop_whole(meta, c[0])

    def board_options(self, c):
        return list(c)

    def board_option(self, c):
        first, last = self.tok_span(c[0]), self.tok_span(c[-1])
        return (" ".join(map(str, c)), syn.Span(first.file, first.line, first.col, last.end_line, last.end_col))

    def name_list(self, c):
        return [self.named(t) for t in c]

    def expr_list(self, c):
        return list(c)

    # ---- expressions
    @v_args(meta=True)
    def or_(self, meta, c):
        return syn.BoolOp(self.meta_span(meta), op="or", left=c[0], right=c[1])

    @v_args(meta=True)
    def and_(self, meta, c):
        return syn.BoolOp(self.meta_span(meta), op="and", left=c[0], right=c[1])

    @v_args(meta=True)
    def not_(self, meta, c):
        return syn.Not(self.meta_span(meta), operand=c[0])

    @v_args(meta=True)
    def compare(self, meta, c):
        return syn.Compare(self.meta_span(meta), op=str(c[1]), left=c[0], right=c[2])

    @v_args(meta=True)
    def within(self, meta, c):
        return syn.Compare(self.meta_span(meta), op="in", left=c[0], right=c[1])

    @v_args(meta=True)
    def binop(self, meta, c):
        return syn.BinOp(self.meta_span(meta), op=str(c[1]), left=c[0], right=c[2])

    @v_args(meta=True)
    def negate(self, meta, c):
        return syn.Negate(self.meta_span(meta), operand=c[0])

    def number(self, c):
        return syn.Num(self.tok_span(c[0]), value=self.to_int(c[0]))

    @v_args(meta=True)
    def name(self, meta, c):
        return syn.Name(self.tok_span(c[0]), name=str(c[0]))

    @v_args(meta=True)
    def index(self, meta, c):
        return syn.Index(self.meta_span(meta), name=str(c[0]), index=c[1])

    @v_args(meta=True)
    def call(self, meta, c):
        return syn.Call(self.meta_span(meta), func=str(c[0]), args=c[1] or [])

    @v_args(meta=True)
    def owned(self, meta, c):
        if len(c) == 1:
            return syn.Owned(self.meta_span(meta), owner=None, kind="piece")
        return syn.Owned(self.meta_span(meta), owner=c[0], kind=str(c[1]))

    @v_args(meta=True)
    def keyword(self, meta, c):
        word = " ".join(str(c[0]).split())
        return syn.Keyword(self.tok_span(c[0]), word=word)
