"""Observation tensors: planes, perspectives and grid coordinates checked by hand."""

from __future__ import annotations

import random

import pytest

from interpreter.runtime.action_ids import ActionSpace
from interpreter.runtime.observation import Observer, grid_coordinates

from conftest import all_rulesets, game_of

np = pytest.importorskip("numpy")


def test_three_musketeers_start_from_each_side():
    g = game_of("three-musketeers")
    s = g.initial_state()
    obs = Observer(g)
    assert obs.planes == ["own musketeer", "opponent's musketeer", "own enemy", "opponent's enemy",
                          "to move: Musketeers", "to move: Enemy"]
    assert obs.shape == (6, 25)
    t = obs.tensor(s)
    musketeers = [g.board.names[c] for c in np.flatnonzero(t[0])]
    assert sorted(musketeers) == ["a1", "c3", "e5"]
    assert t[1].sum() == 0 and t[2].sum() == 0 and t[3].sum() == 22
    assert t[4].sum() == 25 and t[5].sum() == 0  # the Musketeers move, on every cell
    seen_by_enemy = obs.tensor(s, player=1)  # the same position, planes swapped
    assert (seen_by_enemy[1] == t[0]).all() and (seen_by_enemy[2] == t[3]).all()
    absolute = Observer(g, "absolute").tensor(s, player=1)
    assert absolute.shape == (4, 25) and (absolute[0] == t[0]).all()


def test_square_grid_rows_count_from_the_north():
    g = game_of("three-musketeers")
    coords, shape = grid_coordinates(g.board)
    assert shape == (5, 5)
    assert coords[g.board.index["a5"]] == (0, 0) and coords[g.board.index["e1"]] == (4, 4)
    t = Observer(g, grid=True).tensor(g.initial_state())
    assert t.shape == (6, 5, 5)
    assert t[0, 4, 0] == 1 and t[0, 2, 2] == 1 and t[0, 0, 4] == 1 and t[0].sum() == 3  # a1 c3 e5


def test_hexagon_in_axial_coordinates_with_goals_below():
    g = game_of("3-a-side")
    coords, (rows, cols) = grid_coordinates(g.board)
    assert (rows, cols) == (8, 7)  # a hexagon of side 4: 7 x 7 axial, then the goals' row
    assert len(set(coords)) == g.board.size  # one grid cell each
    for cell in range(g.board.size):
        if cell in g.board.goals:
            continue
        for nb in g.board.neighbours(cell, ["e"]):
            if nb not in g.board.goals:  # a step east is one column on, the same row
                assert coords[nb] == (coords[cell][0], coords[cell][1] + 1)
        for nb in g.board.neighbours(cell, ["se"]):
            if nb not in g.board.goals:
                assert coords[nb] == (coords[cell][0] + 1, coords[cell][1] + 1)
    assert [coords[goal][0] for goal in g.board.goals] == [7] * len(g.board.goals)


def test_variables_reserves_phase_and_previous_ply():
    g = game_of("force-3")
    obs = Observer(g)
    assert obs.planes == ["tile", "own disc", "opponent's disc", "to move: Yellow", "to move: Green",
                          "reserve.disc/Yellow", "reserve.disc/Green", "previous: slide",
                          "previous: double", "previous from", "previous here"]
    t = obs.tensor(g.initial_state())
    assert t[5, 0] == 3 and t[6, 0] == 3  # three discs each in reserve
    assert t[0].sum() == 8  # eight tiles, one hole
    s3 = game_of("3-spot")
    planes = Observer(s3).planes
    assert planes[5:] == ["to move: Blue", "to move: Red", "phase 0", "phase 1", "own score",
                          "opponent's score"]


def test_a_chain_begun_shows_its_route():
    g = game_of("whistling-captures")
    space, obs = ActionSpace(g), Observer(g)
    assert obs.planes[-2:] == ["route", "chain at"]
    rng = random.Random(3)
    s = g.initial_state()
    while not [a for a in g.legal_actions(s) if len(space.encode(s, a)) >= 2]:
        s = g.apply(s, rng.choice(g.legal_actions(s)))
    a = next(a for a in g.legal_actions(s) if len(space.encode(s, a)) >= 2)
    ids = space.encode(s, a)
    route = space.route(ids[:1])
    t = obs.tensor(s, route=route)
    assert sorted(np.flatnonzero(t[-2])) == sorted(route) and np.flatnonzero(t[-1]).tolist() == [route[-1]]
    assert obs.tensor(s)[-2:].sum() == 0


@pytest.mark.parametrize("name", all_rulesets())
def test_every_ruleset_has_a_tensor_of_its_shape(name):
    g = game_of(name)
    for grid in (False, True):
        for perspective in ("mover", "absolute"):
            obs = Observer(g, perspective, grid)
            t = obs.tensor(g.initial_state())
            assert t.shape == obs.shape and t.dtype == np.float32 and len(obs.planes) == obs.shape[0]
    assert Observer(g, grid=True).tensor(g.initial_state()).sum() == Observer(g).tensor(g.initial_state()).sum()


def test_unknown_perspective():
    with pytest.raises(ValueError, match="unknown perspective 'theirs' \\(known: mover, absolute\\)"):
        Observer(game_of("tic-tac-toe"), "theirs")


def test_adjacency_is_the_boards_arcs():
    ttt = Observer(game_of("tic-tac-toe"))  # a 3 x 3 board with diagonals: a king's moves
    a = ttt.adjacency()
    at = game_of("tic-tac-toe").board.index
    assert a.shape == (9, 9) and a.sum() == 40  # 20 lines, both ways
    assert (a[at["b2"]].sum(), a[at["a1"]].sum(), a[at["a2"]].sum()) == (8, 3, 5)
    assert (a == a.T).all() and not a.diagonal().any()
    side = game_of("3-a-side")  # goals: entered, never left
    g = Observer(side).adjacency()
    goal = side.board.goals[0]
    assert g[goal].sum() == 0 and g[:, goal].sum() > 0
