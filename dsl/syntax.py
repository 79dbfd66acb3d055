"""The syntax tree of a .game file: declarations and expressions as written, each node
with its source span.

The parser builds these nodes and nothing changes them after: the checker records
what it finds (types, what names denote) beside them, and returns the game model
(dsl/model.py), which is all the back-ends read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# A variable without `in LOW..HIGH` keeps to -VAR_BOUND..VAR_BOUND (as large as a number
# in the source may be), so no value grows without end.
VAR_BOUND = 1_000_000_000


@dataclass(frozen=True)
class Span:
    """Where a node stands in its file (1-based line and column, end exclusive)."""

    file: str
    line: int
    col: int
    end_line: int
    end_col: int


# ---------------------------------------------------------------- expressions

@dataclass(eq=False)
class Expr:
    span: Span


@dataclass(eq=False)
class Num(Expr):
    value: int = 0


@dataclass(eq=False)
class Name(Expr):
    """A bare name: a cell, region, piece kind, player, variable or direction."""

    name: str = ""


@dataclass(eq=False)
class Keyword(Expr):
    """empty, here, from, path, captured, mover, opponent, next, last_from, last_to, or `no legal ply`."""

    word: str = ""


@dataclass(eq=False)
class Owned(Expr):
    """`own man`, `opponent's piece`, or `piece`: cells holding those pieces."""

    owner: str | None = None  # "own", "opponent's" or None (any owner)
    kind: str = "piece"  # a piece kind's name, or "piece" for every kind


@dataclass(eq=False)
class Index(Expr):
    """A per-player variable read for one player: `score[mover]`."""

    name: str = ""
    index: Expr | None = None


@dataclass(eq=False)
class Call(Expr):
    func: str = ""
    args: list[Expr] = field(default_factory=list)


@dataclass(eq=False)
class BinOp(Expr):
    op: str = ""  # + - | * &
    left: Expr | None = None
    right: Expr | None = None


@dataclass(eq=False)
class Compare(Expr):
    op: str = ""  # == != < <= > >=, or `in` (every cell of the left in the right, and some)
    left: Expr | None = None
    right: Expr | None = None


@dataclass(eq=False)
class BoolOp(Expr):
    op: str = ""  # and, or
    left: Expr | None = None
    right: Expr | None = None


@dataclass(eq=False)
class Not(Expr):
    operand: Expr | None = None


@dataclass(eq=False)
class Negate(Expr):
    operand: Expr | None = None


def children(expr: Expr) -> list[Expr]:
    """The direct subexpressions of `expr` (one generic walk serves every analysis)."""
    if isinstance(expr, (BinOp, Compare, BoolOp)):
        return [expr.left, expr.right]
    if isinstance(expr, (Not, Negate)):
        return [expr.operand]
    if isinstance(expr, Index):
        return [expr.index]
    if isinstance(expr, Call):
        return list(expr.args)
    return []


def walk(expr: Expr):
    """Every node of `expr`, parents before children."""
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(children(node)))


# --------------------------------------------------------------- declarations

@dataclass(eq=False)
class Decl:
    span: Span
    is_new: bool = field(default=False, kw_only=True)  # `new ...` in a variant: an addition

    @property
    def key(self) -> tuple[str, str]:
        """What a variant's declaration replaces: the base's one with the same key."""
        raise NotImplementedError


@dataclass(eq=False)
class GameDecl(Decl):
    title: str = ""

    @property
    def key(self):
        return ("game", "")


@dataclass(eq=False)
class VariantDecl(Decl):
    base: str = ""
    base_span: Span | None = None  # the quoted base, where errors about it point

    @property
    def key(self):
        return ("variant", "")


@dataclass(eq=False)
class BoardDecl(Decl):
    shape: str = ""
    width: int = 0
    height: int | None = None
    options: list[tuple[str, Span]] = field(default_factory=list)

    @property
    def key(self):
        return ("board", "")


@dataclass(eq=False)
class PlayersDecl(Decl):
    names: list[tuple[str, Span]] = field(default_factory=list)

    @property
    def key(self):
        return ("players", "")


@dataclass(eq=False)
class RegionDecl(Decl):
    name: str = ""
    name_span: Span | None = None
    items: list[Expr] = field(default_factory=list)
    per_player: list[list[Expr]] = field(default_factory=list)  # `region NAME: A / B`: each player's

    @property
    def key(self):
        return ("region", self.name)


@dataclass(eq=False)
class PieceDecl(Decl):
    name: str = ""
    name_span: Span | None = None
    owner: tuple[str, Span] | None = None
    neutral: bool = False
    size: int = 1
    reserve: int | None = None  # pieces each owner holds off the board; None: no limit
    on: tuple[str, Span] | None = None  # the kind this one stands on (and rides with)
    symbols: list[tuple[str, Span]] = field(default_factory=list)
    colours: list[tuple[str, Span]] = field(default_factory=list)  # one, or one per owner
    shapes: list[tuple[str, Span]] = field(default_factory=list)
    counted: bool = False  # a cell holds any number of its pieces (`counted`)

    @property
    def key(self):
        return ("piece", self.name)


@dataclass(eq=False)
class VarDecl(Decl):
    name: str = ""
    name_span: Span | None = None
    per_player: bool = False
    initial: int = 0
    low: int = -VAR_BOUND  # var ... in LOW..HIGH: leaving the range is an error
    high: int = VAR_BOUND
    declared_range: bool = False

    @property
    def key(self):
        return ("var", self.name)


@dataclass(eq=False)
class SetupDecl(Decl):
    piece: str = ""
    piece_span: Span | None = None
    owner: tuple[str, Span] | None = None
    items: list[Expr] | None = None  # None: every cell no other setup line names
    each: int | None = None  # `N each on CELLS`: N pieces of a counted kind on every cell

    @property
    def key(self):
        return ("setup", self.piece + ("/" + self.owner[0] if self.owner else ""))


@dataclass(eq=False)
class SetupBoardDecl(Decl):
    """The whole setup drawn as rows of symbols, top to bottom (spaces ignored)."""

    rows: list[tuple[str, Span]] = field(default_factory=list)

    @property
    def key(self):
        return ("setup", "board")


@dataclass(eq=False)
class DirectionDecl(Decl):
    """`direction forward: n / s`: a direction that is each player's own (in `players` order)."""

    name: str = ""
    name_span: Span | None = None
    per_player: list[list[tuple[str, Span]]] = field(default_factory=list)

    @property
    def key(self):
        return ("direction", self.name)


