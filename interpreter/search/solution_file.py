"""The solution file: writing, reading and checking a saved `Solution`.

A solution file is plain binary, little-endian:

    8 bytes   magic b"RCSOLVE3" (the last byte is the format version)
    4 bytes   header length H (unsigned, at most 16 MiB)
    H bytes   header, JSON in UTF-8: format (3), title, players, fingerprint (SHA-256 of
              the ruleset's source texts and state layout), root (the start position's
              text), positions N, key_bytes K, codec (`Codec.describe`: which slots are
              cell masks, each other slot's shift, bias and width), symmetries (the cell
              permutations used), seconds; and swap when positions with the players
              exchanged are kept as one (player_swap.py): {"cells": its cell permutation,
              "types": its piece-type permutation}
    N * K     keys, ascending, each K bytes unsigned
    N         values, one byte each: 1 win, 2 lose, 3 draw (for the player to move)
    N * 4     remoteness, unsigned 32-bit (0 for draws)
    32 bytes  SHA-256 of every byte before it

Format 5 is the native solver's index, for solves too large to sort into keys (past
`native.solve.COPY_LIMIT` positions): magic b"RCSOLVE5", the header length and the
header as above (key_bytes and codec still describe the game's state layout; one more
field, byte_order), spaces padding the header so that the body starts at a multiple of 8
bytes, then the body `interpreter/native/solution_index.c` describes (the blocks, their
bitsets and 2-byte values, in the machine's byte order), then the SHA-256 of every byte
before it. The body is mapped, not read, and looked up in C, so reading a file of this
format needs the native back-end (a C compiler). Files of format 5 with the fields
compression ("zlib") and body_bytes (from earlier versions) hold the body compressed
whole: reading one decompresses it into a temporary file and maps that. Format 6
(block_file.py) compresses it in chunks instead, for random access.

The columns are a `Solution`'s own, as a solve leaves them in memory: the value codes and
the 32-bit remoteness array are defined here for both.

`read_solution` trusts nothing in a file: it checks every header field, the sizes, the
checksum, the value codes and the order of the keys, and raises `SolutionFileError` (a
ValueError) naming the file and what is wrong. Format 3 packs each slot as its kind
needs (format 2 gave every slot but the masks, the player, the phase and the outcome 16
bits, and did not map the previous ply's cells under symmetries); format 5 orders each
block of its index with the type placed first varying slowest, and compares that type
first to choose among a position's images (format 4 did neither); earlier formats are
refused with a message asking for a new solve.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
import sys
from array import array
from itertools import islice
from typing import TYPE_CHECKING, BinaryIO, Callable

from interpreter.runtime.game import Game, State
from interpreter.search.codec import Codec
from interpreter.search.compressed import decompressed
from interpreter.search.player_swap import KeySwap, swap_field, swap_of
from interpreter.search.symmetry import MAX_CANDIDATES, Canonicalizer, Perm
from interpreter.search.wide_keys import WideKeys
from interpreter.search.words import from_little, little_endian

if TYPE_CHECKING:  # solution.py imports this module
    from interpreter.search.solution import Solution

WIN, LOSE, DRAW = 1, 2, 3  # the value codes, for the player to move
VALUE_NAMES = {WIN: "win", LOSE: "lose", DRAW: "draw"}
MAGIC_STEM = b"RCSOLVE"
FORMAT = 3
INDEX_FORMAT = 5  # the native solver's index (see the docstring)
BLOCKS_FORMAT = 6  # the same in compressed chunks, for random access (block_file.py)
READ_FORMATS = (FORMAT, INDEX_FORMAT, BLOCKS_FORMAT)
# Earlier formats, and why they are no longer read (a file of one asks for a new solve).
OLD_FORMATS = {1: "has no checksum", 2: "packs its positions otherwise",
               4: "orders its index otherwise"}
MAGIC = MAGIC_STEM + str(FORMAT).encode("ascii")
CHECKSUM_BYTES = 32  # SHA-256
COMPRESS_ABOVE = 1 << 30  # a native index larger than this is saved in format 6 (compressed)
MAX_HEADER = 16 << 20


def printable(text: object) -> str:
    """`text` with every character that is not printable written as an escape (a path or a
    name from the command line may hold terminal control sequences)."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


