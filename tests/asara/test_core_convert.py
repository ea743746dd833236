"""core.convert: reference states to a CoreState and back, chance included."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from asara_env import GameConfig
from asara_env.asara.bridge.convert import _DTYPES, from_reference, to_reference
from asara_env.asara.core.state import ARRAY_FIELDS, TAPE_LENGTH
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.serialize import state_to_dict
from asara_env.asara.reference.state import State
from tests.asara.games import CONFIGS, IDS, game_states


def comparable(state: State) -> dict[str, Any]:
    """state_to_dict without the rng (chance is not carried back)."""
    d = state_to_dict(state)
    del d["rng"]
    return d


def test_every_core_field_is_converted():
    assert set(_DTYPES) == set(ARRAY_FIELDS)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_round_trip_along_random_games(config):
    for seed in (1, 2):
        for state in game_states(config, seed):
            back = to_reference(from_reference([state]), 0)
            assert comparable(back) == comparable(state)


@pytest.mark.parametrize("config", CONFIGS[:2], ids=IDS[:2])
def test_batch_round_trip_keeps_each_game(config):
    states = game_states(config, 3)[::7]
    core = from_reference(states)
    assert core.year.shape == (len(states),)
    for i, state in enumerate(states):
        assert comparable(to_reference(core, i)) == comparable(state)


def test_dtypes_and_shapes_follow_the_state_comments():
    state = game_states(GameConfig(num_players=3, variant="pro"), 5)[60]
    core = from_reference([state, state], seeds=[11, 12])
    assert core.hands.dtype == np.int8 and core.hands.shape == (2, 3, 5)
    assert core.money.dtype == np.int32 and core.final.shape == (2, 3, 8)
    assert core.tower_parts.shape == (2, 3, 5, 4, 4, 2) and core.space_cards.shape == (2, 38, 2)
    assert core.lighted_stack.shape == (2, 15) and core.lights_drawn.shape == (2, 5)
    assert core.space_face_up.dtype == bool and core.seed.tolist() == [11, 12]


def test_tape_holds_the_doubles_the_reference_would_draw_next():
    state = game_states(GameConfig(num_players=4, variant="pro"), 7)[40]
    before = state.rng.bit_generator.state
    core = from_reference([state])
    assert state.rng.bit_generator.state == before, "the reference generator must be untouched"
    assert np.array_equal(core.tape[0], state.copy().rng.random(TAPE_LENGTH))
    assert core.tape_pos[0] == 0


def test_cached_legal_mask_is_the_reference_legal_actions():
    states = game_states(GameConfig(num_players=3, variant="pro"), 11)
    core = from_reference(states[::5] + states[-1:])
    for i, state in enumerate(states[::5]):
        assert np.flatnonzero(core.legal[i]).tolist() == legal_actions(state)
    assert not core.legal[-1].any(), "a finished game has no legal action"


def test_final_scoring_is_carried_both_ways():
    state = game_states(GameConfig(num_players=2, variant="basic"), 9)[-1]
    core = from_reference([state])
    assert state.final is not None
    assert core.final[0].sum(axis=1).tolist() == [d["total"] for d in state.final]
    assert to_reference(core, 0).final == state.final


def test_mixed_configurations_are_rejected():
    a = engine.new_game(GameConfig(num_players=2), 0)
    b = engine.new_game(GameConfig(num_players=3), 0)
    with pytest.raises(ValueError, match="one configuration"):
        from_reference([a, b])
