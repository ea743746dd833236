"""BASARI's SVG pictures: what they must show (the ring of archways, every piece, every
player's numbers, the barter, the round and phase), what a seat's picture must not (B11),
pixels through the envs (PettingZoo's render_test) and animated replays."""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np
import pytest

from asara_env import basari_v0
from asara_env.basari.actions import Group
from asara_env.basari.bridge import to_reference
from asara_env.basari.config import BasariConfig
from asara_env.basari.gym_env import BasariGymEnv
from asara_env.basari.phases import Phase
from asara_env.basari.reference import GameRecord, State, legal_actions, new_game, replay, step
from asara_env.basari.render_svg import (
    BAND,
    SVG,
    action_spots,
    animated_svg,
    picture_view,
    replay_frames,
    save_gif,
    svg_full,
    svg_of,
    svg_view,
    to_rgb_array,
)
from tests.basari.fuzzing import random_joint
from tests.basari.games import SMALL_BOARD

NS = {"s": "http://www.w3.org/2000/svg"}
COLOURS = ("red", "yellow", "green", "blue")
CARDS = ("Die", "Points", "Gemstones")
CONFIGS = [
    BasariConfig(2, "choose"),
    BasariConfig(3, "random"),
    BasariConfig(4, "choose"),
    BasariConfig(3, "choose", SMALL_BOARD),
]
IDS = ["2p-choose", "3p-random", "4p-choose", "3p-small-board"]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in e.get("class", "").split()]


def words(root: ET.Element) -> list[str]:
    """The text of every text element under `root`."""
    return ["".join(e.itertext()) for e in root.iter(f"{{{NS['s']}}}text")]


def one(root: ET.Element, name: str, **data: object) -> ET.Element:
    """The one element of class `name` whose data-* attributes are `data`."""
    found = [
        e
        for e in by_class(root, name)
        if all(e.get(f"data-{k.replace('_', '-')}") == str(v) for k, v in data.items())
    ]
    assert len(found) == 1, (name, data, len(found))
    return found[0]


def bundle(gems) -> str:
    return " + ".join(f"{k} {COLOURS[c]}" for c, k in enumerate(gems) if k) or "nothing"


@functools.cache
def game_states(config: BasariConfig, seed: int) -> tuple[State, ...]:
    """Every position of one random game (barters kept short), the first to the last."""
    state, chooser = new_game(config, seed), np.random.default_rng(seed)
    states = [state.copy()]
    while state.phase != Phase.OVER:
        step(state, random_joint(state, chooser))
        states.append(state.copy())
    return tuple(states)


@functools.cache
def some_states(config: BasariConfig) -> tuple[State, ...]:
    """The first position of every phase, a barter with a standing offer and a bundle
    being built, and a few positions spread over the game."""
    states = game_states(config, 5)
    picks = [states[i] for i in np.linspace(0, len(states) - 1, 6).astype(int)]
    picks += [next(s for s in states if s.phase == phase) for phase in phases(config)]
    return (*picks, next(s for s in barter_states(config) if s.offer_by >= 0 and s.pending.any()))


def phases(config: BasariConfig) -> list[Phase]:
    """The phases a game reaches: SETUP only when the seats choose their start."""
    return [p for p in Phase if p != Phase.SETUP or config.start_mode == "choose"]


@functools.cache
def barter_states(config: BasariConfig) -> tuple[State, ...]:
    """Every barter position of a few random games."""
    return tuple(
        s for seed in (7, 8, 9) for s in game_states(config, seed) if s.phase == Phase.BARTER
    )


# ------------------------------------------------------------------------ the bazaar
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_archway_appears_with_its_number_points_and_gems(config):
    for state in some_states(config):
        for seat in (None, 0):
            root = parse(svg_of(state, seat))
            archways = by_class(root, "archway")
            assert [int(a.attrib["data-archway"]) for a in archways] == list(
                range(config.n_archways)
            )
            for k, arch in enumerate(archways):
                points, *gems = config.board[k].tolist()
                assert f"#{k}" in words(arch) and str(points) in words(arch)
                assert arch.get("data-points") == str(points)
                assert arch.get("data-gems") == ",".join(map(str, gems))
                drawn = [e.get("data-colour") for e in by_class(arch, "gem")]
                assert [drawn.count(name) for name in COLOURS] == gems


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_merchant_and_start_disk_stands_on_its_archway(config):
    for state in some_states(config):
        root = parse(svg_of(state, 1))
        for kind, where in (("merchant", state.position), ("start-disk", state.start)):
            drawn = {
                (int(p.attrib["data-seat"]), int(arch.attrib["data-archway"]))
                for arch in by_class(root, "archway")
                for p in by_class(arch, kind)
            }
            expected = {(s, int(k)) for s, k in enumerate(where) if k >= 0}
            assert drawn == expected, kind
            assert len(by_class(root, kind)) == len(expected)
        for s in range(config.num_players):
            if state.position[s] >= 0:
                merchant = one(root, "merchant", seat=s)
                assert words(merchant) == [str(s)]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_carpets_show_the_gems_left(config):
    for state in some_states(config):
        root = parse(svg_full(state))
        for c, name in enumerate(COLOURS):
            carpet = one(root, "carpet", colour=name)
            assert carpet.get("data-count") == str(state.carpet[c])
            assert str(state.carpet[c]) in words(carpet)