class SolutionFileError(ValueError):
    """A solution file that cannot be used (missing, damaged, edited, for another game)."""


Bad = Callable[[str], SolutionFileError]  # the error naming the file and what is wrong


def uint32_array(n: int = 0) -> array:
    """An array of `n` unsigned 32-bit zeros (the remoteness column, the solver's graph)."""
    code = "I" if array("I").itemsize == 4 else "L"
    return array(code, bytes(4 * n)) if n else array(code)


def fingerprint(game: Game) -> str:
    """A digest of the ruleset's source texts and state layout: a solution fits this game."""
    h = hashlib.sha256()
    for text in sorted(getattr(game.ruleset, "sources", {}).values()):
        h.update(text.encode("utf-8"))
        h.update(b"\0")
    h.update(json.dumps([game.title, game.players, game.board.size, game.layout.length,
                         game.layout.types]).encode("utf-8"))
    return h.hexdigest()


def _header(solution: Solution, version: int, perms: list[Perm]) -> dict:
    """The header fields of a file of format `version` (see the docstring)."""
    return {
        "format": version,
        "title": solution.game.title,
        "players": solution.game.players,
        "fingerprint": solution.fingerprint or fingerprint(solution.game),
        "root": solution.game.state_to_text(solution.root),
        "positions": len(solution),
        "key_bytes": solution.codec.key_bytes,
        "codec": solution.codec.describe(),
        "symmetries": [list(p) for p in perms],
        "seconds": round(solution.stats.seconds, 3) if solution.stats else None,
    }


def write_solution(solution: Solution, path: str) -> None:
    """Write `solution` to `path` in the format of this module's docstring."""
    header = _header(solution, FORMAT, solution.canon.perms if solution.canon else [])
    if solution.canon is not None and solution.canon.swap is not None:
        header["swap"] = swap_field(solution.canon.swap.swap)
    blob = json.dumps(header).encode("utf-8")
    kb = solution.codec.key_bytes
    if kb == 8 and isinstance(solution.keys, array):
        keys = little_endian(solution.keys)
    elif hasattr(solution.keys, "to_bytes"):  # WideKeys: its words interleaved
        keys = solution.keys.to_bytes(kb)
    else:
        keys = b"".join(k.to_bytes(kb, "little") for k in solution.keys)
    digest = hashlib.sha256()
    with open(path, "wb") as f:
        for part in (MAGIC, len(blob).to_bytes(4, "little"), blob, keys,
                     bytes(solution.values), little_endian(solution.remoteness)):
            digest.update(part)
            f.write(part)
        f.write(digest.digest())


def index_header(solution: Solution, perms: list[Perm]) -> dict:
    """The header fields of format 5 (and of format 6, which adds its own)."""
    return dict(_header(solution, INDEX_FORMAT, perms), byte_order=sys.byteorder)


def write_index(path: str, header: dict, body: Callable[[str], None]) -> None:
    """Write a solution of format 5: its `header` (index_header's fields and the native
    solver's own) here, then `body(file)` appends the native index, then the checksum of
    the whole."""
    _write_index_header(path, header)
    body(path)
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 24), b""):
            digest.update(chunk)
    with open(path, "ab") as f:
        f.write(digest.digest())


def _write_index_header(path: str, header: dict) -> None:
    """A new file at `path` with the magic of format 5 and `header`, padded so that the
    body starts 8-byte aligned (for mapping)."""
    blob = json.dumps(header).encode("utf-8")
    blob += b" " * (-(12 + len(blob)) % 8)
    with open(path, "wb") as f:
        f.write(MAGIC_STEM + str(INDEX_FORMAT).encode("ascii"))
        f.write(len(blob).to_bytes(4, "little"))
        f.write(blob)


