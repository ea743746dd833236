"""Save and replay: JSON round trips, bit-for-bit replays, determinism, and clear errors for
corrupt saved states."""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import pytest

from asara_env import CorruptStateError, GameConfig
from asara_env.asara.reference import engine
from asara_env.asara.reference.record import GameRecord, replay
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.serialize import state_from_dict, state_to_dict
from tests.asara.games import play_on_side_by_side

CONFIGS = [GameConfig(num_players=p, variant=v) for p in (2, 3, 4) for v in ("basic", "pro")]
IDS = [f"{c.num_players}p-{c.variant}" for c in CONFIGS]


def random_game(config: GameConfig, seed: int, stop_after: int | None = None):
    """Play random legal actions; return the state, its record and saved dicts on the way."""
    state = engine.new_game(config, seed)
    record = GameRecord(config, seed)
    chooser = np.random.default_rng(seed + 99)
    saves = [state_to_dict(state)]
    while not state.is_over and (stop_after is None or len(record.actions) < stop_after):
        actions = legal_actions(state)
        action = actions[int(chooser.integers(len(actions)))]
        engine.step(state, action)
        record.actions.append(action)
        if chooser.random() < 0.05:
            saves.append(state_to_dict(state))
    return state, record, saves


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_save_load_save_is_the_identity_through_json(config):
    for seed in range(4):
        *_, saves = random_game(config, seed)
        for saved in saves:
            through_json = json.loads(json.dumps(saved))
            assert state_to_dict(state_from_dict(through_json)) == saved


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_replay_reproduces_the_game_bit_for_bit(config):
    state, record, _ = random_game(config, 11)
    again = replay(GameRecord.from_dict(json.loads(json.dumps(record.to_dict()))))
    assert state_to_dict(again) == state_to_dict(state)


def test_a_loaded_state_plays_on_exactly_like_the_original():
    """The RNG state is saved too: chance after loading matches the original game."""
    config = GameConfig(num_players=3, variant="pro")
    state, record, _ = random_game(config, 5, stop_after=60)
    loaded = state_from_dict(state_to_dict(state))
    play_on_side_by_side(state, loaded, np.random.default_rng(1))


def test_same_seed_same_game_and_different_seeds_different_games():
    config = GameConfig(num_players=4, variant="pro")
    a, _, _ = random_game(config, 21)
    b, _, _ = random_game(config, 21)
    assert state_to_dict(a) == state_to_dict(b)
    starts = {json.dumps(state_to_dict(engine.new_game(config, s))["hands"]) for s in range(20)}
    assert len(starts) == 20, "different seeds should deal different hands"


def test_a_generator_can_be_passed_as_the_seed():
    config = GameConfig(num_players=2)
    from_int = engine.new_game(config, 8)
    from_rng = engine.new_game(config, np.random.default_rng(8))
    assert state_to_dict(from_int) == state_to_dict(from_rng)


def _saved():
    state, _, _ = random_game(GameConfig(num_players=3, variant="pro"), 2, stop_after=40)
    return state_to_dict(state)


def _set(path, value):
    def corrupt(d):
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return corrupt


def _bump(path):
    def corrupt(d):
        target = d
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] += 1

    return corrupt


CORRUPTIONS = {
    "wrong schema": (_set(["schema"], "chess"), "schema"),
    "future version": (_set(["version"], 99), "version"),
    "missing field": (lambda d: d.pop("money"), "money"),
    "unknown phase": (_set(["phase"], "DANCE"), "phase"),
    "bad config": (_set(["config", "num_players"], 9), "num_players"),
    "negative money": (_set(["money", 0], -3), "money"),
    "money not an int": (_set(["money", 0], "lots"), "money"),
    "hands wrong shape": (_set(["hands"], [[1, 2]]), "hands"),
    "a tile doubled": (_bump(["stacks", 0, 0, 0]), "tiles"),
    "a card added": (_bump(["draw_pile", 0]), "cards"),
    "seat out of range": (_set(["seat"], 7), "seat"),
    "year out of range": (_set(["year"], 5), "year"),
    "rng of another kind": (_set(["rng"], {"bit_generator": "MT19937"}), "PCG64"),
    "build outside its phase": (_set(["build_left"], 3), "build_left"),
}


@pytest.mark.parametrize("name", list(CORRUPTIONS))
def test_corrupt_states_are_rejected_with_a_clear_error(name):
    corrupt, word = CORRUPTIONS[name]
    saved = _saved()
    broken = copy.deepcopy(saved)
    corrupt(broken)
    with pytest.raises(CorruptStateError, match=word):
        state_from_dict(broken)
    assert state_to_dict(state_from_dict(saved)) == saved


def test_a_record_with_an_illegal_action_is_rejected_naming_the_action():
    _, record, _ = random_game(GameConfig(num_players=2), 4, stop_after=10)
    bad = GameRecord(record.config, record.seed, record.actions[:5] + [802])
    with pytest.raises(CorruptStateError, match="#5"):
        replay(bad)


def test_every_saved_field_is_documented():
    from pathlib import Path

    doc = (Path(__file__).parents[2] / "docs" / "asara" / "state.md").read_text()
    for key in _saved():
        assert f"| `{key}` |" in doc, f"docs/asara/state.md does not document {key!r}"


def _mid_gift_save() -> dict[str, Any]:
    """A saved 3-player pro + gifts game waiting on a gift purchase (R9.2)."""
    from asara_env.asara.phases import Phase

    state, rng = engine.new_game(GameConfig(3, "pro", ("gifts",)), 1), np.random.default_rng(1)
    while state.phase != Phase.GIFT_BUY:
        actions = legal_actions(state)
        engine.step(state, actions[int(rng.integers(len(actions)))])
    return state_to_dict(state)


@pytest.mark.parametrize(
    "change, words",
    [
        ({"pending_target": 99}, "pending_target: 99 is above the maximum"),
        ({"pending_space": 2}, "not on the chest being emptied"),
        ({"pending_target": 11}, "not on the chest being emptied"),  # bank 8
        ({"gift_chest": 5}, "not on the chest being emptied"),
        ({"gift_queue": [0, 0, 0, 0, 0]}, "gift_queue: must have at most 4 entries, got 5"),
    ],
)
def test_R9_2_corrupt_gift_states_are_rejected(change, words):
    saved = _mid_gift_save()
    assert state_to_dict(state_from_dict(saved)) == saved
    with pytest.raises(CorruptStateError, match=words):
        state_from_dict({**saved, **change})


def test_R9_2_a_gift_decision_without_the_gifts_expansion_is_rejected():
    saved = _mid_gift_save()
    saved |= {"config": {**saved["config"], "expansions": []}, "gift_pile": [0] * 11}
    saved |= {"gifts": [[] for _ in range(6)], "gift_queue": []}
    with pytest.raises(CorruptStateError, match="GIFT_BUY needs the gifts expansion"):
        state_from_dict(saved)
