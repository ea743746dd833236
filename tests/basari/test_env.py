"""The PettingZoo environments: PettingZoo's own API, seed and render tests for 2, 3 and 4
players, fixed-shape infos, rewards, illegal actions, seeds, saving and the global state."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test, seed_test

from asara_env import basari_v0
from asara_env.basari.core import ranking_score
from asara_env.common.errors import CorruptStateError, IllegalActionError
from asara_env.common.seeding import derived_seed

PLAYERS = [2, 3, 4]
INFO_KEYS = {"acting", "phase", "round", "turn", "final_scores", "ranking_score", "winners"}


def random_actions(env, observations: dict, rng: np.random.Generator) -> dict:
    return {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in env.agents}


def play(env, seed: int, rng_seed: int = 0, steps: int | None = None):
    """Random legal play from reset(seed); returns the last step's results and the actions."""
    obs, infos = env.reset(seed=seed)
    rng, history, out = np.random.default_rng(rng_seed), [], (obs, {}, {}, {}, infos)
    while env.agents and (steps is None or len(history) < steps):
        actions = random_actions(env, out[0], rng)
        history.append(actions)
        out = env.step(actions)
    return out, history


class _MaskedDiscrete(spaces.Discrete):
    """A Discrete space whose `sample()` draws among the env's legal ids (for
    parallel_seed_test, which samples without masks)."""

    def __init__(self, env, agent: str) -> None:
        super().__init__(env.action_spaces[agent].n)
        self._env, self._agent = env, agent

    def sample(self, mask=None, probability=None):
        seat = self._env.possible_agents.index(self._agent)
        return super().sample(mask=self._env._core.legal[0, seat].astype(np.int8))


def _masked_sampling_env(num_players: int):
    env = basari_v0.parallel_env(num_players=num_players)
    env.action_spaces = {a: _MaskedDiscrete(env, a) for a in env.possible_agents}
    return env


@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_parallel_api(players):
    parallel_api_test(basari_v0.parallel_env(num_players=players), num_cycles=1000)


@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_aec_api(players):
    api_test(basari_v0.env(num_players=players, start_mode="random"), num_cycles=1000)


@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_seed_tests(players):
    seed_test(lambda: basari_v0.env(num_players=players), num_cycles=200)
    parallel_seed_test(lambda: _masked_sampling_env(players), num_cycles=200)


@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_render(players):
    render_test(
        lambda render_mode=None: basari_v0.env(num_players=players, render_mode=render_mode)
    )


@pytest.mark.parametrize("players", PLAYERS)
def test_infos_have_the_same_keys_and_shapes_at_every_step(players):
    env = basari_v0.parallel_env(num_players=players)
    obs, infos = env.reset(seed=players)
    rng, shapes = np.random.default_rng(1), None
    while True:
        for agent, info in infos.items():
            assert set(info) == INFO_KEYS, agent
            now = {k: np.shape(v) for k, v in info.items()}
            shapes = shapes or now
            assert now == shapes
            assert info["acting"] == bool(obs[agent]["action_mask"][1:].any())
        if not env.agents:
            break
        obs, _, _, _, infos = env.step(random_actions(env, obs, rng))
    final = infos["player_0"]
    assert final["phase"] == "OVER" and final["final_scores"].any()
    assert final["winners"].sum() >= 1


def e5_rewards(scores: np.ndarray, key: np.ndarray, reward: str) -> list[float]:
    """E5's rewards written out seat by seat."""
    n = len(scores)
    if reward == "win":
        best = key == key.max()
        return [1 / best.sum() if best[i] else 0.0 for i in range(n)]
    if reward == "rank":
        return [((key < key[i]).sum() - (key > key[i]).sum()) / (n - 1) for i in range(n)]
    return [(scores[i] - (scores.sum() - scores[i]) / (n - 1)) / 50 for i in range(n)]


@pytest.mark.parametrize("reward", ["win", "rank", "margin"])
def test_rewards_are_zero_until_the_end_then_the_outcome_scheme(reward):
    env = basari_v0.parallel_env(num_players=3, reward=reward)
    obs, _ = env.reset(seed=11)
    rng = np.random.default_rng(2)
    while env.agents:
        obs, rewards, terms, _, infos = env.step(random_actions(env, obs, rng))
        if not any(terms.values()):
            assert not any(rewards.values())
    scores, key = infos["player_0"]["final_scores"], infos["player_0"]["ranking_score"]
    expected = e5_rewards(np.asarray(scores, float), np.asarray(key), reward)
    assert np.allclose([rewards[f"player_{i}"] for i in range(3)], expected)
    core = env._core
    assert np.array_equal(key, ranking_score(core.score, core.gems)[0])