def read_solution(path: str, game: Game, cls: type[Solution]) -> Solution:
    """The solution saved at `path` for `game`, built by `cls` (`Solution` or a subclass).

    Raises SolutionFileError (a ValueError), its message naming the file and what is
    wrong, for anything but a sound file made for this very ruleset.
    """
    shown = printable(path)
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        raise SolutionFileError(f"{shown}: no such file") from None
    except OSError as e:
        raise SolutionFileError(f"{shown}: cannot be read ({e.strerror or e})") from None
    except ValueError:  # a NUL byte in the path
        raise SolutionFileError(f"{shown}: not a usable file name") from None
    if stat.S_ISDIR(info.st_mode):
        raise SolutionFileError(f"{shown}: is a directory, not a solution file")
    if not stat.S_ISREG(info.st_mode):
        raise SolutionFileError(f"{shown}: not a regular file")
    if info.st_size == 0:
        raise SolutionFileError(f"{shown}: empty file, not a solution file")
    try:
        with open(path, "rb") as f:
            return _read(f, info.st_size, path, game, cls)
    except OSError as e:
        raise SolutionFileError(f"{shown}: cannot be read ({e.strerror or e})") from None


def _read(f: BinaryIO, size: int, path: str, game: Game, cls: type[Solution]) -> Solution:
    """The solution in the open file `f` of `size` bytes, every part of it checked."""
    def bad(what: str) -> SolutionFileError:
        return SolutionFileError(f"{printable(path)}: {what}")

    head = f.read(12)
    hlen = _check_magic(head, size, bad)
    blob = f.read(hlen)
    header = _parse_header(blob, bad)
    if header["format"] != int(head[7:8]):
        raise bad(f"header field 'format' says {header['format']}, its first bytes "
                  f"{head[7:8].decode()}")
    codec = Codec(game)
    _check_game(header, game, codec, bad)
    perms = _check_symmetries(header["symmetries"], codec.cells, bad)
    try:
        swap = swap_of(header, codec.cells, game.layout.types)
    except ValueError as e:
        raise bad(str(e)) from None
    root = _check_root(header["root"], game, bad)
    if header["format"] == INDEX_FORMAT:
        return _read_index(f, size, 12 + hlen, header, perms, root, game, bad)
    if header["format"] == BLOCKS_FORMAT:
        if BLOCKS_FORMAT not in _INDEX_READERS:
            raise bad("a solution of format 6 (the native solver's index) is read by the "
                      "native solver's module, which was not loaded")
        return _holds(_INDEX_READERS[BLOCKS_FORMAT](f, size, 12 + hlen, header, perms, root, game, bad),
                      header, root, bad)
    n, kb = header["positions"], header["key_bytes"]
    expected = 12 + hlen + n * (kb + 5) + CHECKSUM_BYTES
    if size < expected:
        raise bad(f"truncated: {size:,} bytes where its header announces {expected:,}")
    if size > expected:
        raise bad(f"trailing data: {size:,} bytes where its header announces {expected:,}")
    body = f.read(n * (kb + 5))
    trailer = f.read(CHECKSUM_BYTES + 1)
    if len(body) != n * (kb + 5) or len(trailer) != CHECKSUM_BYTES:
        raise bad("truncated or changed while being read")
    digest = hashlib.sha256()
    for part in (head, blob, body):
        digest.update(part)
    if digest.digest() != trailer:
        raise bad("checksum mismatch: the file is damaged or was edited")
    keys, values, rem = _columns(body, n, kb, bad)
    if keys[-1] >> codec.bits:
        raise bad(f"key {n - 1:,} does not fit the state layout")
    key_swap = KeySwap(swap, codec, game) if swap is not None else None
    canon = (Canonicalizer(perms, codec.masks, codec.cells, key_swap)
             if len(perms) > 1 or swap is not None else None)
    sol = cls(game, codec, canon, keys, values, rem, root, None, header["fingerprint"])
    if root not in sol:
        raise bad("its start position (header field 'root') is not among its positions")
    return sol


