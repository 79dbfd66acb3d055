"""The `render` subcommand (`register`, called by interpreter/apps/cli.py): a position drawn as
an SVG picture (interpreter/runtime/picture.py), or PNG through cairosvg when it is installed.

    rulecraft render FILE [--position TEXT] [--ply TEXT] [--targets CELL] [--style S] [-o OUT]
"""

from __future__ import annotations

import argparse

from interpreter.apps.commands import (OK, UsageError, add_command, load_or_report, start_state,
    write_picture)
from interpreter.runtime.game import IllegalActionError
from interpreter.runtime.picture import STYLES, position_svg, targets_of


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `render` to the main parser's subcommands."""
    p = add_command(subparsers, "render", "draw a position as an SVG picture",
                    "Draw a position (default: the setup) as an SVG picture: the board with "
                    "coordinates on every edge, its regions shaded, the pieces with their "
                    "symbols, and under it the variables, the reserves and who is to move. "
                    "--ply plays a ply first and outlines the cells it changed; --targets "
                    "marks where the piece on a cell can go. A name ending in .png writes PNG "
                    "(needs the png extra: pip install 'rulecraft[png]').",
                    ["rulecraft render three-musketeers -o tm.svg",
                     "rulecraft render 3-a-side --ply g6-g5 -o after.svg",
                     "rulecraft render tricouleur --targets e3 > tricouleur.svg"])
    p.add_argument("file", metavar="FILE", help="a .game file or a bundled ruleset's name")
    p.add_argument("--position", metavar="TEXT", help="a position's text (default: the setup)")
    p.add_argument("--ply", metavar="TEXT", help="a legal ply to play first, shown as the last ply")
    p.add_argument("--targets", metavar="CELL", help="mark the cells the piece on CELL can go to")
    p.add_argument("--style", choices=STYLES, metavar="S",
                   help="squares, hexagons or points (default: from the board)")
    p.add_argument("-o", "--output", metavar="OUT", help="the file to write (default: stdout)")
    p.set_defaults(func=cmd_render)


def cmd_render(args: argparse.Namespace) -> int:
    """Write the picture of the position asked for."""
    game = load_or_report(args.file, bulk=False)
    state = start_state(game, args.position)
    before = last = None
    if args.ply is not None:
        try:
            last = game.action_from_input(state, args.ply)
        except IllegalActionError as e:
            raise UsageError(f"--ply: {e}") from None
        before, state = state, game.apply(state, last)
    targets: set[int] = set()
    if args.targets is not None:
        cell = game.ruleset.board.index.get(args.targets)
        if cell is None:
            raise UsageError(f"--targets: no cell '{args.targets}' on this board")
        targets = targets_of(game, state, cell)
    svg = position_svg(game, state, style=args.style, last=last, before=before, targets=sorted(targets))
    write_picture(svg, args.output)
    return OK
