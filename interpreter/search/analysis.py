"""Analyses over a game's tree: perft and random playouts."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from interpreter.runtime.game import Game, State


_END = object()


class PerftBudgetError(Exception):
    """perft stopped at its node budget (`max_nodes`) before finishing."""

    def __init__(self, max_nodes: int, depth: int):
        super().__init__(f"perft({depth}) stopped after {max_nodes:,} positions (the node budget)")
        self.max_nodes = max_nodes
        self.depth = depth


def perft(game: Game, state: State, depth: int, max_nodes: int | None = None) -> int:
    """Leaf count of the game tree to `depth` plies (docs/RULES.md's definition).

    Depth first with an explicit stack, so any depth works (no recursion limit) and
    Ctrl-C stops it at once. `max_nodes`: raise PerftBudgetError once more than this
    many positions have been made (by `apply`; the leaves are counted without being
    made), for callers that must bound the work; None (the default) for no bound.
    """
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, found {depth}")
    if depth == 0:
        return 1
    if game.native is not None and max_nodes is None:
        from interpreter.native.library import NativeError  # noqa: PLC0415
        try:
            return game.native.perft(state, depth)
        except NativeError:
            pass  # a rule's error (a variable out of range, ...): the Python back-end raises it
    legal, apply = game.rules.legal, game.rules.apply
    actions = legal(state)
    if depth == 1:
        return len(actions)
    budget = -1 if max_nodes is None else max_nodes
    made = 0
    total = 0
    # states[k] is at k plies from `state`; its remaining plies wait in pending[k]
    states = [state]
    pending = [iter(actions)]
    bottom = depth - 2  # the level whose children's plies are counted, not made
    while pending:
        k = len(pending) - 1
        a = next(pending[k], _END)
        if a is _END:
            pending.pop()
            states.pop()
            continue
        child = apply(states[k], a)
        kids = legal(child)
        if k == bottom:
            made += 1
            # the whole bottom level at once: the hot loop of a deep perft
            s = states[k]
            for b in pending[k]:
                total += len(legal(apply(s, b)))
                made += 1
            total += len(kids)
            pending.pop()
            states.pop()
        else:
            made += 1
            states.append(child)
            pending.append(iter(kids))
        if budget >= 0 and made > budget:
            raise PerftBudgetError(max_nodes, depth)
    return total


@dataclass
class PlayoutStats:
    games: int
    wins: list[int]  # per player
    draws: int  # ended by a draw rule
    unfinished: int  # stopped at the ply limit
    plies: int
    seconds: float
    losses: list[int] = field(default_factory=list)  # per player, of three or more: `X loses`

    @property
    def mean_length(self) -> float:
        return self.plies / self.games if self.games else 0.0

    @property
    def plies_per_second(self) -> float:
        return self.plies / self.seconds if self.seconds > 0 else 0.0


GOLDEN = 0x9E3779B97F4A7C15
MASK64 = (1 << 64) - 1


class SplitMix:
    """splitmix64, the generator of random playouts on both back-ends (runtime.c has the
    same), so that a seed plays the same games whichever back-end runs them."""

    def __init__(self, seed: int, game_index: int):
        self.x = (seed ^ ((game_index + 1) * GOLDEN)) & MASK64

    def next(self) -> int:
        self.x = z = (self.x + GOLDEN) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)


def random_playouts(game: Game, games: int, seed: int, max_plies: int = 1000,
                    start: State | None = None,
                    each_game: Callable[[], None] | None = None) -> PlayoutStats:
    """Play `games` uniformly random games (each stopped at `max_plies`); `each_game` is
    called after each one (a progress display). Game i draws from SplitMix(seed, i), a
    ply chosen as next() % (number of legal plies). A native game plays them in C, on
    both cores, without `each_game`."""
    first = game.initial_state() if start is None else start
    begin = time.perf_counter()
    if game.native is not None and each_game is None:
        from interpreter.native.library import NativeError  # noqa: PLC0415
        try:
            st = game.native.playouts(first, games, seed, max_plies)
            n = len(game.players)
            draws, unfinished, plies = st[n:n + 3]
            return PlayoutStats(games, st[:n], draws, unfinished, plies, time.perf_counter() - begin,
                                st[n + 3:] or [0] * n)
        except NativeError:
            pass  # a rule's error: the games played again in Python, which raises it
    wins, losses = [0] * len(game.players), [0] * len(game.players)
    draws = unfinished = plies = 0
    legal, apply = game.rules.legal, game.rules.apply
    for g in range(games):
        rng = SplitMix(seed, g)
        s = first
        n = 0
        while n < max_plies:
            actions = legal(s)
            if not actions:
                break
            s = apply(s, actions[rng.next() % len(actions)])
            n += 1
        plies += n
        if each_game is not None:
            each_game()
        out = game.outcome(s)
        if out is None:
            unfinished += 1
        elif out.winner is not None:
            wins[out.winner] += 1
        elif out.loser is not None:
            losses[out.loser] += 1
        else:
            draws += 1
    return PlayoutStats(games, wins, draws, unfinished, plies, time.perf_counter() - begin, losses)
