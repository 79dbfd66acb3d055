"""The `rulecraft` console command.

`main` imports the command line (lark, the compiler: a noticeable part of a second)
inside its guard, so Ctrl-C at any moment, even while those load, ends the
command with exit code 130 and no traceback. Kept free of imports of its own.
"""

from __future__ import annotations

import os
import sys

INTERRUPTED = 130  # 128 + SIGINT, as shells report a command stopped by Ctrl-C


def main(argv: list[str] | None = None) -> int:
    try:
        from interpreter.apps import cli

        code = cli.main(argv)
        sys.stdout.flush()  # here, so that a closed pipe is caught below, not at exit
        return code
    except KeyboardInterrupt:
        return INTERRUPTED
    except BrokenPipeError:
        # the reader went away (`rulecraft ... | head`): nothing more to say to it
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
