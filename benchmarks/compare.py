#!/usr/bin/env python3
"""rulecraft against hand-written Python, on the same machine, with the same drivers.

    python benchmarks/compare.py [--quick] [--json] [--repeat N] [GAME...]

GAME is three-musketeers or 3-spot (default: both). For each, before any timing:
both implementations' perft is checked against the known counts, and along seeded
random games every position's legal plies, children and outcome are checked to be
the same in both (rulecraft's states mapped into the hand-written representation).

Then the drivers of run.py time both implementations at the same workloads, taking
turns so that the machine's load falls on both alike: perft at the depth where
rulecraft takes about 1-3 s (visiting: nodes/s; counting: leaves/s), seeded random
playouts (the same number of games; plies/s is the per-ply figure, since the two
pick different random moves from differently ordered lists), and `legal_actions`
on the same sampled positions. The ratio printed is rulecraft's
rate over the hand-written rate: 1.0 means as fast, 0.25 four times slower.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, replace
from typing import Any, Callable, Sequence

import run
from handwritten import three_musketeers, three_spot
from interpreter import Game, load_game, perft


@dataclass(frozen=True)
class Pair:
    """A bundled ruleset, its hand-written twin, and how states map between them."""

    ruleset: str
    hand: Any  # module: GAME, KNOWN_PERFT
    to_hand: Callable[[Game, tuple], Any]  # a rulecraft state -> the hand-written state
    canon: Callable[[Any], tuple]  # a hand-written state -> what both must agree on


def _musketeers_to_hand(game: Game, s: tuple) -> Any:
    # Same cell numbering; rulecraft's layout is (musketeers, enemies, player, phase, outcome).
    return (s[0], s[1], s[game._P])


def _musketeers_canon(h: Any) -> tuple:
    w = three_musketeers.winner(h)
    return (h[0], h[1], "over", w) if w is not None else (h[0], h[1], h[2])


_SPOT_INDEX = {mask: i for i, mask in enumerate(three_spot.PL)}


def _spot_to_hand(game: Game, s: tuple) -> Any:
    # rulecraft: (blue, red, white masks, player, phase, score Blue, score Red, outcome)
    L = game.layout
    score = L.var_offsets["score"]
    return (_SPOT_INDEX[s[0]], _SPOT_INDEX[s[1]], _SPOT_INDEX[s[2]], s[score], s[score + 1],
            s[L.P], s[L.PH], s[L.OUT])


def _spot_canon(h: Any) -> tuple:
    w = three_spot.winner(h)
    return h[:5] + (("over", w) if w is not None else (h[5], h[6]))


PAIRS = {
    "three-musketeers": Pair("three-musketeers", three_musketeers, _musketeers_to_hand,
                             _musketeers_canon),
    "3-spot": Pair("3-spot", three_spot, _spot_to_hand, _spot_canon),
}


def verify(pair: Pair, game: Game, games: int, seed: int) -> int:
    """Check both implementations agree along seeded random games; the positions checked."""
    hand = pair.hand.GAME
    known = pair.hand.KNOWN_PERFT
    root = hand.initial_state()
    got = [perft(hand, root, d) for d in range(1, len(known) + 1)]
    assert got == known, f"hand-written {pair.ruleset} perft {got} != {known}"
    assert run.known_perft_ok(game, known), f"rulecraft {pair.ruleset} perft is wrong"
    assert pair.canon(pair.to_hand(game, game.initial_state())) == pair.canon(root)
    rng = random.Random(seed)
    checked = 0
    for _ in range(games):
        s = game.initial_state()
        for _ in range(run.MAX_PLIES):
            h = pair.to_hand(game, s)
            assert hand.winner(h) == game.winner(s), game.state_to_text(s)
            actions = game.legal_actions(s)
            mine = sorted(pair.canon(pair.to_hand(game, game.apply_unchecked(s, a))) for a in actions)
            theirs = sorted(pair.canon(hand.apply(h, a)) for a in hand.legal_actions(h))
            assert mine == theirs, game.state_to_text(s)
            checked += 1
            if not actions:
                break
            s = game.apply_unchecked(s, rng.choice(actions))
    return checked


def _best(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Two measurements of one workload merged: each rate's best, each time's best."""
    if not a:
        return b
    out = dict(b)
    for key, value in a.items():
        if key.endswith("per_second"):
            out[key] = max(value, b[key])
        elif key.endswith("seconds"):
            out[key] = min(value, b[key])
    return out


