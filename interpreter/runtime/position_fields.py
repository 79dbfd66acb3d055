"""The `key=value` fields of a position's text that hold numbers and cells: variables,
reserves, counted pieces and the previous ply, written and read back (notation.py holds
the rest of the text forms)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from dsl.board import Board
from dsl.diagnostics import clip, printable
from dsl.model import Ruleset

from interpreter.runtime.protocol import PositionError, State, Termination, outcome_of
from interpreter.runtime.tables import cells_of

if TYPE_CHECKING:
    from interpreter.runtime.game import Game

_WHOLE = re.compile(r"-?[0-9]{1,19}")  # ASCII digits only: int() also reads '²' or '٣'
_COUNT = re.compile(r"[0-9]{1,19}")


def _clip(text: str) -> str:
    """Untrusted text as shown in a message: at most 40 characters and `...`, escaped."""
    return printable(clip(text, 43))


def var_from_text(game: Game, s: list[int], key: str, value: str) -> None:
    """`NAME=v` or `NAME=v1,v2` (per player), each in the variable's range."""
    var = next(v for v in game.ruleset.vars if v.name == key)
    values = value.split(",")
    count = len(game.players) if var.per_player else 1
    if len(values) != count or not all(_WHOLE.fullmatch(x) for x in values):
        raise PositionError(f"{key} takes {count} whole number{'s' if count > 1 else ''}, "
                            f"found '{_clip(value)}'")
    for i, x in enumerate(values):
        if not var.low <= int(x) <= var.high:
            raise PositionError(f"{key} is kept from {var.low} to {var.high}, found {_clip(x)}")
        s[game.layout.var_offsets[key] + i] = int(x)


def reserve_from_text(slots: list[int], s: list[int], key: str, value: str) -> None:
    """`reserve.KIND=n1,n2`: each owner's reserve, in its slot."""
    values = value.split(",")
    if len(values) != len(slots) or not all(_COUNT.fullmatch(x) for x in values):
        raise PositionError(f"{key} takes {len(slots)} whole number"
                            f"{'s' if len(slots) > 1 else ''} of 0 or more, "
                            f"found '{_clip(value)}'")
    for slot, x in zip(slots, values):
        s[slot] = int(x)


def counts_text(game: Game, state: State) -> list[str]:
    """`count.KIND=a1:3,b1:12` for each counted type: how many stand on each cell holding some."""
    names = game.board.names
    return [f"count.{game.ruleset.types[t].kind}=" + ",".join(f"{names[c]}:{state[base + c]}"
                                                                for c in cells_of(state[t]))
            for t, base in game.layout.count_offsets.items()]


def counts_from_text(game: Game, s: list[int], t: int, value: str) -> None:
    """`count.KIND=a1:3,b1:12`: how many pieces of counted type t stand on each cell the rows
    show it on (a cell the field leaves out holds one)."""
    kind, board = game.ruleset.types[t].kind, game.board
    base, most = game.layout.count_offsets[t], game.ruleset.types[t].counted
    for item in value.split(",") if value else []:
        name, colon, n = item.partition(":")
        if not colon or name not in board.index or not _COUNT.fullmatch(n):
            raise PositionError(f"count.{kind} lists CELL:N items (a1:3,b1:12), found '{_clip(item)}'")
        c = board.index[name]
        if not s[t] >> c & 1:
            raise PositionError(f"count.{kind}: the rows show no '{game.ruleset.types[t].symbol}' on {name}")
        if not 1 <= int(n) <= most:
            raise PositionError(f"count.{kind}: a cell holds 1 to {most} of them, found {_clip(n)} on {name}")
        s[base + c] = int(n)


def previous_text(rs: Ruleset, board: Board, memory: tuple[int, ...]) -> str:
    """`RULE:FROM-TO` (cells joined by + for a wide piece; no FROM for a placement), or `pass`."""
    rule, frm, here = memory
    if rule > len(rs.plies):
        return "pass"
    cells = lambda mask: "+".join(board.names[c] for c in cells_of(mask))  # noqa: E731
    return f"{rs.plies[rule - 1].name}:{cells(frm)}-{cells(here)}"


def parse_previous(rs: Ruleset, board: Board, value: str) -> list[int]:
    """The three memory slots `previous=RULE:FROM-TO` (or `pass`) stands for."""
    names = [p.name for p in rs.plies]
    if value == "pass" and "pass" in rs.remembers:
        return [len(names) + 1, 0, 0]
    rule, _, move = value.partition(":")
    start, dash, end = move.partition("-")
    masks: list[int] | None = []
    for part in (start, end):
        cells = [c for c in part.split("+") if c] if part else []
        if any(c not in board.index for c in cells):
            masks = None
            break
        masks.append(sum(1 << board.index[c] for c in cells))
    if rule not in rs.remembers or not dash or masks is None or not masks[1]:
        kept = [n for n in names if n in rs.remembers]
        raise PositionError(f"previous is RULE:FROM-TO (RULE one of {', '.join(kept)}; "
                            f"FROM empty for a placement) or pass, found '{_clip(value)}'")
    return [names.index(rule) + 1, masks[0], masks[1]]


def result_text(players: list[str], code: int) -> str:
    """`Red` (Red won), `draw`, or `Red-loses` (more than two players: the others share)."""
    out = outcome_of(code, len(players), Termination.END_RULE)
    if out.winner is not None:
        return players[out.winner]
    return "draw" if out.loser is None else players[out.loser] + "-loses"


def result_from_text(players: list[str], value: str) -> int:
    """The result code `result=VALUE` states; -1 for `none` (not over, though the end rules
    run on the text would say so: state_to_text)."""
    n = len(players)
    texts = [result_text(players, c) for c in range(n + 1)]
    if n > 2:
        texts += [result_text(players, n + 1 + p) for p in range(n)]
    if value == "none":
        return -1
    if value not in texts:
        what = "a player, draw, PLAYER-loses or none" if n > 2 else "a player, draw or none"
        raise PositionError(f"result is {what}, found '{_clip(value)}'")
    return texts.index(value)