@dataclass(eq=False)
class RelationDecl(Decl):
    """`relation prey: red > white, ...`: declares the function prey(CELLS)."""

    name: str = ""
    name_span: Span | None = None
    pairs: list[tuple[tuple[str, Span], tuple[str, Span]]] = field(default_factory=list)

    @property
    def key(self):
        return ("relation", self.name)


@dataclass(eq=False)
class TrackDecl(Decl):
    """`track around: a1, b1, ...`: a loop of cells in order (what `sow` follows)."""

    name: str = ""
    name_span: Span | None = None
    cells: list[tuple[str, Span]] = field(default_factory=list)

    @property
    def key(self):
        return ("track", self.name)


@dataclass(eq=False)
class CompulsoryDecl(Decl):
    """compulsory [maximum] capture: a filter over the legal plies."""

    maximum: bool = False

    @property
    def key(self):
        return ("compulsory", "")


@dataclass(eq=False)
class AfterDecl(Decl):
    """after each ply: effects applied after every ply, before the end rules."""

    effects: list[Effect] = field(default_factory=list)

    @property
    def key(self):
        return ("after", "")


@dataclass(eq=False)
class MotionSyntax:
    """A ply's motion as written; its construct's module (dsl/constructs) builds it, and
    defines a subclass for what only it has (a slide's `chained`, a push's count)."""

    span: Span
    kind: str  # its construct's name, the motion's keyword (step, slide, ..., place)
    dirs: list[tuple[str, Span]] | None = None  # None: every edge (or no directions at all)
    limit: Expr | None = None  # `... up to N` (slide, walk): a number of the ply, `here` unknown
    cells: Expr | None = None  # `sow ... skipping CELLS`: cells of the ply, `here` unknown
    track: tuple[str, Span] | None = None  # `sow TRACK`: a declared track, by name

