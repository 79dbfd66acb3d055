"""What the web page asks, answered by pure functions: no HTTP here, and no state but a
cache of compiled games.

Every request carries all it needs: the ruleset (`text`, or `ruleset`: a bundled name)
and `plies`, the plies made so far in notation. The ruleset is checked and compiled as
everywhere else (never run), its game taken from a small cache keyed by the SHA-256 of
the text, the plies replayed, and the answer is a dict ready for JSON. `handle(op,
request)` answers any operation of OPS and turns every error into `{"error": ...}`.
"""

from __future__ import annotations

import os
import random
import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable

from dsl.diagnostics import Diagnostic, RulesetError, printable
from dsl.file_text import MAX_FILE_BYTES, read_text
from dsl.load import bundled_dir, bundled_names, load_text
from dsl.syntax import Span

from interpreter.apps.describe import outcome_of, result_text
from interpreter.runtime.ending import ending_cause
from interpreter.runtime.game import Action, Game, IllegalActionError, State
from interpreter.runtime.limits import RuleLimitError
from interpreter.runtime.picture import position_svg
from interpreter.apps.records import format_record, record_game, turns
from interpreter.apps.web.verdicts import text_key, verdict_of
from interpreter.search.alphabeta import AlphaBeta
from interpreter.search.codec import SolveError, two_players_only
from interpreter.search.mcts import MCTS
from interpreter.search.solver import Solution, solve
from interpreter.runtime.tables import cells_of

MAX_BODY = 256 * 1024  # bytes of one request; the app refuses more before reading it
MAX_PLIES = 5_000  # plies a request may replay
MAX_PLY_TEXT = 200  # characters of one ply's text
CACHE_SIZE = 16  # compiled games kept
MAX_ITERATIONS = 50_000  # mcts:N
MAX_DEPTH = 12  # alphabeta:D
MAX_SECONDS = 5.0  # a machine's ply, for mcts and alphabeta (a bound on mcts:N too)
MAX_SOLVE_POSITIONS = 500_000  # perfect: a larger game is refused with a message
SOLVE_TIME_LIMIT = 120.0  # seconds the `perfect` request (the solve) may take
NOT_OFFERED = "perfect play is not offered: the game cannot be solved here: "
EDITOR = "ruleset.game"  # the file name the edited text stands for in diagnostics
MACHINES = "random, mcts:N, mcts:Ts, alphabeta:D, perfect"


class ApiError(Exception):
    """A request that cannot be answered: its message, HTTP status and extra fields."""

    def __init__(self, message: str, status: int = 400, **extra: Any) -> None:
        super().__init__(message)
        self.message, self.status, self.extra = message, status, extra


@dataclass
class Loaded:
    """A compiled game and what was worked out for it (the solution, once solved)."""

    game: Game
    text: str = ""
    key: str = ""  # the SHA-256 of the text: a solution's file name in the shared folder
    solution: Solution | None = None
    solve_error: str | None = None
    agents: dict = field(default_factory=dict)


_cache: OrderedDict[str, Loaded] = OrderedDict()
_bundled: dict[str, str] = {}
_solutions: list[str] = []  # the folder the workers share solutions (and refusals) in, if any


def share_solutions(folder: str | None) -> None:
    """Keep solutions, and why a game cannot be solved, in `folder` (shared by the
    server's workers), so that a game is solved once whichever worker answers."""
    _solutions[:] = [folder] if folder else []


def bundled_texts() -> dict[str, str]:
    """{path: text} of every bundled ruleset (the only bases a web text may name)."""
    if not _bundled:
        for name in bundled_names():
            path = os.path.join(bundled_dir(), name + ".game")
            _bundled[path] = read_text(path)
    return _bundled


def bundled_text(name: object) -> str:
    """The text of the bundled ruleset `name`; ApiError for any other name."""
    if not isinstance(name, str) or name not in bundled_names():
        raise ApiError(f"no bundled ruleset named {printable(str(name))[:60]!r}", 404)
    return bundled_texts()[os.path.join(bundled_dir(), name + ".game")]


_BASE = re.compile(r'^([ \t]*variant[ \t]+of[ \t]+)"([^"\n]*)"', re.M)


