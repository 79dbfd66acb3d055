"""Alpha-beta search: negamax with a transposition table and iterative deepening.

Scores are from the point of view of the player to move. A won end scores
`WIN - plies` from the root, a lost end `-(WIN - plies)`, so the winner prefers the
shortest way and the loser the longest, as in the solver; a draw scores 0, and so does a
position at the depth limit unless an `evaluate` function is given. The player to move
does not always alternate (a turn may hold several plies), so a child's score is negated
only when the player changes.

Mate scores are stored in the table relative to the node (distance from it), so an entry
serves wherever the position recurs.

With more than two players the search is *paranoid*: the player to move at the root
against all the others as one side, an end scoring as a win where the root player's
return is positive (the table is then cleared when another player searches).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

from interpreter.runtime.game import Action, Game, State

WIN = 1_000_000_000
MAX_PLIES = 100_000
# The deepest search: the negamax recursion takes one Python call a ply, and Python's
# recursion limit (1,000 by default) must hold it and its callers.
MAX_DEPTH = 500
MATE = WIN - MAX_PLIES  # scores beyond +-MATE are forced wins or losses
INF = 2 * WIN
EXACT, LOWER, UPPER = 0, 1, 2

Evaluate = Callable[[Game, State], int]


class _Timeout(Exception):
    pass


@dataclass
class SearchResult:
    """The outcome of a search: score, best plies and what it cost."""

    score: int
    best: list[Action]  # the root plies that reach `score` (best first)
    depth: int  # the last depth searched to completion
    nodes: int
    seconds: float
    pv: list[Action] = field(default_factory=list)

    @property
    def value(self) -> str | None:
        """'win' or 'lose' when the search proved it, 'draw' for a proven draw, else None."""
        if self.score > MATE:
            return "win"
        if self.score < -MATE:
            return "lose"
        return None

    @property
    def remoteness(self) -> int | None:
        """Plies to the end when the search proved a win or a loss."""
        if self.score > MATE:
            return WIN - self.score
        if self.score < -MATE:
            return WIN + self.score
        return None

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


class AlphaBeta:
    """Negamax alpha-beta with a transposition table (kept between searches)."""

    def __init__(self, game: Game, evaluate: Evaluate | None = None, table_size: int = 2_000_000):
        self.game = game
        self.evaluate = evaluate
        self.table_size = table_size
        self.table: dict[State, tuple[int, int, int, Action | None]] = {}
        self.nodes = 0
        self._deadline: float | None = None
        self._root_player = 0  # with more than two players, the side searching
        self._paranoid = len(game.players) > 2  # read once: _side runs at every node

    def _side(self, state: State) -> int:
        """The side to move: the player, or with more than two players whether it is the root's."""
        p = self.game.to_move(state)
        return int(p != self._root_player) if self._paranoid else p

    def _leaf(self, state: State, ply: int) -> int:
        g = self.game
        if g.is_terminal(state):
            if not self._paranoid:
                w = g.winner(state)
                if w is None:
                    return 0
                return WIN - ply if w == g.to_move(state) else -(WIN - ply)
            mine = g.returns(state)[self._root_player]
            score = 0 if mine == 0 else WIN - ply if mine > 0 else -(WIN - ply)
            return score if self._side(state) == 0 else -score
        return self.evaluate(self.game, state) if self.evaluate else 0

    def _negamax(self, state: State, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self._deadline is not None and not self.nodes & 1023 \
                and time.perf_counter() > self._deadline:
            raise _Timeout
        g = self.game
        if depth <= 0 or g.is_terminal(state):
            return self._leaf(state, ply)
        entry = self.table.get(state)
        tt_move = None
        if entry is not None:
            e_depth, flag, e_score, tt_move = entry
            if e_depth >= depth:
                score = _from_table(e_score, ply)
                if flag == EXACT:
                    return score
                if flag == LOWER and score >= beta:
                    return score
                if flag == UPPER and score <= alpha:
                    return score
        actions = g.legal_actions(state)
        if not actions:  # not terminal, yet stuck: by the default rule, the mover loses
            return -(WIN - ply)
        if tt_move is not None and tt_move in actions:
            actions.remove(tt_move)
            actions.insert(0, tt_move)
        me = self._side(state)
        alpha0 = alpha
        best, best_move = -INF, actions[0]
        apply = g.apply_unchecked
        for a in actions:
            child = apply(state, a)
            if self._side(child) == me:
                v = self._negamax(child, depth - 1, alpha, beta, ply + 1)
            else:
                v = -self._negamax(child, depth - 1, -beta, -alpha, ply + 1)
            if v > best:
                best, best_move = v, a
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        if len(self.table) >= self.table_size:
            self.table.clear()
        self.table[state] = (depth, flag, _to_table(best, ply), best_move)
        return best

    def search(self, state: State, depth: int | None = None, time_limit: float | None = None,
               start_depth: int = 1) -> SearchResult:
        """Iterative deepening to `depth` plies or until `time_limit` seconds have passed.

        Stops early once a win or loss is proven within the depth searched (deeper search
        cannot change it). With a time limit, the last completed depth answers (at least
        depth 1 is always completed).
        """
        if depth is None and time_limit is None:
            raise ValueError("give a depth, a time limit or both")
        if depth is not None and not 1 <= depth <= MAX_DEPTH:
            raise ValueError(f"the depth must be from 1 to {MAX_DEPTH}, found {depth}")
        g = self.game
        begin = time.perf_counter()
        self.nodes = 0
        max_depth = depth if depth is not None else MAX_DEPTH
        actions = g.legal_actions(state)
        if not actions:
            return SearchResult(self._leaf(state, 0), [], 0, 0, 0.0)
        if self._paranoid and g.to_move(state) != self._root_player:
            self.table.clear()  # the scores were another player's
            self._root_player = g.to_move(state)
        result = SearchResult(0, [actions[0]], 0, 0, 0.0)
        me = self._side(state)
        for d in range(max(1, start_depth), max_depth + 1):
            self._deadline = None if time_limit is None or d == start_depth \
                else begin + time_limit
            try:
                scores = self._root(state, actions, me, d)
            except _Timeout:
                break
            finally:
                self._deadline = None
            top = max(scores)
            best = [a for a, s in zip(actions, scores) if s == top]
            # search the best first next time: cutoffs come sooner
            order = sorted(range(len(actions)), key=lambda i: -scores[i])
            actions = [actions[i] for i in order]
            result = SearchResult(top, best, d, self.nodes, time.perf_counter() - begin)
            if abs(top) > MATE and WIN - abs(top) <= d:
                break
            if time_limit is not None and time.perf_counter() - begin > time_limit:
                break
        result.nodes = self.nodes
        result.seconds = time.perf_counter() - begin
        result.pv = self.principal_variation(state, result.best[0] if result.best else None)
        return result

    def _root(self, state: State, actions: list[Action], me: int, depth: int) -> list[int]:
        """Root scores: exact for every ply that ties the best, upper bounds for the rest.

        The window opens one below the best score so far, so ties are still found exactly.
        """
        g = self.game
        scores = []
        alpha = -INF
        for a in actions:
            child = g.apply_unchecked(state, a)
            if self._side(child) == me:
                v = self._negamax(child, depth - 1, alpha, INF, 1)
            else:
                v = -self._negamax(child, depth - 1, -INF, -alpha, 1)
            scores.append(v)
            if v - 1 > alpha:
                alpha = v - 1
        return scores

    def principal_variation(self, state: State, first: Action | None, limit: int = 64) -> list[Action]:
        """The line of best plies the table remembers, from `first` on."""
        g = self.game
        pv: list[Action] = []
        seen = set()
        a = first
        while a is not None and len(pv) < limit and state not in seen:
            seen.add(state)
            pv.append(a)
            state = g.apply_unchecked(state, a)
            entry = self.table.get(state)
            if entry is None or g.is_terminal(state):
                break
            a = entry[3]
        return pv


def _to_table(score: int, ply: int) -> int:
    if score > MATE:
        return score + ply
    if score < -MATE:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score > MATE:
        return score - ply
    if score < -MATE:
        return score + ply
    return score


def search(game: Game, state: State, depth: int | None = None,
           time_limit: float | None = None) -> SearchResult:
    """One alpha-beta search with a fresh table (see `AlphaBeta.search`)."""
    return AlphaBeta(game).search(state, depth, time_limit)
