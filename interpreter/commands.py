"""How each command introduces itself in `--help`: one place for the parsers of every
module that adds a command (descriptions and examples; options describe themselves)."""

from __future__ import annotations

import argparse
import os
import textwrap

PLAYERS = ("human (you type the plies), random, mcts:N (N iterations a ply) or mcts:Ts "
           "(T seconds a ply), alphabeta:D or alphabeta:D:T (depth D, at most T seconds a "
           "ply), perfect (solves the game first) or perfect:PATH (a solution saved by "
           "`rulecraft solve --save`)")


def add_command(subparsers, name: str, summary: str, description: str,
                examples: list[str]) -> argparse.ArgumentParser:
    """A subcommand's parser: its one-line summary, a paragraph, and examples to copy."""
    p = subparsers.add_parser(
        name, help=summary, description=textwrap.fill(description, 79),
        epilog="examples:\n" + "\n".join(f"  {e}" for e in examples),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress display (check: print the errors only)")
    return p


def files_under(folder: str, suffixes: str | tuple[str, ...]) -> list[str]:
    """The regular files under `folder` (subfolders included) ending in `suffixes`, sorted;
    a named pipe with such a name is left out (opening it would block)."""
    found = (os.path.join(root, f) for root, _, names in os.walk(folder) for f in names
             if f.endswith(suffixes))
    return sorted(p for p in found if os.path.isfile(p))
