"""The statistics of a balance report: Wilson score intervals, percentiles, and the
aggregation of per-game results (selfplay.GameResult) into one JSON-ready dict.

Every figure is computed from the records in game-index order, so a report does not
depend on how many processes played the games.
"""

from __future__ import annotations

import math
from typing import Sequence

from interpreter.runtime.game import State
from interpreter.search.solution import Solution
from interpreter.search.solution_file import WIN
from interpreter.apps.balance.selfplay import DRAW, DRAW_BAND, GameResult, Settings

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile: two-sided 95%
BUCKET_EDGES = (5, 10, 20, 40, 80, 160, 320, 640)  # last ply of each bucket, then doubling


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion `successes / n` (0.95 by default);
    (0.0, 1.0) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) of sorted values, interpolating linearly between the
    closest ranks (numpy's default method)."""
    if not sorted_values:
        return 0.0
    pos = (len(sorted_values) - 1) * q / 100
    low = math.floor(pos)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (pos - low)


def _r(x: float) -> float:
    """Rounded for the report: fixed digits keep the JSON stable and readable."""
    return round(x, 4)


def rate(successes: float, n: int) -> dict:
    """A proportion with its 95% Wilson interval, as the report writes it."""
    low, high = wilson(successes, n)
    return {"count": successes, "of": n, "rate": _r(successes / n if n else 0.0),
            "low": _r(low), "high": _r(high)}


def buckets(last_ply: int) -> list[tuple[int, int]]:
    """Ply ranges (first, last; plies counted from 1) covering plies 1..last_ply: 1-5,
    6-10, 11-20, 21-40, ..., each twice the one before; fixed, so that two reports line up."""
    out, first = [], 1
    edges = list(BUCKET_EDGES)
    while first <= last_ply:
        if not edges:
            edges.append(2 * (first - 1))
        end = edges.pop(0)
        out.append((first, end))
        first = end + 1
    return out


def _seat_results(records: list[GameResult], players: list[str]) -> list[dict]:
    """Wins, draws, losses and cut games of each seat (the ruleset's players in order)."""
    n = len(records)
    out = []
    for seat, name in enumerate(players):
        wins = sum(r.outcome == seat for r in records)
        draws = sum(r.outcome == DRAW for r in records)
        cut = sum(r.outcome is None for r in records)
        out.append({"player": name, "wins": rate(wins, n), "draws": rate(draws, n),
                    "losses": rate(n - wins - draws - cut, n), "cut": rate(cut, n)})
    return out


def _agent_results(records: list[GameResult], agents: list[str]) -> list[dict]:
    """Each of A and B's score over both seats (win 1, draw or cut 1/2), with its interval."""
    out = []
    n = len(records)
    for k, spec in enumerate(agents):
        wins = sum(r.outcome is not None and r.outcome != DRAW and r.seat_of(k) == r.outcome
                   for r in records)
        even = sum(r.outcome is None or r.outcome == DRAW for r in records)
        out.append({"agent": spec, "wins": wins, "draws_or_cut": even, "losses": n - wins - even,
                    "score": rate(wins + even / 2, n)})
    return out


def _advantage(records: list[GameResult]) -> dict:
    """The first seat's score (win 1, draw or cut 1/2) minus 1/2, with the Wilson interval
    of the score taken as a proportion of the games (conservative when there are draws)."""
    n = len(records)
    score = sum(1.0 if r.outcome == 0 else 0.5 if r.outcome in (DRAW, None) else 0.0
                for r in records)
    low, high = wilson(score, n)
    mean = score / n if n else 0.5
    return {"score": _r(mean), "advantage": _r(mean - 0.5), "low": _r(low - 0.5),
            "high": _r(high - 0.5)}


def _length(records: list[GameResult]) -> dict:
    """Game length in plies (a cut game counts at the ply limit)."""
    lengths = sorted(r.plies for r in records)
    n = len(lengths)
    mean = sum(lengths) / n if n else 0.0
    sd = math.sqrt(sum((x - mean) ** 2 for x in lengths) / (n - 1)) if n > 1 else 0.0
    return {"mean": _r(mean), "sd": _r(sd), "p10": _r(percentile(lengths, 10)),
            "p50": _r(percentile(lengths, 50)), "p90": _r(percentile(lengths, 90)),
            "min": lengths[0] if n else 0, "max": lengths[-1] if n else 0,
            "cut": sum(r.outcome is None for r in records)}


def _branching(records: list[GameResult]) -> dict:
    """Legal plies a position: overall, by ply bucket, and by ply number (with how many
    games reached that ply)."""
    longest = max((r.plies for r in records), default=0)
    total = [0] * longest
    reached = [0] * longest
    for r in records:
        for i, n in enumerate(r.legal):
            total[i] += n
            reached[i] += 1
    rows = []
    for first, last in buckets(longest):
        part = slice(first - 1, last)
        positions = sum(reached[part])
        rows.append({"plies": [first, last], "positions": positions,
                     "mean": _r(sum(total[part]) / positions if positions else 0.0)})
    positions = sum(reached)
    return {"mean": _r(sum(total) / positions if positions else 0.0), "buckets": rows,
            "per_ply": [_r(t / n) for t, n in zip(total, reached)], "reached": reached}


def _early(records: list[GameResult], settings: Settings) -> dict | None:
    """How often an MCTS at each checkpoint foresaw the result (finished games long
    enough to have the checkpoint); None when the check is off."""
    if not settings.early_budget:
        return None
    rows = []
    for c, checkpoint in enumerate(settings.checkpoints):
        judged = [r for r in records if r.checks[c] is not None]
        agree = sum(r.checks[c] == r.outcome for r in judged)
        rows.append({"at": checkpoint, "agreement": rate(agree, len(judged))})
    return {"budget": settings.early_budget, "draw_band": DRAW_BAND, "checkpoints": rows}


def aggregate(records: list[GameResult], settings: Settings, players: list[str]) -> dict:
    """The statistics of a run's records (JSON-ready; see docs/CLI.md for the schema)."""
    n = len(records)
    draws = sum(r.outcome == DRAW for r in records)
    cut = sum(r.outcome is None for r in records)
    return {
        "seats": _seat_results(records, players),
        "scores": _agent_results(records, list(settings.agents)),
        "first_player_advantage": _advantage(records),
        "length": _length(records),
        "branching": _branching(records),
        "decided_early": _early(records, settings),
        "repetition": rate(sum(r.repeated for r in records), n),
        "drawishness": {"draw_rate": _r(draws / n if n else 0.0),
                        "cut_rate": _r(cut / n if n else 0.0)},
    }


def solution_facts(solution: Solution, start: State) -> dict:
    """What a solution says of the game: the start's value and remoteness, the positions,
    the share won by the side to move, and the longest forced win (None when the solution
    stays in the native solver's tables, which give no remoteness over all positions)."""
    value, remoteness = solution.lookup(start)
    counts = solution.counts()
    total = sum(counts.values())
    longest = None
    if len(solution.values) == len(solution):  # the values are here, not in C
        wins = [solution.remoteness[i] for i, v in enumerate(solution.values) if v == WIN]
        longest = max(wins, default=None)
    return {"value": value, "remoteness": remoteness, "positions": total,
            "counts": counts, "won_by_mover": _r(counts["win"] / total if total else 0.0),
            "longest_forced_win": longest}
