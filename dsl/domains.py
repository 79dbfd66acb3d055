"""Where each piece type can ever stand: a static analysis of the rules.

A piece stands where the setup (or a solve's start) put it, or where a ply or an effect
put it since. A ply puts its own piece on `here`, which its `onto` bounds when `onto`
names fixed cells (`empty - goals`: never in a goal); a promotion puts the new kind
where the old one stood, on the cells it names. The result over-approximates: a cell
left out is one no sequence of plies can bring the type to, whatever the position. The
native solver ranks each type over its cells only (interpreter/search/native_solve.py),
so an index holds no placement of men in a goal (3-A-Side). Each construct says where
the pieces it moves may land (`MotionConstruct.lands`); a construct that moves pieces
of several kinds (`push`'s line) leaves every type every cell.
"""

from __future__ import annotations

from dsl import model
from dsl.constructs import motion_construct
from dsl.constructs.effects import every_effect


def cells_within(e: model.Expr, full: int, mover: int | None = None, players: int = 2) -> int:
    """A mask of the cells among `full` (the board's) that the cells `e` names always lie
    among, whatever the position: `empty - goals` lies off the goals, `adjacent(from)`
    anywhere. A cell named on the right of `-` is out only when it is named for good
    (a fixed region, or a player's own region when the player is known: `mover`, the
    player whose ply it is, if given; `opponent` too, in a game of two `players`)."""
    if isinstance(e, model.Cells):
        return e.mask & full
    if isinstance(e, model.RegionOf):
        return _region(e, full, mover, players, widest=True)
    if isinstance(e, model.Binary) and e.result is model.Type.CELLS:
        left = cells_within(e.left, full, mover, players)
        if e.op == "&":
            return left & cells_within(e.right, full, mover, players)
        if e.op == "|":
            return left | cells_within(e.right, full, mover, players)
        if e.op == "-":
            return left & ~_fixed(e.right, full, mover, players)
    return full


def fixed_cells(e: model.Expr, full: int, mover: int | None = None, players: int = 2) -> int | None:
    """The cells `e` names if they are the same whatever the position (`goals`, `home[mover]`
    for a known mover, `all - goals`), else None: where the cells it always names and those
    it may name are one set."""
    most = cells_within(e, full, mover, players)
    return most if most == _fixed(e, full, mover, players) else None


def _fixed(e: model.Expr, full: int, mover: int | None, players: int) -> int:
    """The cells `e` names whatever the position (none of a piece's or a keyword's; of a
    region of a player not known, the cells in every player's)."""
    if isinstance(e, model.Cells):
        return e.mask & full
    if isinstance(e, model.RegionOf):
        return _region(e, full, mover, players, widest=False)
    if isinstance(e, model.Binary) and e.result is model.Type.CELLS:
        left, right = _fixed(e.left, full, mover, players), _fixed(e.right, full, mover, players)
        if e.op == "&":
            return left & right
        if e.op == "|":
            return left | right
        if e.op == "-":
            return left & ~cells_within(e.right, full, mover, players)
    return 0


def _region(e: model.RegionOf, full: int, mover: int | None, players: int, widest: bool) -> int:
    """A player's region: that player's cells when the player is known, else the cells in
    some player's (`widest`) or in every player's."""
    whose = _whose(e.player, mover, players)
    if whose is not None:
        return e.masks[whose] & full
    out = 0 if widest else full
    for m in e.masks:
        out = out | m if widest else out & m
    return out & full


def _whose(player: model.Expr, mover: int | None, players: int) -> int | None:
    """The index of the player `player` names, when it is the same whatever the position."""
    if isinstance(player, model.Player):
        return player.index
    if isinstance(player, model.Ref) and mover is not None:
        if player.word is model.Word.MOVER:
            return mover
        if player.word is model.Word.OPPONENT and players == 2:
            return 1 - mover
    return None


def stand_cells(rs: model.Ruleset, start: list[int] | None = None) -> list[int]:
    """Per piece type of `rs`, a mask of the cells a piece of it can ever stand on, from
    the setup (or from `start`, each type's cells in a position solved from) on. Types
    on other pieces, covering several cells or counted are given every cell."""
    full = (1 << rs.board.size) - 1
    n = len(rs.types)
    cells = list(start) if start is not None else [_mask(rs.setup.get(t, ())) for t in range(n)]
    for t, ty in enumerate(rs.types):
        if ty.level or ty.size > 1 or ty.cover > 1 or ty.counted:
            cells[t] = full
    for ply in rs.plies:
        lands = motion_construct(ply.motion).lands
        if lands == "anywhere":
            return [full] * n
        if lands == "nowhere":
            continue
        for p in range(len(rs.players)):
            v = ply.for_player(p)
            bound = cells_within(v.onto, full, p, len(rs.players))
            for t in rs.selected(v.kind, v.owner, p):
                cells[t] |= bound
    effects = every_effect(rs)
    if any(isinstance(e, model.Reset) for e in effects):  # the setup comes back
        cells = [c | _mask(rs.setup.get(t, ())) for t, c in enumerate(cells)]
    promotes = [e for e in effects if isinstance(e, model.Promote)]
    changed = True
    while changed:  # a promotion puts a kind where another stood: to a fixed point
        changed = False
        for e in promotes:
            bound = cells_within(e.cells, full)
            for old, new in rs.promotions(e.kind):
                more = cells[old] & bound
                if more & ~cells[new]:
                    cells[new] |= more
                    changed = True
    return cells


def _mask(cells: object) -> int:
    out = 0
    for c in cells:  # type: ignore[attr-defined]
        out |= 1 << c
    return out
