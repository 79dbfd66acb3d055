"""What `rulecraft info` says of a game: its regions, variables, turn, end rules (with the
implicit ones) and a position's outcome, as data (for `--json`) and as lines of text."""

from __future__ import annotations

from dsl import syntax as syn

from interpreter.runtime.game import Game, State

DEFAULT_END = "the player to move with no legal ply loses"


def source_text(game: Game, span: syn.Span | None) -> str:
    """A declaration as written (its lines joined, comments and runs of spaces dropped)."""
    text = game.ruleset.sources.get(span.file) if span is not None else None
    if text is None:
        return ""
    lines = text.splitlines()[span.line - 1:span.end_line]
    if lines:
        lines[-1] = lines[-1][:span.end_col - 1] if len(lines) > 1 else \
            lines[-1][span.col - 1:span.end_col - 1]
        if len(lines) > 1:
            lines[0] = lines[0][span.col - 1:]
    return " ".join(" ".join(line.split("#", 1)[0].split()) for line in lines).strip()


def phases(game: Game, turn) -> list[dict]:
    return [{"plies": list(ph.plies), "pass": ph.allows_pass, "when_possible": ph.when_possible}
            for ph in turn]


def phase_text(ph: dict) -> str:
    text = " or ".join(ph["plies"] + (["pass"] if ph["pass"] else []))
    return text + (" when possible" if ph["when_possible"] else "")


def rules_of(game: Game) -> dict:
    """The rules `info` lists, as JSON-ready data."""
    rs, names = game.ruleset, game.board.names
    ends = [{"name": e.name, "rule": source_text(game, e.span)} for e in rs.ends]
    return {
        "regions": {name: [names[c] for c in sorted(cells)] for name, cells in rs.regions.items()}
        | {f"{name}[{p}]": [names[c] for c in range(len(names)) if mask >> c & 1]
           for name, masks in rs.player_regions.items() for p, mask in zip(rs.players, masks)},
        "tracks": {name: [names[c] for c in cells] for name, cells in rs.tracks.items()},
        "turn": phases(game, rs.turn),
        "first_turn": phases(game, rs.first_turn) if rs.first_turn else None,
        "compulsory": rs.compulsory,
        "after_each_ply": [source_text(game, e.span) for e in rs.after],
        "ends": ends,
        "implicit_end": DEFAULT_END,
    }


def pieces_on_board(game: Game, state: State) -> list[dict]:
    """Each kind and owner: its symbol, the cells a piece covers, how many are on the board."""
    pieces: list[dict] = []
    seen: dict[tuple, int] = {}
    for i, t in enumerate(game.ruleset.types):  # a wide kind has one type a piece: one line a kind
        key = (t.kind, t.owner)
        if key not in seen:
            seen[key] = len(pieces)
            pieces.append({"kind": t.kind, "owner": None if t.owner is None else game.players[t.owner],
                           "symbol": t.symbol, "size": t.size * t.cover, "on_board": 0})
        if t.counted:  # each cell holds a count of them
            base = game.layout.count_offsets[i]
            pieces[seen[key]]["on_board"] += sum(state[base:base + game.board.size])
        else:
            pieces[seen[key]]["on_board"] += state[i].bit_count() // (t.size * t.cover)
    return pieces


def outcome_of(game: Game, state: State) -> str | None:
    """The winner's name, `draw`, `NAME loses` (more than two players: the others share the
    win), or None while the game goes on."""
    out = game.outcome(state)
    if out is None:
        return None
    return game.players[out.winner] if out.winner is not None else game.notation.result(out)


def result_text(game: Game, state: State) -> str:
    """`NAME wins` (`Musketeers win`), `NAME loses`, `draw` or `game going on`: a result as
    play, info, records, replay and the web page write it (Notation.result)."""
    out = game.outcome(state)
    return "game going on" if out is None else game.notation.result(out)


def rule_lines(game: Game, rules: dict) -> list[str]:
    """`info`'s text for the rules: regions, turn, captures, effects, end rules in order."""
    out = []
    for name, cells in rules["regions"].items():
        out.append(f"region {name}: {', '.join(cells) if cells else '(no cell)'}")
    for name, cells in rules["tracks"].items():
        out.append(f"track {name}: {', '.join(cells)}")
    if rules["first_turn"]:
        out.append("first turn: " + " then ".join(phase_text(ph) for ph in rules["first_turn"]))
    out.append("turn: " + " then ".join(phase_text(ph) for ph in rules["turn"]))
    if rules["compulsory"]:
        out.append("capture: " + ("compulsory, the most pieces" if rules["compulsory"] == "maximum"
                                  else "compulsory"))
    for effect in rules["after_each_ply"]:
        out.append(f"after each ply: {effect}")
    out.append("end rules, in order:")
    out.extend(f"  {e['rule']}" for e in rules["ends"])
    out.append(f"  then, always: {rules['implicit_end']}")
    return out
