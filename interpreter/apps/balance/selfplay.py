"""Self-play for balance reports: each game between two agents (search/agents.py specs),
played in worker processes, summed up as a `GameResult`.

Determinism: game i draws every random choice from seeds derived from (seed, i) alone
(`game_seed`), and the records are returned in game-index order, so the same seed gives
the same records whatever the number of processes. Seat order alternates: game i has A in
the first seat when i is even, B when it is odd (with an odd number of games A plays
first once more). Time-bounded specs (mcts:Ts, alphabeta:D:T) are not reproducible.
"""

from __future__ import annotations

import multiprocessing
import os
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from interpreter.search.analysis import MASK64, SplitMix
from interpreter.runtime.game import Game, State
from interpreter.search.agents import Agent, make_agent, perfect_agent
from interpreter.search.mcts import MCTS
from interpreter.search.portable import GameSource, game_from, source_of
from interpreter.search.solution import Solution

DRAW = -1  # GameResult.outcome of a drawn game (a seat's index for a win, None when cut)
DRAW_BAND = 0.2  # |MCTS mean reward| at most this: the check predicts a draw


@dataclass(frozen=True)
class Settings:
    """What every game of a run shares."""

    agents: tuple[str, str]  # the specs A and B, as given to --players
    seed: int
    max_plies: int
    early_budget: int  # MCTS iterations of the early-decision check; 0: no check
    checkpoints: tuple[str, ...]  # "10" (after 10 plies) or "25%" (of the game's length)
    solution_path: str | None = None  # where a worker's perfect players read the solution


@dataclass
class GameResult:
    """One game: who sat where, how it ended, its length and what was seen on the way."""

    index: int
    first: int  # which agent (0: A, 1: B) had the first seat
    outcome: int | None  # the winning seat, DRAW, or None when cut at the ply limit
    plies: int
    legal: list[int] = field(default_factory=list)  # legal plies before each ply made
    repeated: bool = False  # some position came up twice
    checks: list[int | None] = field(default_factory=list)  # predicted outcome a checkpoint
    # (None: the game was cut or over before the checkpoint)

    def seat_of(self, agent: int) -> int:
        """The seat agent 0 (A) or 1 (B) had in this game."""
        return agent ^ self.first


def game_seed(seed: int, index: int) -> int:
    """Game `index`'s seed, from the run's seed alone (splitmix64, as random playouts)."""
    return SplitMix(seed, index).next()


def _agent(spec: str, game: Game, seed: int, solution: Solution | None) -> Agent:
    """A player of one game; `perfect` players share the run's solution."""
    if spec.strip().startswith("perfect"):
        return perfect_agent(game, solution, random.Random(seed))
    return make_agent(spec, game, seed)


def checkpoint_ply(checkpoint: str, length: int) -> int | None:
    """The ply count a checkpoint stands for in a game of `length` plies (None: beyond it;
    the check needs a position where the game still goes on)."""
    if checkpoint.endswith("%"):
        k = length * int(checkpoint[:-1]) // 100
    else:
        k = int(checkpoint)
    return k if k < length else None


def predict(game: Game, state: State, budget: int, seed: int) -> int:
    """The outcome an MCTS of `budget` iterations expects from `state`: the seat it sees
    winning, or DRAW when its mean reward is within DRAW_BAND of 0. Forced plies are
    followed first (MCTS does not search a position with one legal ply)."""
    while not game.is_terminal(state):
        legal = game.legal_actions(state)
        if len(legal) != 1:
            break
        state = game.apply_unchecked(state, legal[0])
    if game.is_terminal(state):
        w = game.winner(state)
        return DRAW if w is None else w
    result = MCTS(game, iterations=budget, seed=seed).search(state)
    mover = game.to_move(state)
    if result.win_rate > DRAW_BAND:
        return mover
    if result.win_rate < -DRAW_BAND:
        return 1 - mover
    return DRAW