# ------------------------------------------------------------------------ header, players
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_header_shows_round_turn_phase_and_the_decision(config):
    pending = {
        Phase.SETUP: "every player picks a start archway",
        Phase.SELECT: "every player picks an action card",
        Phase.BARTER: "P",
        Phase.OVER: "the game is over",
    }
    for state in some_states(config):
        root = parse(svg_of(state, 0))
        assert root.get("data-round") == str(state.round + 1)
        assert root.get("data-turn") == str(state.turn + 1)
        assert root.get("data-phase") == state.phase.name
        status = f"round {state.round + 1}/3 · turn {state.turn + 1} · {state.phase.name}"
        assert status in words(root)
        line = "".join(words(by_class(root, "pending")[0]))
        assert line.startswith("pending: " + pending[state.phase])


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_each_player_shows_score_gems_lap_archways_and_revealed_card(config):
    n = config.n_archways
    for state in some_states(config):
        root = parse(svg_of(state, 0))
        assert len(by_class(root, "player")) == config.num_players
        for s in range(config.num_players):
            panel = one(root, "player", seat=s)
            text = words(panel)
            assert f"score {state.score[s]}" in text
            for c, name in enumerate(COLOURS):
                gem = one(panel, "gem-count", colour=name)
                assert gem.get("data-count") == str(state.gems[s, c])
                assert str(state.gems[s, c]) in words(gem)
            lap = "lap done" if state.progress[s] >= n else f"lap {state.progress[s]}/{n}"
            assert lap in text
            if state.position[s] >= 0:
                where = f"merchant on archway {state.position[s]} · start disk on archway "
                assert where + str(state.start[s]) in text
            revealed = [e.get("data-card") for e in by_class(panel, "card")]
            lit = [
                e.get("data-card") for e in by_class(panel, "card") if e.get("data-revealed") == "1"
            ]
            assert revealed == list(CARDS)
            assert lit == ([CARDS[state.revealed[s]]] if state.revealed[s] >= 0 else [])


def test_the_dice_of_the_turn_are_shown():
    state = next(s for s in game_states(CONFIGS[2], 7) if s.action_roll.any())
    root = parse(svg_full(state))
    for s in range(4):
        rolls = "".join(words(by_class(one(root, "player", seat=s), "rolls")[0]))
        assert (f"moved {state.move_roll[s]}" in rolls) == bool(state.move_roll[s])
        die = f"Die action rolled {state.action_roll[s]}"
        assert (die in rolls) == bool(state.action_roll[s])


# ------------------------------------------------------------------------ barter, end
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_barter_shows_its_card_parties_and_standing_offer(config):
    states = barter_states(config)[::3]
    assert any(s.offer_by >= 0 for s in states) and any(s.offer_by < 0 for s in states)
    for state in states:
        root = parse(svg_full(state))
        panel = one(root, "barter", opener=state.opener, responder=state.responder)
        assert panel.get("data-card") == CARDS[state.barter_card]
        assert panel.get("data-to-act") == str(state.to_act)
        text = words(panel)
        assert f"barter for {CARDS[state.barter_card]}" in text
        assert f"P{state.opener} (opener) against P{state.responder}" in text
        if state.offer_by < 0:
            assert "no offer yet" in text and not by_class(root, "offer")
            continue
        offer = one(root, "offer", seat=state.offer_by)
        assert f"standing offer by P{state.offer_by}: {bundle(state.offer)}" in text
        chips = [e.get("data-colour") for e in by_class(offer, "gem")]
        assert [chips.count(name) for name in COLOURS] == state.offer.tolist()
    for state in some_states(config):
        if state.phase != Phase.BARTER:
            assert not by_class(parse(svg_full(state)), "barter")


