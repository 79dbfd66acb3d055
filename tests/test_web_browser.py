"""The page of `rulecraft serve` in a real browser: headless Chromium (the system's,
/usr/bin/chromium, driven by Playwright) against the real server (Uvicorn in a thread, on
a free port). Skipped, saying why, without Chromium, Playwright or the `web` extra.

Run as a script, it takes the screenshots of docs/WEB.md instead:
    .venv/bin/python tests/test_web_browser.py docs/images
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import threading
import time

import pytest

CHROMIUM = os.environ.get("RULECRAFT_CHROMIUM", "/usr/bin/chromium")


def why_not() -> str | None:
    """Why the browser tests cannot run here, or None."""
    missing = [m for m in ("starlette", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        return f"no {', '.join(missing)} (pip install 'rulecraft[web]')"
    if importlib.util.find_spec("playwright") is None:
        return "no Playwright (pip install 'rulecraft[browser]')"
    if not os.access(CHROMIUM, os.X_OK):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    return None


class LiveServer:
    """The web application served by Uvicorn in a thread, on a free port of 127.0.0.1."""

    def __init__(self) -> None:
        import uvicorn

        from interpreter.apps.web.app import listening_socket, make_app, url_of

        sock = listening_socket("127.0.0.1", 0)
        self.url = url_of(sock)
        self.server = uvicorn.Server(uvicorn.Config(make_app(workers=2), log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True)
        self.thread.start()
        while not self.server.started:  # the workers start first: a second or two
            if not self.thread.is_alive():
                raise RuntimeError("the server stopped while starting")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)


@pytest.fixture(scope="module")
def server():
    reason = why_not()
    if reason:
        pytest.skip(reason)
    live = LiveServer()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        except Exception as e:  # noqa: BLE001 - a browser that does not start: say why
            pytest.skip(f"Chromium at {CHROMIUM} does not start: {str(e).splitlines()[0]}")
        yield b
        b.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 860}, accept_downloads=True)
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(15_000)
    from playwright.sync_api import expect

    # the same wait for assertions (5 s by default): under a loaded test run the server's
    # check and replay of an edited ruleset after a reload took longer than 5 s
    expect.set_options(timeout=15_000)
    yield pg
    context.close()
    assert not errors, f"errors in the page: {errors}"


def open_page(page, server, ruleset: str, sides: tuple[str, ...] = ()) -> None:
    """The page with a bundled ruleset loaded, and who plays each side set."""
    from playwright.sync_api import expect

    page.goto(f"{server.url}#{ruleset}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    for k, side in enumerate(sides):
        page.select_option(f"#side-{k}", side)


def click_cell(page, name: str) -> None:
    """A click in the middle of a cell of the board, as a person clicks (on the piece
    there, if any)."""
    from playwright.sync_api import expect

    expect(page.locator("body")).to_have_attribute("data-busy", "false")  # the last click answered
    box = page.locator(f'#board .cell[data-cell="{name}"]').bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def moves(page) -> list[str]:
    return page.locator("#moves li").all_inner_texts()


def test_tic_tac_toe_against_the_machine_with_undo(page, server):
    from playwright.sync_api import expect

    open_page(page, server, "tic-tac-toe")  # X: human, O: random
    expect(page.locator("#status")).to_have_text("X to move")
    expect(page.locator("#legal button")).to_have_count(9)
    click_cell(page, "b2")
    expect(page.locator("#moves li")).to_have_count(2)  # the machine replied
    expect(page.locator("#status")).to_have_text("X to move")
    first, reply = moves(page)
    assert first == "X b2" and reply.startswith("O ") and reply != "O b2"
    expect(page.locator('#board .piece[data-cell="b2"]')).to_have_count(1)
    expect(page.locator(f'#board .piece[data-cell="{reply[2:]}"]')).to_have_count(1)
    expect(page.locator("#legal button")).to_have_count(7)
    page.click("#undo")  # back to before the person's ply
    expect(page.locator("#moves li")).to_have_count(0)
    expect(page.locator("#board .piece")).to_have_count(0)
    expect(page.locator("#legal button")).to_have_count(9)
    with page.expect_download() as download:
        page.click("#download")
    assert download.value.suggested_filename == "tic-tac-toe.record"
    assert "Players: human, random\nResult: game going on\n" in open(download.value.path()).read()


def test_three_musketeers_a_piece_its_targets_and_a_capture(page, server):
    from playwright.sync_api import expect

    open_page(page, server, "three-musketeers", ("human", "human"))
    expect(page.locator("#status")).to_have_text("Musketeers to move")
    click_cell(page, "c3")
    expect(page.locator("#board .target")).to_have_count(4)
    targets = sorted(page.locator("#board .target").evaluate_all("els => els.map(e => e.dataset.cell)"))
    assert targets == ["b3", "c2", "c4", "d3"]
    click_cell(page, "c4")  # a capture
    expect(page.locator("#status")).to_have_text("Enemy to move")
    assert moves(page) == ["Musketeers c3xc4"]
    click_cell(page, "c2")
    click_cell(page, "c3")
    expect(page.locator("#moves li")).to_have_count(2)
    assert moves(page)[1] == "Enemy c2-c3"
    click_cell(page, "a2")  # no ply of the Musketeers starts or ends there
    expect(page.locator("#message")).to_have_text("no legal ply from or to a2")
    page.click("#undo")  # two people: one ply back
    expect(page.locator("#moves li")).to_have_count(1)
    expect(page.locator("#status")).to_have_text("Enemy to move")


def test_plies_that_share_their_cells_are_chosen_by_notation(page, server):
    from playwright.sync_api import expect

    open_page(page, server, "3-spot", ("human", "human"))
    click_cell(page, "c1")  # the white piece, on c1 and c2
    click_cell(page, "c3")  # two of its placements cover c3
    expect(page.locator("#chooser")).to_be_visible()
    choices = page.locator("#chooser-plies button")
    expect(choices).to_have_text(["c1+c2-c2+c3", "c1+c2-b3+c3"])
    choices.nth(1).click()
    expect(page.locator("#moves li")).to_have_count(1)
    assert moves(page) == ["Blue c1+c2-b3+c3"]
    expect(page.locator("#chooser")).to_be_hidden()
    page.locator("#legal button").first.click()  # Blue's own domino: the turn's second ply
    expect(page.locator("#moves li")).to_have_count(1)  # one item a turn, as records number them
    expect(page.locator("#moves li").first).to_have_text(re.compile(r"^Blue c1\+c2-b3\+c3 \S+$"))


def test_plies_typed_at_the_keyboard(page, server):
    from playwright.sync_api import expect

    open_page(page, server, "tic-tac-toe", ("human", "human"))
    page.fill("#ply-input", "B2")  # any case, as the CLI reads it
    page.press("#ply-input", "Enter")
    expect(page.locator("#moves li")).to_have_count(1)
    assert moves(page) == ["X b2"] and page.input_value("#ply-input") == ""
    page.fill("#ply-input", "b2")  # taken: the game's own message
    page.press("#ply-input", "Enter")
    expect(page.locator("#message")).to_contain_text("b2")
    assert moves(page) == ["X b2"]


def test_the_text_and_the_game_survive_a_reload_and_edits_are_not_dropped_unasked(page, server):
    from playwright.sync_api import expect

    open_page(page, server, "tic-tac-toe", ("human", "human"))
    original = page.input_value("#source")
    edited = original.replace("onto empty", "onto empty | opponent's mark")
    page.fill("#source", edited)
    expect(page.locator("#check-status")).to_have_text("ok: Tic-tac-toe")
    click_cell(page, "b2")
    expect(page.locator("#moves li")).to_have_count(1)
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true")
    assert page.input_value("#source") == edited
    expect(page.locator("#moves li")).to_have_count(1)
    assert moves(page) == ["X b2"]
    asked = []
    page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    page.select_option("#ruleset", "three-musketeers")  # dismissed: the edits stay
    expect(page.locator("#ruleset")).to_have_value("tic-tac-toe")
    assert asked == ["Discard your edits to tic-tac-toe and open three-musketeers?"]
    assert page.input_value("#source") == edited


def test_a_ruleset_file_is_saved_and_opened(page, server, tmp_path):
    from playwright.sync_api import expect

    open_page(page, server, "tic-tac-toe", ("human", "human"))
    with page.expect_download() as saved:
        page.click("#save-file")
    assert saved.value.suggested_filename == "tic-tac-toe.game"
    path = tmp_path / "mine.game"
    saved.value.save_as(path)
    assert path.read_text() == page.input_value("#source")
    path.write_text(path.read_text().replace('game "Tic-tac-toe"', 'game "Mine"'))
    page.set_input_files("#open-file", str(path))
    expect(page.locator("#check-status")).to_have_text("ok: Mine")
    expect(page.locator("#message")).to_have_text("opened mine.game")


def test_a_game_is_shared_by_its_address(page, server):
    from playwright.sync_api import expect

    open_page(page, server, "3-spot/c1%2Bc2-b3%2Bc3", ("human", "human"))  # Blue's first ply
    expect(page.locator("#moves li")).to_have_count(1)
    assert moves(page) == ["Blue c1+c2-b3+c3"]
    page.locator("#legal button").first.click()  # the turn's second ply
    expect(page.locator("#status")).to_have_text("Red to move")
    address = page.evaluate("location.hash")
    assert address.startswith("#3-spot/c1%2Bc2-b3%2Bc3/") and address.count("/") == 2
    other = page.context.new_page()  # the address opens the same game elsewhere
    other.goto(f"{server.url}{address}")
    expect(other.locator("body")).to_have_attribute("data-ready", "true")
    # there Red is the machine by default, and plays on from the shared position
    expect(other.locator("#moves li").first).to_have_text(moves(page)[0])


def test_the_board_fills_its_pane_and_flips(page, server):
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1366, "height": 768})
    open_page(page, server, "whistling-captures", ("human", "human"))
    board = page.locator("#board svg").bounding_box()
    assert board["width"] > 500  # not the old 460-pixel cap: its cells are legible
    page.click("#flip")
    expect(page.locator("#board")).to_have_class("board flipped")
    click_cell(page, "a11")  # a click still finds its cell when the board is turned
    expect(page.locator("#message")).to_have_text("no legal ply from or to a11")


def test_the_move_list_steps_through_the_game(page, server):
    from playwright.sync_api import expect

    open_page(page, server, "tic-tac-toe/b2/a1", ("human", "human"))  # X, a person, to move
    expect(page.locator("#moves li")).to_have_count(2)
    page.locator("#moves li").nth(0).click()  # after X's b2 only
    expect(page.locator("#status")).to_have_text("After move 1 (click the last move to play on)")
    expect(page.locator("#board .piece")).to_have_count(1)
    click_cell(page, "a3")  # no play while an earlier position is shown
    expect(page.locator("#message")).to_have_text("an earlier position is shown: click the last move to play on")
    page.locator("#moves li").nth(1).click()  # back to the game
    expect(page.locator("#status")).to_have_text("X to move")
    expect(page.locator("#board .piece")).to_have_count(2)
    click_cell(page, "a3")
    expect(page.locator("#moves li")).to_have_count(3)


def test_perfect_is_offered_only_where_it_can_play(page, server):
    from playwright.sync_api import expect

    open_page(page, server, "three-musketeers")  # known ahead: too large to solve here
    expect(page.locator('#sides option[value="perfect"]')).to_have_count(0)
    expect(page.locator("#machines-note")).to_have_text(
        "perfect play is not offered: the game cannot be solved here: more than 500,000 "
        "positions are reachable")
    open_page(page, server, "tic-tac-toe", ("human", "human"))
    expect(page.locator('#side-1 option[value="perfect"]')).to_have_text("perfect")
    expect(page.locator("#machines-note")).to_have_text("")
    text = page.input_value("#source")
    page.fill("#source", text.replace('game "Tic-tac-toe"', 'game "Mine"'))  # edited: not known
    expect(page.locator("#check-status")).to_have_text("ok: Mine")
    expect(page.locator('#side-1 option[value="perfect"]')).to_have_text("perfect (solves first)")
    page.select_option("#side-1", "perfect")
    click_cell(page, "b2")
    expect(page.locator("#moves li")).to_have_count(2)  # solved, then a corner against the centre
    assert moves(page)[1] in ("O a1", "O c1", "O a3", "O c3")
    expect(page.locator('#side-1 option[value="perfect"]')).to_have_text("perfect")
    page.fill("#source", text.replace("players X, O", "players X, O, Z").replace(
        "symbol X/O", "symbol X/O/Z"))  # three players: the solver cannot say how the others play
    expect(page.locator("#side-2")).to_have_value("random")
    expect(page.locator('#sides option[value="perfect"]')).to_have_count(0)
    expect(page.locator("#machines-note")).to_contain_text(
        "perfect play is not offered: the game cannot be solved here: the solver finds win, loss "
        "and draw values of two-player games")


def test_the_board_fills_the_screen_of_a_phone(browser, server):
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        pg = context.new_page()
        open_page(pg, server, "three-musketeers")
        board = pg.locator("#board svg").bounding_box()
        assert 340 <= board["width"] <= 390  # the width of the screen less the margins
        assert pg.eval_on_selector("#board", "b => b.scrollWidth <= b.clientWidth")  # no scrolling
        open_page(pg, server, "whistling-captures")  # 21 columns of hexagons: legible, and scrolled
        cell = pg.locator('#board .cell[data-cell="f6"]').bounding_box()
        assert cell["width"] >= 26  # a fingertip's target
        label = pg.locator("#board .coordinates text").first.bounding_box()
        assert label["height"] >= 8  # the coordinates scale with the cells
        assert pg.eval_on_selector("#board", "b => b.scrollWidth > b.clientWidth")
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390  # the page itself does not
        expect(pg.locator("#ply-input")).to_be_visible()
    finally:
        context.close()


@pytest.mark.parametrize("name", ["tricouleur", "3-spot"])
def test_pieces_are_drawn_in_the_rulesets_colours(page, server, name):
    open_page(page, server, name)
    fills = page.eval_on_selector_all(
        "#board .piece", "els => els.map(e => e.dataset.kind + ' ' + getComputedStyle(e).fill)")
    # `colour red`, `colour white`, `colour blue` in the ruleset
    assert set(fills) == {"red rgb(192, 57, 43)", "white rgb(248, 244, 232)", "blue rgb(46, 111, 183)"}


def test_the_plies_offered_read_as_the_cli_writes_them(page, server, capsys):
    from interpreter.apps.cli import main

    assert main(["info", "three-musketeers"]) == 0
    cli = capsys.readouterr().out.split("legal plies: ")[1].strip().split(", ")
    open_page(page, server, "three-musketeers", ("human", "human"))
    buttons = page.locator("#legal button").all_inner_texts()
    assert buttons == cli and "c3xc2" in buttons  # a capture, as records and replay write it


def test_the_end_shows_its_winning_line_and_its_cause(page, server):
    from playwright.sync_api import expect

    open_page(page, server, "tic-tac-toe/a1/a2/b1/b2/c1")
    expect(page.locator("#status")).to_have_text("Game over: X wins")
    assert sorted(page.eval_on_selector_all("#board .ended", "els => els.map(e => e.dataset.cell)")) == [
        "a1", "b1", "c1"]
    # Musketeers to move, none next to an enemy: `Musketeers win if no legal ply`
    open_page(page, server, "three-musketeers/c3xc2/d3-c3/a1xb1/a2-a1/c2xb2/e3-d3/e5xd5/a3-a2/"
                            "b2xa2/d3-e3/b1xa1/c3-c2/d5xd4/b3-c3/d4xe4/e3-d3")
    expect(page.locator("#status")).to_have_text(
        "Game over: Musketeers win (Musketeers have no legal ply)")
    expect(page.locator("#board .ended")).to_have_count(0)


def test_an_unknown_ruleset_in_the_address_is_said(page, server):
    from playwright.sync_api import expect

    open_page(page, server, "tic-tac-to")
    expect(page.locator("#message")).to_have_text("no bundled ruleset 'tic-tac-to': showing tic-tac-toe")
    expect(page.locator("#ruleset")).to_have_value("tic-tac-toe")


def test_an_error_typed_is_shown_then_the_fixed_variant_is_played(page, server):
    from playwright.sync_api import expect

    open_page(page, server, "tic-tac-toe", ("human", "human"))
    original = page.input_value("#source")
    page.fill("#source", original.replace("onto empty", "onto emptyy"))
    entry = page.locator("#diagnostics li")
    expect(entry).to_have_count(1)
    expect(entry.locator(".diagnostic")).to_have_text("11:32: unknown name 'emptyy'")
    expect(entry.locator(".hint")).to_have_text("hint: did you mean 'empty'?")
    expect(page.locator("#check-status")).to_have_text("1 error: fix it to play")
    expect(page.locator("#gutter .err")).to_have_text(["11"])
    expect(page.locator("#backdrop mark")).to_have_text("emptyy")
    page.locator('#board .cell[data-cell="b2"]').click()  # no play under broken rules: said why
    expect(page.locator("#message")).to_have_text(
        "the ruleset has errors: fix them (listed beside the text) to play")
    entry.click()  # selects the error's span in the editor
    selected = page.eval_on_selector("#source", "t => t.value.slice(t.selectionStart, t.selectionEnd)")
    assert selected == "emptyy"
    # Fixed as a variant: a mark may also go onto the opponent's.
    page.fill("#source", original.replace("onto empty", "onto empty | opponent's mark"))
    expect(page.locator("#check-status")).to_have_text("ok: Tic-tac-toe")
    expect(page.locator("#diagnostics li")).to_have_count(0)
    click_cell(page, "b2")
    expect(page.locator("#status")).to_have_text("O to move")
    expect(page.locator("#legal button", has_text="b2")).to_have_count(1)  # not offered before
    click_cell(page, "b2")
    expect(page.locator("#moves li")).to_have_count(2)
    assert moves(page) == ["X b2", "O b2"]


def screenshots(folder: str) -> None:
    """docs/images/web-*.png: the page playing, the page showing an error, and a won game
    on a phone."""
    from playwright.sync_api import expect, sync_playwright

    live = LiveServer()
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, headless=True)
            pg = b.new_page(viewport={"width": 1280, "height": 760})
            open_page(pg, live, "three-musketeers", ("human", "random"))
            click_cell(pg, "c3")
            click_cell(pg, "c4")
            expect(pg.locator("#moves li")).to_have_count(2)
            click_cell(pg, "e5")
            expect(pg.locator("#board .target")).to_have_count(2)
            pg.screenshot(path=os.path.join(folder, "web-play.png"))
            pg = b.new_page(viewport={"width": 1280, "height": 760})
            open_page(pg, live, "tic-tac-toe")
            text = pg.input_value("#source")
            pg.fill("#source", text.replace("onto empty", "onto emptyy").replace("line(3,", "line(3"))
            expect(pg.locator("#diagnostics li")).to_have_count(2)
            pg.locator("#diagnostics li").first.click()
            pg.screenshot(path=os.path.join(folder, "web-errors.png"))
            pg = b.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
            open_page(pg, live, "tic-tac-toe/b2/a1/a3/c1/b1/c3/b3")
            expect(pg.locator("#board .ended")).to_have_count(3)
            pg.locator("#board").scroll_into_view_if_needed()
            pg.screenshot(path=os.path.join(folder, "web-phone.png"))
            b.close()
    finally:
        live.stop()


if __name__ == "__main__":
    screenshots(sys.argv[1] if len(sys.argv) > 1 else "docs/images")
