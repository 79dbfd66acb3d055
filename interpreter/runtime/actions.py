"""The layout of an action tuple, one format per kind of rule, and named records of them.

The compiled code makes and reads actions as plain tuples (the hot path of search);
everything else reads them through a rule's `ActionFormat`, so that the position of
each item is written down once, here:

    move       (rule, piece type, from cell, to cell[, removed])   step, slide, walk, leap,
                                                                   anywhere of a one-cell piece
    placement  (rule, piece type, placement index[, removed])      anywhere of a wider piece
    place      (rule, piece type, cell[, removed])
    wide place (rule, piece type, placement index[, removed])      place of a wider piece
    push       (rule, direction index, far cell, here[, removed])
    chain      (rule, piece type, from cell, final cell, removed)  a chained slide
    pass       (rule,)

`removed` is the mask of the cells whose pieces the ply takes off, present when the
rule has `remove` effects (always for a chain, which goes on only after removing).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields
from operator import itemgetter

class Shape(enum.Enum):
    """What an action of a rule names, after its rule code."""

    MOVE = "move"
    PLACEMENT = "placement"
    PLACE = "place"
    WIDE_PLACE = "wide place"
    PUSH = "push"
    CHAIN = "chain"
    PASS = "pass"


# The record's fields each shape carries, in tuple order after the rule code (`removed`,
# when the rule removes, comes last).
_FIELDS: dict[Shape, tuple[str, ...]] = {
    Shape.MOVE: ("piece", "from_cell", "to_cell"),
    Shape.PLACEMENT: ("piece", "placement"),
    Shape.PLACE: ("piece", "to_cell"),
    Shape.WIDE_PLACE: ("piece", "placement"),
    Shape.PUSH: ("direction", "from_cell", "to_cell"),
    Shape.CHAIN: ("piece", "from_cell", "to_cell"),
    Shape.PASS: (),
}



@dataclass(slots=True)
class ActionRecord:
    """One action with its items named; None where the rule's format has no such item.

    `from_cell` of a push is the far end of the pushed line; `to_cell` of a place is
    where the new piece goes; `placement` indexes `Tables.placement_masks(size)`.
    """

    # Not frozen: a frozen dataclass takes several times as long to make, and notation
    # decodes every legal ply of a position. A record is a fresh copy, never shared.

    rule: int
    piece: int | None = None
    from_cell: int | None = None
    to_cell: int | None = None
    placement: int | None = None
    direction: int | None = None
    removed: int | None = None


_RECORD_FIELDS = tuple(f.name for f in fields(ActionRecord))


@dataclass(frozen=True)
class ActionFormat:
    """How one rule's actions are laid out.

    `many`: the rule can place more than one piece type (its notation names the symbol).
    """

    shape: Shape
    removes: bool = False
    many: bool = False
    # The record's items picked from the action with a None after it (for the fields it
    # lacks) in one C call: notation decodes every legal ply of a position.
    _pick: itemgetter = field(init=False, repr=False, compare=False)
    _width: int = field(init=False, repr=False, compare=False)  # items in an action

    def __post_init__(self) -> None:
        if self.shape is Shape.CHAIN and not self.removes:
            raise ValueError("a chain's actions always carry the cells they remove")
        if self.shape is Shape.PASS and (self.removes or self.many):
            raise ValueError("a pass carries nothing but its rule")
        if self.many and self.shape not in (Shape.PLACE, Shape.WIDE_PLACE):
            raise ValueError("only a place names one of several piece types")
        names = self.fields
        where = [names.index(n) + 1 if n in names else -1 for n in _RECORD_FIELDS[1:]]
        object.__setattr__(self, "_pick", itemgetter(0, *where))
        object.__setattr__(self, "_width", len(names) + 1)

    @property
    def fields(self) -> tuple[str, ...]:
        """The record fields of the items after the rule code, in tuple order."""
        return _FIELDS[self.shape] + (("removed",) if self.removes else ())

    def decode(self, action: tuple[int, ...]) -> ActionRecord:
        """The action's items by name; ValueError if it has the wrong number of items."""
        if len(action) != self._width:
            raise ValueError(f"a {self.shape.value} action has {self._width} items "
                             f"(rule, {', '.join(self.fields)}), found {len(action)}")
        return ActionRecord(*self._pick(action + (None,)))

    def encode(self, record: ActionRecord) -> tuple[int, ...]:
        """The action tuple of `record`; ValueError if it lacks one of this format's fields
        or sets one the format does not have."""
        names = self.fields
        for name in _RECORD_FIELDS[1:]:
            if (getattr(record, name) is None) == (name in names):
                raise ValueError(f"a {self.shape.value} action "
                                 + ("needs" if name in names else "has no") + f" {name}")
        return (record.rule,) + tuple(getattr(record, name) for name in names)


def action_format(action: str, multi: bool = False, removes: bool = False,
                  many: bool = False) -> ActionFormat:
    """The format of a compiled rule's actions: its construct's action shape ("move",
    "place", "push", "chain", or "pass"), whether it moves a piece covering several
    cells (a move or a place then names a placement), removes pieces, and can place several
    piece types."""
    try:
        shape = Shape(action)
    except ValueError:
        known = ", ".join(s.value for s in Shape if s not in (Shape.PLACEMENT, Shape.WIDE_PLACE))
        raise ValueError(f"unknown action shape '{action}' (known: {known})") from None
    if shape is Shape.MOVE and multi:
        shape = Shape.PLACEMENT
    elif shape is Shape.PLACE and multi:
        shape = Shape.WIDE_PLACE
    if shape is Shape.PASS:
        return ActionFormat(shape)
    if shape is Shape.CHAIN:
        removes = True
    return ActionFormat(shape, removes, many and shape in (Shape.PLACE, Shape.WIDE_PLACE))