def test_a_second_barter_of_the_turn_is_announced():
    state = next(s for s in barter_states(CONFIGS[2]) if s.queued_card >= 0)
    assert f"next barter: {CARDS[state.queued_card]}" in words(parse(svg_of(state, 3)))


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_final_standings_appear_at_the_end_only(config):
    states = game_states(config, 9)
    assert not by_class(parse(svg_full(states[-2])), "final")
    end = states[-1]
    rows = by_class(parse(svg_full(end)), "final-row")
    assert sorted(int(r.attrib["data-seat"]) for r in rows) == list(range(config.num_players))
    key = [(end.score[s], end.gems[s].sum(), *end.gems[s]) for s in range(config.num_players)]
    best = max(key)
    for row in rows:
        s = int(row.attrib["data-seat"])
        line = "".join(words(row))
        assert f"P{s}: score {end.score[s]}, {end.gems[s].sum()} gems" in line
        assert line.endswith(" · wins") == (key[s] == best)
        assert row.get("data-place") == str(1 + sum(k > key[s] for k in key))


# ------------------------------------------------------------------------ B11
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_b11_a_picture_does_not_depend_on_the_seed(config):
    """The seed decides the future dice (B11.3): no picture may depend on it."""
    for state in some_states(config):
        other = state.copy()
        other.seed = (state.seed + 1) * 7919
        for seat in (None, *range(config.num_players)):
            assert svg_of(other, seat) == svg_of(state, seat)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_b11_only_the_builder_and_the_full_picture_show_the_bundle_being_built(config):
    building = [s for s in barter_states(config) if s.pending.any()][::4]
    assert building
    for state in building:
        other = state.copy()
        other.pending = np.zeros(4, np.int64)
        for seat in range(config.num_players):
            root = parse(svg_of(state, seat))
            if seat == state.to_act:
                drawn = one(root, "pending-bundle")
                assert drawn.get("data-gems") == ",".join(map(str, state.pending))
                assert f"P{seat} (you) is building: {bundle(state.pending)}" in words(root)
            else:
                assert svg_of(other, seat) == svg_of(state, seat)
                assert not by_class(root, "pending-bundle")
                assert not any("is building:" in w for w in words(root))
        assert one(parse(svg_full(state)), "pending-bundle") is not None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_b11_the_aec_picture_shows_no_card_chosen_earlier_in_the_step(players):
    lay = BasariConfig(players).actions
    for card in range(3):
        env = basari_v0.env(num_players=players, start_mode="random", render_mode="svg")
        env.reset(seed=60 + players)
        before = env.render()
        for _ in range(players - 1):
            env.step(lay.card(card))
            assert env.render() == before


def test_a_seat_outside_the_game_is_refused():
    state = new_game(BasariConfig(3), 0)
    seats: tuple[Any, ...] = (-1, 3, 1.0, True, "0")
    for seat in seats:
        with pytest.raises(ValueError, match=r"seat must be an int from 0 to 2, got"):
            picture_view(state, seat)


# ------------------------------------------------------------------------ clicking
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_legal_move_with_a_spot_can_be_clicked_on_the_players_picture(config):
    lay = config.actions
    for state in [*some_states(config), *barter_states(config)[::5]]:
        for seat in range(config.num_players):
            root = parse(svg_of(state, seat))
            spots = {e.get("data-spot") for e in root.iter() if e.get("data-spot")}
            for action in np.flatnonzero(legal_actions(state, seat)):
                names = action_spots(int(action), config.n_archways)
                group = lay.decode(int(action))[0]
                assert bool(names) == (group not in (Group.NOOP, Group.FORFEIT))
                assert set(names) <= spots, (state.phase, seat, names)


def test_action_spots_name_archways_cards_gems_offer_and_bundle():
    lay = BasariConfig(3, board=SMALL_BOARD).actions
    assert action_spots(lay.start(9), 10) == ["archway:9"]
    assert action_spots(lay.card(2), 10) == ["card:2"]
    assert action_spots(lay.add(3), 10) == ["gem:3"]
    assert action_spots(lay.accept, 10) == ["offer"]
    assert action_spots(lay.submit, 10) == ["pending"]
    assert action_spots(lay.forfeit, 10) == [] and action_spots(lay.noop, 10) == []


# ------------------------------------------------------------------------ envs, pixels
def test_the_envs_list_svg_and_rgb_array():
    assert basari_v0.parallel_env().metadata["render_modes"] == [
        "ansi",
        "human",
        "svg",
        "rgb_array",
    ]
    assert basari_v0.env().metadata["render_modes"][-2:] == ["svg", "rgb_array"]


def test_svg_render_is_the_full_picture_of_the_game():
    env = basari_v0.parallel_env(num_players=3, render_mode="svg")
    env.reset(seed=4)
    svg = env.render()
    assert isinstance(svg, SVG) and svg == svg_full(new_game(BasariConfig(3), 4))
    assert svg._repr_svg_() == str(svg) and parse(svg).tag == f"{{{NS['s']}}}svg"


