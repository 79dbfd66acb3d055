"""The inputs of each category: a `Case` made from a `Chooser` (and the shared `Context`).

A case is plain data (files and parameters), so it can be written to a folder and
replayed: see harness.replay.
"""

from __future__ import annotations

import functools
import os
import re

from .case import Case
from .chooser import Chooser, RandomChooser
from .lsp_cases import case_lsp
from .names import CANARY_ATTR, NUMBERS, canary_path, canary_payloads, colliders, hostile_strings
from .designs import DesignGenerator
from .native_cases import case_native
from .solver_cases import case_solver
from .rulesets import (bundled_sources, generate_ruleset, generate_variant, generate_walk,
                       grammar_words, mutate_bundled, mutate_text)
from .serve_cases import case_serve

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIO_DIR = os.path.join(REPO, "tests", "scenarios")


# A small game for solution files that has variables and a reserve (the codec's other slots).
TINY_GAME = """game "Tiny"
board square 3 x 2
players A, B
piece m: owner each, reserve 2, symbol A/B
var score per player = 0
ply put: place own m onto empty then score[mover] += count(here & rank1)
ply hop: move own m step orthogonal onto empty
end won: mover wins if score[mover] >= 2
end full: draw if count(empty) == 0
end stuck: draw if no legal ply
"""


class Context:
    """What the generators share, computed once before the workers fork: the bundled
    sources and compiled games, reachable positions, saved solutions."""

    @functools.cached_property
    def sources(self) -> dict[str, str]:
        return bundled_sources()

    @functools.cached_property
    def games(self) -> dict:
        from interpreter import load_game

        out = {}
        for name in self.sources:
            try:
                out[name] = load_game(name)
            except Exception:  # noqa: BLE001 - reported by the ruleset categories
                pass
        return out

    @functools.cached_property
    def scenarios(self) -> dict[str, str]:
        out = {}
        for f in sorted(os.listdir(SCENARIO_DIR)):
            with open(os.path.join(SCENARIO_DIR, f), encoding="utf-8") as fh:
                out[f] = fh.read()
        return out

    @functools.cached_property
    def solutions(self) -> dict[str, bytes]:
        """Solution files of tiny games, made with the Python API: {ruleset key: bytes}."""
        import tempfile

        from dsl.load import load
        from interpreter import Game, load_game
        from interpreter.search.solver import solve

        out = {}
        with tempfile.TemporaryDirectory() as d:
            tiny = os.path.join(d, "tiny.game")
            with open(tiny, "w", encoding="utf-8") as f:
                f.write(TINY_GAME)
            for key, make, sym in (("tic-tac-toe", lambda: load_game("tic-tac-toe"), False),
                                   ("tic-tac-toe+sym", lambda: load_game("tic-tac-toe"), True),
                                   ("tiny", lambda: Game(load(tiny)), False)):
                try:
                    game = make()
                    sol = solve(game, symmetry=sym, max_positions=50_000)
                    path = os.path.join(d, key + ".sol")
                    sol.save(path)
                    with open(path, "rb") as f:
                        out[key] = f.read()
                except Exception:  # noqa: BLE001 - the solution category reports it
                    pass
        return out

    def prewarm(self, categories) -> None:
        """Compute, before forking, what the categories will need (so each worker has it)."""
        from dsl.parse import grammar_parser

        grammar_parser()
        grammar_words()
        colliders()
        self.sources
        self.games
        if {"scenario", "cli"} & set(categories):
            self.scenarios
        if {"solution", "cli"} & set(categories):
            self.solutions


# ---------------------------------------------------------------- rulesets
def case_ruleset_gen(ch: Chooser, ctx: Context, index: int) -> Case:
    # a fifth of them small games played for real (most generated ones end at once)
    text = DesignGenerator(ch).generate() if ch.chance(0.2) else generate_ruleset(ch)
    return Case("ruleset-gen", {"fuzz.game": text}, {"file": "fuzz.game", "seed": index})


def case_ruleset_grammar(ch: Chooser, ctx: Context, index: int) -> Case:
    return Case("ruleset-grammar", {"fuzz.game": generate_walk(ch)}, {"file": "fuzz.game", "seed": index})