# The readers of the native solver's index, by format (search/native_solve.py's, registered
# when that module loads; the search package loads it first). This module may not import
# it: it imports this one, for the format.
_INDEX_READERS: dict[int, Callable[..., Solution]] = {}


def register_index_reader(version: int, reader: Callable[..., Solution]) -> None:
    """Set the function that opens the body of a file of format `version`: for 5, (game,
    path, offset, size, perms, root, header) -> a Solution, ValueError saying what is
    wrong; for 6, (file, size, start, header, perms, root, game, bad) -> a Solution."""
    _INDEX_READERS[version] = reader


def _read_index(f: BinaryIO, size: int, start: int, header: dict, perms: list[Perm],
                root: State, game: Game, bad: Bad) -> Solution:
    """A solution of format 5, its checksum checked here and its body in C."""
    if header.get("byte_order") != sys.byteorder:
        raise bad(f"written on a machine of another byte order "
                  f"({_shown(header.get('byte_order'))}; this one is {sys.byteorder})")
    if start % 8:
        raise bad("damaged: its index does not start at a multiple of 8 bytes")
    if size < start + 8 + CHECKSUM_BYTES:
        raise bad(f"truncated: {size:,} bytes, too short for its header")
    digest = hashlib.sha256()
    f.seek(0)
    left = size - CHECKSUM_BYTES
    while left:
        chunk = f.read(min(left, 1 << 24))
        if not chunk:
            raise bad("truncated or changed while being read")
        digest.update(chunk)
        left -= len(chunk)
    if digest.digest() != f.read(CHECKSUM_BYTES + 1):
        raise bad("checksum mismatch: the file is damaged or was edited")
    if INDEX_FORMAT not in _INDEX_READERS:
        raise bad("a solution of format 5 (the native solver's index) is read by the native "
                  "solver's module, which was not loaded")
    open_index = _INDEX_READERS[INDEX_FORMAT]
    name, body_bytes = f.name, size - CHECKSUM_BYTES - start
    if "compression" in header:
        name, body_bytes, start = decompressed(f, start, size - CHECKSUM_BYTES - start,
                                               header["body_bytes"], bad), header["body_bytes"], 0
    try:
        sol = open_index(game, name, start, body_bytes, perms, root, header)
    except ValueError as e:
        raise bad(str(e)) from None
    finally:
        if name != f.name:
            os.unlink(name)  # (mapped: its pages stay until the solution goes)
    return _holds(sol, header, root, bad)


def _holds(sol: Solution, header: dict, root: State, bad: Bad) -> Solution:
    """`sol`, once it holds the positions its header announces, its root among them."""
    if len(sol) != header["positions"]:
        raise bad(f"holds {len(sol):,} positions where its header announces "
                  f"{header['positions']:,}")
    if root not in sol:
        raise bad("its start position (header field 'root') is not among its positions")
    return sol


def _check_magic(head: bytes, size: int, bad: Bad) -> int:
    """The header length, once the magic, the format version and the length are sound."""
    if head[:7] != MAGIC_STEM or len(head) < 8:
        raise bad("not a rulecraft solution file")
    version = head[7:8]
    if not (version.isdigit() and int(version) in READ_FORMATS):
        if version.isdigit() and int(version) in OLD_FORMATS:
            raise bad(f"solution format {version.decode()}, from an earlier rulecraft, "
                      f"{OLD_FORMATS[int(version)]} and is no longer read: solve the game "
                      f"again (rulecraft solve FILE --save PATH)")
        if version.isdigit() and int(version) > max(READ_FORMATS):
            raise bad(f"solution format {version.decode()} is newer than this rulecraft "
                      f"reads ({FORMAT}, {INDEX_FORMAT} and {BLOCKS_FORMAT})")
        raise bad("not a rulecraft solution file")
    if len(head) < 12:
        raise bad(f"truncated: {size:,} bytes, too short for a solution file")
    hlen = int.from_bytes(head[8:12], "little")
    if 12 + hlen + CHECKSUM_BYTES > size:
        raise bad(f"damaged: the header length ({hlen:,} bytes) runs past the end of "
                  f"the file ({size:,} bytes)")
    if hlen > MAX_HEADER:
        raise bad(f"damaged: a header length of {hlen:,} bytes is over the limit of "
                  f"{MAX_HEADER:,}")
    return hlen


