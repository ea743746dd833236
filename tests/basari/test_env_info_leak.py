"""Hidden information (B11, E3, E4): a chosen card is never visible to another agent
before the reveal, in either API; chance drawn in advance (the seed's unused draws) never
appears in an observation; the bundle being built is seen by its builder only."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from asara_env import basari_v0
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import global_state, init, legal_action_mask, obs_index, observe, step
from asara_env.basari.core.state import copy_state
from asara_env.basari.phases import Phase
from tests.basari.games import closing_weights, sample


def _observations(env) -> dict[str, Any]:
    return {a: env.observe(a)["observation"].copy() for a in env.possible_agents}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_aec_a_chosen_card_is_invisible_to_agents_acting_later(players):
    """In the AEC form, after some agents have chosen their cards, every agent's
    observation, mask, reward and info are what they were before any choice."""
    lay = BasariConfig(num_players=players).actions
    for card in range(3):
        env = basari_v0.env(num_players=players, start_mode="random")
        env.reset(seed=40 + players)
        assert env.unwrapped._core.phase[0] == Phase.SELECT
        before = _observations(env)
        infos = {a: {k: np.copy(v) for k, v in env.infos[a].items()} for a in env.agents}
        for _ in range(players - 1):  # everybody but the last agent chooses `card`
            env.step(lay.card(card))
            assert _observations(env).keys() == before.keys()
            for agent, obs in _observations(env).items():
                assert np.array_equal(obs, before[agent]), agent
                assert all(
                    np.array_equal(env.infos[agent][k], infos[agent][k]) for k in infos[agent]
                )
        env.step(lay.card((card + 1) % 3))  # the last choice: the joint step is taken
        after = _observations(env)
        assert any(not np.array_equal(after[a], before[a]) for a in after)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_resampling_unused_chance_leaves_every_observation_unchanged(players):
    """The seed holds every future die, coin and start draw: replacing it (all chance not
    yet used redrawn) changes no observation and no global state at any step."""
    config = BasariConfig(num_players=players)
    state = init(config, 64, seeds=players)
    rng = np.random.default_rng(players)
    weights = closing_weights(config, np.full(64, 3.0))
    other_seeds = rng.integers(0, 2**63, 64).astype(np.uint64)
    for _ in range(150):
        resampled = copy_state(state)
        resampled.seed[:] = other_seeds
        assert np.array_equal(observe(state), observe(resampled))
        assert np.array_equal(global_state(state), global_state(resampled))
        step(state, sample(legal_action_mask(state), weights, rng))


def test_the_bundle_being_built_is_seen_by_its_builder_only():
    config = BasariConfig(num_players=4)
    state = init(config, 128, seeds=1)
    rng = np.random.default_rng(5)
    weights = closing_weights(config, np.full(128, 1.0))
    pending = obs_index(config.n_archways)["pending"]
    seen = 0
    for _ in range(200):
        obs = observe(state)
        for g in np.flatnonzero(state.pending.any(axis=1)):
            builder = state.to_act[g]
            for seat in range(4):
                shown = obs[g, seat, pending]
                assert shown.any() == (seat == builder), (g, seat)
            seen += 1
        step(state, sample(legal_action_mask(state), weights, rng))
    assert seen > 50
