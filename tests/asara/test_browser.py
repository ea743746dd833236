"""The web page in a real browser: Playwright driving the operating system's Chromium.

Skipped (with the reason) only when Chromium is not installed (`apt-get install -y
chromium`; `.ci/run` installs it). Nothing here downloads a browser.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator

import pytest

from apps.browser import LAUNCH_ARGS, find_chromium

CHROMIUM = find_chromium()
if CHROMIUM is None and os.environ.get("ASARA_REQUIRE_BROWSER"):
    raise RuntimeError("ASARA_REQUIRE_BROWSER is set (as CI sets it) but Chromium is missing")
if CHROMIUM is None:
    pytest.skip(
        "Chromium is not installed (apt-get install -y chromium): no browser tests",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing")

from apps.serve import running  # noqa: E402
from asara_env.asara.reference.record import GameRecord, replay  # noqa: E402

pytestmark = pytest.mark.browser
MAX_CLICKS = 600  # a 2-player game asks the person for far fewer decisions


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


def start(page, seed: str = "11", opponent: str = "random", **choices) -> None:
    """Fill in the form (2 players, basic unless told) and start the game."""
    page.click("#new-game")
    page.select_option("#players", choices.get("players", "2"))
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
    """Make one move by clicking: on the board where a move is highlighted (then, if
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
    state = replay(GameRecord.from_dict(record))
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
    assert "seed" in page.inner_text("#error")
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
    page.set_input_files("#replay-file", download.value.path())
    page.wait_for_selector("#replay-board svg")
    assert page.get_attribute("#frame", "max") == str(len(record["actions"]))
    assert "full view" in page.inner_text("#replay-board")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record | {"seed": -4}))
    page.set_input_files("#replay-file", str(bad))
    page.wait_for_selector("#error:not([hidden])")
    assert "not a playable game record" in page.inner_text("#error")


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
    from asara_env import GameConfig
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
