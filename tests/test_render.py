"""Board pictures (interpreter/runtime/picture.py, `rulecraft render`): every bundled ruleset drawn
as well-formed SVG with every cell, every piece and the coordinates; highlights checked
against hand-derived cells."""

import re
import xml.etree.ElementTree as ET

import pytest
from conftest import all_rulesets, game_of

from interpreter.runtime.picture import changed_cells, default_style, position_svg, targets_of

SVG = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def group(root: ET.Element, name: str) -> ET.Element:
    return next(g for g in root.iter(SVG + "g") if g.get("class") == name)


@pytest.mark.parametrize("name", all_rulesets())
def test_every_bundled_ruleset_draws_every_cell_piece_and_coordinate(name):
    game = game_of(name)
    state = game.initial_state()
    root = parsed(position_svg(game, state))
    board = game.ruleset.board
    cells = [e.get("data-cell") for e in group(root, "board") if e.get("data-cell")]
    assert sorted(cells) == sorted(board.names)
    shown = sorted((e.get("data-kind"), e.get("data-cell")) for e in group(root, "pieces")
                   if e.get("class", "").startswith("piece"))
    expected = sorted((t.kind, board.names[c]) for i, t in enumerate(game.ruleset.types)
                      for c in range(board.size) if state[i] >> c & 1)
    assert shown == expected
    labels = [e.text for e in group(root, "coordinates")]
    for cell in board.names:
        m = re.fullmatch(r"([A-Za-z]+)(\d+)", cell)
        if m and board.index[cell] not in board.goals:  # twice each: both edges
            # but 3-A-Side's column g, whose places above and below the board are the goals'
            hidden = name.startswith("3-a-side") and m.group(1) == "g"
            assert labels.count(m.group(1)) == (0 if hidden else 2) and labels.count(m.group(2)) == 2, cell
    caption = [e.text for e in group(root, "caption")]
    # the terminal's status line, a part a line, broken at spaces to fit the picture
    assert " ".join(caption).split() == " ".join(game.notation.status(state)).split()
    assert any(line.startswith(f"{game.players[0]} to move") for line in caption)
    width = float(root.get("width"))
    assert all(36 + 8.5 * len(line) <= width for line in caption)


def test_styles_follow_the_board():
    assert default_style(game_of("three-musketeers").ruleset.board) == "squares"
    assert default_style(game_of("tricouleur").ruleset.board) == "hexagons"
    assert default_style(game_of("3-a-side").ruleset.board) == "points"  # links and goals


def test_reserves_and_variables_are_written_under_the_board():
    root = parsed(position_svg(game_of("force-3")))
    assert [e.text for e in group(root, "caption")] == [
        "Yellow disc in reserve: 3", "Green disc in reserve: 3", "Yellow to move"]
    root = parsed(position_svg(game_of("3-spot")))
    # the board is 216 pixels wide; the picture widens to hold the 32 characters
    assert [e.text for e in group(root, "caption")] == ["score Blue 0, Red 0",
                                                        "Blue to move (ply 1 of the turn)"]
    assert root.get("width") == "308"  # 36 + 32 x 8.5
    long = parsed(position_svg(game_of("whistling-captures")))  # wide: a line is not wrapped
    assert float(long.get("width")) > 36 + 32 * 8.5


def test_the_last_ply_outlines_the_cells_it_changed():
    game = game_of("three-musketeers")
    before = game.initial_state()
    ply = game.action_from_text(before, "a1xa2")
    after = game.apply(before, ply)
    names = game.ruleset.board.names
    assert sorted(names[c] for c in changed_cells(game, before, after)) == ["a1", "a2"]
    root = parsed(position_svg(game, after, last=ply, before=before))
    marked = [e.get("data-cell") for e in root.iter(SVG + "circle") if e.get("class") == "last"]
    assert marked == ["a1", "a2"]


def test_targets_are_the_cells_a_piece_can_go_to():
    game = game_of("three-musketeers")
    state = game.initial_state()
    names = game.ruleset.board.names
    # the musketeer on c3 captures any orthogonal neighbour (all enemies at the start)
    got = targets_of(game, state, game.ruleset.board.index["c3"])
    assert sorted(names[c] for c in got) == ["b3", "c2", "c4", "d3"]
    root = parsed(position_svg(game, state, targets=sorted(got)))
    assert [e.get("data-cell") for e in root.iter(SVG + "circle") if e.get("class") == "target"] == [
        "c2", "b3", "d3", "c4"]  # in cell order: south to north


