"""The `replay` subcommand (`register`, called by interpreter/apps/cli.py): a game record read
back (interpreter/apps/records.py), every ply checked, and any point of the game shown.

    rulecraft replay RECORD [--at N] [--ruleset FILE] [--render OUT.svg]
"""

from __future__ import annotations

import argparse
import sys

from interpreter.apps.commands import OK, UsageError, add_command, load_or_report, write_picture
from interpreter.apps.describe import result_text
from interpreter.runtime.picture import position_svg
from interpreter.apps.records import RecordError, read_record, replay, turn_list
from interpreter.search.solution_file import fingerprint


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `replay` to the main parser's subcommands."""
    p = add_command(subparsers, "replay", "check and show a game record",
                    "Read a game record (written by `play --record`; format in "
                    "docs/RECORDS.md), check every ply against the rules and the result "
                    "against the plies, and show the board at the end or after ply N, with "
                    "the plies made. A bad ply is reported as FILE:LINE:COL.",
                    ["rulecraft play three-musketeers --players random,random --seed 1 --record g.txt",
                     "rulecraft replay g.txt",
                     "rulecraft replay g.txt --at 10 --render after10.svg"])
    p.add_argument("record", metavar="RECORD", help="a game record file")
    p.add_argument("--at", type=int, metavar="N", help="show the position after ply N (default: the end)")
    p.add_argument("--ruleset", metavar="FILE",
                   help="the ruleset to replay under (default: the record's `Ruleset:`)")
    p.add_argument("--render", metavar="OUT", help="also draw that position as SVG (or .png)")
    p.set_defaults(func=cmd_replay)


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay the record; print the position asked for and the plies up to it."""
    try:
        rec, text = read_record(args.record)
    except RecordError as e:
        print(e.format(), file=sys.stderr)
        return 1
    game = load_or_report(args.ruleset or rec.ruleset, bulk=False)
    if rec.fingerprint and rec.fingerprint != fingerprint(game) and not args.ruleset:
        raise UsageError(f"the record was played under another version of {rec.ruleset} "
                         "(its fingerprint differs); give the ruleset to replay under "
                         "with --ruleset")
    try:
        states = replay(rec, game, text)
    except RecordError as e:
        print(e.format(), file=sys.stderr)
        return 1
    at = len(rec.plies) if args.at is None else args.at
    if not 0 <= at <= len(rec.plies):
        raise UsageError(f"--at: the game has {len(rec.plies)} plies")
    state = states[at]
    out = sys.stdout
    out.write(game.render(state) + "\n")
    out.write(f"position: {game.state_to_text(state)}\n")
    out.write(f"after ply {at} of {len(rec.plies)}; result of the game: "
              f"{result_text(game, states[-1])}\n")
    out.write(turn_list(rec.movers[:at], rec.plies[:at]))
    if args.render:
        last = game.action_from_text(states[at - 1], rec.plies[at - 1]) if at else None
        write_picture(position_svg(game, state, last=last, before=states[at - 1] if at else None),
                      args.render)
    return OK
