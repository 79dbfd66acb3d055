"""The checked game model: what `check` returns and every back-end reads.

Plain data (read-only by convention: dataclasses without `frozen`, which would cost
startup time), independent of any back-end: names resolved (cells to cell sets, kinds
and owners to piece selections, variables, plies, directions to their labels),
every expression typed, motions and effects one class each, end rules with a typed
outcome. Every node keeps the span of the text it comes from. dsl/dump.py prints a model.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Iterator

from dsl import board as boards
from dsl.syntax import Span


class Type(Enum):
    NUMBER = "number"
    BOOL = "bool"
    PLAYER = "player"
    CELLS = "cells"
    DIRS = "dirs"
    PLY = "ply"
    FLAG = "flag"


class Owner(Enum):
    """Whose pieces a selection means, relative to the player moving."""

    ANY = "any"  # `man`, `piece`: every owner, neutral too
    OWN = "own"
    OPPONENT = "opponent's"
    OWN_OR_NEUTRAL = "own or neutral"  # a ply's `move man`: the mover's or nobody's


class Word(Enum):
    """The keywords that are values: cells of the ply, the position, the previous ply."""

    HERE = "here"
    FROM = "from"
    PATH = "path"
    EMPTY = "empty"
    CAPTURED = "captured"
    STUCK = "no legal ply"
    LAST_FROM = "last_from"
    LAST_TO = "last_to"
    MOVER = "mover"
    OPPONENT = "opponent"
    NEXT = "next"

    @property
    def type(self) -> Type:
        if self in (Word.MOVER, Word.OPPONENT, Word.NEXT):
            return Type.PLAYER
        return {Word.CAPTURED: Type.NUMBER, Word.STUCK: Type.BOOL}.get(self, Type.CELLS)


# ---------------------------------------------------------------- expressions

@dataclass(eq=False)
class Expr:
    span: Span | None

    @property
    def type(self) -> Type:
        raise NotImplementedError


@dataclass(eq=False)
class Num(Expr):
    value: int

    type = Type.NUMBER  # type: ignore[assignment]


@dataclass(eq=False)
class Player(Expr):
    """A player named in the rules (its index)."""

    index: int

    type = Type.PLAYER  # type: ignore[assignment]


@dataclass(eq=False)
class Cells(Expr):
    """A fixed set of cells: a cell, a region, or an expression of them."""

    mask: int
    label: str  # the cell's or region's name, for people

    type = Type.CELLS  # type: ignore[assignment]


@dataclass(eq=False)
class Pieces(Expr):
    """The cells holding pieces of a kind (None: every kind) of some owner, or of one named
    player (`player`: `Red's stone`)."""

    kind: str | None
    owner: Owner
    player: int | None = None

    type = Type.CELLS  # type: ignore[assignment]


@dataclass(eq=False)
class Ref(Expr):
    """A keyword value: here, from, path, empty, captured, mover, ..."""

    word: Word

    @property
    def type(self) -> Type:
        return self.word.type


@dataclass
class VarRead(Expr):
    """A variable's value; `index` names the player of a per-player variable."""

    var: str
    index: Expr | None = None

    type = Type.NUMBER  # type: ignore[assignment]


@dataclass(eq=False)
class RegionOf(Expr):
    """One player's cells of a region declared per player: `store[mover]`."""

    name: str
    masks: tuple[int, ...]  # each player's, in the order of `players`
    player: Expr

    type = Type.CELLS  # type: ignore[assignment]


@dataclass(eq=False)
class Amount(Expr):
    """How many pieces of a counted kind stand on the cells: `seed[CELLS]`."""

    kind: str
    cells: Expr

    type = Type.NUMBER  # type: ignore[assignment]


@dataclass(eq=False)
class Dirs(Expr):
    """Direction labels (a group resolved), as a function's argument."""

    labels: tuple[str, ...]

    type = Type.DIRS  # type: ignore[assignment]


@dataclass(eq=False)
class PlyName(Expr):
    """A ply rule named as an argument (last_ply, undoes), or `pass`."""

    name: str

    type = Type.PLY  # type: ignore[assignment]


@dataclass(eq=False)
class Flag(Expr):
    """A word as an argument: line()'s `contiguous`, back_along()'s track by name."""

    name: str

    type = Type.FLAG  # type: ignore[assignment]


@dataclass(eq=False)
class Call(Expr):
    """A built-in function (dsl.constructs.functions) applied to its arguments."""

    func: str
    args: tuple[Expr, ...]
    result: Type

    @property
    def type(self) -> Type:
        return self.result


@dataclass(eq=False)
class Relate(Expr):
    """A declared relation applied to cells: the cells of the pieces theirs relate to."""

    relation: str
    pairs: tuple[tuple[str, str], ...]  # (kind, kind it relates to)
    arg: Expr

    type = Type.CELLS  # type: ignore[assignment]


