"""The figure of a balance report (`rulecraft balance --plot OUT`): the game-length
histogram, the mean number of legal plies by ply, and each seat's win, draw and loss
rates with their 95% intervals; one colour a ruleset.

matplotlib is optional (the `plot` extra) and imported only here, when a figure is
drawn. SVG output is deterministic: a fixed hash salt, text kept as text, no date.
"""

from __future__ import annotations

import os

MISSING = "--plot needs matplotlib: pip install 'rulecraft[plot]'"
FORMATS = (".svg", ".png")
MIN_GAMES_SHOWN = 0.1  # a ply's mean is drawn while at least this share of games reach it


class PlotUnavailable(Exception):
    """matplotlib is not installed (the message says how to install it)."""


def check_target(path: str) -> None:
    """ValueError unless `path` ends in .svg or .png in a folder that can be written;
    PlotUnavailable without matplotlib. Checked before the games are played."""
    if os.path.splitext(path)[1].lower() not in FORMATS:
        raise ValueError(f"--plot: the file name must end in .svg or .png, found "
                         f"{os.path.basename(path)!r}")
    where = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(where) or not os.access(where, os.W_OK):
        raise ValueError(f"--plot: cannot write into the folder {where}")
    try:
        import matplotlib  # noqa: F401, PLC0415
    except ImportError:
        raise PlotUnavailable(MISSING) from None


def _figure():
    import matplotlib  # noqa: PLC0415
    matplotlib.use("Agg")
    matplotlib.rcParams.update({"svg.hashsalt": "rulecraft", "svg.fonttype": "none",
                                "font.size": 8, "axes.titlesize": 9})
    from matplotlib.figure import Figure  # noqa: PLC0415
    return Figure(figsize=(9, 3), layout="constrained")


def _lengths(ax, reports: list[dict], records: list[list]) -> None:
    longest = max(max((r.plies for r in recs), default=1) for recs in records)
    step = max(1, -(-longest // 30))  # at most 30 bars
    edges = list(range(0, longest + step + 1, step))
    for rep, recs in zip(reports, records):
        ax.hist([r.plies for r in recs], bins=edges, histtype="step", linewidth=1.2,
                label=_name(rep))
    ax.set_title("game length")
    ax.set_xlabel("plies")
    ax.set_ylabel("games")


def _branching(ax, reports: list[dict]) -> None:
    for rep in reports:
        br = rep["branching"]
        enough = MIN_GAMES_SHOWN * rep["games"]
        shown = [(i + 1, m) for i, (m, n) in enumerate(zip(br["per_ply"], br["reached"]))
                 if n >= enough]
        ax.plot([p for p, _ in shown], [m for _, m in shown], linewidth=1.2, label=_name(rep))
    ax.set_title("legal plies by ply")
    ax.set_xlabel(f"ply (where {MIN_GAMES_SHOWN:.0%} of the games or more go on)")
    ax.set_ylabel("mean legal plies")


def _rates(ax, reports: list[dict]) -> None:
    width = 0.8 / len(reports)
    groups = ["first seat\nwins", "draws", "second seat\nwins", "cut"]
    for k, rep in enumerate(reports):
        s = rep["seats"]
        parts = [s[0]["wins"], s[0]["draws"], s[1]["wins"], s[0]["cut"]]
        xs = [g + (k - (len(reports) - 1) / 2) * width for g in range(len(groups))]
        heights = [p["rate"] for p in parts]
        errors = [[p["rate"] - p["low"] for p in parts], [p["high"] - p["rate"] for p in parts]]
        ax.bar(xs, heights, width, yerr=errors, capsize=3, label=_name(rep))
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylim(0, 1)
    ax.set_title("results (95% Wilson intervals)")
    ax.set_ylabel("share of games")


def _name(rep: dict) -> str:
    return os.path.basename(rep["file"]).removesuffix(".game")


def write_plot(path: str, reports: list[dict], records: list[list]) -> None:
    """Draw the figure of `reports` (with each one's game records) into `path`, SVG or
    PNG by its extension."""
    fig = _figure()
    axes = fig.subplots(1, 3)
    _lengths(axes[0], reports, records)
    _branching(axes[1], reports)
    _rates(axes[2], reports)
    if len(reports) > 1:
        axes[2].legend(loc="upper right")
    title = " vs ".join(reports[0]["agents"])
    fig.suptitle(f"{', '.join(r['title'] for r in reports)}: {title}, "
                 f"{reports[0]['games']} games, seed {reports[0]['seed']}")
    fig.savefig(path, metadata={"Date": None} if path.lower().endswith(".svg") else None)