def _check_game(header: dict, game: Game, codec: Codec, bad: Bad) -> None:
    """That the file was made for this very ruleset, its positions packed as `codec` packs."""
    if header["fingerprint"] != fingerprint(game):
        title = header["title"]
        shown = title if len(title) <= 60 else title[:57] + "..."
        raise bad(f"this solution was made for another ruleset ({shown!r}), or for "
                  f"another version of this one: solve it again")
    if header["key_bytes"] != codec.key_bytes or header["codec"] != codec.describe():
        raise bad("the state layout differs from this game's")


def _check_root(text: str, game: Game, bad: Bad) -> State:
    """The start position the header's `root` names."""
    try:
        return game.state_from_text(text)
    except ValueError as e:
        why = printable(e)
        why = why if len(why) <= 120 else why[:117] + "..."
        raise bad(f"header field 'root' is not a position of this game ({why})") from None


def _columns(body: bytes, n: int, kb: int, bad: Bad) -> tuple[array | list[int] | WideKeys, bytearray, array]:
    """The keys, values and remoteness of a checksummed body; the values must be value
    codes and the keys strictly ascending."""
    raw = memoryview(body)[:n * kb]
    if kb == 8:
        keys: array | list[int] | WideKeys = from_little(raw, array("Q"))
    elif kb < 8 or kb > 16:  # (past 16 bytes, only the Python solver's keys: an int a key)
        keys = [int.from_bytes(raw[i:i + kb], "little") for i in range(0, n * kb, kb)]
    else:  # two arrays of words, not an int a key
        keys = WideKeys.from_bytes(bytes(raw), kb)
    pos = n * kb
    values = bytearray(body[pos:pos + n])
    pos += n
    rem = from_little(body[pos:pos + 4 * n], uint32_array())
    wrong = values.translate(None, bytes(VALUE_NAMES))
    if wrong:
        i = min(values.find(b) for b in set(wrong))
        raise bad(f"value byte {values[i]} at position {i:,} is not a value code "
                  f"(1 win, 2 lose, 3 draw)")
    if not all(map(int.__lt__, keys, islice(keys, 1, None))):
        i = next(i for i in range(1, n) if not keys[i - 1] < keys[i])
        raise bad(f"the keys are not in ascending order (position {i:,})")
    return keys, values, rem


# Header fields: (check, what the check wants); `bool` is not taken for a number.
def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


_HEADER_FIELDS: dict = {
    "format": (lambda v: _is_int(v) and v in READ_FORMATS, f"{FORMAT}, {INDEX_FORMAT} or {BLOCKS_FORMAT}"),
    "title": (lambda v: isinstance(v, str), "a string"),
    "players": (lambda v: isinstance(v, list) and bool(v) and all(isinstance(p, str) for p in v),
                "a list of player names"),
    "fingerprint": (lambda v: isinstance(v, str) and re.fullmatch(r"[0-9a-f]{64}", v) is not None,
                    "64 hexadecimal digits"),
    "root": (lambda v: isinstance(v, str), "a position's text"),
    "positions": (lambda v: _is_int(v) and v >= 1, "a whole number of at least 1"),
    "key_bytes": (lambda v: _is_int(v) and v >= 1, "a whole number of at least 1"),
    "codec": (lambda v: isinstance(v, dict), "an object"),
    "symmetries": (lambda v: isinstance(v, list) and all(isinstance(p, list) for p in v),
                   "a list of cell permutations"),
    "seconds": (lambda v: v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)
                                        and math.isfinite(v) and v >= 0),
                "a number of seconds or null"),
}


