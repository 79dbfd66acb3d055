"""Who makes the plies in `rulecraft play`: a person at the terminal, or a program."""

from __future__ import annotations

import random
from typing import Callable, TextIO

from .game import Action, Game, State

Agent = Callable[[State], Action]
MAX_LINE = 4096  # characters of one typed line; a longer one is refused whole


class QuitGame(Exception):
    """The person at the terminal asked to stop."""


def random_agent(game: Game, seed: int | None) -> Agent:
    rng = random.Random(seed)
    return lambda state: rng.choice(game.legal_actions(state))


def human_agent(game: Game, stdin: TextIO, stdout: TextIO) -> Agent:
    """Reads plies in notation (any case, or a shorter form naming one ply); `?` lists the
    legal plies, `quit` (or end of input) stops."""

    def choose(state: State) -> Action:
        while True:
            stdout.write(f"{game.players[game.to_move(state)]}> ")
            stdout.flush()
            line = stdin.readline(MAX_LINE)
            if len(line) == MAX_LINE and not line.endswith("\n"):
                while line and not line.endswith("\n"):  # the rest of the overlong line
                    line = stdin.readline(MAX_LINE)
                stdout.write(f"a ply is at most {MAX_LINE:,} characters\n")
                continue
            if not line or line.strip() in ("quit", "exit", "q"):
                raise QuitGame
            text = line.strip()
            if not text:
                continue
            if text in ("?", "moves", "help"):
                stdout.write(", ".join(game.action_to_text(state, a)
                                       for a in game.legal_actions(state)) + "\n")
                continue
            try:
                return game.action_from_input(state, text)
            except ValueError as e:  # IllegalActionError, or anything else the text breaks
                stdout.write(f"{e}\n")

    return choose


def make_player(spec: str, game: Game, seed: int | None, stdin: TextIO, stdout: TextIO) -> Agent:
    """A player from its spec: `human`, `random` (search agents join here)."""
    if spec == "human":
        return human_agent(game, stdin, stdout)
    if spec == "random":
        return random_agent(game, seed)
    from .search.agents import make_agent  # mcts, alphabeta, perfect: the search package

    return make_agent(spec, game, seed, also_known="human")