def _foreign_bases(text: str) -> list[Diagnostic]:
    """An error for each `variant of "BASE"` whose base is not a bundled ruleset: a text
    from the page reads no file of the machine."""
    names = bundled_names()
    out = []
    for m in _BASE.finditer(text):
        base = m.group(2)
        if base.removesuffix(".game") not in names:
            line = text.count("\n", 0, m.start()) + 1
            col = m.start(2) - m.start()  # at the opening quote, as the checker points
            out.append(Diagnostic(Span(EDITOR, line, col, line, col + len(base) + 2),
                                  f"base ruleset '{printable(base)[:60]}' is not a bundled ruleset",
                                  f"on the web page a base is a bundled ruleset: {', '.join(names)}"))
    return out


def compiled(text: str) -> Loaded:
    """The game of a ruleset's text, from the cache or checked and compiled now; raises
    RulesetError with the text's diagnostics."""
    key = text_key(text)
    if key in _cache:
        _cache.move_to_end(key)
        return _cache[key]
    if len(text) > MAX_FILE_BYTES:  # before anything else looks at it
        raise RulesetError([Diagnostic(None, f"text is larger than the limit of {MAX_FILE_BYTES:,} "
                                             "bytes", file=EDITOR)])
    foreign = _foreign_bases(text)
    if foreign:
        raise RulesetError(foreign, {EDITOR: text})
    game = Game(load_text(text, EDITOR, bundled_texts()), "python")
    game.initial_state()
    _cache[key] = Loaded(game, text, key)
    while len(_cache) > CACHE_SIZE:
        _cache.popitem(last=False)
    return _cache[key]


def diagnostic_json(d: Diagnostic, sources: dict[str, str]) -> dict:
    """One diagnostic: where (1-based, end exclusive; `in_text` when in the edited text),
    the message and hint, and the whole of it as `rulecraft check` prints it."""
    s = d.span
    where = {"file": s.file, "line": s.line, "col": s.col, "end_line": s.end_line,
             "end_col": s.end_col} if s else {"file": d.file, "line": None, "col": None,
                                              "end_line": None, "end_col": None}
    return {**where, "in_text": s is not None and s.file == EDITOR, "message": d.message,
            "hint": d.hint, "text": d.format(sources)}


# ------------------------------------------------------------------ requests

def _text(request: dict) -> str:
    if "ruleset" in request and "text" not in request:
        return bundled_text(request["ruleset"])
    text = request.get("text")
    if not isinstance(text, str):
        raise ApiError("the request needs `text` (a ruleset's text) or `ruleset` (a bundled name)")
    return text


def _game(request: dict) -> Loaded:
    """The request's compiled game; ApiError (with the diagnostics) for a broken ruleset."""
    text = _text(request)
    try:
        return compiled(text)
    except RulesetError as e:
        raise ApiError("the ruleset has errors", 422,
                       diagnostics=[diagnostic_json(d, e.sources) for d in e.diagnostics[:50]]) from None


def _plies(request: dict, key: str = "plies") -> list[str]:
    plies = request.get(key, [])
    if not isinstance(plies, list) or not all(isinstance(p, str) for p in plies):
        raise ApiError(f"`{key}` must be a list of plies in notation")
    if len(plies) > MAX_PLIES:
        raise ApiError(f"at most {MAX_PLIES:,} plies a game")
    if any(len(p) > MAX_PLY_TEXT for p in plies):
        raise ApiError(f"a ply's text is at most {MAX_PLY_TEXT} characters")
    return plies


def replay(game: Game, plies: list[str], lenient: bool = False) -> tuple[list[State], list[Action]]:
    """The positions (the setup first) and actions of `plies` made in turn; ApiError at
    the first illegal one, or, `lenient`, the game up to it."""
    states, actions = [game.initial_state()], []
    for k, text in enumerate(plies):
        try:
            action = game.action_from_text(states[-1], text)
        except IllegalActionError as e:
            if lenient:
                break
            raise ApiError(f"ply {k + 1}, {printable(text)}: {e}", bad_ply=k) from None
        actions.append(action)
        states.append(game.apply(states[-1], action))
    return states, actions


