"""Who makes the plies in `rulecraft play`: a person at the terminal, or a program.

`make_player(spec, game, seed, stdin, stdout)` takes every spec of `play --players`;
`make_agent(spec, game, seed)` the programs' only:
- `human` (make_player only): plies typed at the terminal (`human_agent`);
- `random`: a uniformly random legal ply;
- `mcts:N` (N iterations a ply) or `mcts:Ts` (T seconds a ply, e.g. `mcts:0.5s`);
- `alphabeta:DEPTH` or `alphabeta:DEPTH:T` (at most T seconds a ply);
- `perfect` (solves the game from the first position it is asked about) or
  `perfect:PATH` (a solution file saved by `rulecraft solve --save`).
Among equally good plies, an agent picks with its own seeded random generator.
Numbers are bounded (MAX_ITERATIONS, MAX_DEPTH, MAX_SECONDS): anything else in a spec is
a ValueError with a message for the person who typed it.
"""

from __future__ import annotations

import math
import random
import re
from typing import Callable, TextIO

from interpreter.runtime.game import Action, Game, State
from interpreter.search.alphabeta import MAX_DEPTH, AlphaBeta
from interpreter.search.mcts import MCTS
from interpreter.search.solver import Solution, solve

Agent = Callable[[State], Action]
SPECS = "random, mcts:N, mcts:Ts, alphabeta:DEPTH[:T], perfect, perfect:PATH"
MAX_ITERATIONS = 100_000_000
MAX_SECONDS = 86_400.0  # a day a ply
MAX_LINE = 4096  # characters of one typed line; a longer one is refused whole


class QuitGame(Exception):
    """The person at the terminal asked to stop."""


def _shown(text: str) -> str:
    return repr(text if len(text) <= 30 else text[:27] + "...")


def _whole(text: str, what: str, most: int) -> int:
    if not re.fullmatch(r"[0-9]{1,12}", text) or not 1 <= int(text) <= most:
        raise ValueError(f"{what} must be a whole number from 1 to {most:,}, found {_shown(text)}")
    return int(text)


def _seconds(text: str, what: str) -> float:
    number = text[:-1] if text.endswith("s") else text
    if not re.fullmatch(r"[0-9]*\.?[0-9]+(e[+-]?[0-9]+)?", number, re.IGNORECASE) \
            or len(number) > 30:
        raise ValueError(f"{what} must be a number of seconds, found {_shown(text)}")
    value = float(number)
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise ValueError(f"{what} must be more than 0 and at most {MAX_SECONDS:,.0f} seconds, "
                         f"found {_shown(text)}")
    return value


def perfect_agent(game: Game, solution: Solution | None, rng: random.Random,
                  held: list[Solution | None] | None = None) -> Agent:
    """Plays an optimal ply; solves from the position it meets when it has no solution for it
    (a SolveError if that solve passes the memory cap).

    `held`, a one-item list, is the solution it reads and replaces: agents given the same
    list share their solution (and solve once); `solution` fills a new list when none is.
    """
    held = [solution] if held is None else held

    def choose(state: State) -> Action:
        sol = held[0]
        best = None
        if sol is not None and state in sol:
            try:
                best = sol.best_actions(state)
            except KeyError:  # a child the solution lacks: solve afresh below
                best = None
        if best is None:
            sol = held[0] = solve(game, state, progress=True)
            best = sol.best_actions(state)
        if not best:
            raise ValueError("no legal ply: the game is over")
        return rng.choice(best)

    return choose


def make_agent(spec: str, game: Game, seed: int | None = None, also_known: str = "",
               shared: dict[str, list[Solution | None]] | None = None) -> Agent:
    """An agent from its spec (see the module docstring); ValueError for an unknown spec.

    `also_known` names the caller's own specs in that error (`play` adds `human`). Agents
    made with the same `shared` dict share the solution of their `perfect` spec: a file
    is read once, a game solved once (for both players of a game).
    """
    rng = random.Random(seed)
    name, colon, arg = spec.strip().partition(":")
    if name == "random" and not colon:
        return lambda state: rng.choice(game.legal_actions(state))
    if name == "mcts":
        if not arg:
            raise ValueError("mcts needs an iteration count or a time: mcts:1000 or mcts:2s")
        if arg.endswith("s"):
            m = MCTS(game, iterations=None, time_limit=_seconds(arg, "mcts's time"), seed=seed)
        else:
            m = MCTS(game, iterations=_whole(arg, "mcts's iterations", MAX_ITERATIONS),
                     seed=seed)
        return m.choose
    if name == "alphabeta":
        depth_text, colon, time_text = arg.partition(":")
        if not depth_text:
            raise ValueError("alphabeta needs a depth: alphabeta:4, or alphabeta:4:2s for at "
                             "most 2 seconds a ply")
        depth = _whole(depth_text, "alphabeta's depth", MAX_DEPTH)
        limit = _seconds(time_text, "alphabeta's time") if colon else None
        ab = AlphaBeta(game)

        def choose(state: State) -> Action:
            result = ab.search(state, depth=depth, time_limit=limit)
            if not result.best:
                raise ValueError("no legal ply: the game is over")
            return rng.choice(result.best)

        return choose
    if name == "perfect":
        if colon and not arg:
            raise ValueError("perfect: needs the path of a solution file after the colon "
                             "(perfect:PATH), or no colon at all to solve first")
        held = None if shared is None else shared.get(arg)
        if held is None:
            held = [Solution.load(arg, game) if arg else None]  # SolutionFileError: ValueError
            if shared is not None:
                shared[arg] = held
        return perfect_agent(game, None, rng, held)
    known = f"{also_known}, {SPECS}" if also_known else SPECS
    raise ValueError(f"unknown player {_shown(spec)} (known: {known})")


def human_agent(game: Game, stdin: TextIO, stdout: TextIO) -> Agent:
    """Reads plies in notation (any case, or a shorter form naming one ply); `?` lists the
    legal plies, `quit` (or end of input) raises QuitGame."""

    def choose(state: State) -> Action:
        while True:
            stdout.write(f"{game.players[game.to_move(state)]}> ")
            stdout.flush()
            line = stdin.readline(MAX_LINE)
            if len(line) == MAX_LINE and not line.endswith("\n"):
                while line and not line.endswith("\n"):  # the rest of the overlong line
                    line = stdin.readline(MAX_LINE)
                stdout.write(f"a ply is at most {MAX_LINE:,} characters\n")
                continue
            if not line or line.strip() in ("quit", "exit", "q"):
                raise QuitGame
            text = line.strip()
            if not text:
                continue
            if text in ("?", "moves", "help"):
                stdout.write(", ".join(game.action_to_text(state, a)
                                       for a in game.legal_actions(state)) + "\n")
                continue
            try:
                return game.action_from_input(state, text)
            except ValueError as e:  # IllegalActionError, or anything else the text breaks
                stdout.write(f"{e}\n")

    return choose


def make_player(spec: str, game: Game, seed: int | None, stdin: TextIO, stdout: TextIO,
                shared: dict[str, list[Solution | None]] | None = None) -> Agent:
    """A player of `rulecraft play` from its spec: `human` reads `stdin`, any other spec is
    `make_agent`'s (a ValueError for an unknown one; `shared` as there)."""
    if spec.strip() == "human":
        return human_agent(game, stdin, stdout)
    return make_agent(spec, game, seed, also_known="human", shared=shared)
