"""The compressed body of a solution file of format 5, as earlier versions wrote it
(solution_file.py): zlib, read back into a temporary file, never past the size announced."""

from __future__ import annotations

import os
import tempfile
import zlib
from typing import BinaryIO, Callable

CHUNK = 1 << 24  # bytes read or made at a time


def decompressed(f: BinaryIO, start: int, size: int, expected: int,
                 bad: Callable[[str], Exception]) -> str:
    """The path of a temporary file holding the `size` compressed bytes at `start` of
    `f` decompressed, which must make `expected` bytes (no more is ever written)."""
    fd, tmp = tempfile.mkstemp(prefix="rulecraft-index-")
    try:
        with os.fdopen(fd, "wb") as out:
            z, left, made = zlib.decompressobj(), size, 0
            f.seek(start)
            while not z.eof:
                data = z.unconsumed_tail
                if not data:
                    data = f.read(min(left, CHUNK)) if left else b""
                    if not data:
                        break
                    left -= len(data)
                piece = z.decompress(data, CHUNK)  # (a bounded piece at a time)
                made += len(piece)
                if made > expected:
                    raise bad(f"damaged: its index decompresses to more than the {expected:,} "
                              f"bytes its header announces")
                out.write(piece)
            if not z.eof or left or z.unused_data:
                raise bad("damaged: its compressed index does not end where the file does")
            if made != expected:
                raise bad(f"damaged: its index decompresses to {made:,} bytes where its header "
                          f"announces {expected:,}")
    except zlib.error as e:
        os.unlink(tmp)
        raise bad(f"damaged: its compressed index cannot be decompressed ({e})") from None
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp
