"""Rulesets to fuzz with: generated ones (every construct of docs/LANGUAGE.md, random
expressions in every slot; and raw walks of grammar/game.lark's rules) and damaged
copies of the bundled ones.
"""

from __future__ import annotations

import functools
import os
import re
import string

from .chooser import Chooser
from .names import CANARY_NAME, NUMBERS, canary_payloads, colliders, hostile_strings

SQUARE_DIRS = ["n", "e", "s", "w"]
DIAGONALS = ["ne", "se", "sw", "nw"]
HEX_DIRS = ["e", "w", "ne", "nw", "se", "sw"]
LETTERS = string.ascii_lowercase + string.ascii_uppercase
SYMBOLS = list("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0123456789") + \
    ['"*"', '"@"', '"+"', '"%"', '"!"', '"-"', '"="', '"x"', '"é"', '"🙂"']
PLAIN_NAMES = ["alpha", "beta", "gamma", "delta", "man", "king", "stone", "disc", "tile", "ball",
               "score", "quiet", "zone", "hop", "jump", "won", "lost", "North", "South", "Blue",
               "Red", "White", "Black", "X", "O", "p", "q", "r", "v", "w1", "goal_n", "rel"]
OPS = ["==", "!=", "<", "<=", ">", ">="]


@functools.lru_cache(maxsize=1)
def grammar_words() -> tuple[str, ...]:
    """Every keyword and punctuation string of the grammar (from the parser's terminals)."""
    from dsl.parse import grammar_parser

    out = set()
    for t in grammar_parser().terminals:
        if t.pattern.type == "str":
            out.add(t.pattern.value)
    out.update(["no legal ply", "opponent's", "==", "!=", "<=", ">=", "<", ">", "+", "-", "|", "*", "&"])
    return tuple(sorted(out))


# The weights of the motions and effects of the registry (dsl/constructs) that the
# generator has recipes for, in the order it draws them; the registry's others weigh 1.
MOTION_WEIGHTS = {"step": 3, "slide": 2, "walk": 1, "push": 1, "anywhere": 1.5, "place": 2, "leap": 1}
END_EFFECT_WEIGHTS = {"assign": 2, "reset": 1, "turn_to": 1}


def motion_constructs() -> dict:
    """The registry's motions by name (dsl/constructs.SYNTAX)."""
    from dsl.constructs import SYNTAX

    return SYNTAX


def _drawn(weights: dict[str, float], names: list[str]) -> list[tuple[float, str]]:
    """(weight, name) for each name, those with a recipe first in their order."""
    order = sorted(names, key=lambda n: list(weights).index(n) if n in weights else len(weights))
    return [(weights.get(n, 1), n) for n in order]


@functools.lru_cache(maxsize=1)
def motion_weights() -> list[tuple[float, str]]:
    return _drawn(MOTION_WEIGHTS, list(motion_constructs()))


@functools.lru_cache(maxsize=1)
def end_effect_weights() -> list[tuple[float, str]]:
    """The effects an end rule may have, weighted."""
    from dsl.constructs import EFFECTS

    return _drawn(END_EFFECT_WEIGHTS, [e.name for e in EFFECTS.values() if e.may_stand(True, False)])


def wide_motion() -> str:
    """The motion of pieces covering several cells (anywhere)."""
    return next(c.name for c in motion_constructs().values() if c.wide_pieces)


def cell_names_square(w: int, h: int) -> list[str]:
    return [f"{LETTERS[x]}{y + 1}" for y in range(h) for x in range(min(w, len(LETTERS)))]


def cell_names_hexagon(n: int) -> list[str]:
    """Cells of `hexagon n`: column letter by half steps from the west, row from the north."""
    out = []
    for r in range(1, 2 * n):
        offset = abs(n - r)
        length = n + (n - 1 - offset)
        for k in range(length):
            col = offset + 2 * k
            if col < len(LETTERS):
                out.append(f"{LETTERS[col]}{r}")
    return out


class Scope:
    """What an expression may name where it is generated."""

    def __init__(self, ply: bool = False, effects: bool = False, end: bool = False,
                 where: bool = False, chained: bool = False, place: bool = False):
        self.ply, self.effects, self.end, self.where, self.chained = ply, effects, end, where, chained
        self.place = place
        self.walk = False  # a walk or a chain: `path` is refused


