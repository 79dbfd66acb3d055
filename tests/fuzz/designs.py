"""Small games a designer might write: the `solver` category's rulesets (and half the
`native` category's).

`ruleset-gen` covers every construct but its games mostly end at once. These are built
from the parts the bundled games are made of, so that they are played and solved for
real: a board of at most about a dozen cells (removed cells, links, a small hexagon), two
players with men (now and then kings to promote to, a neutral ball, a reserve, dominoes,
discs on tiles, goals off the board), set up in two armies, scattered or not at all; one
to three plies (steps, slides, walks, pushes, leaps, chained leaps, moves anywhere,
placements, take-offs; captures by landing or by `remove`; `where` conditions, on the
previous ply too; counters); now and then a turn of phases (a first turn of its own), a
pass, compulsory capture, a no-capture counter or another turn for the mover; and end
rules (lines, reaching the far side or a goal, wiping out, bearing off, a full board,
stalemate, misère).
"""

from __future__ import annotations

import functools
import os
import re

from .chooser import Chooser
from .rulesets import LETTERS, cell_names_hexagon


class DesignGenerator:
    """One small two-player game, as text."""

    def __init__(self, ch: Chooser):
        self.ch = ch
        self.lines: list[str] = []
        self.plies: list[str] = []
        self.captures = False
        self.takes = False
        self.men = 0  # each player's at the start

    def generate(self) -> str:
        L, ch = self.lines, self.ch
        L.append('game "design"')
        self.board()
        L.append("players White, Black")
        self.kings = ch.chance(0.2)
        self.ball = ch.chance(0.12)
        self.mode = ch.weighted([(3, "armies"), (2, "scatter"), (2, "empty")])
        reserve = f", reserve {ch.randint(2, 4)}" if self.mode == "empty" and ch.chance(0.6) else ""
        L.append(f"piece man: owner each{reserve}, symbol X/O")
        if self.kings:
            L.append("piece king: owner each, symbol K/k")
        if self.ball:
            L.append('piece ball: neutral, symbol "*"')
        self.extras()
        L.append(f"region far: {self.last_row} / {self.first_row}")
        L.append("direction forward: " + ("n / s" if self.square else "ne / sw"))
        self.setup()
        self.counter = ch.chance(0.2)
        if self.counter:
            L.append(f"var caps per player = 0 in 0..{self.cells_n + 2}")
        for k in range(ch.weighted([(2, 1), (3, 2), (1, 3)])):
            self.ply(first=k == 0)
        if self.ball:
            self.add_ply("kick", "move ball step onto empty where count(own man & adjacent(from)) >= 1")
        self.extra_plies()
        self.turn()
        if self.captures and ch.chance(0.2):
            L.append("compulsory " + ("maximum " if ch.chance(0.3) else "") + "capture")
        if ch.chance(0.15):
            calm = ch.randint(1, 2) * 2
            L.append(f"var quiet = 0 in 0..{calm}")
            L.append("after each ply: quiet = 0 when captured > 0, quiet += 1 when captured == 0")
            L.append(f"end calm: draw if quiet >= {calm}")
        self.ends()
        return "\n".join(L) + "\n"

    # ------------------------------------------------------------ board and setup
    def board(self) -> None:
        ch, L = self.ch, self.lines
        self.square = not ch.chance(0.15)
        if self.square:
            w, h = ch.choice([(3, 3), (3, 2), (2, 3), (4, 3), (3, 4), (4, 2), (2, 4), (4, 4), (5, 2), (2, 5)])
            diag = ch.chance(0.4)
            L.append(f"board square {w} x {h}" + (" with diagonals" if diag else ""))
            self.cells = [f"{LETTERS[x]}{y + 1}" for y in range(h) for x in range(w)]
            self.first_row, self.last_row = "rank1", f"rank{h}"
            self.line_n = min(3, max(w, h))
        else:
            L.append("board hexagon 2")
            self.cells = cell_names_hexagon(2)
            self.first_row, self.last_row = "row3", "row1"
            self.line_n = 3
        if ch.chance(0.2):
            gone = ch.choice(self.cells)
            L.append(f"remove {gone}")
            self.cells = [c for c in self.cells if c != gone]
        if ch.chance(0.15) and len(self.cells) >= 2:
            a, b = ch.choice(self.cells), ch.choice(self.cells)
            if a != b:
                L.append(f"link {a} -- {b}")
        self.cells_n = len(self.cells)

    def setup(self) -> None:
        ch, L = self.ch, self.lines
        cells = ch.shuffled(self.cells)
        if self.mode == "armies":
            k = ch.randint(1, 3)
            first = [c for c in self.cells if c.endswith("1")][:k] if self.square else cells[:k]
            last = [c for c in reversed(self.cells) if c not in first][:k]
            L.append(f"setup man of White: {', '.join(first)}")
            L.append(f"setup man of Black: {', '.join(last)}")
            taken = first + last
            self.men = min(len(first), len(last))
        elif self.mode == "scatter":
            k = ch.randint(1, 3)
            L.append(f"setup man of White: {', '.join(cells[:k])}")
            L.append(f"setup man of Black: {', '.join(cells[k:2 * k])}")
            taken = cells[:2 * k]
            self.men = k
        else:
            taken = []
        if self.ball:
            free = [c for c in cells if c not in taken]
            if free:
                L.append(f"setup ball: {free[0]}")
            else:
                self.ball = False

    # ------------------------------------------------------------ other kinds
    def extras(self) -> None:
        """Now and then dominoes placed whole, discs riding on tiles, or goals off the board."""
        ch, L = self.ch, self.lines
        self.domino = ch.chance(0.1)
        self.stack = ch.chance(0.1) and self.mode != "empty"
        self.goals = ch.chance(0.1) and self.square
        if self.domino:
            L.append("piece domino: owner each, size 2, symbol D/d")
        if self.stack:
            L.append("piece tile: neutral, symbol T")
            L.append(f"piece disc: owner each, on tile{', reserve 2' if ch.chance(0.5) else ''}, symbol Y/G")
        if self.goals:
            top = [c for c in self.cells if c[1:] == self.last_row[4:]]
            bottom = [c for c in self.cells if c[1:] == "1"]
            L.append(f"goal top: {', '.join(top)} by n")
            L.append(f"goal bottom: {', '.join(bottom)} by s")
            L.append("region aim: top / bottom")

    def extra_plies(self) -> None:
        ch = self.ch
        if self.domino:
            up = "n" if self.square else "ne"
            where = ch.choice(["", f" where aligned(here, {up})", " where count(adjacent(here) & own domino) == 0"])
            self.add_ply("lay", f"place own domino onto empty{where}")
        if self.stack:
            self.add_ply("drop", "place own disc onto tile - disc")
            if ch.chance(0.5):
                self.add_ply("shift", "move tile step onto empty")
            if ch.chance(0.5):
                self.add_ply("hop", "move own disc step onto tile - disc")
        if self.goals:
            self.add_ply("dash", "move own man step onto empty & aim[mover]")

    # ------------------------------------------------------------ plies
    def add_ply(self, name: str, text: str) -> None:
        name = f"{name}{len(self.plies)}"
        self.plies.append(name)
        self.lines.append(f"ply {name}: {text}")

    def ply(self, first: bool) -> None:
        ch = self.ch
        who = "own piece" if self.kings and not self.domino and ch.chance(0.4) else "own man"
        dirs = ch.choice(["", "", " forward", " orthogonal"] if self.square else ["", "", " forward"])
        foe = ch.choice(["opponent's man", "opponent's piece"])
        onto = "empty" if not ch.chance(0.35) else f"empty | {foe}"
        if onto != "empty" or self.mode == "empty" and ch.chance(0.3):
            self.captures = True
        then = self.effects(foe)
        kind = ch.weighted([(4, "step"), (2, "slide"), (1, "walk"), (2, "leap"), (1, "chain"),
                            (3, "place"), (1, "take"), (0.5, "push")])
        if kind in ("place", "take") and self.mode != "empty" and ch.chance(0.5):
            kind = "step"
        if self.mode == "empty" and first:
            kind = "place"  # else no piece ever stands on the board
        self.takes = self.takes or kind == "take"
        if kind == "step" and ch.chance(0.1):
            text = f"move {who} anywhere onto {onto}"
        elif kind == "step":
            text = f"move {who} step{dirs} onto {onto}"
        elif kind == "slide":
            up = f" up to {ch.randint(1, 2)}" if ch.chance(0.4) else ""
            text = f"move {who} slide{dirs}{up} onto {onto}"
        elif kind == "walk":
            text = f"move {who} walk up to {ch.choice(['2', 'count(own man)'])} onto empty"
        elif kind == "leap":
            self.captures = True
            text = f"move {who} leap{dirs} onto empty"
            then = [f"remove path & {foe}"] + then
        elif kind == "chain":
            self.captures = True
            text = f"move {who} leap chained{' to the end' if ch.chance(0.5) else ''} onto empty"
            then = [f"remove path & {foe}"] + then
        elif kind == "place":
            onto = ch.choice(["empty", "empty", "empty - far[opponent]", "empty & adjacent(own man)"])
            text = f"place own man onto {onto}"
        elif kind == "take":
            text = f"take own man onto {ch.choice(['far[mover]', 'far[opponent]'])}"
            then = []
        else:
            text = f"move {who} push {ch.randint(1, 2)}{dirs} onto empty"
            then = []
        if kind != "take" and ch.chance(0.25):
            text += " where " + ch.choice([
                "count(adjacent(here) & opponent's man) == 0",
                "count(adjacent(here) & own man) >= 1" if kind != "place" else "count(own man) <= 2",
                "count(opponent's man) >= 1",
                "not here in last_from" if kind != "place" else "not here in adjacent(last_to)",
                "not from in adjacent(last_to)" if kind != "place" else f"not last_ply({kind}{len(self.plies)})"])
        if then:
            text += " then " + ", ".join(then)
        self.add_ply(kind, text)

    def effects(self, foe: str) -> list[str]:
        out = []
        ch = self.ch
        if self.kings and ch.chance(0.5):
            out.append("promote here & far[mover] to king")
        if self.counter:
            out.append("caps[mover] += captured when caps[mover] < 2")  # (bounded: placements are not)
        if ch.chance(0.1):
            self.captures = True
            out.append(f"remove adjacent(here) & {foe}")
        return out

    def turn(self) -> None:
        ch, L = self.ch, self.lines
        if ch.chance(0.15):
            L.append("turn: any or pass")
        elif ch.chance(0.1) and len(self.plies) >= 2:
            L.append(f"turn: {self.plies[0]} then {self.plies[1]} when possible")
        elif ch.chance(0.1):
            L.append("turn: any then any")
            if ch.chance(0.5):
                L.append("first turn: any")

    # ------------------------------------------------------------ ends
    def ends(self) -> None:
        ch, L = self.ch, self.lines
        verb = "loses" if ch.chance(0.2) else "wins"
        options = [
            (3, f"mover {verb} if line({self.line_n}, own man, all, contiguous)"),
            (3, f"mover {verb} if count(own piece & far[mover]) > 0"),
            (1, "draw if count(empty) == 0"),
        ]
        if self.men:  # (not on an empty board: they would end the game at once)
            options.append((3, f"mover {verb} if count(opponent's piece) == 0"))
            options.append((1, f"White {verb} if count(Black's man) < {self.men}"))
            if self.takes:
                options.append((2, f"mover {verb} if count(own man) == 0"))
        if self.counter:
            options.append((3, f"mover {verb} if caps[mover] >= 2"))
        if self.ball:
            options.append((3, f"mover {verb} if ball in far[mover]"))
        if self.domino:
            options.append((2, f"mover {verb} if count(own domino) >= 2"))
        if self.stack:
            options.append((3, f"mover {verb} if line(3, own disc, all, contiguous)"))
        if self.goals:
            options.append((4, f"mover {verb} if count(own man & aim[mover]) > 0"))
        for k, text in enumerate(ch.subset([t for _, t in options], 0.3, at_least=1)):
            L.append(f"end e{k}: {text}")
        if ch.chance(0.1) and self.plies:
            L.append(f"end again: then turn to mover if last_ply({self.plies[-1]}) and count(own piece) <= 2")
        if ch.chance(0.4):
            L.append("end stuck: " + ch.choice(["draw", "next wins", "then turn to mover"]) + " if no legal ply")


