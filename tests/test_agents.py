"""The baseline agents: only legal actions on many random positions of every configuration,
deterministic given their seed, batched and single forms agree, clear errors."""

from __future__ import annotations

import numpy as np
import pytest
from games import CONFIGS, IDS, game_states

from agents import AGENTS, Agent, make_agent, pick_best
from agents.features import Seen, unpack
from asara_env import NUM_ACTIONS, decode
from asara_env.actions import TARGETS, Group
from asara_env.constants import Area
from asara_env.core.observation import OBS_DIM, encode_view
from asara_env.reference.rules import legal_actions
from asara_env.reference.view import seat_view

NAMES = sorted(AGENTS)


def positions(config, seeds=(41, 42)) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of the seat to move along random games (unfinished states)."""
    obs, masks = [], []
    for seed in seeds:
        for state in game_states(config, seed)[:-1]:
            obs.append(encode_view(seat_view(state, state.seat)))
            mask = np.zeros(NUM_ACTIONS, np.int8)
            mask[legal_actions(state)] = 1
            masks.append(mask)
    return np.array(obs), np.array(masks)


POSITIONS = {c: positions(c) for c in CONFIGS}


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_agents_choose_only_legal_actions_and_batched_equals_single(name, config):
    obs, masks = POSITIONS[config]
    batched = make_agent(name, seed=5).act_batch(obs, masks)
    single = make_agent(name, seed=5)
    one_by_one = [single.act(o, m) for o, m in zip(obs, masks)]
    assert masks[np.arange(len(masks)), batched].all()
    assert batched.tolist() == one_by_one


@pytest.mark.parametrize("name", NAMES)
def test_agents_are_deterministic_given_their_seed_and_seeds_matter(name):
    obs, masks = POSITIONS[CONFIGS[-1]]
    runs = [make_agent(name, seed).act_batch(obs, masks).tolist() for seed in (1, 1, 2)]
    assert runs[0] == runs[1]
    if name == "random":
        assert runs[0] != runs[2]


@pytest.mark.parametrize("name", NAMES)
def test_an_empty_mask_is_an_error_naming_the_row(name):
    masks = np.ones((2, NUM_ACTIONS), np.int8)
    masks[1] = 0
    with pytest.raises(ValueError, match="row 1"):
        make_agent(name, 0).act_batch(np.zeros((2, OBS_DIM), np.float32), masks)


def test_unknown_agent_names_are_refused():
    with pytest.raises(ValueError, match="unknown agent 'alphago'.*greedy"):
        make_agent("alphago")


def test_pick_best_breaks_ties_uniformly_by_the_given_double():
    scores = np.array([[1.0, 3.0, 3.0, -np.inf, 3.0]] * 3)
    assert pick_best(scores, np.array([0.0, 0.5, 0.99])).tolist() == [1, 2, 4]


def _choices(name: str, keep) -> list[tuple]:
    """Decoded choices of the agent on all positions where keep(unpacked obs) holds."""
    obs = np.concatenate([POSITIONS[c][0] for c in CONFIGS])
    masks = np.concatenate([POSITIONS[c][1] for c in CONFIGS])
    rows = keep(unpack(obs))
    assert rows.sum() > 50
    return [decode(int(a)) for a in make_agent(name, 0).act_batch(obs[rows], masks[rows])]


def test_the_tall_plan_buys_dearer_colours_than_the_towers_plan():
    def dear(name):
        picks = _choices(name, lambda o: o["market"].any(axis=1))
        return np.mean([fields[1] >= 3 for _, fields in picks])  # black or white

    assert dear("tall") > dear("towers")


def test_the_towers_plan_goes_for_bases_and_turrets_more_than_the_tall_plan():
    def ends(name):
        picks = _choices(name, lambda o: o["phase"][:, 0] > 0)  # placements
        markets = [TARGETS[f[0]].area for g, f in picks if g == Group.PLACE and f[0] < 4]
        return np.mean([area in (Area.MARKET_BASE, Area.MARKET_TURRET) for area in markets])

    assert ends("towers") > ends("tall")


def test_seen_reads_the_viewers_own_facts():
    obs, _ = POSITIONS[CONFIGS[0]]
    seen = Seen(obs)
    o = unpack(obs)
    assert np.array_equal(seen.money, o["money"][:, 0])
    assert np.array_equal(seen.year, o["year"].argmax(axis=1) + 1)
    assert (seen.plot_cost() >= np.arange(1, 8)).all()


def test_every_registered_agent_is_an_agent_with_its_name():
    for name, cls in AGENTS.items():
        assert issubclass(cls, Agent) and cls.name == name
