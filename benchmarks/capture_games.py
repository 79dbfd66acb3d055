"""Legal-ply generation in Tricouleur and Whistling Captures: the opening and crowded middle games.

    python benchmarks/capture_games.py [--repeat N]

A crowded middle game is a position reached by seeded random plies while at least 30
stones (Tricouleur) or 36 (Whistling Captures) remain; for each position the table gives
the plies and the chains searched, and the time per `legal_actions` call (best of N).
Chains have no length bound; the longest chain found is reported.
"""

from __future__ import annotations

import argparse
import random
import time

from interpreter import load_game

CROWDED = {"tricouleur": 30, "whistling-captures": 36}


def stones(game, state) -> int:
    return sum(bin(state[i]).count("1") for i in range(game.layout.types))


def positions(game, name: str, count: int, seed: int) -> list[tuple[str, tuple]]:
    """The opening, then `count` crowded positions from seeded random games."""
    out = [("opening", game.initial_state())]
    rng = random.Random(seed)
    while len(out) <= count:
        s = game.initial_state()
        for ply in range(rng.randrange(8, 40)):
            acts = game.legal_actions(s)
            if not acts:
                break
            s = game.apply_unchecked(s, rng.choice(acts))
        if not game.is_terminal(s) and stones(game, s) >= CROWDED[name]:
            out.append((f"ply {ply + 1}, {stones(game, s)} stones", s))
    return out


def best_time(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        begin = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - begin)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name in CROWDED:
        game = load_game(name)
        print(f"{name}")
        print(f"  {'position':<28} {'plies':>6} {'most segments':>14} {'ms per call':>12}")
        for label, s in positions(game, name, args.positions, args.seed):
            acts = game.legal_actions(s)
            longest = max((len(game.action_to_text(s, a).split("-")) - 1 for a in acts), default=0)
            ms = best_time(lambda: game.legal_actions(s), args.repeat) * 1000
            print(f"  {label:<28} {len(acts):>6} {longest:>14} {ms:>12.3f}")


if __name__ == "__main__":
    main()