def case_ruleset_mutant(ch: Chooser, ctx: Context, index: int) -> Case:
    name, text = mutate_bundled(ch, ctx.sources)
    return Case("ruleset-mutant", {"fuzz.game": text}, {"file": "fuzz.game", "base": name, "seed": index})


def case_ruleset_variant(ch: Chooser, ctx: Context, index: int) -> Case:
    return Case("ruleset-variant", dict(generate_variant(ch, ctx.sources)), {"file": "fuzz.game", "seed": index})


COLLIDER_TEMPLATE = """game "colliders"
board square 3 x 3
goal {goal}: a3, b3, c3 by n
players {p1}, {p2}
region {region}: a1, b1 | {goal}
piece {k1}: owner each, symbol X/O
piece {k2}: neutral, symbol N
relation {rel}: {k1} > {k2}
var {v} per player = 0
var {g} = 0
setup {k1} of {p1}: a1
setup {k1} of {p2}: c3
setup {k2}: b2
ply {ply1}: move own {k1} step onto empty | {k2} where count({rel}(from)) >= 0
  then {v}[mover] += 1, {g} = captured
ply {ply2}: move {k2} slide up to {g} + 1 onto empty | {goal} where not last_ply({ply1}) or {v}[{p1}] > 0
  then remove adjacent(path) & opponent's {k1}
turn: {ply1} or {ply2} then any when possible
after each ply: {g} += 0 when captured > 0
end {end1}: mover wins if {k2} in {goal} or {v}[{p1}] >= 20
end {end2}: draw if count({region} & {k1}) == 3 and no legal ply
"""
COLLIDER_SLOTS = ["goal", "p1", "p2", "region", "k1", "k2", "rel", "v", "g", "ply1", "ply2", "end1", "end2"]
SAFE_NAMES = {"goal": "goalz", "p1": "Southz", "p2": "Northz", "region": "zonez", "k1": "manz",
              "k2": "ballz", "rel": "relz", "v": "scorez", "g": "countz", "ply1": "hopz", "ply2": "kickz",
              "end1": "wonz", "end2": "stuckz"}


