"""Saved games: the schema and the documents generated from it, older versions, and
corrupt saves refused with a message naming the field at fault."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import pytest

from asara_env import GameConfig
from asara_env.asara.env import raw_env
from asara_env.asara.phases import Phase
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.schema import (
    GIFT_FIELDS,
    json_schema,
    json_schema_text,
    state_markdown,
)
from asara_env.asara.reference.serialize import state_from_dict, state_to_dict
from asara_env.common.errors import CorruptStateError
from tests.asara.fuzzing import positions
from tests.asara.games import play_on_side_by_side

DOCS = Path(__file__).resolve().parents[2] / "docs" / "asara"


def test_docs_state_md_is_generated_from_the_schema():
    assert (DOCS / "state.md").read_text() == state_markdown(), "run `python -m asara_env.docs`"


def test_the_json_schema_file_is_generated_from_the_schema():
    text = (DOCS / "state.schema.json").read_text()
    assert text == json_schema_text(), "run `python -m asara_env.docs`"


def test_the_json_schema_accepts_saved_positions_of_both_versions_and_refuses_a_wrapping_int():
    validator = jsonschema.Draft202012Validator(json_schema())
    firsts = {json.dumps(saved["config"]): saved for saved in reversed(positions())}
    for saved in [*firsts.values(), _find("GAME_OVER")]:  # each configuration, a finished game
        validator.validate(saved)
    validator.validate(_version_1(_find("PLACE", "basic")))
    broken = copy.deepcopy(positions()[0])
    broken["money"][0] = 2**31
    with pytest.raises(jsonschema.ValidationError, match="maximum"):
        validator.validate(broken)


def _find(
    phase: str, variant: str | None = None, expansions: tuple[Any, ...] = ()
) -> dict[str, Any]:
    """A copy of the first saved position in `phase` (of the variant, with the expansions)."""
    for saved in positions():
        config = saved["config"]
        wanted = variant in (None, config["variant"]) and set(expansions) <= set(
            config["expansions"]
        )
        if saved["phase"] == phase and wanted:
            return copy.deepcopy(saved)
    raise LookupError(phase)


def _refused(saved: dict[str, Any], message: str) -> CorruptStateError:
    with pytest.raises(CorruptStateError) as info:
        state_from_dict(saved)
    assert str(info.value).startswith(message), str(info.value)
    return info.value


def test_lights_option_without_the_pro_variant_is_refused():
    saved = _find("PLACE", "basic")
    saved["phase"] = "LIGHTS_OPTION"
    _refused(saved, "phase: LIGHTS_OPTION needs the pro variant")


def test_lights_option_with_an_empty_lighted_stack_is_refused():
    """Was accepted, and one action later the game was stuck with an empty mask."""
    saved = _find("LIGHTS_OPTION", "pro")
    seat = saved["seat"]
    for colour, _ in saved["lighted_stack"]:  # every window moves behind the screen
        saved["lighted_supply"][seat][colour] += 1
    saved["lighted_stack"] = []
    if max(saved["lighted_supply"][seat]) <= 3:
        _refused(saved, "lighted_stack: is empty, so no LIGHTS_OPTION can draw a window")
    else:
        _refused(saved, "lighted_supply")


@pytest.mark.parametrize(
    "path, value, message",
    [
        (("coloured", 0, "seat"), 7, "coloured[0].seat: 7 is above the maximum 3"),
        (("money", 0), 2**31, "money[0]: 2147483648 is above the maximum 1000000"),
        (("prestige", 1), 2**31 - 1, "prestige[1]: 2147483647 is above the maximum 1000000"),
        (("rng", "state"), "-5", "rng.state: must be a decimal string, got '-5'"),
        (("rng", "has_uint32"), 2**33, "rng.has_uint32: 8589934592 is above the maximum 0"),
        (("rng", "has_uint32"), 7, "rng.has_uint32: 7 is above the maximum 0"),
        (("rng", "inc"), "2", "rng.inc: must be odd"),
        (("rng", "state"), str(2**128), "rng.state: must be below 2**128"),
        (("lighted_stack", 0, 0), 2**63, "lighted_stack[0][0]: 9223372036854775808 is above"),
        (("hands", 1), [1, 2], "hands[1]: must have at least 5 entries, got 2"),
        (("year",), True, "year: must be an int, got True"),
        (("year",), 2.0, "year: must be an int, got 2.0"),
        (("seat",), "1", "seat: must be an int, got '1'"),
        (("seat",), 3, "seat: 3 is not a seat of 2 players"),
        (("towers", 0), [], "towers[0]: must have at least 5 entries, got 0"),
        (("spaces", 5), [None], "spaces[5]: must have 3 spaces, got 1"),
        (("config", "expansions"), ["gifts", "genie"], "config.expansions: must be sorted"),
    ],
)
def test_bad_values_are_refused_naming_the_field(path, value, message):
    saved = next(
        copy.deepcopy(d)
        for d in positions()
        if d["config"]["num_players"] == 2 and d["config"]["variant"] == "pro" and d["coloured"]
    )
    target = saved
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    _refused(saved, message)


def _first_tower(saved: dict[str, Any]) -> tuple[Any, ...]:
    return next(
        ("towers", s, c, 0)
        for s, seat in enumerate(saved["towers"])
        for c, col in enumerate(seat)
        if col
    )


@pytest.mark.parametrize(
    "where", [(), ("rng",), ("config",), "tower", ("spaces", 0, 0), ("final", 0)]
)
def test_unknown_keys_are_refused_naming_them(where):
    saved = next(copy.deepcopy(d) for d in positions() if d["final"] and d["spaces"][0][0])
    where = _first_tower(saved) if where == "tower" else where
    target = saved
    for key in where:
        target = target[key]
    target["extra"] = 1
    path = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in where).lstrip(".")
    _refused(saved, f"{path}.extra: is not a field" if path else "extra: is not a field")


def test_a_final_scoring_without_a_category_or_with_a_wrong_total_is_refused():
    saved = _find("GAME_OVER")
    del saved["final"][0]["black"]
    _refused(saved, "final[0].black: is missing")
    saved = _find("GAME_OVER")
    saved["final"][0]["total"] = 999
    _refused(saved, "final[0].total: is 999, the towers and money give")


@pytest.mark.parametrize(
    "field, value", [("pending_space", 0), ("gift_chest", 0), ("lights_keep", 1)]
)
def test_decision_fields_outside_their_phase_are_refused(field, value):
    saved = _find("PLACE", "pro", ("gifts",))
    saved[field] = value
    _refused(saved, field)


def test_a_corrupt_save_is_refused_by_env_reset_naming_the_field():
    saved = _find("BUY", "basic")
    env = raw_env(**{k: v for k, v in saved["config"].items() if k != "start_seat"})
    saved["money"][0] = 2**31
    with pytest.raises(CorruptStateError, match=r"money\[0\]: 2147483648 is above"):
        env.reset(options={"state": saved})


def _version_1(saved: dict[str, Any]) -> dict[str, Any]:
    return {**{k: v for k, v in saved.items() if k not in GIFT_FIELDS}, "version": 1}


def test_version_1_saves_still_load_as_games_without_gifts():
    for saved in positions():
        if "gifts" in saved["config"]["expansions"]:
            continue
        old = _version_1(saved)
        state = state_from_dict(old)
        assert state_to_dict(state) == saved  # saved back in the current version
        assert not state.gift_pile.any() and not any(state.gifts)


def test_version_1_saves_are_checked_like_the_current_version():
    saved = _version_1(_find("PLACE", "basic"))
    _refused({**saved, "gift_pile": [0] * 11}, "gift_pile: is not a field")
    _refused({**saved, "year": 9}, "year: 9 is above the maximum 4")
    _refused({**saved, "version": 3}, "version: must be 1 or 2, got 3")
    _refused({**saved, "version": True}, "version: must be 1 or 2, got True")


def test_a_loaded_position_plays_on_like_the_game_it_was_saved_from():
    """The saved chance state carries on: the same actions give the same game."""
    config = GameConfig(num_players=3, variant="pro", expansions=("genie", "gifts"))
    state, chooser = engine.new_game(config, 3), np.random.default_rng(3)
    for _ in range(80):
        engine.step(state, legal_actions(state)[0])
    loaded = state_from_dict(json.loads(json.dumps(state_to_dict(state))))
    play_on_side_by_side(state, loaded, chooser)
    assert loaded.phase == Phase.GAME_OVER


def test_a_game_seeded_with_a_used_generator_saves_and_plays_on_identically():
    """The game draws only doubles, so a buffered 32-bit half draw is not part of the save."""
    rng = np.random.default_rng(5)
    rng.integers(0, 10, dtype=np.int32)  # leaves half a 64-bit draw buffered
    state = engine.new_game(GameConfig(num_players=2), rng)
    saved = state_to_dict(state)
    assert (saved["rng"]["has_uint32"], saved["rng"]["uinteger"]) == (0, 0)
    loaded = state_from_dict(saved)
    while not state.is_over:
        action = legal_actions(state)[-1]
        engine.step(state, action)
        engine.step(loaded, action)
    assert state_to_dict(loaded) == state_to_dict(state)


def _with_a_coloured_building() -> Any:
    """A position whose coloured building holds cards of two seats or colours."""
    chooser = np.random.default_rng(0)
    for seed in range(20):
        state = engine.new_game(GameConfig(num_players=3), seed)
        while not state.is_over:
            if len({(b.seat, b.cards) for b in state.coloured}) >= 2:
                return state
            actions = legal_actions(state)
            engine.step(state, actions[chooser.integers(len(actions))])
    raise AssertionError("no game put two kinds of cards on the coloured building")


def test_a_reordered_coloured_building_loads_to_one_form_in_every_engine():
    from asara_env.asara.bridge.convert import from_reference, to_reference

    state = _with_a_coloured_building()
    saved = json.loads(json.dumps(state_to_dict(state)))
    reordered = copy.deepcopy(saved)
    reordered["coloured"] = saved["coloured"][::-1]
    assert reordered["coloured"] != saved["coloured"]
    reference = state_to_dict(state_from_dict(reordered))
    assert reference == saved  # the reference engine's order
    loaded = state_from_dict(reordered)
    back = to_reference(from_reference([loaded]), 0, loaded.rng)
    assert state_to_dict(back)["coloured"] == saved["coloured"]  # the core's
    env, twin = raw_env(3), raw_env(3)
    env.load_game(reordered)
    twin.load_game(saved)
    assert env.save_game() == twin.save_game()
    assert env.save_game()["coloured"] == saved["coloured"]
