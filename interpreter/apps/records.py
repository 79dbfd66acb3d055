"""Game records: a plain-text form of a played game, written by `play --record` and read
back, every ply checked, by `replay` (docs/RECORDS.md).

    # rulecraft game record
    Game: Three Musketeers
    Ruleset: three-musketeers
    Fingerprint: 5c1e...            (SHA-256 of the ruleset's texts and state layout)
    Players: human, random          (who played each side, in the ruleset's order)
    Result: Enemy wins              (or `draw`, or `game going on`)
    Start: TEXT                     (only when the game did not start from the set-up)

    1. Musketeers a1xa2
    2. Enemy b3-c3

A line per turn: its number, the player, and the plies that player made in a row.
Blank lines and lines starting with `#` are ignored.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dsl.diagnostics import Diagnostic, RulesetError
from dsl.syntax import Span

from interpreter.apps.describe import result_text
from interpreter.runtime.game import Action, Game, IllegalActionError, PositionError, State
from interpreter.search.solution_file import fingerprint

MAX_RECORD_BYTES = 16 << 20  # a record past this is refused before it is read
HEADER = "# rulecraft game record"
_TURN = re.compile(r"(\d+)\.[ \t]+(\S+)((?:[ \t]+\S+)+)[ \t]*")
_KEY = re.compile(r"([A-Za-z]+):[ \t]*(.*?)[ \t]*")


class RecordError(RulesetError):
    """A record that cannot be read or replayed: its diagnostics, `file:line:col` each."""


@dataclass
class GameRecord:
    """A game as played: its ruleset, players, result, start and plies (in notation)."""

    game: str
    ruleset: str
    fingerprint: str
    players: list[str]
    result: str
    plies: list[str]
    movers: list[str] = field(default_factory=list)  # the player of each ply
    start: str | None = None
    ply_spans: list[Span] = field(default_factory=list)  # where each ply was read, if read


def record_game(game: Game, ruleset: str, players: list[str], start: State,
                actions: list[Action]) -> GameRecord:
    """The record of `actions` played from `start` (each one legal where it is played)."""
    plies, movers, state = [], [], start
    for a in actions:
        movers.append(game.players[game.to_move(state)])
        plies.append(game.action_to_text(state, a))
        state = game.apply(state, a)
    first = None if start == game.initial_state() else game.state_to_text(start)
    return GameRecord(game.ruleset.title, ruleset, fingerprint(game), list(players),
                      result_text(game, state), plies, movers, first)


def turns(movers: list[str], plies: list[str]) -> list[tuple[int, str, list[str]]]:
    """The plies by turn, numbered from 1 as records, `play`, `replay` and the page number
    them: (number, player, plies), each run of plies by one player a turn."""
    out: list[tuple[int, str, list[str]]] = []
    for k, (mover, ply) in enumerate(zip(movers, plies)):
        if k and movers[k - 1] == mover:
            out[-1][2].append(ply)
        else:
            out.append((len(out) + 1, mover, [ply]))
    return out


def turn_list(movers: list[str], plies: list[str]) -> str:
    """`moves:` and the turns, one a line (`  1. Blue c1+c2-b3+c3 a1+a2-a2+a3`)."""
    lines = [f"\n  {n}. {mover} {' '.join(made)}" for n, mover, made in turns(movers, plies)]
    return "moves:" + "".join(lines) + "\n" if lines else "moves: none\n"


def format_record(rec: GameRecord) -> str:
    """The record's text."""
    lines = [HEADER, f"Game: {rec.game}", f"Ruleset: {rec.ruleset}",
             f"Fingerprint: {rec.fingerprint}", f"Players: {', '.join(rec.players)}",
             f"Result: {rec.result}"]
    if rec.start is not None:
        lines.append(f"Start: {rec.start}")
    lines.append("")
    lines += [f"{n}. {mover} {' '.join(made)}" for n, mover, made in turns(rec.movers, rec.plies)]
    return "\n".join(lines) + "\n"


