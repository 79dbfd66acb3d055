"""The symmetry that exchanges the players: each player's pieces become the other's, the
board is turned onto itself, and the other player is to move.

In a game whose rules treat the two players alike (3-A-Side: South's men and goal mirror
North's), a position and its image have the same value for their player to move, so a
solve keeps one of the two: the one with the first player to move (`Canonicalizer`
swaps the others first). Half the positions, as the hand-written solvers of such games
do ("colour swap").

A swap is a cell permutation and a piece-type permutation (each owned type to the other
player's type of its kind, or, where each player owns one kind of its own that no rule
names, to the other's; its reserve with it; neutral types kept); a per-player
variable's values change players (`swap_slots`). It is found as the board symmetries are
(symmetry.py): candidates that map the regions onto regions, each type's setup onto its
partner's, and the cells the rules name onto themselves; then each is checked on
positions from seeded random playouts (the children of the image are the images of the
children, the winner the other player). Games with counted kinds or tracks, or a first
turn of one player's, get none.

A ply's value is for the player to move, so across a ply the solve needs to know whether
the mover changed; with swapped positions kept as one, that is a property of the ply,
not of the two positions (the solver records it per arc).
"""

from __future__ import annotations

import dataclasses
from functools import partial
from typing import Iterator, NamedTuple

from dsl.model import Ruleset
from interpreter.runtime.game import Game, State
from interpreter.runtime.layout import SlotKind
from interpreter.search.codec import Codec
from interpreter.search.symmetry import (CHECK_POSITIONS, Perm, automorphisms, byte_tables,
    commutes, permute_mask, referenced, sample_positions)

# the slots a swap maps (masks by type and cells, the player, the outcome) or keeps
SWAPPABLE = {SlotKind.PIECES, SlotKind.PLAYER, SlotKind.PHASE, SlotKind.LAST_RULE,
             SlotKind.LAST_CELLS, SlotKind.OUTCOME, SlotKind.COUNTER, SlotKind.RESERVE}


def swap_slots(game: Game, types: tuple[int, ...]) -> tuple[int, ...]:
    """Where each slot of a state goes under a swap whose types go to `types`: a type's
    mask and reserve to its partner's, a per-player variable's slot to the other player's;
    every other slot stays."""
    L = game.layout
    out = list(range(L.length))
    for t, u in enumerate(types):
        out[t] = u
        if t in L.reserve_offsets:
            out[L.reserve_offsets[t]] = L.reserve_offsets[u]
    for v in game.ruleset.vars:
        if v.per_player:
            first = L.var_offsets[v.name]
            out[first], out[first + 1] = first + 1, first
    return tuple(out)


class PlayerSwap(NamedTuple):
    """Cell c goes to cells[c]; a piece of type t becomes one of type types[t]."""

    cells: Perm
    types: tuple[int, ...]

    @property
    def involution(self) -> bool:
        """Whether the swap twice is the identity (its cells too)."""
        return all(self.cells[self.cells[c]] == c for c in range(len(self.cells)))


def _strings(obj: object) -> Iterator[str]:
    """Every string held in `obj`, through dataclasses, sequences and mappings (a stack,
    not recursion: a model's depth is the designer's)."""
    stack, seen = [obj], set()
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            yield x
        elif id(x) in seen:
            continue
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            seen.add(id(x))
            stack.extend(getattr(x, f.name) for f in dataclasses.fields(x))
        elif isinstance(x, (list, tuple, set, frozenset)):
            seen.add(id(x))
            stack.extend(x)
        elif isinstance(x, dict):
            seen.add(id(x))
            stack.extend(x.keys())
            stack.extend(x.values())


def _rules_name(rs: Ruleset, words: set[str]) -> bool:
    """Whether the rules (plies, turns, ends, relations; not the setups) hold any of
    `words`: a kind they name is one they may treat apart from the others."""
    rules = [rs.plies, rs.turn, rs.ends, rs.relations, rs.compulsory, rs.after, rs.first_turn,
             rs.vars, rs.player_regions]
    return any(w in words for w in _strings(rules))


