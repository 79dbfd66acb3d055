"""The web page's work done in other processes, each request within a time limit.

A `Pool` keeps a few worker processes (started with `spawn`: nothing of the server's
threads is copied), each with its own cache of compiled games (api.py). A request is
handed to a free worker; one that takes longer than the limit, or whose worker dies
(out of memory, say), is answered with an error and its worker replaced, so no text or
request can hold the server. The workers share a temporary folder of solutions, so that
`perfect` solves a game once; solving takes its own, longer limit, and at most all but one
worker solve at once, so that one is always free for the page's quick requests.
"""

from __future__ import annotations

import multiprocessing
import queue
import tempfile
import threading
from multiprocessing.connection import Connection

TIME_LIMIT = 20.0  # seconds a request may take
SOLVING = "perfect"  # the operation that may solve a game: api.SOLVE_TIME_LIMIT


def _serve(conn: Connection, solutions: str | None) -> None:
    """A worker's loop: (op, request) in, api.handle's answer out, until the pipe closes."""
    from interpreter.apps.web import api

    api.share_solutions(solutions)
    while True:
        try:
            op, request = conn.recv()
        except (EOFError, OSError, KeyboardInterrupt):
            return
        try:
            answer = api.handle(op, request)
        except Exception as e:  # noqa: BLE001 - a bug must not end the worker
            answer = {"error": f"internal error: {type(e).__name__}: {e}", "status": 500}
        conn.send(answer)


class Worker:
    """One worker process and the pipe to it."""

    def __init__(self, solutions: str | None = None) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.conn, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(child, solutions), daemon=True,
                                   name="rulecraft-web-worker")
        self.process.start()
        child.close()

    def call(self, op: str, request: object, limit: float) -> dict | None:
        """The answer, or None when none came within `limit` seconds or the worker died."""
        try:
            self.conn.send((op, request))
            if self.conn.poll(limit):
                return self.conn.recv()
        except (EOFError, OSError):
            pass
        return None

    def stop(self) -> None:
        """End the process (at once: it may be busy)."""
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class Pool:
    """`size` workers; `call` answers a request in one of them within `limit` seconds (a
    solve within `solve_limit`)."""

    def __init__(self, size: int = 2, limit: float = TIME_LIMIT, solve_limit: float | None = None) -> None:
        from interpreter.apps.web.api import SOLVE_TIME_LIMIT

        self.limit = limit
        self.solve_limit = SOLVE_TIME_LIMIT if solve_limit is None else solve_limit
        self._folder = tempfile.TemporaryDirectory(prefix="rulecraft-solutions-")
        self._solvers = threading.Semaphore(max(1, size - 1))
        self._free: queue.Queue[Worker] = queue.Queue()
        self._all: list[Worker] = []
        self._lock = threading.Lock()
        for _ in range(size):
            self._add()

    def _add(self) -> None:
        w = Worker(self._folder.name)
        with self._lock:
            self._all.append(w)
        self._free.put(w)

    def call(self, op: str, request: object) -> dict:
        """api.handle(op, request) run in a worker; an error answer past the time limit."""
        if op == SOLVING:
            with self._solvers:
                return self._call(op, request, self.solve_limit)
        return self._call(op, request, self.limit)

    def _call(self, op: str, request: object, limit: float) -> dict:
        w = self._free.get()
        answer = w.call(op, request, limit)
        if answer is not None:
            self._free.put(w)
            return answer
        died = not w.process.is_alive()
        with self._lock:
            self._all.remove(w)
        w.stop()
        self._add()
        if died:
            return {"error": "the work stopped unexpectedly (out of memory?)", "status": 503}
        return {"error": f"the request took longer than the limit of {limit:g} seconds "
                         "and was stopped (a smaller machine player, e.g. mcts:200, answers "
                         "sooner)", "status": 503}

    def close(self) -> None:
        """Stop every worker."""
        with self._lock:
            workers, self._all = self._all, []
        for w in workers:
            w.stop()
        self._folder.cleanup()
