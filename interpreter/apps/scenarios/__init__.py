"""Rule scenarios: YAML files that give a ruleset, a start position and plies to play, and
say what must then hold (legal plies, outcome, variables, perft). docs/SCENARIOS.md is the
format's reference.

Reading goes: text -> a tree of `Node`s that remember their line and column (`yaml_nodes`:
every scalar is text, a whole number or null, and any other tag is an error) -> the
structural check against `schema.FILE_SCHEMA` -> `Scenario`s (`scenario_file`). Running a
scenario (`runner`) finds its ruleset as `variant of` finds a base, builds its start
(`start`), plays its plies and checks what needs the game (cells, pieces, players,
variables, the legality of each ply), then every expectation (`expectations`); the outcome
is a `Result` of a `Report` (`results`).

A scenario file is untrusted input: every way it can be wrong ends in a `ScenarioError`
(`file:line:col: error: ...`), and every cost it can ask for is bounded (`limits`).
"""

from interpreter.apps.scenarios import limits
from interpreter.apps.scenarios.errors import ScenarioError, ScenarioFileError
from interpreter.apps.scenarios.expectations import check_expectations, perft_counts
from interpreter.apps.scenarios.limits import Budget
from interpreter.apps.scenarios.plies import ply_key
from interpreter.apps.scenarios.results import Failure, Report, Result
from interpreter.apps.scenarios.runner import Runner, ruleset_path, run_files
from interpreter.apps.scenarios.scenario_file import Scenario, load_file, parse_scenarios
from interpreter.apps.scenarios.schema import (CELLS, EXPECT, FILE_SCHEMA, PLY_LIST, SCENARIO,
    SCENARIO_FIELDS, SCENARIO_LIST, START, VALUE, Either, Fields, ListOf, MapOf, PerftList, Spec,
    Text, Whole)
from interpreter.apps.scenarios.start import game_state_from_pieces, start_state
from interpreter.apps.scenarios.yaml_nodes import Node, parse_yaml

__all__ = ["Budget", "CELLS", "EXPECT", "Either", "FILE_SCHEMA", "Failure", "Fields", "ListOf", "MapOf", "Node",
           "PLY_LIST", "PerftList", "Report", "Result", "Runner", "SCENARIO", "SCENARIO_FIELDS", "SCENARIO_LIST",
           "START", "Scenario", "ScenarioError", "ScenarioFileError", "Spec", "Text", "VALUE", "Whole",
           "check_expectations", "game_state_from_pieces", "limits", "load_file", "parse_scenarios",
           "parse_yaml", "perft_counts", "ply_key", "ruleset_path", "run_files", "start_state"]