@functools.lru_cache(maxsize=1)
def collider_pools() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(plain, risky): the risky colliders are words of the grammar, directions and names
    shaped like cells, which most slots refuse; each is tried in every slot alone, while the
    plain ones go round the rotation together."""
    words = set(grammar_words())
    shaped = re.compile(r"[a-zA-Z][0-9]+|[nesw]|n[ew]|s[ew]|orthogonal|diagonal|all|link|rank\d+|row\d+"
                        r"|file_[a-zA-Z]")
    pool = colliders()
    risky = tuple(n for n in pool if n in words or shaped.fullmatch(n))
    return tuple(n for n in pool if n not in risky), risky


def collider_count() -> int:
    """Cases of one full round: the rotation of the plain colliders, then each risky one."""
    plain, risky = collider_pools()
    return len(plain) + len(risky)


def collider_name(index: int, slot: str) -> str:
    plain, risky = collider_pools()
    k = COLLIDER_SLOTS.index(slot)
    return plain[(index + 37 * k) % len(plain)] if index < len(plain) else risky[index - len(plain)]


def collider_ruleset(index: int, only: str | None = None) -> str:
    """Case `index` of a round. In the rotation, slot k gets plain collider (index + 37 k)
    mod N, so that over N rulesets every collider stands in every name slot; past it, one
    risky collider. `only`: that slot alone gets its collider, the others safe names."""
    names = {slot: collider_name(index, slot) if only in (None, slot) else SAFE_NAMES[slot]
             for slot in COLLIDER_SLOTS}
    return COLLIDER_TEMPLATE.format(**names)


def case_colliders(ch: Chooser, ctx: Context, index: int) -> Case:
    i = index % collider_count()
    risky = i >= len(collider_pools()[0])
    return Case("colliders", {"fuzz.game": collider_ruleset(i, only="goal" if risky else None)},
                {"file": "fuzz.game", "rotation": i, "risky": risky, "seed": 0})


# ---------------------------------------------------------------- positions and plies
def reachable(ch: Chooser, game, max_plies: int = 30):
    """A position reached by random plies from the start (choices from `ch`)."""
    s = game.initial_state()
    for _ in range(ch.randint(0, max_plies)):
        acts = game.legal_actions(s)
        if not acts:
            break
        s = game.apply(s, ch.choice(acts))
    return s


def mutate_position(ch: Chooser, text: str, game) -> str:
    """Damage a position's text: characters, rows, fields, values."""
    symbols = sorted({t.symbol for t in game.ruleset.types}) + ["."]
    fields = ["ply", "turn", "result", "previous", "pieces.B", "pieces." + symbols[0], "reserve.disc",
              "reserve." + game.ruleset.types[0].kind] + [v.name for v in game.ruleset.vars]
    values = ["", "0", "1", "2", "-1", "1,", ",1", "1,2", "1,2,3", "0,0", "first", "draw", "pass",
              "x", "²", "1,²", "١", "０", "１,２", "1_000", "+1", "-0", " ", "1e3", "0x10", "½", "Ⅻ",
              "9" * 40, "-" + "9" * 40, "slide:a1-a2", "place:-b2", "a1+a2,b1+b2", "a1+a1", "zz9"] + \
        game.players + NUMBERS
    for _ in range(ch.weighted([(4, 1), (3, 2), (2, 3), (1, 6)])):
        op = ch.weighted([(3, "char"), (2, "field"), (1, "row"), (1, "player"), (1, "hostile"), (1, "dropfield"),
                          (0.5, "split"), (0.3, "long"), (4, "swap")])
        parts = text.split(" ")
        if op == "swap" and parts[0]:  # a board character for another symbol: still a position
            i = ch.randint(0, len(parts[0]) - 1)
            if parts[0][i] != "/":
                parts[0] = parts[0][:i] + ch.choice(symbols) + parts[0][i + 1:]
            text = " ".join(parts)
        elif op == "char" and text:
            i = ch.randint(0, len(text) - 1)
            rep = ch.choice(symbols + ["/", " ", "", "=", ",", "+", "-", "x", "9", "\t", "\n"])
            text = text[:i] + rep + text[i + 1:] if ch.chance(0.6) else text[:i] + rep + text[i:]
        elif op == "field":
            parts.append(f"{ch.choice(fields)}={ch.choice(values)}")
            text = " ".join(parts)
        elif op == "dropfield" and len(parts) > 1:
            del parts[ch.randint(0, len(parts) - 1)]
            text = " ".join(parts)
        elif op == "row":
            rows = parts[0].split("/")
            k = ch.randint(0, len(rows) - 1)
            r = ch.weighted([(1, "dup"), (1, "del"), (1, "grow"), (1, "shrink")])
            if r == "dup":
                rows.insert(k, rows[k])
            elif r == "del" and len(rows) > 1:
                del rows[k]
            elif r == "grow":
                rows[k] += ch.choice(symbols)
            else:
                rows[k] = rows[k][:-1]
            parts[0] = "/".join(rows)
            text = " ".join(parts)
        elif op == "player" and len(parts) > 1:
            parts[1] = ch.choice(game.players + ["", "nobody", game.players[0].lower(), "mover", "0"])
            text = " ".join(parts)
        elif op == "split":
            text = text.replace(" ", ch.choice(["  ", "\t", "\u00a0", "\n", ""]), 1)
        elif op == "long":
            text += " " + ch.choice(fields) + "=" + "1," * ch.choice([100, 10_000])
        else:
            i = ch.randint(0, len(text))
            text = text[:i] + ch.choice(hostile_strings()) + text[i:]
    return text


def shake_position(ch: Chooser, text: str, game) -> str:
    """Edits that keep a position's text well formed: board characters swapped for other
    symbols, small values, the other player to move. Mostly read, then played from."""
    symbols = sorted({t.symbol for t in game.ruleset.types}) + ["."]
    parts = text.split(" ")
    for _ in range(ch.randint(1, 4)):
        op = ch.weighted([(4, "swap"), (1, "value"), (1, "player")])
        if op == "swap" and parts[0]:
            i = ch.randint(0, len(parts[0]) - 1)
            if parts[0][i] != "/":
                parts[0] = parts[0][:i] + ch.choice(symbols) + parts[0][i + 1:]
        elif op == "value" and len(parts) > 2:
            k = ch.randint(2, len(parts) - 1)
            key, eq, value = parts[k].partition("=")
            if eq and key not in ("previous", "turn", "result") and not key.startswith("pieces."):
                parts[k] = key + "=" + ",".join(str(ch.randint(-2, 5)) for _ in value.split(","))
        elif len(parts) > 1:
            parts[1] = ch.choice(game.players)
    return " ".join(parts)


