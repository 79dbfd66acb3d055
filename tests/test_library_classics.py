"""The library's draughts, Hex, Domineering and Cram, each against a version of the game
written here from its rules (not from rulecraft's) and against published figures.

Each reference is a handful of functions: the position, its moves, the position after a
move, the winner. Values are solved by a memoized negamax over them; perft counts the
move sequences (a finished game has no moves).
"""

from functools import lru_cache
from importlib import resources
import os

import pytest

from interpreter import load_game, perft

BACKENDS = ["python", "native"]


def both_back_ends(cases: list[tuple], native_default: set[str]) -> list:
    """Each case (its game's name first) with each back-end; on the native one, the games
    not in `native_default` only with -m slow: a native solve builds the game's solver,
    a few seconds of the compiler each, and the Python back-end checks the same rules."""
    return [pytest.param(*case, backend, marks=[pytest.mark.slow] if backend == "native" and
                         case[0] not in native_default else [])
            for case in cases for backend in BACKENDS]


def library(name: str, backend: str = "native"):
    return load_game(os.path.join(str(resources.files("rulesets") / "library"), name + ".game"), backend=backend)


def perfts(game, depth: int) -> list[int]:
    s = game.initial_state()
    return [perft(game, s, d) for d in range(1, depth + 1)]


def ref_perft(moves, play, state, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(ref_perft(moves, play, play(state, m), depth - 1) for m in moves(state))


def ref_solve(moves, play, winner):
    """negamax(state) -> +1 win, 0 draw, -1 loss for the player to move; `winner(state)`
    is +1/-1 for a finished game from the mover's view, 0 a draw, None going on."""
    @lru_cache(maxsize=None)
    def value(state):
        w = winner(state)
        if w is not None:
            return w
        ms = moves(state)
        if not ms:
            return -1  # normal play: no move loses
        return max(-value(play(state, m)) for m in ms)
    return value


# ---------------------------------------------------------------- English draughts

DARK = [(f, r) for r in range(8) for f in range(8) if (f + r) % 2 == 0]


def dr_initial():
    board = {c: ("b" if c[1] < 3 else "w") for c in DARK if c[1] < 3 or c[1] > 4}
    return (frozenset(board.items()), 0)


def _dr_dirs(p):
    return {"b": [(1, 1), (-1, 1)], "w": [(1, -1), (-1, -1)]}.get(p, [(1, 1), (-1, 1), (1, -1), (-1, -1)])


def dr_moves(state):
    """Jumps if any (each jump sequence complete: no jump left at its end), else steps.
    A capture is (start, final, captured cells); the jumper's start square stays taken."""
    items, me = state
    board = dict(items)
    mine = "bB" if me == 0 else "wW"
    caps, steps = set(), []

    def jumps(start, piece, cell, captured):
        more = False
        f, r = cell
        crowned = piece == "b" and r == 7 or piece == "w" and r == 0
        if not (crowned and captured):
            for df, dr in _dr_dirs(piece):
                over, land = (f + df, r + dr), (f + 2 * df, r + 2 * dr)
                if not (0 <= land[0] < 8 and 0 <= land[1] < 8):
                    continue
                q = board.get(over)
                if q is None or q in mine or over in captured or land in board:
                    continue
                more = True
                jumps(start, piece, land, captured | {over})
        if not more and captured:
            caps.add((start, cell, frozenset(captured)))

    for cell, p in board.items():
        if p not in mine:
            continue
        jumps(cell, p, cell, frozenset())
        for df, dr in _dr_dirs(p):
            t = (cell[0] + df, cell[1] + dr)
            if 0 <= t[0] < 8 and 0 <= t[1] < 8 and t not in board:
                steps.append((cell, t, frozenset()))
    return sorted(caps) if caps else steps


def dr_play(state, move):
    items, me = state
    board = dict(items)
    start, final, captured = move
    p = board.pop(start)
    for c in captured:
        del board[c]
    if p == "b" and final[1] == 7 or p == "w" and final[1] == 0:
        p = p.upper()
    board[final] = p
    return (frozenset(board.items()), 1 - me)


# OEIS A133046 (J. Schaeffer; A. Bik, "perft for 8x8 checkers", 2009): the number of move
# sequences of n plies from the start of English draughts.
A133046 = [7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564]


def test_english_draughts_perft_is_the_published_one():
    assert perfts(library("english-draughts"), 9) == A133046[:9]


@pytest.mark.slow
def test_english_draughts_perft_10_is_the_published_one():
    assert perfts(library("english-draughts"), 10) == A133046


def test_english_draughts_python_back_end_agrees():
    assert perfts(library("english-draughts", "python"), 6) == A133046[:6]


@pytest.mark.parametrize("backend", BACKENDS)
def test_english_draughts_against_a_draughts_written_here(backend):
    """Along seeded random games, every position's moves are the reference's."""
    import random
    game = library("english-draughts", backend)
    rng = random.Random(7)
    for _ in range(12):
        s = game.initial_state()
        for _ in range(200):
            if game.is_terminal(s):
                break
            ref = _dr_state(game, s)
            mine = {_dr_state(game, game.apply(s, a)) for a in game.legal_actions(s)}
            theirs = {dr_play(ref, m) for m in dr_moves(ref)}
            assert mine == theirs, game.state_to_text(s)
            s = game.apply(s, rng.choice(game.legal_actions(s)))
    assert ref_perft(dr_moves, dr_play, dr_initial(), 5) == A133046[4]


def _dr_state(game, s):
    """A rulecraft position as the reference's: (cell -> piece letter, player)."""
    rows, player = game.state_to_text(s).split()[:2]
    board = {}
    for i, row in enumerate(rows.split("/")):
        r = 7 - i
        for f, ch in zip([f for f in range(8) if (f + r) % 2 == 0], row):
            if ch != ".":
                board[(f, r)] = ch
    return (frozenset(board.items()), 0 if player == "Black" else 1)


def test_a_crowned_man_stops_and_a_king_jumps_both_ways():
    game = library("english-draughts")
    # Black's man on f6 jumps e7 onto d8 and is crowned there: its move ends, though a
    # king on d8 could jump c7 next. The king on b2 jumps c3 onto d4, and nothing more.
    # A capture is compulsory: no step is offered.
    s = game.state_from_text("..../.ww./..b./..../..../.w../B.../.... Black")
    texts = sorted(game.action_to_text(s, a) for a in game.legal_actions(s))
    assert texts == ["b2-d4", "f6-d8"]
    after = game.apply(s, game.action_from_text(s, "f6-d8"))
    assert game.state_to_text(after).split()[0] == ".B../.w../..../..../..../.w../B.../...."


# ---------------------------------------------------------------- Hex

def hex_game(n):
    cells = [(f, r) for r in range(n) for f in range(n)]
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)]  # a hex grid in axial coordinates

    def joined(stones, start, goal):
        todo = [c for c in stones if start(c)]
        seen = set(todo)
        while todo:
            f, r = todo.pop()
            if goal((f, r)):
                return True
            for df, dr in steps:
                nb = (f + df, r + dr)
                if nb in stones and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        return False

    def winner(state):
        red, blue, me = state  # me: the player to move; the value is theirs
        if joined(red, lambda c: c[1] == 0, lambda c: c[1] == n - 1):
            return 1 if me == 0 else -1
        if joined(blue, lambda c: c[0] == 0, lambda c: c[0] == n - 1):
            return 1 if me == 1 else -1
        return None

    def moves(state):
        if winner(state) is not None:
            return []
        red, blue, _ = state
        return [c for c in cells if c not in red and c not in blue]

    def play(state, c):
        red, blue, me = state
        return (red | {c}, blue, 1) if me == 0 else (red, blue | {c}, 0)

    return (frozenset(), frozenset(), 0), moves, play, winner


