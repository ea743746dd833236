"""core.observation: the vectorised encoder agrees with the reference one (single and
batched), the observation holds exactly what a seat may know (R10), and the core imports
only numpy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from asara_env import GameConfig
from asara_env.asara.bridge import encode_view, from_reference
from asara_env.asara.core.observation import (
    OBS_DIM,
    OBS_INDEX,
    OBS_SLICES,
    observation_markdown,
    observe,
)
from asara_env.asara.reference.state import State
from asara_env.asara.reference.view import seat_view
from tests.asara.games import ALL_CONFIGS, ALL_IDS, game_states
from tests.asara.hidden import OWN_SECRET_CHANGES, r10_states, resample_hidden


def reference_obs(state: State, seat: int) -> np.ndarray:
    return encode_view(seat_view(state, seat))


def differing_slices(a: np.ndarray, b: np.ndarray) -> list[str]:
    return [name for name, sl in OBS_INDEX.items() if not np.array_equal(a[sl], b[sl])]


# ------------------------------------------------------------------------------ layout
def test_layout_tiles_the_vector():
    assert sum(s.size for s in OBS_SLICES) == OBS_DIM
    stops = [OBS_INDEX[s.name] for s in OBS_SLICES]
    assert stops[0].start == 0 and stops[-1].stop == OBS_DIM
    assert all(a.stop == b.start for a, b in zip(stops, stops[1:]))
    assert len({s.name for s in OBS_SLICES}) == len(OBS_SLICES)


def test_docs_are_generated_from_the_table():
    doc = Path(__file__).parents[2] / "docs" / "asara" / "observation.md"
    assert doc.read_text() == observation_markdown(), "run `python -m asara_env.docs`"


# ------------------------------------------------------------------------------ conformance
@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_observe_matches_encode_view_along_random_games(config):
    for seed in (1, 2, 3):
        for state in game_states(config, seed):
            core = from_reference([state])
            for seat in range(config.num_players):
                got, want = observe(core, seat)[0], reference_obs(state, seat)
                assert got.dtype == np.float32 and got.shape == (OBS_DIM,)
                assert np.array_equal(got, want), differing_slices(got, want)


@pytest.mark.slow
@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_observe_matches_encode_view_over_many_games(config):
    for seed in range(10, 40):
        for state in game_states(config, seed)[::3]:
            core = from_reference([state])
            for seat in range(config.num_players):
                assert np.array_equal(observe(core, seat)[0], reference_obs(state, seat))


@pytest.mark.parametrize("config", ALL_CONFIGS, ids=ALL_IDS)
def test_batched_observe_matches_row_by_row(config):
    states = [s for seed in (4, 5) for s in game_states(config, seed)[::6]][:50]
    core = from_reference(states)
    p = config.num_players
    seats = np.random.default_rng(0).integers(p, size=len(states))
    got = observe(core, seats)
    assert got.shape == (len(states), OBS_DIM) and got.dtype == np.float32
    for i, state in enumerate(states):
        assert np.array_equal(got[i], reference_obs(state, int(seats[i])))
    for seat in range(p):
        rows = observe(core, seat)
        assert all(np.array_equal(rows[i], reference_obs(s, seat)) for i, s in enumerate(states))


def test_viewer_sees_itself_first_and_padding_is_empty():
    state = game_states(GameConfig(num_players=3, variant="pro"), 1)[50]
    for seat in range(3):
        obs = observe(from_reference([state]), seat)[0]
        assert obs[OBS_INDEX["present"]].tolist() == [1, 1, 1, 0]
        assert obs[OBS_INDEX["money"]][0] == state.money[seat]
        assert obs[OBS_INDEX["money"]][1] == state.money[(seat + 1) % 3]
        assert obs[OBS_INDEX["supply"]].reshape(4, -1)[3].sum() == 0
        assert obs[OBS_INDEX["seat_to_move"]].argmax() == (state.seat - seat) % 3


def test_seats_outside_the_configuration_are_rejected():
    core = from_reference([game_states(GameConfig(num_players=2), 1)[0]])
    with pytest.raises(ValueError, match="seats must be in 0..1"):
        observe(core, 2)


# ------------------------------------------------------------------------------ R10
def test_resampling_what_a_seat_cannot_know_leaves_its_observation_unchanged():
    rng = np.random.default_rng(3)
    changed = 0
    for state in r10_states():
        for viewer in range(state.num_players):
            twin = resample_hidden(state, viewer, rng)
            changed += not (
                np.array_equal(twin.hands, state.hands)
                and twin.lighted_stack == state.lighted_stack
                and np.array_equal(twin.lighted_supply, state.lighted_supply)
            )
            want = reference_obs(state, viewer)
            got = reference_obs(twin, viewer)
            assert np.array_equal(got, want), differing_slices(got, want)
            assert np.array_equal(observe(from_reference([twin]), viewer)[0], want)
    assert changed > 100, "the resampling should usually change the hidden information"


@pytest.mark.parametrize("change", OWN_SECRET_CHANGES)
def test_changing_the_viewers_own_secrets_changes_its_observation(change):
    tried = 0
    for state in r10_states():
        for viewer in range(state.num_players):
            twin = state.copy()
            if change(twin, viewer):
                tried += 1
                assert not np.array_equal(reference_obs(twin, viewer), reference_obs(state, viewer))
    assert tried > 20


# ------------------------------------------------------------------------------ imports
