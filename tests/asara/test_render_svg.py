"""The SVG pictures: what they must show, what they must not (R10), pixels and replays."""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from asara_env import GameConfig, asara_v0
from asara_env.asara.constants import (
    CHEST_SPACES,
    COLOUR_NAMES,
    MARKET_AREAS,
    PART_NAMES,
    SPACE_VALUES,
    Area,
    Part,
    chests_in_play,
)
from asara_env.asara.reference.engine import new_game, step
from asara_env.asara.reference.record import GameRecord, replay
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.serialize import state_from_dict, state_to_dict
from asara_env.asara.reference.state import Phase, State
from asara_env.asara.reference.view import seat_view
from asara_env.asara.render import GIFT_LABELS
from asara_env.asara.render_svg import (
    SVG,
    action_spots,
    animated_svg,
    replay_frames,
    save_gif,
    svg_full,
    svg_view,
    to_rgb_array,
)
from tests.asara.games import ALL_CONFIGS, ALL_IDS, game_states
from tests.asara.hidden import resample_hidden

NS = {"s": "http://www.w3.org/2000/svg"}
PRO_BOTH = GameConfig(num_players=4, variant="pro", expansions=("genie", "gifts"))


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in e.get("class", "").split()]


def texts(root: ET.Element) -> str:
    return "\n".join("".join(e.itertext()) for e in root.iter(f"{{{NS['s']}}}text"))