@dataclass(eq=False)
class Effect:
    """An effect as written (`var[index] op value`, `remove CELLS`, `reset setup`, `turn to
    PLAYER`); its construct (dsl/constructs/effects.py) builds it."""

    span: Span
    var: str
    var_span: Span
    index: Expr | None
    op: str  # =, +=, -=
    value: Expr | None
    kind: str = "assign"  # its construct's name (assign, remove, ...)
    player: Expr | None = None  # for `turn to`
    guard: Expr | None = None  # `... when COND`: only when it holds


@dataclass(eq=False)
class PlyDecl(Decl):
    name: str = ""
    name_span: Span | None = None
    owner: str | None = None  # "own", "opponent's" or None
    kind: str = "piece"
    kind_span: Span | None = None
    motion: MotionSyntax | None = None
    onto: Expr | None = None
    where: Expr | None = None
    effects: list[Effect] = field(default_factory=list)

    @property
    def key(self):
        return ("ply", self.name)


@dataclass(eq=False)
class Phase:
    span: Span
    plies: list[tuple[str, Span]]  # ply names, or "any" / "pass"
    when_possible: bool = False


@dataclass(eq=False)
class TurnDecl(Decl):
    first: bool = False
    phases: list[Phase] = field(default_factory=list)

    @property
    def key(self):
        return ("turn", "first" if self.first else "")


@dataclass(eq=False)
class EndDecl(Decl):
    name: str = ""
    name_span: Span | None = None
    result: str = ""  # wins, loses, draw, effects (the game goes on, changed)
    player: Expr | None = None  # None for draw and effects
    plural: bool = False  # written `win` or `lose`: the player's name is plural
    cond: Expr | None = None
    effects: list[Effect] = field(default_factory=list)
    before: tuple[str, Span] | None = None  # in a variant: goes just before the base's end rule

    @property
    def key(self):
        return ("end", self.name)


@dataclass(eq=False)
class DropDecl(Decl):
    """`drop ...` in a variant: removes the base's declaration with the key `target`."""

    what: str = ""  # the kind dropped: end, ply, region, ..., or game/board/players/turn (refused)
    name: str = ""  # its name as written ("" for a kind without one, e.g. compulsory capture)
    name_span: Span | None = None  # where the dropped thing is named (the whole line if unnamed)
    target: tuple[str, str] = ("", "")  # the key of the declaration dropped

    @property
    def key(self):
        return self.target


@dataclass(eq=False)
class RemoveDecl(Decl):
    """Board edit: remove cells from the generated board."""

    cells: list[tuple[str, Span]] = field(default_factory=list)

    @property
    def key(self):
        return ("remove", ",".join(c for c, _ in self.cells))


@dataclass(eq=False)
class GoalDecl(Decl):
    """Board edit: an off-board cell entered from `cells` by steps along `dirs`."""

    name: str = ""
    name_span: Span | None = None
    cells: list[tuple[str, Span]] = field(default_factory=list)
    dirs: list[tuple[str, Span]] = field(default_factory=list)

    @property
    def key(self):
        return ("goal", self.name)


@dataclass(eq=False)
class LinkDecl(Decl):
    """Board edit: an extra edge between two cells, with no direction, or `by DIR` (from a
    to b; its opposite back)."""

    a: tuple[str, Span] = ("", None)  # type: ignore[assignment]
    b: tuple[str, Span] = ("", None)  # type: ignore[assignment]
    by: tuple[str, Span] | None = None

    @property
    def key(self):
        return ("link", "--".join(sorted((self.a[0], self.b[0]))))


@dataclass(eq=False)
class Source:
    """One parsed file: its declarations in order, and its text for diagnostics."""

    path: str
    text: str
    decls: list[Decl]