def play_game(game: Game, index: int, settings: Settings, solution: Solution | None) -> GameResult:
    """Game `index` of a run: both agents from their seeds, the plies to the end or the
    ply limit, then the early-decision checks."""
    base = game_seed(settings.seed, index)
    first = index & 1
    specs = (settings.agents[first], settings.agents[1 - first])  # by seat
    agents = [_agent(spec, game, (base + seat) & MASK64, solution) for seat, spec in enumerate(specs)]
    state = game.initial_state()
    states, seen, legal_counts, repeated = [state], {state}, [], False
    while len(legal_counts) < settings.max_plies and not game.is_terminal(state):
        actions = game.legal_actions(state)
        if not actions:
            break
        legal_counts.append(len(actions))
        state = game.apply_unchecked(state, agents[game.to_move(state)](state))
        states.append(state)
        repeated = repeated or state in seen
        seen.add(state)
    plies = len(legal_counts)
    if game.is_terminal(state):
        w = game.winner(state)
        outcome: int | None = DRAW if w is None else w
    else:
        outcome = None
    checks: list[int | None] = []
    for c, checkpoint in enumerate(settings.checkpoints if settings.early_budget else ()):
        k = checkpoint_ply(checkpoint, plies)
        checks.append(None if k is None or outcome is None else
                      predict(game, states[k], settings.early_budget, (base + 2 + c) & MASK64))
    return GameResult(index, first, outcome, plies, legal_counts, repeated, checks)


# ------------------------------------------------------------------ processes

_worker: dict = {}  # a worker process's game, settings and solution (set once per process)


def _start_worker(game: Game, settings: Settings) -> None:
    solution = Solution.load(settings.solution_path, game) if settings.solution_path else None
    _worker.update(game=game, settings=settings, solution=solution)


def _play_in_worker(index: int) -> GameResult:
    return play_game(_worker["game"], index, _worker["settings"], _worker["solution"])


def play_games(game: Game, games: int, settings: Settings, jobs: int,
               solution: Solution | None = None,
               each_game: Callable[[], None] | None = None) -> list[GameResult]:
    """Games 0 .. games-1, on `jobs` processes (1: in this one, using `solution`; more:
    each worker loads settings.solution_path), in game-index order; `each_game` is called
    as each one ends (a progress display)."""
    if jobs <= 1 or games == 1:
        out = []
        for i in range(games):
            out.append(play_game(game, i, settings, solution))
            if each_game is not None:
                each_game()
        return out
    return list(_pooled(game, games, settings, min(jobs, games), each_game))


def _pooled(game: Game, games: int, settings: Settings, jobs: int,
            each_game: Callable[[], None] | None) -> Iterator[GameResult]:
    # fork where there is one: a worker starts at once, with the game already compiled
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(jobs, _start_worker, (game, settings)) as pool:
        # imap keeps the order of the indices, whichever worker ends first
        for record in pool.imap(_play_in_worker, range(games), chunksize=1):
            if each_game is not None:
                each_game()
            yield record


def play_chunk(source: GameSource, settings: Settings, indices: list[int]) -> list[GameResult]:
    """Games `indices` of a run, in a worker that rebuilds the game from its source (and
    reads settings.solution_path): a task on a cluster."""
    game = game_from(source)
    if _worker.get("key") != (source, settings):
        _start_worker(game, settings)
        _worker["key"] = (source, settings)
    return [play_game(game, i, settings, _worker["solution"]) for i in indices]


def play_games_on(run: Callable, game: Game, games: int, settings: Settings, chunk: int = 4,
                  each_game: Callable[[], None] | None = None) -> list[GameResult]:
    """Games 0 .. games-1 as tasks of `chunk` games run by `run` (cluster.ray_run's), in
    game-index order: the same records as `play_games`."""
    source = source_of(game)
    parts = run(play_chunk, [(source, settings, list(range(i, min(i + chunk, games))))
                             for i in range(0, games, chunk)])
    out = [r for part in parts for r in part]
    for _ in out if each_game is not None else ():
        each_game()
    return out


def default_jobs() -> int:
    """How many processes play by default: one a core."""
    return os.cpu_count() or 1
