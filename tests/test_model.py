"""The game model `check` returns (dsl/model.py): resolved, typed, printable, with spans."""

from dsl import model
from dsl.constructs.step import Step
from dsl.dump import dump
from dsl.load import load

SMALL = '''game "Small"
board square 3 x 3
players A, B
piece man: owner each, symbol M/m
region home: a1, b1
var moves = 0 in 0..99
setup man of A: a1
setup man of B: c3
ply go: move own man step orthogonal onto empty where here in home | c2 then moves += 1
end reached: mover wins if count(own man & c3) > 0
end tired: draw if moves >= 10
'''


def small(tmp_path):
    path = tmp_path / "small.game"
    path.write_text(SMALL)
    return load(str(path))


def test_names_are_resolved_and_typed(tmp_path):
    rs = small(tmp_path)
    (go,) = rs.plies
    assert (go.owner, go.kind) == (model.Owner.OWN, "man")
    assert isinstance(go.motion, Step) and go.motion.dirs == ("n", "e", "s", "w")
    where = go.where
    assert isinstance(where, model.Compare) and where.op == "in"
    cells = where.right
    # home | c2: a union of two fixed cell sets, each a mask (a1 = 0, b1 = 1, c2 = 5)
    assert isinstance(cells, model.Binary) and cells.type is model.Type.CELLS
    assert (cells.left.mask, cells.left.label, cells.right.mask, cells.right.label) == \
        (0b11, "home", 1 << 5, "c2")
    (effect,) = go.effects
    assert isinstance(effect, model.Assign) and (effect.var, effect.op, effect.value.value) == ("moves", "+=", 1)
    assert [(e.name, e.outcome) for e in rs.ends] == [("reached", model.Outcome.WINS), ("tired", model.Outcome.DRAW)]
    assert isinstance(rs.ends[0].player, model.Ref) and rs.ends[0].player.word is model.Word.MOVER


def test_every_node_keeps_its_span(tmp_path):
    rs = small(tmp_path)
    go = rs.plies[0]
    assert (go.span.line, go.motion.span.line, go.where.span.line) == (9, 9, 9)
    assert go.where.right.right.span.col == SMALL.splitlines()[8].index("c2") + 1
    assert rs.ends[1].cond.span.line == 11


def test_the_model_prints(tmp_path):
    text = dump(small(tmp_path).plies[0])
    assert text == """Ply
  name: 'go'
  owner: OWN
  kind: 'man'
  motion:
    Step
      dirs: ('n', 'e', 's', 'w')
  onto:
    Ref
      word: EMPTY
  where:
    Compare
      op: 'in'
      left:
        Ref
          word: HERE
      right:
        Binary
          op: '|'
          left:
            Cells
              mask: 3
              label: 'home'
          right:
            Cells
              mask: 32
              label: 'c2'
          result: CELLS
  effects:
    - Assign
        var: 'moves'
        index: None
        op: '+='
        value:
          Num
            value: 1
        guard: None"""
