"""Three Musketeers written by hand in plain Python: the baseline rulecraft is measured against.

The rules are exactly docs/RULES.md section 1. The implementation is what a strong
Python programmer would write for speed (python-chess style): bitboards in ints,
shifts instead of loops over cells, precomputed tables, no objects per move.

- Cell (file f, rank r), both from 0, is bit `5*r + f`: a1 is bit 0, e5 is bit 24
  (the same numbering as rulecraft's, so masks compare directly).
- A state is the tuple `(musketeers, enemies, side)`; side 0 = Musketeers to move.
- An action is the int `from_bit | to_bit`. It names the ply unambiguously, and it
  is all `apply` needs: a musketeer's ply XORs it into the musketeers and clears it
  from the enemies; an enemy's ply XORs it into the enemies.
- The end is evaluated lazily: `legal_actions` returns [] once the musketeers are
  aligned, and an empty list otherwise means the side to move is stuck. `apply`
  does no end-of-game work at all.

Run it (`python benchmarks/handwritten/three_musketeers.py`) to assert its perft.
"""

from __future__ import annotations

State = tuple[int, int, int]
Action = int

SIZE = 5
FULL = (1 << SIZE * SIZE) - 1
# Cells with an east neighbour: a horizontal pair (x, x << 1) must not wrap a rank.
NOT_EAST = FULL & ~sum(1 << (SIZE * r + SIZE - 1) for r in range(SIZE))
VERTICAL = (1 << SIZE) | 1  # x * VERTICAL == x | x << 5
HORIZONTAL = 0b11  # x * HORIZONTAL == x | x << 1


def _aligned_masks() -> frozenset[int]:
    # Every set of 3 cells on one rank or one file: the end test is one set lookup.
    out = set()
    for line in range(SIZE):
        rank = [SIZE * line + f for f in range(SIZE)]
        file = [SIZE * r + line for r in range(SIZE)]
        for cells in (rank, file):
            for i in range(SIZE):
                for j in range(i + 1, SIZE):
                    for k in range(j + 1, SIZE):
                        out.add((1 << cells[i]) | (1 << cells[j]) | (1 << cells[k]))
    return frozenset(out)


ALIGNED = _aligned_masks()
INITIAL: State = (1 << 0 | 1 << 12 | 1 << 24, FULL & ~(1 << 0 | 1 << 12 | 1 << 24), 0)
KNOWN_PERFT = [8, 16, 132, 736, 5540, 38740]


def legal_actions(s: State) -> list[Action]:
    """Every legal ply: the pairs of orthogonally adjacent cells a piece moves across."""
    m, e, side = s
    if m in ALIGNED:
        return []
    if side:
        a, b = e, FULL ^ (m | e)  # an enemy next to an empty cell
    else:
        a, b = m, e  # a musketeer next to an enemy
    # The lower (or western) cell of every adjacent pair with one cell in a, one in b.
    vert = (a & (b >> SIZE)) | (b & (a >> SIZE))
    horiz = ((a & (b >> 1)) | (b & (a >> 1))) & NOT_EAST
    moves = []
    append = moves.append
    while vert:
        x = vert & -vert
        append(x * VERTICAL)
        vert ^= x
    while horiz:
        x = horiz & -horiz
        append(x * HORIZONTAL)
        horiz ^= x
    return moves


def apply(s: State, mv: Action) -> State:
    """The state after the legal ply `mv`."""
    m, e, side = s
    if side:
        return (m, e ^ mv, 0)
    return (m ^ mv, e & ~mv, 1)


def _has_move(m: int, e: int, side: int) -> bool:
    a, b = (e, FULL ^ (m | e)) if side else (m, e)
    return bool((a & (b >> SIZE)) | (b & (a >> SIZE))
                | (((a & (b >> 1)) | (b & (a >> 1))) & NOT_EAST))


def winner(s: State) -> int | None:
    """0 (Musketeers), 1 (Enemy), or None while the game goes on (it cannot be drawn)."""
    m, e, side = s
    if m in ALIGNED:
        return 1
    if not _has_move(m, e, side):
        return 0
    return None


def is_terminal(s: State) -> bool:
    return winner(s) is not None


def perft(s: State, depth: int) -> int:
    """Leaf count to `depth` plies (docs/RULES.md's perft), counting the last ply's moves."""
    if depth == 0:
        return 1
    moves = legal_actions(s)
    if depth == 1:
        return len(moves)
    return sum(perft(apply(s, mv), depth - 1) for mv in moves)


class ThreeMusketeers:
    """The game behind the same protocol as rulecraft's `Game`, so one driver times both.

    The hot methods are plain functions (staticmethod): no bound-method cost per call.
    """

    players = ["Musketeers", "Enemy"]
    legal_actions = staticmethod(legal_actions)
    apply = staticmethod(apply)
    winner = staticmethod(winner)
    is_terminal = staticmethod(is_terminal)

    @staticmethod
    def initial_state() -> State:
        return INITIAL

    @staticmethod
    def is_draw(s: State) -> bool:
        return False

    @staticmethod
    def to_move(s: State) -> int:
        return s[2]


GAME = ThreeMusketeers()

if __name__ == "__main__":
    got = [perft(INITIAL, d) for d in range(1, len(KNOWN_PERFT) + 1)]
    assert got == KNOWN_PERFT, got
    print("three musketeers perft", got, "ok")
