"""Work on a Ray cluster: the tiered exact solve's tasks, and self-play games.

`ray_run(address)` connects to a cluster (`ray.init(address=...)`: "auto", a head's
"HOST:PORT", or "local" for a cluster of this machine's cores started for the run) and
returns a `run` function for `tiered.solve_tiered`: each task a Ray task, retried when its
worker dies, results in the order asked. Ray is an extra (`pip install rulecraft[cluster]`);
nothing else in rulecraft imports it.
"""

from __future__ import annotations

import socket
from typing import Any, Callable

TASK_RETRIES = 5  # a task whose worker died runs again, up to this many times
CONNECT_SECONDS = 10  # how long the cluster's head may take to answer


class ClusterUnavailable(Exception):
    """Ray is not installed, or the cluster could not be reached."""


def _check_reachable(address: str) -> None:
    """ClusterUnavailable at once if a HOST:PORT address takes no connection (Ray itself
    would wait minutes before it gave up)."""
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not host or not port.isdigit():
        return  # "auto", "local": Ray finds the cluster
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as e:
        raise ClusterUnavailable(f"could not reach the Ray cluster at {address}: "
                                 f"{e.strerror or e}") from None


def ray_run(address: str) -> Callable[[Callable[..., Any], list[tuple]], list[Any]]:
    """A `run` function whose tasks run on the Ray cluster at `address`."""
    try:
        import ray
    except ImportError:
        raise ClusterUnavailable("--cluster needs Ray: pip install 'rulecraft[cluster]'") from None
    if not ray.is_initialized():
        _check_reachable(address)
        try:
            ray.init(address=None if address == "local" else address, log_to_driver=False,
                     logging_level="ERROR", include_dashboard=False)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise ClusterUnavailable(f"could not reach the Ray cluster at {address}: {e}") from None
    remote: dict[Callable[..., Any], Any] = {}

    def run(fn: Callable[..., Any], items: list[tuple]) -> list[Any]:
        task = remote.get(fn)
        if task is None:
            task = remote[fn] = ray.remote(max_retries=TASK_RETRIES, retry_exceptions=False)(fn)
        return ray.get([task.remote(*a) for a in items])

    return run
