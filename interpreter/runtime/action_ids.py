"""Fixed action ids: every ply of a ruleset as one integer (or, for chained plies, a few).

The id space is derived from the ruleset alone, so it is the same in every run and
process. It is cut into one segment per ply rule (the rule's per-player codes share
it, since only the player to move has plies) and one for `pass` where a turn allows
it (`or pass`), in the order the rules are declared; inside a segment, with N the
board's cells (goals included) and T the most piece types the rule can move or place
for one player (the piece is numbered among the mover's, in declaration order):

    move       T x N x N       piece, from cell, to cell (a chain of hops that removes
                               nothing too: one ply from each start to each end)
    placement  T x P           piece, placement index (P: the most placements of its types)
    place      T x N           piece, cell
    push       D x N x N       direction (D: the rule's straight directions), far cell, here
    chain      T x N x N x 2   one hop: piece, from, to, and whether the ply ends there
    pass       1

What a ply removes is not in its id: the language identifies a ply by what it does
(piece, start, destination), and its removals follow from the position. A chained ply
that removes pieces is identified by its removed set, which has no bounded number of
values, so a chain's ids number its hops: a ply is a sequence of ids, one per straight
segment of one of its routes, the last one marked as the end. `ActionSpace.hops` says whether a ruleset
has such rules; everything else takes one id a ply.
"""

from __future__ import annotations

import operator
import threading
from dataclasses import dataclass
from typing import NamedTuple

from dsl.constructs.slide import straight

from interpreter.runtime.actions import Shape
from interpreter.runtime.chain_hops import HopGraph, PieceHops
from interpreter.runtime.game import Action, Game, IllegalActionError, State
from interpreter.runtime.tables import cells_of

Ids = tuple[int, ...]


def has_chains(game: Game) -> bool:
    """Whether some rule of `game` makes chained plies that take several ids a ply."""
    return any(_hops_ids(game, r.name, r.format.shape) is Shape.CHAIN for r in game.rule_infos)


def _hops_ids(game: Game, name: str, shape: Shape) -> Shape:
    """How a rule's plies are numbered: a chain that removes pieces by its hops (the pieces
    it takes are not in an id); a chain of hops over pieces that stay (Chinese checkers)
    by piece, start and end, as a move, for it makes one ply of each; else by its shape."""
    if shape is Shape.CHAIN and not next(p for p in game.ruleset.plies if p.name == name).removals():
        return Shape.MOVE
    return shape


@dataclass(frozen=True)
class Segment:
    """The ids of one ply rule: `start` to `start + size - 1`."""

    name: str
    shape: Shape
    start: int
    size: int
    kinds: int  # T: how many piece types the ids number
    width: int  # placements per type (placement), directions (push), else cells
    directions: tuple[str, ...] = ()  # a push's, in the order of its actions' indices
    pieces: tuple[str, ...] = ()  # the kind of each numbered piece (`a/b` if players differ)
    sizes: tuple[int, ...] = ()  # the cells each numbered piece covers


class _Position:
    """A position's legal plies: those of one id by id, the chains by piece (rule code,
    piece type, start) and (final cell, removed); each piece's hops once asked for; the
    first ids, once listed."""

    __slots__ = ("state", "singles", "chains", "hops", "first")

    def __init__(self, state: State, singles: dict[int, Action],
                 chains: dict[tuple[int, int, int], dict[tuple[int, int], Action]],
                 hops: dict[tuple[int, int, int], PieceHops], first: list[int] | None):
        self.state, self.singles, self.chains, self.hops, self.first = state, singles, chains, hops, first


class _Begun(NamedTuple):
    """A chain begun: its piece (rule code, piece type, start) and the state of its search."""

    group: tuple[int, int, int]
    at: int


