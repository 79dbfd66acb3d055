"""Search and solving: retrograde solver, symmetry, alpha-beta, df-pn, MCTS, agents, CLI."""

import functools
import json

import pytest

from interpreter import load_game
from interpreter.apps import cli
from interpreter.search.agents import make_agent
from interpreter.search.alphabeta import AlphaBeta
from interpreter.search.proof import ProofSearch, proof_value
from interpreter.search.solver import Codec, Solution, SolveError, solve
from interpreter.runtime.layout import SlotKind
from interpreter.search.symmetry import (Canonicalizer, board_symmetries, candidate_symmetries,
    permute_state, sample_positions)

from conftest import all_rulesets, game_of

# A neutral token on a strip a1..e1; each ply slides it 1 or 2 cells east; whoever puts it
# on e1 wins. Distance d to e1: d % 3 == 0 loses. From a1 (d = 4): win in 3 (a1-b1, then
# any reply, then the finish); from b1 (d = 3): lose in 2.
STRIP = """
game "Strip"
board square 5 x 1
players First, Second
piece token: neutral, symbol T
setup token: a1
ply push: move token slide e up to 2
end home: mover wins if count(token & e1) == 1
"""

# A 2x2 cycle a1-b1-b2-a2. Blue (first) must step each ply; Red wins on reaching b2.
# From the setup Blue can shuttle between b2 and its neighbours forever: a draw. With
# Blue on a1 and Red on b1, Blue to move, Blue must go to a2 and Red steps onto b2:
# Blue loses in 2.
CYCLE = """
game "Cycle"
board square 2 x 2
players Blue, Red
piece blue: owner Blue, symbol B
piece red: owner Red, symbol R
region goal: b2
setup blue: b2
setup red: a1
ply step: move own piece step orthogonal
end home: Red wins if count(red & goal) == 1
"""

# Two pieces on a 2x2 square that can always step: nobody is ever stuck, nothing ends.
CAROUSEL = """
game "Carousel"
board square 2 x 2
players A, B
piece a: owner A, symbol A
piece b: owner B, symbol B
setup a: a1
setup b: b2
ply step: move own piece step orthogonal
"""


@functools.lru_cache(maxsize=None)
def solved(name: str, symmetric: bool = False):
    game = game_of(name)
    return solve(game, symmetry=symmetric)


def tic_tac_toe():
    return game_of("tic-tac-toe")


# ------------------------------------------------------------------ hand-checked values

def test_strip_values_by_hand(write_game):
    game = load_game(write_game(STRIP))
    sol = solve(game)
    start = game.initial_state()
    assert sol.lookup(start) == ("win", 3)
    assert [game.action_to_text(start, a) for a in sol.best_actions(start)] == ["a1-b1"]
    by_cell = {}
    for d, cell in enumerate(["e1", "d1", "c1", "b1", "a1"]):
        for player in game.players:
            s = game.state_from_text(f"{'....'[:4 - d]}T{'....'[:d]} {player}")
            assert game.board.names[(s[0] & -s[0]).bit_length() - 1] == cell
            by_cell[cell, player] = solve(game, s).lookup(s)
    # d = 0 is over (the previous mover won); then win 1, win 1, lose 2, win 3
    assert by_cell["e1", "First"] == ("lose", 0)
    assert by_cell["d1", "First"] == ("win", 1)
    assert by_cell["c1", "Second"] == ("win", 1)
    assert by_cell["b1", "First"] == ("lose", 2)
    assert by_cell["a1", "Second"] == ("win", 3)
    plies = {p.text: (p.value, p.remoteness) for p in sol.analyze(start)}
    assert plies == {"a1-b1": ("win", 3), "a1-c1": ("lose", 2)}


def test_loopy_game_with_a_known_draw(write_game):
    game = load_game(write_game(CYCLE))
    sol = solve(game)
    start = game.initial_state()
    assert sol.lookup(start) == ("draw", None)
    assert all(p.value == "draw" for p in sol.analyze(start))
    lost = game.state_from_text("../BR Blue")  # Blue a1, Red b1
    assert solve(game, lost).lookup(lost) == ("lose", 2)
    assert lost not in sol  # Red can only reach b1 from a1, where Blue stands