def random_text(ch: Chooser) -> str:
    pool = ["", " ", ".", "/", "a1", "a1-a2", "pass", "x", "-", "+", "@", "a1xa2", "=", "result=draw"] + \
        hostile_strings() + NUMBERS
    return "".join(ch.choice(pool) for _ in range(ch.randint(0, 6)))


def case_position(ch: Chooser, ctx: Context, index: int) -> Case:
    name = ch.choice(sorted(ctx.games))
    game = ctx.games[name]
    s = reachable(ch, game)
    base = game.state_to_text(s)
    text = mutate_position(ch, base, game) if not ch.chance(0.1) else random_text(ch)
    return Case("position", {}, {"ruleset": name, "base": base, "text": text, "seed": index})


def mutate_ply(ch: Chooser, text: str, game) -> str:
    cells = game.board.names
    for _ in range(ch.weighted([(3, 1), (2, 2), (1, 4)])):
        op = ch.weighted([(3, "cell"), (1, "sign"), (1, "append"), (1, "hostile"), (1, "symbol"), (1, "trim"),
                          (0.5, "long")])
        tokens = re.split(r"([-x+@])", text)
        if op == "cell":
            idx = [i for i, t in enumerate(tokens) if t in cells] or [0]
            i = ch.choice(idx)
            tokens[i] = ch.choice(cells + ["z9", "a0", "A1", "a01", "", "pass", "a1 ", "０", "a²"])
            text = "".join(tokens)
        elif op == "sign":
            text = text.replace(ch.choice(["-", "x", "+"]), ch.choice(["-", "x", "+", "X", "--", "", "—"]), 1)
        elif op == "append":
            text += ch.choice(["-", "x", "+", "@"]) + ch.choice(cells)
        elif op == "symbol":
            text = ch.choice([t.symbol for t in game.ruleset.types] + ["?", ""]) + "@" + text
        elif op == "trim":
            text = text[: ch.randint(0, len(text))]
        elif op == "long":
            text = ("-".join(ch.choice(cells) for _ in range(ch.choice([50, 2000]))))
        else:
            i = ch.randint(0, len(text))
            text = text[:i] + ch.choice(hostile_strings()) + text[i:]
    return text


def case_ply(ch: Chooser, ctx: Context, index: int) -> Case:
    name = ch.choice(sorted(ctx.games))
    game = ctx.games[name]
    s = reachable(ch, game)
    acts = game.legal_actions(s)
    if acts and not ch.chance(0.1):
        text = game.action_to_text(s, ch.choice(acts))
        if ch.chance(0.85):
            text = mutate_ply(ch, text, game)
    else:
        text = random_text(ch) if ch.chance(0.5) else "pass"
    return Case("ply", {}, {"ruleset": name, "state": game.state_to_text(s), "text": text, "seed": index})


# ---------------------------------------------------------------- scenario files
YAML_HOSTILE = [
    "!!python/object/apply:os.system ['touch {canary}']",
    "!!python/object/apply:builtins.setattr [!!python/module:builtins , " + CANARY_ATTR + ", 1]",
    "!!python/name:os.system", "!!binary aGVsbG8=", "!!set {{a: null}}", "!!omap [a: 1]", "!!timestamp 2001-12-14",
    "&a [*a]", "*undefined", "<<: *nothing", "{{<<: [1, 2]}}", "? [a, b]\n  : c", "!custom x", "%YAML 1.1",
    "---\n---", "...", "- - - - - -", "{{", "[", "'", '"\\x"', "\t", "0x10", "1e400", ".nan", "-.inf", "~", "null",
    "yes", "No", "on", "0o17", "1_000", "12:30:00", "2024-01-01", "=", "'a\n b'", "|\n  a\n  b", ">-\n  x",
]