# ------------------------------------------------------------------ answers

def legal_plies(game: Game, state: State) -> list[dict]:
    """Each legal ply: its notation, the cells it starts from (a move's cell, the cells of
    a piece that is placed anew) and the cells it goes to (none for a pass)."""
    names = game.board.names
    out = []
    for action in game.texts(state).values():
        text = game.action_to_text(state, action)  # the notation of the CLI and records: a1xb1
        rec = game.notation.decode(action)
        start: list[int] = [] if rec.from_cell is None else [rec.from_cell]
        end: list[int] = [] if rec.to_cell is None else [rec.to_cell]
        if rec.placement is not None and rec.piece is not None:
            start = cells_of(state[rec.piece])
            size = game.ruleset.types[rec.piece].size
            end = cells_of(game.tables.placement_masks(size)[rec.placement])  # as action_ids.py
        out.append({"ply": text, "from": [names[c] for c in start], "to": [names[c] for c in end]})
    return out


def _targets(game: Game, state: State, legal: list[dict], select: object) -> list[str]:
    """The cells the piece on `select` can go to (none for no such cell)."""
    names = game.board.names
    cell = game.board.index.get(select) if isinstance(select, str) else None
    if cell is None:
        return []
    found = {to for p in legal if names[cell] in p["from"] for to in p["to"]}
    return sorted(found, key=game.board.index.get)


def view(loaded: Loaded, plies: list[str], select: object = None, lenient: bool = False) -> dict:
    """The game after `plies`: the board as SVG (the last ply outlined, the targets of the
    piece on `select` marked, a winning line ringed), who is to move or the result and its
    cause, the legal plies, the moves."""
    game = loaded.game
    states, actions = replay(game, plies, lenient)
    state = states[-1]
    legal = legal_plies(game, state)
    targets = _targets(game, state, legal, select)
    svg = position_svg(game, state, last=actions[-1] if actions else None,
                       before=states[-2] if actions else None,
                       targets=[game.board.index[t] for t in targets])
    texts = [game.action_to_text(s, a) for s, a in zip(states, actions)]
    movers = [game.players[game.to_move(s)] for s in states[:len(texts)]]
    moves = [{"number": n, "player": mover, "ply": t}  # numbered by turn, as records
             for n, mover, made in turns(movers, texts) for t in made]
    outcome = outcome_of(game, state)
    return {"title": game.title, "players": game.players, "svg": svg,
            "cells": [n for c, n in enumerate(game.board.names) if c not in game.board.goals],
            "to_move": None if outcome else game.players[game.to_move(state)],
            "result": None if outcome is None else result_text(game, state),
            "cause": ending_cause(game, state),
            "position": game.state_to_text(state), "plies": texts, "moves": moves,
            "legal": legal, "selected": select if targets else None, "targets": targets,
            "dropped": len(plies) - len(actions)}


def check(request: dict) -> dict:
    """`ok`, the game's title and its warnings, and whether `perfect` can play it (`offered`
    None: only a solve can tell); or every diagnostic of the ruleset."""
    try:
        loaded = _game(request)
    except ApiError as e:
        if "diagnostics" not in e.extra:
            raise
        return {"ok": False, "diagnostics": e.extra["diagnostics"]}
    game = loaded.game
    return {"ok": True, "title": game.title, "players": game.players, "diagnostics": [],
            "warnings": [diagnostic_json(w, game.ruleset.sources) for w in game.ruleset.warnings],
            "perfect": {"offered": _known(loaded), "why": loaded.solve_error or ""}}


def position(request: dict) -> dict:
    """The view of the game after the request's plies (`lenient`: as far as they are legal)."""
    return view(_game(request), _plies(request), request.get("select"), bool(request.get("lenient")))


def play(request: dict) -> dict:
    """The view after one more ply, `ply`, typed as a person would (any case, or short)."""
    loaded = _game(request)
    plies = _plies(request)
    ply = request.get("ply")
    if not isinstance(ply, str) or len(ply) > MAX_PLY_TEXT:
        raise ApiError("`ply` must be a ply's text")
    states, _ = replay(loaded.game, plies)
    try:
        action = loaded.game.action_from_input(states[-1], ply)
    except IllegalActionError as e:
        raise ApiError(str(e)) from None
    return view(loaded, plies + [loaded.game.action_to_text(states[-1], action)])


