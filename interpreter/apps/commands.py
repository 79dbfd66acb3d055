"""What the modules that add commands share: how a command introduces itself in `--help`
(descriptions and examples; options describe themselves), the exit codes, the usage
error, loading the ruleset and position a command is given, and JSON output.

The main command line (cli.py) imports the modules that add commands; they import this
module, never cli.py, so that imports point one way.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from contextlib import contextmanager
from typing import Iterator

from dsl.check import Ruleset
from dsl.diagnostics import RulesetError
from dsl.load import load

from interpreter.runtime.game import Game, PositionError, State

OK, RULESET_ERROR, USAGE = 0, 1, 2

PLAYERS = ("human (you type the plies), random, mcts:N (N iterations a ply) or mcts:Ts "
           "(T seconds a ply), alphabeta:D or alphabeta:D:T (depth D, at most T seconds a "
           "ply), perfect (solves the game first) or perfect:PATH (a solution saved by "
           "`rulecraft solve --save`)")


class UsageError(Exception):
    """Bad arguments or a bad position: `rulecraft COMMAND: error: MESSAGE`, exit 2."""


def add_command(subparsers, name: str, summary: str, description: str,
                examples: list[str]) -> argparse.ArgumentParser:
    """A subcommand's parser: its one-line summary, a paragraph, and examples to copy."""
    p = subparsers.add_parser(
        name, help=summary, description=textwrap.fill(description, 79),
        epilog="examples:\n" + "\n".join(f"  {e}" for e in examples),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress display (check, compile: print the errors only)")
    p.add_argument("--backend", choices=("auto", "python", "native"), default=None, metavar="B",
                   help="what runs the rules: auto (the default), python or native (C)")
    return p


_backend = ["auto"]  # the running command's --backend


def backend() -> str:
    """The back-end the running command's games use (`--backend`, else $RULECRAFT_BACKEND, else auto)."""
    return _backend[0]


def make_game(ruleset: Ruleset, bulk: bool = True) -> Game:
    """The compiled game, on the running command's back-end. `bulk`: the command does
    bulk work (perft, playouts, solving), for which `auto` builds the native library; a
    command that does not (check, info, render, replay) never runs the C compiler unless
    `--backend native` asks for it."""
    choice = backend()
    return Game(ruleset, choice if bulk or choice != "auto" else "python")


def files_under(folder: str, suffixes: str | tuple[str, ...]) -> list[str]:
    """The regular files under `folder` (subfolders included) ending in `suffixes`, sorted;
    a named pipe with such a name is left out (opening it would block)."""
    found = (os.path.join(root, f) for root, _, names in os.walk(folder) for f in names
             if f.endswith(suffixes))
    return sorted(p for p in found if os.path.isfile(p))


# ------------------------------------------------------------------ loading

@contextmanager
def errors_reported() -> Iterator[None]:
    """Print a RulesetError's diagnostics to stderr, and let it go on (to exit 1)."""
    try:
        yield
    except RulesetError as e:
        print(e.format(), file=sys.stderr)
        raise


def load_ruleset_or_report(name: str) -> Ruleset:
    """The checked ruleset (a path or a bundled name), or its diagnostics printed and
    RulesetError raised."""
    with errors_reported():
        return load(name)


def load_or_report(name: str, bulk: bool = True) -> Game:
    """The compiled game (make_game), or its diagnostics printed and RulesetError raised."""
    with errors_reported():
        return make_game(load(name), bulk)


def start_state(game: Game, position: str | None) -> State:
    """The position of `--position TEXT`, or the setup; a UsageError for a bad text."""
    if position is None:
        return game.initial_state()
    try:
        return game.state_from_text(position)
    except PositionError as e:
        raise UsageError(f"--position: {e}") from None


# ------------------------------------------------------------------ JSON

_emitted = [False]  # whether the running command printed its JSON object already


def emit_json(data: object) -> None:
    """Print a command's one JSON object, on one line."""
    print(json.dumps(data, indent=None, separators=(", ", ": ")))
    _emitted[0] = True


def command_started(args: argparse.Namespace | None = None) -> None:
    """Forget the JSON printed by a previous command (`main` may run many in a process);
    take its back-end."""
    _emitted[0] = False
    chosen = getattr(args, "backend", None) or os.environ.get("RULECRAFT_BACKEND") or "auto"
    if chosen not in ("auto", "python", "native"):
        raise UsageError(f"RULECRAFT_BACKEND: unknown back-end '{chosen}' (auto, python or native)")
    _backend[0] = chosen


def json_error(args: argparse.Namespace, message: str, errors: list[str] | None = None) -> None:
    """With --json, a command that stops on an error still prints one object."""
    if getattr(args, "json", False) and not _emitted[0]:
        emit_json({"error": message} if errors is None else {"error": message, "errors": errors})


# ------------------------------------------------------------------ pictures

def write_picture(svg: str, output: str | None) -> None:
    """Write an SVG picture to `output` (PNG for a .png name), or to stdout for None."""
    if output is None:
        sys.stdout.write(svg)
        return
    if output.lower().endswith(".png"):
        try:
            import cairosvg
        except ImportError:
            raise UsageError("writing PNG needs cairosvg (pip install 'rulecraft[png]'); "
                             "or write .svg") from None
        except OSError as e:  # cairosvg is there, the cairo library it loads is not
            raise UsageError(f"writing PNG needs the cairo library ({e}); or write .svg") from None
        cairosvg.svg2png(bytestring=svg.encode(), write_to=output)
        return
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(svg)
    except OSError as e:
        raise UsageError(f"cannot write {output}: {e.strerror}") from None
