"""Analyses over a game's tree: perft and random playouts."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from .game import Game, State


def perft(game: Game, state: State, depth: int) -> int:
    """Leaf count of the game tree to `depth` plies (docs/RULES.md's definition)."""
    if depth == 0:
        return 1
    actions = game.legal_actions(state)
    if depth == 1:
        return len(actions)
    apply = game.apply
    return sum(perft(game, apply(state, a), depth - 1) for a in actions)


@dataclass
class PlayoutStats:
    games: int
    wins: list[int]  # per player
    draws: int  # ended by a draw rule
    unfinished: int  # stopped at the ply limit
    plies: int
    seconds: float

    @property
    def mean_length(self) -> float:
        return self.plies / self.games if self.games else 0.0

    @property
    def plies_per_second(self) -> float:
        return self.plies / self.seconds if self.seconds > 0 else 0.0


def random_playouts(game: Game, games: int, seed: int, max_plies: int = 1000,
                    start: State | None = None) -> PlayoutStats:
    """Play `games` uniformly random games (each stopped at `max_plies`)."""
    rng = random.Random(seed)
    wins = [0] * len(game.players)
    draws = unfinished = plies = 0
    begin = time.perf_counter()
    first = game.initial_state() if start is None else start
    legal, apply, choice = game.legal_actions, game.apply, rng.choice
    for _ in range(games):
        s = first
        n = 0
        while n < max_plies:
            actions = legal(s)
            if not actions:
                break
            s = apply(s, choice(actions))
            n += 1
        plies += n
        w = game.winner(s)
        if w is not None:
            wins[w] += 1
        elif game.is_draw(s):
            draws += 1
        else:
            unfinished += 1
    return PlayoutStats(games, wins, draws, unfinished, plies, time.perf_counter() - begin)
