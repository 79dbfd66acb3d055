"""The ruleset's own names as a scenario writes them (players, cells, pieces, variables) and
its state texts, checked against the game: a name the game lacks is a ScenarioError that
says what it has."""

from __future__ import annotations

from interpreter.runtime.game import Game, PositionError, State
from interpreter.apps.scenarios.errors import ScenarioError, Where, clip, close
from interpreter.apps.scenarios.yaml_nodes import Node, described


def _unknown_player(game: Game, file: str, where: Where, name: str) -> ScenarioError:
    return ScenarioError(file, where, f"unknown player '{clip(name)}' (players: {', '.join(game.players)})")


def player(game: Game, node: Node, file: str) -> int:
    """The number of the player `node` names."""
    name = node.text.strip()
    if name not in game.players:
        raise _unknown_player(game, file, node, name)
    return game.players.index(name)


def cell(game: Game, node: Node, file: str) -> int:
    """The index of the cell `node` names."""
    name = node.text.strip()
    if name not in game.board.index:
        hint = close(name, game.board.names)
        raise ScenarioError(file, node, f"'{clip(name)}' is not a cell of the board"
                                        + (f" (did you mean '{hint}'?)" if hint else ""))
    return game.board.index[name]


def piece_types(game: Game) -> dict[str, int]:
    """Scenario names of the piece types: the kind, or `kind of Player` for kinds every player has."""
    out: dict[str, int] = {}
    types = game.ruleset.types
    for i, t in enumerate(types):
        shared = sum(u.kind == t.kind for u in types) > 1
        out[f"{t.kind} of {game.players[t.owner]}" if shared and t.owner is not None else t.kind] = i
    return out


def var_values(game: Game, name: str, node: Node, key_pos: tuple[int, int], file: str) -> list[int]:
    """A variable's values as written (number, list per player, or player -> number), checked."""
    var = next((v for v in game.ruleset.vars if v.name == name), None)
    if var is None:
        known = ", ".join(v.name for v in game.ruleset.vars) or "none"
        raise ScenarioError(file, key_pos, f"unknown variable '{clip(name)}' (variables: {known})")
    if not var.per_player:
        if node.kind != "scalar":
            raise ScenarioError(file, node, f"'{name}' is one number for the whole game, "
                                            f"found {described(node)}")
        return [node.value]
    n = len(game.players)
    if node.kind == "mapping":
        for key in node.value:
            if key not in game.players:
                raise _unknown_player(game, file, node.key_pos[key], key)
        missing = [p for p in game.players if p not in node.value]
        if missing:
            raise ScenarioError(file, node, f"'{name}' needs a value for every player; "
                                            f"missing: {', '.join(missing)}")
        return [node.value[p].value for p in game.players]
    values = [x.value for x in node.value] if node.kind == "list" else [node.value]
    if len(values) != n:
        raise ScenarioError(file, node, f"'{name}' is per player: give {n} values "
                                        f"({', '.join(game.players)}), found {len(values)}")
    return values


def position(game: Game, text: str, where: Where, file: str, check: str) -> State:
    """The state a state's `text` gives; an error names the `check` that gave the text."""
    try:
        return game.state_from_text(text)
    except PositionError as e:
        raise ScenarioError(file, where, f"{check}: {e}") from None