@dataclass(eq=False)
class Binary(Expr):
    """Numbers: + - *; cells: & | - (intersection, union, difference)."""

    op: str
    left: Expr
    right: Expr
    result: Type

    @property
    def type(self) -> Type:
        return self.result


@dataclass(eq=False)
class Compare(Expr):
    op: str  # == != < <= > >=, or `in` (every cell of the left in the right, and some)
    left: Expr
    right: Expr

    type = Type.BOOL  # type: ignore[assignment]


@dataclass(eq=False)
class BoolOp(Expr):
    op: str  # and, or
    left: Expr
    right: Expr

    type = Type.BOOL  # type: ignore[assignment]


@dataclass(eq=False)
class Not(Expr):
    operand: Expr

    type = Type.BOOL  # type: ignore[assignment]


@dataclass(eq=False)
class Negate(Expr):
    operand: Expr

    type = Type.NUMBER  # type: ignore[assignment]


def children(node: object) -> list[Expr]:
    """The direct subexpressions of a node (one generic walk serves every analysis)."""
    out: list[Expr] = []
    for f in dataclasses.fields(node):  # type: ignore[arg-type]
        value = getattr(node, f.name)
        if isinstance(value, Expr):
            out.append(value)
        elif isinstance(value, tuple):
            out.extend(x for x in value if isinstance(x, Expr))
    return out


def walk(expr: Expr | None) -> Iterator[Expr]:
    """Every node of `expr`, parents before children (nothing for None)."""
    stack = [expr] if expr is not None else []
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(children(node)))


def subset_of(e: Expr, leaf: Callable[[Expr], bool]) -> bool:
    """Whether the cells `e` names always lie among those of the atoms `leaf` accepts
    (carried through `&`, `-` and `|`)."""
    if isinstance(e, Binary):
        if e.op == "&":
            return subset_of(e.left, leaf) or subset_of(e.right, leaf)
        if e.op == "-":
            return subset_of(e.left, leaf)
        if e.op == "|":
            return subset_of(e.left, leaf) and subset_of(e.right, leaf)
        return False
    return leaf(e)


def mentions(expr: Expr | None, *words: Word) -> bool:
    """Whether `expr` reads any of the keywords `words`."""
    return any(isinstance(n, Ref) and n.word in words for n in walk(expr))


# ---------------------------------------------------------------- motions

@dataclass(eq=False)
class Motion:
    """How a ply's piece moves: one subclass per motion, defined in its construct module
    (dsl/constructs/step.py's `Step`, ...)."""

    span: Span

    name = ""  # the motion's keyword


# ---------------------------------------------------------------- effects

@dataclass(eq=False)
class Effect:
    span: Span


@dataclass(eq=False)
class Assign(Effect):
    var: str
    index: Expr | None  # the player, for a per-player variable
    op: str  # =, +=, -=
    value: Expr
    guard: Expr | None = None  # `when COND`


@dataclass(eq=False)
class SetCount(Effect):
    """`seed[CELLS] op VALUE [when COND]`: each cell's count of a counted kind changed."""

    kind: str
    cells: Expr
    op: str  # =, +=, -=
    value: Expr
    guard: Expr | None = None


@dataclass(eq=False)
class Remove(Effect):
    """A ply's `remove CELLS`: taken off the board as the ply is made."""

    cells: Expr


@dataclass(eq=False)
class Promote(Effect):
    """`promote CELLS to KIND`: the pieces on CELLS become pieces of KIND, of the same owner."""

    cells: Expr
    kind: str


@dataclass(eq=False)
class Reset(Effect):
    """An end rule's `reset setup`: the pieces and reserves as at the start."""


@dataclass(eq=False)
class TurnTo(Effect):
    player: Expr


# ---------------------------------------------------------------- rules

@dataclass(eq=False)
class Ply:
    """A ply rule: which pieces move (or are placed), how, where to, on what condition."""

    span: Span
    name: str
    owner: Owner | int  # a player's index: that player's pieces (`Red's man`)
    kind: str | None  # None: every kind
    motion: Motion
    onto: Expr  # `empty` when not written
    where: Expr | None
    effects: tuple[Effect, ...]
    # A rule that names a player's own direction (`direction forward: n / s`): the rule as
    # each player makes it, directions resolved (this one reads as player 0's); () otherwise.
    players: tuple[Ply, ...] = ()

    def for_player(self, p: int) -> Ply:
        """The rule as player `p` makes it (its own directions resolved)."""
        return self.players[p] if self.players else self

    def variants(self) -> tuple[Ply, ...]:
        """The rule as each player makes it, or the rule alone when it is the same for all."""
        return self.players or (self,)

    def removals(self) -> list[Expr]:
        return [e.cells for e in self.effects if isinstance(e, Remove)]

    def assigns(self) -> list[Assign]:
        return [e for e in self.effects if isinstance(e, Assign)]

    def after_effects(self) -> list[Effect]:
        """The effects made on the position after the ply, in order (a `remove` is made
        with the move itself)."""
        return [e for e in self.effects if not isinstance(e, Remove)]