def test_game_that_never_ends_is_a_draw_everywhere(write_game):
    game = load_game(write_game(CAROUSEL))
    sol = solve(game)
    # 4 * 3 placements, either player to move: 24, of which half are reachable, since
    # each ply moves one piece to a square of the other colour and passes the turn
    assert len(sol) == 12
    assert sol.counts() == {"win": 0, "lose": 0, "draw": 12}
    assert sol.lookup(game.initial_state()) == ("draw", None)


def test_tic_tac_toe_is_a_draw_with_5478_positions():
    sol = solved("tic-tac-toe")
    assert sol.lookup(sol.root) == ("draw", None)
    assert len(sol) == 5478
    assert len(sol.best_actions(sol.root)) == 9  # every opening ply draws


def test_tic_tac_toe_positions_by_hand():
    game = tic_tac_toe()
    sol = solved("tic-tac-toe")
    # X a1 b1, O a3 b3, X to move: c1 wins at once (the shortest win, not a longer one)
    s = game.state_from_text("OO./.../XX. X")
    assert sol.lookup(s) == ("win", 1)
    assert [game.action_to_text(s, a) for a in sol.best_actions(s)] == ["c1"]
    # X has a fork (a1-c1 and a1-a3 open, O nowhere near): O blocks one, X plays the other
    s = game.state_from_text("X.O/.O./X.X O")
    assert sol.lookup(s) == ("lose", 2)


# ------------------------------------------------------------------ remoteness rules

def _check_bellman(game, sol):
    """Every stored position's value and remoteness follow from its children's."""
    n = 0
    for s in sample_positions(game, 3000, seed=11, start=sol.root):
        v, r = sol.lookup(s)
        if game.is_terminal(s):
            assert r == (None if v == "draw" else 0)
            continue
        plies = sol.analyze(s)
        wins = [p.remoteness for p in plies if p.value == "win"]
        if v == "win":
            assert r == min(wins)  # the winner takes the shortest way
        elif v == "lose":
            assert all(p.value == "lose" for p in plies)
            assert r == max(p.remoteness for p in plies)  # the loser the longest
        else:
            assert r is None and not wins and any(p.value == "draw" for p in plies)
        n += 1
    return n


def test_remoteness_rules_hold_in_tic_tac_toe():
    assert _check_bellman(tic_tac_toe(), solved("tic-tac-toe")) > 1000


def test_remoteness_rules_hold_in_3_spot_where_turns_have_two_plies():
    game = game_of("3-spot")
    sol = solved("3-spot")
    assert _check_bellman(game, sol) > 1000
    counts = sol.counts()
    assert counts["draw"] > 0 and counts["win"] > 0 and counts["lose"] > 0


def test_3_spot_start():
    sol = solved("3-spot")
    game = game_of("3-spot")
    assert len(sol) == 177_233
    assert sol.lookup(sol.root) == ("win", 47)
    assert [game.action_to_text(sol.root, a) for a in sol.best_actions(sol.root)] == ["c1+c2-a3+b3"]


# ------------------------------------------------------------------ symmetry

def test_symmetry_groups_follow_what_the_rules_refer_to():
    assert len(board_symmetries(tic_tac_toe())) == 8
    tm = game_of("three-musketeers")
    perms = board_symmetries(tm)
    # setup a1, c3, e5: the two diagonal mirrors and the half turn keep it
    assert len(perms) == 4
    assert len(candidate_symmetries(tm, setups=False)) == 8
    spot = game_of("3-spot")
    assert board_symmetries(spot) == [tuple(range(9))]  # the setup is not mirror-symmetric
    mirror = (2, 1, 0, 5, 4, 3, 8, 7, 6)
    assert board_symmetries(spot, setups=False) == [tuple(range(9)), mirror]
    # point squares on the middle rank: the quarter turns move them, the mirrors keep them
    assert len(board_symmetries(game_of("3-spot-middle-points"), setups=False)) == 4


def test_force_3_keeps_its_8_symmetries_with_the_previous_ply_mapped():
    # Force 3 is a 3x3 board with diagonals, whose automorphisms are the 8 of the square
    # (4 turns, 4 mirrors). Each keeps everything the rules refer to: the region `centre`
    # (b2, fixed by all 8), the tiles' setup (every cell but b2), the direction sets
    # `orthogonal` (turns and mirrors map orthogonal links to orthogonal links) and `all`;
    # `last_ply(slide, double)` names rules, not directions. The state remembers the last
    # slide's cells (`previous.from`, `previous.here`), and these are mapped with the board,
    # so all 8 also pass the check on sampled positions (before, when only the piece masks
    # were mapped, that check dropped all but the identity).
    game = game_of("force-3")
    perms = board_symmetries(game)
    assert len(candidate_symmetries(game)) == 8
    assert len(perms) == 8 == len(set(perms)) and perms[0] == tuple(range(9))


