"""Progress of a long search on stderr (the exact solve and the proof search)."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """Progress of a search on stderr, shown once it has run a while: on a terminal, a tqdm
    status line (the `progress` extra) or a line rewritten in place; otherwise a line every
    10 s, for logs."""

    def __init__(self, enabled: bool, stream: TextIO | None = None, delay: float = 1.0) -> None:
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
        """Show `text` as the current state, unless shown too recently or too early."""
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
        """End the display: close the status line or the line rewritten in place."""
        if self.bar is not None:
            self.bar.close()  # left on screen when shown: the last state of the search
        elif self.shown and self.tty:
            self.stream.write("\n")
            self.stream.flush()
