"""Save and load (pydantic-validated JSON), game records and replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from asara_env.basari.config import BasariConfig
from asara_env.basari.reference import (
    GameRecord,
    legal_actions,
    new_game,
    replay,
    state_from_dict,
    state_to_dict,
    step,
)
from asara_env.basari.reference.serialize import MEANING, StateModel, schema_markdown
from asara_env.common.errors import CorruptStateError
from tests.basari.helpers import CONFIGS, random_game


def _mid_barter() -> dict[str, Any]:
    rng = np.random.default_rng(0)
    for before, _, _ in random_game(BasariConfig(4), 3, rng):
        if before.phase == 2 and before.offer_by >= 0 and before.pending.any():
            return state_to_dict(before)
    raise AssertionError("no barter reached")


def test_save_load_round_trips_at_every_step() -> None:
    rng = np.random.default_rng(1)
    for config in CONFIGS:
        for before, _, after in random_game(config, 5, rng):
            saved = json.loads(json.dumps(state_to_dict(before)))
            loaded = state_from_dict(saved)
            assert loaded.equals(before) and state_to_dict(loaded) == saved
            last = after
        assert state_from_dict(state_to_dict(last)).equals(last)


def test_a_loaded_game_plays_on_identically() -> None:
    saved = _mid_barter()
    a, b = state_from_dict(saved), state_from_dict(saved)
    rng = np.random.default_rng(2)
    while a.phase != 3:
        joint = [int(rng.choice(np.flatnonzero(legal_actions(a, s)))) for s in range(4)]
        step(a, joint)
        step(b, joint)
        assert a.equals(b)
        assert all(legal_actions(a, s).any() for s in range(4))  # no dead end after loading


def _corrupt(path: str, value: object) -> dict[str, Any]:
    d = _mid_barter()
    *parents, last = path.split(".")
    node = d
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node[key]
    if isinstance(node, list):
        node[int(last)] = value
    elif value is KeyError:
        del node[last]
    else:
        node[last] = value
    return d


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("gems.1.2", 26, r"^gems\[1\]\[2\]: 26 is above the maximum 25"),
        ("gems.1.2", "3", r"^gems\[1\]\[2\]: must be an int"),
        ("score.0", -1, r"^score\[0\]"),
        ("score.0", 2**31 + 5, r"^score\[0\]: 2147483653 is above the maximum 100000000"),
        ("offers", 2**40, "^offers: 1099511627776 is above the maximum"),
        ("offers", 2**70, "^offers"),
        ("config.board.0.0", 2**40, r"^config.board\[0\]\[0\]"),
        ("config.board.0.1", 26, r"^config.board: board\[0\].red must be from 0 to 25"),
        ("round", 2**64, "^round"),
        ("seed", True, "seed"),
        ("seed", 2**64, "seed"),
        ("phase", "BUILD", "phase"),
        ("round", 3, "round"),
        ("revealed.2", 3, r"^revealed\[2\]"),
        ("move_roll.0", 7, r"^move_roll\[0\]"),
        ("config.num_players", 5, "config.num_players"),
        ("config.start_mode", "free", "config.start_mode"),
        ("config.board.0.1", -1, r"^config.board\[0\]\[1\]"),
        ("offers", KeyError, "offers"),
        ("progress", [1, 2], "^progress: must have 4 entries"),
        ("offer_by", 4, "offer_by"),
        ("schema", "x", "schema"),
    ],
)
def test_a_corrupt_save_is_refused_naming_the_field(path: str, value: object, message: str) -> None:
    with pytest.raises(CorruptStateError, match=message):
        state_from_dict(_corrupt(path, value))


def test_unknown_keys_and_broken_invariants_are_refused() -> None:
    d = _mid_barter()
    d["extra"] = 1
    with pytest.raises(CorruptStateError, match="extra"):
        state_from_dict(d)
    d = _mid_barter()
    d["carpet"][0] += 1  # 26 red in the game
    with pytest.raises(CorruptStateError, match="carpet \\+ holdings = 26"):
        state_from_dict(d)
    d = _mid_barter()
    d["to_act"] = d["offer_by"]  # the offerer may not answer its own offer
    with pytest.raises(CorruptStateError, match="alternate"):
        state_from_dict(d)
    d = _mid_barter()
    d["config"]["num_players"] = 3
    with pytest.raises(CorruptStateError, match="must have 3 entries"):
        state_from_dict(d)
    for not_a_save in ([1, 2], None, "x", 3):
        with pytest.raises(CorruptStateError, match=r"^\(top\): a saved state is a dict"):
            state_from_dict(not_a_save)


def test_records_replay_to_the_same_state() -> None:
    for config in CONFIGS:
        rng = np.random.default_rng(4)
        record = GameRecord(config, 77)
        for _, joint, after in random_game(config, 77, rng):
            record.actions.append(joint)
            last = after
        again = GameRecord.from_dict(json.loads(json.dumps(record.to_dict())))
        assert replay(again).equals(last)


def test_a_bad_record_is_refused() -> None:
    record = GameRecord(BasariConfig(3), 1, [[1, 1, 1], [29, 29, 38]])
    with pytest.raises(CorruptStateError, match="record action #1.*seat 2"):
        replay(record)
    with pytest.raises(CorruptStateError, match="malformed"):
        GameRecord.from_dict({"config": {"num_players": 3}, "seed": -4, "actions": []})
    with pytest.raises(CorruptStateError, match="malformed"):
        GameRecord.from_dict({"config": {}, "seed": 1, "actions": [3]})
    assert new_game(BasariConfig(3), 1).equals(replay(GameRecord(BasariConfig(3), 1)))


def test_the_save_format_docs_are_generated_and_up_to_date() -> None:
    doc = Path(__file__).resolve().parents[2] / "docs" / "basari" / "state.md"
    assert doc.read_text() == schema_markdown()
    assert set(MEANING) == set(StateModel.model_json_schema(by_alias=True)["properties"])
    assert set(MEANING) == set(state_to_dict(new_game()))