def _remembering(game, count):
    """Sampled positions of `game` that remember a previous ply's cells."""
    M = game.layout.memory
    return [s for s in sample_positions(game, 400, seed=7) if s[M]][:count]


def test_force_3_images_of_a_position_share_its_canonical_form():
    game = game_of("force-3")
    perms = board_symmetries(game)
    codec = Codec(game)
    canon = Canonicalizer(perms, codec.masks, codec.cells)
    M = game.layout.memory
    for s in _remembering(game, 20):
        images = [permute_state(game, s, p) for p in perms]
        assert len({codec.pack(x) for x in images}) > 1  # the images are other positions
        assert len({canon.canonical(codec.pack(x)) for x in images}) == 1
        for p, x in zip(perms, images):  # the remembered cells went with the board
            assert [x[M + 1], x[M + 2]] == [sum(1 << p[c] for c in range(9) if s[i] >> c & 1)
                                            for i in (M + 1, M + 2)]
            assert x[M] == s[M]  # the rule is kept: it names a rule, not a direction


# Tic-tac-toe with three stones each and a rover on b2 that either player may roll one
# cell instead of dropping a stone, but not straight back: the state remembers the last
# roll's cells, which a board symmetry must map for any of the 8 to survive.
ROVER = """
game "Rover"
board square 3 x 3
players Cross, Nought
piece rover: neutral, symbol R
piece stone: owner each, reserve 3, symbol X/O
setup rover: b2
ply drop: place own stone onto empty
ply roll: move rover step orthogonal onto empty where not undoes(roll)
end three: mover wins if line(3, own stone, all, contiguous)
"""


def _same_everywhere(game, full, reduced):
    """Every position the full solution holds has the same value and remoteness in the
    reduced one."""
    for i, key in enumerate(full.keys):
        s = full.codec.unpack(key)
        assert reduced.lookup(s) == full.lookup(s), game.state_to_text(s)


def test_symmetry_on_and_off_agree_where_the_state_remembers_cells(write_game):
    game = load_game(write_game(ROVER))
    assert len(board_symmetries(game)) == 8
    full, reduced = solve(game), solve(game, symmetry=True)
    assert (len(full), len(reduced)) == (59_337, 7_573)
    assert full.lookup(full.root) == reduced.lookup(reduced.root) == ("draw", None)
    _same_everywhere(game, full, reduced)


@pytest.mark.slow
def test_symmetry_on_and_off_agree_on_force_3():
    game = game_of("force-3")
    full, reduced = solve(game), solved("force-3", True)
    assert (len(full), len(reduced)) == (267_577, 33_921)
    assert full.lookup(full.root) == reduced.lookup(reduced.root) == ("win", 9)
    _same_everywhere(game, full, reduced)


def _cells_mask(cells, n):
    return sum(1 << c for c in cells if c < n)


@pytest.mark.parametrize("name", all_rulesets())
def test_every_slot_is_mapped_or_kept_by_its_kind(name):
    game = game_of(name)
    layout, n = game.layout, game.board.size
    mapped = {SlotKind.PIECES, SlotKind.LAST_CELLS}
    assert {s.kind for s in layout.slots if s.kind.holds_cells} <= mapped
    assert [s.index for s in layout.slots] == list(range(layout.length))
    # cells 0 and 1 in every mask, a distinct number elsewhere; a turn by one cell
    state = tuple(_cells_mask((0, 1), n) if s.kind in mapped else 100 + s.index
                  for s in layout.slots)
    perm = tuple((c + 1) % n for c in range(n))
    image = permute_state(game, state, perm)
    for s in layout.slots:
        want = _cells_mask((1, 2 % n), n) if s.kind in mapped else state[s.index]
        assert image[s.index] == want, (s, image[s.index])
    codec = Codec(game)
    assert codec.mask_slots == layout.cell_slots()
    assert sorted(list(codec.mask_slots) + [f.slot for f in codec.fields]) == \
        list(range(layout.length))


