"""Shell completion: `rulecraft completion bash|zsh|fish` prints a script for the shell,
which asks `rulecraft __complete WORD...` for the candidates of the last word (commands,
options, player forms, bundled rulesets, files and folders)."""

from __future__ import annotations

import argparse
import os

SCRIPTS = {
    "bash": """_rulecraft() {
    local IFS=$'\\n'
    COMPREPLY=($(rulecraft __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
}
complete -o nospace -o default -F _rulecraft rulecraft
""",
    "zsh": """(( $+functions[compdef] )) || { autoload -Uz compinit && compinit; }
_rulecraft() {
    local -a found
    found=("${(@f)$(rulecraft __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    compadd -S '' -- "${(@)found:#}"
}
compdef _rulecraft rulecraft
""",
    "fish": """complete -c rulecraft -f -a '(rulecraft __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)'
""",
}
PLAYER_FORMS = ["human", "random", "mcts:", "alphabeta:", "perfect", "perfect:"]


def candidates(parser: argparse.ArgumentParser, words: list[str], bundled: list[str]) -> list[str]:
    """What may complete the last of `words` (the words after `rulecraft`, the last one
    being typed, possibly empty)."""
    words = words or [""]
    current = words[-1]
    commands = _commands(parser)
    if len(words) == 1:
        return sorted(c for c in commands if c.startswith(current))
    sub = commands.get(words[0])
    if sub is None:
        return []
    if words[0] == "completion":
        return sorted(s for s in SCRIPTS if s.startswith(current))
    previous = words[-2]
    takes_value = {o for a in sub._actions if a.nargs != 0 for o in a.option_strings}
    if previous in takes_value:
        if previous == "--players":
            done, _, part = current.rpartition(",")
            head = done + "," if done else ""
            return [head + f for f in PLAYER_FORMS if f.startswith(part)]
        if previous in ("--save", "--solution"):
            return _paths(current, suffix=None)
        return []
    if current.startswith("-"):
        return sorted(o for a in sub._actions for o in a.option_strings
                      if o.startswith(current) and o.startswith("--"))
    names = [n for n in bundled if n.startswith(current)]
    suffix = (".yaml", ".yml") if words[0] == "test" else ".game"
    return sorted(names) + _paths(current, suffix)


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _paths(current: str, suffix: str | tuple[str, ...] | None) -> list[str]:
    """Folders (with a slash) and files, ending in `suffix` if given, that extend `current`."""
    head, sep, start = current.rpartition("/")
    folder = head + sep  # "", "dir/" or "/"
    try:
        entries = sorted(os.listdir(folder or "."))
    except OSError:
        return []
    out = []
    for name in entries:
        if not name.startswith(start) or (name.startswith(".") and not start.startswith(".")):
            continue
        path = folder + name
        if os.path.isdir(path):
            out.append(path + "/")
        elif suffix is None or name.endswith(suffix):
            out.append(path)
    return out
