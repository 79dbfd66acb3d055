"""The `solver` category: generated rulesets solved by the Python solver and the native one.

The rulesets are small games a designer might write, or bundled games with one edit a
designer might make (designs.py). Each accepted one
whose positions fit a small bound is solved in Python (with or without
the board's symmetries and the players' swap, at random), then in C by solve_native with
the solver's ways chosen at random: stored arcs, the depth-first solve or never, children
counts kept while reaching or not, sparse blocks, blocks out of core, one thread or two.
Both must give the same positions (in number, and each Python one present), the same value
and remoteness of each, and the same counts of wins, losses and draws.
"""

from __future__ import annotations

import os

from .case import Case
from .chooser import Chooser, RandomChooser
from .designs import DesignGenerator, bundled_and_library, tweak_bundled
from .native_cases import load_case

MAX_POSITIONS = 3000     # the Python solve's bound: past it, the case is skipped
BUILD_SECONDS = 20       # the C compiler's bound (the solver's library takes 4 to 7 s here)
WAYS = 3                 # native solves a case, each its ways drawn afresh
GENERATE_TRIES = 12      # rulesets generated for a case, until one checks


def case_solver(ch: Chooser, ctx, index: int) -> Case:
    """A designed game that checks and does not end before its first ply (the first of a
    few tries)."""
    from dsl.diagnostics import RulesetError
    from dsl.load import load_text
    from interpreter import Game

    tweak = ch.chance(0.3)  # else a game of its own
    for _ in range(GENERATE_TRIES):
        text = tweak_bundled(ch, bundled_and_library())[1] if tweak else DesignGenerator(ch).generate()
        try:
            game = Game(load_text(text, "fuzz.game"))
        except RulesetError:
            continue
        start = game.initial_state()
        if game.outcome(start) is None and game.legal_actions(start):
            break
    return Case("solver", {"fuzz.game": text}, {"file": "fuzz.game", "seed": index})


def native_ways(ch: Chooser) -> dict:
    """solve_native's keyword arguments for one solve, at random (each way gives the same
    results: native_solve.solve_native)."""
    ways: dict = {"threads": ch.choice([1, 2])}
    if ch.chance(0.25):
        ways["arcs_only"] = True
    ways["depth_first"] = ch.choice([-1, 0, 1])
    if ch.chance(0.3):
        ways["tally_room"] = ch.choice([0, 64, 4096])
    if ch.chance(0.3):
        ways["tally_most"] = ch.choice([1, 2, 5])
    if ch.chance(0.3):
        ways["sparse_above"] = ch.choice([0, 1, 16])
        ways["sparse_stays"] = ch.chance(0.5)
    if ch.chance(0.2):
        ways["out_of_core"] = 1
    if ch.chance(0.3):
        ways["copy_limit"] = 0  # kept in C (NativeSolution), not copied into a Solution
    return ways