def _bounded(spec: str, text: str, most: float) -> float:
    if not re.fullmatch(r"[0-9]{1,9}(\.[0-9]{1,6})?", text) or not 0 < float(text) <= most:
        raise ApiError(f"{spec}: a number above 0 and at most {most:g} on this page")
    return float(text)


def agent_of(loaded: Loaded, spec: object, seed: int) -> Callable[[State], Action]:
    """The machine player `spec` names (MACHINES), held to this page's bounds: MAX_SECONDS a
    ply and MAX_ITERATIONS, MAX_DEPTH and MAX_SOLVE_POSITIONS."""
    game, rng = loaded.game, random.Random(seed)
    name, _, arg = spec.partition(":") if isinstance(spec, str) else ("", "", "")
    if spec == "random":
        return lambda state: rng.choice(game.legal_actions(state))
    if name == "mcts" and arg.endswith("s"):
        m = MCTS(game, iterations=None, time_limit=_bounded(spec, arg[:-1], MAX_SECONDS), seed=seed)
        return m.choose
    if name == "mcts":
        iterations = int(_bounded(spec, arg, MAX_ITERATIONS))
        return MCTS(game, iterations=iterations, time_limit=MAX_SECONDS, seed=seed).choose
    if name == "alphabeta":
        depth = int(_bounded(spec, arg, MAX_DEPTH))

        def choose(state: State) -> Action:
            return rng.choice(AlphaBeta(game).search(state, depth=depth, time_limit=MAX_SECONDS).best)

        return choose
    if spec == "perfect":
        return lambda state: rng.choice(_solution(loaded).best_actions(state))
    raise ApiError(f"unknown player {printable(str(spec))[:40]!r} (known: human, {MACHINES})")


def _solution(loaded: Loaded, ahead: bool = True) -> Solution:
    """The game solved from its setup (once, here or by another worker), or ApiError when
    it cannot be solved within this page's limits (known `ahead` for a bundled text)."""
    if loaded.solution is None and loaded.solve_error is None:
        _known(loaded, ahead)
    if loaded.solution is None and loaded.solve_error is None:
        try:
            loaded.solution = solve(loaded.game, max_positions=MAX_SOLVE_POSITIONS)
        except (SolveError, MemoryError) as e:
            loaded.solve_error = f"{NOT_OFFERED}{e}"
        _write_shared(loaded)
    if loaded.solution is None:
        raise ApiError(loaded.solve_error or "perfect play is not offered")
    return loaded.solution


def _known(loaded: Loaded, ahead: bool = True) -> bool | None:
    """Whether `perfect` can play, as far as is known without solving: from the number of
    players, a solve by any worker, or (`ahead`) the bundled rulesets' verdicts; None when
    only a solve can tell. Sets `loaded.solve_error` where it cannot."""
    if loaded.solution is None and loaded.solve_error is None:
        try:
            two_players_only(loaded.game)
        except SolveError as e:
            loaded.solve_error = f"{NOT_OFFERED}{e}"
    if loaded.solution is None and loaded.solve_error is None:
        _read_shared(loaded)
    if loaded.solution is not None or loaded.solve_error is not None:
        return loaded.solution is not None
    verdict = verdict_of(loaded.text) if ahead else None
    if verdict is not None and "why" in verdict:
        loaded.solve_error = verdict["why"]
        return False
    return None if verdict is None else True


def _read_shared(loaded: Loaded) -> None:
    if not _solutions:
        return
    path = os.path.join(_solutions[0], loaded.key)
    try:
        if os.path.exists(path + ".why"):
            loaded.solve_error = read_text(path + ".why")
        elif os.path.exists(path + ".solution"):
            loaded.solution = Solution.load(path + ".solution", loaded.game)
    except (OSError, ValueError, SolveError):
        pass  # unreadable: solved again


