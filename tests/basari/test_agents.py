"""BASARI baseline agents: observation decoding, legality, batched = single, seeding, the
rules each heuristic follows, the arena's negotiation figures."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from agents.basari import AGENTS
from agents.basari.arena import NegotiationStats, play_batch
from agents.basari.baselines import BasariAgent
from agents.basari.valuation import BUNDLES, bundle_key, gems_taken
from agents.basari.view import View
from agents.registry import make_agent
from asara_env import basari_v0
from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import Card
from asara_env.basari.core import init, observe, step
from asara_env.basari.core.tables import bundle_key as core_bundle_key
from asara_env.basari.phases import Phase

NAMES = sorted(AGENTS)


def positions(
    players: int, games: int = 3, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, list[Any]]:
    """(obs [N, OBS], masks [N, A], states) of every deciding seat of random games (the
    uniform agent plays every seat), with each row's (state copy index, game, seat)."""
    config = BasariConfig(num_players=players)
    state = init(config, games, seeds=seed)
    agent = make_agent("basari", "random", seed)
    obs_rows, mask_rows, where = [], [], []
    snapshots = []
    while (state.phase != Phase.OVER).any():
        legal = state.legal
        deciding = legal[:, :, 1:].any(axis=2)
        g, s = np.nonzero(deciding)
        obs = observe(state)
        obs_rows.append(obs[g, s])
        mask_rows.append(legal[g, s])
        snapshots.append({k: getattr(state, k).copy() for k in ("gems", "score", "position")})
        where += [(len(snapshots) - 1, int(a), int(b)) for a, b in zip(g, s)]
        actions = np.zeros(legal.shape[:2], np.int64)
        actions[g, s] = agent.act_batch(obs[g, s], legal[g, s])
        step(state, actions)
    return np.concatenate(obs_rows), np.concatenate(mask_rows), [snapshots, where]


@pytest.fixture(scope="module", params=[2, 3, 4])
def data(request: pytest.FixtureRequest) -> tuple[Any, ...]:
    return (request.param, *positions(request.param))


def test_view_decodes_the_core_state(data: tuple[Any, ...]) -> None:
    players, obs, _, (snapshots, where) = data
    view = View.of(obs)
    for row in range(0, len(obs), 7):
        snap, g, s = where[row]
        seats = (s + np.arange(players)) % players  # ego seat -> absolute seat
        assert (view.gems[row, :players] == snapshots[snap]["gems"][g, seats]).all()
        assert (view.score[row, :players] == snapshots[snap]["score"][g, seats]).all()
        assert (view.position[row, :players] == snapshots[snap]["position"][g, seats]).all()
        assert view.present[row].sum() == players


