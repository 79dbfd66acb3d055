"""The fuzzing command.

    .venv/bin/python -m tests.fuzz --count 20000 --seed 1 --jobs 2
    .venv/bin/python -m tests.fuzz --replay fuzz-failures/0001-TRACEBACK-ruleset-gen-17

Deterministic from --seed: input i of a category is made from the seed, the category and
i alone. Prints a summary table and each distinct failure (by crash site) with a
reproducer; failing inputs go to --out (fuzz-failures/), the first of each crash site
also minimized. Exit status: 0 when no input failed, 1 otherwise, 2 for bad arguments.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import sys
import time

from .harness import FAILURES, STATUSES, Budget, Outcome, minimize, replay, reproducer, run_many, save_case
from .inputs import GENERATORS, WEIGHTS, Context, make_case
from .inputs import collider_count


def plan(count: int, categories: list[str]) -> list[tuple[str, int]]:
    """(category, index) for every input: shares by weight, interleaved (a prefix of the run
    is a fair sample of it)."""
    total = sum(WEIGHTS[c] for c in categories)
    counts = {c: count * WEIGHTS[c] // total for c in categories}
    if "colliders" in counts and len(categories) > 1:
        # one whole rotation (every collider in every slot) when the count allows it
        want = min(collider_count(), max(counts["colliders"], min(count // 10, collider_count())))
        spare = want - counts["colliders"]
        counts["colliders"] = want
        biggest = max((c for c in categories if c != "colliders"), key=lambda c: counts[c])
        counts[biggest] = max(0, counts[biggest] - spare)
    short = count - sum(counts.values())
    for c in sorted(categories, key=lambda c: -WEIGHTS[c])[:max(0, short)]:
        counts[c] += 1
    order: list[tuple[str, int]] = []
    made = {c: 0 for c in categories}
    while len(order) < sum(counts.values()):
        for c in categories:
            if made[c] < counts[c]:
                order.append((c, made[c]))
                made[c] += 1
    return order


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=2000, help="inputs in all (default 2000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jobs", type=int, default=max(1, min(2, os.cpu_count() or 1)))
    p.add_argument("--timeout", type=float, default=10.0, help="CPU seconds per input (default 10; six times that of wall clock)")
    p.add_argument("--memory-mb", type=int, default=1024, help="address space per input, above what the worker maps at its start (default 1024)")
    p.add_argument("--categories", default=",".join(GENERATORS),
                   help=f"comma-separated, of: {', '.join(GENERATORS)}")
    p.add_argument("--out", default="fuzz-failures", help="folder for failing inputs (default fuzz-failures)")
    p.add_argument("--keep", type=int, default=3, help="failing inputs kept per crash site (default 3)")
    p.add_argument("--no-minimize", action="store_true", help="do not minimize the first input of each site")
    p.add_argument("--json", metavar="PATH", help="also write the summary as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress line")
    p.add_argument("--replay", metavar="DIR", help="run one saved failure in this process and show it")
    args = p.parse_args(argv)
    if args.replay:
        return replay(args.replay)
    categories = [c.strip() for c in args.categories.split(",") if c.strip()]
    unknown = [c for c in categories if c not in GENERATORS]
    if unknown or args.count < 1 or args.jobs < 1:
        p.error(f"unknown categories {unknown}" if unknown else "--count and --jobs must be at least 1")
    budget = Budget(args.timeout, args.memory_mb << 20)
    ctx = Context()
    ctx.prewarm(categories)
    order = plan(args.count, categories)
    table = {c: {s: 0 for s in STATUSES} for c in categories}
    seconds = {c: 0.0 for c in categories}
    sites: dict[str, dict] = {}
    notes: dict[str, int] = {}
    note_examples: dict[str, str] = {}  # the first input of each observation, to find it again
    saved = [0]
    began = time.time()
    done = [0]

    def maker(c: str, i: int):
        return lambda: make_case(c, args.seed, i, ctx)

    def on_result(tag, out: Outcome, case) -> None:
        c, i = tag
        table[c][out.status] += 1
        seconds[c] += out.seconds
        for n in out.notes:
            notes[n] = notes.get(n, 0) + 1
            note_examples.setdefault(n, f"{c} #{i}: {out.detail[:200]}")
        done[0] += 1
        if out.failed():
            entry = sites.setdefault(out.site, {"status": out.status, "count": 0, "categories": {},
                                                "examples": [], "detail": out.detail, "first": None})
            entry["count"] += 1
            entry["categories"][c] = entry["categories"].get(c, 0) + 1
            if len(entry["examples"]) < args.keep:
                if case is None:
                    case = make_case(c, args.seed, i, ctx)  # deterministic: made again here
                saved[0] += 1
                slug = re.sub(r"[^A-Za-z0-9]+", "-", out.site)[:60].strip("-")
                folder = os.path.join(args.out, f"{saved[0]:04d}-{out.status}-{c}-{i}-{slug}")
                save_case(case, out, folder)
                entry["examples"].append(folder)
                if entry["first"] is None:
                    entry["first"] = (case, out)
        if not args.quiet and (done[0] % 50 == 0 or done[0] == len(order)):
            fails = sum(table[k][s] for k in table for s in FAILURES)
            print(f"\r{done[0]}/{len(order)} inputs, {fails} failures, {len(sites)} distinct, "
                  f"{time.time() - began:.0f} s", end="", file=sys.stderr, flush=True)

    run_many([((c, i), maker(c, i)) for c, i in order], ctx, budget, args.jobs, on_result)
    elapsed = time.time() - began
    if not args.quiet:
        print(file=sys.stderr)

    if not args.no_minimize:
        for site, entry in sites.items():
            case, out = entry["first"]
            small = minimize(case, out, ctx, budget)
            if small is not case:
                folder = entry["examples"][0] + "-minimized"
                save_case(small, out, folder)
                entry["minimized"] = folder
                entry["minimized_case"] = small

    print(summary(args, categories, table, seconds, sites, notes, elapsed, note_examples))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"command": " ".join(sys.argv), "date": datetime.date.today().isoformat(),
                       "seconds": round(elapsed, 1), "table": table,
                       "sites": {s: {k: v for k, v in e.items() if k not in ("first", "minimized_case")}
                                 for s, e in sites.items()}, "notes": notes,
                       "note_examples": note_examples}, f, indent=1)
    return 1 if sites else 0


def summary(args, categories, table, seconds, sites, notes, elapsed, note_examples=None) -> str:
    cols = ["inputs", "ok", "clean"] + list(FAILURES)
    rows = []
    totals = {k: 0 for k in cols}
    for c in categories:
        row = {"inputs": sum(table[c].values()), **table[c]}
        rows.append((c, row))
        for k in cols:
            totals[k] += row[k]
    rows.append(("total", totals))
    w = max(len(c) for c, _ in rows)
    out = [f"rulecraft fuzz: seed {args.seed}, {totals['inputs']} inputs, {args.jobs} jobs, "
           f"budget {args.timeout:g} s of CPU / {args.memory_mb} MB per input, {elapsed:.0f} s",
           "", f"{'category':<{w}}  " + "  ".join(f"{k:>9}" for k in cols)]
    for c, row in rows:
        out.append(f"{c:<{w}}  " + "  ".join(f"{row[k]:>9}" for k in cols))
    if notes:
        out += ["", "observations (not failures):"]
        for n, k in sorted(notes.items()):
            out.append(f"  {n}: {k} inputs")
            if note_examples and n in note_examples:
                out.append(f"    first: {note_examples[n]}")
    out += ["", f"distinct failures: {len(sites)}"]
    for site, e in sorted(sites.items(), key=lambda kv: -kv[1]["count"]):
        cats = ", ".join(f"{c} {n}" for c, n in e["categories"].items())
        out += ["", f"[{e['status']}] {site}  ({e['count']} inputs: {cats})"]
        lines = e["detail"].splitlines()
        shown = lines[:7] if e["status"] in ("TIMEOUT", "CRASH") else lines[-6:]  # innermost frames
        out += ["    " + line[:300] for line in shown]
        case = e.get("minimized_case") or (e["first"][0] if e["first"] else None)
        if e["examples"]:
            out.append(f"    input: {e.get('minimized') or e['examples'][0]}")
        if case is not None:
            out.append("    " + reproducer(case))
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