def parse_record(text: str, path: str) -> GameRecord:
    """The record a text holds (plies not yet checked: see `replay`); RecordError with
    every line it cannot read."""
    errors: list[Diagnostic] = []
    head: dict[str, str] = {}
    plies, movers, spans = [], [], []
    for n, line in enumerate(text.split("\n"), start=1):
        line = line.rstrip("\r")
        if not line.strip() or line.startswith("#"):
            continue
        turn = _TURN.fullmatch(line)
        key = _KEY.fullmatch(line)
        if turn:
            col = turn.start(3) + 1
            for ply in turn.group(3).split():
                col = line.index(ply, col - 1) + 1
                plies.append(ply)
                movers.append(turn.group(2))
                spans.append(Span(path, n, col, n, col + len(ply)))
                col += len(ply)
        elif key and not plies:
            head[key.group(1).lower()] = key.group(2)
        else:
            errors.append(Diagnostic(Span(path, n, 1, n, len(line) + 1),
                                     "expected `Key: value` before the plies, or a turn `N. PLAYER PLY ...`"))
    for k in ("game", "ruleset", "players", "result"):
        if k not in head:
            errors.append(Diagnostic(None, f"the record has no `{k.capitalize()}:` line", file=path))
    if errors:
        raise RecordError(errors, {path: text})
    return GameRecord(head["game"], head["ruleset"], head.get("fingerprint", ""),
                      [p.strip() for p in head["players"].split(",")], head["result"], plies,
                      movers, head.get("start"), spans)


def replay(rec: GameRecord, game: Game, text: str | None = None) -> list[State]:
    """Every position of the recorded game, the start first, each ply checked legal and
    made by the player written before it, and the result checked; RecordError otherwise.
    `text`: the record's text, to show its lines in the errors."""
    path = rec.ply_spans[0].file if rec.ply_spans else "<record>"
    sources = {path: text} if text is not None else {}

    def fail(span: Span | None, message: str, hint: str | None = None) -> RecordError:
        return RecordError([Diagnostic(span, message, hint, file=path)], sources)

    try:
        state = game.initial_state() if rec.start is None else game.state_from_text(rec.start)
    except PositionError as e:
        raise fail(None, f"Start: {e}") from None
    states = [state]
    for k, ply in enumerate(rec.plies):
        span = rec.ply_spans[k] if k < len(rec.ply_spans) else None
        mover = game.to_move(state)
        if game.is_terminal(state):
            raise fail(span, f"a ply after the end of the game ({result_text(game, state)})")
        if k < len(rec.movers) and rec.movers[k] != game.players[mover]:
            raise fail(span, f"it is {game.players[mover]}'s ply here, not {rec.movers[k]}'s")
        try:
            action = game.action_from_text(state, ply)
        except IllegalActionError as e:
            raise fail(span, str(e)) from None
        state = game.apply(state, action)
        states.append(state)
    if _verb_either(rec.result) != _verb_either(result_text(game, state)):
        raise fail(None, f"the record says `{rec.result}`, but the plies end in "
                         f"`{result_text(game, state)}`")
    return states


def _verb_either(result: str) -> str:
    """A result with `win`/`wins` (`lose`/`loses`) as one: records written before results
    took the rules' verb say `Musketeers wins`."""
    return re.sub(r" (win|lose)s?$", r" \1s", result)


def read_record(path: str) -> tuple[GameRecord, str]:
    """The record in a file and its text; RecordError if it cannot be read."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except OSError as e:
        raise RecordError([Diagnostic(None, f"cannot read the record: {e.strerror}", file=path)]) from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError([Diagnostic(None, f"the record is larger than {MAX_RECORD_BYTES >> 20} MB",
                                      file=path)])
    text = data.decode("utf-8", errors="replace")
    return parse_record(text, path), text


def write_record(rec: GameRecord, path: str) -> None:
    """Write the record's text to `path` (OSError if it cannot be written)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(format_record(rec))
