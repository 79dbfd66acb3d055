"""Works out verdicts.json: every bundled ruleset solved (or refused) within the web
page's limits, now (a minute or two). See verdicts.py.

    python -m interpreter.apps.web.make_verdicts > interpreter/apps/web/verdicts.json
"""

from __future__ import annotations

import json
import sys

from interpreter.apps.web import api
from interpreter.apps.web.verdicts import text_key


def work_out() -> dict[str, dict]:
    """{bundled name: {"sha256", and "positions" or "why"}}, from solving each one."""
    out = {}
    for name in api.bundled_names():
        text = api.bundled_text(name)
        answer = api.perfect({"text": text}, ahead=False)
        out[name] = {"sha256": text_key(text)} | (
            {"positions": answer["positions"]} if answer["perfect"] else {"why": answer["why"]})
    return out


if __name__ == "__main__":
    json.dump(work_out(), sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
