"""What generated code runs on: the helper functions and the tables, as one typed object.

A compiled module gets a `Runtime` as its one global `R`, and its first lines bind the
fields it uses to module globals (so the hot paths read globals, not attributes).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable

def _adjacent(cells: int, adj: list[int]) -> int:
    out = 0
    while cells:
        low = cells & -cells
        out |= adj[low.bit_length() - 1]
        cells ^= low
    return out


def _union(s, types) -> int:
    """The cells holding a piece of any of `types`."""
    out = 0
    for i in types:
        out |= s[i]
    return out


def _within(cells: int, region: int) -> bool:
    return cells != 0 and not cells & ~region


def _relate(cells: int, s, pairs) -> int:
    """The cells of the pieces that the pieces on `cells` relate to (relation NAME: a > b)."""
    out = 0
    for src, dst in pairs:
        if any(s[i] & cells for i in src):
            for i in dst:
                out |= s[i]
    return out


def _connected(a: int, b: int, cells: int, adj: list[int]) -> bool:
    """Some cell of `a` joined to some cell of `b` by a path of adjacent cells, all in `cells`."""
    seen = front = a & cells
    while front:
        if seen & b:
            return True
        grown = _adjacent(front, adj) & cells & ~seen
        seen |= grown
        front = grown
    return bool(seen & b)


def _amount(s, base: int, cells: int) -> int:
    """How many pieces of a counted type stand on `cells` (s[base + c]: its count on cell c)."""
    n = 0
    while cells:
        low = cells & -cells
        cells ^= low
        n += s[base + low.bit_length() - 1]
    return n


def _holding(s, base: int, cells: int, low: int, high: int) -> int:
    """The cells (of the `cells` board cells) holding low..high pieces of a counted type."""
    out = 0
    for c in range(cells):
        if low <= s[base + c] <= high:
            out |= 1 << c
    return out


def _back_along(track: tuple, at: tuple, cell: int, cells: int) -> int:
    """The run of `cells` back along the track from the one cell `cell`: it, the cell before
    it, and so on while each is in `cells` (once round at most)."""
    i = at[cell.bit_length() - 1] if cell else -1
    out = 0
    if i < 0:
        return out
    for k in range(len(track)):
        c = track[i - k]  # a negative index goes round from the end
        if not cells >> c & 1:
            break
        out |= 1 << c
    return out


def _sow_end(s, base: int, track: tuple, at: tuple, frm: int, skip: int) -> int:
    """The cell the last piece reaches when the pieces on `frm` are sown one a cell along
    `track` (at[c]: c's place on it, -1 off it), the cells of `skip` left out; -1: no ply
    (none to sow, `frm` off the track, or every cell of it skipped)."""
    n, i = s[base + frm], at[frm]
    free = sum(1 for c in track if not skip >> c & 1)
    if n <= 0 or i < 0 or not free:
        return -1
    n -= (n - 1) // free * free  # whole rounds of the free cells, then the rest one by one
    length = len(track)
    while True:
        i = 0 if i + 1 == length else i + 1
        if not skip >> track[i] & 1:
            n -= 1
            if n == 0:
                return track[i]


def _sow(b: list, base: int, t: int, track: tuple, at: tuple, frm: int, skip: int) -> None:
    """The sowing itself, on the state being written: the pieces on `frm` taken up and put
    down as `_sow_end` finds them; type t's cells kept to the cells holding some."""
    n, i = b[base + frm], at[frm]
    b[base + frm] = 0
    cells = b[t] & ~(1 << frm)
    free = [c for c in track if not skip >> c & 1]
    laps, n = divmod(n, len(free))  # whole rounds at once: a count may be large
    if laps:
        for c in free:
            b[base + c] += laps
            cells |= 1 << c
    length = len(track)
    while n > 0:
        i = 0 if i + 1 == length else i + 1
        c = track[i]
        if skip >> c & 1:
            continue
        b[base + c] += 1
        cells |= 1 << c
        n -= 1
    b[t] = cells


def _in_line(cells: int, n: int, windows: list[list[int]], longest: int) -> int:
    """The cells of `cells` in a run of `n` of them next to each other in a straight line
    (windows[n]: the runs of n cells)."""
    out = 0
    if 1 <= n <= longest:
        for w in windows[n]:
            if cells & w == w:
                out |= w
    return out


def _captured(s, taken: int, opponent_types) -> int:
    """How many of the opponent's pieces stand on `taken` (a piece covering several cells once)."""
    n = 0
    for i, size in opponent_types:
        on = s[i] & taken
        if on:
            n += 1 if size > 1 else on.bit_count()
    return n


def _captures(s, a, taken: list, rule_opp: list) -> int:
    """How many of the opponent's pieces action `a` takes (none for a pass)."""
    opp = rule_opp[a[0]]
    return 0 if opp is None else _captured(s, taken[a[0]](s, a), opp)


def _must_capture(s, acts: list, taken: list, theirs: int | None, opp, maximum: bool) -> list:
    """Compulsory capture: of the plies `acts`, those that take pieces (`maximum`: the most),
    if any does. `theirs`: the opponent's cells, where every piece covers one cell (a ply's
    captures are then its taken cells among them); else each is counted by `_captured`."""
    if not acts:
        return acts
    if theirs is not None:
        counts = [(taken[a[0]](s, a) & theirs).bit_count() for a in acts]
    else:
        counts = [_captured(s, taken[a[0]](s, a), opp) for a in acts]
    best = max(counts)
    if best == 0:
        return acts
    if maximum:
        return [a for a, n in zip(acts, counts) if n == best]
    return [a for a, n in zip(acts, counts) if n > 0]


def _takes_nothing(s, a) -> int:
    """`taken` of a pass."""
    return 0


def _points(cells: int, lattice) -> list[tuple[int, int]]:
    """The lattice coordinates of the cells in a mask."""
    out = []
    while cells:
        low = cells & -cells
        cells ^= low
        out.append(lattice[low.bit_length() - 1])
    return out


def _closer(a: int, b: int, points, lattice, metric) -> bool:
    """Some point is strictly nearer to cell `a` than to cell `b` (exact, on the lattice)."""
    mx, my = metric
    ax, ay = lattice[a.bit_length() - 1]
    bx, by = lattice[b.bit_length() - 1]
    # |e-a|^2 < |e-b|^2  <=>  2 e.(a-b) > |a|^2 - |b|^2, in the board's metric
    dx, dy = 2 * mx * (ax - bx), 2 * my * (ay - by)
    rhs = mx * (ax * ax - bx * bx) + my * (ay * ay - by * by)
    for ex, ey in points:
        if ex * dx + ey * dy > rhs:
            return True
    return False


def _maxdot(points, dx: int, dy: int) -> int:
    """The largest projection of the points on (dx, dy); very low for no points."""
    return max((ex * dx + ey * dy for ex, ey in points), default=-(1 << 62))


def _line(cells: int, n: int, lines: list[int]) -> bool:
    """At least `n` (1 or more) of `cells` on one of `lines` (maximal straight lines), gaps allowed."""
    if n < 1:
        return False
    for line in lines:
        if (cells & line).bit_count() >= n:
            return True
    return False


def _aligned(cells: int, through: list[list[int]]) -> bool:
    """Every cell of `cells` (one or more) on one straight line: through[c], the lines through c."""
    if not cells:
        return False
    for line in through[(cells & -cells).bit_length() - 1]:
        if not cells & ~line:
            return True
    return False


def _aligned_pair(cells: int, pairs: list[list[int]]) -> bool:
    """Every cell of `cells` (one or more) on one straight line: the one line through its
    two lowest cells, pairs[c][d] (0 if none; pairs[c][c] a line through c)."""
    if not cells:
        return False
    low = cells & -cells
    rest = cells ^ low
    line = pairs[low.bit_length() - 1][((rest & -rest) or low).bit_length() - 1]
    return not cells & ~line  # (never when line is 0: cells has a cell)


def _run(cells: int, n: int, windows: list[list[int]], longest: int) -> bool:
    """`n` (1 or more) of `cells` next to each other in a straight line: windows[n] holds
    the runs of n cells, up to the longest line's."""
    if not 1 <= n <= longest:
        return False
    for w in windows[n]:
        if cells & w == w:
            return True


@dataclass(frozen=True)
class Runtime:
    """Everything generated code reads that it does not define itself."""

    BIT: list[int]  # cell -> its one-bit mask
    FULL: int  # every cell
    NEXT: list[int]  # phase -> the next phase of the turn, or -1 at its end
    TURN_START: int  # the first phase of a turn (after the first turn's)
    WHEN_POSSIBLE: list[bool]  # phase -> whether it is skipped when it has no ply
    SETUP: list[int]  # piece type -> its cells at the start
    INITIAL: dict[int, int]  # reserve slot -> its count at the start
    CLEAR: list[tuple[int, ...]]  # piece type -> the types a piece landing there removes
    ABOVE: list[tuple[int, ...]]  # piece type -> the types that ride on it
    SUPPORT: list[int]  # piece type -> the type it stands on, or -1
    OPP: list[tuple[tuple[int, int], ...]]  # player -> (type, size) of the opponent's pieces
    LATTICE: list[tuple[int, int]]  # cell -> its lattice coordinates
    METRIC: tuple[int, int]  # the lattice's weights for squared distances
    _adjacent: Callable[[int, list[int]], int] = _adjacent
    _union: Callable[[Any, Any], int] = _union
    _within: Callable[[int, int], bool] = _within
    _relate: Callable[[int, Any, Any], int] = _relate
    _captured: Callable[[Any, int, Any], int] = _captured
    _must_capture: Callable[..., list] = _must_capture
    _takes_nothing: Callable[[Any, Any], int] = _takes_nothing
    _points: Callable[[int, Any], list[tuple[int, int]]] = _points
    _closer: Callable[..., bool] = _closer
    _maxdot: Callable[[Any, int, int], int] = _maxdot
    _line: Callable[[int, int, list[int]], bool] = _line
    _aligned: Callable[[int, Any], bool] = _aligned
    _aligned_pair: Callable[[int, Any], bool] = _aligned_pair
    _run: Callable[[int, int, Any], bool] = _run
    _connected: Callable[[int, int, int, list[int]], bool] = _connected
    _in_line: Callable[[int, int, Any, int], int] = _in_line
    _amount: Callable[[Any, int, int], int] = _amount
    _sow_end: Callable[..., int] = _sow_end
    _sow: Callable[..., None] = _sow
    _holding: Callable[..., int] = _holding
    _back_along: Callable[..., int] = _back_along

    def prelude(self) -> list[str]:
        """The lines that bind the runtime's fields to the module's globals."""
        return [f"{f.name} = R.{f.name}" for f in fields(self)]
