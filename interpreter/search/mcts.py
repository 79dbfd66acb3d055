"""Monte Carlo tree search: UCT with uniformly random playouts.

Each node keeps the total reward of the player who made the ply into it (the player to
move at its parent: turns may hold several plies, so that is not "the other player"),
from the game's returns: with more than two players, each player plays for itself.
Playouts are cut at `max_playout` plies and then count as draws. Everything random comes
from one `random.Random(seed)`, so a search is reproducible.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from interpreter.runtime.game import Action, Game, State


class _Node:
    __slots__ = ("state", "mover", "children", "untried", "visits", "reward", "terminal")

    def __init__(self, game: Game, state: State, rng: random.Random):
        self.state = state
        self.terminal = game.is_terminal(state)
        self.mover = game.to_move(state)
        self.untried: list[Action] = [] if self.terminal else game.legal_actions(state)
        rng.shuffle(self.untried)
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.reward = 0.0  # for the player to move at the parent


@dataclass
class MCTSResult:
    action: Action | None
    iterations: int
    seconds: float
    visits: dict[Action, int]
    win_rate: float  # the chosen child's mean reward, -1..1, for the player to move


class MCTS:
    """UCT search; `iterations` and/or `time_limit` (seconds) bound each search."""

    def __init__(self, game: Game, iterations: int | None = 1000, time_limit: float | None = None,
                 seed: int | None = 0, exploration: float = 1.4, max_playout: int = 500):
        if iterations is None and time_limit is None:
            raise ValueError("give an iteration count, a time limit or both")
        self.game = game
        self.iterations = iterations
        self.time_limit = time_limit
        self.rng = random.Random(seed)
        self.c = exploration
        self.max_playout = max_playout

    def search(self, state: State) -> MCTSResult:
        game, rng = self.game, self.rng
        begin = time.perf_counter()
        legal = game.legal_actions(state)
        if len(legal) <= 1:
            return MCTSResult(legal[0] if legal else None, 0, 0.0, {}, 0.0)
        me = game.to_move(state)
        # a ply that wins at once needs no search
        for a in legal:
            child = game.apply_unchecked(state, a)
            if game.winner(child) == me:
                return MCTSResult(a, 0, time.perf_counter() - begin, {}, 1.0)
        root = _Node(game, state, rng)
        deadline = None if self.time_limit is None else begin + self.time_limit
        n = 0
        while True:
            if self.iterations is not None and n >= self.iterations:
                break
            if deadline is not None and not n & 15 and time.perf_counter() > deadline:
                break
            self._iterate(root)
            n += 1
        best = max(root.children.items(), key=lambda kv: kv[1].visits)
        node = best[1]
        return MCTSResult(best[0], n, time.perf_counter() - begin,
                          {a: ch.visits for a, ch in root.children.items()},
                          node.reward / node.visits if node.visits else 0.0)

    def choose(self, state: State) -> Action:
        """The most visited root ply."""
        action = self.search(state).action
        if action is None:
            raise ValueError("no legal ply: the game is over")
        return action

    def _iterate(self, root: _Node) -> None:
        game, rng = self.game, self.rng
        path = [root]
        node = root
        # selection
        while not node.untried and node.children:
            log_n = math.log(node.visits)
            c = self.c
            best, best_u = None, -math.inf
            for ch in node.children.values():
                u = ch.reward / ch.visits + c * math.sqrt(log_n / ch.visits)
                if u > best_u:
                    best, best_u = ch, u
            node = best
            path.append(node)
        # expansion
        if node.untried:
            a = node.untried.pop()
            child = _Node(game, game.apply_unchecked(node.state, a), rng)
            node.children[a] = child
            node = child
            path.append(node)
        # simulation
        s = node.state
        legal, apply, choice = game.rules.legal, game.rules.apply, rng.choice
        for _ in range(self.max_playout):
            actions = legal(s)
            if not actions:
                break
            s = apply(s, choice(actions))
        returns = game.returns(s)
        # backpropagation: each node scores for the player who moved into it (max^n with
        # more than two players: each for itself)
        for i in range(len(path) - 1, -1, -1):
            nd = path[i]
            nd.visits += 1
            if i:
                nd.reward += returns[path[i - 1].mover]