class RulesetGenerator:
    """One random ruleset: every construct of docs/LANGUAGE.md, mostly well-typed.

    `wild` is the probability that a slot gets something of the wrong kind or a name from
    the colliders: most generated rulesets check, so their compiled code runs too.
    """

    def __init__(self, ch: Chooser, wild: float = 0.03, collide: float = 0.12):
        self.ch, self.wild, self.collide = ch, wild, collide
        self.used: set[str] = set()
        self.lines: list[str] = []

    # ------------------------------------------------------------ names and numbers
    def fresh(self, plain: list[str] | None = None) -> str:
        ch = self.ch
        for _ in range(20):
            if ch.chance(self.collide):
                name = ch.choice(colliders())
            elif ch.chance(0.02):
                name = CANARY_NAME
            elif ch.chance(0.01):
                name = "n" + "x" * ch.choice([60, 300, 5000])
            else:
                name = ch.choice(plain or PLAIN_NAMES) + ("" if ch.chance(0.5) else str(ch.randint(0, 9)))
            if name not in self.used:
                self.used.add(name)
                return name
        return f"name{len(self.used)}"

    def num(self, small: int = 4) -> str:
        ch = self.ch
        if ch.chance(0.03):
            return ch.choice(NUMBERS).lstrip("-") or "0"
        return str(ch.randint(0, small))

    # ------------------------------------------------------------ the ruleset
    def generate(self) -> str:
        ch = self.ch
        L = self.lines
        title = ch.choice(["g", "Fuzz", "A game", ""]) if not ch.chance(0.05) else \
            ch.choice(canary_payloads() + [s for s in hostile_strings() if '"' not in s and "\n" not in s
                                           and "\r" not in s and len(s) < 400])
        L.append(f'game "{title}"')
        self.board()
        self.players = [self.fresh(["North", "South", "Blue", "Red", "X", "O", "White", "Black"]),
                        self.fresh(["North", "South", "Blue", "Red", "X", "O", "White", "Black"])]
        if ch.chance(0.015):
            self.players = self.players[:ch.randint(0, 1)] + ([self.fresh()] if ch.chance(0.5) else [])
        if ch.chance(0.015):
            self.players.append(self.fresh())
        L.append("players " + ", ".join(self.players))
        self.regions: list[str] = []
        for _ in range(ch.randint(0, 2)):
            self.region()
        self.pieces()
        self.relations: list[str] = []
        if ch.chance(0.2):
            self.relation()
        self.vars: list[tuple[str, bool]] = []
        for _ in range(ch.randint(0, 2)):
            self.var()
        self.setup()
        self.plies: list[str] = []
        self.ply_decls: list[str] = []
        for _ in range(ch.randint(1, 3) if not ch.chance(0.03) else 0):
            self.ply()
        if ch.chance(0.3):
            self.turn()
        if ch.chance(0.15):
            L.append("compulsory " + ("maximum " if ch.chance(0.5) else "") + "capture")
        if ch.chance(0.2) and self.vars:
            L.append("after each ply: " + ", ".join(self.assign(Scope(effects=True))
                                                   for _ in range(ch.randint(1, 2))))
        for _ in range(ch.randint(0, 3)):
            self.end()
        if ch.chance(0.3):
            # Declarations may come in any order (but a region only after those it uses).
            head, rest = L[:1], L[1:]
            L[:] = head + ch.shuffled(rest) if ch.chance(0.3) else L
        text = "\n".join(L) + "\n"
        if ch.chance(0.05):
            text = "# generated\n" + text.replace("\n", "   # c\n", ch.randint(0, 3))
        return text

    def board(self) -> None:
        ch = self.ch
        if ch.chance(0.7):
            w = ch.weighted([(3, 3), (3, 2), (2, 4), (2, 1), (1, 5), (0.05, 0), (0.05, 53),
                             (0.05, 52), (0.03, 10**9)])
            h = ch.weighted([(3, 3), (3, 2), (2, 4), (2, 1), (1, 5), (0.05, 0), (0.05, 200), (0.03, 10**12)])
            diag = ch.chance(0.4)
            self.shape, self.size = "square", (w, h)
            self.dirs = SQUARE_DIRS + (DIAGONALS if diag else [])
            self.groups = ["orthogonal", "all"] + (["diagonal"] if diag else [])
            self.cells = cell_names_square(min(w, 60), min(h, 30))
            self.builtin_regions = [f"rank{i + 1}" for i in range(min(h, 30))] + \
                [f"file_{LETTERS[i]}" for i in range(min(w, 52))]
            with_ = " with diagonals" if diag else (" with " + ch.choice(["diagonal", "x", "diagonals, n"])
                                                      if ch.chance(0.03) else "")
            self.lines.append(f"board square {w} x {h}{with_}")
        else:
            n = ch.weighted([(5, 2), (4, 3), (0.5, 4), (0.05, 1), (0.03, 0), (0.03, 14), (0.03, 10**6)])
            self.shape, self.size = "hexagon", (n, n)
            self.dirs = list(HEX_DIRS)
            self.groups = ["all"]
            self.cells = cell_names_hexagon(min(n, 14))
            self.builtin_regions = [f"row{i + 1}" for i in range(max(0, 2 * min(n, 14) - 1))]
            self.lines.append(f"board hexagon {n}" + (" x 3" if ch.chance(0.02) else ""))
        self.goals: list[str] = []
        if self.cells and ch.chance(0.2):
            removed = ch.subset(self.cells, 0.15)
            if removed:
                self.lines.append("remove " + ", ".join(removed))
                self.cells = [c for c in self.cells if c not in removed] or self.cells
        if self.cells and ch.chance(0.15):
            for _ in range(ch.randint(1, 2)):
                a, b = ch.choice(self.cells), ch.choice(self.cells)
                if a == b and len(self.cells) > 1 and not ch.chance(self.wild):
                    continue
                self.lines.append(f"link {a} -- {b}")
            self.dirs.append("link")
        if self.cells and ch.chance(0.15):
            self.goal()

    def goal(self) -> None:
        ch = self.ch
        name = self.fresh(["north_goal", "south_goal", "goal", "home"])
        if self.shape == "square":
            w, h = self.size
            top = [c for c in self.cells if c[1:] == str(min(h, 30))]
            cells, dirs = (top, ["n"]) if ch.chance(0.5) else ([c for c in self.cells if c[1:] == "1"], ["s"])
        else:
            cells, dirs = [c for c in self.cells if c[1:] == "1"], ["ne", "nw"]
        if ch.chance(0.2):
            cells, dirs = [ch.choice(self.cells)], [ch.choice(self.dirs)]
        cells = ch.subset(cells, 0.6, at_least=1) or [ch.choice(self.cells)]
        self.lines.append(f"goal {name}: {', '.join(cells)} by {', '.join(dirs)}")
        self.goals.append(name)

    def region(self) -> None:
        name = self.fresh(["zone", "point", "edge", "home", "centre"])
        items = [self.cells_expr(Scope(), depth=1, static=True) for _ in range(self.ch.randint(1, 3))]
        self.lines.append(f"region {name}: {', '.join(items)}")
        self.regions.append(name)

    def pieces(self) -> None:
        ch = self.ch
        self.kinds: list[dict] = []
        symbols = ch.shuffled(SYMBOLS)
        for k in range(ch.randint(1, 3) if not ch.chance(0.02) else 0):
            name = self.fresh(["man", "king", "stone", "disc", "tile", "ball", "mark", "rook"])
            owner = ch.weighted([(3, "each"), (2, "p0"), (2, "p1"), (1.5, "neutral")])
            props = []
            if owner == "each":
                props.append("owner each")
            elif owner == "neutral":
                props.append("neutral")
            else:
                props.append("owner " + (self.players or ["Nobody"])[0 if owner == "p0" else -1])
            size = ch.weighted([(12, 1), (1.5, 2), (0.3, 3), (0.1, 4), (0.05, 0), (0.05, 5)])
            if size != 1 or ch.chance(0.1):
                props.append(f"size {size}")
            reserve = None
            if ch.chance(0.2):
                reserve = ch.weighted([(3, "3"), (1, "0"), (1, "1"), (0.3, ch.choice(NUMBERS).lstrip("-") or "0")])
                props.append(f"reserve {reserve}")
            carrier = None
            small = [k for k in self.kinds if k["size"] == 1 and k["owner"] != "each"]
            if small and (size == 1 or ch.chance(self.wild)) and ch.chance(0.15):
                carrier = ch.choice(small)["name"]
                props.append(f"on {carrier}")
            sym = symbols[2 * k] if len(symbols) > 2 * k else "Z"
            if owner == "each":
                sym += "/" + (symbols[2 * k + 1] if len(symbols) > 2 * k + 1 else "Y")
            if ch.chance(0.02):
                sym = ch.choice(["..", '"."', '"/"', '"#"', '" "', "AB", "1/2/3", sym + "/Q"])
            props.append(f"symbol {sym}")
            if ch.chance(0.05):
                props.append(ch.choice(["neutral", "owner each", "size 2", "symbol Q"]))
            props = ch.shuffled(props) if ch.chance(0.2) else props
            self.lines.append(f"piece {name}: {', '.join(props)}")
            self.kinds.append({"name": name, "owner": owner, "size": size, "reserve": reserve,
                               "carrier": carrier})

    def relation(self) -> None:
        if not self.kinds:
            return
        name = self.fresh(["whistles", "rel", "prey", "beats"])
        pairs = [f"{self.ch.choice(self.kinds)['name']} > {self.ch.choice(self.kinds)['name']}"
                 for _ in range(self.ch.randint(1, 3))]
        self.lines.append(f"relation {name}: {', '.join(pairs)}")
        self.relations.append(name)

    def var(self) -> None:
        ch = self.ch
        name = self.fresh(["score", "quiet", "count_", "moves", "lead"])
        per = ch.chance(0.5)
        value = ("-" if ch.chance(0.2) else "") + self.num(3)
        bounds = ""
        if ch.chance(0.3):  # var NAME = V in LOW..HIGH
            low, high = ch.weighted([(4, ("0", "5")), (2, ("-3", "3")), (1, ("0", "0")), (1, ("0", "1000")),
                                     (0.3, ("5", "0")), (0.3, ("-1000000000", "1000000000")),
                                     (0.2, ("0", "99999999999")), (0.2, ("-" + ch.choice(NUMBERS).lstrip("-"), "2"))])
            bounds = f" in {low}..{high}"
        self.lines.append(f"var {name}{' per player' if per else ''} = {value}{bounds}")
        self.vars.append((name, per))

    def setup(self) -> None:
        ch = self.ch
        free = list(self.cells)
        if ch.chance(0.08) and self.kinds:
            # the whole setup drawn as rows of symbols
            rows = self._board_rows()
            if rows:
                self.lines.append("setup board:\n" + "\n".join(f'  "{r}"' for r in rows))
                return
        for kind in self.kinds:
            owners = [None] if kind["owner"] != "each" else list(self.players[:2])
            for who in owners:
                if ch.chance(0.2) or not free:
                    continue
                of = f" of {who}" if who is not None else ""
                if ch.chance(0.02):
                    of = f" of {ch.choice(self.players + ['Nobody', 'mover'])}"
                if kind["size"] > 1:
                    items = self._wide_items(kind["size"], free)
                    if not items:
                        continue
                    self.lines.append(f"setup {kind['name']}{of}: {', '.join(items)}")
                    continue
                if ch.chance(0.1):
                    self.lines.append(f"setup {kind['name']}{of}: all other cells")
                    continue
                picked = ch.subset(free, 0.25, at_least=1)
                free = [c for c in free if c not in picked]
                if ch.chance(0.15):
                    picked = [self.cells_expr(Scope(), depth=1, static=True)]
                self.lines.append(f"setup {kind['name']}{of}: {', '.join(picked)}")

    def _wide_items(self, size: int, free: list[str]) -> list[str]:
        """Straight runs of `size` free cells (square boards: along a rank), as `a1 | b1` items."""
        ch = self.ch
        items = []
        for _ in range(ch.randint(1, 2)):
            if not free:
                break
            start = ch.choice(free)
            run = [start]
            if self.shape == "square":
                x, y = LETTERS.index(start[0]), start[1:]
                run = [f"{LETTERS[x + i]}{y}" for i in range(size) if x + i < len(LETTERS)]
            if len(run) == size and all(c in free for c in run):
                items.append(" | ".join(run))
                for c in run:
                    free.remove(c)
        return items

    def _board_rows(self) -> list[str]:
        if self.shape != "square":
            return []
        w, h = self.size
        syms = []
        for k in self.kinds:
            if k["size"] == 1:
                syms.append("X")  # replaced below by the kind's symbols as declared
        line = [l for l in self.lines if l.startswith("piece ")]
        symbols = []
        for l in line:
            m = re.search(r"symbol (\S+)", l)
            if m:
                symbols += [s for s in m.group(1).split("/") if len(s) == 1]
        if not symbols or w > 8 or h > 8:
            return []
        ch = self.ch
        return [" ".join(ch.choice(symbols + [".", ".", "."]) for _ in range(w)) for _ in range(h)]

    # ------------------------------------------------------------ plies
    def ply(self) -> None:
        ch = self.ch
        name = self.fresh(["hop", "step", "jump", "slide", "move", "drop", "kick", "capture"])
        self.plies.append(name)
        kind = ch.choice(self.kinds) if self.kinds else {"name": "piece", "size": 1}
        selector = ch.weighted([(3, ""), (2, "own "), (0.7, "opponent's ")]) + \
            (kind["name"] if not ch.chance(0.2) else "piece")
        motion_kind = ch.weighted(motion_weights())
        if (kind["size"] != 1 or selector.endswith("piece") and any(k["size"] != 1 for k in self.kinds)) \
                and not ch.chance(self.wild):
            motion_kind = wide_motion()  # pieces covering several cells move only anywhere
        no_from = bool(motion_constructs()[motion_kind].no_from)  # `place`: `from` is refused
        scope = Scope(ply=not no_from, where=True)
        scope.place = no_from
        dirs = self.dir_list(optional=True)
        recipe = getattr(self, "motion_" + motion_kind, None)
        action = recipe(selector, dirs, scope) if recipe is not None else self.walked_motion(motion_kind, selector)
        parts = [f"ply {name}: {action}"]
        if ch.chance(0.5):
            parts.append("onto " + self.cells_expr(scope, 2))
        if ch.chance(0.4):
            parts.append("where " + self.cond(scope, 3))
        effects = []
        if scope.chained:  # a chain goes on only after a segment that removed pieces
            effects.append("remove " + ch.choice(["opponent's piece & adjacent(path)", "path & piece",
                                                  self.cells_expr(scope, 2)]))
        if ch.chance(0.4):
            for _ in range(ch.randint(1, 2)):
                if ch.chance(0.5) and self.vars:
                    effects.append(self.assign(Scope(ply=True, effects=True)))
                else:
                    effects.append("remove " + self.cells_expr(scope, 2))
        if effects:
            parts.append("then " + ", ".join(effects))
        sep = "\n  " if ch.chance(0.3) else " "
        self.lines.append(sep.join(parts))

    # A motion of the registry (dsl/constructs) is written by its recipe here, if it has
    # one (MOTION_WEIGHTS), else by a walk of its rule in the grammar.
    def motion_place(self, selector: str, dirs: str, scope: Scope) -> str:
        return f"place {selector}"

    def motion_step(self, selector: str, dirs: str, scope: Scope) -> str:
        return f"move {selector} step{dirs}"

    def motion_slide(self, selector: str, dirs: str, scope: Scope) -> str:
        ch = self.ch
        chained = " chained" if ch.chance(0.25) else ""
        if chained and ch.chance(0.4):
            chained += f" up to {ch.weighted([(3, '2'), (2, '1'), (1, '3'), (0.3, '0'), (0.3, ch.choice(NUMBERS))])}" \
                " segments"
        scope.chained = bool(chained)
        scope.walk = scope.chained and not ch.chance(self.wild)
        least = f" {self.num(3)}" if ch.chance(0.2) and (not chained or ch.chance(self.wild)) else ""
        upto = f" up to {self.number_expr(Scope(ply=True), 2)}" if ch.chance(0.35) and \
            (not chained or ch.chance(self.wild)) else ""
        return f"move {selector} slide{dirs}{least}{upto}{chained}"

    def motion_walk(self, selector: str, dirs: str, scope: Scope) -> str:
        scope.walk = not self.ch.chance(self.wild)
        return f"move {selector} walk{dirs} up to {self.number_expr(Scope(ply=True), 2)}"

    def motion_push(self, selector: str, dirs: str, scope: Scope) -> str:
        return f"move {selector} push {self.num(3)}{dirs}"

    def motion_leap(self, selector: str, dirs: str, scope: Scope) -> str:
        return f"move {selector} leap{dirs}"

    def motion_anywhere(self, selector: str, dirs: str, scope: Scope) -> str:
        return f"move {selector} anywhere"

    def walked_motion(self, motion_kind: str, selector: str) -> str:
        """A motion without a recipe: its grammar rule walked (names: directions and kinds)."""
        names = self.dirs + self.groups + [k["name"] for k in self.kinds] or ["x"]
        walked = GrammarWalker(self.ch, names).walk(motion_kind, budget=4)
        return f"move {selector} {walked}" if motion_constructs()[motion_kind].moves else walked

    def assign(self, scope: Scope) -> str:
        ch = self.ch
        if not self.vars or ch.chance(self.wild / 2):
            target = self.fresh()
            per = False
        else:
            target, per = ch.choice(self.vars)
        if per or ch.chance(self.wild / 2):
            target += f"[{self.player_expr(scope)}]"
        op = ch.choice(["=", "+=", "-="])
        line = f"{target} {op} {self.number_expr(scope, 2)}"
        if ch.chance(0.3):
            line += " when " + self.cond(scope, 2)
        return line

    def turn(self) -> None:
        ch = self.ch
        items = self.plies + ["any", "pass"] + ([self.fresh()] if ch.chance(self.wild) else [])

        def phase() -> str:
            alts = [ch.choice(items) for _ in range(ch.randint(1, 2))]
            return " or ".join(alts) + (" when possible" if ch.chance(0.3) else "")

        self.lines.append("turn: " + " then ".join(phase() for _ in range(ch.randint(1, 3))))
        if ch.chance(0.3):
            self.lines.append("first turn: " + " then ".join(phase() for _ in range(ch.randint(1, 2))))

    def end(self) -> None:
        ch = self.ch
        name = self.fresh(["won", "lost", "full", "stuck", "line", "forty", "goal"])
        scope = Scope(end=True)
        who = self.player_expr(scope)
        outcome = ch.weighted([(3, f"{who} wins"), (2, f"{who} loses"), (1.5, "draw"), (0.5, f"{who} win"),
                               (1, "then")])
        if outcome == "then":
            effs = []
            for _ in range(ch.randint(1, 3)):
                e = ch.weighted(end_effect_weights())
                if e == "assign" and self.vars:
                    effs.append(self.assign(Scope(end=True, effects=True)))
                elif e == "reset":
                    effs.append("reset setup")
                elif e in ("assign", "turn_to"):
                    effs.append(f"turn to {self.player_expr(scope)}")
                else:  # an effect without a recipe: its grammar rule walked
                    effs.append(GrammarWalker(ch, list(self.players) or ["x"]).walk(e, budget=4))
            outcome = "then " + ", ".join(effs)
        self.lines.append(f"end {name}: {outcome} if {self.cond(scope, 3)}")

    # ------------------------------------------------------------ expressions
    def dir_list(self, optional: bool = False) -> str:
        ch = self.ch
        if optional and ch.chance(0.4):
            return ""
        pool = self.dirs + self.groups
        if ch.chance(self.wild):
            pool = pool + [self.fresh(), "up", "north", "diagonal", "link"]
        picked = ch.subset(pool, 0.25, at_least=1)
        return " " + ", ".join(picked)

    def dirs_arg(self) -> str:
        """One direction or group (a function's argument)."""
        if self.ch.chance(self.wild):
            return self.dir_list().strip()
        return self.ch.choice(self.dirs + self.groups)

    def wild_expr(self, scope: Scope, depth: int) -> str:
        """Anything at all, of any type: the checker must reject it cleanly or accept it."""
        ch = self.ch
        return ch.choice([self.number_expr, self.cond, self.cells_expr, self.player_expr])(scope, depth)

    def paren(self, e: str) -> str:
        ch = self.ch
        if ch.chance(0.05):
            k = ch.choice([1, 2, 10, 59, 60, 61, 200, 2000])
            return "(" * k + e + ")" * k
        return e

    def number_expr(self, scope: Scope, depth: int) -> str:
        ch = self.ch
        if depth > 0 and ch.chance(self.wild):
            return self.wild_expr(scope, depth - 1)
        options = [(3, "num"), (1.5, "count")]
        if self.vars:
            options.append((2, "var"))
        if scope.effects:
            options.append((1, "captured"))
        if depth > 0:
            options += [(2, "arith"), (0.5, "neg")]
        k = ch.weighted(options)
        if k == "num":
            return self.num()
        if k == "count":
            return f"count({self.cells_expr(scope, depth - 1)})"
        if k == "var":
            name, per = ch.choice(self.vars)
            return f"{name}[{self.player_expr(scope)}]" if per else name
        if k == "captured":
            return "captured"
        if k == "neg":
            return "-" + self.number_expr(scope, depth - 1)
        a, b = self.number_expr(scope, depth - 1), self.number_expr(scope, depth - 1)
        return self.paren(f"({a} {ch.choice(['+', '-', '*'])} {b})")

    def player_expr(self, scope: Scope, depth: int = 0) -> str:
        ch = self.ch
        opts = list(self.players[:2]) + ["mover", "opponent", "next"]
        if ch.chance(self.wild):
            opts += [self.fresh(), "0", "1", "here"]
        return ch.choice(opts)

    def cells_expr(self, scope: Scope, depth: int, static: bool = False) -> str:
        ch = self.ch
        if depth > 0 and ch.chance(self.wild) and not static:
            return self.wild_expr(scope, depth - 1)
        options = [(3, "cell"), (1, "builtin")]
        if self.regions:
            options.append((1.5, "region"))
        if self.goals:
            options.append((0.5, "goal"))
        if ch.chance(self.wild):
            options.append((1, "nocell"))
        if not static:
            options += [(2, "kind"), (2, "owned"), (2, "empty"), (0.5, "last")]
            if scope.ply:
                options += [(2, "here"), (2, "from")] + ([] if scope.walk else [(1, "path")])
            elif scope.place:
                options += [(2, "here")]
            if self.relations and depth > 0:
                options.append((0.7, "relation"))
        if depth > 0:
            options += [(2, "setop"), (1, "adjacent")]
        k = ch.weighted(options)
        if k == "cell":
            return ch.choice(self.cells) if self.cells else "a1"
        if k == "builtin":
            return ch.choice(self.builtin_regions) if self.builtin_regions else "rank1"
        if k == "region":
            return ch.choice(self.regions)
        if k == "goal":
            return ch.choice(self.goals)
        if k == "nocell":
            return ch.choice(["z99", "a0", "A1", "a01", "rank0", "row0", "file_", self.fresh()])
        if k == "kind":
            return ch.choice([x["name"] for x in self.kinds]) if self.kinds else "piece"
        if k == "owned":
            what = ch.choice([x["name"] for x in self.kinds] + ["piece"]) if self.kinds else "piece"
            return ch.choice(["own ", "opponent's ", ""]) + what
        if k == "empty":
            return "empty"
        if k == "last":
            return ch.choice(["last_from", "last_to"])
        if k in ("here", "from", "path"):
            return k
        if k == "relation":
            return f"{ch.choice(self.relations)}({self.cells_expr(scope, depth - 1)})"
        if k == "adjacent":
            inner = self.cells_expr(scope, depth - 1, static)
            return f"adjacent({inner}, {self.dirs_arg()})" if ch.chance(0.5) else f"adjacent({inner})"
        a, b = self.cells_expr(scope, depth - 1, static), self.cells_expr(scope, depth - 1, static)
        return self.paren(f"({a} {ch.choice(['|', '&', '-'])} {b})")

    def cond(self, scope: Scope, depth: int) -> str:
        ch = self.ch
        if depth > 0 and ch.chance(self.wild):
            return self.wild_expr(scope, depth - 1)
        options = [(3, "cmp"), (1, "setcmp"), (1, "in"), (1.5, "line"), (0.5, "aligned"), (0.5, "row"),
                   (0.5, "playercmp")]
        if self.plies:
            options.append((0.7, "last_ply"))
        if scope.end:
            options.append((2, "stuck"))
        if scope.where and scope.ply:
            options.append((1, "closer"))
            if self.plies:
                options.append((0.5, "undoes"))
        if depth > 0:
            options += [(2, "bool"), (0.7, "not")]
        k = ch.weighted(options)
        d = depth - 1
        if k == "cmp":
            return f"{self.number_expr(scope, d)} {ch.choice(OPS)} {self.number_expr(scope, d)}"
        if k == "setcmp":
            return f"{self.cells_expr(scope, d)} {ch.choice(['==', '!='])} {self.cells_expr(scope, d)}"
        if k == "playercmp":
            return f"{self.player_expr(scope)} {ch.choice(['==', '!='])} {self.player_expr(scope)}"
        if k == "in":
            return f"{self.cells_expr(scope, d)} in {self.cells_expr(scope, d)}"
        if k == "line":
            extra = ", contiguous" if ch.chance(0.4) else ""
            n = str(ch.randint(1, 3)) if extra and not ch.chance(self.wild) else self.number_expr(scope, d)
            return f"line({n}, {self.cells_expr(scope, d)}, {self.dirs_arg()}{extra})"
        if k == "aligned":
            return f"aligned({self.cells_expr(scope, d)}, {self.dirs_arg()})"
        if k == "row":
            n = self.number_expr(scope, d) if ch.chance(self.wild) else str(ch.randint(1, 3))
            return f"in_a_row({n}, {self.cells_expr(scope, d)}, {self.dirs_arg()})"
        if k == "last_ply":
            names = ch.subset(self.plies + ["pass"], 0.4)
            return f"last_ply({', '.join(names)})"
        if k == "undoes":
            return f"undoes({', '.join(ch.subset(self.plies, 0.5, at_least=1))})"
        if k == "stuck":
            return "no legal ply"
        if k == "closer":
            a, b = ("here", "from") if ch.chance(0.8) else (self.cells_expr(scope, 0), self.cells_expr(scope, 0))
            return f"closer({a}, {b}, {self.cells_expr(scope, d)})"
        if k == "not":
            return f"not {self.paren('(' + self.cond(scope, d) + ')')}"
        return self.paren(f"({self.cond(scope, d)} {ch.choice(['and', 'or'])} {self.cond(scope, d)})")


