"""A back-end-neutral statement language for generated code.

A plan is a `Function` of statements over a few expression forms. It names the state's
fields (`Field`), the game's tables (`Index`), the runtime's helpers and the generated
functions (`Call`), and holds the model's own expressions (`ModelExpr`) for the
back-end's expression compiler. The Python printer and the C printer turn one plan into
code of the same meaning; neither adds logic of its own.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Union

from dsl import model


class Slot(enum.Enum):
    """The state fields a plan reads and writes by name (layout.py's P, PH, OUT)."""

    P = "P"  # the player to move
    PH = "PH"  # the phase of the turn
    OUT = "OUT"  # the outcome


class Kind(enum.Enum):
    """What a parameter or a local holds, which fixes its type in a typed back-end."""

    STATE = "state"  # a state the function writes (the caller's copy)
    IN_STATE = "in_state"  # a state the function only reads
    FLAG = "flag"  # a yes/no
    INT = "int"  # a whole number
    PLIES = "plies"  # the plies a function lists (in C, the caller's buffer)


# ---------------------------------------------------------------- expressions
@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Num:
    value: int


@dataclass(frozen=True)
class Field:
    """A state's field: `b[P]`."""

    state: str
    slot: Slot


@dataclass(frozen=True)
class Index:
    """An entry of one of the game's constant tables: `NEXT[ph]`."""

    table: str
    index: Expr


@dataclass(frozen=True)
class Call:
    """A generated function or a runtime helper (the printers know the helpers' names).
    With the callee's `params`, a call may leave out the last ones that have defaults
    (a back-end without default arguments passes them)."""

    func: str
    args: tuple[Expr, ...]
    params: tuple[Param, ...] | None = None


@dataclass(frozen=True)
class Not:
    operand: Expr


@dataclass(frozen=True)
class And:
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Or:
    left: Expr
    right: Expr


@dataclass(frozen=True)
class BinOp:
    """`left op right` for op in + - % < >= ==, the same in both languages."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Context:
    """Where the model's expressions and effects are read: the state's name, the player
    who made the ply, the local that says whether the player to move is stuck, and
    whether `next` is the mover (while plies are generated) or the state's player."""

    state: str
    player: int
    stuck: str | None = None
    next_is_mover: bool = True


@dataclass(frozen=True)
class ModelExpr:
    """An expression of the game model: the back-end's expression compiler writes it."""

    expr: model.Expr
    context: Context


@dataclass(frozen=True)
class Plies:
    """The plies the function has listed (in C, their count: the list is the caller's)."""


@dataclass(frozen=True)
class NoPlies:
    """An empty list of plies (in C, a count of none)."""


Expr = Union[Var, Num, Field, Index, Call, Not, And, Or, BinOp, ModelExpr, Plies, NoPlies]


# ---------------------------------------------------------------- statements
@dataclass(frozen=True)
class Let:
    """A new local: `name = value`."""

    name: str
    kind: Kind
    value: Expr


@dataclass(frozen=True)
class Set:
    """`target = value`, of a local or a state's field."""

    target: Var | Field
    value: Expr


@dataclass(frozen=True)
class If:
    cond: Expr
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...] = ()


@dataclass(frozen=True)
class Return:
    """`return value`; without a value, the state the function wrote is its result."""

    value: Expr | None = None


@dataclass(frozen=True)
class Effects:
    """The model's effects (`then ...` of an end rule), by the back-end's effect writer."""

    effects: tuple[model.Effect, ...]
    context: Context


@dataclass(frozen=True)
class Loop:
    """The body at most `count` times (it leaves by returning)."""

    count: int
    body: tuple[Stmt, ...]


@dataclass(frozen=True)
class Case:
    player: int
    phase: int
    body: tuple[Stmt, ...]  # ends with a Return


@dataclass(frozen=True)
class PhaseSwitch:
    """One body per (player to move, phase) of the state `state`: a function's whole body
    (a back-end may print it as a switch, or as a function per case and a table)."""

    state: str
    phases: int
    cases: tuple[Case, ...]


@dataclass(frozen=True)
class Collect:
    """The plies of a move generator added to the list (`first`: they start it)."""

    func: str
    first: bool


@dataclass(frozen=True)
class AddPass:
    """The pass ply (rule `code`) added to the list (`first`: it starts it)."""

    code: int
    first: bool


@dataclass(frozen=True)
class MustCapture:
    """Compulsory capture on the list of player `player`'s plies in state `state`: if some
    ply takes pieces, only those that do (`maximum`: those that take the most)."""

    state: str
    player: int
    maximum: bool


Stmt = Union[Let, Set, If, Return, Effects, Loop, PhaseSwitch, Collect, AddPass, MustCapture]


@dataclass(frozen=True)
class Param:
    name: str
    kind: Kind
    default: int | None = None  # a caller may leave it out (then 0 / false)


@dataclass(frozen=True)
class Function:
    """A generated function; `state` is the parameter holding the state it writes."""

    name: str
    params: tuple[Param, ...]
    body: tuple[Stmt, ...] = field(default=())
    state: str = "b"
