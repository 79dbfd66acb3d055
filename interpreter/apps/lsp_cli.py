"""The `lsp` subcommand (`register`, called by interpreter/apps/cli.py): a language server for
`.game` files over stdio (interpreter/apps/lsp/). pygls is an optional extra, imported only
when the command runs.

    rulecraft lsp
"""

from __future__ import annotations

import argparse

from interpreter.apps.commands import OK, UsageError, add_command

NEEDED = ("pygls", "lsprotocol", "cattrs")  # the extra `rulecraft[lsp]` and what it brings


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add `lsp` to the main parser's subcommands."""
    p = add_command(subparsers, "lsp", "a language server for editors (LSP over stdio)",
                    "Speak the Language Server Protocol on stdin and stdout, for an editor "
                    "to start: the checker's diagnostics as you type, hover documentation of "
                    "every keyword, completion, go to definition, find references and an "
                    "outline of .game files (variants read their base). Needs pygls: pip "
                    "install 'rulecraft[lsp]'. Editors' settings: editors/README.md.",
                    ["rulecraft lsp"])
    p.set_defaults(func=cmd_lsp)


def cmd_lsp(args: argparse.Namespace) -> int:
    """Serve until the editor says exit."""
    try:
        from interpreter.apps.lsp.server import serve
    except ModuleNotFoundError as e:
        if (e.name or "").split(".")[0] not in NEEDED:
            raise
        raise UsageError("the language server needs pygls: pip install 'rulecraft[lsp]'") from None
    serve()
    return OK