@pytest.mark.parametrize("name, n, depth", [("hex-2x2", 2, 4), ("hex-3x3", 3, 5), ("hex", 4, 4)])
@pytest.mark.parametrize("backend", BACKENDS)
def test_hex_perft_against_a_hex_written_here(name, n, depth, backend):
    start, moves, play, _ = hex_game(n)
    assert perfts(library(name, backend), depth) == [ref_perft(moves, play, start, d) for d in range(1, depth + 1)]


# (Hex 2 x 2 with -m slow: its solver is built for that alone)
@pytest.mark.parametrize("name, n", [pytest.param("hex-2x2", 2, marks=pytest.mark.slow), ("hex-3x3", 3)])
def test_hex_first_player_wins_from_the_cells_a_hex_written_here_finds(name, n):
    start, moves, play, winner = hex_game(n)
    value = ref_solve(moves, play, winner)
    assert value(start) == 1  # Nash: the first player wins
    names = {(f, r): "abcd"[f] + str(r + 1) for f in range(n) for r in range(n)}
    ref_best = sorted(names[c] for c in moves(start) if value(play(start, c)) == -1)
    game = library(name)
    from interpreter.search.solver import solve
    sol = solve(game)
    s = game.initial_state()
    assert sol.value(s) == "win"
    mine = sorted(game.action_to_text(s, a) for a in game.legal_actions(s)
                  if sol.value(game.apply(s, a)) == "lose")
    assert mine == ref_best
    if n == 3:  # the short diagonal a3-b2-c1, and a2, c2 beside the centre
        assert ref_best == ["a2", "a3", "b2", "c1", "c2"]


