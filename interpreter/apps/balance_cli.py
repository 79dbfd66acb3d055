"""The `balance` subcommand (`register`, called by interpreter/apps/cli.py): self-play between
two agents, reported as seat results with 95% Wilson intervals, first-player advantage,
game lengths, legal plies by ply, how early games are decided, repetitions and draws;
two rulesets side by side.

    rulecraft balance FILE [FILE] [--players A,B] [--games N] [--seed S] [--max-plies N]
                      [--jobs N] [--cluster ADDRESS] [--early-budget N]
                      [--checkpoints LIST] [--solution PATH] [--json] [--plot OUT]
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile

from interpreter.apps.balance import plot
from interpreter.apps.balance.report import build, text
from interpreter.apps.balance.selfplay import Settings, default_jobs, play_games, play_games_on
from interpreter.apps.balance.stats import aggregate, solution_facts
from interpreter.apps.commands import OK, UsageError, add_command, emit_json, load_or_report
from interpreter.runtime.game import Game
from interpreter.apps.progress import Meter
from interpreter.search.agents import make_agent
from interpreter.search.cluster import ClusterUnavailable, ray_run
from interpreter.search.solution import Solution
from interpreter.search.solver import SolveError, solve

MAX_FILES = 2  # side by side in 80 columns


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `balance` to the main parser's subcommands."""
    p = add_command(subparsers, "balance", "self-play balance report: seats, lengths, draws",
                    "Play N games between two programs, half with each in the first seat "
                    "(A first in the even-numbered games, so with an odd N A plays first once "
                    "more), on every core, and report each seat's wins, draws and losses with "
                    "95% Wilson score intervals, the first-player advantage, game lengths, "
                    "legal plies by ply, how often an MCTS at a few points of a game foresaw "
                    "its result, repeated positions and draws; with a solution, the game's "
                    "solved value. Two rulesets: side by side. Players: random, mcts:N, "
                    "alphabeta:D, perfect or perfect:PATH. The same seed gives the same "
                    "report, whatever --jobs.",
                    ["rulecraft balance tic-tac-toe --players random,random --games 1000",
                     "rulecraft balance 3-spot --players mcts:100,random --plot 3-spot.svg",
                     "rulecraft balance 3-spot 3-spot-misere --players mcts:50,mcts:50 --games 40"])
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="a .game file or a bundled ruleset's name; two: side by side")
    p.add_argument("--players", default="random,random", metavar="A,B",
                   help="the two programs (default random,random)")
    p.add_argument("--games", type=int, default=100, metavar="N",
                   help="games a ruleset (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the games (default 0)")
    p.add_argument("--max-plies", type=int, default=1000, metavar="N",
                   help="cut a game after N plies (default 1000)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="processes playing (default: one a core)")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="play the games as tasks on a Ray cluster: its address (HOST:PORT, "
                        "auto), or local (needs rulecraft[cluster]; the same report)")
    p.add_argument("--early-budget", type=int, default=50, metavar="N",
                   help="MCTS iterations of the check of how early a game is decided "
                        "(default 50; 0: no check)")
    p.add_argument("--checkpoints", default="25%,50%,75%", metavar="LIST",
                   help="where that check looks: plies (10,20,40) or shares of each game's "
                        "length (default 25%%,50%%,75%%)")
    p.add_argument("--solution", action="append", metavar="PATH",
                   help="a saved solution of the ruleset (once a FILE), for the solved value")
    p.add_argument("--json", action="store_true",
                   help="print the report as one JSON object (a list of them for two FILEs)")
    p.add_argument("--plot", metavar="OUT", help="draw a figure into OUT (.svg or .png)")
    p.set_defaults(func=cmd_balance)


def _specs(text: str) -> tuple[str, str]:
    """The two player specs of --players; a UsageError for another count or a person."""
    specs = [s.strip() for s in text.split(",")]
    if len(specs) != 2:
        raise UsageError("--players takes 2 comma-separated programs (A,B)")
    if "human" in specs:
        raise UsageError("--players: balance plays programs only (random, mcts:N, alphabeta:D, "
                         "perfect, perfect:PATH), not human")
    return specs[0], specs[1]


def _checkpoints(text: str) -> tuple[str, ...]:
    """The checkpoints of --checkpoints: plies (1 to 10^9) or shares (1% to 99%)."""
    out = []
    for part in text.split(","):
        part = part.strip()
        m = re.fullmatch(r"([0-9]{1,10})(%?)", part)
        if not m or (m[2] and not 1 <= int(m[1]) <= 99) or (not m[2] and not 1 <= int(m[1]) <= 10**9):
            raise UsageError(f"--checkpoints: {part[:30]!r} is neither a ply count (10) nor "
                             f"a share of the game's length from 1% to 99% (25%)")
        out.append(str(int(m[1])) + m[2])
    return tuple(out)


def _check_players(game: Game, specs: tuple[str, str]) -> None:
    """Make each program once, so that a bad spec stops the command before any game."""
    if len(game.players) != 2:
        raise UsageError(f"balance compares the two seats of a two-player game; {game.title} has "
                         f"{len(game.players)} players (`rulecraft random` counts each player's wins)")
    for spec in specs:
        if spec == "perfect" or (spec.startswith("perfect:") and spec != "perfect:"):
            continue  # checked with the solution (_solution)
        try:
            make_agent(spec, game, 0)
        except ValueError as e:
            raise UsageError(f"--players: {e}") from None


def _solution(game: Game, specs: tuple[str, str], path: str | None,
              args: argparse.Namespace) -> tuple[Solution | None, str | None]:
    """The run's solution and the file it was read from: --solution's, else a perfect:PATH
    player's, else solved here when a player is `perfect`; (None, None) without any."""
    paths = [path] if path else [s.partition(":")[2] for s in specs
                                 if s.startswith("perfect:") and s.partition(":")[2]]
    if paths:
        try:
            sol = Solution.load(paths[0], game)
        except ValueError as e:  # SolutionFileError: the message names the file
            raise UsageError(f"--solution: {e}" if path else f"--players: {e}") from None
    elif "perfect" in specs:
        try:
            sol = solve(game, progress=not args.quiet and sys.stderr.isatty())
        except SolveError as e:
            raise UsageError(f"--players: perfect: {e}") from None
    else:
        return None, None
    if game.initial_state() not in sol:
        raise UsageError("--solution: the solution does not hold the game's setup")
    return sol, paths[0] if paths else None


def _cluster(address: str):
    """The cluster's `run` function; UsageError if Ray is missing or the cluster is not there."""
    try:
        return ray_run(address)
    except ClusterUnavailable as e:
        raise UsageError(str(e)) from None


def _run(file: str, solution_path: str | None, settings: Settings, args: argparse.Namespace,
         workdir: str) -> tuple[dict, list]:
    """One ruleset's report and game records."""
    game = load_or_report(file)
    _check_players(game, settings.agents)
    solution, read_from = _solution(game, settings.agents, solution_path, args)
    jobs = args.jobs or default_jobs()
    shared = None
    apart = jobs > 1 or args.cluster is not None  # workers read the solution from a file
    if solution is not None and any(s.startswith("perfect") for s in settings.agents) and apart:
        shared = read_from
        if shared is None:  # solved here: the workers read it from a file of their own
            shared = os.path.join(workdir, f"{len(os.listdir(workdir))}.sol")
            solution.save(shared)
    run = Settings(settings.agents, settings.seed, settings.max_plies, settings.early_budget,
                   settings.checkpoints, shared)
    label = os.path.basename(file).removesuffix(".game")
    with Meter(f"{label}: games", args.games, quiet=args.quiet) as meter:
        if args.cluster is not None:
            records = play_games_on(_cluster(args.cluster), game, args.games, run,
                                    each_game=meter.advance)
        else:
            records = play_games(game, args.games, run, jobs, solution, meter.advance)
    facts = None if solution is None else solution_facts(solution, game.initial_state())
    report = build(file, game.title, list(game.players), args.games, settings,
                   aggregate(records, settings, list(game.players)), facts)
    return report, records


def cmd_balance(args: argparse.Namespace) -> int:
    """Self-play each ruleset, then print the reports (text side by side, or JSON) and
    draw the figure."""
    if len(args.files) > MAX_FILES:
        raise UsageError(f"at most {MAX_FILES} rulesets, side by side")
    if args.solution and len(args.solution) != len(args.files):
        raise UsageError("--solution: give one a FILE, in the same order")
    if args.plot:
        try:
            plot.check_target(args.plot)
        except (ValueError, plot.PlotUnavailable) as e:
            raise UsageError(str(e)) from None
    settings = Settings(_specs(args.players), args.seed, args.max_plies, args.early_budget,
                        _checkpoints(args.checkpoints))
    reports, records = [], []
    with tempfile.TemporaryDirectory(prefix="rulecraft-balance-") as workdir:
        for i, file in enumerate(args.files):
            report, recs = _run(file, args.solution[i] if args.solution else None, settings,
                                args, workdir)
            reports.append(report)
            records.append(recs)
    if args.plot:
        try:
            plot.write_plot(args.plot, reports, records)
        except OSError as e:
            raise UsageError(f"--plot: cannot write {args.plot}: {e.strerror or e}") from None
    if args.json:
        emit_json(reports[0] if len(reports) == 1 else reports)
    else:
        print(text(reports), end="")
    return OK
