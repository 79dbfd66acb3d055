"""A balance report: the JSON object (`build`) and the text table (`text`), one column a
ruleset so that two rulesets read side by side.

The JSON schema (SCHEMA, documented in docs/CLI.md) is stable: keys are only ever added.
"""

from __future__ import annotations

import os

from interpreter.apps.balance.selfplay import Settings

SCHEMA = "rulecraft-balance/1"
LABEL_WIDTH = 24
COLUMN_WIDTH = 28


def build(file: str, title: str, players: list[str], games: int, settings: Settings,
          stats: dict, solution: dict | None) -> dict:
    """One ruleset's report: what was run, then the statistics (stats.aggregate) and what
    the solution says (stats.solution_facts), or None without one."""
    a_first = (games + 1) // 2  # even game indices: A first
    return {
        "schema": SCHEMA,
        "file": file,
        "title": title,
        "players": players,
        "agents": list(settings.agents),
        "games": games,
        "seed": settings.seed,
        "max_plies": settings.max_plies,
        "first_seat": {"A": a_first, "B": games - a_first},
        "interval": "wilson-95",
        **stats,
        "solution": solution,
    }


def _pct(r: dict) -> str:
    return f"{100 * r['rate']:.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"


def _signed(x: float) -> str:
    return f"{x:+.3f}"


def _num(x: float) -> str:
    return f"{round(x, 2):g}"


def _results_rows(rep: dict) -> list[tuple[str, str]]:
    rows = [("seats", ", ".join(rep["players"]))]
    for seat, s in zip(("first", "second"), rep["seats"]):
        for key in ("wins", "draws", "losses"):
            rows.append((f"{seat} seat {key}", _pct(s[key])))
    rows.append(("cut at the ply limit", _pct(rep["seats"][0]["cut"])))
    adv = rep["first_player_advantage"]
    rows.append(("first-player advantage",
                 f"{_signed(adv['advantage'])} [{_signed(adv['low'])}, {_signed(adv['high'])}]"))
    if rep["agents"][0] != rep["agents"][1]:
        for tag, a in zip("AB", rep["scores"]):
            rows.append((f"{tag}'s score", _pct(a["score"])))
    return rows


def _length_rows(rep: dict) -> list[tuple[str, str]]:
    ln, br = rep["length"], rep["branching"]
    rows = [("length mean (sd)", f"{ln['mean']:.1f} ({ln['sd']:.1f})"),
            ("length p10 / p50 / p90", " / ".join(_num(ln[k]) for k in ("p10", "p50", "p90"))),
            ("length min / max", f"{ln['min']} / {ln['max']}"),
            ("games cut", str(ln["cut"])),
            ("legal plies, mean", f"{br['mean']:.2f}")]
    for b in br["buckets"]:
        first, last = b["plies"]
        rows.append((f"legal plies {first}-{last}",
                     f"{b['mean']:.2f}" if b["positions"] else "-"))
    return rows


def _other_rows(rep: dict) -> list[tuple[str, str]]:
    rows = []
    early = rep["decided_early"]
    if early is not None:
        for c in early["checkpoints"]:
            at = c["at"] if c["at"].endswith("%") else f"ply {c['at']}"
            ag = c["agreement"]
            rows.append((f"decided at {at}", f"{_pct(ag)} n={ag['of']}" if ag["of"] else "-"))
    rows.append(("repeated position", _pct(rep["repetition"])))
    rows.append(("draw rate / cut rate", f"{100 * rep['drawishness']['draw_rate']:.1f}% / "
                                         f"{100 * rep['drawishness']['cut_rate']:.1f}%"))
    sol = rep["solution"]
    if sol is not None:
        rem = "" if sol["remoteness"] is None else f" in {sol['remoteness']}"
        rows.append(("solved: start value", f"{sol['value']}{rem} ({rep['players'][0]} to move)"))
        rows.append(("solved: positions", f"{sol['positions']:,}"))
        rows.append(("solved: won by mover", f"{100 * sol['won_by_mover']:.1f}%"))
        longest = sol["longest_forced_win"]
        rows.append(("solved: longest win", "-" if longest is None else f"{longest} plies"))
    return rows


def rows(rep: dict) -> list[tuple[str, str]]:
    """The text report's (label, value) rows of one ruleset."""
    return [("game", rep["title"])] + _results_rows(rep) + _length_rows(rep) + _other_rows(rep)


def text(reports: list[dict]) -> str:
    """The text report: a header, then a row a figure with one column a ruleset (a row
    one ruleset lacks, such as a ply bucket its games never reached, shows `-`)."""
    first = reports[0]
    a, b = first["agents"]
    head = [f"balance: A = {a}, B = {b}; {first['games']} games a ruleset, seed {first['seed']}",
            f"A first in {first['first_seat']['A']} games, B in {first['first_seat']['B']}; "
            f"a game is cut after {first['max_plies']} plies",
            "rates with 95% Wilson score intervals; a draw or cut game scores 1/2"]
    labels: list[str] = []
    values: list[dict[str, str]] = []
    for rep in reports:
        found = dict(rows(rep))
        values.append(found)
        at = 0
        for label in found:  # a new label goes after the one before it in this column
            if label in labels:
                at = labels.index(label) + 1
            else:
                labels.insert(at, label)
                at += 1
    lines = [_line("", [_short(rep["file"]) for rep in reports])]
    lines += [_line(label, [v.get(label, "-") for v in values]) for label in labels]
    return "\n".join(head + [""] + lines) + "\n"


def _short(file: str) -> str:
    """A ruleset's column heading: its file name without the folder and `.game`."""
    name = os.path.basename(file)
    return name[:-5] if name.endswith(".game") else name


def _fit(text: str, width: int) -> str:
    """`text` cut to leave at least one space before the next column."""
    return text if len(text) < width else text[:width - 2] + "…"


def _line(label: str, cells: list[str]) -> str:
    """A row: the label, then each column's cell (the last one never cut)."""
    shown = [_fit(c, COLUMN_WIDTH) for c in cells[:-1]] + cells[-1:]
    return (f"{_fit(label, LABEL_WIDTH):<{LABEL_WIDTH}}"
            + "".join(f"{c:<{COLUMN_WIDTH}}" for c in shown)).rstrip()
