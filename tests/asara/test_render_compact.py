"""The compact board (asara_env/asara/render_compact.py): 80 columns, at most 18 lines, and what
a person needs to decide, read back from the seat view; hidden information stays hidden."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

from asara_env import GameConfig
from asara_env.asara import render_compact as render_compact_module
from asara_env.asara.constants import (
    CARD_NAMES,
    COLOUR_NAMES,
    MARKET_AREAS,
    N_YEARS,
    PART_NAMES,
    Area,
)
from asara_env.asara.phases import Phase
from asara_env.asara.reference.state import State
from asara_env.asara.reference.view import seat_view
from asara_env.asara.render import PENDING, area_in_game
from asara_env.asara.render_compact import (
    COMPACT_LINES,
    COMPACT_WIDTH,
    prices_short,
    render_compact,
)
from tests.asara.games import ALL_CONFIGS, ALL_IDS, game_states
from tests.asara.test_render import resample_hidden


def compact(state: State, viewer: int) -> str:
    return render_compact(seat_view(state, viewer))


def positions(config: GameConfig, seeds=(0, 1), every: int = 6) -> list[State]:
    """States along random games, the builder style (odd seeds) included."""
    return [s for seed in seeds for s in game_states(config, seed)[::every]]


# ------------------------------------------------------------------------ size
@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_the_compact_board_fits_80_columns_and_18_lines(config):
    for state in positions(config):
        for viewer in range(config.num_players):
            lines = compact(state, viewer).splitlines()
            assert len(lines) <= COMPACT_LINES == 18
            assert max(map(len, lines)) <= COMPACT_WIDTH == 80
            assert all(line == line.rstrip() for line in lines)


def test_lines_break_between_words_only(monkeypatch):
    """The words are the same as on a board drawn without any width limit: a line broken
    inside a word ('buy-' + 'win', 'bro' + '1(1g)') would split one word in two."""
    config = GameConfig(num_players=4, variant="pro", expansions=("genie", "gifts"))
    views = [seat_view(s, v) for s in positions(config, seeds=(2, 3)) for v in range(4)]
    narrow = [render_compact(view) for view in views]
    monkeypatch.setattr(render_compact_module, "COMPACT_WIDTH", 10_000)
    wide = [render_compact(view) for view in views]
    assert sum(n.count("\n") > w.count("\n") for n, w in zip(narrow, wide)) > len(views) / 2
    # (a separator ' | ' between items at a line break is left out; the prices are shown
    # only where they fit on the pending decision's lines)
    assert [words(n) for n in narrow] == [words(w) for w in wide]


def words(text: str) -> list[str]:
    text = text.replace("; " + prices_short(), "")
    return [word for word in text.split() if word != "|"]


def test_the_tile_prices_are_on_the_pending_line_where_they_fit():
    config = GameConfig(num_players=3, variant="basic")
    boards = [render_compact(seat_view(s, 0)) for s in positions(config, seeds=(2,))]
    priced = [b for b in boards if "prices bro2 gre4 red5 bla6 whi8" in b.splitlines()[1]]
    assert priced and all(len(b.splitlines()) <= COMPACT_LINES for b in boards)


# ------------------------------------------------------------------------ content
def seat_block(text: str, seat: int) -> str:
    """The lines of one seat: its first line starts with 'P<seat> ', the next ones are
    indented."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"P{seat} "))
    block = [lines[start]]
    for line in lines[start + 1 :]:
        if not line.startswith("  "):
            break
        block.append(line)
    return " ".join(" ".join(block).split())  # the lines as one, single-spaced


def area_items(text: str) -> dict[str, str]:
    """Area name -> its text: the market lines by their first word, the other areas'
    items (two spaces apart) by their name."""
    items = {}
    lines = text.splitlines()
    indented = lambda line: line.startswith(" ")  # noqa: E731
    for i, line in enumerate(lines):
        if line.startswith(tuple(f"{p}s " for p in PART_NAMES)):  # its rest is indented
            rest = [more.strip() for more in itertools.takewhile(indented, lines[i + 1 :])]
            items[line.split()[0]] = " | ".join([line, *rest])
        for item in line.split("  "):
            name = item.split(" [")[0].strip()
            if " [" in item and " " not in name:
                items.setdefault(name, item.strip())
    return items


def space_seats(item: str) -> list[str]:
    """'bank [vio] 8:P1 10:. 12:P2' -> ['P1', '.', 'P2'] (gifts and values dropped)."""
    spaces = item.split("] ", 1)[1].split(" | ")[0]
    return [re.sub(r"\{.*\}$", "", word.split(":")[-1]) for word in spaces.split()]


def towers_of(block: str) -> list[tuple[str, int]]:
    """(colour, height) of each tower written after 'towers:'."""
    towers = block.split("towers: ", 1)[1]  # the towers come last
    return sorted((m[0], int(m[1])) for m in re.findall(r"\b([a-z]{3})(\d+)", towers))


def short_counts(counts, names) -> str:
    return ", ".join(f"{names[c][:3]} {n}" for c, n in enumerate(counts) if n)


