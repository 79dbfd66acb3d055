"""Exact solving: every position reachable from a start, then retrograde analysis.

Values follow GamesmanClassic's convention, from the point of view of the player to move:
`win`, `lose` or `draw` (infinite play under perfect play, or a draw rule). Remoteness is the
number of plies to the end under perfect play: the winner takes the shortest way, the loser
the longest. Draws have no remoteness (None).

Storage is compact: a position is packed into one integer (`codec.Codec`, slot by slot as
the state layout types them), reduced to its
canonical form under the board's symmetries when asked (`symmetry.Canonicalizer`), and
the graph is kept as arrays of 32-bit indices (children and parents in CSR form), values
in a bytearray, remoteness in a 32-bit array. The dict from key to index lives only while
positions are enumerated; a finished `Solution` holds sorted keys and answers by binary
search.

Solution files (`Solution.save` / `Solution.load`) are plain binary, little-endian:

    8 bytes   magic b"RCSOLVE3" (the last byte is the format version)
    4 bytes   header length H (unsigned, at most 16 MiB)
    H bytes   header, JSON in UTF-8: format (3), title, players, fingerprint (SHA-256 of
              the ruleset's source texts and state layout), root (the start position's
              text), positions N, key_bytes K, codec (`Codec.describe`: which slots are
              cell masks, each other slot's shift, bias and width), symmetries (the cell
              permutations used), seconds
    N * K     keys, ascending, each K bytes unsigned
    N         values, one byte each: 1 win, 2 lose, 3 draw (for the player to move)
    N * 4     remoteness, unsigned 32-bit (0 for draws)
    32 bytes  SHA-256 of every byte before it

`Solution.load` trusts nothing in a file: it checks every header field, the sizes, the
checksum, the value codes and the order of the keys, and raises `SolutionFileError` (a
ValueError) naming the file and what is wrong. Format 3 packs each slot as its kind
needs (format 2 gave every slot but the masks, the player, the phase and the outcome 16
bits, and did not map the previous ply's cells under symmetries); earlier formats are
refused with a message asking for a new solve.

Memory: `solve` estimates what it will need as the positions are found and stops with a
SolveError past `max_memory` bytes, by default three quarters of the memory available
when it starts (`default_memory_cap`).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
import sys
import time
from array import array
from bisect import bisect_left
from itertools import islice
from dataclasses import dataclass
from typing import NamedTuple, TextIO

from ..game import Action, Game, State
from .codec import Codec, SolveError
from .symmetry import MAX_CANDIDATES, Canonicalizer, Perm, board_symmetries, canonicalizer_bytes

WIN, LOSE, DRAW = 1, 2, 3
VALUE_NAMES = {WIN: "win", LOSE: "lose", DRAW: "draw"}
MAGIC_STEM = b"RCSOLVE"
FORMAT = 3
# Earlier formats, and why they are no longer read (a file of one asks for a new solve).
OLD_FORMATS = {1: "has no checksum", 2: "packs its positions otherwise"}
MAGIC = MAGIC_STEM + str(FORMAT).encode("ascii")
CHECKSUM_BYTES = 32  # SHA-256
MAX_HEADER = 16 << 20

# What a solve holds a position while it runs, in bytes, beyond its key (measured with
# the bundled games, where the peak comes to 130-210 bytes a position plus 8 an edge:
# the dict from key to index while enumerating, the lists and arrays after), with a margin.
BYTES_PER_POSITION = 150
BYTES_PER_EDGE = 8
AUTO = "auto"  # max_memory: three quarters of the memory available at the start


def printable(text: object) -> str:
    """`text` with every character that is not printable written as an escape (a path or a
    name from the command line may hold terminal control sequences)."""
    text = str(text)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


class OutOfMemory(SolveError):
    """A solve or search that ran out of memory (MemoryError) before its cap stopped it."""


class SolutionFileError(ValueError):
    """A solution file that cannot be used (missing, damaged, edited, for another game)."""


class Value(NamedTuple):
    """A position's value for the player to move, and its remoteness (None for a draw)."""

    value: str
    remoteness: int | None


class PlyValue(NamedTuple):
    """One legal ply with its value for the player making it.

    `remoteness` counts plies from the position the ply is made in (the ply included), so
    the best plies carry the position's own value and remoteness.
    """

    action: Action
    text: str
    value: str
    remoteness: int | None


