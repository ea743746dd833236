"""The fuzzing batteries of issue 13: mutated saved states (refused naming a field, or loaded
and played to the end identically by both engines), bad actions through every API (refused,
the state byte-identical), bad configurations and seeds (refused naming the argument)."""

from __future__ import annotations

import pytest
from fuzzing import TALLY, check_saved, mutations, positions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asara_env.reference.serialize import state_from_dict, state_to_dict

FUZZ = dict(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


def test_the_positions_cover_every_configuration_and_phase():
    saves = positions()
    configs = {
        (d["config"]["num_players"], d["config"]["variant"], tuple(d["config"]["expansions"]))
        for d in saves
    }
    assert len(configs) == 18
    assert {d["phase"] for d in saves} == {
        "PLACE",
        "BUY",
        "BRIBE_STACK",
        "BRIBE_TAKE",
        "LIGHTS_OPTION",
        "LIGHTS_KEEP",
        "BUILD",
        "GAME_OVER",
        "GENIE",
        "GIFT_CARD",
        "GIFT_BUY",
        "GIFT_LIGHTS",
    }


def test_every_unmutated_position_loads_and_saves_back_unchanged():
    for saved in positions():
        assert state_to_dict(state_from_dict(saved)) == saved


def test_one_position_of_each_phase_and_configuration_plays_on_identically_in_both_engines():
    firsts = {}
    for saved in positions():
        firsts.setdefault((saved["phase"], saved["config"]["variant"]), saved)
    for i, saved in enumerate(firsts.values()):
        assert check_saved(saved, i) == "loaded"


@pytest.mark.slow
def test_every_unmutated_position_plays_on_identically_in_both_engines():
    for i, saved in enumerate(positions()):
        assert check_saved(saved, i) == "loaded"


@settings(max_examples=300, **FUZZ)
@given(mutations(), st.integers(0, 2**16))
def test_mutated_saves_are_refused_naming_a_field_or_play_identically(saved, seed):
    check_saved(saved, seed)


def _tally(name: str) -> None:
    print(f"\n{name}: " + ", ".join(f"{k} {v}" for k, v in TALLY.items()))


@pytest.mark.slow
def test_5000_mutated_saves_are_refused_naming_a_field_or_play_identically():
    TALLY.clear()
    run = settings(max_examples=5000, **FUZZ)(
        given(mutations(), st.integers(0, 2**16))(check_saved)
    )
    run()
    _tally("saved-state battery")
    assert TALLY["tried"] >= 5000 and TALLY["tried"] == TALLY["refused"] + TALLY["loaded"]