def yaml_bomb(ch: Chooser) -> str:
    k = ch.choice([5, 9, 12])
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, k):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 10)}]")
    lines.append("scenarios:\n  - name: bomb\n    ruleset: tic-tac-toe\n    expect: {legal: *a%d}" % (k - 1))
    return "\n".join(lines) + "\n"


def mutate_scenario(ch: Chooser, text: str) -> str:
    words = ["name", "ruleset", "start", "setup", "plies", "expect", "legal", "legal_includes", "legal_excludes",
             "outcome", "winner", "to_move", "ply", "state", "vars", "perft", "pieces", "description",
             "scenarios", "all other cells", "[]", "{}", "-", ":", "[", "]", "{", "}", ",", "&x", "*x", "<<",
             "null", "~", "true", "0", "-1", "1000000000000", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]",
             "[1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]",
             "three-musketeers", "tic-tac-toe", "3-spot-long-white", "../../etc/passwd", "/dev/zero",
             "/dev/stdin", "fuzz.yaml", ".", ""] + [y.format(canary=canary_path()) for y in YAML_HOSTILE] + \
        [w for w in grammar_words() if w.isalpha()][:20]
    if ch.chance(0.03):
        return yaml_bomb(ch)
    if ch.chance(0.03):
        depth = ch.choice([60, 1000, 100_000])
        return "scenarios: " + "[" * depth + "]" * depth + "\n"
    return mutate_text(ch, text, words)


def _yaml_values(ch: Chooser) -> list:
    return [None, True, False, 0, 1, -1, 2, 10 ** 30, 1.5, float("inf"), "", " ", "x", "setup", "ongoing",
            "draw", "all other cells", "a1", "a1-a2", "pass", "z99", "c1+c2-a3+b3", [], {}, [1, 2], ["a1", "a1"],
            {"a": 1}, ["x"] * 40, list(range(12)), [1] * 30, {"Blue": 1}, {"pieces": {}}, {"to_move": "X"},
            "ooooM/ooooo/ooMoo/ooooo/Moooo Musketeers", ".../RWB/RWB Blue ply=1 score=0,0",
            ".../RWB/RWB Blue ply=9 score=1,²", "Musketeers win", "Nobody wins",
            ch.choice(hostile_strings()), ch.choice(canary_payloads())]


def mutate_scenario_structure(ch: Chooser, text: str) -> str:
    """Valid YAML of the wrong shape: the file read, a value somewhere replaced by another
    of any type, a key dropped or added, a scenario duplicated; written back."""
    import yaml

    data = yaml.safe_load(text)
    for _ in range(ch.randint(1, 4)):
        slots = []  # (container, key)

        def walk(node):
            if isinstance(node, dict):
                for k in list(node):
                    slots.append((node, k))
                    walk(node[k])
            elif isinstance(node, list):
                for i in range(len(node)):
                    slots.append((node, i))
                    walk(node[i])
        walk(data)
        if not slots:
            break
        container, key = ch.choice(slots)
        op = ch.weighted([(4, "value"), (1, "drop"), (1, "add"), (1, "dup")])
        if op == "value":
            container[key] = ch.choice(_yaml_values(ch))
        elif op == "drop":
            del container[key]
        elif op == "add" and isinstance(container, dict):
            container[ch.choice(["legal", "plies", "start", "expect", "perft", "vars", "bogus", "name",
                                 "ruleset", "to_move", "state", "winner", "outcome"])] = ch.choice(_yaml_values(ch))
        elif isinstance(container, list):
            container.insert(key, container[key])
    try:
        return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    except yaml.YAMLError:
        return text


def case_scenario(ch: Chooser, ctx: Context, index: int) -> Case:
    name = ch.choice([f for f in sorted(ctx.scenarios) if f.endswith(".yaml")])
    text = mutate_scenario(ch, ctx.scenarios[name]) if ch.chance(0.5) else \
        mutate_scenario_structure(ch, ctx.scenarios[name])
    files: dict[str, str | bytes] = {"fuzz.yaml": text}
    for f, t in ctx.scenarios.items():
        if f.endswith(".game"):  # a scenario's ruleset beside it
            files[f] = t
    argv = ["test", "fuzz.yaml"] + (["--json"] if ch.chance(0.3) else [])
    return Case("scenario", files, {"argv": argv, "base": name, "seed": index})