# ---------------------------------------------------------------- memory

def _read_int(path: str) -> int | None:
    try:
        with open(path) as f:
            text = f.read().strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None


def _cgroup_room() -> int | None:
    """Memory left under this process's cgroup limits (v1 or v2), if any limit is set."""
    try:
        with open("/proc/self/cgroup") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    room = None
    for line in lines:
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        controllers, where = parts[1], parts[2]
        if controllers == "":
            bases = ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"]
            names = ("memory.max", "memory.current")
        elif "memory" in controllers.split(","):
            bases = ["/sys/fs/cgroup/memory"]
            names = ("memory.limit_in_bytes", "memory.usage_in_bytes")
        else:
            continue
        for base in bases:
            path = where.rstrip("/")
            while True:  # the process's own group and every group above it
                limit = _read_int(f"{base}{path}/{names[0]}")
                if limit is not None and limit < 1 << 60:
                    used = _read_int(f"{base}{path}/{names[1]}") or 0
                    left = max(0, limit - used)
                    room = left if room is None else min(room, left)
                if not path:
                    break
                path = path.rsplit("/", 1)[0]
    return room


def _address_space_room() -> int | None:
    """Room under `ulimit -v` (RLIMIT_AS), if it is set."""
    try:
        import resource
    except ImportError:  # not on Unix
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft == resource.RLIM_INFINITY or soft < 0:
        return None
    used = 0
    try:
        with open("/proc/self/statm") as f:
            used = int(f.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        pass
    return max(0, soft - used)


def available_memory() -> int | None:
    """Bytes of memory this process may still take: MemAvailable (Linux), else the free
    physical memory from sysconf, lowered by a cgroup limit or `ulimit -v`; None if
    nothing tells."""
    found = None
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    found = int(line.split()[1]) * 1024
                    break
    except (OSError, ValueError, IndexError):
        pass
    if found is None:
        try:
            found = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (AttributeError, ValueError, OSError):
            try:  # macOS has no count of free pages: half of the physical memory
                found = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2
            except (AttributeError, ValueError, OSError):
                found = None
        if found is not None and found <= 0:
            found = None
    for room in (_cgroup_room(), _address_space_room()):
        if room is not None:
            found = room if found is None else min(found, room)
    return found


FALLBACK_MEMORY = 2 << 30  # when the system does not tell how much memory is free


def default_memory_cap() -> int:
    """Three quarters of `available_memory()` (of 2 GiB when the system does not tell)."""
    avail = available_memory()
    return max(1, (FALLBACK_MEMORY if avail is None else avail) * 3 // 4)


def format_bytes(n: int) -> str:
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:,.1f} {unit}"
    return f"{n:,} bytes"


_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)\s*([kmgt]?)(?:i?b)?", re.IGNORECASE)


def parse_size(text: str) -> int:
    """A memory size: bytes, or a number with K, M, G or T (powers of 1024; `500M`,
    `1.5G`, `2GiB`). ValueError if it is not one, or below 1 byte."""
    m = _SIZE.fullmatch(text.strip()) if len(text) <= 40 else None
    if m is None:
        raise ValueError(f"expected a size such as 500M or 2G, found {text!r}")
    value = float(m.group(1)) * (1 << (10 * "_kmgt".index(m.group(2).lower() or "_")))
    if not math.isfinite(value) or value < 1:
        raise ValueError(f"expected a size of at least 1 byte, found {text!r}")
    return int(value)


def _memory_limit(max_memory: "int | str | None") -> int | None:
    if max_memory == AUTO:
        return default_memory_cap()
    if max_memory is None:
        return None
    if isinstance(max_memory, bool) or not isinstance(max_memory, int) or max_memory < 1:
        raise ValueError(f"max_memory must be a number of bytes, 'auto' or None, found "
                         f"{max_memory!r}")
    return max_memory


def _uint32_array(n: int = 0) -> array:
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


