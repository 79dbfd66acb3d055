"""Format 6 of the solution file: the native solver's index in compressed chunks, so that
a position is looked up without decompressing the file (in the manner of GamesmanOne's
random-access XZ). Opening one reads its header, directory and tables only.

    8 bytes   magic b"RCSOLVE6"
    4 bytes   header length H
    H bytes   header: format 5's fields (solution_file.py), with compression "zlib" and
              its own: blocks B, directory_bytes D, chunk_bytes C, chunks N and
              reach_chunks R; spaces pad it so that the directory starts at a multiple
              of 8 bytes
    D bytes   the directory: u64 B, then each block's key, words and count
              (solution_index.c), in the machine's byte order
    8(N + 1)  where each chunk starts in the data, and the data's size
    8R        per chunk of a bitset, the positions its block reached before it
    32 bytes  SHA-256 of every byte before it
    data      the chunks, each compressed by zlib on its own

Each block's body (its bitset, then its values, as format 5 holds them) is cut into
chunks of C bytes (the last of each part shorter): its bitset's chunks, then its
values'; the tables count the numbers (8-byte, little-endian). The checksum covers what
opening reads. A chunk is checked when a lookup first needs it: zlib's own checksum, its
exact size, its bits against the counts (and none past the block's end), its value codes.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
import zlib
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from itertools import islice
from typing import BinaryIO, Callable, Iterable, NamedTuple

from interpreter.search.solution_file import BLOCKS_FORMAT, CHECKSUM_BYTES, MAGIC_STEM, Bad, printable

CHUNK = 1 << 16  # bytes of a chunk, uncompressed: a lookup decompresses one or two
LEVEL = 1  # zlib's fastest: a solve's index is gigabytes; reading costs the same at any level
AHEAD = 16  # chunks compressed ahead of the one written (and held in memory)
CACHED = 1024  # chunks a reader keeps decompressed (64 MiB)


class BlockShape(NamedTuple):
    """A block as the directory gives it (solution_index.c, rc_solve_block_info)."""
    words: int   # of its bitset
    count: int   # positions reached
    values: int  # bytes of its values (0: an ended block)
    ended: int   # the value code of an ended block's positions, else 0
    size: int    # indices


def chunks_of(nbytes: int) -> int:
    """The chunks `nbytes` bytes take."""
    return -(-nbytes // CHUNK)


def write_blocks(path: str, header: dict, directory: bytes, shapes: list[BlockShape],
                 bodies: Iterable[bytes]) -> None:
    """A solution of format 6 at `path`: `header` (format 5's fields), the C's `directory`
    and the blocks' `shapes`, then each of `bodies` (in block order) in chunks."""
    n = sum(chunks_of(s.words * 8) + chunks_of(s.values) for s in shapes)
    reach_chunks = sum(chunks_of(s.words * 8) for s in shapes)
    header = dict(header, format=BLOCKS_FORMAT, compression="zlib", blocks=len(shapes),
                  directory_bytes=len(directory), chunk_bytes=CHUNK, chunks=n, reach_chunks=reach_chunks)
    blob = json.dumps(header).encode("utf-8")
    blob += b" " * (-(12 + len(blob)) % 8)
    head = MAGIC_STEM + str(BLOCKS_FORMAT).encode("ascii") + len(blob).to_bytes(4, "little") + blob
    tables_at = len(head) + len(directory)
    offsets, before = [0], []
    with open(path, "wb") as f:
        f.write(head + directory)
        f.seek(tables_at + 8 * (n + 1 + reach_chunks) + CHECKSUM_BYTES)  # the tables once known
        # zlib lets go of the GIL: the chunks are compressed on every core, a few ahead
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            ahead: deque = deque()

            def write_until(left: int) -> None:
                while len(ahead) > left:
                    z = ahead.popleft().result()
                    f.write(z)
                    offsets.append(offsets[-1] + len(z))

            for shape, body in zip(shapes, islice(bodies, len(shapes))):
                cut = shape.words * 8
                reached = 0
                for at in range(0, cut, CHUNK):
                    part = body[at:min(at + CHUNK, cut)]
                    before.append(reached)
                    reached += int.from_bytes(part, "little").bit_count()
                    ahead.append(pool.submit(zlib.compress, part, LEVEL))
                    write_until(AHEAD)
                for at in range(cut, len(body), CHUNK):
                    ahead.append(pool.submit(zlib.compress, body[at:at + CHUNK], LEVEL))
                    write_until(AHEAD)
            write_until(0)
        if len(offsets) != n + 1:
            raise ValueError(f"{n} chunks in the blocks' shapes, {len(offsets) - 1} written")
        tables = b"".join(o.to_bytes(8, "little") for o in offsets + before)
        f.seek(tables_at)
        f.write(tables)
        f.write(hashlib.sha256(head + directory + tables).digest())


def _whole(header: dict, name: str, bad: Bad) -> int:
    value = header.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise bad(f"header field '{name}' must be a whole number, found {json.dumps(value)[:40]}")
    return value


class BlockFile:
    """An open file of format 6: its directory and tables, and its chunks on demand."""

    def __init__(self, f: BinaryIO, size: int, start: int, header: dict, bad: Bad):
        """`f` read from `start` (the directory) on; every part opening reads checked."""
        self.path, self.bad = f.name, bad
        dbytes, n, r = (_whole(header, k, bad) for k in ("directory_bytes", "chunks", "reach_chunks"))
        if header.get("compression") != "zlib":
            raise bad("header field 'compression' must be \"zlib\"")
        if header.get("chunk_bytes") != CHUNK:
            raise bad(f"header field 'chunk_bytes' must be {CHUNK}, found "
                      f"{json.dumps(header.get('chunk_bytes'))[:40]}")
        if header.get("byte_order") != sys.byteorder:
            raise bad(f"written on a machine of another byte order "
                      f"({printable(header.get('byte_order'))}; this one is {sys.byteorder})")
        if sys.byteorder != "little":  # (its bitsets are read as little-endian numbers)
            raise bad("a solution of format 6 is read on little-endian machines only")
        if start % 8:
            raise bad("damaged: its directory does not start at a multiple of 8 bytes")
        self.data_at = start + dbytes + 8 * (n + 1 + r) + CHECKSUM_BYTES
        if size < self.data_at:
            raise bad(f"truncated: {size:,} bytes, too short for its directory and tables")
        f.seek(0)
        head = f.read(start)
        self.directory = f.read(dbytes)
        tables = f.read(8 * (n + 1 + r))
        if hashlib.sha256(head + self.directory + tables).digest() != f.read(CHECKSUM_BYTES):
            raise bad("checksum mismatch: the file is damaged or was edited")
        numbers = [int.from_bytes(tables[i:i + 8], "little") for i in range(0, len(tables), 8)]
        self.offsets, self.before = numbers[:n + 1], numbers[n + 1:]
        if self.offsets[0] != 0 or any(a > b for a, b in zip(self.offsets, self.offsets[1:])):
            raise bad("damaged: its table of chunks is out of order")
        if self.data_at + self.offsets[-1] != size:
            raise bad(f"truncated or extended: {size:,} bytes where its table announces "
                      f"{self.data_at + self.offsets[-1]:,}")
        self._file = open(f.name, "rb")  # kept for the chunks: the caller closes `f`
        self._cache: OrderedDict[int, bytes] = OrderedDict()
        self._lock = threading.Lock()  # the file's position and the cache, between threads
        self.chunks_read = 0

    def set_shapes(self, shapes: list[BlockShape], tally: Callable[[bytes], list[int]]) -> None:
        """The blocks' shapes (as C read the directory); `tally(values)`: the win, lose,
        draw and other codes among a chunk's values. SolutionFileError if they do not fit
        the tables."""
        self.shapes, self._tally = shapes, tally
        self.first, self.first_reach = [], []  # each block's first chunk, and reach chunk
        n = r = 0
        for s in shapes:
            self.first.append(n)
            self.first_reach.append(r)
            n += chunks_of(s.words * 8) + chunks_of(s.values)
            r += chunks_of(s.words * 8)
        if (n + 1, r) != (len(self.offsets), len(self.before)):
            raise self.bad("damaged: its tables do not fit its directory")
        for k, s in enumerate(shapes):
            counts = self.before[self.first_reach[k]:self.first_reach[k] + chunks_of(s.words * 8)]
            if any(a > b for a, b in zip(counts, counts[1:])) or (counts and counts[-1] > s.count):
                raise self.bad(f"damaged: block {k}'s counts are out of order")

    def _chunk(self, i: int, expected: int) -> bytes:
        """Chunk i, decompressed: exactly `expected` bytes, else SolutionFileError."""
        with self._lock:
            data = self._cache.get(i)
            if data is not None:
                self._cache.move_to_end(i)
                return data
            start, end = self.offsets[i], self.offsets[i + 1]
            self._file.seek(self.data_at + start)
            raw = self._file.read(end - start)
        if len(raw) != end - start:
            raise self.bad("truncated or changed while being read")
        z = zlib.decompressobj()
        try:
            data = z.decompress(raw, expected + 1)  # never more than announced
        except zlib.error as e:
            raise self.bad(f"damaged: chunk {i} cannot be decompressed ({e})") from None
        if len(data) != expected or not z.eof or z.unused_data:
            raise self.bad(f"damaged: chunk {i} does not decompress to the {expected:,} bytes "
                           f"its block's shape gives it")
        with self._lock:
            self.chunks_read += 1
            self._cache[i] = data
            if len(self._cache) > CACHED:
                self._cache.popitem(last=False)
        return data

    def reach(self, k: int, c: int) -> tuple[bytes, int]:
        """Block k's bitset chunk c, and the positions the block reached before it."""
        s = self.shapes[k]
        cached = self.first[k] + c in self._cache
        data = self._chunk(self.first[k] + c, min(CHUNK, s.words * 8 - c * CHUNK))
        before = self.before[self.first_reach[k] + c]
        if not cached:
            last = c == chunks_of(s.words * 8) - 1
            after = s.count if last else self.before[self.first_reach[k] + c + 1]
            past = int.from_bytes(data, "little") >> (s.size - c * CHUNK * 8) if last else 0
            if int.from_bytes(data, "little").bit_count() != after - before or past:
                raise self.bad(f"damaged: block {k}'s bits do not match its count")
        return data, before

    def values(self, k: int, c: int) -> bytes:
        """Block k's values chunk c (2 bytes a position reached, in the machine's order)."""
        s = self.shapes[k]
        i = self.first[k] + chunks_of(s.words * 8) + c
        cached = i in self._cache
        data = self._chunk(i, min(CHUNK, s.values - c * CHUNK))
        if not cached:
            real = max(0, min(CHUNK, 2 * s.count - c * CHUNK))  # the rest pads the block
            if self._tally(data[:real])[3] or data[real:].strip(b"\0"):
                raise self.bad(f"damaged: block {k} holds a value code of 0")
        return data

    def close(self) -> None:
        self._file.close()


__all__ = ["BlockFile", "BlockShape", "CHUNK", "chunks_of", "write_blocks"]
