"""Screenshots of the web page and pictures of the games, for the docs.

    python -m apps.screenshots --out docs/ [--force] [--pictures-only]

First every game whose card names a picture writer (`GameCard.pictures`, BASARI's) draws
its pictures with its SVG renderer into OUT/<game>/ (no browser needed). Then, unless
--pictures-only, it starts the server (apps/serve.py) on a free port, drives the operating
system's Chromium with Playwright (nothing is downloaded), plays games of both games by
clicking listed moves (chosen by a seeded random generator; ASARA's builds half of the
time) and saves into OUT/images/: `web_page.png` (the page during a 2-player basic ASARA game),
`web_final.png` (the same game's end with the final scoring), `board_basic.png` (its
board), `board_pro_genie_gifts.png` (the board of a 4-player professional game with both
expansions in its third year), `web_basari.png` (the page during a 3-player BASARI game, in
a barter when one comes), `web_basari_final.png` (its end, the final table) and
`web_basari_800.png` (the same page 800 pixels wide: the board first, the sidebar below).
Nothing is overwritten without --force.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from tqdm import tqdm

from apps.browser import LAUNCH_ARGS, find_chromium
from asara_env.games import available_games, game_card, resolve
from commandline.command import parser as command_parser

if TYPE_CHECKING:  # Playwright loads only when the screenshots are taken
    from playwright.sync_api import Page


def start(
    page: Page,
    players: int,
    variant: str,
    expansions: tuple[str, ...],
    opponents: Sequence[str],
    seed: int,
) -> None:
    page.click("#new-game")
    page.select_option("#game-choice", "asara")
    page.select_option("#players", str(players))
    page.select_option("#variant", variant)
    for expansion in expansions:
        page.check(f"#exp-{expansion}")
    for select, name in zip(page.locator("#opponents select").all(), opponents):
        select.select_option(name)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#board svg")


def play_until(
    page: Page, done: Callable[[Page], bool], label: str, rng: random.Random, limit: int = 400
) -> None:
    """Click listed moves, chosen at random, until `done(page)` or the game ends."""
    for _ in tqdm(range(limit), desc=label, unit="move"):
        if done(page) or page.is_visible("#final"):
            return
        before = page.get_attribute("#board", "data-decisions")
        moves = page.locator("#moves button.move")
        builds = page.locator("#moves button.move[data-name*='on build']")
        pick = builds if builds.count() and rng.random() < 0.5 else moves  # towers to show
        pick.nth(rng.randrange(pick.count())).click()
        page.wait_for_function(
            "n => document.querySelector('#board').dataset.decisions !== n", arg=before
        )


def year(page: Page) -> int:
    text = page.get_attribute("#board svg", "data-year")
    if text is None:
        raise RuntimeError("the board has no data-year attribute")
    return int(text)


SCREENSHOTS = (
    "web_page.png",
    "board_basic.png",
    "web_final.png",
    "board_pro_genie_gifts.png",
    "web_basari.png",
    "web_basari_final.png",
    "web_basari_800.png",
)
SCREENSHOT_FOLDER = "images"  # under --out: the docs pages' pictures folder
NARROW = 800  # a small laptop's window (pixels wide): the layout in one column


def start_basari(page: Page, opponents: Sequence[str], seed: int) -> None:
    page.click("#new-game")
    page.select_option("#game-choice", "basari")
    page.select_option("#players", str(len(opponents) + 1))
    for select, name in zip(page.locator("#opponents select").all(), opponents):
        select.select_option(name)
    page.fill("#seed", str(seed))
    page.click("#start")
    page.wait_for_selector("#board svg")


def in_barter(page: Page) -> bool:
    return page.locator("#move-panel button.move[data-group='submit']").count() > 0


def play_basari_until(
    page: Page, done: Callable[[Page], bool], label: str, rng: random.Random, limit: int = 400
) -> None:
    """Click BASARI's offered moves, chosen at random (an offer submitted once it holds a
    gem), until `done(page)` or the game ends."""
    for _ in tqdm(range(limit), desc=label, unit="move"):
        if done(page) or page.is_visible("#final"):
            return
        before = page.get_attribute("#board", "data-decisions")
        moves = page.locator("#move-panel button.move")
        submit = page.locator("#move-panel button.move[data-group='submit']")
        bundle = page.locator("#move-panel .bundle")
        built = bundle.count() and "nothing" not in bundle.inner_text()
        pick = submit if submit.count() and built and rng.random() < 0.7 else moves
        pick.nth(rng.randrange(pick.count())).click()
        page.wait_for_function(
            "n => document.querySelector('#board').dataset.decisions !== n", arg=before
        )


def pictures(out: Path, force: bool) -> list[Path]:
    """Every game's pictures drawn by its card's writer into out/<game>/."""
    saved: list[Path] = []
    for name in available_games():
        writer = game_card(name).pictures
        if writer is not None:
            saved += resolve(writer)(out / name, force)
    return saved


def take(out: Path, chromium: str) -> list[Path]:
    from playwright.sync_api import sync_playwright

    from apps.serve import running

    saved: list[Path] = []
    rng = random.Random(0)
    with running() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=LAUNCH_ARGS)
        page = browser.new_page(viewport={"width": 1700, "height": 1000})
        page.goto(url)
        page.wait_for_selector("body[data-ready='1']")
        start(page, 2, "basic", (), ["greedy"], 10)
        play_until(page, lambda pg: year(pg) >= 3, "2p basic to year 3", rng)
        saved.append(out / SCREENSHOTS[0])
        page.screenshot(path=saved[-1])
        saved.append(out / SCREENSHOTS[1])
        page.locator("#board svg").screenshot(path=saved[-1])
        play_until(page, lambda pg: False, "2p basic to the end", rng)
        saved.append(out / SCREENSHOTS[2])
        page.screenshot(path=saved[-1])
        start(page, 4, "pro", ("genie", "gifts"), ["greedy", "towers", "tall"], 7)
        play_until(page, lambda pg: year(pg) >= 3, "4p pro + genie + gifts to year 3", rng)
        saved.append(out / SCREENSHOTS[3])
        page.locator("#board svg").screenshot(path=saved[-1])
        page.set_viewport_size({"width": 1366, "height": 900})
        start_basari(page, ["value", "points_first"], 3)
        play_basari_until(page, lambda pg: in_barter(pg), "BASARI to a barter", rng)
        saved.append(out / SCREENSHOTS[4])
        page.screenshot(path=saved[-1])
        page.set_viewport_size({"width": NARROW, "height": 1400})
        saved.append(out / SCREENSHOTS[6])
        page.screenshot(path=saved[-1], full_page=True)
        page.set_viewport_size({"width": 1366, "height": 900})
        play_basari_until(page, lambda pg: False, "BASARI to the end", rng)
        page.locator("#final").scroll_into_view_if_needed()
        saved.append(out / SCREENSHOTS[5])
        page.screenshot(path=saved[-1])
        browser.close()
    return saved


def main(argv: list[str] | None = None) -> None:
    parser = command_parser("python -m apps.screenshots", __doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs"), help="folder for the pictures")
    parser.add_argument("--chromium", default=find_chromium(), help="the browser")
    parser.add_argument("--force", action="store_true", help="overwrite pictures already there")
    parser.add_argument(
        "--pictures-only", action="store_true", help="only the games' pictures, no browser"
    )
    args = parser.parse_args(argv)
    browser = not args.pictures_only
    if browser and args.chromium is None:
        parser.error("Chromium is not installed (apt-get install -y chromium)")
    shots = args.out / SCREENSHOT_FOLDER
    there = [shots / name for name in SCREENSHOTS if (shots / name).exists()]
    if browser and there and not args.force:
        parser.error(f"{there[0]} exists (--force overwrites it)")
    try:
        saved = pictures(args.out, args.force)
    except FileExistsError as exc:
        parser.error(f"{exc.filename} exists (--force overwrites it)")
    for path in saved:
        print(f"saved {path}")
    if browser:
        shots.mkdir(parents=True, exist_ok=True)
        for path in take(shots, args.chromium):
            print(f"saved {path}")


if __name__ == "__main__":
    main()
