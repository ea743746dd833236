"""R10 through the AEC env, the OpenSpiel way: positions a seat cannot tell apart give it
the same observation and mask; positions it can tell apart (its own hand, lighted
windows, face-down cards) give it different observations."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from asara_env import asara_v0
from asara_env.asara.reference.serialize import state_to_dict
from asara_env.asara.reference.state import State
from tests.asara.hidden import OWN_SECRET_CHANGES, r10_states, resample_hidden

STATES = r10_states()


def seen_by(state: State, viewer: int) -> dict[str, Any]:
    """What `player_{viewer}` gets from the env loaded with `state`."""
    cfg = state.config
    env = asara_v0.env(num_players=cfg.num_players, variant=cfg.variant, expansions=cfg.expansions)
    env.reset(options={"state": state_to_dict(state)})
    return env.observe(f"player_{viewer}")


def test_resampling_what_a_seat_cannot_know_leaves_its_observation_and_mask_unchanged():
    rng = np.random.default_rng(5)
    changed = 0
    for state in STATES[::2]:
        for viewer in range(state.num_players):
            twin = resample_hidden(state, viewer, rng)
            twin.rng = np.random.default_rng(int(rng.integers(2**32)))  # future chance
            changed += not np.array_equal(twin.hands, state.hands)
            want, got = seen_by(state, viewer), seen_by(twin, viewer)
            assert np.array_equal(got["observation"], want["observation"])
            assert np.array_equal(got["action_mask"], want["action_mask"])
    assert changed > 50, "the resampling should usually change the other hands"


@pytest.mark.parametrize("change", OWN_SECRET_CHANGES)
def test_what_the_seat_knows_shows_in_its_observation(change):
    tried = 0
    for state in STATES[::3]:
        for viewer in range(state.num_players):
            twin = state.copy()
            if change(twin, viewer):
                tried += 1
                a, b = seen_by(state, viewer), seen_by(twin, viewer)
                assert not np.array_equal(a["observation"], b["observation"])
    assert tried > 10
