"""Checking a solution against the rules: each position checked is compared with its children.

A solution is consistent at a position when its value and remoteness are what the rules and
its children's stored values give (GamesmanClassic's convention, as the solver's):

- an ended position: the outcome's value for the player to move, remoteness 0;
- a position with no legal ply: a loss in 0;
- a win in r: some ply wins, and the quickest winning ply wins in r (its child loses in
  r - 1, or wins in r - 1 when the same player moves again);
- a loss in r: every ply loses, and the longest in r;
- a draw: no ply wins and some ply draws.

`verify` checks the start and positions sampled uniformly from those the solution holds. A
position whose every check passes does not prove the solution (a consistent but wrong
assignment of draws is possible only where the values form a cycle), but any error in the
solver's propagation shows as an inconsistency where it happened.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from interpreter.runtime.game import State
from interpreter.search.solution import Solution, SolutionFileError, Value, ended_value


@dataclass
class VerifyReport:
    """What `verify` found: positions checked, the start's value, inconsistencies (one line
    each: the position, what the solution says, what its children give)."""

    checked: int
    start: Value
    problems: list[str] = field(default_factory=list)


def expected_value(sol: Solution, state: State) -> Value:
    """The value and remoteness `state` must have, from the rules and its children's values
    in `sol` (SolutionFileError when a child is missing from it)."""
    game = sol.game
    if game.is_terminal(state):
        return ended_value(game, state)
    plies = sol.analyze(state)
    wins = [p.remoteness for p in plies if p.value == "win"]
    if wins:
        return Value("win", min(wins))
    if any(p.value == "draw" for p in plies):
        return Value("draw", None)
    return Value("lose", max((p.remoteness for p in plies), default=0))


def check_position(sol: Solution, state: State) -> str | None:
    """None if `sol` is consistent at `state`, else a line saying how it is not."""
    text = sol.game.state_to_text(state)
    try:
        want = expected_value(sol, state)
    except SolutionFileError as e:
        return str(e)
    got = sol.lookup(state)
    if got == want:
        return None
    source = "its end gives" if sol.game.is_terminal(state) else "its children give"
    return f"{text}: the solution says {_show(got)}, {source} {_show(want)}"


def verify(sol: Solution, samples: int, seed: int = 0) -> VerifyReport:
    """Check the start and `samples` positions drawn from `sol` without repeats (all of them
    when it holds no more), with a random generator seeded by `seed`."""
    start = sol.root
    report = VerifyReport(1, sol.lookup(start))
    problem = check_position(sol, start)
    if problem:
        report.problems.append(problem)
    n = len(sol)
    for i in sorted(random.Random(seed).sample(range(n), min(samples, n))):
        problem = check_position(sol, sol.position(i))
        report.checked += 1
        if problem:
            report.problems.append(problem)
    return report


def _show(v: Value) -> str:
    return v.value if v.remoteness is None else f"{v.value} in {v.remoteness}"