class Outcome(str, Enum):
    WINS = "wins"
    LOSES = "loses"
    DRAW = "draw"
    GOES_ON = "effects"  # the game goes on, changed by the rule's effects


@dataclass(eq=False)
class End:
    span: Span
    name: str
    outcome: Outcome
    player: Expr | None  # who wins or loses; None for a draw and for effects
    cond: Expr
    effects: tuple[Effect, ...] = ()
    plural: bool = False  # written `Musketeers win`: results say `win` for that player


@dataclass
class PieceType:
    """A kind as owned by one player (or neutral): what a board bitmask holds."""

    kind: str
    owner: int | None
    symbol: str
    size: int
    level: int = 0  # 0 on the board; 1 standing on a level-0 piece (`on KIND`); ...
    carrier: int | None = None  # the type this one stands on
    reserve: int | None = None  # pieces each owner holds off the board; None: no limit
    span: Span | None = None  # the piece declaration
    # A kind covering several cells that `place` puts down whole and nothing moves: its
    # type holds the cells its pieces cover (size 1), and a placement covers `cover` cells.
    cover: int = 1
    colour: str | None = None  # how pictures draw it (dsl.pictures.COLOURS); None: by owner
    shape: str = "disc"  # dsl.pictures.SHAPES
    counted: int = 0  # a counted kind's most pieces on a cell (the setup's total); 0: one at most


@dataclass
class Var:
    span: Span
    name: str
    per_player: bool
    initial: int
    low: int
    high: int


@dataclass
class TurnPhase:
    plies: list[str]  # ply rule names (resolved from `any`)
    allows_pass: bool
    when_possible: bool
    span: Span | None = None  # the phase in its turn declaration (None: the default turn)


class Compulsory(str, Enum):
    ANY = "any"  # a ply that captures, if there is one
    MAXIMUM = "maximum"  # one that captures most


@dataclass
class Ruleset:
    """A checked game: everything a back-end needs, names resolved, types known."""

    title: str
    path: str
    board: boards.Board
    players: list[str]
    types: list[PieceType]
    regions: dict[str, frozenset[int]]
    vars: list[Var]
    setup: dict[int, list[int]]  # piece type -> cells
    plies: list[Ply]
    first_turn: list[TurnPhase] | None
    turn: list[TurnPhase]
    ends: list[End]
    sources: dict[str, str] = field(default_factory=dict)
    # The plies (and `pass`) a state remembers for last_ply, last_from, last_to (dsl.memory).
    remembers: frozenset[str] = frozenset()
    relations: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    compulsory: Compulsory | None = None
    after: list[Effect] = field(default_factory=list)  # after each ply
    warnings: list = field(default_factory=list)  # what checks, yet likely is not meant (dsl/lint.py)
    counts: dict[int, dict[int, int]] = field(default_factory=dict)  # counted type -> cell -> start
    tracks: dict[str, tuple[int, ...]] = field(default_factory=dict)  # `track NAME: cells` in order
    player_regions: dict[str, tuple[int, ...]] = field(default_factory=dict)  # each player's mask

    def promotions(self, kind: str) -> list[tuple[int, int]]:
        """(type, its new type) for `promote ... to KIND`: each one-cell piece on the board of
        another kind whose owner (or neutral) has a type of KIND."""
        target = {t.owner: i for i, t in enumerate(self.types) if t.kind == kind}
        return [(i, target[t.owner]) for i, t in enumerate(self.types)
                if t.kind != kind and t.size == 1 and t.cover == 1 and t.level == 0
                and t.carrier is None and t.owner in target]

    def types_of(self, kind: str | None, owner: int | None | str = "any") -> list[int]:
        """Piece type indices of a kind (None: every kind), for one owner or any."""
        return [i for i, t in enumerate(self.types)
                if (kind is None or t.kind == kind) and (owner == "any" or t.owner == owner)]

    def selected(self, kind: str | None, owner: Owner | int, player: int) -> list[int]:
        """The piece types a selection means when `player` moves (`Red's`: an index)."""
        if owner is Owner.ANY:
            return self.types_of(kind)
        owners = {Owner.OWN: [player], Owner.OWN_OR_NEUTRAL: [player, None],
                  Owner.OPPONENT: [q for q in range(len(self.players)) if q != player]}.get(owner, [owner])
        return [t for o in owners for t in self.types_of(kind, o)]