def test_some_bundled_ruleset_remembers_cells():
    # so that the test above meets a LAST_CELLS slot
    kinds = {s.kind for name in all_rulesets() for s in game_of(name).layout.slots}
    assert SlotKind.LAST_CELLS in kinds and SlotKind.LAST_RULE in kinds


def test_symmetries_map_plies_to_plies():
    game = tic_tac_toe()
    for perm in board_symmetries(game):
        for s in sample_positions(game, 50, seed=3):
            image = permute_state(game, s, perm)
            kids = {permute_state(game, game.apply(s, a), perm) for a in game.legal_actions(s)}
            assert kids == {game.apply(image, a) for a in game.legal_actions(image)}


def _same_values(game, full, reduced):
    for s in sample_positions(game, 2000, seed=5, start=full.root):
        assert full.lookup(s) == reduced.lookup(s)


def test_symmetry_on_and_off_agree_on_tic_tac_toe():
    full, reduced = solved("tic-tac-toe"), solved("tic-tac-toe", True)
    assert len(reduced) == 765  # the classic count of essentially different positions
    assert reduced.lookup(reduced.root) == full.lookup(full.root)
    _same_values(tic_tac_toe(), full, reduced)


def test_symmetry_on_and_off_agree_on_3_spot_mirrored():
    game = game_of("3-spot")
    full = solved("3-spot")
    reduced = solve(game, symmetry=board_symmetries(game, setups=False))
    assert len(full) // 2 < len(reduced) < len(full)
    assert reduced.lookup(game.initial_state()) == full.lookup(game.initial_state())
    _same_values(game, full, reduced)


# ------------------------------------------------------------------ alpha-beta and df-pn

def test_alphabeta_agrees_with_the_solver_on_tic_tac_toe():
    game, sol = tic_tac_toe(), solved("tic-tac-toe")
    ab = AlphaBeta(game)
    for s in sample_positions(game, 400, seed=9)[::4]:
        if game.is_terminal(s):
            continue
        v, r = sol.lookup(s)
        res = ab.search(s, depth=9)
        assert (res.value, res.remoteness) == ((None, None) if v == "draw" else (v, r))
        assert set(res.best) == set(sol.best_actions(s))


def test_alphabeta_agrees_with_the_solver_on_3_spot():
    game, sol = game_of("3-spot"), solved("3-spot")
    checked = 0
    for s in sample_positions(game, 3000, seed=2):
        v, r = sol.lookup(s)
        if game.is_terminal(s) or (v != "draw" and r > 5):
            continue
        res = AlphaBeta(game).search(s, depth=r or 5)
        assert (res.value, res.remoteness) == ((None, None) if v == "draw" else (v, r))
        if v != "draw":
            assert set(res.best) == set(sol.best_actions(s))
        checked += 1
    assert checked > 50


def test_alphabeta_time_limit_still_answers():
    game = game_of("three-musketeers")
    res = AlphaBeta(game).search(game.initial_state(), time_limit=0.05)
    assert res.depth >= 1 and res.best and res.nodes > 0


@pytest.mark.parametrize("mobility", [False, True])
def test_proof_search_agrees_with_the_solver(mobility):
    game, sol = tic_tac_toe(), solved("tic-tac-toe")
    for s in sample_positions(game, 300, seed=4)[::5]:
        v, _ = sol.lookup(s)
        for player in (0, 1):
            wins = (v == "win") == (game.to_move(s) == player) and v != "draw"
            ps = ProofSearch(game, player, mobility=mobility)
            assert ps.prove(s).proven is wins
            if wins:
                assert ps.proof_depth(s) >= sol.lookup(s).remoteness


def test_proof_search_with_a_depth_limit_in_a_loopy_game():
    game, sol = game_of("3-spot"), solved("3-spot")
    for s in sample_positions(game, 200, seed=8)[::10]:
        v, r = sol.lookup(s)
        me = game.to_move(s)
        res = ProofSearch(game, me, depth_limit=6).prove(s)
        assert res.proven is (v == "win" and r <= 6)


def test_proof_search_stops_at_its_node_budget():
    game = game_of("three-musketeers")
    res = ProofSearch(game, 1, max_nodes=200).prove(game.initial_state())
    assert res.proven is None and 200 <= res.nodes <= 201