def _write_shared(loaded: Loaded) -> None:
    """The solution, or why there is none, written whole (renamed into place) for the
    other workers."""
    if not _solutions:
        return
    path = os.path.join(_solutions[0], loaded.key)
    part = f"{path}.{os.getpid()}.part"
    try:
        if loaded.solution is not None:
            loaded.solution.save(part)
            os.replace(part, path + ".solution")
        else:
            with open(part, "w", encoding="utf-8") as f:
                f.write(loaded.solve_error or "")
            os.replace(part, path + ".why")
    except OSError:
        pass  # a full disk: each worker solves for itself


def perfect(request: dict, ahead: bool = True) -> dict:
    """The game solved for `perfect` (once): `{"perfect": true, "positions": N}`, or
    `{"perfect": false, "why": ...}` where it cannot be within this page's limits."""
    loaded = _game(request)
    try:
        return {"perfect": True, "positions": len(_solution(loaded, ahead))}
    except ApiError as e:
        return {"perfect": False, "why": e.message}


def machine(request: dict) -> dict:
    """The view after the machine `player` makes the next ply (seeded by `seed` and the
    number of plies made, so a game replays the same)."""
    loaded = _game(request)
    plies = _plies(request)
    states, _ = replay(loaded.game, plies)
    state = states[-1]
    if loaded.game.is_terminal(state):
        raise ApiError("the game is over")
    seed = request.get("seed", 0)
    if not isinstance(seed, int) or not 0 <= seed < 2**32:
        raise ApiError("`seed` must be a whole number from 0 to 2^32 - 1")
    action = agent_of(loaded, request.get("player"), seed + len(plies))(state)
    return view(loaded, plies + [loaded.game.action_to_text(state, action)])


def _players(request: dict, game: Game) -> list[str]:
    players = request.get("players", ["human"] * len(game.players))
    if not isinstance(players, list) or len(players) != len(game.players) \
            or not all(isinstance(p, str) and len(p) <= 40 for p in players):
        raise ApiError(f"`players` must name who plays each of the {len(game.players)} sides")
    return players


def undo(request: dict) -> dict:
    """The view one ply back; with machines playing, back to before the last ply a
    person (`human` in `players`) made, unless no person has made one."""
    loaded = _game(request)
    plies = _plies(request)
    players = _players(request, loaded.game)
    states, _ = replay(loaded.game, plies)
    movers = [players[loaded.game.to_move(s)] for s in states[:-1]]
    keep = len(plies) - 1
    if "human" in movers:
        while keep > 0 and movers[keep] != "human":
            keep -= 1
    return view(loaded, plies[:max(keep, 0)])


def record(request: dict) -> dict:
    """The game record of the plies (records.py's text), and a file name for it."""
    loaded = _game(request)
    plies = _plies(request)
    players = _players(request, loaded.game)
    states, actions = replay(loaded.game, plies)
    given = request.get("ruleset")
    bundled = isinstance(given, str) and given in bundled_names() and _text(request) == bundled_text(given)
    name = given if bundled else EDITOR
    rec = record_game(loaded.game, name, players, states[0], actions)
    stem = re.sub(r"[^A-Za-z0-9-]+", "-", name.removesuffix(".game")).strip("-") or "game"
    return {"record": format_record(rec), "filename": f"{stem}.record"}


OPS: dict[str, Callable[[dict], dict]] = {"check": check, "view": position, "play": play,
                                           "machine": machine, "undo": undo, "record": record,
                                           "perfect": perfect}


def handle(op: str, request: object) -> dict:
    """The answer to one request; `{"error": message, "status": HTTP status, ...}` when it
    cannot be answered (never an exception)."""
    if op not in OPS:
        return {"error": f"no operation '{printable(op)[:40]}' (known: {', '.join(OPS)})", "status": 404}
    if not isinstance(request, dict):
        return {"error": "the request must be a JSON object", "status": 400}
    try:
        return OPS[op](request)
    except ApiError as e:
        return {"error": e.message, "status": e.status, **e.extra}
    except RuleLimitError as e:
        return {"error": str(e), "status": 422}
    except RecursionError:
        return {"error": "the ruleset nests too deeply to be read", "status": 422}
    except MemoryError:
        return {"error": "out of memory answering this request", "status": 503}
