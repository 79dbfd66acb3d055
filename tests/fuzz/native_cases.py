"""The `native` category: generated rulesets run on both back-ends, Python against C.

Two in five rulesets are small games played for real, one in five a bundled game with
one edit (designs.py; the same edit written as a variant file must play the same), two in
five the `ruleset-gen` generator's, pushed to the edges the native back-end is most likely to get
wrong: variables starting at the ends of their ranges (up to
±1,000,000,000), numbers near the literal limit in every expression, and now and then a
large board (many words of cells). Each accepted one is compiled to C and compared with
the Python back-end: perft, seeded playouts (outcomes, lengths), and ply by ply the same
legal plies in the same order, the same successors and outcomes; a rule's bound
(RuleLimitError) must stop both alike.
"""

from __future__ import annotations

import os

from .chooser import Chooser
from .case import Case
from .designs import DesignGenerator, as_variant, bundled_and_library, tweak_bundled
from .rulesets import RulesetGenerator

EDGE_NUMBERS = ["999999999", "1000000000", "65536", "4294967", "1", "0"]
BIG_SQUARES = [(52, 40), (40, 52), (33, 33), (64, 1), (1, 64), (65, 1), (16, 16)]


class EdgeGenerator(RulesetGenerator):
    """RulesetGenerator with edge values: large numbers, variables at the ends of their
    ranges, large boards."""

    def num(self, small: int = 4) -> str:
        if self.ch.chance(0.3):
            return self.ch.choice(EDGE_NUMBERS)
        return super().num(small)

    def board(self) -> None:
        ch = self.ch
        if not ch.chance(0.15):
            return super().board()
        self.goals = []
        if ch.chance(0.7):
            from .rulesets import SQUARE_DIRS, cell_names_square
            w, h = ch.choice(BIG_SQUARES)
            self.shape, self.size = "square", (w, h)
            self.dirs, self.groups = list(SQUARE_DIRS), ["orthogonal", "all"]
            self.cells = cell_names_square(min(w, 60), min(h, 30))
            self.builtin_regions = [f"rank{i + 1}" for i in range(min(h, 30))]
            self.lines.append(f"board square {w} x {h}")
        else:
            from .rulesets import HEX_DIRS, cell_names_hexagon
            n = ch.choice([9, 11, 13])
            self.shape, self.size = "hexagon", (n, n)
            self.dirs, self.groups = list(HEX_DIRS), ["all"]
            self.cells = cell_names_hexagon(n)
            self.builtin_regions = [f"row{i + 1}" for i in range(2 * n - 1)]
            self.lines.append(f"board hexagon {n}")

    def var(self) -> None:
        ch = self.ch
        name = self.fresh(["score", "quiet", "lead", "moves"])
        per = ch.chance(0.5)
        low, high = ch.choice([("-1000000000", "1000000000"), ("0", "1000000000"), ("-1000000000", "0"),
                               ("999999990", "1000000000"), ("-5", "5")])
        value = ch.choice([low, high, "0"]) if int(low) <= 0 <= int(high) else ch.choice([low, high])
        self.lines.append(f"var {name}{' per player' if per else ''} = {value} in {low}..{high}")
        self.vars.append((name, per))


def case_native(ch: Chooser, ctx, index: int) -> Case:
    # small games played for real (most edge ones end at once), bundled games tweaked
    way = ch.weighted([(2, "design"), (1, "tweak"), (2, "edge")])
    files = {}
    if way == "tweak":
        sources = bundled_and_library()
        name, text = tweak_bundled(ch, sources)
        variant = as_variant(name, sources[name], text)
        if variant is not None:  # the same edit as a variant file: the same game
            files["variant.game"] = variant
    else:
        text = (DesignGenerator(ch) if way == "design" else EdgeGenerator(ch, wild=0.01, collide=0.02)).generate()
    return Case("native", {"fuzz.game": text, **files}, {"file": "fuzz.game", "seed": index})


MAX_PLIES = 40
BUILD_SECONDS = 6  # the C compiler's bound here (60 s in use): within the worker's budget


def load_case(case: Case, seconds: int):
    """The case's ruleset, its native builds in the case's own folder and bounded by
    `seconds`; or the clean Outcome of its RulesetError."""
    from dsl.diagnostics import RulesetError
    from dsl.load import load
    from interpreter.native import build

    from .harness import Outcome

    os.environ["RULECRAFT_CACHE"] = os.getcwd()  # the case's own folder, removed after it
    build.BUILD_TIMEOUT = seconds
    try:
        return load(case.main_file())
    except RulesetError as e:
        return Outcome("clean", detail=e.format().splitlines()[0][:300])


