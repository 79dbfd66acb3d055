"""How much memory a solve or a proof search may take: what the system has free, and caps.

`max_memory` arguments take a number of bytes, `AUTO` (three quarters of the memory
available when the search starts, `default_memory_cap`) or None (no cap).
"""

from __future__ import annotations

import math
import os
import re

AUTO = "auto"  # max_memory: three quarters of the memory available at the start


def _read_int(path: str) -> int | None:
    """The whole number a file such as /sys/fs/cgroup/memory.max holds, if it holds one."""
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
    """`n` bytes for a message: `1.5 GiB`, `4.0 MiB`, `512 bytes`."""
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


def memory_limit(max_memory: int | str | None) -> int | None:
    """The cap in bytes a `max_memory` argument names (None: no cap); ValueError if it
    names none."""
    if max_memory == AUTO:
        return default_memory_cap()
    if max_memory is None:
        return None
    if isinstance(max_memory, bool) or not isinstance(max_memory, int) or max_memory < 1:
        raise ValueError(f"max_memory must be a number of bytes, 'auto' or None, found "
                         f"{max_memory!r}")
    return max_memory
