"""The `rulecraft` command line: check, info, perft, random, play (and the commands of
the modules in COMMAND_MODULES).

Exit codes: 0 ok, 1 errors in a ruleset, 2 usage (bad arguments or position).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from typing import Sequence

from rulecraft.dsl.diagnostics import RulesetError, printable
from rulecraft.dsl.load import bundled_names, load

from .analysis import PerftBudgetError, perft, random_playouts
from . import completion
from .commands import PLAYERS, add_command, files_under
from .describe import outcome_of, rule_lines, rules_of
from .game import Game, PositionError, State
from .limits import RuleLimitError
from .progress import Meter
from .players import QuitGame, make_player

# Modules that add subcommands: each has `register(subparsers)`.
COMMAND_MODULES: list[str] = []
COMMAND_MODULES.append("rulecraft.interpreter.scenarios_cli")
COMMAND_MODULES.append("rulecraft.interpreter.search.cli")

OK, RULESET_ERROR, USAGE = 0, 1, 2


class UsageError(Exception):
    pass


# Bounds of the numeric options: (least, most). Beyond them a run could not end in a
# useful time, or the value is a typing slip; each is refused with exit 2.
LIMITS = {"depth": (0, 100), "games": (1, 10**9), "max_plies": (1, 10**9), "max_nodes": (1, 10**12),
          "seed": (0, 2**64 - 1)}


def load_or_report(name: str, as_json: bool = False) -> Game:
    """The compiled game, or its diagnostics printed and RulesetError raised."""
    try:
        return Game(load(name))
    except RulesetError as e:
        print(e.format(), file=sys.stderr)
        raise


def start_state(game: Game, position: str | None) -> State:
    if position is None:
        return game.initial_state()
    try:
        return game.state_from_text(position)
    except PositionError as e:
        raise UsageError(f"--position: {e}") from None


_emitted = [False]  # whether this command printed its JSON object already


def emit_json(data: object) -> None:
    print(json.dumps(data, indent=None, separators=(", ", ": ")))
    _emitted[0] = True


def _json_error(args, message: str, errors: list[str] | None = None) -> None:
    """With --json, a command that stops on an error still prints one object."""
    if getattr(args, "json", False) and not _emitted[0]:
        emit_json({"error": message} if errors is None else {"error": message, "errors": errors})


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


def cmd_check(args) -> int:
    status = OK
    results = []
    for name in ruleset_names(args.files):
        shown = printable(name)
        try:
            game = Game(load(name))
        except RulesetError as e:
            status = RULESET_ERROR
            results.append({"file": shown, "ok": False, "errors": e.formatted()})
            if not args.json:
                print(e.format(), file=sys.stderr)
            continue
        results.append({"file": shown, "ok": True, "title": game.title})
        if not args.json and not args.quiet:
            print(f"{shown}: ok ({printable(game.title)}: {game.board.size - len(game.board.goals)} cells, "
                  f"{len(game.legal_actions(game.initial_state()))} opening plies)")
    if args.json:
        emit_json({"results": results})
    return status


def cmd_info(args) -> int:
    game = load_or_report(args.file)
    state = start_state(game, args.position)
    rs = game.ruleset
    legal = [game.action_to_text(state, a) for a in game.legal_actions(state)]
    pieces, seen = [], {}
    for i, t in enumerate(rs.types):  # a wide kind has one type a piece: one line a kind
        key = (t.kind, t.owner)
        if key not in seen:
            seen[key] = len(pieces)
            pieces.append({"kind": t.kind, "owner": None if t.owner is None else game.players[t.owner],
                           "symbol": t.symbol, "size": t.size, "on_board": 0})
        pieces[seen[key]]["on_board"] += state[i].bit_count() // t.size
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
    dims = f" {b.width} x {b.height}" if b.shape == "square" else f" of side {b.width}"
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
        print("game over: " + ("a draw" if info["outcome"] == "draw" else f"{info['outcome']} wins"))
    else:
        print(f"{len(legal)} legal plies: {', '.join(legal)}")
    return OK


def cmd_perft(args) -> int:
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


def _perft_shown(game: Game, state: State, depth: int, args) -> int:
    """perft(depth), one root ply at a time under a progress bar when that shows anything."""
    if args.max_nodes is not None or depth < 3 or args.quiet or not sys.stderr.isatty():
        return perft(game, state, depth, max_nodes=args.max_nodes)
    actions = game.legal_actions(state)
    with Meter(f"perft({depth})", len(actions)) as meter:
        total = 0
        for a in actions:
            total += perft(game, game.apply(state, a), depth - 1)
            meter.advance()
    return total


def cmd_random(args) -> int:
    game = load_or_report(args.file)
    state = start_state(game, args.position)
    with Meter("games", args.games, quiet=args.quiet) as meter:
        stats = random_playouts(game, args.games, args.seed, args.max_plies, state, meter.advance)
    data = {
        "games": stats.games,
        "wins": {p: stats.wins[i] for i, p in enumerate(game.players)},
        "draws": stats.draws,
        "unfinished": stats.unfinished,
        "mean_length": round(stats.mean_length, 3),
        "plies_per_second": round(stats.plies_per_second),
        "seconds": round(stats.seconds, 3),
    }
    if args.json:
        emit_json(data)
        return OK
    wins = ", ".join(f"{p} {n}" for p, n in data["wins"].items())
    print(f"{stats.games} random games (seed {args.seed}): wins {wins}; draws {stats.draws}; "
          f"unfinished at {args.max_plies} plies {stats.unfinished}")
    print(f"mean length {stats.mean_length:.1f} plies; {stats.plies_per_second:,.0f} plies/s")
    return OK


def cmd_play(args) -> int:
    from .search.solver import SolveError  # the search package imports this module's users

    game = load_or_report(args.file)
    state = start_state(game, args.position)
    specs = args.players.split(",")
    if len(specs) != len(game.players):
        raise UsageError(f"--players takes {len(game.players)} comma-separated players "
                         f"({', '.join(game.players)} in that order)")
    try:
        agents = [make_player(spec.strip(), game, None if args.seed is None else args.seed + i,
                              sys.stdin, sys.stdout) for i, spec in enumerate(specs)]
    except ValueError as e:
        raise UsageError(f"--players: {e}") from None
    out = sys.stdout
    moves: list[str] = []
    try:
        while not game.is_terminal(state) and len(moves) < args.max_plies:
            out.write("\n" + game.render(state) + "\n")
            mover = game.to_move(state)
            legal = game.legal_actions(state)
            out.write("legal: " + ", ".join(game.action_to_text(state, a) for a in legal) + "\n")
            try:
                action = agents[mover](state)
            except (SolveError, ValueError) as e:  # a perfect player's solve past its caps
                raise UsageError(f"--players: {e}") from None
            text = game.action_to_text(state, action)
            if specs[mover].strip() != "human":
                out.write(f"{game.players[mover]} plays {text}\n")
            moves.append(f"{game.players[mover]} {text}")
            state = game.apply(state, action)
    except QuitGame:
        out.write("\nstopped.\n")
    except KeyboardInterrupt:  # the position so far, then the usual exit code
        out.write("\ninterrupted.\n")
        _game_summary(game, state, moves, out)
        raise
    else:
        if not game.is_terminal(state):
            out.write(f"\nstopped after {len(moves)} plies (--max-plies {args.max_plies}).\n")
    _game_summary(game, state, moves, out)
    return OK


def _game_summary(game: Game, state: State, moves: list[str], out) -> None:
    """The end of `play`: the final board, its text, the result and the plies made."""
    out.write("\n" + game.render(state) + "\n")
    out.write(f"position: {game.state_to_text(state)}\n")
    outcome = outcome_of(game, state)
    out.write("result: " + ("game going on" if outcome is None else
                            "draw" if outcome == "draw" else f"{outcome} wins") + "\n")
    out.write("moves:" + "".join(f"\n  {i}. {m}" for i, m in enumerate(moves, 1)) + "\n"
              if moves else "moves: none\n")


# ------------------------------------------------------------------ parser

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulecraft",
        description="Check, inspect, play and analyse board games written in the rulecraft language.",
        epilog="A bundled ruleset's name (e.g. three-musketeers) works wherever a FILE is asked.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

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

    p = add_command(sub, "play", "play in the terminal",
                    "Play a game: the board is drawn and the legal plies listed before each "
                    "ply. Type a ply in notation (any case), or any shorter form naming one "
                    "legal ply (its destination); ? lists the plies, quit stops. At the end: "
                    "the position, the result and every ply made. Players: " + PLAYERS + ".",
                    ["rulecraft play three-musketeers",
                     "rulecraft play 3-spot --players human,mcts:2000",
                     "rulecraft play tic-tac-toe --players perfect,random --seed 1"])
    p.add_argument("file", metavar="FILE", help="a .game file or a bundled ruleset's name")
    p.add_argument("--players", default="human,random", metavar="A,B",
                   help="who plays each side, in the order of the ruleset's players "
                        "(default human,random)")
    p.add_argument("--seed", type=int, default=None, metavar="S",
                   help="seed of the programs' random choices (default: a different game each time)")
    p.add_argument("--max-plies", type=int, default=10_000, metavar="N",
                   help="stop the game after N plies (default 10000)")
    p.add_argument("--position", metavar="TEXT", help="a position's text (default: the setup)")
    p.set_defaults(func=cmd_play)

    p = add_command(sub, "completion", "print a shell completion script",
                    "Print the completion script of a shell: commands, options, player forms, "
                    "bundled rulesets and .game files complete on Tab. Load it from your "
                    "shell's startup file.",
                    ['eval "$(rulecraft completion bash)"    # in ~/.bashrc',
                     'eval "$(rulecraft completion zsh)"     # in ~/.zshrc',
                     "rulecraft completion fish > ~/.config/fish/completions/rulecraft.fish"])
    p.add_argument("shell", choices=sorted(completion.SCRIPTS), help="the shell")
    p.set_defaults(func=cmd_completion)

    for module in COMMAND_MODULES:
        importlib.import_module(module).register(sub)
    return parser


def check_limits(args) -> str | None:
    """The first numeric option out of its bounds (LIMITS), as an error message."""
    for name, (least, most) in LIMITS.items():
        value = getattr(args, name, None)
        if value is not None and not least <= value <= most:
            option = "--" + name.replace("_", "-")
            if value < least:
                return f"{option} must be {'0 or more' if least == 0 else f'at least {least}'}"
            return f"{option} must be at most {most:,}"
    return None


def cmd_completion(args) -> int:
    print(completion.SCRIPTS[args.shell], end="")
    return OK


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["__complete"]:  # what the completion scripts ask
        print("\n".join(completion.candidates(parser, argv[1:], bundled_names())))
        return OK
    args = parser.parse_args(argv)
    problem = check_limits(args)
    if problem:
        print(f"rulecraft {args.command}: error: {problem}", file=sys.stderr)
        return USAGE
    _emitted[0] = False
    try:
        return args.func(args)
    except RulesetError as e:
        _json_error(args, "the ruleset has errors", e.formatted() or None)
        return RULESET_ERROR
    except RuleLimitError as e:  # a rule went past a bound in some position: the ruleset's
        print(str(e), file=sys.stderr)
        _json_error(args, str(e).split("\n", 1)[0])
        return RULESET_ERROR
    except UsageError as e:
        print(f"rulecraft {args.command}: error: {printable(str(e))}", file=sys.stderr)
        _json_error(args, printable(str(e)))
        return USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return OK


if __name__ == "__main__":
    sys.exit(main())