def generate_ruleset(ch: Chooser) -> str:
    return RulesetGenerator(ch).generate()


# ---------------------------------------------------------------- raw grammar walks
class GrammarWalker:
    """Random declarations straight from the grammar's rules (lark's compiled rules):
    syntactically valid, mostly meaningless; the checker must say why, cleanly."""

    def __init__(self, ch: Chooser, names: list[str]):
        from dsl.parse import grammar_parser

        self.ch, self.names = ch, names
        parser = grammar_parser()
        self.rules: dict[str, list[list]] = {}
        for r in parser.rules:
            self.rules.setdefault(r.origin.name, []).append(list(r.expansion))
        self.terminals = {t.name: t for t in parser.terminals}
        self.height = self._heights()

    def _heights(self) -> dict[str, int]:
        h: dict[str, int] = {}
        changed = True
        while changed:
            changed = False
            for name, expansions in self.rules.items():
                for exp in expansions:
                    hs = [0 if s.is_term else h.get(s.name) for s in exp]
                    if None in hs:
                        continue
                    v = 1 + max(hs, default=0)
                    if v < h.get(name, 1 << 30):
                        h[name] = v
                        changed = True
        return h

    def walk(self, symbol: str = "start", budget: int = 12) -> str:
        out: list[str] = []
        self._walk(symbol, budget, out)
        return " ".join(out)

    def _walk(self, symbol: str, budget: int, out: list[str]) -> None:
        expansions = self.rules[symbol]
        if budget <= 0:  # out of depth: the expansion that ends soonest
            expansions = sorted(expansions, key=lambda e: max((0 if s.is_term else self.height.get(s.name, 99))
                                                               for s in e) if e else 0)[:1] or expansions
        exp = self.ch.choice(expansions)
        for s in exp:
            if s.is_term:
                out.append(self.terminal(s.name))
            else:
                self._walk(s.name, budget - 1, out)

    def terminal(self, name: str) -> str:
        ch = self.ch
        t = self.terminals.get(name)
        if t is not None and t.pattern.type == "str":
            return t.pattern.value
        if name == "NAME":
            return ch.choice(self.names)
        if name == "NUMBER":
            return str(ch.randint(0, 4)) if not ch.chance(0.15) else ch.choice(NUMBERS).lstrip("-") or "0"
        if name == "STRING":
            return '"' + ch.choice(["", "x", "A", ". A .", "é", "🙂"] + canary_payloads()) + '"'
        if name == "CMP":
            return ch.choice(OPS)
        if name == "ADD_OP":
            return ch.choice(["+", "-", "|"])
        if name == "MUL_OP":
            return ch.choice(["*", "&"])
        if name == "NO_LEGAL_PLY":
            return ch.choice(["no legal ply", "no  legal\tply"])
        if name == "OPPONENTS":
            return "opponent's"
        return ch.choice(["x", "1"])