def test_proof_value_matches_the_solver():
    game, sol = tic_tac_toe(), solved("tic-tac-toe")
    perms = board_symmetries(game)
    for s in sample_positions(game, 200, seed=12)[::4]:
        value, wins, _ = proof_value(game, s, symmetry=perms)
        assert value == sol.lookup(s).value
        if value == "win":
            best = {p.action for p in sol.analyze(s) if p.value == "win"}
            assert wins and set(wins) <= best


def test_a_disproof_without_draws_proves_the_other_side(write_game):
    strip = load_game(write_game(STRIP))
    lost = strip.state_from_text(".T... First")  # d = 3: First loses
    ps = ProofSearch(strip, 0)
    assert ps.prove(lost).proven is False and not ps.saw_non_loss
    assert proof_value(strip, lost) == ("lose", [], len(ps.table))
    game = tic_tac_toe()
    ps = ProofSearch(game, 0)
    assert ps.prove(game.initial_state()).proven is False and ps.saw_non_loss


# ------------------------------------------------------------------ solution files

def test_solution_file_round_trip(tmp_path):
    game, sol = tic_tac_toe(), solved("tic-tac-toe", True)
    path = tmp_path / "ttt.sol"
    sol.save(str(path))
    loaded = Solution.load(str(path), game)
    assert len(loaded) == len(sol)
    for s in sample_positions(game, 300, seed=1):
        assert loaded.lookup(s) == sol.lookup(s)
    assert loaded.root == game.initial_state()


def test_solution_file_for_another_game_is_refused(tmp_path, write_game):
    path = tmp_path / "ttt.sol"
    solved("tic-tac-toe").save(str(path))
    other = load_game(write_game(STRIP))
    with pytest.raises(ValueError, match="another ruleset"):
        Solution.load(str(path), other)
    bad = tmp_path / "bad.sol"
    bad.write_bytes(b"not a solution")
    with pytest.raises(ValueError, match="not a rulecraft solution"):
        Solution.load(str(bad), tic_tac_toe())
    cut = tmp_path / "cut.sol"
    cut.write_bytes(path.read_bytes()[:-10])
    with pytest.raises(ValueError, match="truncated"):
        Solution.load(str(cut), tic_tac_toe())


def test_codec_round_trips_and_refuses_what_it_cannot_store():
    game = game_of("3-spot")
    codec = Codec(game)
    for s in sample_positions(game, 200, seed=6):
        assert codec.unpack(codec.pack(s)) == s
    s = list(game.initial_state())
    s[game.layout.var_offsets["score"]] = 1 << 20
    with pytest.raises(SolveError):
        codec.pack(tuple(s))


COUNTED = """
game "Counted"
board square 3 x 1
players First, Second
piece stone: owner each, reserve 2, symbol F/S
var drops = 0 in 0..6
ply drop: place own stone onto empty then drops += 1
end full: draw if count(empty) == 0
"""


def test_codec_packs_each_slot_as_its_kind_needs(write_game):
    game = load_game(write_game(COUNTED))
    codec = Codec(game)
    widths = {game.layout.slots[f.slot].name: (f.low, f.high, f.width) for f in codec.fields}
    assert widths == {"player": (0, 1, 1), "phase": (0, 0, 0), "drops": (0, 6, 3),
                      "reserve.stone/First": (0, 2, 2), "reserve.stone/Second": (0, 2, 2),
                      "outcome": (-1, 2, 2)}
    assert codec.bits == 2 * 3 + 1 + 0 + 3 + 2 + 2 + 2
    for s in sample_positions(game, 100, seed=2):
        assert codec.unpack(codec.pack(s)) == s
    s = list(game.initial_state())
    s[game.layout.var_offsets["drops"]] = 7
    with pytest.raises(SolveError, match="^variable drops holds 7, outside 0 to 6, what a "
                                         "solution can store$"):
        codec.pack(tuple(s))
    assert solve(game).lookup(game.initial_state()) == ("draw", None)


def test_force_3_keys_shrink_to_7_bytes():
    # 5 cell masks of 9 bits (3 piece types, the previous ply's from and here), the player
    # (1 bit), one phase (0), two reserves of 0..3 (2 bits each), the previous rule 0..5
    # (4 rules, 0 for none and 5 for a pass: 3 bits), the outcome -1..2 (2 bits)
    codec = Codec(game_of("force-3"))
    assert (codec.masks, codec.bits, codec.key_bytes) == (5, 45 + 1 + 4 + 3 + 2, 7)
    for s in sample_positions(game_of("force-3"), 300, seed=4):
        assert codec.unpack(codec.pack(s)) == s