# ---------------------------------------------------------------- Domineering and Cram

def domino_game(w, h, vertical_only=None):
    """Domineering (vertical_only: player 0 vertical, player 1 horizontal) or Cram (None)."""
    cells = [(f, r) for r in range(h) for f in range(w)]
    vert = [frozenset({(f, r), (f, r + 1)}) for f, r in cells if r + 1 < h]
    horiz = [frozenset({(f, r), (f + 1, r)}) for f, r in cells if f + 1 < w]

    def moves(state):
        taken, me = state
        choice = (vert if me == 0 else horiz) if vertical_only else vert + horiz
        return [d for d in choice if not d & taken]

    def play(state, d):
        taken, me = state
        return (taken | d, 1 - me)

    return (frozenset(), 0), moves, play, (lambda state: None)


# (Domineering 4 x 4's solver is built for other tests too)
@pytest.mark.parametrize("name, w, h, domineering, value, depth, backend", both_back_ends([
    ("domineering-3x3", 3, 3, True, 1, 5),
    ("domineering", 4, 4, True, 1, 4),
    ("cram", 3, 4, False, 1, 4),
    ("cram-4x4", 4, 4, False, -1, 4),   # even x even: the second player mirrors
], native_default={"domineering"}))
def test_dominoes_against_a_version_written_here(name, w, h, domineering, value, depth, backend):
    start, moves, play, winner = domino_game(w, h, domineering)
    game = library(name, backend)
    assert perfts(game, depth) == [ref_perft(moves, play, start, d) for d in range(1, depth + 1)]
    assert ref_solve(moves, play, winner)(start) == value
    from interpreter.search.solver import solve
    sol = solve(game)
    s = game.initial_state()
    assert sol.value(s) == ("win" if value > 0 else "lose")


@pytest.mark.slow
def test_domineering_5x5_second_player_wins():
    # M. Lachmann, C. Moore, I. Rapaport, "Who wins Domineering on rectangular boards?"
    # (More Games of No Chance, MSRI 42, 2002): 5x5 is a second-player win; so says the
    # version here.
    start, moves, play, winner = domino_game(5, 5, True)
    assert ref_solve(moves, play, winner)(start) == -1
    game = library("domineering-5x5", "native")  # its sparse blocks: tens of megabytes
    from interpreter.search.solver import solve
    sol = solve(game)
    assert sol.value(game.initial_state()) == "lose" and sol.stats.sparse_blocks > 0


# ---------------------------------------------------------------- Konane

def konane_game(n, first_holes):
    """Konane on n x n: the checkered start, Black's hole, White's hole next to it, then
    jumps (one or more over opponents, in one straight line, may stop after any)."""
    black = frozenset((f, r) for f in range(n) for r in range(n) if (f + r) % 2 == 0)
    white = frozenset((f, r) for f in range(n) for r in range(n) if (f + r) % 2 == 1)

    def moves(state):
        b, w, me, opened = state
        mine, theirs = (b, w) if me == 0 else (w, b)
        if opened == 0:
            return [("take", c) for c in sorted(first_holes & mine)]
        if opened == 1:
            empty = {(f, r) for f in range(n) for r in range(n)} - b - w
            near = {(f + df, r + dr) for f, r in empty for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))}
            return [("take", c) for c in sorted(near & mine)]
        out = []
        for f, r in mine:
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                cell, taken = (f, r), []
                while True:
                    over, land = (cell[0] + df, cell[1] + dr), (cell[0] + 2 * df, cell[1] + 2 * dr)
                    if not (0 <= land[0] < n and 0 <= land[1] < n):
                        break
                    if over not in theirs or land in b or land in w:
                        break
                    taken.append(over)
                    cell = land
                    out.append(("jump", (f, r), cell, frozenset(taken)))
        return out

    def play(state, m):
        b, w, me, opened = state
        mine, theirs = (b, w) if me == 0 else (w, b)
        if m[0] == "take":
            mine = mine - {m[1]}
            opened += 1
        else:
            _, frm, to, taken = m
            mine, theirs = (mine - {frm}) | {to}, theirs - taken
        return (mine, theirs, 1, opened) if me == 0 else (theirs, mine, 0, opened)

    return (black, white, 0, 0), moves, play, (lambda state: None)