WALKED_DECLS = ["region_decl", "piece_decl", "var_decl", "setup_decl", "ply_decl", "turn_decl", "end_decl",
                "relation_decl", "compulsory_decl", "after_decl", "remove_decl", "link_decl", "goal_decl",
                "setup_board", "ply_decl", "end_decl", "ply_decl"]


def generate_walk(ch: Chooser) -> str:
    """A small valid skeleton, then declarations walked from the grammar."""
    gen = RulesetGenerator(ch, wild=0.0, collide=0.1)
    base = gen.generate()
    names = list(gen.used) + gen.cells[:20] + ["empty", "here", "from", "any", "pass", "all"] + \
        [ch.choice(colliders()) for _ in range(5)]
    walker = GrammarWalker(ch, names)
    decls = [d for d in WALKED_DECLS if d in walker.rules]
    extra = [walker.walk("start" if ch.chance(0.1) else ch.choice(decls), budget=ch.randint(3, 14))
             for _ in range(ch.randint(1, 4))]
    extra = [d[4:] if d.startswith("new ") and not ch.chance(0.1) else d for d in extra]
    lines = base.splitlines()
    for decl in extra:
        lines.insert(ch.randint(1, len(lines)), decl)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- mutations
TOKEN = re.compile(r'"[^"\n]*"|[A-Za-z_][A-Za-z0-9_\']*|[0-9]+|==|!=|<=|>=|\+=|-=|--|\S')