@pytest.mark.parametrize("name", NAMES)
def test_every_agent_acts_legally_and_batched_equals_single(
    data: tuple[Any, ...], name: str
) -> None:
    _, obs, masks, _ = data
    batched = make_agent("basari", name, 5).act_batch(obs, masks)
    rows = np.arange(0, len(obs), max(1, len(obs) // 120))  # about 120 single calls
    single_agent = make_agent("basari", name, 5)
    single = [single_agent.act(obs[i], masks[i]) for i in rows]
    assert (
        np.array(single) == make_agent("basari", name, 5).act_batch(obs[rows], masks[rows])
    ).all()
    assert masks[np.arange(len(obs)), batched].all()


@pytest.mark.parametrize("name", ["points_first", "value"])
def test_heuristics_decide_legally_without_the_safety_net(data: tuple[Any, ...], name: str) -> None:
    _, obs, masks, _ = data
    agent = make_agent("basari", name, 1)
    assert isinstance(agent, BasariAgent)
    out = agent.decide(View.of(obs), masks.astype(bool), np.random.default_rng(0).random(len(obs)))
    assert masks[np.arange(len(obs)), out].all()


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_actions_other_seed_other_actions(data: tuple[Any, ...], name: str) -> None:
    _, obs, masks, _ = data
    a = make_agent("basari", name, 3).act_batch(obs, masks)
    b = make_agent("basari", name, 3).act_batch(obs, masks)
    assert (a == b).all()
    if name != "points_first":  # points_first is random only at SETUP
        c = make_agent("basari", name, 4).act_batch(obs, masks)
        assert (a != c).any()


def test_unknown_agent_and_empty_mask_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown agent 'nobody' \\(game basari\\)"):
        make_agent("basari", "nobody")
    obs, masks, _ = positions(2, games=1)
    masks = masks[:2].copy()
    masks[1] = False
    with pytest.raises(ValueError, match="action mask of row 1 is empty"):
        make_agent("basari", "random", 0).act_batch(obs[:2], masks)


def test_bundle_table_follows_the_B8_order() -> None:
    keys = bundle_key(BUNDLES)
    assert (np.diff(keys) > 0).all()
    assert (keys == core_bundle_key(BUNDLES)).all()


def test_points_first_cards_and_barters(data: tuple[Any, ...]) -> None:
    _, obs, masks, _ = data
    view = View.of(obs)
    lay = BasariConfig(num_players=2).actions
    out = make_agent("basari", "points_first", 0).act_batch(obs, masks)
    select = view.phase == Phase.SELECT
    rich = gems_taken(view)[:, 0].sum(axis=1) >= 3
    expected = np.where(rich, lay.card(int(Card.GEMS)), lay.card(int(Card.POINTS)))
    assert (out[select] == expected[select]).all()
    acting = (view.phase == Phase.BARTER) & view.to_act[:, 0] & ~view.pending.any(1)
    facing_two = acting & view.offer_exists & (view.offer.sum(1) >= 2)
    assert (out[facing_two] == lay.accept).all()
    opening = acting & ~view.offer_exists
    # one gem of its lowest colour held: ADD(that colour)
    lowest = 3 - np.argmax(view.gems[:, 0, ::-1] > 0, axis=1)
    has = view.gems[:, 0].sum(1) > 0
    assert (out[opening & has] == lay.add(0) + lowest[opening & has]).all()
    assert (out[opening & ~has] == lay.forfeit).all()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_arena_negotiation_figures_add_up(players: int) -> None:
    config = BasariConfig(num_players=players)
    names = ["random", "points_first", "value"]
    agents = [make_agent("basari", n, k) for k, n in enumerate(names)]
    games = 12
    seating = np.array([np.arange(g, g + players) % 3 for g in range(games)])
    stats = NegotiationStats(3)
    ranking = play_batch(config, agents, seating, np.arange(games), 6, stats=stats)
    c = stats.counts
    assert c["won"].sum() * 2 == c["barters"].sum() > 0  # one winner per barter, two parties
    assert c["gems_paid"].sum() == c["gems_received"].sum()
    assert c["opened"].sum() * 2 == c["barters"].sum()
    assert (c["cancelled"] <= c["contested"]).all() and (c["contested"] <= c["picks"]).all()
    if players == 2:
        assert c["cancelled"].sum() == 0  # B5.5: no cancel with two players
    assert c["games"].sum() == seating.size
    assert c["points"].sum() == (ranking // 101**5).sum()
    assert (c["offers_made"].sum() * 2) == c["barter_offers"].sum()


def test_arena_is_deterministic_and_refuses_bad_seating() -> None:
    config = BasariConfig(num_players=3)
    seating = np.array([[0, 1, 2], [2, 0, 1]])

    def run() -> np.ndarray:
        agents = [make_agent("basari", n, 7) for n in ("random", "points_first", "value")]
        return play_batch(config, agents, seating, np.array([3, 4]), 2)

    assert (run() == run()).all()
    with pytest.raises(ValueError, match="seating must be int"):
        play_batch(config, [make_agent("basari", "random")], seating[:, :2], np.array([3, 4]))
    with pytest.raises(ValueError, match="outside"):
        play_batch(config, [make_agent("basari", "random")], seating, np.array([3, 4]))


def test_value_barters_take_a_handful_of_offers() -> None:
    """E6: raises by whole gems, not rank by rank: value-vs-value barters stay short."""
    config = BasariConfig(num_players=2)
    stats = NegotiationStats(1)
    play_batch(
        config,
        [make_agent("basari", "value", 0)],
        np.zeros((16, 2), np.int64),
        np.arange(16),
        16,
        stats=stats,
    )
    row = stats.rows(["value"])[0]
    assert row["barters"] > 20
    assert row["offers_per_barter"] < 8 and row["steps_per_barter"] < 40


def test_the_shipped_model_is_an_agent_by_name() -> None:
    pytest.importorskip("sb3_contrib")
    from agents.models import model_path
    from agents.policy_agent import PolicyAgent
    from agents.registry import agent_names

    assert "ppo_4p" in agent_names("basari")
    assert model_path("basari", "ppo_4p").name == "basari_4p.zip"
    agent = make_agent("basari", "ppo_4p", seed=3)
    assert isinstance(agent, PolicyAgent)
    env = basari_v0.parallel_env(num_players=4)
    obs, _ = env.reset(seed=1)
    for _ in range(30):
        actions = {}
        for a in env.agents:
            mask = obs[a]["action_mask"]
            actions[a] = agent.act(obs[a]["observation"], mask)
            assert mask[actions[a]] == 1
        obs, *_ = env.step(actions)
        if not env.agents:
            break
    with pytest.raises(ValueError, match=r"unknown agent 'ppo_9p' \(game basari\).*ppo_4p"):
        make_agent("basari", "ppo_9p")
