"""The web page in a real browser: Playwright driving the operating system's Chromium.

Each test is skipped only when Chromium is not installed, and the run then ends with a
section saying so and how to install it (`apt-get install chromium fonts-dejavu-core`;
`.ci/run` installs it and sets ASARA_REQUIRE_BROWSER, which turns its absence into an
error). Nothing here downloads a browser.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from apps.browser import LAUNCH_ARGS, find_chromium
from tests.progress import CHROMIUM as CHROMIUM_PART
from tests.progress import needs

CHROMIUM = find_chromium()
if CHROMIUM is None and os.environ.get("ASARA_REQUIRE_BROWSER"):
    raise RuntimeError(
        "ASARA_REQUIRE_BROWSER is set (as CI sets it) but Chromium is missing"
        f" ({CHROMIUM_PART.install})"
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing")

from apps.serve import running  # noqa: E402
from asara_env import GameConfig  # noqa: E402
from asara_env.asara.reference.record import GameRecord, replay  # noqa: E402

pytestmark = [pytest.mark.browser, needs(CHROMIUM_PART)]
MAX_CLICKS = 600
SEED = 5  # the uploaded records' games  # a 2-player game asks the person for far fewer decisions


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with running() as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(accept_downloads=True, viewport={"width": 1600, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(server)
    page.wait_for_selector("body[data-ready='1']")
    yield page
    context.close()


def choose_game(page, game: str) -> None:
    page.click("#new-game")
    page.select_option("#game-choice", game)
    page.wait_for_selector(f"#setup-title:has-text('{game.upper()}')")


def start(page, seed: str = "11", opponent: str = "random", game: str = "asara", **choices) -> None:
    """Fill in the form (2 ASARA players, basic, or 3 BASARI players unless told) and start."""
    choose_game(page, game)
    page.select_option("#players", choices.get("players", "2" if game == "asara" else "3"))
    if game == "asara":
        page.select_option("#variant", choices.get("variant", "basic"))
        for expansion in choices.get("expansions", ()):
            page.check(f"#exp-{expansion}")
    for select in page.locator("#opponents select").all():
        select.select_option(opponent)
    page.fill("#seed", seed)
    page.click("#start")


def decisions(page) -> int:
    return int(page.get_attribute("#board", "data-decisions"))


def wait_for_move(page, before: int) -> None:
    page.wait_for_function(
        "n => Number(document.querySelector('#board').dataset.decisions) > n", arg=before
    )


def click_one_move(page) -> bool:
    """Make one ASARA move by clicking: on the board where a move is highlighted (then, if
    several moves lie there, on the first one listed), else on the first listed move.
    True when the board click alone made the move."""
    before = decisions(page)
    spots = page.locator("#board .clickable")
    if spots.count():
        spots.first.click()
        page.wait_for_function(
            """n => document.querySelector('#hint').textContent.includes('moves there')
                || Number(document.querySelector('#board').dataset.decisions) > n""",
            arg=before,
        )
        if decisions(page) > before:
            return True
    page.locator("#moves button.move:not(.dim)").first.click()
    wait_for_move(page, before)
    return False


def test_a_whole_game_is_played_by_clicking_and_ends_with_the_final_scoring(page):
    start(page)
    page.wait_for_selector("#board svg")
    assert "as seen by P0 (you)" in page.inner_text("#board")
    assert page.is_visible("#recent") == (page.locator("#log li").count() > 0)
    pictures, board_moves = [page.inner_html("#board")], 0
    for _ in range(MAX_CLICKS):
        if page.is_visible("#final"):
            break
        board_moves += click_one_move(page)
        pictures.append(page.inner_html("#board"))
    assert page.is_visible("#final")
    assert board_moves > 0  # moves were made on the board itself
    assert all(a != b for a, b in zip(pictures, pictures[1:]))  # the board updates each move
    recent = page.locator("#recent li")  # the opponent's last moves and the scoring
    assert "final scoring" in recent.last.inner_text()
    assert all("(random)" in recent.nth(i).inner_text() for i in range(recent.count() - 2))
    rows = page.locator("#final tbody tr")
    assert rows.count() == 2
    assert "Winner(s):" in page.inner_text("#final")
    assert page.locator("#log li.year").count() == 4
    assert page.locator("#log li.final").count() == 1
    assert page.locator("#board .final-row").count() == 2  # the picture shows it too
    assert "Game over" in page.inner_text("#status")
    assert page.is_visible("#download-replay")
    with page.expect_download() as download:
        page.click("#download")
    record = json.loads(download.value.path().read_text())
    assert record["game"] == "asara" and record["lineup"] == [None, "random"]
    state = replay(GameRecord.from_dict(record["record"]))
    shown = [int(rows.nth(s).locator("td").last.inner_text()) for s in range(2)]
    assert shown == state.prestige
    for seat in range(2):  # every tower of the final position, with all its parts
        towers = page.locator(f"#board g.tower[data-seat='{seat}']")
        heights = sorted(
            towers.evaluate_all("gs => gs.map(g => g.querySelectorAll('.part').length)")
        )
        expected = sorted(t.height for col in state.towers[seat] for t in col)
        assert heights == expected


def test_bad_input_gets_a_message_and_an_illegal_move_is_refused(page):
    start(page, seed="abc")
    page.wait_for_selector("#error:not([hidden])")
    assert "seed" in page.inner_text("#error") and "\n" not in page.inner_text("#error")
    assert page.is_visible("#setup") and not page.is_visible("#game")
    start(page, seed="3", expansions=("genie",))  # the Genie needs the professional rules
    page.wait_for_function("document.querySelector('#error').textContent.includes('professional')")
    assert not page.is_visible("#game")
    page.uncheck("#exp-genie")
    start(page, seed="3")
    page.wait_for_selector("#board svg")
    before, picture = decisions(page), page.inner_html("#board")
    legal = {
        int(b)
        for b in page.locator("#moves button").evaluate_all("bs => bs.map(b => b.dataset.action)")
    }
    illegal = next(a for a in range(803) if a not in legal)
    send = """async ([id, action, decision, token]) => {
        const headers = {"Content-Type": "application/json"};
        if (token !== null) headers["X-Game-Token"] = token;
        const r = await fetch(`/api/games/${id}/moves`, {method: "POST", headers,
            body: JSON.stringify({action, decision})});
        return [r.status, (await r.json()).detail];
    }"""
    game_id = page.get_attribute("#board", "data-game-id")
    token = page.evaluate(
        "id => JSON.parse(localStorage.getItem('asara-games'))[id].token", game_id
    )
    for wrong in (None, token[::-1]):  # the game is its creator's only: no token, no game
        answer = page.evaluate(send, [game_id, illegal, before, wrong])
        assert answer[0] == 404 and f"no game with id '{game_id}'" in answer[1]
    answer = page.evaluate(send, [game_id, illegal, before, token])
    assert answer[0] == 409 and "illegal move" in answer[1]
    page.reload()
    page.wait_for_selector("#board svg")
    assert decisions(page) == before and page.inner_html("#board") == picture
    click_one_move(page)  # the game goes on
    assert decisions(page) > before


def test_the_game_replays_position_by_position(page):
    start(page, seed="21", opponent="greedy")
    page.wait_for_selector("#board svg")
    for _ in range(3):
        click_one_move(page)
    n = decisions(page)
    page.click("#replay")
    page.wait_for_selector("#replay-board svg")
    assert page.get_attribute("#frame", "max") == str(n)
    first = page.inner_html("#replay-board")
    page.click("#next")
    page.wait_for_selector("#replay-board[data-frame='1']")
    assert page.inner_html("#replay-board") != first
    page.click("#last")
    page.wait_for_selector(f"#replay-board[data-frame='{n}']")
    page.click("#back")
    page.wait_for_selector("#game:not([hidden])")
    assert decisions(page) == n


def test_a_downloaded_game_uploads_for_replay(page, tmp_path):
    start(page, seed="8")
    page.wait_for_selector("#board svg")
    while not page.is_visible("#final"):
        before = decisions(page)
        page.locator("#moves button.move").first.click()
        wait_for_move(page, before)
    with page.expect_download() as download:
        page.click("#download")
    record = json.loads(download.value.path().read_text())
    page.set_input_files("#upload-file", download.value.path())
    page.wait_for_selector("#loaded:not([hidden])")
    assert not page.is_visible("#continue-form")  # a finished game replays only
    page.click("#loaded-replay")
    page.wait_for_selector("#replay-board svg")
    assert page.get_attribute("#frame", "max") == str(len(record["record"]["actions"]))
    assert "full view" in page.inner_text("#replay-board")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record["record"] | {"seed": -4}))
    page.set_input_files("#upload-file", str(bad))
    page.wait_for_selector("#error:not([hidden])")
    assert "not a playable ASARA game record" in page.inner_text("#error")


def test_two_games_at_once_in_two_tabs(page, browser, server):
    start(page, seed="31")
    page.wait_for_selector("#board svg")
    first_id, first_picture = (
        page.get_attribute("#board", "data-game-id"),
        page.inner_html("#board"),
    )
    other = page.context.new_page()
    other.goto(server)
    other.wait_for_selector("body[data-ready='1']")
    start(other, seed="32", players="3", opponent="greedy")
    other.wait_for_selector("#board svg")
    assert other.get_attribute("#board", "data-game-id") != first_id
    click_one_move(other)
    page.reload()
    page.wait_for_selector("#board svg")
    assert page.get_attribute("#board", "data-game-id") == first_id
    assert page.inner_html("#board") == first_picture
    assert page.locator("#games option").count() >= 3  # the prompt and both games


def test_an_animated_replay_shows_one_position_at_a_time(page):
    """The animated SVG in a real browser: at any moment exactly the frame of that moment
    is visible (the animation's clock is set, not waited for)."""
    from asara_env.asara.reference.engine import new_game, step
    from asara_env.asara.reference.rules import legal_actions
    from asara_env.asara.render_svg import animated_svg, replay_frames

    state, record = new_game(GameConfig(num_players=2), 2), GameRecord(GameConfig(num_players=2), 2)
    for _ in range(3):
        record.actions.append(legal_actions(state)[0])
        step(state, record.actions[-1])
    page.set_content(animated_svg(replay_frames(record, seat=0), seconds=0.5))
    visible = page.evaluate(
        """() => {
            const svg = document.querySelector("svg");
            svg.pauseAnimations();
            const frames = [...svg.children].filter((g) => g.classList.contains("frame"));
            return [0.25, 0.75, 1.25, 1.75, 2.25].map((t) => {
                svg.setCurrentTime(t);
                const shown = (g) => getComputedStyle(g).visibility === "visible";
                return frames.flatMap((g, i) => (shown(g) ? [i] : []));
            });
        }"""
    )
    assert visible == [[0], [1], [2], [3], [0]]  # 4 positions of 0.5 s, then it loops


# ------------------------------------------------------------------------ BASARI
def basari_click(page, counts: dict[str, int], adds: list[int]) -> None:
    """One BASARI decision by clicking: a start archway on the board; a card in turn; in
    a barter: submit a built bundle, else accept the first offer seen, else build (at
    most three gems), else forfeit, else accept. `counts` tallies what was clicked."""
    before = decisions(page)
    buttons = page.locator("#move-panel button.move")
    groups = buttons.evaluate_all("bs => bs.map(b => b.dataset.group)")
    bundle = page.inner_text("#move-panel .bundle") if "add" in groups or "submit" in groups else ""

    def click(group: str, nth: int = 0) -> None:
        page.locator(f"#move-panel button.move[data-group='{group}']").nth(nth).click()
        counts[group] = counts.get(group, 0) + 1

    if "start" in groups:
        page.locator("#board .clickable").nth(before % 7).click()  # on the board itself
        counts["start"] = counts.get("start", 0) + 1
    elif "card" in groups and counts.get("card", 0) % 2:  # on the board's own cards
        page.locator("#board .clickable[data-spot^='card:']").first.click()
        counts["card"] = counts.get("card", 0) + 1
        counts["board card"] = counts.get("board card", 0) + 1
    elif "card" in groups:
        click("card", counts.get("card", 0) % groups.count("card"))
    elif "submit" in groups and "nothing" not in bundle:
        click("submit")
        counts["completed"] = counts.get("completed", 0) + (adds[-1] > 0)
        adds.append(0)
    elif "accept" in groups and counts.get("accept", 0) == 0:
        click("accept")
    elif "add" in groups and adds[-1] < 3:
        click("add", adds[-1] % groups.count("add"))
        adds[-1] += 1
    elif "forfeit" in groups:
        click("forfeit")
    else:
        click(groups[0])
    wait_for_move(page, before)


def test_a_whole_basari_game_is_played_by_clicking_with_barters(page):
    from asara_env.basari.reference.record import GameRecord as BasariRecord
    from asara_env.basari.reference.record import replay as basari_replay

    start(page, seed="3", game="basari")
    page.wait_for_selector("#board svg")
    assert "as seen by player_0 (you)" in page.inner_text("#board")
    assert page.locator("#board .clickable").count() == 28  # every archway is a start
    counts: dict[str, int] = {}
    adds = [0]
    for _ in range(MAX_CLICKS):
        if page.is_visible("#final"):
            break
        basari_click(page, counts, adds)
    assert page.is_visible("#final")
    assert counts["start"] == 1 and counts["card"] > 10 and counts["board card"] > 5
    assert counts.get("completed", 0) >= 1  # an offer built gem by gem and submitted
    assert counts.get("accept", 0) >= 1  # an offer accepted
    log = page.locator("#log li").all_text_contents()
    assert any("(random) offers" in line for line in log)  # the opponents' barters shown
    assert any(line.startswith("cards: ") for line in log)  # the simultaneous choices
    rounds = page.locator("#log li.year").all_text_contents()
    assert [r.split(" scoring")[0] for r in rounds] == [f"end of round {n}" for n in (1, 2, 3)]
    assert all("lap bonus" in r and "In all:" in r for r in rounds)
    rows = page.locator("#final tbody tr")
    assert rows.count() == 3
    with page.expect_download() as download:
        page.click("#download")
    record = json.loads(download.value.path().read_text())
    assert record["game"] == "basari" and record["lineup"] == [None, "random", "random"]
    state = basari_replay(BasariRecord.from_dict(record["record"]))
    heads = page.locator("#final thead th").all_inner_texts()
    column = heads.index("score")
    shown = [int(rows.nth(s).locator("td").nth(column).inner_text()) for s in range(3)]
    assert shown == state.score.tolist()
    with page.expect_download() as download:
        page.click("#download-replay")
    picture = download.value.path().read_text()
    assert picture.count('class="frame"') == len(record["record"]["actions"]) + 1


# ------------------------------------------------------------------------ saved games
def half_played(game: str, players: int, fraction: float) -> dict[str, Any]:
    """A record of a game played by first legal moves, cut after `fraction` of it."""
    actions = asara_first_moves(players) if game == "asara" else basari_first_moves(players)
    config = {"num_players": players} if game == "basari" else GameConfig(players).to_dict()
    return {"config": config, "seed": SEED, "actions": actions[: int(len(actions) * fraction)]}


def asara_first_moves(players: int) -> list[int]:
    from asara_env.asara.reference.engine import new_game, step
    from asara_env.asara.reference.rules import legal_actions

    state, actions = new_game(GameConfig(num_players=players), SEED), []
    while not state.is_over:
        actions.append(legal_actions(state)[0])
        step(state, actions[-1])
    return actions


def basari_first_moves(players: int) -> list[list[int]]:
    from asara_env.basari.config import BasariConfig
    from asara_env.basari.phases import Phase
    from asara_env.basari.reference.engine import new_game, step
    from asara_env.basari.reference.rules import legal_actions

    state, actions = new_game(BasariConfig(num_players=players), SEED), []
    while state.phase != Phase.OVER:
        joint = [int(np.flatnonzero(legal_actions(state, s))[0]) for s in range(players)]
        step(state, joint)
        actions.append(joint)
    return actions


def finish_by_clicking(page, game: str) -> None:
    counts: dict[str, int] = {}
    adds = [0]
    for _ in range(MAX_CLICKS):
        if page.is_visible("#final"):
            return
        if game == "basari":
            basari_click(page, counts, adds)
        else:
            before = decisions(page)
            page.locator("#moves button.move").first.click()
            wait_for_move(page, before)
    raise AssertionError("the game did not end")


def upload(page, tmp_path, game: str, players: int, data: dict[str, Any], name: str = "saved.json"):
    choose_game(page, game)
    page.select_option("#players", str(players))
    path = tmp_path / name
    path.write_text(json.dumps(data))
    page.set_input_files("#upload-file", str(path))


@pytest.mark.parametrize(("game", "players"), [("asara", 2), ("basari", 3)])
def test_an_uploaded_half_played_record_is_continued_and_finished(page, tmp_path, game, players):
    record = half_played(game, players, 0.5)
    upload(page, tmp_path, game, players, record)
    page.wait_for_selector("#loaded:not([hidden])")
    text = page.inner_text("#loaded-text")
    assert f"unfinished {players}-player {game.upper()} record" in text
    assert f"{len(record['actions'])} decisions" in text
    page.click("#continue")
    page.wait_for_selector("#game:not([hidden])")
    assert decisions(page) >= len(record["actions"])  # it goes on from the last position
    finish_by_clicking(page, game)
    assert page.locator("#final tbody tr").count() == players
    with page.expect_download() as download:
        page.click("#download")
    done = json.loads(download.value.path().read_text())["record"]
    assert done["actions"][: len(record["actions"])] == record["actions"]  # the same game


def test_a_record_of_another_game_or_player_count_is_refused_naming_both(page, tmp_path):
    basari = half_played("basari", 3, 0.2)
    upload(page, tmp_path, "asara", 2, basari)
    page.wait_for_selector("#error:not([hidden])")
    error = page.inner_text("#error")
    assert "3-player BASARI record" in error and "set for ASARA with 2 players" in error
    upload(page, tmp_path, "basari", 4, basari)
    page.wait_for_function(
        "document.querySelector('#error').textContent.includes('set for BASARI with 4')"
    )
    assert "3-player BASARI record" in page.inner_text("#error")
    assert not page.is_visible("#loaded")


def test_corrupt_and_oversized_uploads_get_one_line_messages(page, tmp_path):
    choose_game(page, "basari")
    for name, content in (("broken.json", "{not json"), ("big.json", " " * (300 * 1024) + "{}")):
        (tmp_path / name).write_text(content)
        page.set_input_files("#upload-file", str(tmp_path / name))
        page.wait_for_function(
            "name => document.querySelector('#error').textContent.startsWith(name)", arg=name
        )
        message = page.inner_text("#error")
        assert "\n" not in message and ("JSON" in message or "over the limit" in message)


# ------------------------------------------------------------------------ the layout
def finished_game(page, tmp_path, game: str) -> None:
    players = 2 if game == "asara" else 3
    upload(page, tmp_path, game, players, half_played(game, players, 0.95))
    page.wait_for_selector("#loaded:not([hidden])")
    page.click("#continue")
    page.wait_for_selector("#game:not([hidden])")
    finish_by_clicking(page, game)


def box(page, selector: str) -> dict[str, float]:
    return page.locator(selector).bounding_box()


@pytest.mark.parametrize("game", ["asara", "basari"])
@pytest.mark.parametrize("width", [800, 1024, 1366])
def test_the_final_table_is_fully_visible_and_the_sidebar_goes_below_on_narrow_screens(
    browser, server, tmp_path, game, width
):
    context = browser.new_context(accept_downloads=True, viewport={"width": width, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(server)
    page.wait_for_selector("body[data-ready='1']")
    finished_game(page, tmp_path, game)
    table = box(page, "#final table")
    assert table["x"] >= 0 and table["x"] + table["width"] <= width  # no column cut off
    overflow = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.querySelector('#final').scrollWidth"
        " - document.querySelector('#final').clientWidth]"
    )
    assert overflow[0] <= width and overflow[1] <= 0  # nothing scrolls sideways
    heads = page.locator("#final thead th").all_inner_texts()
    assert heads[-1] in ("prestige", "place")  # the last column is there and readable
    board, side = box(page, "#board-wrap"), box(page, "aside")
    if width < 1024:  # the board first, the sidebar below it, the board the page's width
        assert side["y"] >= board["y"] + board["height"] - 1
        assert board["width"] >= width - 40
    else:
        assert side["x"] >= board["x"] + board["width"] - 1  # beside the board
    context.close()


def test_the_replayer_icons_are_drawn_not_font_glyphs_and_the_controls_have_names(page):
    start(page, seed="21", game="basari")
    page.wait_for_selector("#board svg")
    page.click("#replay")
    page.wait_for_selector("#replay-board svg")
    for button in ("first", "prev", "next", "last", "play"):
        locator = page.locator(f"#{button}")
        assert locator.locator("svg").count() == 1 and locator.inner_text().strip() == ""
        assert locator.get_attribute("aria-label")
        assert locator.locator("svg").bounding_box()["width"] > 8  # drawn at a visible size
    page.keyboard.press("Tab")
    unnamed = page.evaluate(
        """() => [...document.querySelectorAll('button, select, input')]
            .filter((el) => !el.closest('[hidden]'))
            .filter((el) => !(el.getAttribute('aria-label') || el.textContent.trim()
                              || (el.labels && el.labels.length)))
            .map((el) => el.id || el.outerHTML.slice(0, 60))"""
    )
    assert unnamed == []


def test_a_move_is_made_from_the_keyboard(page):
    start(page, seed="4", game="basari")
    page.wait_for_selector("#board svg")
    page.locator("#board .clickable").first.focus()
    page.keyboard.press("Enter")
    wait_for_move(page, 0)
    page.locator("#move-panel button.move").first.focus()
    before = decisions(page)
    page.keyboard.press("Enter")
    wait_for_move(page, before)


def test_a_stale_or_illegal_basari_move_gets_409_and_changes_nothing(page):
    start(page, seed="6", game="basari")
    page.wait_for_selector("#board svg")
    game_id = page.get_attribute("#board", "data-game-id")
    token = page.evaluate(
        "id => JSON.parse(localStorage.getItem('asara-games'))[id].token", game_id
    )
    send = """async ([id, action, decision, token]) => {
        const r = await fetch(`/api/games/${id}/moves`, {method: "POST",
            headers: {"Content-Type": "application/json", "X-Game-Token": token},
            body: JSON.stringify({action, decision})});
        return [r.status, (await r.json()).detail];
    }"""
    before = decisions(page)
    status, detail = page.evaluate(send, [game_id, 0, before, token])  # NOOP: not now
    assert status == 409 and detail.startswith("illegal move 0")
    status, detail = page.evaluate(send, [game_id, 1, before + 5, token])
    assert status == 409 and "stale move" in detail
    page.reload()
    page.wait_for_selector("#board svg")
    assert decisions(page) == before
