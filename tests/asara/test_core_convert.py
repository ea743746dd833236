"""core.convert: reference states to a CoreState and back, chance included."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from asara_env import GameConfig
from asara_env.asara.bridge.convert import _DTYPES, from_reference, generator_at, to_reference
from asara_env.asara.core import init, step
from asara_env.asara.core.state import ARRAY_FIELDS, TAPE_LENGTH, CoreState
from asara_env.asara.phases import Phase
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.serialize import state_to_dict
from asara_env.asara.reference.state import State
from tests.asara.games import ALL_CONFIGS, ALL_IDS, CONFIGS, IDS, game_states

GAMES = 2  # games played at once by the round-trip test


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


def round_trip(core: CoreState, i: int) -> CoreState:
    """Game `i` of `core` through a reference State and back, its chance carried along."""
    origin = np.random.default_rng(int(core.seed[i])).bit_generator.state
    state = to_reference(core, i, generator_at(origin, int(core.tape_pos[i])))
    return from_reference([state], seeds=core.seed[i : i + 1])


def assert_round_trip_identical(core: CoreState, i: int, where: str) -> None:
    """Every array of game `i` survives core -> reference -> core; the tape comes back
    re-based at the next double to draw (its position 0), as a reference generator is."""
    back, used = round_trip(core, i), int(core.tape_pos[i])
    for name in ARRAY_FIELDS:
        x, y = getattr(core, name)[i], getattr(back, name)[0]
        if name == "tape":
            x, y = x[used:], y[: TAPE_LENGTH - used]
        elif name == "tape_pos":
            x, y = x - used, y
        assert x.dtype == y.dtype and x.tobytes() == y.tobytes(), f"{where}: field {name}"


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_core_to_reference_and_back_is_identical_at_every_step(config):
    """The core's caches (build sizes, masks) are what a fresh conversion computes at every
    step of random games, a build half made and a turn's purchases included."""
    core, rng = init(config, GAMES, seeds=np.arange(GAMES) + 5), np.random.default_rng(5)
    steps = 0
    while (core.phase != Phase.GAME_OVER).any():
        step(core, np.argmax(np.where(core.legal, rng.random(core.legal.shape), -1.0), axis=1))
        steps += 1
        for i in np.flatnonzero(core.phase != Phase.GAME_OVER):
            phase = Phase(int(core.phase[i])).name
            assert_round_trip_identical(core, int(i), f"step {steps}, game {i} in {phase}")