def compare(pair: Pair, st: run.Settings) -> dict[str, Any]:
    """Time both implementations on the same workloads; rates and rulecraft/hand-written ratios."""
    game = load_game(pair.ruleset)
    hand = pair.hand.GAME
    checked = verify(pair, game, 20 if st.low < 1 else 200, st.seed)

    # One run each sets the workloads (from rulecraft's speed); then the two take turns,
    # so that a change in the machine's load falls on both alike. Best of N for each.
    once = replace(st, repeat=1)
    positions = run.sample_positions(game, st.positions, st.seed)
    hand_positions = [pair.to_hand(game, s) for s in positions]
    rc_perft = run.bench_perft(game, once)
    rc_play = run.bench_playouts(game, once)
    rc_gen = run.bench_movegen(game, positions, once)
    depth, games, rounds = rc_perft["depth"], rc_play["games"], rc_gen["rounds"]
    hw_perft = hw_play = hw_gen = {}
    for k in range(st.repeat):
        if k:
            rc_perft = _best(rc_perft, run.bench_perft(game, once, depth))
            rc_play = _best(rc_play, run.bench_playouts(game, once, games))
            rc_gen = _best(rc_gen, run.bench_movegen(game, positions, once, rounds))
        hw_perft = _best(hw_perft, run.bench_perft(hand, once, depth))
        hw_play = _best(hw_play, run.bench_playouts(hand, once, games))
        hw_gen = _best(hw_gen, run.bench_movegen(hand, hand_positions, once, rounds))
    assert rc_perft["leaves"] == hw_perft["leaves"] and rc_perft["nodes"] == hw_perft["nodes"]

    rows = [("perft nodes/s", rc_perft["nodes_per_second"], hw_perft["nodes_per_second"]),
            ("perft leaves/s", rc_perft["leaves_per_second"], hw_perft["leaves_per_second"]),
            ("playout plies/s", rc_play["plies_per_second"], hw_play["plies_per_second"]),
            ("playouts/s", rc_play["playouts_per_second"], hw_play["playouts_per_second"]),
            ("legal_actions calls/s", rc_gen["calls_per_second"], hw_gen["calls_per_second"])]
    return {"ruleset": pair.ruleset, "positions_verified": checked, "depth": rc_perft["depth"],
            "games": rc_play["games"],
            "mean_length": [rc_play["mean_length"], hw_play["mean_length"]],
            "rows": [{"measure": m, "rulecraft": a, "handwritten": b, "ratio": a / b}
                     for m, a, b in rows],
            "rulecraft": {"perft": rc_perft, "playouts": rc_play, "movegen": rc_gen},
            "handwritten": {"perft": hw_perft, "playouts": hw_play, "movegen": hw_gen}}


def report(r: dict[str, Any]) -> str:
    """One game's comparison as text."""
    lines = [f"{r['ruleset']}: {r['positions_verified']} positions verified identical; "
             f"perft depth {r['depth']}; {r['games']} playouts (mean length "
             f"{r['mean_length'][0]:.1f} rulecraft, {r['mean_length'][1]:.1f} hand-written)",
             f"  {'measure':<22}{'rulecraft':>11}{'hand-written':>14}{'ratio':>8}"]
    for row in r["rows"]:
        lines.append(f"  {row['measure']:<22}{run.human(row['rulecraft']):>11}"
                     f"{run.human(row['handwritten']):>14}{row['ratio']:>8.2f}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Compare every requested game; exit 0 (a disagreement raises AssertionError)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", metavar="GAME",
                    help=f"one of {', '.join(PAIRS)} (default: all)")
    ap.add_argument("--quick", action="store_true", help="short runs, rough figures")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--repeat", type=int, default=None, help="best of N runs (default 3, quick 1)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the playouts and samples")
    args = ap.parse_args(argv)
    if args.repeat is not None and args.repeat < 1:
        ap.error("--repeat must be 1 or more")
    unknown = [g for g in args.games if g not in PAIRS]
    if unknown:
        ap.error(f"no hand-written twin for {', '.join(unknown)} (games: {', '.join(PAIRS)})")
    st = run.Settings.make(args.quick, args.repeat, args.seed)
    info = run.machine()
    results = []
    if not args.json:
        print(f"machine: {info['cpu']}, {info['nproc']} cpus, {info['python']}; "
              f"best of {st.repeat}; ratio = rulecraft rate / hand-written rate")
    for name in args.games or list(PAIRS):
        r = compare(PAIRS[name], st)
        results.append(r)
        if not args.json:
            print(report(r), flush=True)
    if args.json:
        print(json.dumps({"machine": info, "results": results}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