# ---------------------------------------------------------------- tweaks of bundled games
@functools.cache
def bundled_and_library() -> dict[str, str]:
    """The seed games, their variants and the library's games, by name: their texts."""
    from dsl.load import bundled_dir, bundled_names, library_dir, library_names

    out = {}
    for folder, names in ((bundled_dir(), bundled_names()), (library_dir(), library_names())):
        for n in names:
            with open(os.path.join(folder, n + ".game"), encoding="utf-8") as f:
                out[n] = f.read()
    return out


_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")
_WHERE = re.compile(r" where .*?(?= then |$)")
_OUTCOMES = [("wins", "loses"), ("loses", "wins"), ("win ", "lose "), ("lose ", "win "),
             ("draw if", "mover wins if")]


def tweak_bundled(ch: Chooser, sources: dict[str, str]) -> tuple[str, str]:
    """(name, text): a bundled or library game with one edit a designer might make: a
    number one more or less, an outcome turned round, a `where` dropped, an end rule or
    the turn dropped, a capture by landing allowed. It may not check."""
    name = ch.choice(sorted(sources))
    for _ in range(8):  # until an edit applies
        text = _tweak(ch, sources[name])
        if text != sources[name]:
            break
    return name, text


def _tweak(ch: Chooser, text: str) -> str:
    lines = text.split("\n")
    code = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")]
    kind = ch.weighted([(4, "number"), (2, "outcome"), (2, "where"), (1, "end"), (1, "turn"), (1, "capture")])
    if kind == "number":
        spots = [(i, m) for i in code for m in _NUMBER.finditer(lines[i].split("#")[0])]
        if spots:
            i, m = ch.choice(spots)
            n = max(0, int(m.group()) + ch.choice([-1, 1, 2]))
            lines[i] = lines[i][:m.start()] + str(n) + lines[i][m.end():]
    elif kind == "outcome":
        spots = [i for i in code if lines[i].startswith("end ")]
        if spots:
            i = ch.choice(spots)
            for old, new in _OUTCOMES:
                if old in lines[i]:
                    lines[i] = lines[i].replace(old, new, 1)
                    break
    elif kind == "where":
        spots = [i for i in code if lines[i].startswith("ply ") and _WHERE.search(lines[i])]
        if spots:
            i = ch.choice(spots)
            lines[i] = _WHERE.sub("", lines[i], count=1)
    elif kind == "end":
        spots = [i for i in code if lines[i].startswith("end ")
                 and (i + 1 == len(lines) or not lines[i + 1].startswith(" "))]
        if spots:
            del lines[ch.choice(spots)]
    elif kind == "turn":
        spots = [i for i in code if lines[i].startswith("turn:")]
        if spots:
            lines[ch.choice(spots)] = ch.choice(["", "turn: any then any", "turn: any or pass"])
    else:
        spots = [i for i in code if lines[i].startswith("ply ") and "onto empty" in lines[i]]
        if spots:
            i = ch.choice(spots)
            lines[i] = lines[i].replace("onto empty", "onto empty | opponent's piece", 1)
    return "\n".join(lines)