def test_a_finished_game_says_who_won():
    game = game_of("tic-tac-toe")
    state = game.state_from_text("XXX/OO./... O")
    root = parsed(position_svg(game, state))
    assert [e.text for e in group(root, "caption")] == ["X wins"]


def test_the_render_command_writes_the_picture(tmp_path, capsys):
    from interpreter.apps import cli

    out = tmp_path / "tm.svg"
    # after a1xa2 the only empty square is a1: the enemy on b1 can step there
    assert cli.main(["render", "three-musketeers", "--ply", "a1xa2", "--targets", "b1", "-o", str(out)]) == 0
    root = parsed(out.read_text())
    assert len([e for e in root.iter(SVG + "circle") if e.get("class") == "last"]) == 2
    targets = [e for e in root.iter(SVG + "circle") if e.get("class") == "target"]
    assert [e.get("data-cell") for e in targets] == ["a1"]
    assert [e.text for e in group(root, "caption")] == ["Enemy to move"]
    assert cli.main(["render", "tic-tac-toe"]) == 0
    assert capsys.readouterr().out.startswith('<svg xmlns="http://www.w3.org/2000/svg"')


@pytest.mark.parametrize("argv, message", [
    (["--ply", "a1-b2"], "--ply: 'a1-b2' is not a legal ply here; legal: a1xb1, a1xa2, c3xc2, c3xb3, "
                         "c3xd3, c3xc4, e5xe4, e5xd5"),
    (["--targets", "z9"], "--targets: no cell 'z9' on this board"),
    (["--position", "M"], None),
])
def test_the_render_command_refuses_what_it_cannot_draw(argv, message, capsys):
    from interpreter.apps import cli

    assert cli.main(["render", "three-musketeers", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rulecraft render: error: " + (message or "--position: "))


def test_png_needs_cairosvg(tmp_path, capsys, monkeypatch):
    import sys

    from interpreter.apps import cli

    monkeypatch.setitem(sys.modules, "cairosvg", None)
    assert cli.main(["render", "tic-tac-toe", "-o", str(tmp_path / "t.png")]) == 2
    assert capsys.readouterr().err == ("rulecraft render: error: writing PNG needs cairosvg "
                                       "(pip install 'rulecraft[png]'); or write .svg\n")


def test_png_through_cairosvg(tmp_path):
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError) as e:  # OSError: the extra without the system's Cairo
        pytest.skip(f"PNG needs the png extra (pip install 'rulecraft[png]') and Cairo: {e}")
    from interpreter.apps import cli

    out = tmp_path / "t.png"
    assert cli.main(["render", "force-3", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_text_from_the_ruleset_is_escaped(write_game):
    from interpreter import load_game

    path = write_game('game "<b>&\'q\'</b>"\nboard square 2 x 1\nplayers A, B\n'
                      'piece man: owner each, symbol "<"/"&"\nsetup man of A: a1\nsetup man of B: b1\n'
                      'ply go: move own man step onto empty\n')
    game = load_game(path)
    root = parsed(position_svg(game))
    assert root.find(SVG + "title").text.startswith("<b>&'q'</b>: ")
    assert sorted(e.text for e in group(root, "pieces") if e.tag == SVG + "text") == ["&", "<"]


def test_only_the_lines_the_board_has_are_drawn():
    ttt = parsed(position_svg(game_of("tic-tac-toe")))  # a king's board: no diagonal lines
    assert [e for e in group(ttt, "board") if e.get("class") == "edge"] == []
    alquerque = parsed(position_svg(game_of("alquerque")))  # the drawn diagonals: 16 lines
    assert len([e for e in group(alquerque, "board") if e.get("class") == "edge"]) == 16
    morris = game_of("nine-mens-morris")
    assert default_style(morris.ruleset.board) == "points"  # lines join cells apart
    lines = [e for e in group(parsed(position_svg(morris)), "board") if e.get("class") == "edge"]
    assert len(lines) == 32  # 3 squares of 8 lines, and the 4 crossings of 2 lines each
