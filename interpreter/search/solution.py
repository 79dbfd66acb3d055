"""A solved game: the value and remoteness of every position reachable from a start.

A `Solution` holds the positions' canonical keys sorted (`codec.Codec`, reduced under the
symmetries the solve used) and answers by binary search; the value codes and the file
format are in solution_file.py.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from dataclasses import dataclass
from typing import NamedTuple

from interpreter.runtime.game import Action, Game, State
from interpreter.search.codec import Codec, SolveError
from interpreter.search.solution_file import (DRAW, VALUE_NAMES, SolutionFileError, read_solution,
    write_solution)
from interpreter.search.symmetry import Canonicalizer
from interpreter.search.wide_keys import WideKeys


class Value(NamedTuple):
    """A position's value for the player to move, and its remoteness (None for a draw)."""

    value: str
    remoteness: int | None


def ended_value(game: Game, state: State) -> Value:
    """The value of an ended position for its player to move, from its end alone."""
    if game.is_draw(state):
        return Value("draw", None)
    return Value("win" if game.winner(state) == game.to_move(state) else "lose", 0)


class PlyValue(NamedTuple):
    """One legal ply with its value for the player making it.

    `remoteness` counts plies from the position the ply is made in (the ply included), so
    the best plies carry the position's own value and remoteness.
    """

    action: Action
    text: str
    value: str
    remoteness: int | None


@dataclass
class SolveStats:
    """What a solve found and how long each of its two stages took."""

    positions: int
    edges: int
    terminal: int
    symmetries: int
    enumerate_seconds: float
    retrograde_seconds: float
    levels: int
    one_pass: bool = False  # the native solver's one-pass solve (no arcs) gave the values
    unmoves: bool = False  # the native solver's retrograde solve by un-moves (no arcs) did
    depth_first: bool = False  # the native solver's depth-first solve (no reachability) did
    peak_bytes: int = 0  # the native solver's peak memory, as it counts it (0: not known)
    sparse_blocks: int = 0  # the native solver's blocks kept as sorted lists, not bitsets
    tier_bytes: int = 0  # the native solve out of core: its file's size (0: in memory)

    @property
    def seconds(self) -> float:
        """The whole solve's time."""
        return self.enumerate_seconds + self.retrograde_seconds

    @property
    def positions_per_second(self) -> float:
        """Positions solved a second, 0.0 for a solve too quick to time."""
        return self.positions / self.seconds if self.seconds > 0 else 0.0


@dataclass
class Solution:
    """The values of every position reachable from `root`; lookups by binary search."""

    game: Game
    codec: Codec
    canon: Canonicalizer | None
    keys: "array | list[int] | WideKeys"  # sorted canonical keys
    values: bytearray
    remoteness: array
    root: State
    stats: SolveStats | None = None
    fingerprint: str = ""

    # ---------------------------------------------------------------- lookups
    def __len__(self) -> int:
        return len(self.values)

    def _index(self, state: State) -> int:
        key = self.codec.pack(state)
        if self.canon is not None:
            key = self.canon.canonical(key)
        i = bisect_left(self.keys, key)
        if i == len(self.keys) or self.keys[i] != key:
            raise KeyError("the position is not among those this solution holds: "
                           + self.game.state_to_text(state))
        return i

    def __contains__(self, state: State) -> bool:
        try:
            self._index(state)
        except (KeyError, SolveError):
            return False
        return True

    def lookup(self, state: State) -> Value:
        """The value and remoteness of `state` for its player to move (KeyError if absent)."""
        i = self._index(state)
        v = self.values[i]
        return Value(VALUE_NAMES[v], None if v == DRAW else self.remoteness[i])

    def value(self, state: State) -> str:
        """The value of `state` for its player to move: 'win', 'lose' or 'draw'."""
        return self.lookup(state).value

    def analyze(self, state: State) -> list[PlyValue]:
        """Every legal ply of `state` with its value for the player making it."""
        game = self.game
        me = game.to_move(state)
        out = []
        self.lookup(state)  # KeyError if the solution does not hold it
        for a in game.legal_actions(state):
            child = game.apply_unchecked(state, a)
            try:
                v, r = self.lookup(child)
            except KeyError:
                # a solve holds every child of what it holds, but for the ended ones a solve of
                # every arrangement leaves out: else this file was edited
                if not game.is_terminal(child):
                    raise SolutionFileError(
                        f"the solution holds {game.state_to_text(state)} but not the position after "
                        f"{game.action_to_text(state, a)}: it is not a whole solution (was it edited?)"
                    ) from None
                v, r = ended_value(game, child)
            if game.to_move(child) != me and v != "draw":
                v = "win" if v == "lose" else "lose"
            out.append(PlyValue(a, game.action_to_text(state, a), v, None if r is None else r + 1))
        return out

    def best_actions(self, state: State) -> list[Action]:
        """The optimal plies: quickest win, else any draw, else the longest loss."""
        plies = self.analyze(state)
        for want in ("win", "draw", "lose"):
            group = [p for p in plies if p.value == want]
            if group:
                if want == "draw":
                    return [p.action for p in group]
                pick = min if want == "win" else max
                best = pick(p.remoteness for p in group)
                return [p.action for p in group if p.remoteness == best]
        return []

    def position(self, i: int) -> State:
        """The `i`-th stored position (0 <= i < len(self)), in the solution's own order; one
        of its class under the solve's symmetries."""
        return self.codec.unpack(self.keys[i])

    def counts(self) -> dict[str, int]:
        """How many stored positions are wins, losses and draws for the player to move."""
        return {name: self.values.count(code) for code, name in VALUE_NAMES.items()}

    # ---------------------------------------------------------------- files
    def save(self, path: str) -> None:
        """Write the documented binary format (see solution_file.py)."""
        write_solution(self, path)

    @classmethod
    def load(cls, path: str, game: Game) -> Solution:
        """Read a solution file written for `game`.

        Raises SolutionFileError (a ValueError), its message naming the file and what is
        wrong, for anything but a sound file made for this very ruleset.
        """
        return read_solution(path, game, cls)