# ---------------------------------------------------------------- solution files
def damage_solution(ch: Chooser, data: bytes) -> bytes:
    """Flip, cut or extend the bytes, or rewrite the JSON header (keeping the fingerprint).

    A file sealed by a SHA-256 of its bytes (the last 32) is usually sealed again after the
    damage, as someone editing it on purpose would: so the checks past the checksum run too."""
    import hashlib

    sealed = len(data) > 44 and hashlib.sha256(data[:-32]).digest() == data[-32:]
    if not sealed:
        return _damage(ch, data)
    damaged = _damage(ch, data[:-32])
    if ch.chance(0.75):
        return damaged + hashlib.sha256(damaged).digest()
    return damaged + data[-32:]


def _damage(ch: Chooser, data: bytes) -> bytes:
    import json

    hlen = int.from_bytes(data[8:12], "little")
    header = json.loads(data[12:12 + hlen].decode("utf-8"))
    body = data[12 + hlen:]
    op = ch.weighted([(3, "header"), (2, "flip"), (1, "truncate"), (1, "extend"), (1, "hlen"), (0.5, "magic"),
                      (1, "values")])
    if op == "header":
        bad = [0, -1, 1, 2, 8, 255, 2 ** 31, 2 ** 64, -(2 ** 70), 1.5, "1", "", None, True, [], {}, [1], [[0]],
               [[1, 0]], [list(range(9))] * 3, [[99] * 9], {"a": 1}, "é" * 100, "\x00", float("1e308")]
        for _ in range(ch.randint(1, 3)):
            key = ch.choice(sorted(header) + ["extra", "format"])
            if ch.chance(0.15):
                header.pop(key, None)
            elif key == "codec" and isinstance(header.get("codec"), dict) and header["codec"] and ch.chance(0.6):
                sub = header["codec"]
                k2 = ch.choice(sorted(sub))
                v = sub[k2]
                if isinstance(v, list) and v and ch.chance(0.5):
                    v = list(v)
                    v[ch.randint(0, len(v) - 1)] = ch.choice(bad)
                    sub[k2] = v
                else:
                    sub[k2] = ch.choice(bad)
            elif key == "root":
                header["root"] = ch.choice(["", "x", ".../.../... X", "XXX/OOO/XXX O", "XXX/OOO/... O result=X",
                                            ".../.../... Q", ".../.../... X score=1,²"])
            elif key == "symmetries":
                header["symmetries"] = ch.choice([[], [[0]], [list(range(9)), [0] * 9], [list(range(9))] * 2,
                                                  [list(range(8, -1, -1)), list(range(9))], [[-1] * 9],
                                                  [list(range(9)), list(range(100))], "x", [None]])
            else:
                header[key] = ch.choice(bad)
        try:
            blob = json.dumps(header).encode("utf-8")
        except (ValueError, TypeError):
            blob = b"{}"
        if ch.chance(0.1):
            blob = blob[:ch.randint(0, len(blob))]
        return data[:8] + len(blob).to_bytes(4, "little") + blob + body
    raw = bytearray(data)
    if op == "flip":
        for _ in range(ch.randint(1, 8)):
            i = ch.randint(0, len(raw) - 1)
            raw[i] ^= 1 << ch.randint(0, 7)
        return bytes(raw)
    if op == "values":  # the value and remoteness bytes past the keys
        for _ in range(ch.randint(1, 8)):
            i = ch.randint(max(0, len(raw) - len(body) // 2), len(raw) - 1)
            raw[i] = ch.choice([0, 4, 255, 1, 2, 3])
        return bytes(raw)
    if op == "truncate":
        return bytes(raw[: ch.randint(0, len(raw) - 1)])
    if op == "extend":
        return bytes(raw) + bytes(ch.randint(0, 255) for _ in range(ch.choice([1, 4, 5, 9, 100])))
    if op == "hlen":
        v = ch.choice([0, 1, hlen - 1, hlen + 1, 2 ** 32 - 1, len(data), 2 ** 31])
        return data[:8] + v.to_bytes(4, "little") + data[12:]
    return ch.choice([b"RCSOLVE2", b"rcsolve1", b"", b"RCSOLVE"]) + data[8:]


def case_solution(ch: Chooser, ctx: Context, index: int) -> Case:
    keys = sorted(ctx.solutions)
    if not keys:
        return Case("solution", {}, {"ruleset": "tic-tac-toe", "missing": True})
    key = ch.choice(keys)
    data = damage_solution(ch, ctx.solutions[key]) if not ch.chance(0.05) else ctx.solutions[key]
    files: dict[str, str | bytes] = {"sol.bin": data}
    ruleset = "tic-tac-toe" if key.startswith("tic") else "tiny.game"
    if ruleset == "tiny.game":
        files["tiny.game"] = TINY_GAME
    positions = {"tic-tac-toe": [".../.../... X", "X../.../... O", "XO./X../... O", "XXX/OO./... O",
                                 "XO./.../... O"],
                 "tiny.game": [".../... A", "A../... B", "A.B/... A score=1,0", ".../... A reserve.m=0,0"]}
    position = ch.choice(positions[ruleset])
    return Case("solution", files, {"ruleset": ruleset, "position": position, "key": key, "seed": index,
                                    "player": ch.chance(0.3)})


# ---------------------------------------------------------------- the command line
def case_cli(ch: Chooser, ctx: Context, index: int) -> Case:
    files: dict[str, str | bytes] = {}
    games = sorted(ctx.sources)
    light = ["tic-tac-toe", "three-musketeers", "3-spot", "force-3", "3-a-side", "3-spot-misere"]
    pick = ch.weighted([(4, "bundled"), (2, "mutant"), (2, "generated"), (0.5, "missing"), (0.3, "dir"),
                        (0.3, "binary")])
    if pick == "bundled":
        target = ch.choice(light if ch.chance(0.8) else games)
    elif pick == "mutant":
        _, text = mutate_bundled(ch, ctx.sources)
        files["m.game"] = text
        target = "m.game"
    elif pick == "generated":
        files["g.game"] = generate_ruleset(ch)
        target = "g.game"
    elif pick == "missing":
        target = ch.choice(["nope.game", "nope", "", "-", "--", "three-musketeer", "../" * 20 + "etc/passwd",
                            "/dev/null", "x" * 5000, "\x1b[31m.game"])
    elif pick == "dir":
        target = "."
    else:
        files["b.game"] = bytes(ch.randint(0, 255) for _ in range(ch.randint(0, 64)))
        target = "b.game"
    position = None
    base_game = ctx.games.get(target) or ctx.games.get("tic-tac-toe")
    if base_game is not None and ch.chance(0.4):
        s = reachable(ch, base_game, 10)
        position = base_game.state_to_text(s)
        if ch.chance(0.6):
            position = mutate_position(ch, position, base_game)
    command = ch.weighted([(2, "check"), (2, "info"), (2, "perft"), (1.5, "random"), (1.5, "play"), (1, "solve"),
                           (1, "analyze"), (0.5, "test"), (0.3, "bogus")])
    argv = [command] if command != "bogus" else [ch.choice(["", "-h", "--version", "chek", "help", "-x"])]
    stdin = ""
    if command == "check":
        argv += [target] + ([target] if ch.chance(0.1) else [])
    elif command in ("info", "perft", "random", "play"):
        argv.append(target)
        if command == "perft":
            argv += ["--depth", ch.choice(["0", "1", "2", "3", "-1", "x", "", "1e2", "２", "99999999999999999999"])
                     if not ch.chance(0.02) else "2"]
            # a deep perft of a big game is long by design: bounded, it stops cleanly
            argv += ["--max-nodes", ch.choice(["20000", "1", "0", "x"])]
        if command == "random":
            argv += ["--games", ch.choice(["1", "3", "0", "-1", "x"]), "--max-plies",
                     ch.choice(["1", "50", "0", "-5", "y"]), "--seed", ch.choice(["0", "1", "-1", "z", "9" * 30])]
        if command == "play":
            argv += ["--players", ch.choice(["random,random", "human,random", "random,human", "human,human",
                                             "mcts:5,random", "alphabeta:1,random", "perfect,random",
                                             "perfect:nope.bin,random", "mcts:x,random", "alphabeta:0,random",
                                             "random", "random,random,random", ",", "", "mcts:0.01s,random",
                                             "mcts:-1,random", "alphabeta:abc,random"]),
                     "--max-plies", ch.choice(["5", "30", "0", "x"]), "--seed", ch.choice(["1", "2", "x"])]
            if "perfect,random" in argv:  # solving a big game first is long by design
                argv[1] = "tic-tac-toe"
            stdin = "\n".join(ch.choice(["?", "quit", "pass", "a1", "a1-a2", "b2", "", " ", "x" * 100,
                                         "\x1b[31m", "\x04", "é", "a1xa2", "c1+c2-a3+b3"] + hostile_strings()[:40])
                              for _ in range(ch.randint(0, 8)))
        if command in ("info",) and ch.chance(0.3):
            argv.append("--json")
    elif command in ("solve", "analyze"):
        target = ch.choice(["tic-tac-toe", "3-spot", "force-3", target])
        argv += [target, "--max-positions", ch.choice(["2000", "100", "0", "-1", "x"])]
        if ch.chance(0.3):
            argv.append("--symmetry")
        if command == "solve" and ch.chance(0.3):
            argv += ["--save", ch.choice(["out.sol", ".", "/nonexistent/dir/x.sol", ""])]
        if command == "solve" and ch.chance(0.1):
            argv.append("--proof")
        if command == "analyze" or ch.chance(0.3):
            g = ctx.games.get(target) or base_game
            pos = position or (g.state_to_text(reachable(ch, g, 6)) if g is not None else ".../.../... X")
            argv += ["--position", pos]
        if command == "analyze" and ch.chance(0.5) and ctx.solutions:
            key = ch.choice(sorted(ctx.solutions))
            files["s.sol"] = damage_solution(ch, ctx.solutions[key]) if ch.chance(0.5) else ctx.solutions[key]
            argv += ["--solution", "s.sol"]
    elif command == "test":
        name = ch.choice(sorted(f for f in ctx.scenarios if f.endswith(".yaml")))
        files["t.yaml"] = mutate_scenario(ch, ctx.scenarios[name])
        argv += [ch.choice(["t.yaml", ".", "nope.yaml"])]
    if position is not None and command in ("info", "perft", "random", "play") and ch.chance(0.8):
        argv += ["--position", position]
    if ch.chance(0.05):
        argv.insert(ch.randint(1, len(argv)), ch.choice(["--json", "--bogus", "--depth", "-", "--position="]))
    if command in ("play",) and "--max-plies" not in argv:
        argv += ["--max-plies", "30"]
    return Case("cli", files, {"argv": argv, "stdin": stdin, "seed": index})


GENERATORS = {
    "ruleset-gen": case_ruleset_gen,
    "ruleset-grammar": case_ruleset_grammar,
    "ruleset-mutant": case_ruleset_mutant,
    "ruleset-variant": case_ruleset_variant,
    "colliders": case_colliders,
    "position": case_position,
    "ply": case_ply,
    "scenario": case_scenario,
    "solution": case_solution,
    "cli": case_cli,
    "native": case_native,
    "solver": case_solver,
    "lsp": case_lsp,
    "serve": case_serve,
}

# Shares of a run's inputs (the colliders: one full rotation when the count allows).
WEIGHTS = {"ruleset-gen": 28, "ruleset-grammar": 6, "ruleset-mutant": 16, "ruleset-variant": 8, "colliders": 3, "position": 12,
           "ply": 10, "scenario": 6, "solution": 4, "cli": 7, "native": 3, "solver": 2, "lsp": 4,
           "serve": 4}


def make_case(category: str, seed: int, index: int, ctx: Context) -> Case:
    case = GENERATORS[category](RandomChooser(f"{seed}:{category}:{index}"), ctx, index)
    case.label = f"seed {seed}, {category} #{index}"
    return case
