"""Whether `perfect` can play each bundled ruleset, worked out ahead (verdicts.json), so
that the page offers it, or says why not, without solving a game only looked at.

A verdict is keyed by the SHA-256 of the ruleset's text: an edited ruleset has none and
is solved when `perfect` is chosen. Regenerate after editing a bundled ruleset:
    python -m interpreter.apps.web.make_verdicts > interpreter/apps/web/verdicts.json
(tests/test_web_api.py checks that every bundled text has its verdict; a slow test solves
them all again.)
"""

from __future__ import annotations

import hashlib
import json
import os

PATH = os.path.join(os.path.dirname(__file__), "verdicts.json")
_table: dict[str, dict] = {}


def text_key(text: str) -> str:
    """The SHA-256 of a ruleset's text: the key of its compiled game and of its verdict."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def verdicts() -> dict[str, dict]:
    """{bundled name: {"sha256", and "positions" (solved) or "why" (not offered)}}."""
    if not _table:
        with open(PATH, encoding="utf-8") as f:
            _table.update(json.load(f))
    return _table


def verdict_of(text: str) -> dict | None:
    """The verdict worked out ahead for this exact text, or None."""
    key = text_key(text)
    return next((v for v in verdicts().values() if v["sha256"] == key), None)