# the fields only formats 5 and 6 have, beyond the common ones (byte_order is checked
# where the index is read, ranking by search/index_ranking.py, format 6's own fields by
# block_file.py)
_FORMAT_FIELDS = {FORMAT: {"swap"}, INDEX_FORMAT: {"byte_order", "compression", "body_bytes", "ranking", "swap"},
                  BLOCKS_FORMAT: {"byte_order", "compression", "blocks", "directory_bytes", "chunk_bytes",
                                  "chunks", "reach_chunks", "ranking", "swap"}}
_INDEX_FIELDS: dict = {
    "byte_order": None,
    "compression": (lambda v: v == "zlib", '"zlib"'),
    "body_bytes": (lambda v: _is_int(v) and v >= 8, "a whole number of at least 8"),
}


def _shown(value: object) -> str:
    """A header value for a message, as JSON, cut at 40 characters."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _parse_header(blob: bytes, bad: Bad) -> dict:
    """The header as a dict, every field checked for its type and range."""
    try:
        header = json.loads(blob.decode("utf-8"))
    except UnicodeDecodeError:
        raise bad("damaged header: not UTF-8 text") from None
    except RecursionError:
        raise bad("damaged header: JSON nested too deeply") from None
    except json.JSONDecodeError as e:
        raise bad(f"damaged header: not JSON ({e})") from None
    except ValueError:  # an integer of more than 4,300 digits
        raise bad("damaged header: a number too long to read") from None
    if not isinstance(header, dict):
        kind = ("JSON null" if header is None else "JSON true or false"
                if isinstance(header, bool) else "a JSON number" if isinstance(header, (int, float))
                else "a JSON string" if isinstance(header, str) else "a JSON list")
        raise bad(f"damaged header: {kind}, not an object")
    for name, (check, wanted) in _HEADER_FIELDS.items():
        if name not in header:
            raise bad(f"header field '{name}' is missing")
        if not check(header[name]):
            raise bad(f"header field '{name}' must be {wanted}, found {_shown(header[name])}")
    for name in header:
        if name not in _HEADER_FIELDS and name not in _FORMAT_FIELDS.get(header["format"], ()):
            raise bad(f"unknown header field {_shown(name)}")
    if header["format"] == BLOCKS_FORMAT:
        return header
    if ("compression" in header) != ("body_bytes" in header):
        raise bad("header fields 'compression' and 'body_bytes' go together")
    for name in ("compression", "body_bytes"):
        check, wanted = _INDEX_FIELDS[name]
        if name in header and not check(header[name]):
            raise bad(f"header field '{name}' must be {wanted}, found {_shown(header[name])}")
    return header


def _check_symmetries(perms: list, cells: int, bad: Bad) -> list[Perm]:
    """The header's symmetries, each a permutation of the board's cells."""
    if len(perms) > MAX_CANDIDATES:
        raise bad(f"header field 'symmetries' holds {len(perms):,} permutations, more than "
                  f"the {MAX_CANDIDATES:,} a board may have")
    out: list[Perm] = []
    seen = set()
    for i, p in enumerate(perms):
        if len(p) != cells or not all(_is_int(c) for c in p) or sorted(p) != list(range(cells)):
            raise bad(f"header field 'symmetries': entry {i} is not a permutation of the "
                      f"board's {cells} cells (0 to {cells - 1}, each once)")
        t = tuple(p)
        if t in seen:
            raise bad(f"header field 'symmetries': entry {i} repeats an earlier one")
        seen.add(t)
        out.append(t)
    return out