@functools.cache
def some_states(config: GameConfig) -> tuple[State, ...]:
    """A few positions of one random game (the start, two in play, the end), each saved
    and loaded again (docs/asara/state.md)."""
    states = game_states(config, 5)
    picks = [states[0], states[len(states) // 3], states[2 * len(states) // 3], states[-1]]
    return tuple(state_from_dict(state_to_dict(s)) for s in picks)  # read only


# ------------------------------------------------------------------------ towers
@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_every_tower_appears_with_its_parts_gold_and_lighted_windows(config):
    for state in some_states(config):
        root = parse(svg_view(seat_view(state, 0)))
        drawn = {
            (
                int(g.attrib["data-seat"]),
                COLOUR_NAMES.index(g.get("data-colour")),
                int(g.attrib["data-index"]),
            ): g
            for g in by_class(root, "tower")
        }
        expected = {
            (s, c, k): t
            for s in range(config.num_players)
            for c in range(len(COLOUR_NAMES))
            for k, t in enumerate(state.towers[s][c])
        }
        assert set(drawn) == set(expected)
        for key, tower in expected.items():
            parts = by_class(drawn[key], "part")
            assert len(parts) == tower.height
            for p in Part:
                kind = [e for e in parts if e.get("data-part") == PART_NAMES[p]]
                assert len(kind) == tower.parts[p].sum()
                assert sum(e.get("data-gold") == "1" for e in kind) == tower.parts[p, 1]
            lit = [e for e in parts if e.get("data-lit") == "1"]
            assert len(lit) == tower.lit
            assert sum(e.get("data-gold") == "1" for e in lit) == tower.lit_gold
            assert all(e.get("data-part") == "window" for e in lit)


def test_a_loaded_position_shows_its_towers_stacked_base_first():
    """A tower drawn bottom up: the base lowest, the turret highest (R4.2)."""
    state = next(s for s in reversed(game_states(PRO_BOTH, 7)) if any_complete(s))
    root = parse(svg_full(state))
    for g in by_class(root, "tower"):
        parts = by_class(g, "part")
        order = [PART_NAMES.index(e.get("data-part")) for e in parts]
        ys = [float(e.attrib["y"]) for e in parts]
        assert order == sorted(order)  # drawn base first ...
        assert ys == sorted(ys, reverse=True)  # ... each tile above the one before


def any_complete(state: State) -> bool:
    return any(t.complete for seat in state.towers for col in seat for t in col)


# ------------------------------------------------------------------------ board
@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_the_board_shows_every_buyer_display_and_area_in_play(config):
    for state in some_states(config):
        root = parse(svg_view(seat_view(state, 1)))
        spaces = by_class(root, "space")
        taken = {
            (Area[e.attrib["data-area"].upper()], int(e.attrib["data-space"])): int(
                e.attrib["data-seat"]
            )
            for e in spaces
            if e.get("data-taken") == "1"
        }
        expected = {
            (Area(a), i): b.seat
            for a, area in enumerate(state.spaces)
            for i, b in enumerate(area)
            if b is not None
        }
        assert taken == expected
        areas = {Area[e.attrib["data-area"].upper()] for e in spaces}
        assert (Area.TENT in areas) == (Area.LIGHTS in areas) == config.pro
        assert (Area.GENIE in areas) == ("genie" in config.expansions)
        n_spaces = sum(len(SPACE_VALUES[a]) for a in areas)
        assert len(spaces) == n_spaces
        for part in range(len(MARKET_AREAS)):
            market = next(
                m for m in by_class(root, "market") if m.get("data-part") == PART_NAMES[part]
            )
            tiles = by_class(market, "tile")
            assert len(tiles) == state.displays[part].sum()
            gold = [t for t in tiles if t.attrib["data-spot"].endswith(",1")]
            assert len(gold) == state.displays[part, :, 1].sum()


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_the_header_and_players_show_year_turn_pending_money_and_prestige(config):
    state = some_states(config)[1]
    root = parse(svg_view(seat_view(state, 0)))
    assert root.get("data-year") == str(state.year)
    assert root.get("data-phase") == state.phase.name
    assert root.get("data-to-move") == str(state.seat)
    words = texts(root)
    assert f"year {state.year}/4" in words
    assert "pending: " in words
    for seat in range(config.num_players):
        facts = next(
            "".join(f.itertext())
            for p in by_class(root, "player")
            if p.get("data-seat") == str(seat)
            for f in by_class(p, "facts")
        )
        assert f"money {state.money[seat]}" in facts
        assert f"prestige {state.prestige[seat]}" in facts
        assert f"hand {state.hands[seat].sum()}" in facts


def test_the_gifts_on_every_chest_are_shown():
    state = game_states(PRO_BOTH, 9)[40]
    words = texts(parse(svg_full(state)))
    for k in chests_in_play(True):
        shown = ", ".join(GIFT_LABELS[g] for g in state.gifts[k]) or "-"
        area, i = CHEST_SPACES[k]
        label = f"chest on plot {SPACE_VALUES[area][i]}: " if area == Area.BUILDING else "chest: "
        assert label + shown in words


@pytest.mark.parametrize("config", ALL_CONFIGS[:6], ids=ALL_IDS[:6])
def test_final_scoring_table_appears_only_at_the_end(config):
    states = game_states(config, 11)
    assert not by_class(parse(svg_full(states[-2])), "final")
    root = parse(svg_full(states[-1]))
    rows = by_class(root, "final-row")
    final = states[-1].final
    assert len(rows) == config.num_players and final is not None
    for row in rows:
        seat = int(row.attrib["data-seat"])
        cells = ["".join(t.itertext()) for t in row]
        assert cells[-2:] == [str(final[seat]["total"]), str(states[-1].prestige[seat])]


# ------------------------------------------------------------------------ R10 and clicks
def test_r10_a_seat_picture_does_not_change_with_what_the_seat_cannot_know():
    rng = np.random.default_rng(0)
    for config in (GameConfig(num_players=3, variant="pro"), PRO_BOTH):
        for state in game_states(config, 13)[::15]:
            for viewer in range(config.num_players):
                other = resample_hidden(state, viewer, rng)
                assert svg_view(seat_view(other, viewer)) == svg_view(seat_view(state, viewer))


def test_r10_only_the_viewers_hand_is_drawn_and_unseen_cards_are_grey():
    state = game_states(GameConfig(num_players=3, variant="basic"), 15)[20]
    for viewer in range(3):
        root = parse(svg_view(seat_view(state, viewer)))
        hands = by_class(root, "hand")
        assert len(hands) == 1 and hands[0].get("data-cards") == str(state.hands[viewer].sum())
        hidden = sum(
            len(b.cards)
            for area in state.spaces
            for b in area
            if b is not None and not b.face_up and b.seat != viewer
        ) + sum(len(b.cards) for b in state.coloured if b.seat != viewer)
        assert texts(root).count("unseen card") == 0  # titles are not text elements
        titles = ["".join(t.itertext()) for t in root.iter(f"{{{NS['s']}}}title")]
        assert titles.count("unseen card") == hidden


@pytest.mark.parametrize("config", [ALL_CONFIGS[1], PRO_BOTH], ids=["2p-pro", "4p-pro-both"])
def test_every_legal_move_with_a_spot_can_be_clicked_on_the_movers_picture(config):
    """Every spot a legal move names is drawn in the mover's picture, except the new
    tower a build tile may start (chosen from the list)."""
    for state in game_states(config, 17)[:-1:3]:
        root = parse(svg_view(seat_view(state, state.seat)))
        spots = {e.get("data-spot") for e in root.iter() if e.get("data-spot")}
        for action in legal_actions(state):
            for spot in action_spots(action):
                if spot.startswith("tower:"):
                    c, k = map(int, spot[6:].split(","))
                    if k == len(state.towers[state.seat][c]):
                        continue
                assert spot in spots, (state.phase, spot)


# ------------------------------------------------------------------------ pixels, notebooks
def test_rgb_array_render_is_the_movers_picture_in_pixels():
    env = asara_v0.env(num_players=2, render_mode="rgb_array")
    env.reset(seed=3)
    pixels = env.render()
    assert pixels.dtype == np.uint8 and pixels.ndim == 3 and pixels.shape[2] == 3
    view = seat_view(new_game(GameConfig(num_players=2), 3), 0)
    assert np.array_equal(pixels, to_rgb_array(svg_view(view)))
    assert tuple(pixels[5, 5]) == (0x3B, 0x2F, 0x5C)  # the header band


def test_pettingzoo_render_test_passes_with_every_mode():
    from pettingzoo.test import render_test

    render_test(lambda render_mode: asara_v0.env(num_players=2, render_mode=render_mode))


def test_svg_string_draws_itself_in_notebooks():
    svg = svg_full(new_game(GameConfig(num_players=2), 0))
    assert isinstance(svg, SVG) and svg._repr_svg_() == str(svg)
    assert svg.startswith("<svg") and parse(svg).tag == f"{{{NS['s']}}}svg"


# ------------------------------------------------------------------------ replays
def short_record(n: int = 12) -> GameRecord:
    config = GameConfig(num_players=2, variant="basic")
    state, record = new_game(config, 4), GameRecord(config, 4)
    for _ in range(n):
        action = legal_actions(state)[0]
        step(state, action)
        record.actions.append(action)
    return record


def test_replay_frames_show_every_position_of_a_saved_game():
    record = short_record()
    frames = replay_frames(record, seat=1)
    assert len(frames) == len(record.actions) + 1
    assert frames[-1] == svg_view(seat_view(replay(record), 1))
    assert frames[0] == svg_view(seat_view(new_game(record.config, record.seed), 1))
    with pytest.raises(ValueError, match="seat must be in 0..1"):
        replay_frames(record, seat=2)


def test_animated_svg_and_gif_hold_one_frame_per_position(tmp_path):
    from PIL import Image

    frames = replay_frames(short_record(3))
    root = parse(animated_svg(frames, seconds=0.5))
    groups = by_class(root, "frame")
    assert len(groups) == 4
    assert [len(g.findall("s:animate", NS)) for g in groups] == [1] * 4
    path = tmp_path / "replay.gif"
    save_gif(frames, str(path), seconds=0.5)
    with Image.open(path) as gif:
        assert gif.n_frames == 4
    with pytest.raises(ValueError, match="at least one frame"):
        animated_svg([])


def test_a_pending_build_shows_the_tiles_still_to_place():
    for state in game_states(GameConfig(num_players=2, variant="basic"), 19):
        if state.phase == Phase.BUILD:
            break
    words = texts(parse(svg_view(seat_view(state, state.seat))))
    assert f"build: {state.build_left} tile(s) still to place" in words


def test_svg_render_is_the_movers_picture():
    env = asara_v0.env(num_players=3, render_mode="svg")
    env.reset(seed=5)
    view = seat_view(new_game(GameConfig(num_players=3), 5), 0)
    assert env.render() == svg_view(view)
