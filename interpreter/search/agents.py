"""Players that choose plies by search: `make_agent(spec, game, seed)`.

Specs:
- `random`: a uniformly random legal ply;
- `mcts:N` (N iterations a ply) or `mcts:Ts` (T seconds a ply, e.g. `mcts:0.5s`);
- `alphabeta:DEPTH` or `alphabeta:DEPTH:T` (at most T seconds a ply);
- `perfect` (solves the game from the first position it is asked about) or
  `perfect:PATH` (a solution file saved by `rulecraft solve --save`).
Among equally good plies, an agent picks with its own seeded random generator.
"""

from __future__ import annotations

import random
from typing import Callable

from ..game import Action, Game, State
from .alphabeta import AlphaBeta
from .mcts import MCTS
from .solver import Solution, solve

Agent = Callable[[State], Action]
SPECS = "random, mcts:N, mcts:Ts, alphabeta:DEPTH[:T], perfect, perfect:PATH"


def _positive_int(text: str, what: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{what} must be a whole number of at least 1, found '{text}'")
    return int(text)


def _seconds(text: str, what: str) -> float:
    try:
        value = float(text[:-1] if text.endswith("s") else text)
    except ValueError:
        raise ValueError(f"{what} must be a number of seconds, found '{text}'") from None
    if not value > 0:
        raise ValueError(f"{what} must be more than 0 seconds, found '{text}'")
    return value


def perfect_agent(game: Game, solution: Solution | None, rng: random.Random) -> Agent:
    """Plays an optimal ply; solves from the position it meets when it has no solution for it."""
    held = [solution]

    def choose(state: State) -> Action:
        sol = held[0]
        if sol is None or state not in sol:
            sol = held[0] = solve(game, state, progress=True)
        return rng.choice(sol.best_actions(state))

    return choose


def make_agent(spec: str, game: Game, seed: int | None = None, also_known: str = "") -> Agent:
    """An agent from its spec (see the module docstring); ValueError for an unknown spec.

    `also_known` names the caller's own specs in that error (`play` adds `human`).
    """
    rng = random.Random(seed)
    name, _, arg = spec.strip().partition(":")
    if name == "random" and not arg:
        return lambda state: rng.choice(game.legal_actions(state))
    if name == "mcts":
        if not arg:
            raise ValueError("mcts needs an iteration count or a time: mcts:1000 or mcts:2s")
        if arg.endswith("s"):
            m = MCTS(game, iterations=None, time_limit=_seconds(arg, "mcts's time"), seed=seed)
        else:
            m = MCTS(game, iterations=_positive_int(arg, "mcts's iterations"), seed=seed)
        return m.choose
    if name == "alphabeta":
        depth_text, _, time_text = arg.partition(":")
        depth = _positive_int(depth_text, "alphabeta's depth")
        limit = _seconds(time_text, "alphabeta's time") if time_text else None
        ab = AlphaBeta(game)

        def choose(state: State) -> Action:
            result = ab.search(state, depth=depth, time_limit=limit)
            if not result.best:
                raise ValueError("no legal ply: the game is over")
            return rng.choice(result.best)

        return choose
    if name == "perfect":
        solution = Solution.load(arg, game) if arg else None
        return perfect_agent(game, solution, rng)
    known = f"{also_known}, {SPECS}" if also_known else SPECS
    raise ValueError(f"unknown player '{spec}' (known: {known})")
