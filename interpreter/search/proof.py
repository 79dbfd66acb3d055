"""Depth-first proof-number search (df-pn): does a player have a forced win?

For positions whose reachable set is too large to enumerate, this answers the yes/no
question "can `player` force a win from here?" by building only a proof (or disproof)
tree, guided by proof and disproof numbers, with a transposition table keyed by the
packed (and, optionally, symmetry-canonical) position.

- OR nodes are those where `player` is to move (one winning ply suffices), AND nodes the
  others (every ply must lose); the player to move need not alternate.
- A draw, a loss, or play going on past `depth_limit` plies counts as "not a win".
- Meant for finite games (no position can recur, as in Three Musketeers, where every
  Musketeer ply removes a piece). In games with cycles, a position that repeats on the
  current path counts as "not a win" for this search only; the table can then mix results
  from different paths (the graph-history interaction problem), so use the retrograde
  solver for those games.

Thresholds use the 1+epsilon trick (Pawlewicz and Lew), which cuts re-expansions.

Bounds: `max_nodes` (expansions), `max_positions` (transposition table entries) and
`max_memory` (the table's estimated size in bytes; by default three quarters of the
memory available, as for the solver). A search stopped by one of them, or by Python's
recursion limit on a very long line of play, answers `proven=None` with the reason in
`ProofResult.stopped`; `proof_value` turns that into a SolveError.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass

from interpreter.runtime.game import Game, State
from interpreter.search.codec import Codec, SolveError, two_players_only
from interpreter.search.memory import AUTO, format_bytes, memory_limit
from interpreter.search.progress import Progress
from interpreter.search.symmetry import Canonicalizer, Perm, board_symmetries, canonicalizer_bytes

INF = 1 << 60
# A table entry, in bytes beyond its key: dict slot, (pn, dn) tuple and ints (about 150
# measured on Three Musketeers: 1 GB for 6.9 million entries), with a margin.
BYTES_PER_ENTRY = 170


@dataclass
class ProofResult:
    proven: bool | None  # True: a forced win; False: none; None: budget exhausted
    nodes: int  # positions expanded (with repeats)
    table: int  # entries in the transposition table
    seconds: float
    stopped: str | None = None  # why a search ended without an answer, if not max_nodes
    limit: str | None = None  # the cap that stopped it: "positions", "memory" or None


class ProofSearch:
    """df-pn for one player's forced win; the table is kept between calls."""

    def __init__(self, game: Game, player: int, *, depth_limit: int | None = None,
                 symmetry: bool | list[Perm] = False, epsilon: float = 0.25,
                 max_nodes: int | None = None, progress: bool = False, mobility: bool = False,
                 max_positions: int | None = None, max_memory: int | str | None = AUTO):
        self.game = game
        self.player = player
        self.depth_limit = depth_limit
        self.codec = Codec(game)
        perms = board_symmetries(game) if symmetry is True else list(symmetry or [])
        self.max_memory = memory_limit(max_memory)
        tables = canonicalizer_bytes(perms, self.codec.masks, self.codec.cells) \
            if len(perms) > 1 else 0
        if self.max_memory is not None and tables > self.max_memory:
            raise SolveError(f"the symmetry tables alone would need more than the memory cap "
                             f"of {format_bytes(self.max_memory)}", "memory")
        self.canon = Canonicalizer(perms, self.codec.masks, self.codec.cells) \
            if len(perms) > 1 else None
        self.epsilon = epsilon
        self.max_nodes = max_nodes
        self.max_positions = max_positions
        # the table may hold this many entries (the tighter of the two caps), or None
        per_entry = BYTES_PER_ENTRY + sys.getsizeof(1 << max(1, self.codec.bits - 1)) \
            + (64 if depth_limit is not None else 0)  # keys (key, depth) are tuples
        caps = [c for c in (max_positions,
                            None if self.max_memory is None
                            else (self.max_memory - tables) // per_entry)
                if c is not None]
        self._table_cap = min(caps) if caps else None
        self._stopped: str | None = None
        self._stop_limit: str | None = None
        self.mobility = mobility
        self._root_key = None
        self._root_numbers = (1, 1)  # the root's latest (pn, dn), for the progress line
        self._limit: int | None = None  # node count at which this call to prove() stops
        # Whether any leaf counted as "not a win" without being a loss: a draw, a repetition,
        # the depth limit. While False, a disproof is also a proof that the other player wins.
        self.saw_non_loss = False
        self.table: dict = {}
        self.nodes = 0
        self._progress = Progress(progress)
        self._path: set = set()

    def key(self, state: State, depth_left: int | None):
        k = self.codec.pack(state)
        if self.canon is not None:
            k = self.canon.canonical(k)
        return k if depth_left is None else (k, depth_left)

    def prove(self, state: State) -> ProofResult:
        """Search until `state` is proven or disproven (or the node budget runs out)."""
        begin = time.perf_counter()
        start_nodes = self.nodes
        dl = self.depth_limit
        self._root_key = self.key(state, dl)
        self._limit = None if self.max_nodes is None else start_nodes + self.max_nodes
        self._stopped = self._stop_limit = None
        pn, dn = self._probe(state, dl)
        try:
            while pn and dn:
                if self._limit is not None and self.nodes >= self._limit or self._stopped:
                    break
                self._mid(state, INF, INF, dl)
                pn, dn = self._probe(state, dl)
        except RecursionError:
            self._path.clear()
            self._stopped = (f"the proof search followed a line of play deeper than Python's "
                             f"recursion limit ({sys.getrecursionlimit():,} calls), no answer "
                             f"yet; the retrograde solver handles long lines of play")
        self._progress.done()
        proven = True if pn == 0 else False if dn == 0 else None
        stopped = None if proven is not None else self._stopped
        return ProofResult(proven, self.nodes - start_nodes, len(self.table),
                           time.perf_counter() - begin, stopped, stopped and self._stop_limit)

    def _over_table_cap(self) -> bool:
        """Whether the table is full; the reason is kept for `ProofResult.stopped`."""
        if self._stopped is None:
            if self.max_positions is not None and len(self.table) > self.max_positions:
                self._stopped = (f"more than {self.max_positions:,} positions in the proof "
                                 f"table, and no answer yet")
                self._stop_limit = "positions"
            else:
                self._stop_limit = "memory"
                self._stopped = (f"the proof search would need more than the memory cap of "
                                 f"{format_bytes(self.max_memory or 0)} (stopped at "
                                 f"{len(self.table):,} positions in its table, no answer yet)")
        return True

    def _probe(self, state: State, dl: int | None) -> tuple[int, int]:
        """(pn, dn) of a position: exact at the end of the game, else the table's, else (1, 1)."""
        g = self.game
        if g.is_terminal(state):
            w = g.winner(state)
            if w is None:
                self.saw_non_loss = True
            return (0, INF) if w == self.player else (INF, 0)
        if dl is not None and dl <= 0:
            self.saw_non_loss = True
            return INF, 0
        return self.table.get(self.key(state, dl), (1, 1))

    def _children(self, state: State, cdl: int | None) -> list[tuple]:
        """Each child of `state` once: (state, table key, fixed (pn, dn) or None, first
        estimate), `cdl` plies left below them."""
        g = self.game
        kids = []
        for c in dict.fromkeys(g.apply_unchecked(state, a) for a in g.legal_actions(state)):
            if g.is_terminal(c):
                w = g.winner(c)
                if w is None:
                    self.saw_non_loss = True
                kids.append((c, None, (0, INF) if w == self.player else (INF, 0), None))
            elif cdl is not None and cdl <= 0:
                self.saw_non_loss = True
                kids.append((c, None, (INF, 0), None))
            else:
                k = self.key(c, cdl)
                guess = (1, 1)
                if self.mobility and k not in self.table:
                    # df-pn+: a node with many plies is harder to prove where every ply
                    # must be refuted (and to disprove where one ply suffices)
                    n = len(g.legal_actions(c)) or 1
                    guess = (1, n) if g.to_move(c) == self.player else (n, 1)
                # a repetition of the current path is no win (see the module docstring)
                repeats = k in self._path
                self.saw_non_loss |= repeats
                kids.append((c, k, (INF, 0) if repeats else None, guess))
        return kids

    def _expand(self) -> bool:
        """Count one expansion and show progress; False once a budget or cap stops the search."""
        self.nodes += 1
        if not self.nodes & 8191:
            pn, dn = self._root_numbers
            self._progress.update(f"proof search: {self.nodes:,} nodes, {len(self.table):,} in "
                                  f"table, root pn {pn:,} dn {dn:,}")
        if self._limit is not None and self.nodes > self._limit:
            return False
        return not (self._table_cap is not None and len(self.table) > self._table_cap
                    and self._over_table_cap() or self._stopped)

    def _mid(self, state: State, thpn: int, thdn: int, dl: int | None) -> None:
        """Search below `state` until its (pn, dn) reach the thresholds, then store them."""
        if not self._expand():
            return
        g = self.game
        key = self.key(state, dl)
        is_or = g.to_move(state) == self.player
        cdl = None if dl is None else dl - 1
        kids = self._children(state, cdl)
        table = self.table
        if not kids:  # stuck without an end rule firing: the mover loses (the default rule)
            self.table[key] = (INF, 0) if is_or else (0, INF)
            return
        self._path.add(key)
        eps = 1.0 + self.epsilon
        try:
            while True:
                best = None
                if is_or:
                    pn, dn, second, best_other = INF, 0, INF, 0
                    for c, k, fixed, guess in kids:
                        cpn, cdn = fixed or table.get(k, guess)
                        dn += cdn
                        if cpn < pn:
                            second, pn, best, best_other = pn, cpn, c, cdn
                        elif cpn < second:
                            second = cpn
                    dn = min(dn, INF)
                else:
                    pn, dn, second, best_other = 0, INF, INF, 0
                    for c, k, fixed, guess in kids:
                        cpn, cdn = fixed or table.get(k, guess)
                        pn += cpn
                        if cdn < dn:
                            second, dn, best, best_other = dn, cdn, c, cpn
                        elif cdn < second:
                            second = cdn
                    pn = min(pn, INF)
                if key == self._root_key:
                    self._root_numbers = (pn, dn)
                if pn >= thpn or dn >= thdn or not pn or not dn:
                    table[key] = (pn, dn)
                    return
                if self._limit is not None and self.nodes > self._limit or self._stopped:
                    table[key] = (pn, dn)
                    return
                if is_or:
                    cth_pn = min(thpn, int(second * eps) + 1)
                    cth_dn = min(INF, thdn - dn + best_other)
                else:
                    cth_dn = min(thdn, int(second * eps) + 1)
                    cth_pn = min(INF, thpn - pn + best_other)
                self._mid(best, cth_pn, cth_dn, cdl)
        finally:
            self._path.discard(key)

    def proof_depth(self, state: State, dl: int | None = None) -> int | None:
        """The longest line of the proof tree the table holds (an upper bound on the
        remoteness of a proven win): OR nodes take their shortest proven child."""
        memo: dict = {}
        g = self.game

        def depth(s: State, d: int | None) -> int | None:
            if g.is_terminal(s):
                return 0 if g.winner(s) == self.player else None
            k = self.key(s, d)
            if k in memo:
                return memo[k]
            if self.table.get(k, (1, 1))[0] != 0:
                memo[k] = None
                return None
            cd = None if d is None else d - 1
            sub = [depth(c, cd) for c in dict.fromkeys(g.apply_unchecked(s, a) for a in g.legal_actions(s))]
            if g.to_move(s) == self.player:
                ok = [x for x in sub if x is not None]
                r = 1 + min(ok) if ok else None
            else:
                r = None if any(x is None for x in sub) else 1 + max(sub)
            memo[k] = r
            return r

        return depth(state, self.depth_limit if dl is None else dl)


def prove(game: Game, state: State, player: int, **options) -> ProofResult:
    """Whether `player` can force a win from `state` (see `ProofSearch`)."""
    return ProofSearch(game, player, **options).prove(state)


def proof_value(game: Game, state: State, **options) -> tuple[str, list, int]:
    """The value of `state` for the player to move by df-pn: 'win', 'lose' or 'draw'.

    Returns (value, winning plies (for a win; empty otherwise), positions in the tables).
    'draw' means neither player can force a win; in games with cycles that answer is
    subject to the caveat in this module's docstring. No remoteness: df-pn proves only.
    Raises SolveError when a search stops without an answer (a node, position or memory
    cap, or the recursion limit): then nothing is known.
    """
    two_players_only(game)
    me = game.to_move(state)
    if game.is_terminal(state):
        w = game.winner(state)
        return ("draw" if w is None else "win" if w == me else "lose"), [], 0
    mine = ProofSearch(game, me, **options)
    result = mine.prove(state)
    proven = _answer(result)
    if proven:
        wins = []
        for a in game.legal_actions(state):
            c = game.apply_unchecked(state, a)
            if mine._probe(c, None if mine.depth_limit is None else mine.depth_limit - 1)[0] == 0:
                wins.append(a)
        return "win", wins, len(mine.table)
    if not mine.saw_non_loss:
        # every line the disproof met ended in a loss for the mover: the opponent wins
        return "lose", [], len(mine.table)
    positions = len(mine.table)
    mine.table = {}  # the second search gets the memory back
    theirs = ProofSearch(game, 1 - me, **options)
    proven = _answer(theirs.prove(state))
    return ("lose" if proven else "draw"), [], positions + len(theirs.table)


def _answer(result: ProofResult) -> bool:
    if result.proven is None:
        reason = result.stopped or (f"the proof search reached its node budget "
                                    f"({result.nodes:,} expansions), no answer yet")
        raise SolveError(reason, result.limit)
    return result.proven
