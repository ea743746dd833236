"""Search guided by a trained network (agents/network.py, `prior=` and `value=` of flatmc
and ismcts): the network's heads read right, the options checked, the guidance used, and
the guided agents as deterministic and as blind to hidden information as the others."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents.asara import FlatMCAgent, ISMCTSAgent
from agents.asara.arena import play_batch
from agents.models import make_model_agent
from agents.network import load_net
from agents.registry import make_agent
from asara_env.asara import core
from asara_env.asara.bridge import from_reference
from asara_env.asara.config import GameConfig
from asara_env.asara.hidden import resample_hidden
from tests.asara.test_ismcts import _edges, _ismcts, _root
from tests.asara.test_search import _late_choices

pytest.importorskip("sb3_contrib")

TWO = GameConfig(num_players=2)
GUIDED = "ismcts:12:prior=ppo_2p:value=net:wave=4"


def _positions(batch: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks of the seat to move at the start of `batch` games."""
    state = core.init(TWO, batch, seeds=seed)
    return core.observe(state), core.legal_action_mask(state)


def _tree(agent: ISMCTSAgent) -> list[tuple[Any, ...]]:
    return [(k, c.visits, c.avail, c.total.tolist()) for _, k, c in _edges(_root(agent))]


def test_priors_are_the_policys_masked_distribution():
    obs, masks = _positions(6, 3)
    net = load_net("asara", "ppo_2p")
    priors = net.priors(obs, masks)
    expected = make_model_agent("asara", "ppo_2p").probabilities(obs, masks)
    assert np.allclose(priors, np.where(masks, expected, 0.0), atol=1e-6)
    assert np.allclose(priors.sum(axis=1), 1.0) and (priors[~masks] == 0).all()


def test_values_are_the_value_head_and_repeated_rows_are_evaluated_once():
    import torch

    obs, _ = _positions(4, 5)
    net = load_net("asara", "ppo_2p")
    policy = net.model.policy
    with torch.no_grad():
        head = policy.predict_values(torch.as_tensor(obs[:, : net.known])).numpy()[:, 0]
    before = net.evaluations
    values = net.values(np.concatenate([obs, obs[::-1]]))
    assert np.allclose(values, np.concatenate([head, head[::-1]]), atol=1e-6)
    assert net.evaluations - before == len(obs)


def test_priors_refuse_a_position_without_a_legal_action():
    obs, masks = _positions(2, 1)
    masks[1] = False
    with pytest.raises(ValueError, match="legal action"):
        load_net("asara", "ppo_2p").priors(obs, masks)
    with pytest.raises(ValueError, match="one row each"):
        load_net("asara", "ppo_2p").priors(obs, masks[:1])


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("ismcts:8:value=net", "value=net takes the value of the prior's network"),
        ("ismcts:8:prior=wizard", "prior"),
        ("flatmc:8:value=oracle", "value"),
        ("flatmc:8:prior=ppo_2p", "flatmc has no option 'prior'"),
    ],
)
def test_bad_guidance_options_are_refused_naming_them(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent("asara", spec, 0)


def test_a_value_network_scores_the_leaves_at_horizon_zero_with_the_win_scheme():
    agent = make_agent("asara", "flatmc:8:value=ppo_2p", 0)
    assert isinstance(agent, FlatMCAgent)
    assert agent.horizon == 0 and agent.value == "win" and agent.value_net is not None
    state = core.init(TWO, 3, seeds=2)
    observers = np.array([0, 1, 1])
    rewards = agent.leaf_rewards(state, observers)
    mine = agent.value_net.values(core.observe(state, observers)).clip(0, 1)
    assert np.allclose(rewards[np.arange(3), observers], mine)
    assert np.allclose(rewards.sum(axis=1), 1.0)  # the win shares of the two seats


def test_the_prior_orders_the_expansions_of_the_root():
    """With a prior, the root's first children are its legal moves by decreasing prior."""
    state = _late_choices(TWO, 61, 1)[0]
    agent = make_agent("asara", "ismcts:3:prior=ppo_2p:value=net:wave=1", 0)
    assert isinstance(agent, ISMCTSAgent) and agent.prior_net is not None
    agent.act_state(state)
    world = from_reference([state])
    priors = agent.prior_net.priors(core.observe(world), core.legal_action_mask(world))[0]
    first = list(_root(agent).children)
    best = np.argsort(-priors, kind="stable")[: len(first)].tolist()
    assert first == best


def test_guided_search_is_deterministic_and_reads_only_what_the_seat_knows():
    rng = np.random.default_rng(4)
    for state in _late_choices(TWO, 71, 3):
        twin = resample_hidden(state, state.seat, rng)
        twin.rng = np.random.default_rng(int(rng.integers(2**32)))
        a, b, c = (_ismcts(GUIDED, 9) for _ in range(3))
        assert a.act_state(state) == b.act_state(twin) == c.act_state(state)
        assert _tree(a) == _tree(b) == _tree(c)


def test_guided_agents_play_whole_games_with_legal_actions_only():
    specs = [GUIDED, "flatmc:16:value=ppo_2p", "ismcts:8:prior=ppo_2p:playout=towers:horizon=2"]
    for spec in specs:
        agents = [make_agent("asara", spec, 1), make_agent("asara", "towers", 1)]
        prestige = play_batch(TWO, agents, [[0, 1], [1, 0]], [5, 6])  # refuses illegal moves
        assert prestige.shape == (2, 2) and (prestige >= 0).all()


def test_guided_search_decides_alike_on_both_backends():
    for state in _late_choices(TWO, 81, 2):
        agents = [_ismcts(f"{GUIDED}:backend={b}", 3) for b in ("numpy", "numba")]
        assert agents[0].act_state(state) == agents[1].act_state(state)
        assert _tree(agents[0]) == _tree(agents[1])
