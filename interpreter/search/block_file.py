"""Format 6 of the solution file: the native solver's index, each block compressed on
its own, so that a position is looked up without decompressing the file (in the manner of
GamesmanOne's random-access XZ). Opening one reads its header, directory and table only.

    8 bytes   magic b"RCSOLVE6"
    4 bytes   header length H
    H bytes   header: format 5's fields (solution_file.py), with compression "zlib" and
              two of its own: blocks B and directory_bytes D; spaces pad it so that the
              directory starts at a multiple of 8 bytes
    D bytes   the directory: u64 B, then each block's key, words and count
              (solution_index.c), in the machine's byte order
    8(B + 1)  the table: where each block's body starts in the data, and the data's size
              (u64, little-endian)
    32 bytes  SHA-256 of every byte before it
    data      each block's body (its bitset and values, as format 5 holds them),
              compressed by zlib on its own

The checksum covers what opening reads. A body is checked when a lookup first needs its
block: zlib's own checksum, its exact size, then the C checks every block gets (its bits
against its count, its value codes).
"""

from __future__ import annotations

import hashlib
import json
import sys
import threading
import zlib
from typing import BinaryIO, Iterable

from interpreter.search.solution_file import BLOCKS_FORMAT, CHECKSUM_BYTES, MAGIC_STEM, Bad, printable

LEVEL = 6  # zlib's default: decompression costs about the same at any level


def write_blocks(path: str, header: dict, directory: bytes, bodies: Iterable[bytes]) -> None:
    """A solution of format 6 at `path`: `header` (format 5's fields), the C's
    `directory`, then each of `bodies` (in block order) compressed."""
    bodies = iter(bodies)
    n = int.from_bytes(directory[:8], sys.byteorder)
    header = dict(header, format=BLOCKS_FORMAT, compression="zlib", blocks=n,
                  directory_bytes=len(directory))
    blob = json.dumps(header).encode("utf-8")
    blob += b" " * (-(12 + len(blob)) % 8)
    head = MAGIC_STEM + str(BLOCKS_FORMAT).encode("ascii") + len(blob).to_bytes(4, "little") + blob
    table_at = len(head) + len(directory)
    data_at = table_at + 8 * (n + 1) + CHECKSUM_BYTES
    offsets = [0]
    with open(path, "wb") as f:
        f.write(head)
        f.write(directory)
        f.seek(data_at)  # the table and checksum once the bodies' sizes are known
        for _ in range(n):
            z = zlib.compress(next(bodies), LEVEL)
            f.write(z)
            offsets.append(offsets[-1] + len(z))
        table = b"".join(o.to_bytes(8, "little") for o in offsets)
        f.seek(table_at)
        f.write(table)
        f.write(hashlib.sha256(head + directory + table).digest())


class BlockFile:
    """An open file of format 6: its directory, and each block's body on demand."""

    def __init__(self, f: BinaryIO, size: int, start: int, header: dict, bad: Bad):
        """`f` read from `start` (the directory) on; every part opening reads checked."""
        self.path, self.bad = f.name, bad
        n, dbytes = header.get("blocks"), header.get("directory_bytes")
        for name, value in (("blocks", n), ("directory_bytes", dbytes)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise bad(f"header field '{name}' must be a whole number, found {json.dumps(value)[:40]}")
        if header.get("compression") != "zlib":
            raise bad("header field 'compression' must be \"zlib\"")
        if header.get("byte_order") != sys.byteorder:
            raise bad(f"written on a machine of another byte order "
                      f"({printable(header.get('byte_order'))}; this one is {sys.byteorder})")
        if start % 8:
            raise bad("damaged: its directory does not start at a multiple of 8 bytes")
        self.data_at = start + dbytes + 8 * (n + 1) + CHECKSUM_BYTES
        if size < self.data_at:
            raise bad(f"truncated: {size:,} bytes, too short for its directory of {n:,} blocks")
        f.seek(0)
        head = f.read(start)
        self.directory = f.read(dbytes)
        table = f.read(8 * (n + 1))
        if hashlib.sha256(head + self.directory + table).digest() != f.read(CHECKSUM_BYTES):
            raise bad("checksum mismatch: the file is damaged or was edited")
        self.offsets = [int.from_bytes(table[i:i + 8], "little") for i in range(0, len(table), 8)]
        if any(a > b for a, b in zip(self.offsets, self.offsets[1:])) or self.offsets[0] != 0:
            raise bad("damaged: its table of blocks is out of order")
        if self.data_at + self.offsets[-1] != size:
            raise bad(f"truncated or extended: {size:,} bytes where its table announces "
                      f"{self.data_at + self.offsets[-1]:,}")
        self._file = open(f.name, "rb")  # kept for the bodies: the caller closes `f`
        self._lock = threading.Lock()

    def body(self, k: int, expected: int) -> bytes:
        """Block k's body, decompressed: exactly `expected` bytes, else SolutionFileError."""
        start, end = self.offsets[k], self.offsets[k + 1]
        with self._lock:
            self._file.seek(self.data_at + start)
            data = self._file.read(end - start)
        if len(data) != end - start:
            raise self.bad("truncated or changed while being read")
        z = zlib.decompressobj()
        try:
            out = z.decompress(data, expected + 1)  # never more than announced
        except zlib.error as e:
            raise self.bad(f"damaged: block {k} cannot be decompressed ({e})") from None
        if len(out) != expected or not z.eof or z.unused_data:
            raise self.bad(f"damaged: block {k} does not decompress to the {expected:,} bytes "
                           f"its directory gives it")
        return out

    def close(self) -> None:
        self._file.close()


__all__ = ["BLOCKS_FORMAT", "BlockFile", "write_blocks"]