@pytest.mark.parametrize("backend", ["python", pytest.param("native", marks=pytest.mark.slow)])
def test_konane_against_a_konane_written_here(backend):
    start, moves, play, winner = konane_game(6, {(0, 0), (5, 5), (2, 2), (3, 3)})
    assert perfts(library("konane", backend), 6) == [ref_perft(moves, play, start, d) for d in range(1, 7)]
    start, moves, play, winner = konane_game(4, {(0, 0), (3, 3), (1, 1), (2, 2)})
    game = library("konane-4x4", backend)
    assert perfts(game, 8) == [ref_perft(moves, play, start, d) for d in range(1, 9)]
    from interpreter.search.solver import solve
    value = ref_solve(moves, play, winner)(start)
    assert value == -1  # the second player wins 4 x 4
    assert solve(game).value(game.initial_state()) == "lose"


# ---------------------------------------------------------------- Three Men's Morris, Tapatan, Achi

def morris3_game(men, diagonals):
    """Place `men` each, then step along the lines; three in a line win (the mover)."""
    cells = [(f, r) for r in range(3) for f in range(3)]
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    lines = [[(f, r) for f in range(3)] for r in range(3)] + [[(f, r) for r in range(3)] for f in range(3)]
    if diagonals:
        lines += [[(0, 0), (1, 1), (2, 2)], [(0, 2), (1, 1), (2, 0)]]

    def near(c):
        out = [(c[0] + df, c[1] + dr) for df, dr in steps]
        if diagonals and (c[0] + c[1]) % 2 == 0:  # the drawn diagonals: through even cells
            out += [(c[0] + df, c[1] + dr) for df in (1, -1) for dr in (1, -1)]
        return [x for x in out if x in cells]

    def winner(state):
        a, b, me = state
        for stones, who in ((a, 0), (b, 1)):
            if any(all(c in stones for c in ln) for ln in lines):
                return 1 if who == me else -1
        return None

    def moves(state):
        if winner(state) is not None:
            return []
        a, b, me = state
        mine = a if me == 0 else b
        empty = [c for c in cells if c not in a and c not in b]
        if len(mine) < men:
            return [(None, c) for c in empty]
        return [(c, t) for c in sorted(mine) for t in near(c) if t in empty]

    def play(state, m):
        a, b, me = state
        frm, to = m
        if me == 0:
            return ((a - {frm}) | {to}, b, 1)
        return (a, (b - {frm}) | {to}, 0)

    return (frozenset(), frozenset(), 0), moves, play, winner


def ref_values(moves, play, winner, start):
    """Retrograde values of every position reachable from `start` (games that can go on
    forever: a position never decided is a draw): +1, 0, -1 for the player to move."""
    seen, order, todo = {start}, [], [start]
    while todo:
        s = todo.pop()
        order.append(s)
        for m in moves(s):
            c = play(s, m)
            if c not in seen:
                seen.add(c)
                todo.append(c)
    value = {}
    for s in order:
        w = winner(s)
        if w is not None:
            value[s] = w
        elif not moves(s):
            value[s] = -1
    changed = True
    while changed:
        changed = False
        for s in order:
            if s in value:
                continue
            kids = [value.get(play(s, m)) for m in moves(s)]
            if any(k == -1 for k in kids):
                value[s], changed = 1, True
            elif all(k == 1 for k in kids):
                value[s], changed = -1, True
    return lambda s: value.get(s, 0)


@lru_cache(maxsize=None)
def morris3_figures(men, diagonals):
    """The reference's perft 1-7 and value from the start (computed once for both back-ends)."""
    start, moves, play, winner = morris3_game(men, diagonals)
    return ([ref_perft(moves, play, start, d) for d in range(1, 8)],
            {1: "win", 0: "draw", -1: "lose"}[ref_values(moves, play, winner, start)(start)])


@pytest.mark.parametrize("name, men, diagonals, backend", both_back_ends([
    ("three-mens-morris", 3, False), ("tapatan", 3, True), ("achi", 4, True)], native_default={"achi"}))