def eval_solver(case: Case, ctx) -> "Outcome":  # noqa: F821 - harness imports this module
    from interpreter import Game
    from interpreter.native.build import NativeTooLarge, NativeUnavailable, compiler
    from interpreter.search.native_solve import NativeSolveUnsupported, solve_native
    from interpreter.search.player_swap import player_swap
    from interpreter.search.progress import Progress
    from interpreter.search.solver import Solution, SolveError, solve
    from interpreter.search.symmetry import board_symmetries

    from .harness import Invariant, Outcome

    rs = load_case(case, BUILD_SECONDS)
    if isinstance(rs, Outcome):
        return rs
    ch = RandomChooser(f"solver ways {case.params['seed']}")
    py = Game(rs)
    if len(py.players) != 2:
        return Outcome("ok", notes=["not two players: not solved"])
    symmetry, swapping = ch.chance(0.5), ch.chance(0.4)
    start = py.initial_state()
    try:
        want = solve(py, symmetry=symmetry, swap_players=swapping, max_positions=MAX_POSITIONS,
                     max_memory=200 << 20, stream=open(os.devnull, "w"))
    except SolveError:
        return Outcome("ok", notes=["too many positions for the Python solve"])
    by_search = minimax(py, start)
    if by_search is not None and by_search != tuple(want.lookup(start)):
        raise Invariant(f"the start is {want.lookup(start)} by the Python solver, {by_search} by "
                        f"plain minimax", kind="the Python solver differs from minimax")
    if symmetry or swapping:  # each position's value, as the classes give it, is its own
        try:
            plain = solve(py, max_positions=4 * MAX_POSITIONS, max_memory=200 << 20)
        except SolveError:
            plain = None
        for i in range(len(plain) if plain is not None else 0):
            s = plain.position(i)
            if want.lookup(s) != plain.lookup(s):
                raise Invariant(f"{py.state_to_text(s)!r}: {plain.lookup(s)}, but {want.lookup(s)} "
                                f"with symmetry={symmetry}, swap={swapping}",
                                kind="a class's value is not each of its positions'")
    if compiler() is None:
        return Outcome("ok", notes=["no C compiler here: the Python solver alone"])
    try:
        nat = Game(rs, backend="native")
    except (NativeTooLarge, NativeUnavailable) as e:
        return Outcome("clean", detail=str(e)[:300])
    perms = board_symmetries(nat, start=start) if symmetry else []
    swap = player_swap(nat, perms, start=start) if swapping else None
    label = f"symmetry={symmetry}, swap={swap is not None}"
    for _ in range(WAYS):
        ways = native_ways(ch)
        try:
            got = solve_native(nat, start, perms, Progress(False, None), 10 * MAX_POSITIONS,
                               1 << 30, swap=swap, **ways)
        except NativeSolveUnsupported as e:
            if "dsl/domains.py" in str(e):  # the analysis left out a cell a piece reached
                raise Invariant(f"{e}{label}", kind="the domains are too narrow") from None
            return Outcome("ok", notes=[f"the native solver cannot: {e}"[:200]])
        same(py, want, got, f" ({label}, {ways})")
        if ch.chance(0.3):  # saved and read back
            got.save("solved.sol")
            same(py, want, Solution.load("solved.sol", nat), f" ({label}, {ways}, saved and read back)")
    if ch.chance(0.3):  # by tiers, tasks in C (tiered.py)
        got = solve(nat, symmetry=symmetry, swap_players=swapping, max_positions=10 * MAX_POSITIONS,
                    tier_dir=os.path.join(os.getcwd(), "tiers"), stream=open(os.devnull, "w"))
        same(py, want, got, f" ({label}, by tiers)")
    return Outcome("ok")


def same(game, want, got, where: str) -> None:
    """Raise Invariant unless the solutions `want` (Python's) and `got` hold the same
    positions with the same values and remoteness."""
    from .harness import Invariant

    if len(got) != len(want):
        raise Invariant(f"the native solve has {len(got)} positions, the Python one "
                        f"{len(want)}{where}", kind="the solvers differ (positions)")
    if got.counts() != want.counts():
        raise Invariant(f"the native solve counts {got.counts()}, the Python one "
                        f"{want.counts()}{where}", kind="the solvers differ (counts)")
    for i in range(len(want)):
        s = want.position(i)
        a, b = want.lookup(s), got.lookup(s) if s in got else None
        if a != b:
            raise Invariant(f"{game.state_to_text(s)!r}: Python {a}, native {b}{where}",
                            kind="the solvers differ (a value)")


def minimax(game, start, limit: int = MAX_POSITIONS, depth: int = 400) -> tuple | None:
    """The start's value and remoteness by plain recursion (an independent check of the
    retrograde solve: a win as soon as it can, a loss as late as it can), or None if a
    position comes round again, or past `limit` positions or `depth` plies."""
    memo: dict = {}
    path: set = set()

    def value(s, d: int) -> tuple | None:
        if s in memo:
            return memo[s]
        if s in path or d > depth or len(memo) > limit:
            return None
        me = game.to_move(s)
        if game.is_terminal(s):
            r = game.returns(s)[me]
            memo[s] = out = ("win" if r > 0 else "lose" if r < 0 else "draw", 0 if r else None)
            return out
        path.add(s)
        kids = []
        for a in game.legal_actions(s):
            c = game.apply_unchecked(s, a)
            v = value(c, d + 1)
            if v is None:
                return None
            flip = game.to_move(c) != me and v[0] != "draw"
            kids.append(({"win": "lose", "lose": "win"}[v[0]] if flip else v[0], v[1]))
        path.discard(s)
        wins = [r for v, r in kids if v == "win"]
        if wins:
            out = ("win", 1 + min(wins))
        elif any(v == "draw" for v, _ in kids):
            out = ("draw", None)
        else:
            out = ("lose", 1 + max((r for _, r in kids), default=-1))
        memo[s] = out
        return out

    return value(start, 0)