def bundled_sources() -> dict[str, str]:
    from dsl.load import bundled_dir, bundled_names

    out = {}
    for n in bundled_names():
        with open(os.path.join(bundled_dir(), n + ".game"), encoding="utf-8") as f:
            out[n] = f.read()
    return out


def mutate_text(ch: Chooser, text: str, words: list[str], rounds: int | None = None) -> str:
    """A few random edits: lines deleted, duplicated, swapped or moved; tokens replaced by
    other tokens (of the text, of the grammar, colliders, numbers); hostile strings inserted."""
    n = rounds if rounds is not None else ch.weighted([(4, 1), (3, 2), (2, 3), (1, 6)])
    for _ in range(n):
        lines = text.split("\n")
        op = ch.weighted([(2, "delete"), (1, "duplicate"), (1, "swap"), (1, "indent"), (5, "token"),
                          (2, "hostile"), (1, "number"), (0.5, "bytes"), (0.3, "deep"), (0.3, "long"),
                          (0.3, "join"), (0.2, "bom")])
        i = ch.randint(0, max(0, len(lines) - 1))
        if op == "delete" and lines:
            del lines[i]
        elif op == "duplicate" and lines:
            lines.insert(ch.randint(0, len(lines)), lines[i])
        elif op == "swap" and len(lines) > 1:
            j = ch.randint(0, len(lines) - 1)
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "indent" and lines:
            lines[i] = lines[i].lstrip() if lines[i][:1].isspace() else ch.choice(["  ", "\t", " "]) + lines[i]
        elif op == "join" and len(lines) > 1 and i + 1 < len(lines):
            lines[i:i + 2] = [lines[i] + ch.choice([" ", ", ", " then ", " and "]) + lines[i + 1].strip()]
        elif op == "bom":
            text = "\ufeff" + text
            continue
        elif op == "bytes":
            text = _byte_damage(ch, text)
            continue
        else:
            spans = [m.span() for m in TOKEN.finditer(text)]
            if not spans:
                text += ch.choice(words)
                continue
            a, b = ch.choice(spans)
            tok = text[a:b]
            if op == "token":
                new = ch.weighted([(3, "word"), (2, "same"), (2, "collider"), (1, "numbers")])
                if new == "word":
                    rep = ch.choice(words)
                elif new == "same":
                    rep = text[slice(*ch.choice(spans))]
                elif new == "collider":
                    rep = ch.choice(colliders())
                else:
                    rep = ch.choice(NUMBERS)
            elif op == "number":
                nums = [s for s in spans if text[s[0]:s[1]].isdigit()]
                if nums:
                    a, b = ch.choice(nums)
                rep = ch.choice(NUMBERS)
            elif op == "deep":
                k = ch.choice([59, 60, 61, 100, 1000, 5000])
                rep = ch.choice(["(" * k + tok + ")" * k, " + ".join([tok] * k), "not " * k + tok,
                                 "-" * k + tok, "adjacent(" * k + tok + ")" * k])
            elif op == "long":
                rep = tok + ch.choice(["x", "é", "_", "9"]) * ch.choice([100, 1000, 70_000])
            else:  # hostile: inside or around the token
                h = ch.choice(hostile_strings())
                rep = ch.choice([h + tok, tok + h, h, tok[:1] + h + tok[1:]])
            text = text[:a] + rep + text[b:]
            continue
        text = "\n".join(lines)
    return text


