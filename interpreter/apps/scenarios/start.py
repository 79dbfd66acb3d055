"""The position a scenario starts from: the ruleset's setup, a state's text, or a mapping of
pieces on cells (with the player to move, the ply of the turn and variables)."""

from __future__ import annotations

from dsl.placements import placements

from interpreter.runtime.game import Game, State
from interpreter.apps.scenarios.errors import ScenarioError, clip, close
from interpreter.apps.scenarios.game_names import cell, piece_types, player, position, var_values
from interpreter.apps.scenarios.scenario_file import Scenario
from interpreter.apps.scenarios.yaml_nodes import Node

# (cell, level) -> (piece type, line of the scenario file that put it there)
Placed = dict[tuple[int, int], tuple[int, int]]


def start_state(game: Game, sc: Scenario) -> State:
    """The state a scenario starts from: the setup, a state's text, or pieces on cells."""
    node = sc.start
    if node is None or (node.kind == "scalar" and node.text.strip() == "setup"):
        return game.initial_state()
    if node.kind == "scalar":
        return position(game, node.text, node, sc.file, "start")
    return game_state_from_pieces(game, node, sc.file)


def game_state_from_pieces(game: Game, node: Node, file: str) -> State:
    """The state of a `start:` mapping (pieces, to_move, ply, vars), through the game's state text."""
    types = game.ruleset.types
    top: dict[int, tuple[int, int]] = {}  # cell -> (level, type) of its top piece
    for (c, level), (tid, _) in _placed(game, node.value["pieces"], file).items():
        if c not in top or level > top[c][0]:
            top[c] = (level, tid)
    # Build the game's own state text, so the game settles its end rules as for any position.
    rows = "/".join("".join(types[top[c][1]].symbol if c in top else "." for c in row)
                    for row in game.board.text_rows)
    fields = [rows, game.players[player(game, node.value["to_move"], file)]]
    if "ply" in node.value:
        fields.append(f"ply={node.value['ply'].value}")
    for vname, vnode in (node.get("vars").value.items() if node.get("vars") else []):
        values = var_values(game, vname, vnode, node.value["vars"].key_pos[vname], file)
        fields.append(f"{vname}=" + ",".join(str(v) for v in values))
    return position(game, " ".join(fields), node, file, "start")


def _placed(game: Game, pieces: Node, file: str) -> Placed:
    """Every piece a `pieces:` mapping puts on the board."""
    kinds = piece_types(game)
    types = game.ruleset.types
    placed: Placed = {}
    rest: tuple[int, Node] | None = None
    for key, cells_node in pieces.value.items():
        tid = _piece_type(kinds, key, pieces.key_pos[key], file)
        if cells_node.kind == "scalar" and " ".join(cells_node.text.split()) == "all other cells":
            if rest is not None:
                raise ScenarioError(file, cells_node, "only one piece can fill 'all other cells'")
            if types[tid].size > 1:
                raise ScenarioError(file, cells_node,
                                    f"'{key}' covers {types[tid].size} cells; it cannot fill 'all other cells'")
            rest = (tid, cells_node)
            continue
        _place(game, kinds, key, cells_node, placed, file)
    if rest is not None:
        level = types[rest[0]].level
        for c in range(game.board.size):
            if (c, level) not in placed and c not in game.board.goals:
                placed[c, level] = (rest[0], rest[1].line)
    return placed


def _piece_type(kinds: dict[str, int], key: str, where: tuple[int, int], file: str) -> int:
    """The piece type a key of `pieces:` names."""
    if key in kinds:
        return kinds[key]
    hint = close(key, kinds)
    shared = [k for k in kinds if k.startswith(key + " of ")]
    raise ScenarioError(file, where,
                        f"every player has '{key}' pieces: say whose, e.g. '{shared[0]}'" if shared else
                        f"unknown piece '{clip(key)}' (" + (f"did you mean '{hint}'?" if hint
                                                            else f"pieces: {', '.join(kinds)}") + ")")


def _place(game: Game, kinds: dict[str, int], key: str, cells_node: Node, placed: Placed, file: str) -> None:
    """Add to `placed` the pieces `key` puts on the cells of `cells_node`."""
    tid = kinds[key]
    piece = game.ruleset.types[tid]
    if cells_node.kind == "scalar":  # `a1, c3, e5` written on one line
        items = [Node(c.strip(), cells_node.line, cells_node.col, c.strip())
                 for c in cells_node.text.split(",")]
    else:
        items = cells_node.value
    cells = []
    for item in items:
        c = cell(game, item, file)
        if (c, piece.level) in placed:  # a disc may stand on a tile's cell: one piece per level
            tid_there, line = placed[c, piece.level]
            other = next(k for k, v in kinds.items() if v == tid_there)
            raise ScenarioError(file, item, f"cell '{item.text.strip()}' is given twice ({other} at line {line})")
        placed[c, piece.level] = (tid, item.line)
        cells.append(c)
    if piece.size > 1 and tuple(sorted(cells)) not in placements(game.board, piece.size):
        shown = ", ".join(game.board.names[c] for c in sorted(cells))
        raise ScenarioError(file, cells_node,
                            f"'{key}' covers {piece.size} cells in a straight line; {shown} is not "
                            f"one of its placements")
