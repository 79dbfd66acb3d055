"""The text of a ruleset file: only a regular file, of a bounded size, in UTF-8, is read."""

from __future__ import annotations

import os
import stat

MAX_FILE_BYTES = 64_000  # the largest bundled ruleset is under 2,000; Lark parses ~60-150 KB a second
BOM = "\ufeff"


class UnreadableFile(Exception):
    """A file that cannot be a ruleset; the message says why and never quotes its contents."""


def read_text(path: str) -> str:
    """The text of a ruleset file; raises UnreadableFile for anything that is not one.

    Only a regular file is read (a directory, a device, a FIFO or a socket is refused
    without waiting on it), at most MAX_FILE_BYTES of it, and only if it is UTF-8 text
    without NUL bytes. A byte-order mark at its start is dropped.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise UnreadableFile("no such file") from None
    except IsADirectoryError:
        raise UnreadableFile("is a directory, not a ruleset file") from None
    except (OSError, ValueError) as e:  # ValueError: a NUL in the name
        raise UnreadableFile(f"cannot read: {getattr(e, 'strerror', None) or e}") from None
    try:
        kind = os.fstat(fd).st_mode
        if stat.S_ISDIR(kind):
            raise UnreadableFile("is a directory, not a ruleset file")
        if not stat.S_ISREG(kind):
            raise UnreadableFile("is not a regular file (a device, a pipe or a socket), not a ruleset file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except OSError as e:
        raise UnreadableFile(f"cannot read: {e.strerror or e}") from None
    finally:
        os.close(fd)
    return decoded(data)


def checked_text(text: str) -> str:
    """A ruleset given as a string, held to a file's limits; raises UnreadableFile."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as e:  # a lone surrogate
        raise UnreadableFile(f"not UTF-8 text (bad character at offset {e.start})") from None
    return decoded(data, "text")


def decoded(data: bytes, what: str = "file") -> str:
    """`data` as text if it can be a ruleset's; raises UnreadableFile."""
    if len(data) > MAX_FILE_BYTES:
        raise UnreadableFile(f"{what} is larger than the limit of {MAX_FILE_BYTES:,} bytes")
    if b"\0" in data:
        raise UnreadableFile("not a text file (it contains NUL bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UnreadableFile(f"not UTF-8 text (bad byte at offset {e.start})") from None
    return text.removeprefix(BOM)
