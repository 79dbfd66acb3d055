"""`rulecraft test FILE_OR_DIR... [--json]`: run rule scenarios (docs/SCENARIOS.md).

Exit codes: 0 every scenario passed, 1 a scenario failed or a scenario file is bad,
2 usage (a path that does not exist, a folder without scenario files).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Sequence

from interpreter.apps.commands import add_command, backend, files_under

PASSED, FAILED, USAGE = 0, 1, 2
SUFFIXES = (".yaml", ".yml")


class _UsageError(Exception):
    pass


def register(subparsers: Any) -> None:
    """Add the `test` subcommand to an argparse subparsers object."""
    p = add_command(subparsers, "test", "run rule scenarios (YAML files of positions and expected plies)",
                    "Run rule scenarios: each names a ruleset, a start, plies to play and what "
                    "must then hold. A folder is searched for *.yaml and *.yml files, "
                    "subfolders included. One PASS or FAIL line a scenario; exit 1 if any "
                    "fails. See docs/SCENARIOS.md.",
                    ["rulecraft test tests/scenarios", "rulecraft test my-variant.yaml --json"])
    p.add_argument("paths", nargs="+", metavar="FILE_OR_DIR", help="a scenario file or a folder")
    p.add_argument("--json", action="store_true",
                   help='print {"passed", "failed", "errors", "ok", "scenarios", "file_errors"}')
    p.set_defaults(func=run)


def scenario_files(paths: Sequence[str]) -> list[str]:
    """The files to run: each file named, and the YAML files under each folder, sorted."""
    files: list[str] = []
    for path in paths:
        if os.path.isdir(path):
            found = files_under(path, SUFFIXES)
            if not found:
                raise _UsageError(f"no scenario files (*.yaml, *.yml) in '{path}'")
            files.extend(found)
        elif os.path.isfile(path):
            files.append(path)
        elif os.path.exists(path):
            raise _UsageError(f"not a file or folder: '{path}'")
        else:
            raise _UsageError(f"no such file or folder: '{path}'")
    return files


def run(args: argparse.Namespace) -> int:
    """Run the scenarios of `args.paths`; print a line per scenario (or JSON); the exit code."""
    try:
        files = scenario_files(args.paths)
    except _UsageError as e:
        print(f"rulecraft test: error: {e}", file=sys.stderr)
        return USAGE
    # Loaded here: yaml and the scenario runner are a tenth of every other command's start.
    from interpreter.apps.scenarios import run_files

    # A scenario is played a ply at a time, which the Python back-end does fastest: the
    # native one only when asked for, to check it against the scenarios.
    report = run_files(files, backend="python" if backend() == "auto" else backend())
    if args.json:
        print(json.dumps(report.to_json(), indent=None, separators=(", ", ": ")))
    else:
        print(report.format())
    return PASSED if report.ok else FAILED


def main(argv: Sequence[str] | None = None) -> int:
    """Stand-alone entry: `python -m interpreter.apps.scenarios_cli FILE_OR_DIR...`."""
    parser = argparse.ArgumentParser(prog="rulecraft")
    register(parser.add_subparsers(dest="command", metavar="COMMAND", required=True))
    args = parser.parse_args(["test", *(sys.argv[1:] if argv is None else argv)])
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
