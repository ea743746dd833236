"""The PettingZoo environments: PettingZoo's own API, seed and render tests for 2, 3 and 4
players, fixed-shape infos, rewards, illegal actions (raised or penalised, in the parallel
and the AEC form), dead agents, seeds, saving and the global state."""

from __future__ import annotations

import copy
import warnings
from typing import Any, cast

import numpy as np
import pytest
from gymnasium import spaces
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test, seed_test

from asara_env import basari_v0
from asara_env.basari.core import ranking_score
from asara_env.basari.phases import Phase
from asara_env.common.errors import CorruptStateError, IllegalActionError
from asara_env.common.seeding import derived_seed
from tests.basari.helpers import e5_rewards

PLAYERS = [2, 3, 4]
INFO_KEYS = {
    "action_mask",
    "acting",
    "phase",
    "round",
    "turn",
    "final_scores",
    "ranking_score",
    "winners",
    "illegal",
}


def random_actions(env, observations: dict[str, Any], rng: np.random.Generator) -> dict[str, Any]:
    return {a: int(rng.choice(np.flatnonzero(observations[a]["action_mask"]))) for a in env.agents}


def play(env, seed: int, rng_seed: int = 0, steps: int | None = None):
    """Random legal play from reset(seed); returns the last step's results and the actions."""
    obs, infos = env.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    history: list[dict[str, Any]] = []
    out: tuple[dict[str, Any], ...] = (obs, {}, {}, {}, infos)
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


@pytest.mark.parametrize("illegal_action", ["penalize", "raise"])
@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_api_tests_under_both_illegal_action_policies(players, illegal_action):
    kw = {"num_players": players, "illegal_action": illegal_action}
    parallel_api_test(basari_v0.parallel_env(**kw), num_cycles=300)
    with warnings.catch_warnings():  # dict observations: PettingZoo warns as for chess
        warnings.simplefilter("ignore", UserWarning)
        api_test(basari_v0.env(**kw), num_cycles=300)


@pytest.mark.parametrize("players", PLAYERS)
def test_pettingzoo_seed_tests(players):
    seed_test(lambda: basari_v0.env(num_players=players), num_cycles=200)
    parallel_seed_test(lambda: _masked_sampling_env(players), num_cycles=200)


@pytest.mark.parametrize("players", PLAYERS)
def test_parallel_seed_test_samples_unmasked_actions_and_the_penalty_ends_those_games(players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # each illegal sample is warned about
        parallel_seed_test(lambda: basari_v0.parallel_env(num_players=players), num_cycles=200)


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
            np.testing.assert_array_equal(info["action_mask"], obs[agent]["action_mask"])
            assert all(np.asarray(v).dtype.kind in "biuf" for v in info.values()), info
        if not env.agents:
            break
        obs, _, _, _, infos = env.step(random_actions(env, obs, rng))
    final = infos["player_0"]
    assert final["phase"] == Phase.OVER and final["final_scores"].any()
    assert final["winners"].sum() >= 1


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
    core = env.core
    assert np.array_equal(key, ranking_score(core.score, core.gems)[0])


def test_an_illegal_action_raises_naming_agent_and_action_and_changes_nothing():
    env = basari_v0.parallel_env(num_players=3, illegal_action="raise")
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
            a.reset(seed=cast(Any, bad))


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
        core = env.core
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
    assert text is not None
    assert "cards: player_0 Points, player_1 Points, player_2 Die" in text
    assert "barter for Points" in text and "archway" in text and "player_2" in text
    opener = env.core.opener[0]
    agent = f"player_{opener}"
    noop = dict.fromkeys(env.agents, 0)
    env.step({**noop, agent: lay.add(3)})
    env.step({**noop, agent: lay.submit})
    text = env.render()
    assert text is not None
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
    assert twin.core.score is not env.core.score


# ------------------------------------------------------------------------------ penalize
def test_by_default_an_illegal_action_ends_the_game_penalising_each_offender():
    env = basari_v0.parallel_env(num_players=3)
    obs, _ = env.reset(seed=5)
    saved = env.save_game()
    actions = {"player_0": 3, "player_1": 0, "player_2": 999}  # NOOP in SETUP; out of range
    with pytest.warns(UserWarning) as caught:
        obs, rewards, terms, truncs, infos = env.step(actions)
    words = [str(w.message) for w in caught]
    assert len(words) == 2 and "illegal action 0" in words[0] and "player_1" in words[0]
    assert "illegal action 999" in words[1] and "player_2" in words[1]
    assert rewards == {"player_0": 0.0, "player_1": -1.0, "player_2": -1.0}
    assert all(terms.values()) and not any(truncs.values()) and env.agents == []
    assert {a: i["illegal"] for a, i in infos.items()} == {
        "player_0": 0,
        "player_1": 1,
        "player_2": 1,
    }
    assert not any(o["action_mask"].any() or infos[a]["acting"] for a, o in obs.items())
    assert env.save_game() == saved  # the position is the one before the illegal step
    with pytest.raises(ValueError, match="game is over"):
        env.step(actions)
    env.reset(seed=5)
    with pytest.raises(ValueError, match="player_0"):  # not an int: raised, never penalised
        env.step({**actions, "player_0": 2.0})
    assert env.save_game() == saved and env.agents


def _aec(players: int = 3, **kw):
    env = basari_v0.env(num_players=players, **kw)
    env.reset(seed=5)
    return env


def _aec_snapshot(env) -> tuple[Any, ...]:
    return (
        env.unwrapped.save_game(),
        env.agent_selection,
        tuple(env.agents),
        {a: env.observe(a)["observation"].tobytes() for a in env.possible_agents},
        dict(env._cumulative_rewards) if hasattr(env, "_cumulative_rewards") else None,
    )


def test_aec_an_illegal_action_of_the_first_agent_is_penalised_at_its_own_step():
    env = _aec()
    assert env.agent_selection == "player_0"
    with pytest.warns(UserWarning, match="illegal action 0 .* by player_0"):
        env.step(0)  # NOOP in SETUP, where every agent must choose
    assert all(env.terminations.values()) and env.agent_selection == "player_0"
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0}
    assert env.infos["player_0"]["illegal"] == 1 and env.infos["player_1"]["illegal"] == 0
    seen = {}
    for agent in env.agent_iter():  # dead steps, offender first
        obs, reward, term, trunc, _ = env.last()
        seen[agent] = reward
        assert term and not obs["action_mask"].any()
        env.step(None)
    assert seen == {"player_0": -1.0, "player_1": 0.0, "player_2": 0.0} and env.agents == []