def _by_owner(rs: Ruleset) -> tuple[int, ...] | None:
    """The partners when each player owns one kind of its own (3-Spot's red and blue) and
    the rules name neither (`move own piece`): the two kinds exchanged, or None."""
    owned = [i for i, t in enumerate(rs.types) if t.owner is not None]
    if len(owned) != 2:
        return None
    a, b = (rs.types[i] for i in owned)
    if {a.owner, b.owner} != {0, 1} or a.carrier is not None or b.carrier is not None \
            or (a.size, a.level, a.cover, a.reserve) != (b.size, b.level, b.cover, b.reserve) \
            or _rules_name(rs, {a.kind, b.kind}):
        return None
    sigma = list(range(len(rs.types)))
    sigma[owned[0]], sigma[owned[1]] = owned[1], owned[0]
    return tuple(sigma)


def partner_types(game: Game) -> tuple[int, ...] | None:
    """Each type's partner under a swap: the other player's type of the same kind, or where
    each player owns one kind of its own that the rules never name, the other's (see
    `_by_owner`); None when some owned type has none."""
    sigma = _by_kind(game.ruleset)
    return sigma if sigma is not None else _by_owner(game.ruleset)


def _by_kind(rs: Ruleset) -> tuple[int, ...] | None:
    """Each owned type paired with the other player's type of its kind, or None."""
    out = []
    for t in rs.types:
        if t.owner is None:
            out.append(rs.types.index(t))
            continue
        match = [u for u, x in enumerate(rs.types)
                 if x.owner == 1 - t.owner and (x.kind, x.size, x.level, x.cover, x.reserve)
                 == (t.kind, t.size, t.level, t.cover, t.reserve)]
        if len(match) != 1:
            return None
        out.append(match[0])
    sigma = tuple(out)
    if any(sigma[sigma[t]] != t for t in range(len(sigma))):
        return None
    if any((t.carrier is None) != (rs.types[sigma[i]].carrier is None)
           or (t.carrier is not None and sigma[t.carrier] != rs.types[sigma[i]].carrier)
           for i, t in enumerate(rs.types)):
        return None
    return sigma


def swap_state(game: Game, state: State, sw: PlayerSwap) -> State:
    """The image of `state` under the swap."""
    out = list(state)
    for slot, to in zip(game.layout.slots, swap_slots(game, sw.types)):
        v = state[slot.index]
        if slot.kind.holds_cells:
            v = permute_mask(v, sw.cells)
        elif slot.kind in (SlotKind.PLAYER, SlotKind.OUTCOME) and v in (0, 1):
            v = 1 - v
        out[to] = v
    return tuple(out)


def _other(winner: int | None) -> int | None:
    return None if winner is None else 1 - winner


def _compose(p: Perm, q: Perm) -> Perm:
    """Cell c to p[q[c]]: q, then p."""
    return tuple(p[q[c]] for c in range(len(q)))


def _closes(g: Perm, board: list[Perm]) -> bool:
    """Whether `g` with the board symmetries `board` makes a group in which the swaps are
    `board` composed with `g`: g twice is among them, and g maps them onto themselves."""
    group = set(board) | {tuple(range(len(g)))}
    inv = tuple(sorted(range(len(g)), key=g.__getitem__))
    return _compose(g, g) in group and all(_compose(_compose(g, b), inv) in group for b in group)


def player_swap(game: Game, board: list[Perm], setups: bool = True, start: State | None = None,
                check_positions: int = CHECK_POSITIONS) -> PlayerSwap | None:
    """A swap of the players that the rules cannot tell apart and that closes with the board
    symmetries `board` into a group (see `_closes`), or None."""
    rs = game.ruleset
    if len(game.players) != 2 or rs.counts or rs.tracks or rs.first_turn:
        return None
    if any(s.kind not in SWAPPABLE for s in game.layout.slots):
        return None
    sigma = partner_types(game)
    if sigma is None or sigma == tuple(range(len(sigma))):
        return None
    fixed, dir_sets = referenced(game)
    n = game.board.size
    # the cells the rules name may change places (North's goal for South's): kept setwise
    colour = [(sum(c in cs for cs in rs.regions.values()), c in fixed) for c in range(n)]
    regions = {frozenset(cs) for cs in rs.regions.values()}
    setup = {t: sum(1 << c for c in rs.setup.get(t, ())) for t in range(len(rs.types))}
    cands = []
    for perm in automorphisms(game, colour, dir_sets):
        if any(frozenset(perm[c] for c in cs) not in regions for cs in regions):
            continue
        if setups and any(permute_mask(setup[t], perm) != setup[sigma[t]] for t in setup):
            continue
        if _closes(perm, board):
            cands.append(PlayerSwap(perm, sigma))
    if not cands:
        return None
    samples = sample_positions(game, check_positions, seed=1, start=start)
    for sw in sorted(cands, key=lambda s: not s.involution):
        if all(commutes(game, s, partial(swap_state, game, sw=sw), _other) for s in samples):
            return sw
    return None