def _byte_damage(ch: Chooser, text: str) -> str:
    """Damage at the byte level, decoded back leniently (bad UTF-8 is tried as bytes elsewhere)."""
    data = bytearray(text.encode("utf-8", "surrogatepass"))
    if not data:
        return text
    for _ in range(ch.randint(1, 4)):
        i = ch.randint(0, len(data) - 1)
        data[i] = ch.choice([0x80, 0xC3, 0xFF, 0x0B, 0x0C, 0x1B, 0x7F, 0x20, ord("\\"), ord('"'), data[i] ^ 0x20])
    return data.decode("utf-8", "surrogateescape")


def mutate_bundled(ch: Chooser, sources: dict[str, str]) -> tuple[str, str]:
    """(name of the bundled ruleset, its damaged text)."""
    heavy = ("whistling-captures", "tricouleur")  # big boards: slow to play, so fewer of them
    name = ch.weighted([(0.3 if n in heavy else 1.0, n) for n in sorted(sources)])
    text = sources[name]
    words = list(grammar_words()) + re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)
    if ch.chance(0.05) and "variant of" in text:
        text = text.replace(re.search(r'variant of "([^"]+)"', text).group(1), "fuzz")  # a loop
    return name, mutate_text(ch, text, words)


# ---------------------------------------------------------------- variants
DECL_KEY = re.compile(r"^(new\s+)?(region|piece|var|ply|end|relation|goal)\s+([A-Za-z_][A-Za-z0-9_]*)")