def eval_native(case: Case, ctx) -> "Outcome":  # noqa: F821 - harness imports this module
    from interpreter import Game
    from interpreter.search.analysis import SplitMix, perft, random_playouts
    from interpreter.runtime.limits import RuleLimitError
    from interpreter.native.build import NativeTooLarge, NativeUnavailable, compiler

    from .harness import Invariant, Outcome

    rs = load_case(case, BUILD_SECONDS)
    if isinstance(rs, Outcome):
        return rs
    py = Game(rs)
    if "variant.game" in case.files:
        same_as_variant(py, case.params["seed"])
    if compiler() is None:
        return Outcome("ok", notes=["no C compiler here: the Python back-end alone"])
    try:
        nat = Game(rs, backend="native")
    except NativeTooLarge as e:  # refused as too large to build: the designed, clean stop
        return Outcome("clean", detail=str(e)[:300])
    except NativeUnavailable as e:
        if str(e).startswith("the C compiler did not finish"):  # the build's bound: a clean stop
            return Outcome("clean", detail=str(e))
        raise Invariant(f"the native back-end could not be built: {str(e)[:2000]}",
                        kind="the generated C does not build")

    def both(what: str, f, where=lambda: ""):
        """f(py), f(nat): the same value, or the same RuleLimitError; `where()` (made only
        on a difference: a ply's text can cost the whole legal list's) says where."""
        out = []
        for g in (py, nat):
            try:
                out.append(("value", f(g)))
            except RuleLimitError as e:
                out.append(("limit", str(e)))
        if out[0] != out[1]:
            raise Invariant(f"{what}{where()}: Python {out[0]!r}, native {out[1]!r}",
                            kind=f"the back-ends differ ({what})")
        return out[0]

    s0 = py.initial_state()
    width = len(py.legal_actions(s0))
    # a large board's plies, or a wide position's, take long to list and compare: fewer
    plies = MAX_PLIES if rs.board.size <= 400 and width <= 2000 else 1 if width > 20000 else MAX_PLIES // 8
    both("perft", lambda g: perft(g, s0, 1 if width > 60 else 2))
    both("playouts", lambda g: (lambda r: (r.wins, r.draws, r.unfinished, r.plies))(
        random_playouts(g, 3 if rs.board.size <= 400 else 1, seed=case.params["seed"], max_plies=plies)))
    rng = SplitMix(case.params["seed"], 7)
    s = s0
    limited = False
    for _ in range(plies):
        where = lambda: f" in {py.state_to_text(s)!r}"  # noqa: E731
        kind, acts = both("legal plies", lambda g: g.legal_actions(s), where)
        both("outcome", lambda g: g.outcome(s), where)
        if kind == "limit" or not acts:
            limited = kind == "limit"
            break
        a = acts[rng.next() % len(acts)]
        kind, after = both("apply", lambda g: g.apply_unchecked(s, a),
                           lambda: f" of {py.action_to_text(s, a)!r}{where()}")
        if kind == "limit":
            limited = True
            break
        s = after
    return Outcome("ok", notes=["stopped at a rule's bound on both"] if limited else [])


def same_as_variant(game, seed: int) -> None:
    """Raise Invariant unless variant.game (the case's edit written as a variant of the
    bundled game) plays as `game` (the edited text): the same start, perft 2 and legal
    plies along a seeded game. A variant that does not load is let be (a `remove` or
    `link` edited names another key)."""
    from dsl.diagnostics import RulesetError
    from dsl.load import load
    from interpreter import Game
    from interpreter.search.analysis import SplitMix, perft

    from .harness import Invariant

    try:
        other = Game(load("variant.game"))
    except RulesetError:
        return
    s = game.initial_state()
    if other.state_to_text(other.initial_state()) != game.state_to_text(s):
        raise Invariant("the variant's start differs from the edited text's", kind="a variant differs")
    if perft(other, other.initial_state(), 2) != perft(game, s, 2):
        raise Invariant("the variant's perft 2 differs from the edited text's", kind="a variant differs")
    rng = SplitMix(seed, 11)
    for _ in range(MAX_PLIES):
        mine = [game.action_to_text(s, a) for a in game.legal_actions(s)]
        t = other.state_from_text(game.state_to_text(s))
        theirs = [other.action_to_text(t, a) for a in other.legal_actions(t)]
        if mine != theirs:
            raise Invariant(f"in {game.state_to_text(s)!r} the variant's plies differ: {theirs[:8]} "
                            f"against {mine[:8]}", kind="a variant differs")
        if not mine or game.is_terminal(s):
            break
        s = game.apply_unchecked(s, game.legal_actions(s)[rng.next() % len(mine)])