def test_an_illegal_action_raises_naming_agent_and_action_and_changes_nothing():
    env = basari_v0.parallel_env(num_players=3)
    obs, _ = env.reset(seed=5)
    saved, before = env.save_game(), env.state().copy()
    actions = {a: 0 for a in env.agents}  # NOOP in SETUP, where every agent must choose
    actions["player_0"] = 1
    with pytest.raises(IllegalActionError, match=r"player_1.*noop|noop.*player_1"):
        env.step(actions)
    actions["player_1"] = actions["player_2"] = 3
    actions["player_2"] = 999
    with pytest.raises(ValueError, match="player_2") as err:
        env.step(actions)
    assert "999" in str(err.value)
    with pytest.raises(ValueError, match="player_2"):
        env.step({**actions, "player_2": 2.0})
    with pytest.raises(ValueError, match="no action for"):
        env.step({"player_0": 1})
    assert env.save_game() == saved and np.array_equal(env.state(), before)


def test_reset_seed_is_deterministic_and_seeds_differ():
    a = basari_v0.parallel_env(num_players=4, start_mode="random")
    b = basari_v0.parallel_env(num_players=4, start_mode="random")
    out_a, hist_a = play(a, seed=123)
    out_b, hist_b = play(b, seed=123)
    assert hist_a == hist_b and a.save_game() == b.save_game()
    play(b, seed=124)
    assert a.save_game() != b.save_game()
    a.reset()  # the next episode of seed 123
    assert a.game_seed == derived_seed(123, 1)
    for bad in (-1, 2**64, 1.5, "7", True):
        with pytest.raises(ValueError, match="seed"):
            a.reset(seed=bad)


def test_saving_and_restoring_a_game_continues_it_exactly():
    env = basari_v0.parallel_env(num_players=4)
    (obs, *_), _ = play(env, seed=77, steps=25)
    saved = env.save_game()
    rng = np.random.default_rng(3)
    later = []
    for _ in range(30):
        if not env.agents:
            break
        actions = random_actions(env, obs, rng)
        later.append(actions)
        obs, *_ = env.step(actions)
    other = basari_v0.parallel_env(num_players=4)
    obs2, _ = other.load_game(saved)
    for actions in later:
        obs2, *_ = other.step(actions)
    assert other.save_game() == env.save_game()
    for agent in obs:
        assert np.array_equal(obs[agent]["observation"], obs2[agent]["observation"])
    with pytest.raises(CorruptStateError):
        other.reset(options={"state": {**saved, "carpet": [99, 0, 0, 0]}})
    with pytest.raises(ValueError, match="config"):
        basari_v0.parallel_env(num_players=3).reset(options={"state": saved})


def test_global_state_is_in_its_space_and_holds_the_pending_bundle():
    env = basari_v0.parallel_env(num_players=4)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(4)
    seen_pending = False
    while env.agents:
        state = env.state()
        assert env.state_space.contains(state)
        core = env._core
        if core.pending[0].any():
            seen_pending = True
            assert np.allclose(state[-4:], core.pending[0] / 25)  # `pending` is last
        obs, *_ = env.step(random_actions(env, obs, rng))
    assert seen_pending


def test_render_shows_board_players_cards_and_each_offer():
    env = basari_v0.parallel_env(num_players=3, render_mode="ansi")
    obs, _ = env.reset(seed=21)
    lay = env.config.actions
    env.step({a: lay.start(i) for i, a in enumerate(env.agents)})
    obs, *_ = env.step({a: lay.card(1) for a in env.agents[:2]} | {"player_2": lay.card(0)})
    text = env.render()
    assert "cards: player_0 Points, player_1 Points, player_2 Die" in text
    assert "barter for Points" in text and "archway" in text and "player_2" in text
    opener = env._core.opener[0]
    agent = f"player_{opener}"
    noop = dict.fromkeys(env.agents, 0)
    env.step({**noop, agent: lay.add(3)})
    env.step({**noop, agent: lay.submit})
    text = env.render()
    assert f"{agent} offers 1 blue" in text and "standing offer" in text


def test_a_deep_copy_continues_identically_and_independently():
    env = basari_v0.parallel_env(num_players=3)
    (obs, *_), _ = play(env, seed=31, steps=12)
    twin = copy.deepcopy(env)
    rng = np.random.default_rng(6)
    while env.agents:
        actions = random_actions(env, obs, rng)
        obs, *_ = env.step(actions)
        twin_obs, *_ = twin.step(actions)
        assert all(np.array_equal(obs[a]["observation"], twin_obs[a]["observation"]) for a in obs)
    assert twin.save_game() == env.save_game() and not twin.agents
    assert twin._core.score is not env._core.score