class Progress:
    """Progress of a solve on stderr, shown once it has run a while: on a terminal, a tqdm
    status line (the `progress` extra) or a line rewritten in place; otherwise a line every
    10 s, for logs."""

    def __init__(self, enabled: bool, stream: TextIO | None = None, delay: float = 1.0):
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.begin = time.perf_counter()
        self.delay = delay
        self.last = 0.0
        self.tty = enabled and getattr(self.stream, "isatty", lambda: False)()
        self.shown = False
        self.bar = None
        if self.tty:
            try:
                from tqdm import tqdm
            except ImportError:
                pass
            else:
                self.bar = tqdm(total=None, bar_format="[{elapsed}] {desc}", file=self.stream,
                                delay=delay, leave=True)

    def update(self, text: str) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if now - self.begin < self.delay or now - self.last < (0.5 if self.tty else 10.0):
            return
        self.last = now
        self.shown = True
        if self.bar is not None:
            self.bar.set_description_str(text)
            return
        line = f"[{now - self.begin:7.1f} s] {text}"
        self.stream.write(("\r" + line + "\033[K") if self.tty else line + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self.bar is not None:
            self.bar.close()  # left on screen when shown: the last state of the solve
        elif self.shown and self.tty:
            self.stream.write("\n")
            self.stream.flush()


@dataclass
class SolveStats:
    positions: int
    edges: int
    terminal: int
    symmetries: int
    enumerate_seconds: float
    retrograde_seconds: float
    levels: int

    @property
    def seconds(self) -> float:
        return self.enumerate_seconds + self.retrograde_seconds

    @property
    def positions_per_second(self) -> float:
        return self.positions / self.seconds if self.seconds > 0 else 0.0


@dataclass
class Solution:
    """The values of every position reachable from `root`; lookups by binary search."""

    game: Game
    codec: Codec
    canon: Canonicalizer | None
    keys: "array | list[int]"  # sorted canonical keys
    values: bytearray
    remoteness: array
    root: State
    stats: SolveStats | None = None
    fingerprint: str = ""

    # ---------------------------------------------------------------- lookups
    def __len__(self) -> int:
        return len(self.values)

    def _index(self, state: State) -> int:
        key = self.codec.pack(state)
        if self.canon is not None:
            key = self.canon.canonical(key)
        i = bisect_left(self.keys, key)
        if i == len(self.keys) or self.keys[i] != key:
            raise KeyError("the position is not among those this solution holds: "
                           + self.game.state_to_text(state))
        return i

    def __contains__(self, state: State) -> bool:
        try:
            self._index(state)
        except (KeyError, SolveError):
            return False
        return True

    def lookup(self, state: State) -> Value:
        """The value and remoteness of `state` for its player to move (KeyError if absent)."""
        i = self._index(state)
        v = self.values[i]
        return Value(VALUE_NAMES[v], None if v == DRAW else self.remoteness[i])

    def value(self, state: State) -> str:
        return self.lookup(state).value

    def analyze(self, state: State) -> list[PlyValue]:
        """Every legal ply of `state` with its value for the player making it."""
        game = self.game
        me = game.to_move(state)
        out = []
        self.lookup(state)  # KeyError if the solution does not hold it
        for a in game.legal_actions(state):
            child = game.apply(state, a)
            try:
                v, r = self.lookup(child)
            except KeyError:  # a solve holds every child of what it holds: this file was edited
                raise SolutionFileError(
                    f"the solution holds {game.state_to_text(state)} but not the position after "
                    f"{game.action_to_text(state, a)}: it is not a whole solution (was it edited?)"
                ) from None
            if game.to_move(child) != me and v != "draw":
                v = "win" if v == "lose" else "lose"
            out.append(PlyValue(a, game.action_to_text(state, a), v, None if r is None else r + 1))
        return out

    def best_actions(self, state: State) -> list[Action]:
        """The optimal plies: quickest win, else any draw, else the longest loss."""
        plies = self.analyze(state)
        for want in ("win", "draw", "lose"):
            group = [p for p in plies if p.value == want]
            if group:
                if want == "draw":
                    return [p.action for p in group]
                pick = min if want == "win" else max
                best = pick(p.remoteness for p in group)
                return [p.action for p in group if p.remoteness == best]
        return []

    def counts(self) -> dict[str, int]:
        """How many stored positions are wins, losses and draws for the player to move."""
        return {name: self.values.count(code) for code, name in VALUE_NAMES.items()}

    # ---------------------------------------------------------------- files
    def save(self, path: str) -> None:
        """Write the documented binary format (see this module's docstring)."""
        header = {
            "format": FORMAT,
            "title": self.game.title,
            "players": self.game.players,
            "fingerprint": self.fingerprint or fingerprint(self.game),
            "root": self.game.state_to_text(self.root),
            "positions": len(self.values),
            "key_bytes": self.codec.key_bytes,
            "codec": self.codec.describe(),
            "symmetries": [list(p) for p in (self.canon.perms if self.canon else [])],
            "seconds": round(self.stats.seconds, 3) if self.stats else None,
        }
        blob = json.dumps(header).encode("utf-8")
        kb = self.codec.key_bytes
        if kb == 8 and isinstance(self.keys, array):
            keys = _little(self.keys)
        else:
            keys = b"".join(k.to_bytes(kb, "little") for k in self.keys)
        digest = hashlib.sha256()
        with open(path, "wb") as f:
            for part in (MAGIC, len(blob).to_bytes(4, "little"), blob, keys,
                         bytes(self.values), _little(self.remoteness)):
                digest.update(part)
                f.write(part)
            f.write(digest.digest())

    @classmethod
    def load(cls, path: str, game: Game) -> "Solution":
        """Read a solution file written for `game`.

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
                return cls._read(f, info.st_size, path, game)
        except OSError as e:
            raise SolutionFileError(f"{shown}: cannot be read ({e.strerror or e})") from None

    @classmethod
    def _read(cls, f, size: int, path: str, game: Game) -> "Solution":
        def bad(what: str) -> SolutionFileError:
            return SolutionFileError(f"{printable(path)}: {what}")

        head = f.read(12)
        hlen = _check_magic(head, size, bad)
        blob = f.read(hlen)
        header = _parse_header(blob, bad)
        codec = Codec(game)
        _check_game(header, game, codec, bad)
        perms = _check_symmetries(header["symmetries"], codec.cells, bad)
        root = _check_root(header["root"], game, bad)
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
        canon = Canonicalizer(perms, codec.masks, codec.cells) if len(perms) > 1 else None
        sol = cls(game, codec, canon, keys, values, rem, root, None, header["fingerprint"])
        if root not in sol:
            raise bad("its start position (header field 'root') is not among its positions")
        return sol


def _check_magic(head: bytes, size: int, bad) -> int:
    """The header length, once the magic, the format version and the length are sound."""
    if head[:7] != MAGIC_STEM or len(head) < 8:
        raise bad("not a rulecraft solution file")
    version = head[7:8]
    if version != MAGIC[7:]:
        if version.isdigit() and int(version) in OLD_FORMATS:
            raise bad(f"solution format {version.decode()}, from an earlier rulecraft, "
                      f"{OLD_FORMATS[int(version)]} and is no longer read: solve the game "
                      f"again (rulecraft solve FILE --save PATH)")
        if version.isdigit() and version > MAGIC[7:]:
            raise bad(f"solution format {version.decode()} is newer than this rulecraft "
                      f"reads ({FORMAT})")
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


def _check_game(header: dict, game: Game, codec: Codec, bad) -> None:
    """That the file was made for this very ruleset, its positions packed as `codec` packs."""
    if header["fingerprint"] != fingerprint(game):
        title = header["title"]
        shown = title if len(title) <= 60 else title[:57] + "..."
        raise bad(f"this solution was made for another ruleset ({shown!r}), or for "
                  f"another version of this one: solve it again")
    if header["key_bytes"] != codec.key_bytes or header["codec"] != codec.describe():
        raise bad("the state layout differs from this game's")


def _check_root(text: str, game: Game, bad) -> State:
    try:
        return game.state_from_text(text)
    except ValueError as e:
        why = printable(e)
        why = why if len(why) <= 120 else why[:117] + "..."
        raise bad(f"header field 'root' is not a position of this game ({why})") from None


def _columns(body: bytes, n: int, kb: int, bad) -> tuple["array | list[int]", bytearray, array]:
    """The keys, values and remoteness of a checksummed body; the values must be value
    codes and the keys strictly ascending."""
    raw = memoryview(body)[:n * kb]
    if kb == 8:
        keys: array | list[int] = array("Q")
        keys.frombytes(raw)
        if sys.byteorder == "big":
            keys.byteswap()
    else:
        keys = [int.from_bytes(raw[i:i + kb], "little") for i in range(0, n * kb, kb)]
    pos = n * kb
    values = bytearray(body[pos:pos + n])
    pos += n
    rem = _uint32_array()
    rem.frombytes(body[pos:pos + 4 * n])
    if sys.byteorder == "big":
        rem.byteswap()
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
    "format": (lambda v: _is_int(v) and v == FORMAT, str(FORMAT)),
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


def _shown(value: object) -> str:
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _parse_header(blob: bytes, bad) -> dict:
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
        if name not in _HEADER_FIELDS:
            raise bad(f"unknown header field {_shown(name)}")
    return header


def _check_symmetries(perms: list, cells: int, bad) -> list[Perm]:
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


def _little(arr: array) -> bytes:
    if sys.byteorder == "big":
        arr = array(arr.typecode, arr)
        arr.byteswap()
    return arr.tobytes()


def solve(game: Game, start: State | None = None, *, symmetry: bool | list[Perm] = False,
          progress: bool = False, max_positions: int | None = None,
          max_memory: int | str | None = AUTO, stream: TextIO | None = None) -> Solution:
    """Solve every position reachable from `start` (the initial position by default).

    `symmetry`: False, True (the board's symmetries, see symmetry.py) or a list of cell
    permutations. `max_positions`: raise SolveError past this many positions.
    `max_memory`: raise SolveError once the solve's estimated peak memory would pass this
    many bytes; "auto" (the default) is `default_memory_cap()`, None no cap. Running out
    of memory all the same (MemoryError) is a SolveError too.
    `progress`: report on stderr (or `stream`) once the solve has run a second.
    """
    if max_positions is not None and (not _is_int(max_positions) or max_positions < 1):
        raise ValueError(f"max_positions must be a whole number of at least 1, found "
                         f"{max_positions!r}")
    limit = _memory_limit(max_memory)
    try:
        return _solve(game, start, symmetry, progress, max_positions, limit, stream)
    except MemoryError:
        pass  # raised below, once this handler has let go of the solve's frames
    raise OutOfMemory("ran out of memory (the machine had less free memory than the cap "
                      "assumed): give a lower max_memory")


def _solve(game: Game, start: State | None, symmetry: bool | list[Perm], progress: bool,
           max_positions: int | None, max_memory: int | None,
           stream: TextIO | None) -> Solution:
    if len(game.players) != 2:
        raise SolveError("the solver handles two-player games")
    start = game.initial_state() if start is None else start
    codec = Codec(game)
    perms: list[Perm] = []
    if symmetry is True:
        perms = board_symmetries(game, start=start)
    elif symmetry:
        perms = list(symmetry)
    tables = canonicalizer_bytes(perms, codec.masks, codec.cells) if len(perms) > 1 else 0
    if max_memory is not None and tables > max_memory:
        raise SolveError(f"the symmetry tables alone would need more than the memory cap of "
                         f"{format_bytes(max_memory)}", "memory")
    canon = Canonicalizer(perms, codec.masks, codec.cells) if len(perms) > 1 else None
    prog = Progress(progress, stream)
    t0 = time.perf_counter()
    graph = _enumerate(game, start, codec, canon, prog, max_positions, max_memory, tables)
    t1 = time.perf_counter()
    values, rem, level = _retrograde(graph, prog)
    t2 = time.perf_counter()
    prog.done()

    # sorted keys for lookups by binary search
    keys = graph.keys
    order = sorted(range(len(keys)), key=keys.__getitem__)
    if codec.bits <= 64:
        skeys: array | list[int] = array("Q", (keys[k] for k in order))
    else:
        skeys = [keys[k] for k in order]
    svalues = bytearray(values[k] for k in order)
    srem = _uint32_array()
    srem.extend(rem[k] for k in order)
    terminal = len(keys) - graph.status.count(0)
    stats = SolveStats(len(keys), len(graph.edges), terminal, len(perms) or 1, t1 - t0,
                       t2 - t1, level)
    return Solution(game, codec, canon, skeys, svalues, srem, start, stats, fingerprint(game))


class _Graph(NamedTuple):
    """The positions found, breadth first: node i's children are edges[offsets[i]:offsets[i+1]]."""

    keys: list[int]
    movers: bytearray  # the player to move
    status: bytearray  # 0 going on, else WIN / LOSE / DRAW for the player to move
    offsets: array
    edges: array


def _enumerate(game: Game, start: State, codec: Codec, canon: Canonicalizer | None,
               prog: Progress, max_positions: int | None, max_memory: int | None,
               tables: int) -> _Graph:
    """Every position reachable from `start`; SolveError past `max_positions`, or once the
    solve's estimated peak (`tables` bytes of symmetry tables and more) would pass
    `max_memory` bytes."""
    pack, unpack = codec.pack, codec.unpack
    canonical = canon.canonical if canon is not None else (lambda k: k)
    legal, apply = game.legal_actions, game.apply
    to_move, is_terminal, winner, is_draw = game.to_move, game.is_terminal, game.winner, game.is_draw
    root_key = canonical(pack(start))
    per_position = BYTES_PER_POSITION + 2 * sys.getsizeof(root_key)  # the key and its index

    def check_memory() -> None:  # what follows (parents, values, sorting) is in the estimate
        need = tables + per_position * len(keys) + BYTES_PER_EDGE * len(edges)
        if max_memory is not None and need > max_memory:
            raise SolveError(f"stopped at {len(keys):,} positions: the solve would need more "
                             f"than the memory cap of {format_bytes(max_memory)}", "memory")

    index: dict[int, int] = {root_key: 0}  # freed on return, before the parents are built
    keys: list[int] = [root_key]
    movers, status = bytearray(), bytearray()
    offsets, edges = _uint32_array(), _uint32_array()
    offsets.append(0)
    get = index.get
    i = 0
    while i < len(keys):
        s = unpack(keys[i])
        me = to_move(s)
        movers.append(me)
        if is_terminal(s):
            status.append(DRAW if is_draw(s) else WIN if winner(s) == me else LOSE)
        else:
            status.append(0)
            for ck in {canonical(pack(apply(s, a))) for a in legal(s)}:
                j = get(ck)
                if j is None:
                    j = len(keys)
                    index[ck] = j
                    keys.append(ck)
                edges.append(j)
            if max_positions is not None and len(keys) > max_positions:
                raise SolveError(f"more than {max_positions:,} positions are reachable",
                                 "positions")
        offsets.append(len(edges))
        i += 1
        if not i & 1023:
            check_memory()
            if not i & 4095:
                prog.update(f"enumerating: {i:,} expanded, {len(keys):,} found")
    check_memory()
    return _Graph(keys, movers, status, offsets, edges)


def _parents(graph: _Graph) -> tuple[array, array]:
    """The arcs reversed, in CSR form: node c's parents are parents[start[c]:start[c+1]]."""
    n, offsets, edges = len(graph.keys), graph.offsets, graph.edges
    pcount = _uint32_array(n + 1)
    for j in edges:
        pcount[j + 1] += 1
    for k in range(n):
        pcount[k + 1] += pcount[k]
    fill = array(pcount.typecode, pcount)
    parents = _uint32_array(len(edges))
    for p in range(n):
        for k in range(offsets[p], offsets[p + 1]):
            c = edges[k]
            parents[fill[c]] = p
            fill[c] += 1
    return pcount, parents


def _retrograde(graph: _Graph, prog: Progress) -> tuple[bytearray, array, int]:
    """Values and remoteness of every node, and the number of levels.

    Level by level from the ends, so that the first win found is the quickest and the last
    child to be refuted gives the longest loss; what no level decides is a draw."""
    n, movers, offsets = len(graph.keys), graph.movers, graph.offsets
    pcount, parents = _parents(graph)
    values = bytearray(n)
    rem = _uint32_array(n)
    remaining = _uint32_array()
    remaining.extend(offsets[k + 1] - offsets[k] for k in range(n))
    frontier = []
    for k, st in enumerate(graph.status):
        if st:
            values[k] = st
            if st != DRAW:
                frontier.append(k)
        elif remaining[k] == 0:  # no legal ply and no end rule fired: the mover loses
            values[k] = LOSE
            frontier.append(k)
    level, solved = 0, len(frontier)
    while frontier:
        nxt = []
        r1 = level + 1
        for c in frontier:
            c_wins = values[c] == WIN
            mc = movers[c]
            for k in range(pcount[c], pcount[c + 1]):
                p = parents[k]
                if values[p]:
                    continue
                if c_wins == (movers[p] == mc):  # the parent's mover wins by moving to c
                    values[p] = WIN
                    rem[p] = r1
                    nxt.append(p)
                else:
                    left = remaining[p] - 1
                    remaining[p] = left
                    if not left:
                        values[p] = LOSE
                        rem[p] = r1
                        nxt.append(p)
        frontier = nxt
        solved += len(nxt)
        level += 1
        prog.update(f"retrograde: level {level}, {solved:,} of {n:,} decided")
    return values.replace(b"\0", bytes([DRAW])), rem, level