def tiles_words(counts) -> list[str]:
    """int[colour][gold] as the words 'bro2', 'red3(1g)'."""
    return [
        f"{COLOUR_NAMES[c][:3]}{plain + gold}" + (f"({gold}g)" if gold else "")
        for c, (plain, gold) in enumerate(counts)
        if plain + gold
    ]


def check_content(state: State, viewer: int) -> None:
    view = seat_view(state, viewer)
    text = render_compact(view)
    # the header: year, whose turn, the Caliph
    first = text.splitlines()[0]
    assert f"year {state.year}/{N_YEARS}" in first
    you = " (you)" if state.seat == viewer else ""
    assert f"to move: P{state.seat}{you} |" in first and f"Caliph: P{state.caliph}" in first
    # the pending decision, as the full board words it
    pending = " ".join(text.split("pending: ", 1)[1].split("\n", 1)[0].split())
    assert pending.startswith(" ".join(PENDING[state.phase](view)[0].split())[: len(pending)])
    # every seat: prestige, money, hand size (by colour for the viewer only), towers
    for s in range(state.num_players):
        block = seat_block(text, s)
        assert f"prestige {state.prestige[s]} money {state.money[s]} " in block + " "
        size = int(state.hands[s].sum())
        if s == viewer:
            assert block.startswith(f"P{s} (you) ")
            hand = short_counts(state.hands[s], CARD_NAMES) or "-"
            assert f"hand {size}: {hand} " in block + " "
        else:
            assert f" hand {size} " in block and f"hand {size}:" not in block
        expected = [(COLOUR_NAMES[t.colour][:3], t.height) for col in state.towers[s] for t in col]
        assert towers_of(block) == sorted(expected)
    # own unbuilt tiles
    own = seat_block(text, viewer)
    for part, name in enumerate(PART_NAMES):
        words = tiles_words(state.supply[viewer][part])
        if words:
            assert f"{name[:3]}:{' '.join(words)}" in own
    # the markets' displays and stacks, and who took which space of every area
    items = area_items(text)
    for part in range(len(MARKET_AREAS)):
        line = items[f"{PART_NAMES[part]}s"]
        assert f"| {' '.join(tiles_words(state.displays[part])) or '-'} |" in line
        assert line.endswith(f"| stack {int(state.stacks[part].sum())}")
    for area in Area:
        if not area_in_game(view["config"], area):
            assert area.name.lower() not in items
            continue
        name = f"{PART_NAMES[area]}s" if area in MARKET_AREAS else area.name.lower()
        seats = ["." if b is None else f"P{b.seat}" for b in state.spaces[area]]
        assert space_seats(items[name]) == seats
        colour = state.area_colour[area]
        assert f"[{CARD_NAMES[colour][:3] if colour >= 0 else 'any'}]" in items[name]
    coloured = " ".join(f"P{b.seat}" for b in state.coloured) or "."
    assert f"coloured {coloured}" in text


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_the_compact_board_shows_what_the_person_needs(config):
    for state in positions(config, seeds=(0, 1), every=9):
        for viewer in range(config.num_players):
            check_content(state, viewer)


def test_towers_show_height_visible_gold_and_lighted_windows():
    state = next(
        s
        for seed in range(1, 20, 2)
        for s in game_states(GameConfig(num_players=2, variant="pro"), seed)
        if any(t.lit for col in s.towers[0] for t in col)
    )
    block = seat_block(compact(state, 1), 0)
    for tower in (t for col in state.towers[0] for t in col):
        extras = [f"{tower.visible_gold}g"] * bool(tower.visible_gold)
        extras += [f"{tower.lit}l"] * bool(tower.lit)
        word = f"{COLOUR_NAMES[tower.colour][:3]}{tower.height}"
        assert word + (f"({','.join(extras)})" if extras else "") in block.split()


def test_the_gifts_on_the_chests_are_shown_in_the_order_laid():
    config = GameConfig(num_players=3, variant="pro", expansions=("gifts",))
    state = game_states(config, 0)[0]
    state.gifts[0] = [3, 7]  # asari 5, buy window on the bases market chest
    state.gifts[4] = [9, 0]  # prestige 2, a buyer card on plot 4
    text = compact(state, 0)
    assert ".{$5,buy-win}" in area_items(text)["bases"]
    assert "4:.{+2pr,card}" in area_items(text)["building"]
    assert "gift pile " in text


# ------------------------------------------------------------------------ information (R10)
@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_R10_compact_board_ignores_what_the_viewer_cannot_know(config):
    rng = np.random.default_rng(11)
    for state in positions(config, every=8):
        for viewer in range(config.num_players):
            other = resample_hidden(state, viewer, rng)
            assert compact(other, viewer) == compact(state, viewer)


def test_R10_a_gift_taker_sees_the_draw_pile_the_others_do_not():
    config = GameConfig(num_players=3, variant="pro", expansions=("gifts",))
    state = next(
        s for seed in range(20) for s in game_states(config, seed) if s.phase == Phase.GIFT_CARD
    )
    holds = ", ".join(f"{CARD_NAMES[c]} {n}" for c, n in enumerate(state.draw_pile) if n)
    assert f"the pile holds {holds}" in " ".join(compact(state, state.seat).split())
    for other in set(range(3)) - {state.seat}:
        assert "the pile holds" not in compact(state, other)
