"""Fixed action ids: sizes derived by hand, the bijection on every bundled ruleset, hops."""

from __future__ import annotations

import random

import pytest

from interpreter import IllegalActionError
from interpreter.runtime.action_ids import ActionSpace

from conftest import all_rulesets, game_of


@pytest.mark.parametrize("name, size", [
    ("tic-tac-toe", 9),  # a mark on one of 9 cells (no turn allows a pass: no id for one)
    ("three-musketeers", 25 * 25 * 2),  # capture and advance: from x to, one piece type each
    ("force-3", 9 + 81 + 81 + 4 * 81),  # place, shift a disc, slide a tile, push 2 (4 directions)
    ("3-spot", 12 + 12),  # a domino has 12 placements on 3x3; colour and white
    ("3-spot-optional-white", 12 + 12 + 1),  # `white or pass`: a pass is a ply, with its id
    ("tricouleur", 2 * 3 * 169 * 169),  # slide and replace, three colours each
    ("whistling-captures", 331 * 331 + 331 * 331 * 2),  # crush; whistle hops (end or not)
])
def test_size_is_derived_from_the_rules(name, size):
    assert ActionSpace(game_of(name)).size == size


def test_ids_are_laid_out_rule_by_rule():
    g = game_of("three-musketeers")
    space = ActionSpace(g)
    s = g.initial_state()
    a1, b1 = g.board.index["a1"], g.board.index["b1"]
    assert space.encode(s, g.action_from_text(s, "a1-b1")) == (a1 * 25 + b1,)
    assert space.id_text(a1 * 25 + b1) == "capture musketeer a1-b1"
    assert space.id_text(625 + a1 * 25 + b1) == "advance enemy a1-b1"
    assert space.size == 1250  # no `pass` id: no turn allows one
    assert space.legal_ids(s) == sorted(space.encode(s, a)[0] for a in g.legal_actions(s))
    assert len(space.legal_ids(s)) == 8
    assert space.legal_mask(s).count(1) == 8


def walk(g, seed: int, games: int, plies: int):
    """The positions of seeded random games (up to `plies` each) and their legal plies."""
    rng = random.Random(seed)
    for _ in range(games):
        s = g.initial_state()
        for _ in range(plies):
            actions = g.legal_actions(s)
            if not actions:
                break
            yield s, actions
            s = g.apply(s, rng.choice(actions))


@pytest.mark.parametrize("name", all_rulesets())
def test_every_legal_ply_has_distinct_ids_that_decode_back(name):
    g = game_of(name)
    space = ActionSpace(g)
    positions = 0
    for s, actions in walk(g, 7, 4, 60):
        positions += 1
        seen = set()
        for a in actions:
            ids = space.encode(s, a)
            assert all(0 <= i < space.size for i in ids)
            assert ids not in seen
            seen.add(ids)
            for k in range(1, len(ids)):  # a chain: each hop begins it, only the last ends it
                assert space.decode(s, ids[:k]) is None
                assert ids[k] in space.legal_ids(s, ids[:k])
            assert space.decode(s, ids) == a
        assert {ids[0] for ids in seen} <= set(space.legal_ids(s))
    assert positions >= 20


def test_chained_plies_are_hops_along_a_route():
    g = game_of("whistling-captures")
    space = ActionSpace(g)
    assert space.hops and "'whistle'" in space.notice()
    rng = random.Random(3)
    s = g.initial_state()
    while True:
        long = [a for a in g.legal_actions(s) if len(space.encode(s, a)) >= 2]
        if long:
            break
        s = g.apply(s, rng.choice(g.legal_actions(s)))
    a = long[0]
    ids = space.encode(s, a)
    route = g.routes(s, a)[0]
    assert space.route(ids) == tuple(route)
    assert [space.id_text(i).endswith(" end") for i in ids] == [False] * (len(ids) - 1) + [True]
    state, prefix = s, ()
    for i in ids[:-1]:
        state, prefix = space.apply_id(state, prefix, i)
        assert state == s
    after = space.legal_ids(s, prefix)
    with pytest.raises(IllegalActionError) as e:
        space.apply_id(state, prefix, 0)  # a crush, in the middle of a chain
    assert str(e.value).endswith(f"make no legal ply in this position ({len(after)} legal after "
                                 f"the hops before it)")
    assert space.apply_id(state, prefix, ids[-1]) == (g.apply(s, a), ())


def _route_ids(space, g, s, a):
    """Each route of chain `a` as ids: the hops' numbering written out from action_ids.py's
    table, the routes listed by the rules' own route search (not the hops' graph)."""
    seg = next(x for x in space.segments if x.name == g.rule_infos[a[0]].name)
    t, n = space._pieces[a[0]].index(a[1]), space.cells  # the piece's number among the rule's
    return [tuple(seg.start + ((t * n + x) * n + y) * 2 + (i == len(r) - 2) for i, (x, y) in enumerate(zip(r, r[1:])))
            for r in g.routes(s, a)]