def test_max_positions_stops_a_solve():
    with pytest.raises(SolveError, match="more than 100 positions"):
        solve(game_of("three-musketeers"), max_positions=100)


# ------------------------------------------------------------------ MCTS and agents

def _play(game, agents, state=None, limit=500):
    s = game.initial_state() if state is None else state
    for _ in range(limit):
        if game.is_terminal(s):
            break
        s = game.apply(s, agents[game.to_move(s)](s))
    return game.winner(s)


def test_mcts_beats_random_at_three_musketeers_from_either_side():
    # 20 seeded games, 10 a side. Random Musketeers already win most games against random
    # Enemy, so the Enemy side needs more iterations to turn that round.
    game = game_of("three-musketeers")
    wins = {0: 0, 1: 0}
    for side, spec in ((0, "mcts:50"), (1, "mcts:200")):
        for i in range(10):
            agents = [None, None]
            agents[side] = make_agent(spec, game, seed=i)
            agents[1 - side] = make_agent("random", game, seed=1000 + i)
            wins[side] += _play(game, agents) == side
    assert wins[0] >= 6 and wins[1] >= 6 and wins[0] + wins[1] >= 15, wins


def test_mcts_is_reproducible_with_a_seed():
    game = tic_tac_toe()
    s = game.initial_state()
    first = [make_agent("mcts:100", game, seed=7)(s) for _ in range(2)]
    assert first[0] == first[1]


def test_perfect_and_alphabeta_agents_never_lose_tic_tac_toe():
    game = tic_tac_toe()
    for i in range(6):
        for side in (0, 1):
            for spec in ("perfect", "alphabeta:9"):
                agents = [None, None]
                agents[side] = make_agent(spec, game, seed=i)
                agents[1 - side] = make_agent("random", game, seed=50 + i)
                assert _play(game, agents) in (side, None)


def test_perfect_agent_from_a_saved_solution(tmp_path):
    game = tic_tac_toe()
    path = tmp_path / "t.sol"
    solved("tic-tac-toe").save(str(path))
    agent = make_agent(f"perfect:{path}", game, seed=0)
    s = game.state_from_text("OO./.../XX. X")
    assert game.action_to_text(s, agent(s)) == "c1"


def test_perfect_agents_made_with_one_shared_dict_read_the_file_once(tmp_path, monkeypatch):
    game = tic_tac_toe()
    path = tmp_path / "t.sol"
    solved("tic-tac-toe").save(str(path))
    loads = []
    real_load = Solution.load
    monkeypatch.setattr(Solution, "load", lambda p, g: loads.append(p) or real_load(p, g))
    shared = {}
    agents = [make_agent(f"perfect:{path}", game, seed=i, shared=shared) for i in (0, 1)]
    assert _play(game, agents) is None  # tic-tac-toe is a draw
    assert loads == [str(path)]
    make_agent(f"perfect:{path}", game, seed=2)  # without the dict: read again
    assert len(loads) == 2


def test_perfect_agents_made_with_one_shared_dict_solve_once(monkeypatch):
    import interpreter.search.agents as agents_module
    game = tic_tac_toe()
    solves = []
    real_solve = agents_module.solve
    monkeypatch.setattr(agents_module, "solve",
                        lambda g, s, **kw: solves.append(s) or real_solve(g, s, **kw))
    shared = {}
    agents = [make_agent("perfect", game, seed=i, shared=shared) for i in (0, 1)]
    assert _play(game, agents) is None
    assert solves == [game.initial_state()]
    unshared = [make_agent("perfect", game, seed=i) for i in (0, 1)]
    assert _play(game, unshared) is None
    assert len(solves) == 3  # each of them solved from the first position it met


@pytest.mark.parametrize("spec", ["mcts", "mcts:0", "alphabeta:x", "robot", "mcts:-1s"])
def test_bad_agent_specs(spec):
    with pytest.raises(ValueError):
        make_agent(spec, tic_tac_toe(), seed=0)


# ------------------------------------------------------------------ command line

