"""Progress of a long command on the terminal: a tqdm bar when tqdm is installed (the
`progress` extra), else a line rewritten in place; nothing when stderr is not a terminal
(logs stay clean) or the user asked for `--quiet`."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Meter:
    """Counts steps of a run towards `total` (None: unknown), shown after `delay` seconds."""

    def __init__(self, description: str, total: int | None = None, *, quiet: bool = False,
                 stream: TextIO | None = None, delay: float = 0.5):
        self.stream = stream if stream is not None else sys.stderr
        self.on = not quiet and getattr(self.stream, "isatty", lambda: False)()
        self.description, self.total, self.count = description, total, 0
        self.begin, self.last, self.delay = time.perf_counter(), 0.0, delay
        self.bar = None
        if self.on:
            try:
                from tqdm import tqdm
            except ImportError:
                tqdm = None
            if tqdm is not None:
                self.bar = tqdm(total=total, desc=description, file=self.stream, delay=delay,
                                leave=False)
        self.drawn = False

    def advance(self, steps: int = 1) -> None:
        self.count += steps
        if not self.on:
            return
        if self.bar is not None:
            self.bar.update(steps)
            return
        now = time.perf_counter()
        if now - self.begin < self.delay or now - self.last < 0.2:
            return
        self.last = now
        of = f"/{self.total:,}" if self.total is not None else ""
        self.stream.write(f"\r{self.description}: {self.count:,}{of}\033[K")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """Take the bar off the screen: what the command prints next starts a clean line."""
        if self.bar is not None:
            self.bar.close()
        elif self.drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()

    def __enter__(self) -> "Meter":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