@pytest.mark.parametrize("name", ["whistling-captures", "rulesets/library/english-draughts.game",
                                  "rulesets/library/konane.game", "rulesets/library/alquerque.game"])
def test_the_hops_graph_gives_the_ids_of_every_route(name):
    # the next legal ids after every prefix of every route of every legal chain, from the
    # hops' graph (chain_hops.py), against the routes listed one by one
    g = game_of(name)
    space = ActionSpace(g)
    begun = 0
    for s, actions in walk(g, 11, 4, 100):
        seqs = {}
        for a in actions:
            for ids in (_route_ids(space, g, s, a) if space._encoders[a[0]] is None else [space.encode(s, a)]):
                assert seqs.setdefault(ids, a) == a
        for p in {ids[:k] for ids in seqs for k in range(len(ids))}:
            assert space.legal_ids(s, p) == sorted({q[len(p)] for q in seqs if q[:len(p)] == p}), p
            if p:  # a chain of two hops or more, begun
                assert space.decode(s, p) is None
                begun += 1
        for ids, a in seqs.items():
            assert space.decode(s, ids) == a
    assert begun > 0


def test_games_without_chains_have_one_id_a_ply_and_no_notice():
    assert ActionSpace(game_of("3-a-side")).notice() is None
    assert not ActionSpace(game_of("3-a-side")).hops


def test_a_chain_of_hops_that_takes_nothing_is_one_id_a_ply():
    # Chinese checkers: a ply is known by its man's start and end, however many routes
    # lead there (numbering the routes' hops would be exponential in them)
    g = game_of("rulesets/library/chinese-checkers.game")
    space = ActionSpace(g)
    assert not space.hops and space.size == 2 * 121 * 121 and space.notice() is None  # step, hop
    rng, state = random.Random(5), g.initial_state()
    for _ in range(60):
        actions = g.legal_actions(state)
        assert sorted(space.encode(state, a)[0] for a in actions) == space.legal_ids(state)
        a = rng.choice(actions)
        (i,) = space.encode(state, a)
        assert space.decode(state, (i,)) == a
        rule, names = g.rule_infos[a[0]].name, g.board.names
        assert space.id_text(i) == f"{rule} man {names[a[2]]}-{names[a[3]]}"
        state = g.apply(state, a)


def test_an_illegal_id_is_refused_with_what_it_names():
    g = game_of("three-musketeers")
    space = ActionSpace(g)
    s = g.initial_state()
    with pytest.raises(IllegalActionError) as e:
        space.apply_id(s, (), 625)  # advance enemy a1-a1: what the id names, not legal
    assert str(e.value) == "action id advance enemy a1-a1 makes no legal ply in this position (8 legal)"
    with pytest.raises(ValueError, match=r"action id 1250 is out of range 0\.\.1249"):
        space.id_text(1250)


def test_ids_are_the_same_in_another_process():
    import subprocess
    import sys
    code = ("from interpreter import load_game\n"
            "from interpreter.runtime.action_ids import ActionSpace\n"
            "g = load_game('force-3'); s = g.initial_state()\n"
            "print(ActionSpace(g).legal_ids(s))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    g = game_of("force-3")
    assert out.stdout.strip() == str(ActionSpace(g).legal_ids(g.initial_state()))


def test_ids_out_of_range_or_not_whole_are_illegal():
    g = game_of("tic-tac-toe")
    space = ActionSpace(g)
    s = g.initial_state()
    with pytest.raises(IllegalActionError, match=r"^action id 9 is out of range 0\.\.8$"):
        space.apply_id(s, (), 9)
    with pytest.raises(IllegalActionError, match=r"^action ids are whole numbers, found \(1\.5,\)$"):
        space.apply_id(s, (), 1.5)


def test_numpy_integers_are_ids():
    np = pytest.importorskip("numpy")
    g = game_of("tic-tac-toe")
    s = g.initial_state()
    assert ActionSpace(g).apply_id(s, (), np.int64(4)) == (g.apply(s, g.action_from_text(s, "b2")), ())


def test_threads_share_a_space():
    """Each thread remembers its own last position: legal ids asked from many threads at
    once are the ids asked one at a time."""
    import threading
    g = game_of("whistling-captures")
    space = ActionSpace(g)
    rng = random.Random(3)
    states, s = [], g.initial_state()
    for _ in range(12):
        states.append(s)
        s = g.apply(s, rng.choice(g.legal_actions(s)))
    want = [ActionSpace(g).legal_ids(x) for x in states]
    got: dict[int, list] = {}

    def ask(k: int) -> None:
        got[k] = [space.legal_ids(states[(k + i) % len(states)]) for i in range(3 * len(states))]

    threads = [threading.Thread(target=ask, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k, lists in got.items():
        assert lists == [want[(k + i) % len(states)] for i in range(3 * len(states))]