def test_cli_solve_json(capsys):
    code = cli.main(["solve", "tic-tac-toe", "--json"])
    out, _ = capsys.readouterr()
    assert code == 0
    assert json.loads(out) == {"value": "draw", "remoteness": None, "positions": 5478,
                               "best": ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"],
                               "winning": []}


def test_cli_solve_lists_every_winning_ply_quickest_first(capsys):
    code = cli.main(["solve", "tic-tac-toe", "--position", "OO./.../XX. X"])
    out, _ = capsys.readouterr()
    assert code == 0
    lines = out.splitlines()
    assert lines[-2:] == ["best: c1", "winning plies, quickest first: c1 (in 1), c3 (in 3)"]


def test_cli_solve_position_symmetry_and_save(capsys, tmp_path):
    path = tmp_path / "x.sol"
    code = cli.main(["solve", "tic-tac-toe", "--position", "OO./.../XX. X", "--symmetry",
                     "--save", str(path), "--json"])
    out, _ = capsys.readouterr()
    data = json.loads(out)
    assert code == 0 and data["value"] == "win" and data["remoteness"] == 1
    assert data["best"] == ["c1"]
    # X (a1, b1) against O (a3, b3): c1 wins at once; c3 blocks O and threatens both c1
    # and b2 (the diagonal a1-b2-c3), so X wins on its next ply; any other ply lets O
    # complete the top rank
    assert data["winning"] == [{"ply": "c1", "remoteness": 1}, {"ply": "c3", "remoteness": 3}]
    code = cli.main(["analyze", "tic-tac-toe", "--position", "OO./.../XX. X",
                     "--solution", str(path), "--json"])
    data = json.loads(capsys.readouterr()[0])
    assert code == 0
    plies = {p["ply"]: (p["value"], p["remoteness"]) for p in data["plies"]}
    assert plies["c1"] == ("win", 1)
    assert plies["c2"][0] == "lose"  # O then completes the top rank


def test_cli_solve_by_proof(capsys):
    code = cli.main(["solve", "tic-tac-toe", "--proof", "--json"])
    data = json.loads(capsys.readouterr()[0])
    assert code == 0 and data["value"] == "draw" and data["remoteness"] is None
    code = cli.main(["solve", "tic-tac-toe", "--proof", "--position", "X.O/.O./X.X O"])
    out = capsys.readouterr()[0]
    assert code == 0 and "lose for O (the player to move), by proof-number search" in out


def test_cli_analyze_text(capsys, write_game):
    path = write_game(STRIP)
    code = cli.main(["analyze", path, "--position", "T.... First"])
    out, _ = capsys.readouterr()
    assert code == 0
    assert "win for First (the player to move) in 3 plies" in out
    assert "a1-b1  win in 3  *" in out and "a1-c1  lose in 2" in out


def test_cli_solve_limit_is_a_usage_error(capsys):
    code = cli.main(["solve", "three-musketeers", "--max-positions", "50"])
    _, err = capsys.readouterr()
    assert code == 2 and "more than 50 positions" in err


@pytest.mark.parametrize("threads", ["1", "3"])
def test_cli_solve_threads_reach_the_native_solver(capsys, monkeypatch, threads):
    from interpreter.search import solver
    asked = []
    real = solver.solve_native
    monkeypatch.setattr(solver, "solve_native",
                        lambda *a, **kw: asked.append(kw["threads"]) or real(*a, **kw))
    code = cli.main(["solve", "tic-tac-toe", "--backend", "native", "--threads", threads, "--json"])
    data = json.loads(capsys.readouterr()[0])
    assert code == 0 and asked == [int(threads)]
    assert (data["value"], data["positions"]) == ("draw", 5478)


@pytest.mark.parametrize("threads, message", [
    ("0", "argument --threads: must be a whole number of at least 1, found '0'"),
    ("65", "argument --threads: must be at most 64, found '65'"),
    ("two", "argument --threads: must be a whole number of at least 1, found 'two'"),
])
def test_cli_solve_threads_out_of_range_is_a_usage_error(capsys, threads, message):
    with pytest.raises(SystemExit) as e:
        cli.main(["solve", "tic-tac-toe", "--threads", threads])
    assert e.value.code == 2
    assert capsys.readouterr()[1].splitlines()[-1] == f"rulecraft solve: error: {message}"


TIERS_WHY = "the solve by tiers runs its tasks in Python, its tiers on disk, with no memory cap"


