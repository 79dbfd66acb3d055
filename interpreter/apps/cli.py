"""The `rulecraft` command line: `main(argv)` parses the arguments and runs a command.

This module adds check, compile, info, perft, random and completion; the modules of
COMMAND_MODULES add the others through their `register(subparsers)`. They take what
commands share from commands.py and never import this module: imports point one way.

Exit codes: 0 ok, 1 errors in a ruleset, 2 usage (bad arguments or position).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Sequence

from dsl.dump import dump
from dsl.diagnostics import RulesetError, printable
from dsl.load import bundled_names, load

from interpreter.apps import (balance_cli, completion, lsp_cli, play_cli, render_cli, replay_cli,
    scenarios_cli, web_cli)
from interpreter.search.analysis import PerftBudgetError, perft, random_playouts
from interpreter.apps.commands import (OK, RULESET_ERROR, USAGE, UsageError, add_command,
    command_started, make_game, emit_json, errors_reported, files_under, json_error,
    load_or_report, load_ruleset_or_report, start_state)
from interpreter.python.compile import compile_ruleset
from interpreter.apps.describe import outcome_of, pieces_on_board, result_text, rule_lines, rules_of
from interpreter.apps.setup_over import over_at_setup
from interpreter.runtime.game import Game, State
from interpreter.runtime.limits import RuleLimitError
from interpreter.native.build import NativeUnavailable
from interpreter.apps.progress import Meter
from interpreter.apps import solve_cli as search_cli

# The modules that add subcommands, each with `register(subparsers)`, in the help's order.
COMMAND_MODULES = (play_cli, replay_cli, render_cli, scenarios_cli, search_cli, balance_cli, lsp_cli, web_cli)

# Bounds of the numeric options: (least, most). Beyond them a run could not end in a
# useful time, or the value is a typing slip; each is refused with exit 2.
LIMITS = {"depth": (0, 100), "games": (1, 10**9), "max_plies": (1, 10**9), "max_nodes": (1, 10**12),
          "seed": (0, 2**64 - 1), "jobs": (1, 1024), "early_budget": (0, 10**6)}


# ------------------------------------------------------------------ commands

def ruleset_names(names: Sequence[str]) -> list[str]:
    """Each name given, with a folder standing for the `.game` files under it (sorted); a
    folder named like a ruleset (`x.game`) stays a name, to be refused as one."""
    out: list[str] = []
    for name in names:
        if os.path.isdir(name) and not name.endswith(".game"):
            found = files_under(name, ".game")
            if not found:
                raise UsageError(f"no ruleset (*.game) in the folder '{printable(name)}'")
            out.extend(found)
        else:
            out.append(name)
    return out


def _add_check(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "check", "validate rulesets",
                    "Check each ruleset (a folder: every .game file under it) and print an ok "
                    "line for each good one, every error of each bad one (file:line:col, the "
                    "line, a caret, a hint). Exit 1 if any ruleset has errors.",
                    ["rulecraft check three-musketeers 3-spot",
                     "rulecraft check rulesets/", "rulecraft check --json my-variant.game"])
    p.add_argument("files", nargs="+", metavar="FILE_OR_DIR",
                   help="a .game file, a bundled ruleset's name, or a folder")
    p.add_argument("--json", action="store_true", help='print {"results": [...]} instead')
    p.set_defaults(func=cmd_check)


def cmd_check(args: argparse.Namespace) -> int:
    """An ok line (or the diagnostics) for each ruleset, after its warnings; exit 1 if any
    has errors (warnings alone keep it ok)."""
    status = OK
    results = []
    for name in ruleset_names(args.files):
        shown = printable(name)
        try:
            game = make_game(load(name), bulk=False)
        except RulesetError as e:
            status = RULESET_ERROR
            results.append({"file": shown, "ok": False, "errors": e.formatted()})
            if not args.json:
                print(e.format(), file=sys.stderr)
            continue
        warnings = game.ruleset.warnings + [w for w in [over_at_setup(game)] if w is not None]
        results.append({"file": shown, "ok": True, "title": game.title,
                        "warnings": [w.format(game.ruleset.sources) for w in warnings]})
        if not args.json:
            for w in warnings:
                print(w.format(game.ruleset.sources), file=sys.stderr)
        if not args.json and not args.quiet:
            print(f"{shown}: ok ({printable(game.title)}: {game.board.size - len(game.board.goals)} cells, "
                  f"{len(game.legal_actions(game.initial_state()))} opening plies)")
    if args.json:
        emit_json({"results": results})
    return status


def _add_info(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "info", "a game's rules and a position",
                    "Show the players, board, pieces, variables and their ranges, regions, the "
                    "turn, the end rules in order (with the implicit last one), then a "
                    "position drawn, its text and its legal plies (or who won).",
                    ["rulecraft info 3-spot", "rulecraft info tic-tac-toe --position 'XXX/OO./... O'",
                     "rulecraft info force-3 --json"])
    p.add_argument("file", metavar="FILE", help="a .game file or a bundled ruleset's name")
    p.add_argument("--position", metavar="TEXT", help="a position's text (default: the setup)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead")
    p.set_defaults(func=cmd_info)


def cmd_info(args: argparse.Namespace) -> int:
    """The rules of a game, and a position with its legal plies or outcome."""
    game = load_or_report(args.file, bulk=False)
    state = start_state(game, args.position)
    rs = game.ruleset
    legal = [game.action_to_text(state, a) for a in game.legal_actions(state)]
    pieces = pieces_on_board(game, state)
    info = {
        "title": game.title,
        "players": game.players,
        "board": {"shape": game.board.shape, "cells": game.board.size - len(game.board.goals),
                  "width": game.board.width, "height": game.board.height,
                  "goals": [game.board.names[g] for g in game.board.goals]},
        "pieces": pieces,
        "variables": [{"name": v.name, "per_player": v.per_player, "initial": v.initial,
                       "range": [v.low, v.high]} for v in rs.vars],
        "plies": [p.name for p in rs.plies],
        **rules_of(game),
        "position": game.state_to_text(state),
        "to_move": None if game.is_terminal(state) else game.players[game.to_move(state)],
        "outcome": outcome_of(game, state),
        "legal": legal,
    }
    if args.json:
        emit_json(info)
        return OK
    print(f"{printable(game.title)}  ({printable(rs.path)})")
    print(f"players: {', '.join(game.players)} ({game.players[0]} moves first)")
    b = game.board
    dims = f" {b.width} x {b.height}" if b.shape in ("square", "rhombus") else f" of side {b.width}"
    goals = f", goals {', '.join(b.names[g] for g in b.goals)}" if b.goals else ""
    print(f"board: {b.shape}{dims}, {b.size - len(b.goals)} cells{goals}")
    for p in pieces:
        owner = p["owner"] or "neutral"
        size = f", covers {p['size']} cells" if p["size"] > 1 else ""
        print(f"piece {p['kind']} ({owner}): symbol {p['symbol']}, {p['on_board']} on the board{size}")
    for v in rs.vars:
        print(f"variable {v.name}{' per player' if v.per_player else ''}, starts at {v.initial}, "
              f"kept in {v.low}..{v.high}")
    print(f"plies: {', '.join(info['plies'])}")
    for line in rule_lines(game, info):
        print(printable(line))
    print()
    print(game.render(state))
    print(f"position: {info['position']}")
    if info["outcome"] is not None:
        print(f"game over: {result_text(game, state)}")
    else:
        print(f"{len(legal)} legal plies: {', '.join(legal)}")
    return OK


def _add_perft(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "perft", "count the leaves of the game tree to a depth",
                    "Count the positions reached by every sequence of 1, 2, ... N plies (one "
                    "ply per action; a finished game has none), with the time each took.",
                    ["rulecraft perft three-musketeers --depth 5",
                     "rulecraft perft 3-spot --depth 4 --json",
                     "rulecraft perft whistling-captures --depth 3 --max-nodes 100000"])
    p.add_argument("file", metavar="FILE", help="a .game file or a bundled ruleset's name")
    p.add_argument("--depth", type=int, required=True, metavar="N", help="plies deep, 0 to 100")
    p.add_argument("--position", metavar="TEXT", help="a position's text (default: the setup)")
    p.add_argument("--max-nodes", type=int, metavar="N",
                   help="stop (exit 2) past N positions at one depth (default: no limit)")
    p.add_argument("--json", action="store_true", help='print {"perft": [p1, ..., pN]} instead')
    p.set_defaults(func=cmd_perft)


def cmd_perft(args: argparse.Namespace) -> int:
    """perft(1) to perft(N), each with its time."""
    game = load_or_report(args.file)
    state = start_state(game, args.position)
    counts: list[int] = []
    for depth in range(1, args.depth + 1):
        begin = time.perf_counter()
        try:
            n = _perft_shown(game, state, depth, args)
        except PerftBudgetError as e:
            if args.json:
                emit_json({"perft": counts, "error": str(e)})
            raise UsageError(str(e)) from None
        seconds = time.perf_counter() - begin
        counts.append(n)
        if not args.json:
            rate = f"{n / seconds:,.0f} leaves/s" if seconds > 0 else ""
            print(f"perft({depth}) = {n:,}  ({seconds:.3f} s, {rate})")
    if args.json:
        emit_json({"perft": counts})
    return OK


def _perft_shown(game: Game, state: State, depth: int, args: argparse.Namespace) -> int:
    """perft(depth), one root ply at a time under a progress bar when that shows anything."""
    if args.max_nodes is not None or depth < 3 or args.quiet or not sys.stderr.isatty():
        return perft(game, state, depth, max_nodes=args.max_nodes)
    actions = game.legal_actions(state)
    with Meter(f"perft({depth})", len(actions)) as meter:
        total = 0
        for a in actions:
            total += perft(game, game.apply_unchecked(state, a), depth - 1)
            meter.advance()
    return total


def _add_random(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "random", "random playouts: outcomes, mean length, speed",
                    "Play games at random (each ply uniformly among the legal ones) and count "
                    "wins, draws and unfinished games, the mean length and the speed.",
                    ["rulecraft random tricouleur --games 20",
                     "rulecraft random 3-a-side --games 100 --max-plies 300 --seed 7 --json"])
    p.add_argument("file", metavar="FILE", help="a .game file or a bundled ruleset's name")
    p.add_argument("--games", type=int, default=100, metavar="N", help="how many (default 100)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="seed of the random choices (default 0)")
    p.add_argument("--max-plies", type=int, default=1000, metavar="N",
                   help="stop a game after N plies, counted as unfinished (default 1000)")
    p.add_argument("--position", metavar="TEXT", help="a position's text (default: the setup)")
    p.add_argument("--json", action="store_true", help="print one JSON object instead")
    p.set_defaults(func=cmd_random)


def cmd_random(args: argparse.Namespace) -> int:
    """Random playouts: outcomes, mean length, speed."""
    game = load_or_report(args.file)
    state = start_state(game, args.position)
    with Meter("games", args.games, quiet=args.quiet) as meter:
        stats = random_playouts(game, args.games, args.seed, args.max_plies, state,
                               None if game.native else meter.advance)
    data = {
        "games": stats.games,
        "wins": {p: stats.wins[i] for i, p in enumerate(game.players)},
        "draws": stats.draws,
        **({"losses": {p: stats.losses[i] for i, p in enumerate(game.players)}} if len(game.players) > 2 else {}),
        "unfinished": stats.unfinished,
        "mean_length": round(stats.mean_length, 3),
        "plies_per_second": round(stats.plies_per_second),
        "seconds": round(stats.seconds, 3),
    }
    if args.json:
        emit_json(data)
        return OK
    wins = ", ".join(f"{p} {n}" for p, n in data["wins"].items())
    lost = "".join(f"; {p} lost {n}" for p, n in data.get("losses", {}).items())
    print(f"{stats.games} random games (seed {args.seed}): wins {wins}{lost}; draws {stats.draws}; "
          f"unfinished at {args.max_plies} plies {stats.unfinished}")
    print(f"mean length {stats.mean_length:.1f} plies; {stats.plies_per_second:,.0f} plies/s")
    return OK


def _add_compile(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "compile", "compile a ruleset; show the Python generated for it",
                    "Check a ruleset and compile it into the Python code that plays it, as "
                    "every command does before it starts; print how many ply rules and lines "
                    "of code that made, with --emit-source the code itself, or with "
                    "--emit-model the checked game model the code is generated from.",
                    ["rulecraft compile three-musketeers",
                     "rulecraft compile tic-tac-toe --emit-source | less",
                     "rulecraft compile my-variant.game --json"])
    p.add_argument("file", metavar="FILE", help="a .game file or a bundled ruleset's name")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--emit-source", action="store_true",
                      help="print the generated Python source instead of a summary")
    what.add_argument("--emit-model", action="store_true",
                      help="print the checked game model (names resolved, types known) instead")
    p.add_argument("--json", action="store_true",
                   help='print {"file", "title", "rules", "lines"} (and "source" with '
                        '--emit-source, "model" with --emit-model) instead')
    p.set_defaults(func=cmd_compile)


def cmd_compile(args: argparse.Namespace) -> int:
    """Check and compile a ruleset: a summary line, or the generated source."""
    ruleset = load_ruleset_or_report(args.file)
    with errors_reported():  # a ruleset too large to compile is a ruleset error too
        source = compile_ruleset(ruleset).source
    lines = source.count("\n") + (not source.endswith("\n"))
    shown = printable(args.file)
    if args.emit_model and not args.json:
        print(dump(ruleset))
    elif args.json:
        data = {"file": shown, "title": ruleset.title, "rules": len(ruleset.plies), "lines": lines}
        extra = {"source": source} if args.emit_source else {"model": dump(ruleset)} \
            if args.emit_model else {}
        emit_json({**data, **extra})
    elif args.emit_source:  # as generated: the language keeps control characters out of names
        print(source, end="" if source.endswith("\n") else "\n")
    elif not args.quiet:
        rules = f"{len(ruleset.plies)} ply rule{'' if len(ruleset.plies) == 1 else 's'}"
        print(f"{shown}: ok ({printable(ruleset.title)}: {rules} compiled to {lines:,} lines of Python)")
    return OK


def _add_completion(sub: argparse._SubParsersAction) -> None:
    p = add_command(sub, "completion", "print a shell completion script",
                    "Print the completion script of a shell: commands, options, player forms, "
                    "bundled rulesets and .game files complete on Tab. Load it from your "
                    "shell's startup file.",
                    ['eval "$(rulecraft completion bash)"    # in ~/.bashrc',
                     'eval "$(rulecraft completion zsh)"     # in ~/.zshrc',
                     "rulecraft completion fish > ~/.config/fish/completions/rulecraft.fish"])
    p.add_argument("shell", choices=sorted(completion.SCRIPTS), help="the shell")
    p.set_defaults(func=cmd_completion)


def cmd_completion(args: argparse.Namespace) -> int:
    """Print a shell's completion script."""
    print(completion.SCRIPTS[args.shell], end="")
    return OK


