"""The level-by-level pass of retrograde analysis, shared by the Python solver (solver.py)
and the solve by tiers (tiered.py, within a tier, its children beyond the tier entering at
their own levels).

Level by level from the ends, so that the first win found is the quickest and the last
child to be refuted gives the longest loss; what no level decides is a draw.
"""

from __future__ import annotations

from array import array
from interpreter.search.progress import Progress
from interpreter.search.solution_file import DRAW, LOSE, WIN, uint32_array

Later = dict[int, list[int]]  # level -> the nodes solved elsewhere that enter at it


def reverse(n: int, offsets: array, edges: array,
            turns: bytes | None = None) -> tuple[array, array, bytearray | None]:
    """Arcs in CSR form (node p's children are edges[offsets[p]:offsets[p+1]]) reversed:
    node c's parents are parents[start[c]:start[c+1]]; `turns` (a byte an arc, if given)
    in the order of `parents`."""
    start = uint32_array(n + 1)
    for j in edges:
        start[j + 1] += 1
    for k in range(n):
        start[k + 1] += start[k]
    fill = array(start.typecode, start)
    parents = uint32_array(len(edges))
    back = bytearray(len(edges)) if turns is not None else None
    for p in range(n):
        for k in range(offsets[p], offsets[p + 1]):
            c = edges[k]
            parents[fill[c]] = p
            if back is not None:
                back[fill[c]] = turns[k]
            fill[c] += 1
    return start, parents, back


def level_pass(movers: bytes, status: bytes, remaining: array, start: array, parents: array,
               later: Later | None = None, prog: Progress | None = None,
               turns: bytes | None = None) -> tuple[bytearray, array, int]:
    """The value and remoteness of each node, and the number of levels. `status`: each
    node's end value for its mover (0: going on); `remaining`: its count of distinct
    arcs out (counted down here); `start`, `parents`: its parents in CSR form; whether the
    mover changes on an arc: `turns` (aligned with `parents`) if given, else whether the
    two nodes' `movers` differ. `later`:
    nodes solved elsewhere (the last ones, past `remaining`; their status is their value),
    by the level at which they enter; only the others get a value here."""
    n = len(remaining)
    values, rem = bytearray(status), uint32_array(len(status))
    frontier = []
    for k in range(n):
        st = status[k]
        if st:
            if st != DRAW:
                frontier.append(k)
        elif remaining[k] == 0:  # no legal ply and no end rule fired: the mover loses
            values[k] = LOSE
            frontier.append(k)
    later = later or {}
    level, solved = 0, len(frontier)
    while frontier or later:
        frontier += later.pop(level, ())
        nxt = []
        r1 = level + 1
        for c in frontier:
            c_wins = values[c] == WIN
            mc = movers[c]
            for k in range(start[c], start[c + 1]):
                p = parents[k]
                if values[p]:
                    continue
                same = movers[p] == mc if turns is None else not turns[k]
                if c_wins == same:  # the parent's mover wins by moving to c
                    values[p] = WIN
                    rem[p] = r1
                    nxt.append(p)
                else:
                    left = remaining[p] - 1
                    remaining[p] = left
                    if not left:
                        values[p] = LOSE
                        rem[p] = r1
                        nxt.append(p)
        frontier = nxt
        solved += len(nxt)
        level += 1
        if prog is not None:
            prog.update(f"retrograde: level {level}, {solved:,} of {n:,} decided")
    return values[:n].replace(b"\0", bytes([DRAW])), rem[:n], level
