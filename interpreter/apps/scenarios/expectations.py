"""The checks of what must hold after a scenario's plies (its `expect:` mapping): the
position, the player to move, the ply of the turn, the outcome, variables, the legal plies
and perft counts. An unmet expectation is a `Failure`; an expectation that cannot be read
against the game (an unknown player, a cell off the board) is a ScenarioError."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from interpreter.runtime.game import Game, State
from interpreter.apps.scenarios.errors import ScenarioError, clip
from interpreter.apps.scenarios.game_names import player, position, var_values
from interpreter.apps.scenarios.limits import Budget
from interpreter.apps.scenarios.plies import PlyKey, expected_plies, listing, ply_key
from interpreter.apps.scenarios.results import Failure
from interpreter.apps.scenarios.yaml_nodes import Node


@dataclass
class _Checked:
    """What every check reads: the scenario's end position and its legal plies."""

    game: Game
    state: State
    expect: Node
    file: str
    budget: Budget
    actual: list[str]  # the texts of the legal plies, in the generator's order
    actual_keys: list[PlyKey]

    def line(self, key: str) -> int:
        """The line of an expectation's key."""
        return self.expect.key_pos[key][0]


def check_expectations(game: Game, state: State, expect: Node, file: str,
                       budget: Budget | None = None) -> list[Failure]:
    """Every unmet expectation of `expect` in `state` (errors in `expect` raise ScenarioError)."""
    budget = Budget() if budget is None else budget
    legal = game.legal_actions(state)
    budget.spend(len(legal), file, expect, "expect")
    actual = [game.action_to_text(state, a) for a in legal]
    at = _Checked(game, state, expect, file, budget, actual, [ply_key(game, t) for t in actual])
    failures: list[Failure] = []
    for key, check in _CHECKS:  # in this order, whatever the file's
        if key in expect.value:
            failures.extend(check(at, key))
    return failures


def _state(at: _Checked, key: str) -> list[Failure]:
    game = at.game
    want = position(game, at.expect.value[key].text, at.expect.value[key], at.file, key)
    if want == at.state:
        return []
    expected, actual = game.state_to_text(want), game.state_to_text(at.state)
    return [Failure(key, at.line(key), "the position differs", [f"expected: {expected}", f"actual:   {actual}"],
                    {"expected": expected, "actual": actual})]


def _to_move(at: _Checked, key: str) -> list[Failure]:
    players = at.game.players
    want, got = player(at.game, at.expect.value[key], at.file), at.game.to_move(at.state)
    if want == got:
        return []
    return [Failure(key, at.line(key), f"expected {players[want]}, actual {players[got]}",
                    data={"expected": players[want], "actual": players[got]})]


def _ply(at: _Checked, key: str) -> list[Failure]:
    want, got = at.expect.value[key].value, at.game.phase(at.state) + 1
    if want == got:
        return []
    return [Failure(key, at.line(key), f"expected ply {want} of the turn, actual ply {got}",
                    data={"expected": want, "actual": got})]


def _outcome(at: _Checked, key: str) -> list[Failure]:
    if key == "outcome" and "winner" in at.expect.value:
        raise ScenarioError(at.file, at.expect.key_pos["winner"], "give 'outcome' or 'winner', not both")
    want, holds = _outcome_wanted(at.game, at.expect.value[key], key, at.file, at.state)
    if holds:
        return []
    got = _outcome_text(at.game, at.state)
    return [Failure(key, at.line(key), f"expected {want}, actual {got}", data={"expected": want, "actual": got})]


def _vars(at: _Checked, key: str) -> list[Failure]:
    failures = []
    vars_node = at.expect.value[key]
    for name, vnode in vars_node.value.items():
        want = var_values(at.game, name, vnode, vars_node.key_pos[name], at.file)
        got = [at.game.var(at.state, name, i) for i in range(len(want))]
        if want != got:
            failures.append(Failure(f"vars.{name}", vars_node.key_lines[name],
                                    f"expected {_values(at.game, want)}; actual {_values(at.game, got)}",
                                    data={"expected": want, "actual": got}))
    return failures


def _legal(at: _Checked, key: str) -> list[Failure]:
    """The legal plies are exactly those listed, each once."""
    want = expected_plies(at.game, at.expect.value[key].value, key, at.file)
    actual, actual_keys = at.actual, at.actual_keys
    want_keys = {k for k, _ in want}
    missing = [t for k, t in want if k not in actual_keys]
    extra = [t for t, k in zip(actual, actual_keys) if k not in want_keys]
    repeated = sorted({t for t, k in zip(actual, actual_keys) if actual_keys.count(k) > 1})
    if not (missing or extra or repeated):
        return []
    parts = [f"{len(missing)} missing"] if missing else []
    details = [f"expected: {listing([t for _, t in want])}", f"actual:   {listing(actual)}"]
    if missing:
        details.append(f"missing:  {listing(missing)}")
    if extra:
        parts.append(f"{len(extra)} extra")
        details.append(f"extra:    {listing(extra)}")
    if repeated:
        parts.append(f"{len(repeated)} listed more than once")
        details.append(f"repeated: {listing(repeated)}")
    return [Failure(key, at.line(key), ", ".join(parts), details,
                    {"expected": [t for _, t in want], "actual": actual, "missing": missing,
                     "extra": extra, "repeated": repeated})]