def test_three_in_a_row_games_against_versions_written_here(name, men, diagonals, backend):
    counts, value = morris3_figures(men, diagonals)
    game = library(name, backend)
    assert perfts(game, 7) == counts
    from interpreter.search.solver import solve
    assert solve(game).value(game.initial_state()) == value


# ---------------------------------------------------------------- Six and Nine Men's Morris

SIX_LINES = ["a1 c1 e1", "e1 e3 e5", "e5 c5 a5", "a5 a3 a1", "b2 c2 d2", "d2 d3 d4", "d4 c4 b4",
             "b4 b3 b2", "c1 c2", "e3 d3", "c5 c4", "a3 b3"]
NINE_LINES = ["a1 d1 g1", "g1 g4 g7", "g7 d7 a7", "a7 a4 a1", "b2 d2 f2", "f2 f4 f6", "f6 d6 b6",
              "b6 b4 b2", "c3 d3 e3", "e3 e4 e5", "e5 d5 c5", "c5 c4 c3", "d1 d2 d3", "g4 f4 e4",
              "d7 d6 d5", "a4 b4 c4"]


def morris_game(drawn, men, flying):
    """A morris from its drawn lines: the mills are the lines of three points; a state is
    (White's points, Black's, player to move, men in hand (W, B), removing: a mill was
    just made). Moves: ("put", p), ("go", a, b), ("take", p)."""
    lines = [ln.split() for ln in drawn]
    points = sorted({p for ln in lines for p in ln})
    mills = [frozenset(ln) for ln in lines if len(ln) == 3]
    near = {p: set() for p in points}
    for ln in lines:
        for a, b in zip(ln, ln[1:]):
            near[a].add(b)
            near[b].add(a)

    def in_mills(stones):
        return set().union(*[m for m in mills if m <= stones]) if stones else set()

    def winner(state):
        w, b, me, hand, removing = state
        if removing:
            return None
        # the player who just moved wins when the one to move is down to two men
        return -1 if (len(b) + hand[1] if me == 1 else len(w) + hand[0]) < 3 else None

    def moves(state):
        if winner(state) is not None:
            return []
        w, b, me, hand, removing = state
        mine, theirs = (w, b) if me == 0 else (b, w)
        if removing:
            free = theirs - in_mills(theirs)
            return [("take", p) for p in sorted(free or theirs)]
        empty = [p for p in points if p not in w and p not in b]
        if hand[me]:
            return [("put", p) for p in empty]
        if flying and len(mine) == 3:
            return [("go", a, t) for a in sorted(mine) for t in empty]
        return [("go", a, t) for a in sorted(mine) for t in sorted(near[a]) if t in empty]

    def play(state, m):
        w, b, me, hand, removing = state
        mine, theirs = (set(w), set(b)) if me == 0 else (set(b), set(w))
        hand = list(hand)
        if m[0] == "take":
            theirs.discard(m[1])
            to, mill = None, False
        else:
            if m[0] == "put":
                hand[me] -= 1
                to = m[1]
            else:
                mine.discard(m[1])
                to = m[2]
            mine.add(to)
            mill = any(to in ml and ml <= mine for ml in mills)
        removing = mill and bool(theirs)
        nxt = me if removing else 1 - me
        w2, b2 = (mine, theirs) if me == 0 else (theirs, mine)
        return (frozenset(w2), frozenset(b2), nxt, tuple(hand), removing)

    return (frozenset(), frozenset(), 0, (men, men), False), moves, play, winner


@pytest.mark.parametrize("name, drawn, men, flying, depth", [
    ("six-mens-morris", SIX_LINES, 6, False, 4), ("nine-mens-morris", NINE_LINES, 9, True, 3),
    pytest.param("six-mens-morris", SIX_LINES, 6, False, 6, marks=pytest.mark.slow),  # mills at ply 5
    pytest.param("nine-mens-morris", NINE_LINES, 9, True, 5, marks=pytest.mark.slow)])
def test_morris_perft_against_a_morris_written_here(name, drawn, men, flying, depth):
    start, moves, play, _ = morris_game(drawn, men, flying)
    expected = [ref_perft(moves, play, start, d) for d in range(1, depth + 1)]
    for backend in BACKENDS:
        assert perfts(library(name, backend), depth) == expected


@pytest.mark.parametrize("name, drawn, men, flying", [
    ("six-mens-morris", SIX_LINES, 6, False), ("nine-mens-morris", NINE_LINES, 9, True)])