class KeySwap:
    """The swap on packed keys (codec.Codec): the cell masks through byte tables, each
    other field moved to its slot's image (`swap_slots`), the player's and the outcome's
    values exchanged (`symmetry.Canonicalizer` applies it to the second player's keys)."""

    def __init__(self, sw: PlayerSwap, codec: Codec, game: Game):
        cells, types = codec.cells, game.layout.types
        self.swap = sw
        self.bits = codec.masks * cells
        where = [(sw.types[m] if m < types else m) * cells + sw.cells[c]
                 for m in range(codec.masks) for c in range(cells)]
        self.tables = byte_tables(where, self.bits)
        # per field: its shift and mask, its image's shift, and for the player's and the
        # outcome's the packed values of players 0 and 1 (exchanged), else None
        to = swap_slots(game, sw.types)
        by_slot = {f.slot: f for f in codec.fields}
        self.fields = [(f.shift, (1 << f.width) - 1, by_slot[to[f.slot]].shift)
                       + ((-f.low, 1 - f.low) if f.kind in (SlotKind.PLAYER, SlotKind.OUTCOME) else (None, None))
                       for f in codec.fields]
        self.turn = next((f.shift, (1 << f.width) - 1, -f.low) for f in codec.fields
                         if f.kind is SlotKind.PLAYER)

    def apply(self, key: int) -> int:
        """The image of `key`."""
        out = 0
        k = key
        for tab in self.tables:
            out |= tab[k & 255]
            k >>= 8
        for shift, mask, target, zero, one in self.fields:
            v = key >> shift & mask
            if zero is not None and v in (zero, one):
                v = one if v == zero else zero
            out |= v << target
        return out

    def second(self, key: int) -> bool:
        """Whether the second player is to move in `key`."""
        shift, mask, zero = self.turn
        return (key >> shift & mask) != zero


def swap_field(sw: PlayerSwap) -> dict:
    """The header field of a solution file that records `sw` (read back by `swap_of`)."""
    return {"cells": list(sw.cells), "types": list(sw.types)}


def tier_weights_under(weights: list[int], sw: PlayerSwap | None) -> list[int]:
    """`weights` (dsl.monotone.tier_weights), or none when the swap does not keep them: a
    swapped position's tier would then not be its own."""
    if sw is not None and any(weights[t] != weights[sw.types[t]] for t in range(len(weights))):
        return [0] * len(weights)
    return weights


def swap_of(header: dict, cells: int | None = None, types: int | None = None) -> PlayerSwap | None:
    """The swap a solution file's header records, if any; given the board's `cells` and the
    game's piece `types`, checked first (a ValueError saying what is wrong)."""
    field = header.get("swap")
    if field is None:
        return None
    if cells is not None and types is not None:
        if not isinstance(field, dict) or set(field) != {"cells", "types"}:
            raise ValueError("header field 'swap' must be an object of \"cells\" and \"types\"")
        perm, kinds = field["cells"], field["types"]
        if not (isinstance(perm, list) and all(type(c) is int for c in perm)
                and sorted(perm) == list(range(cells))):
            raise ValueError(f"header field 'swap': its cells are not a permutation of the "
                             f"board's {cells} cells")
        if not (isinstance(kinds, list) and all(type(t) is int for t in kinds)
                and sorted(kinds) == list(range(types)) and all(kinds[t] == u for u, t in enumerate(kinds))):
            raise ValueError(f"header field 'swap': its types do not exchange the game's {types} "
                             "piece types in pairs")
    return PlayerSwap(tuple(field["cells"]), tuple(field["types"]))