def test_aec_raise_refuses_at_the_offenders_step_and_the_game_plays_on():
    env = _aec(illegal_action="raise")
    lay = env.unwrapped.config.actions
    env.step(lay.start(1))  # player_0 chooses
    before = _aec_snapshot(env)
    for bad in (0, 999, -1, 2**64 - 1, np.uint64(2**64 - 1), 1.0, "3", None):
        with pytest.raises(ValueError, match="player_1"):
            env.step(bad)
        assert _aec_snapshot(env) == before
    env.step(lay.start(2))
    env.step(lay.start(3))  # the last agent: the step is played
    assert env.unwrapped.core.phase[0] != 0 and env.agent_selection == "player_0"
    assert not any(env.terminations.values())


def test_aec_dead_agents_step_none_and_any_other_action_is_refused_changing_nothing():
    env = _aec(players=2)
    rng = np.random.default_rng(0)
    while not any(env.terminations.values()):
        obs = env.observe(env.agent_selection)
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    final = dict(env._cumulative_rewards)
    before = _aec_snapshot(env)
    with pytest.raises(ValueError, match="None"):
        env.step(0)
    assert _aec_snapshot(env) == before
    for agent in env.agent_iter():
        _, reward, term, _, _ = env.last()
        assert term and reward == final[agent]
        env.step(None)
    assert env.agents == []


def test_aec_rewards_reach_every_agent_through_last():
    env = basari_v0.env(num_players=3, reward="rank")
    env.reset(seed=8)
    rng = np.random.default_rng(1)
    seen: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        seen[agent] = seen.get(agent, 0.0) + reward
        env.step(None if term else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    key = info["ranking_score"]
    assert [seen[f"player_{i}"] for i in range(3)] == pytest.approx(
        e5_rewards(np.zeros(3), np.asarray(key), "rank")
    )


def test_aec_save_load_and_deepcopy_continue_identically():
    env = _aec(players=4)
    rng = np.random.default_rng(2)
    for _ in range(37):  # mid-step: some agents have acted
        env.step(int(rng.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
    twin = copy.deepcopy(env)
    loaded = basari_v0.env(num_players=4)
    loaded.load_game(env.unwrapped.save_game())  # the position at the step's start
    assert loaded.agent_selection == "player_0"
    for agent in env.possible_agents:
        assert np.array_equal(
            loaded.observe(agent)["observation"], env.observe(agent)["observation"]
        )
    while env.agents:
        agent = env.agent_selection
        obs, *_, term, _, _ = env.last()
        action = None if term else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        assert twin.agent_selection == agent
        env.step(action)
        twin.step(action)
        assert twin.rewards == env.rewards
    assert twin.agents == [] and twin.unwrapped.save_game() == env.unwrapped.save_game()


def _arrays(results: tuple[dict[str, Any], ...]) -> list[np.ndarray]:
    """Every array of a step's observations and infos."""
    observations, infos = results[0], results[-1]
    found = [v for obs in observations.values() for v in obs.values()]
    found += [v for info in infos.values() for v in info.values()]
    return [v for v in found if isinstance(v, np.ndarray)]


def test_returned_arrays_share_no_memory_and_stay_as_they_were():
    """Each observation and info array is the user's own: no two share memory, writing one
    changes no other, and later steps (to the end of the game and a reset) leave kept
    ones as they were."""
    env = basari_v0.parallel_env(num_players=4)
    obs, infos = env.reset(seed=3)
    rng = np.random.default_rng(3)
    kept: list[tuple[np.ndarray, bytes]] = []
    while env.agents:
        arrays = _arrays((obs, infos))
        for i, a in enumerate(arrays):
            assert not any(np.shares_memory(a, b) for b in arrays[i + 1 :])
        kept += [(a, a.tobytes()) for a in arrays[:: len(arrays) // 3]]
        obs, _, _, _, infos = env.step(random_actions(env, obs, rng))
    arrays = _arrays((obs, infos))
    before = [a.tobytes() for a in arrays]
    for a in arrays[::2]:
        a[...] = 1
    assert [a.tobytes() for a in arrays[1::2]] == before[1::2]
    env.reset(seed=4)
    assert all(a.tobytes() == saved for a, saved in kept)