def _legal_includes(at: _Checked, key: str) -> list[Failure]:
    want = expected_plies(at.game, at.expect.value[key].value, key, at.file)
    missing = [t for k, t in want if k not in at.actual_keys]
    if not missing:
        return []
    return [Failure(key, at.line(key), f"not legal: {listing(missing)}", [f"actual: {listing(at.actual)}"],
                    {"missing": missing, "actual": at.actual})]


def _legal_excludes(at: _Checked, key: str) -> list[Failure]:
    keys = {k for k, _ in expected_plies(at.game, at.expect.value[key].value, key, at.file)}
    present = [t for t, k in zip(at.actual, at.actual_keys) if k in keys]
    if not present:
        return []
    return [Failure(key, at.line(key), f"legal, but should not be: {listing(present)}",
                    [f"actual: {listing(at.actual)}"], {"present": present, "actual": at.actual})]


def _perft(at: _Checked, key: str) -> list[Failure]:
    want = [n.value for n in at.expect.value[key].value]
    got = perft_counts(at.game, at.state, len(want), at.budget.left)
    if got is None:
        at.budget.spent = at.budget.limit
        depths = "depth 1" if len(want) == 1 else f"depths 1 to {len(want)}"
        return [Failure(key, at.line(key), f"not checked: counting {depths} would pass {at.budget.describe()}",
                        data={"expected": want, "actual": None, "limit": at.budget.limit})]
    at.budget.spent += sum(got)
    if want == got:
        return []
    depth = next(i for i, (a, b) in enumerate(zip(want, got), start=1) if a != b)
    return [Failure(key, at.line(key), f"first difference at depth {depth}: expected {want[depth - 1]}, "
                                       f"actual {got[depth - 1]}",
                    [f"expected: {', '.join(map(str, want))}", f"actual:   {', '.join(map(str, got))}"],
                    {"expected": want, "actual": got})]


_CHECKS: list[tuple[str, Callable[[_Checked, str], list[Failure]]]] = [
    ("state", _state), ("to_move", _to_move), ("ply", _ply), ("outcome", _outcome), ("winner", _outcome),
    ("vars", _vars), ("legal", _legal), ("legal_includes", _legal_includes),
    ("legal_excludes", _legal_excludes), ("perft", _perft)]


def perft_counts(game: Game, state: State, depth: int, budget: int) -> list[int] | None:
    """[perft(1), ..., perft(depth)] from `state` in one walk of the tree (docs/RULES.md's
    definition: a position that is over has no plies), or None as soon as the counts
    together pass `budget` plies (each counted ply costs a move generation or less)."""
    counts = [0] * depth
    total = 0
    stack = [(state, 0)]
    legal, apply = game.legal_actions, game.apply_unchecked
    while stack:
        s, d = stack.pop()
        actions = legal(s)
        counts[d] += len(actions)
        total += len(actions)
        if total > budget:
            return None
        if d + 1 < depth:
            stack.extend((apply(s, a), d + 1) for a in actions)
    return counts


def _values(game: Game, values: list[int]) -> str:
    if len(values) == 1 and len(game.players) != 1:
        return str(values[0])
    return ", ".join(f"{p} {v}" for p, v in zip(game.players, values))


def _outcome_wanted(game: Game, node: Node, key: str, file: str, state: State) -> tuple[str, bool]:
    """What an `outcome`/`winner` expectation says, and whether it holds in `state`."""
    words = node.text.split()
    if key == "winner":
        p = player(game, node, file)
        return f"{game.players[p]} wins", game.winner(state) == p
    if words == ["ongoing"]:
        return "ongoing", not game.is_terminal(state)
    if words == ["draw"]:
        return "draw", game.is_draw(state)
    if len(words) == 2 and words[1] in ("wins", "win", "loses", "lose"):
        # `win` and `lose` as in the language (`Musketeers win`); a loss is a win of another.
        p = player(game, Node(words[0], node.line, node.col, words[0]), file)
        out = game.outcome(state)
        if words[1].startswith("win"):
            return f"{words[0]} {words[1]}", out is not None and out.winner == p
        lost = out is not None and (out.loser == p or out.winner not in (None, p))
        return f"{words[0]} {words[1]}", lost
    raise ScenarioError(file, node, f"outcome must be 'ongoing', 'draw', 'NAME wins' or "
                                    f"'NAME loses', found '{clip(node.text)}'")


def _outcome_text(game: Game, state: State) -> str:
    if not game.is_terminal(state):
        return f"ongoing ({game.players[game.to_move(state)]} to move)"
    return game.notation.result(game.outcome(state))
