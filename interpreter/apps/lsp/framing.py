"""Cutting the client's byte stream into messages (LSP's base protocol: headers, a blank
line, then a body of Content-Length bytes), whatever the stream holds.

Every read is bounded: a header line by MAX_HEADER_LINE, a body by MAX_MESSAGE_BYTES, and
bytes outside any message are dropped as they are scanned. Damage is reported as a
`Damaged` frame (the server answers it with a JSON-RPC error whose id is null), and the
reader finds its way back to the next message:

- bytes where headers belong (a body sent without headers, a garbled header) are dropped
  up to the next `Content-Length: N` header;
- a body ends at its announced length, or earlier where the next message's header begins:
  a valid JSON body never holds that header (JSON strings hold no raw line breaks, and
  outside strings `Content-Length` is not JSON), so the rule only ever cuts damaged bodies,
  and an announced length that is too long cannot swallow the messages after it;
- a message announced larger than MAX_MESSAGE_BYTES is refused at once and its body
  skipped (up to the announced length, or to the next header if that comes first), so a
  length of 10**12 that never arrives blocks nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import BinaryIO

MAX_MESSAGE_BYTES = 4 * 1024 * 1024  # a body (a .game text is at most 64,000 bytes, ×6 escaped)
MAX_HEADER_LINE = 1024  # bytes of one header line
MAX_HEADERS = 32  # header lines of one message
CHUNK = 64 * 1024  # bytes asked of the stream at a time

PARSE_ERROR = -32700
INVALID_REQUEST = -32600

# The header that starts a message, anywhere in the bytes (a lost reader looks for it).
HEADER = re.compile(rb"(?i)content-length:[ \t]{0,8}(\d{1,20})\r?\n")
HEADER_SPAN = 64  # longer than any match of HEADER: a scan keeps this much of a tail
TOKEN = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # a header's name (RFC 7230)


@dataclass(frozen=True)
class Damaged:
    """Bytes that are not a message: answered by an error (code, message) with id null."""

    code: int
    message: str


NO_HEADER = Damaged(PARSE_ERROR, "Parse error: expected a Content-Length header")


def too_large(length: int) -> Damaged:
    return Damaged(INVALID_REQUEST, f"Invalid Request: a message of {length} bytes is larger "
                                    f"than the limit of {MAX_MESSAGE_BYTES} bytes")


class Frames:
    """The messages of a byte stream: `next()` gives a body (bytes), a `Damaged` frame,
    or None at the end of the stream."""

    def __init__(self, stream: BinaryIO, max_bytes: int = MAX_MESSAGE_BYTES) -> None:
        self._read = getattr(stream, "read1", stream.read)  # what is there, not a full chunk
        self.max_bytes = max_bytes
        self.buf = bytearray()
        self.eof = False
        self.lost = False  # dropping bytes up to the next header
        self.skip: int | None = None  # ... or until this many are dropped (a refused body)
        self.tail = b""  # the end of the last body

    def _fill(self) -> bool:
        if self.eof:
            return False
        chunk = self._read(CHUNK)
        if not chunk:
            self.eof = True
            return False
        self.buf += chunk
        return True

    def next(self) -> bytes | Damaged | None:
        if self.lost and not self._find_header():
            return None
        length = self._headers()
        if not isinstance(length, int):
            return length
        if length > self.max_bytes:
            self.lost, self.skip = True, length
            return too_large(length)
        return self._body(length)

    def _line(self) -> bytes | None:
        """A header line (with its line break); b"" if it is too long; None at the end."""
        start = 0
        while True:
            i = self.buf.find(b"\n", start, MAX_HEADER_LINE + 1)
            if i >= 0:
                line = bytes(self.buf[:i + 1])
                del self.buf[:i + 1]
                return line
            if len(self.buf) > MAX_HEADER_LINE:
                return b""
            start = len(self.buf)
            if not self._fill():
                return None

    def _headers(self) -> int | Damaged | None:
        """The Content-Length of the next message's headers."""
        length: int | None = None
        count = 0
        while True:
            line = self._line()
            if line is None:
                return None
            text = line.rstrip(b"\r\n")
            if count == 0 and (straddled := self._straddled(line)) is not None:
                length, count, self.tail = straddled, 1, b""
                continue
            if line and not text.strip():
                if count == 0:
                    continue  # blank lines between messages
                if length is None:
                    self.lost = True
                    return NO_HEADER
                return length
            name, colon, value = text.partition(b":")
            value = value.strip(b" \t")
            good = bool(line) and bool(colon) and TOKEN.fullmatch(name) is not None and count < MAX_HEADERS
            if good and name.lower() == b"content-length" and value.isdigit() and len(value) <= 20:
                length = int(value)  # the last one counts: a header left by a damaged message
            elif not good or HEADER.search(line):
                # Not a header, or one glued to the next message's header (a body sent
                # without headers, then a message): the scan for a header starts at this line.
                self.buf[0:0] = line
                self.lost = True
                return NO_HEADER
            count += 1
            self.tail = b""

    def _find_header(self) -> bool:
        """Drop bytes up to the next header (or the rest of a refused body); False at the end."""
        while True:
            limit = self.skip if self.skip is not None else len(self.buf) + 1
            m = HEADER.search(self.buf, 0, min(len(self.buf), limit + HEADER_SPAN))
            if m and m.start() <= limit:
                del self.buf[:m.start()]
                self.lost, self.skip = False, None
                return True
            if len(self.buf) >= limit:
                del self.buf[:limit]
                self.lost, self.skip = False, None
                return True
            drop = max(len(self.buf) - HEADER_SPAN, 0)  # keep what may be a header's start
            del self.buf[:drop]
            if self.skip is not None:
                self.skip -= drop
            if not self._fill():
                return False

    def _body(self, length: int) -> bytes | None:
        """The body: `length` bytes, or fewer if the next message's header starts before."""
        scanned = 0
        while len(self.buf) < length:
            m = HEADER.search(self.buf, max(scanned - HEADER_SPAN, 0))
            if m:
                return self._take(m.start())
            scanned = len(self.buf)
            if not self._fill():
                return None  # the stream ended inside a body
        m = HEADER.search(self.buf, max(scanned - HEADER_SPAN, 0), length + HEADER_SPAN)
        return self._take(m.start() if m and m.start() < length else length)

    def _take(self, n: int) -> bytes:
        body = bytes(self.buf[:n])
        del self.buf[:n]
        self.tail = body[-HEADER_SPAN:]
        return body

    def _straddled(self, line: bytes) -> int | None:
        """The length of a header begun by the last body's end and ended by `line` (a length
        announced a few bytes too long takes the start of the next message's header)."""
        joined = self.tail + line
        m = HEADER.search(joined, max(len(self.tail) - HEADER_SPAN, 0))
        while m and m.end() != len(joined):
            m = HEADER.search(joined, m.start() + 1)
        if m and m.start() < len(self.tail):
            return int(m.group(1))
        return None