def test_morris_along_random_games_against_a_morris_written_here(name, drawn, men, flying):
    """Every position of seeded random games: the same successors, mills, removals and ends."""
    import random
    start, moves, play, winner = morris_game(drawn, men, flying)
    game = library(name)
    rng = random.Random(name)
    cell = game.board.index
    for _ in range(20):
        s, ref = game.initial_state(), start
        for _ in range(300):
            mine = sorted(game.action_to_text(s, a) for a in game.legal_actions(s))
            theirs = sorted(_morris_text(m) for m in moves(ref))
            assert mine == theirs, game.state_to_text(s)
            if not mine:
                break
            pick = rng.choice(theirs)
            m = next(m for m in moves(ref) if _morris_text(m) == pick)
            s, ref = game.apply(s, game.action_from_text(s, pick)), play(ref, m)
            assert {game.board.names[c] for c in range(game.board.size) if s[0] >> c & 1} == set(ref[0])
            assert {game.board.names[c] for c in range(game.board.size) if s[1] >> c & 1} == set(ref[1])
    assert cell  # the board names every point the reference does


def _morris_text(m) -> str:
    return m[1] if m[0] in ("put", "take") else f"{m[1]}-{m[2]}"


# ---------------------------------------------------------------- Alquerque

def alquerque_game():
    """Alquerque from its rules: the lines of the board (ranks, files, and diagonals through
    the points whose coordinates sum to an even number), steps along them, and compulsory
    jumps along them, going on while possible, the start point kept taken."""
    cells = [(f, r) for r in range(5) for f in range(5)]

    def dirs(c):
        out = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        return out + [(1, 1), (1, -1), (-1, 1), (-1, -1)] if (c[0] + c[1]) % 2 == 0 else out

    def on(c):
        return 0 <= c[0] < 5 and 0 <= c[1] < 5

    white = {c for c in cells if c[1] < 2} | {(3, 2), (4, 2)}
    black = {c for c in cells if c[1] > 2} | {(0, 2), (1, 2)}

    def moves(state):
        w, b, me = state
        mine, theirs = (w, b) if me == 0 else (b, w)
        taken = w | b
        caps = set()

        def jump(start, cell, captured):
            more = False
            for df, dr in dirs(cell):
                over, land = (cell[0] + df, cell[1] + dr), (cell[0] + 2 * df, cell[1] + 2 * dr)
                if on(land) and over in theirs and over not in captured and \
                        (land not in taken or land in captured) and land != start:
                    more = True
                    jump(start, land, captured | {over})
            if not more and captured:
                caps.add((start, cell, frozenset(captured)))

        steps = []
        for c in sorted(mine):
            jump(c, c, frozenset())
            for df, dr in dirs(c):
                t = (c[0] + df, c[1] + dr)
                if on(t) and t not in taken:
                    steps.append((c, t, frozenset()))
        return sorted(caps) if caps else steps

    def play(state, m):
        w, b, me = state
        mine, theirs = (set(w), set(b)) if me == 0 else (set(b), set(w))
        start, final, captured = m
        mine = (mine - {start}) | {final}
        theirs -= captured
        return (frozenset(mine), frozenset(theirs), 1) if me == 0 else (frozenset(theirs), frozenset(mine), 0)

    return (frozenset(white), frozenset(black), 0), moves, play


@pytest.mark.parametrize("backend", BACKENDS)
def test_alquerque_against_an_alquerque_written_here(backend):
    start, moves, play = alquerque_game()
    game = library("alquerque", backend)
    assert perfts(game, 8) == [ref_perft(moves, play, start, d) for d in range(1, 9)]


def test_alquerque_along_random_games_against_an_alquerque_written_here():
    import random
    start, moves, play = alquerque_game()
    game = library("alquerque")

    def ref_of(s):
        w, b = set(), set()
        for c in range(game.board.size):
            name = game.board.names[c]
            cell = ("abcde".index(name[0]), int(name[1:]) - 1)
            if s[0] >> c & 1:
                w.add(cell)
            if s[1] >> c & 1:
                b.add(cell)
        return (frozenset(w), frozenset(b), game.to_move(s))

    rng = random.Random(5)
    for _ in range(30):
        s = game.initial_state()
        for _ in range(150):
            ref = ref_of(s)
            assert {ref_of(game.apply(s, a)) for a in game.legal_actions(s)} == {play(ref, m) for m in moves(ref)}
            if game.is_terminal(s):
                break
            s = game.apply(s, rng.choice(game.legal_actions(s)))
