"""The `play` subcommand (`register`, called by interpreter/apps/cli.py): a game in the terminal
between people (`human`) and programs (interpreter/search/agents.py).

    rulecraft play FILE [--players A,B] [--seed S] [--max-plies N] [--position TEXT]
"""

from __future__ import annotations

import argparse
import sys
from typing import Callable, TextIO

from interpreter.apps.commands import (OK, PLAYERS, UsageError, add_command, load_or_report,
    start_state)
from interpreter.runtime.game import Action, Game, State
from interpreter.apps.describe import result_text
from interpreter.apps.records import record_game, turn_list, write_record
from interpreter.apps.terminal_colour import CHOICES, painter, wants_colour
from interpreter.search.agents import Agent, QuitGame, make_player
from interpreter.search.solver import Solution, SolveError


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `play` to the main parser's subcommands."""
    p = add_command(subparsers, "play", "play in the terminal",
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
    p.add_argument("--colour", choices=CHOICES, default="auto",
                   help="pieces in their colours: auto (on a colour terminal, unless NO_COLOR "
                        "is set), always or never")
    p.add_argument("--record", metavar="FILE",
                   help="write the game's record to FILE at the end (see `rulecraft replay`)")
    p.set_defaults(func=cmd_play)


def _players(game: Game, args: argparse.Namespace) -> list[Agent]:
    """The agent of each side, from `--players`; a UsageError for a bad spec or count."""
    specs = args.players.split(",")
    if len(specs) != len(game.players):
        raise UsageError(f"--players takes {len(game.players)} comma-separated players "
                         f"({', '.join(game.players)} in that order)")
    shared: dict[str, list[Solution | None]] = {}  # perfect players: one file read, one solve
    try:
        return [make_player(spec.strip(), game, None if args.seed is None else args.seed + i,
                            sys.stdin, sys.stdout, shared) for i, spec in enumerate(specs)]
    except ValueError as e:
        raise UsageError(f"--players: {e}") from None


def cmd_play(args: argparse.Namespace) -> int:
    """Play until the game ends, a person quits or --max-plies; then the summary."""
    game = load_or_report(args.file)
    state = start = start_state(game, args.position)
    agents = _players(game, args)
    actions: list[Action] = []
    humans = [spec.strip() == "human" for spec in args.players.split(",")]
    out = sys.stdout
    paint = painter(game) if wants_colour(args.colour, out) else None
    moves: list[tuple[str, str]] = []  # (player, ply)
    try:
        while not game.is_terminal(state) and len(moves) < args.max_plies:
            out.write("\n" + game.render(state, paint) + "\n")
            mover = game.to_move(state)
            legal = game.legal_actions(state)
            out.write("legal: " + ", ".join(game.action_to_text(state, a) for a in legal) + "\n")
            try:
                action = _think(agents[mover], state, game.players[mover], not humans[mover])
            except (SolveError, ValueError) as e:  # a perfect player's solve past its caps
                raise UsageError(f"--players: {e}") from None
            text = game.action_to_text(state, action)
            if not humans[mover]:  # a person's ply is on the screen already
                out.write(f"{game.players[mover]} plays {text}\n")
            moves.append((game.players[mover], text))
            actions.append(action)
            state = game.apply_unchecked(state, action)
    except QuitGame:
        out.write("\nstopped.\n")
    except KeyboardInterrupt:  # the position so far, then the usual exit code
        out.write("\ninterrupted.\n")
        _game_summary(game, state, moves, out, paint)
        _record(game, args, start, actions)
        raise
    else:
        if not game.is_terminal(state):
            out.write(f"\nstopped after {len(moves)} plies (--max-plies {args.max_plies}).\n")
    _game_summary(game, state, moves, out, paint)
    _record(game, args, start, actions)
    return OK


def _think(agent: Agent, state: State, name: str, machine: bool) -> Action:
    """The agent's ply; on a terminal, `NAME is thinking...` shown (on stderr) meanwhile."""
    shown = machine and sys.stderr.isatty()
    if shown:
        sys.stderr.write(f"{name} is thinking...")
        sys.stderr.flush()
    try:
        return agent(state)
    finally:
        if shown:
            sys.stderr.write("\r\x1b[K")
            sys.stderr.flush()


def _record(game: Game, args: argparse.Namespace, start: State, actions: list[Action]) -> None:
    """With --record, the game's record written to its file."""
    if args.record is None:
        return
    rec = record_game(game, args.file, [p.strip() for p in args.players.split(",")], start, actions)
    try:
        write_record(rec, args.record)
    except OSError as e:
        raise UsageError(f"--record: cannot write {args.record}: {e.strerror}") from None
    print(f"record written to {args.record}")


def _game_summary(game: Game, state: State, moves: list[tuple[str, str]], out: TextIO,
                  paint: Callable[[int, str], str] | None) -> None:
    """The end of `play`: the final board, its text, the result and the plies made."""
    out.write("\n" + game.render(state, paint) + "\n")
    out.write(f"position: {game.state_to_text(state)}\n")
    out.write(f"result: {result_text(game, state)}\n")
    out.write(turn_list([p for p, _ in moves], [t for _, t in moves]))
