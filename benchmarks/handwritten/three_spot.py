"""3-Spot written by hand in plain Python: the baseline rulecraft is measured against.

The rules are exactly docs/RULES.md section 2 (the base game, point squares a1, b1,
c1). The implementation is what a strong Python programmer would write for speed:
a piece is the index of its placement (one of the 12 dominoes of the 3x3 board),
and one precomputed table answers "where may this piece go when these cells are
taken", so generating the plies of a position is a single lookup.

- Cell (file f, rank r), both from 0, is bit `3*r + f`: a1 is bit 0, c3 is bit 8.
- A state is `(blue, red, white, score_blue, score_red, side, phase, over)`:
  placement indices, the scores, the player to move (0 Blue, 1 Red), the ply of the
  turn (0 the coloured piece, 1 White), and the winner once a score ends the game
  (-1 before).
- An action is the index of the moved piece's new placement (which piece moves
  follows from side and phase).
- Being stuck is evaluated lazily: a position whose player to move has no ply has no
  legal actions, and `winner` then names the other player.

Run it (`python benchmarks/handwritten/three_spot.py`) to assert its perft.
"""

from __future__ import annotations

State = tuple[int, int, int, int, int, int, int, int]
Action = int

SIZE = 3
CELLS = SIZE * SIZE
POINT_SQUARES = 0b111  # a1, b1, c1
TARGET, QUALIFY = 12, 6  # the score that ends the game; the opponent's score that decides it


def _placements() -> list[int]:
    out = []
    for c in range(CELLS):
        f, r = c % SIZE, c // SIZE
        if f + 1 < SIZE:
            out.append((1 << c) | (1 << (c + 1)))
        if r + 1 < SIZE:
            out.append((1 << c) | (1 << (c + SIZE)))
    return out


PL = _placements()  # placement index -> mask of its two cells
POINTS = [(mask & POINT_SQUARES).bit_count() for mask in PL]
# MOVES[p][taken]: the placements a piece now on p may move to when `taken` is covered
# by the other two pieces (a tuple, shared: callers must not and cannot mutate it).
MOVES = [[tuple(q for q, mask in enumerate(PL) if q != p and not mask & taken)
          for taken in range(1 << CELLS)] for p in range(len(PL))]
_INDEX = {mask: i for i, mask in enumerate(PL)}
INITIAL: State = (_INDEX[0b000100100], _INDEX[0b000001001], _INDEX[0b000010010], 0, 0, 0, 0, -1)
KNOWN_PERFT = [3, 10, 33, 97, 271]


def legal_actions(s: State) -> tuple[Action, ...]:
    """Every legal ply: the new placements of the piece to move (a shared tuple)."""
    b, r, w, _, _, side, phase, over = s
    if over >= 0:
        return ()
    if phase:
        return MOVES[w][PL[b] | PL[r]]
    if side:
        return MOVES[r][PL[b] | PL[w]]
    return MOVES[b][PL[r] | PL[w]]


def apply(s: State, q: Action) -> State:
    """The state after the legal ply `q`: scoring, the end rule, White's ply or the next turn."""
    b, r, w, sb, sr, side, phase, _ = s
    if phase:  # White's ply ends the turn
        return (b, r, q, sb, sr, 1 - side, 0, -1)
    if side:
        sr += POINTS[q]
        if sr >= TARGET:
            return (b, q, w, sb, sr, 1, 0, 1 if sb >= QUALIFY else 0)
        if MOVES[w][PL[b] | PL[q]]:
            return (b, q, w, sb, sr, 1, 1, -1)
        return (b, q, w, sb, sr, 0, 0, -1)  # White cannot move: the turn ends without it
    sb += POINTS[q]
    if sb >= TARGET:
        return (q, r, w, sb, sr, 0, 0, 0 if sr >= QUALIFY else 1)
    if MOVES[w][PL[q] | PL[r]]:
        return (q, r, w, sb, sr, 0, 1, -1)
    return (q, r, w, sb, sr, 1, 0, -1)


def winner(s: State) -> int | None:
    """0 (Blue), 1 (Red), or None while the game goes on (or in endless play)."""
    if s[7] >= 0:
        return s[7]
    if not legal_actions(s):
        return 1 - s[5]  # the player to move is stuck and loses
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
    return sum(perft(apply(s, q), depth - 1) for q in moves)


class ThreeSpot:
    """The game behind the same protocol as rulecraft's `Game`, so one driver times both.

    The hot methods are plain functions (staticmethod): no bound-method cost per call.
    """

    players = ["Blue", "Red"]
    legal_actions = staticmethod(legal_actions)
    apply = staticmethod(apply)
    winner = staticmethod(winner)
    is_terminal = staticmethod(is_terminal)

    @staticmethod
    def initial_state() -> State:
        return INITIAL

    @staticmethod
    def is_draw(s: State) -> bool:
        return False  # endless play is a draw, but no position is one

    @staticmethod
    def to_move(s: State) -> int:
        return s[5]


GAME = ThreeSpot()

if __name__ == "__main__":
    got = [perft(INITIAL, d) for d in range(1, len(KNOWN_PERFT) + 1)]
    assert got == KNOWN_PERFT, got
    print("3-spot perft", got, "ok")
