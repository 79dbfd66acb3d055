"""Balance reports from self-play (`rulecraft balance`): games between two agents in both
seat orders on every core (selfplay.py), their statistics with Wilson intervals
(stats.py), the text and JSON reports (report.py) and an optional figure (plot.py,
matplotlib imported only there)."""

from interpreter.apps.balance.report import SCHEMA, build, text
from interpreter.apps.balance.selfplay import DRAW, GameResult, Settings, game_seed, play_games
from interpreter.apps.balance.stats import aggregate, percentile, solution_facts, wilson

__all__ = ["DRAW", "SCHEMA", "GameResult", "Settings", "aggregate", "build", "game_seed",
           "percentile", "play_games", "solution_facts", "text", "wilson"]