def generate_variant(ch: Chooser, sources: dict[str, str]) -> dict[str, str]:
    """Variant files over a bundled ruleset (sometimes a variant of a variant, or a loop):
    declarations of the base replaced (by damaged copies), dropped (right keys and near
    misses), added with `new` (generated declarations, now and then a key the base has)."""
    from dsl.parse import split_declarations

    base = ch.choice(sorted(sources))
    decls = [text for _, text in split_declarations(sources[base])
             if not text.lstrip().startswith(("variant", "#"))]
    words = list(grammar_words()) + re.findall(r"[A-Za-z_][A-Za-z0-9_]*", sources[base])
    files: dict[str, str] = {}
    depth = ch.weighted([(6, 1), (2, 2), (0.5, 3)])
    parent = base
    for level in range(depth):
        name = f"v{level}.game"
        lines = [f'variant of "{parent if ch.chance(0.9) else parent + ".game"}"' if not ch.chance(0.03) else
                 f'variant of "{ch.choice([name, name[:-5], "v0", "/etc/passwd", "../" + name, "", "nope"])}"']
        if ch.chance(0.4):
            lines.append(f'game "{base} variant {level}"')
        for _ in range(ch.randint(1, 5)):
            op = ch.weighted([(3, "replace"), (2, "drop"), (2, "new"), (0.5, "new-existing"), (0.5, "twice")])
            d = ch.choice(decls) if decls else 'game "x"'
            m = DECL_KEY.match(d)
            if op == "replace":
                lines.append(mutate_text(ch, d, words, rounds=ch.randint(0, 2)))
            elif op == "drop":
                if m and not ch.chance(0.1):
                    key = m.group(3) if not ch.chance(0.15) else m.group(3) + ch.choice(["x", "_", "1"])
                    lines.append(f"drop {m.group(2)} {key}")
                else:
                    lines.append(ch.choice(["drop compulsory capture", "drop compulsory maximum capture",
                                            "drop after each ply", "drop first turn", "drop setup board",
                                            "drop game", "drop board", "drop players", "drop turn",
                                            "drop link b3 -- b5", "drop remove a4, m4", "drop remove m4, a4",
                                            f"drop setup {ch.choice(words)}",
                                            f"drop setup {ch.choice(words)} of {ch.choice(words)}"]))
            elif op == "new":
                gen = RulesetGenerator(ch)
                extra = gen.generate().split("\n")
                picks = [l for l in extra if l.startswith(("ply", "end", "var", "region", "relation"))]
                if picks:
                    lines.append("new " + ch.choice(picks))
                else:
                    lines.append("new first turn: any")
            elif op == "new-existing":
                lines.append("new " + d)
            else:
                lines += [d, d] if ch.chance(0.5) else [d, f"drop {m.group(2)} {m.group(3)}" if m else d]
        files[name] = "\n".join(lines) + "\n"
        parent = name[:-5]
    files["fuzz.game"] = files.pop(f"v{depth - 1}.game")
    if depth > 1:  # the last level is the file checked; the levels below are its bases
        files["fuzz.game"] = files["fuzz.game"].replace(f'"v{depth - 2}', f'"v{depth - 2}', 1)
    return files