@pytest.mark.parametrize("args, message", [
    (["solve", "tic-tac-toe", "--proof", "--threads", "2"],
     "--threads does nothing here: --proof searches in Python, in this process, on one thread"),
    (["solve", "tic-tac-toe", "--proof", "--out-of-core"],
     "--out-of-core does nothing here: --proof searches in Python, in this process, on one thread"),
    (["solve", "tic-tac-toe", "--tier-dir", "TIERS", "--threads", "2"], f"--threads does nothing here: {TIERS_WHY}"),
    (["solve", "tic-tac-toe", "--tier-dir", "TIERS", "--max-memory", "1G"],
     f"--max-memory does nothing here: {TIERS_WHY}"),
    (["analyze", "tic-tac-toe", "--position", "X../.O./... X", "--cluster", "local", "--threads", "1"],
     f"--threads does nothing here: {TIERS_WHY}"),
    (["analyze", "tic-tac-toe", "--position", "X../.O./... X", "--solution", "SOL", "--threads", "2"],
     "--threads does nothing here: with --solution nothing is solved"),
    (["analyze", "tic-tac-toe", "--position", "X../.O./... X", "--solution", "SOL", "--symmetry"],
     "--symmetry does nothing here: with --solution nothing is solved"),
])
def test_cli_solving_options_where_nothing_takes_them_are_a_usage_error(capsys, tmp_path, args, message):
    # an option that would be ignored says so, before anything runs (no tier files made,
    # no solution opened)
    args = [str(tmp_path / a) if a in ("TIERS", "SOL") else a for a in args]
    code = cli.main(args)
    assert code == 2 and not (tmp_path / "TIERS").exists()
    assert capsys.readouterr()[1].splitlines()[-1] == f"rulecraft {args[0]}: error: {message}"


@pytest.mark.parametrize("option", [{"threads": 2}, {"out_of_core": True}, {"out_of_core": False},
                                    {"max_memory": 2**30}, {"max_memory": None}])
def test_solve_refuses_what_the_solve_by_tiers_takes_no_notice_of(tmp_path, option):
    with pytest.raises(ValueError) as e:
        solve(game_of("tic-tac-toe"), tier_dir=str(tmp_path), **option)
    assert str(e.value) == (f"{next(iter(option))} does nothing with cluster or tier_dir: the solve "
                            "by tiers runs its tasks in Python, its tiers on disk, with no memory cap")
    assert not any(tmp_path.iterdir())


@pytest.mark.parametrize("threads", [0, 65, True, 2.0])
def test_solve_refuses_threads_out_of_range(threads):
    with pytest.raises(ValueError) as e:
        solve(game_of("tic-tac-toe"), threads=threads)
    assert str(e.value) == f"threads must be a whole number from 1 to 64, found {threads!r}"


def test_cli_play_with_search_players(capsys):
    code = cli.main(["play", "tic-tac-toe", "--players", "alphabeta:9,perfect", "--seed", "1"])
    out, _ = capsys.readouterr()
    assert code == 0 and "result=draw" in out


def test_cli_play_unknown_player_lists_the_search_players(capsys):
    code = cli.main(["play", "tic-tac-toe", "--players", "human,robot"])
    _, err = capsys.readouterr()
    assert code == 2 and "unknown player 'robot'" in err and "mcts:N" in err and "human" in err


WIDE = """game "Wide"
board hexagon 4
players A, B
piece man: owner each, symbol M/m
piece king: owner each, symbol K/k
setup man of A: f7
setup man of B: h1
ply go: move own piece step onto empty then promote here & row4 to king
end met: mover wins if count(adjacent(own king) & opponent's piece) > 0
"""


def test_a_solution_of_keys_past_16_bytes_saves_and_loads(tmp_path):
    # four kinds on 37 cells: 148 bits a key, more than the two words the native solver's
    # keys take (a file of such keys was read as two words a key, and failed)
    from dsl.load import load_text
    from interpreter.runtime.game import Game
    game = Game(load_text(WIDE, "wide.game"))
    assert Codec(game).key_bytes > 16
    sol = solve(game)
    path = tmp_path / "wide.sol"
    sol.save(str(path))
    back = Solution.load(str(path), game)
    assert len(back) == len(sol) > 1000
    for i in range(0, len(sol), 97):
        s = sol.position(i)
        assert back.lookup(s) == sol.lookup(s)