# ------------------------------------------------------------------ parser

class _Version(argparse.Action):
    """`--version`: the installed distribution's version, looked up only when asked
    (importlib.metadata alone would add a noticeable part of the start-up time)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS, help: str | None = None) -> None:
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        import rulecraft

        print(f"rulecraft {rulecraft.__version__}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command, listed in its help in the order added here."""
    parser = argparse.ArgumentParser(
        prog="rulecraft",
        description="Check, inspect, play and analyse board games written in the rulecraft language.",
        epilog="A bundled ruleset's name (e.g. three-musketeers) works wherever a FILE is asked.")
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for add in (_add_check, _add_compile, _add_info, _add_perft, _add_random):
        add(sub)
    for module in COMMAND_MODULES:
        module.register(sub)
    _add_completion(sub)  # last: not a command on games
    return parser


def check_limits(args: argparse.Namespace) -> str | None:
    """The first numeric option out of its bounds (LIMITS), as an error message."""
    for name, (least, most) in LIMITS.items():
        value = getattr(args, name, None)
        if value is not None and not least <= value <= most:
            option = "--" + name.replace("_", "-")
            if value < least:
                return f"{option} must be {'0 or more' if least == 0 else f'at least {least}'}"
            return f"{option} must be at most {most:,}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command of `argv` (default: the process's arguments); its exit code."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:  # `rulecraft` alone: what there is to run
        parser.print_help()
        return OK
    if argv[0] == "__complete":  # what the completion scripts ask
        print("\n".join(completion.candidates(parser, argv[1:], bundled_names())))
        return OK
    args = parser.parse_args(argv)
    problem = check_limits(args)
    if problem:
        print(f"rulecraft {args.command}: error: {problem}", file=sys.stderr)
        return USAGE
    try:
        command_started(args)
        return args.func(args)
    except RulesetError as e:
        json_error(args, "the ruleset has errors", e.formatted() or None)
        return RULESET_ERROR
    except RuleLimitError as e:  # a rule went past a bound in some position: the ruleset's
        print(str(e), file=sys.stderr)
        json_error(args, str(e).split("\n", 1)[0])
        return RULESET_ERROR
    except UsageError as e:
        print(f"rulecraft {args.command}: error: {printable(str(e))}", file=sys.stderr)
        json_error(args, printable(str(e)))
        return USAGE
    except NativeUnavailable as e:
        print(f"rulecraft {args.command}: error: the native back-end: {e}", file=sys.stderr)
        json_error(args, f"the native back-end: {e}")
        return USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return OK


if __name__ == "__main__":
    sys.exit(main())
