"""The `serve` subcommand (`register`, called by interpreter/apps/cli.py): a local web page to
edit rulesets and play them (interpreter/apps/web/). Starlette and Uvicorn are an optional
extra, imported only when the command runs.

    rulecraft serve [--host HOST] [--port PORT] [--no-browser]
"""

from __future__ import annotations

import argparse
import sys

from interpreter.apps.commands import OK, UsageError, add_command

NEEDED = ("starlette", "uvicorn", "anyio", "h11", "click")  # the extra `rulecraft[web]` and what it brings


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `serve` to the main parser's subcommands."""
    p = add_command(subparsers, "serve", "a local web page to edit rulesets and play them",
                    "Serve a web page on this machine: pick a bundled ruleset or edit a "
                    "ruleset's text and see the checker's errors as you type, see the board, "
                    "and play by clicking, against a person or a machine player (random, "
                    "mcts:N, alphabeta:D, perfect), with undo and a game record to download. "
                    "Needs Starlette and Uvicorn: pip install 'rulecraft[web]'. See "
                    "docs/WEB.md.",
                    ["rulecraft serve", "rulecraft serve --port 8080 --no-browser"])
    p.add_argument("--host", default="127.0.0.1", metavar="HOST",
                   help="the address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8000, metavar="PORT",
                   help="the port (default 8000; 0: any free port)")
    p.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    """Serve the page until Ctrl-C."""
    if not 0 <= args.port <= 65535:
        raise UsageError("--port must be from 0 to 65535")
    try:
        from interpreter.apps.web.app import serve
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] not in NEEDED:
            raise
        raise UsageError("the web page needs Starlette and Uvicorn: pip install 'rulecraft[web]'") from None
    try:
        serve(args.host, args.port, not args.no_browser,
              lambda url: print(f"serving {url} (Ctrl-C stops)", file=sys.stderr, flush=True))
    except OSError as e:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    return OK