_KEYED = re.compile(r"^(ply|end|region|piece|var|relation|goal|direction|track)\s+([A-Za-z_]\w*)")


def as_variant(name: str, base: str, edited: str) -> str | None:
    """The variant file of `name` that makes `edited` of its text `base` (one declaration
    changed or one keyed declaration dropped), or None where no variant says it (two
    declarations changed, the turn dropped)."""
    old, new = base.split("\n"), edited.split("\n")
    changed = [i for i, (a, b) in enumerate(zip(old, new)) if a != b]
    if len(old) == len(new) + 1:  # a line dropped: an end rule, whole
        i = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), len(new))
        m = _KEYED.match(old[i])
        return f'variant of "{name}"\ndrop {m.group(1)} {m.group(2)}\n' if m else None
    if len(old) != len(new) or len(changed) != 1 or not new[changed[0]].strip():
        return None
    i = changed[0]
    start = i
    while start > 0 and (new[start][:1] in (" ", "\t") or not new[start].strip()):
        start -= 1  # back to the declaration's first line
    end = i + 1
    while end < len(new) and new[end][:1] in (" ", "\t") and new[end].strip():
        end += 1
    if new[start].lstrip().startswith("#") or new[start].startswith("variant of"):
        return None
    return f'variant of "{name}"\n' + "\n".join(new[start:end]) + "\n"