def test_rgb_array_render_is_the_picture_in_pixels():
    env = basari_v0.parallel_env(num_players=4, start_mode="random", render_mode="rgb_array")
    env.reset(seed=3)
    env.step({a: 29 for a in env.agents})  # everyone plays Die
    pixels = env.render()
    assert isinstance(pixels, np.ndarray)
    assert pixels.dtype == np.uint8 and pixels.ndim == 3 and pixels.shape[2] == 3
    assert np.array_equal(pixels, to_rgb_array(svg_full(to_reference(env.core, 0))))
    assert tuple(pixels[5, 5]) == tuple(int(BAND[i : i + 2], 16) for i in (1, 3, 5))


def test_pettingzoo_render_test_passes_with_every_mode():
    from pettingzoo.test import render_test

    render_test(lambda render_mode: basari_v0.env(num_players=3, render_mode=render_mode))


def test_the_gym_env_renders_pixels():
    env = BasariGymEnv(num_players=2, render_mode="rgb_array")
    env.reset(seed=1)
    pixels = env.render()
    assert pixels.dtype == np.uint8 and pixels.shape[2] == 3
    assert "rgb_array" in env.metadata["render_modes"]


# ------------------------------------------------------------------------ replays
def short_record(joints: int = 8) -> GameRecord:
    config = BasariConfig(3)
    state, chooser = new_game(config, 4), np.random.default_rng(4)
    record = GameRecord(config, 4)
    for _ in range(joints):
        record.actions.append(random_joint(state, chooser))
        step(state, record.actions[-1])
    return record


def test_replay_frames_show_every_position_of_a_saved_game():
    record = short_record()
    frames = replay_frames(record, seat=1)
    assert len(frames) == len(record.actions) + 1
    assert frames[0] == svg_view(picture_view(new_game(record.config, record.seed), 1))
    assert frames[-1] == svg_of(replay(record), 1)
    assert replay_frames(record)[-1] == svg_full(replay(record))
    assert len({parse(f).get("data-phase") for f in frames}) > 1
    with pytest.raises(ValueError, match="seat must be an int from 0 to 2, got 3"):
        replay_frames(record, seat=3)


def test_animated_svg_and_gif_hold_one_frame_per_position(tmp_path):
    from PIL import Image

    frames = replay_frames(short_record(3))
    root = parse(animated_svg(frames, seconds=0.5))
    groups = by_class(root, "frame")
    assert len(groups) == 4
    assert [len(g.findall("s:animate", NS)) for g in groups] == [1] * 4
    path = tmp_path / "replay.gif"
    save_gif(frames, path, seconds=0.5)
    with Image.open(path) as gif:
        assert gif.n_frames == 4
    assert [p.name for p in tmp_path.iterdir()] == ["replay.gif"]  # no temporary left


def test_the_same_game_gives_the_same_pictures():
    record = short_record(5)
    assert replay_frames(record, seat=0) == replay_frames(record, seat=0)


# ------------------------------------------------------------------------ docs pictures
def test_the_docs_pictures_show_a_raise_being_built_and_are_not_overwritten(tmp_path, monkeypatch):
    from PIL import Image

    from asara_env.basari import docs

    monkeypatch.setattr(docs, "REPLAY_STEPS", 3)
    paths = docs.write_pictures(tmp_path / "basari")
    assert [p.name for p in paths] == ["position.svg", "position.png", "replay.gif"]
    state, record = docs.showcase(*docs.PICTURE_GAME)
    assert state.phase == Phase.BARTER and state.round == 1 and state.pending.any()
    assert paths[0].read_text() == svg_full(replay(record))
    with Image.open(paths[1]) as png:
        assert png.size == (1280, int(parse(paths[0].read_text()).attrib["height"]))
    with Image.open(paths[2]) as gif:
        assert gif.n_frames == 4
    before = [p.read_bytes() for p in paths]
    paths[1].write_bytes(b"old")
    with pytest.raises(FileExistsError, match="force overwrites it") as refused:
        docs.write_pictures(tmp_path / "basari")
    assert refused.value.filename == str(paths[0]) and paths[1].read_bytes() == b"old"
    docs.write_pictures(tmp_path / "basari", force=True)
    assert [p.read_bytes() for p in paths] == before


def test_the_committed_docs_picture_is_the_one_drawn_now():
    from pathlib import Path

    from asara_env.basari.docs import PICTURE_GAME, showcase

    committed = Path(__file__).resolve().parents[2] / "docs" / "basari" / "position.svg"
    drawn = svg_full(showcase(*PICTURE_GAME)[0])
    assert committed.read_text() == drawn, (
        "run `python -m apps.screenshots --pictures-only --force`"
    )