class ActionSpace:
    """The fixed action ids of a game, and the legal ids of a position.

    A position mid-ply (a chain's route begun) is the game's state plus the ids of the
    hops made so far, `prefix`; every other ply is complete in one id (`prefix` empty).
    It remembers the legal ids of the last position asked about, one per thread, so threads
    may share it.
    """

    def __init__(self, game: Game):
        self.game = game
        rs, n = game.ruleset, game.board.size
        self.cells = n
        self.segments: list[Segment] = []
        self._segment_of: dict[int, Segment] = {}  # rule code -> its segment
        self._pieces: dict[int, tuple[int, ...]] = {}  # rule code -> the types it numbers
        by_name: dict[str, Segment] = {}
        start = 0
        # `pass` has an id only where a turn allows it (OpenSpiel's tic-tac-toe has 9 ids)
        passes = any(ph.allows_pass for ph in rs.turn + (rs.first_turn or []))
        self.rules = [r for r in game.rule_infos if passes or r.format.shape is not Shape.PASS]
        for rule in self.rules:
            self._pieces[rule.code] = self._types(rule.name, rule.player)
        for rule in self.rules:
            seg = by_name.get(rule.name)
            if seg is None:
                shape = _hops_ids(game, rule.name, rule.format.shape)
                lists = [self._pieces[r.code] for r in self.rules if r.name == rule.name]
                types = {t for ts in lists for t in ts}
                kinds = max(map(len, lists))
                pieces = tuple("/".join(dict.fromkeys(rs.types[ts[i]].kind for ts in lists if i < len(ts)))
                               for i in range(kinds))
                sizes = tuple(max(rs.types[ts[i]].size for ts in lists if i < len(ts)) for i in range(kinds))
                width, dirs = n, ()
                if shape is Shape.PLACEMENT:
                    width = max(len(game.tables.placement_masks(rs.types[t].size)) for t in types)
                elif shape is Shape.WIDE_PLACE:
                    width = max(len(game.tables.placement_masks(rs.types[t].cover)) for t in types)
                    sizes = tuple(max(rs.types[ts[i]].cover for ts in lists if i < len(ts)) for i in range(kinds))
                elif shape is Shape.PUSH:
                    ply = next(p for p in rs.plies if p.name == rule.name)
                    dirs = tuple(dict.fromkeys(d for v in ply.variants() for d in straight(game.board, v.motion.dirs)))
                    kinds, width = 0, len(dirs)
                size = {Shape.MOVE: kinds * n * n, Shape.PLACEMENT: kinds * width, Shape.WIDE_PLACE: kinds * width,
                        Shape.PLACE: kinds * n, Shape.PUSH: width * n * n,
                        Shape.CHAIN: kinds * n * n * 2, Shape.PASS: 1}[shape]
                seg = by_name[rule.name] = Segment(rule.name, shape, start, size, kinds, width, dirs, pieces, sizes)
                self.segments.append(seg)
                start += size
            self._segment_of[rule.code] = seg
        self.size = start
        self.hops = has_chains(game)
        self._encoders = {r.code: self._encoder(r.code) for r in self.rules}
        self._local = threading.local()

    @property
    def _cache(self) -> _Position | None:
        """The last position asked about in this thread."""
        return getattr(self._local, "cache", None)

    @_cache.setter
    def _cache(self, value: _Position) -> None:
        self._local.cache = value

    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in ("_local", "_encoders")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._local = threading.local()
        self._encoders = {r.code: self._encoder(r.code) for r in self.rules}

    def _types(self, name: str, player: int | None) -> tuple[int, ...]:
        rs = self.game.ruleset
        if player is None:  # pass
            return ()
        ply = next(p for p in rs.plies if p.name == name)
        return tuple(sorted(rs.selected(ply.kind, ply.owner, player)))

    def _encoder(self, code: int):
        """action -> its id, for a rule whose plies take one id (None for a chain's)."""
        seg, n = self._segment_of[code], self.cells
        base, w = seg.start, seg.width
        index = {t: i for i, t in enumerate(self._pieces[code])}
        return {Shape.MOVE: lambda a: base + (index[a[1]] * n + a[2]) * n + a[3],
                Shape.PLACE: lambda a: base + index[a[1]] * n + a[2],
                Shape.PLACEMENT: lambda a: base + index[a[1]] * w + a[2],
                Shape.WIDE_PLACE: lambda a: base + index[a[1]] * w + a[2],
                Shape.PUSH: lambda a: base + (a[1] * n + a[2]) * n + a[3],
                Shape.PASS: lambda a: base}.get(seg.shape)

    @property
    def num_distinct_actions(self) -> int:
        return self.size

    def notice(self) -> str | None:
        """Said when the game is loaded for ids: the rules whose plies take several ids."""
        chains = [s.name for s in self.segments if s.shape is Shape.CHAIN]
        if not chains:
            return None
        rules = ", ".join(f"'{c}'" for c in chains)
        return (f"{self.game.title}: the chained plies of {rules} are identified by the pieces "
                f"they remove, which no fixed action space can number; their action ids are "
                f"hops, one per straight segment, the last marked as the end "
                f"(docs/EMBEDDING.md)")

    # ------------------------------------------------------------ one ply <-> ids
    def encode(self, state: State, action: Action) -> Ids:
        """The ids of a legal ply of `state`: one, or a chain's hops along the route its
        notation shows."""
        one = self._encoders[action[0]]
        if one is not None:
            return (one(action),)
        group, route = action[:3], self.game.notation.chain_route(state, action)
        last = len(route) - 2
        return tuple(self._hop_id(group, a, (b, int(i == last))) for i, (a, b) in enumerate(zip(route, route[1:])))

    def _position(self, state: State) -> _Position:
        """The legal plies of `state` by id, and its chains by piece (kept per thread)."""
        cached = self._cache
        if cached is not None and cached.state == state:
            return cached
        singles: dict[int, Action] = {}
        chains: dict[tuple[int, int, int], dict[tuple[int, int], Action]] = {}
        actions = self.game.legal_actions(state)
        enc = self._encoders
        for a in actions:
            one = enc[a[0]]
            if one is None:
                chains.setdefault((a[0], a[1], a[2]), {})[(a[3], a[4])] = a
            elif singles.setdefault(one(a), a) != a:
                raise RuntimeError(f"{self.game.title}: two legal plies share the action id {one(a)}: "
                                   f"{self.game.action_to_text(state, a)}, "
                                   f"{self.game.action_to_text(state, singles[one(a)])}")
        self._cache = pos = _Position(state, singles, chains, {}, None)
        return pos

    def _hops(self, pos: _Position, group: tuple[int, int, int]) -> PieceHops:
        """The hops of one piece's legal chains (rule code, piece type, start)."""
        hops = pos.hops.get(group)
        if hops is None:
            graph = HopGraph()
            self.game.python_rules.chains[group[0]](pos.state, group[1], group[2], graph=graph)
            hops = pos.hops[group] = PieceHops(graph, group[2], pos.chains[group])
        return hops

    def _hop_id(self, group: tuple[int, int, int], a: int, hop: tuple[int, int]) -> int:
        """The id of a hop of a piece's chains (rule code, piece type, start): from cell a
        to cell hop[0], hop[1] 1 if the ply ends there."""
        n = self.cells
        t = self._pieces[group[0]].index(group[1])
        return self._segment_of[group[0]].start + ((t * n + a) * n + hop[0]) * 2 + hop[1]

    def _hop_of(self, action_id: int) -> tuple[Segment, int, int, int, int] | None:
        """_hop_id's parts of a hop's id: its segment, the piece's number in it, from cell,
        to cell, end; None for an id that is no hop."""
        seg = self._segment(action_id)
        if seg.shape is not Shape.CHAIN:
            return None
        pair, end = divmod(action_id - seg.start, 2)
        t, rest = divmod(pair, self.cells * self.cells)
        return (seg, t) + divmod(rest, self.cells) + (end,)

    def _group(self, pos: _Position, first: int) -> tuple[int, int, int] | None:
        """The piece whose legal chains a first hop `first` begins, if any."""
        hop = self._hop_of(first)
        if hop is None:
            return None
        seg, t, start = hop[:3]
        for group in pos.chains:
            code, piece, c0 = group
            if self._segment_of[code] is seg and c0 == start and self._pieces[code].index(piece) == t:
                return group
        return None

    def _walk(self, state: State, ids: Ids) -> tuple[_Position, Action | _Begun | None]:
        """Where ids lead in `state`: the ply they make, a chain begun, or None if no legal
        ply begins with them; and the position's plies."""
        pos = self._position(state)
        if len(ids) == 1 and ids[0] in pos.singles:
            return pos, pos.singles[ids[0]]
        group = self._group(pos, ids[0])
        if group is None:
            return pos, None
        hops, x = self._hops(pos, group), 0
        for k, i in enumerate(ids):
            hop = self._hop_of(i)
            if hop is None:
                return pos, None
            seg, t, a, b, end = hop
            if seg is not self._segment_of[group[0]] or t != self._pieces[group[0]].index(group[1]) \
                    or a != hops.at(x):
                return pos, None
            got = hops.take(x, (b, end))
            if got is None or (isinstance(got, tuple) and k < len(ids) - 1):  # a ply ended early
                return pos, None
            if isinstance(got, tuple):
                return pos, got
            x = got
        return pos, _Begun(group, x)

    def decode(self, state: State, ids: Ids) -> Action | None:
        """The legal ply `ids` make in `state`; None if they begin one (a chain's hops so
        far); IllegalActionError if they begin none."""
        try:
            ids = tuple(operator.index(i) for i in ids)  # numpy's integers too
        except TypeError:
            raise IllegalActionError(f"action ids are whole numbers, found {ids!r}") from None
        for i in ids:
            if not 0 <= i < self.size:
                raise IllegalActionError(f"action id {i} is out of range 0..{self.size - 1}")
        if not ids:
            return None
        _, got = self._walk(state, ids)
        if got is None:
            raise IllegalActionError(self._illegal(state, ids))
        return None if isinstance(got, _Begun) else got

    def _illegal(self, state: State, ids: Ids) -> str:
        shown = ", ".join(self.id_text(i) for i in ids)
        n = len(self.legal_ids(state, ids[:-1]))
        after = " after the hops before it" if len(ids) > 1 else ""
        return f"action id{'s' if len(ids) > 1 else ''} {shown} make{'' if len(ids) > 1 else 's'} " \
               f"no legal ply in this position ({n} legal{after})"

    def apply_id(self, state: State, prefix: Ids, action_id: int) -> tuple[State, Ids]:
        """One id made in (`state`, `prefix`): the next state and an empty prefix when it
        completes a ply, else `state` and the longer prefix; IllegalActionError if no
        legal ply goes on with it."""
        ids = prefix + (action_id,)
        action = self.decode(state, ids)
        if action is None:
            return state, ids
        return self.game.apply_unchecked(state, action), ()

    # ------------------------------------------------------------ legal ids
    def legal_ids(self, state: State, prefix: Ids = ()) -> list[int]:
        """The ids that may come next after `prefix` in `state`, ascending."""
        if not prefix:
            pos = self._position(state)
            if pos.first is None:
                ids = set(pos.singles)
                for group in pos.chains:
                    hops = self._hops(pos, group)
                    ids.update(self._hop_id(group, group[2], h) for h in hops.next(0))
                pos.first = sorted(ids)
            return list(pos.first)
        pos, got = self._walk(state, tuple(prefix))
        if not isinstance(got, _Begun):
            return []
        group, x = got
        hops = self._hops(pos, group)
        return sorted({self._hop_id(group, hops.at(x), h) for h in hops.next(x)})

    def legal_mask(self, state: State, prefix: Ids = ()) -> bytearray:
        """One byte an id: 1 where the id may come next, else 0."""
        mask = bytearray(self.size)
        for i in self.legal_ids(state, prefix):
            mask[i] = 1
        return mask

    def route(self, prefix: Ids) -> tuple[int, ...]:
        """The cells of a chain begun: where its piece started, then each hop's end."""
        cells: list[int] = []
        for i in prefix:
            hop = self._hop_of(i)
            if hop is None:
                raise ValueError(f"action id {i} ({self.id_text(i)}) is not a hop of a chain")
            cells += list(hop[2:4]) if not cells else [hop[3]]
        return tuple(cells)

    def _segment(self, action_id: int) -> Segment:
        if not 0 <= action_id < self.size:
            raise ValueError(f"action id {action_id} is out of range 0..{self.size - 1}")
        return next(s for s in self.segments if s.start <= action_id < s.start + s.size)

    def id_text(self, action_id: int) -> str:
        """What an id names, for people: `capture musketeer c3-c4`, `whistle stone e5-e7 end`,
        `colour blue/red a1+b1` (a piece covering two cells)."""
        seg = self._segment(action_id)
        k, n, names = action_id - seg.start, self.cells, self.game.board.names
        symbols = seg.pieces
        if seg.shape is Shape.PASS:
            return "pass"
        if seg.shape is Shape.PUSH:
            d, rest = divmod(k, n * n)
            return f"{seg.name} {seg.directions[d]} {names[rest // n]}-{names[rest % n]}"
        if seg.shape is Shape.PLACE:
            return f"{seg.name} {symbols[k // n]} {names[k % n]}"
        if seg.shape in (Shape.PLACEMENT, Shape.WIDE_PLACE):
            t, p = divmod(k, seg.width)
            masks = self.game.tables.placement_masks(seg.sizes[t])
            if p >= len(masks):  # a smaller piece than the segment's widest has fewer
                return f"{seg.name} {symbols[t]} placement {p} (none)"
            return f"{seg.name} {symbols[t]} " + "+".join(names[c] for c in cells_of(masks[p]))
        end = ""
        if seg.shape is Shape.CHAIN:
            k, last = divmod(k, 2)
            end = " end" if last else ""
        t, rest = divmod(k, n * n)
        return f"{seg.name} {symbols[t]} {names[rest // n]}-{names[rest % n]}{end}"
