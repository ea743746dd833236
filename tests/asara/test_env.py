"""The PettingZoo AEC env: PettingZoo's own API and seed tests, whole games driven through
the AEC API in lockstep with the reference engine (agents, masks, observations, infos,
rewards), illegal actions, seeding, saved games, configuration errors and rendering."""

from __future__ import annotations

import copy
import warnings
from typing import Any

import numpy as np
import pytest

import asara_env
import asara_env.asara.core.observation
from asara_env import GameConfig, IllegalActionError, asara_v0
from asara_env.asara.bridge import encode_view
from asara_env.asara.constants import FINAL_CATEGORIES
from asara_env.asara.core import derived_seed
from asara_env.asara.core.outcome import terminal_rewards
from asara_env.asara.phases import Phase
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.view import seat_view
from asara_env.common.errors import CorruptStateError
from tests.asara.games import ALL_CONFIGS, ALL_IDS

CONFIGS, IDS = ALL_CONFIGS, ALL_IDS  # every combination of expansions (R9) too
KW = [
    {"num_players": c.num_players, "variant": c.variant, "expansions": c.expansions}
    for c in CONFIGS
]


def make(**kw):
    return asara_v0.env(**kw)


def random_action(obs: dict[str, Any], rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def play(env, rng: np.random.Generator, limit: int = 10_000) -> dict[str, float]:
    """Play random legal actions to the end; return the rewards each agent saw in last()."""
    seen = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(limit):
        obs, reward, term, trunc, _ = env.last()
        seen[agent] += reward
        env.step(None if term or trunc else random_action(obs, rng))
    return seen


# ------------------------------------------------------------------------------ PettingZoo


def test_factories_and_versioned_module():
    assert asara_env.env is asara_v0.env and asara_env.raw_env is asara_v0.raw_env
    raw = asara_v0.raw_env(num_players=3)
    assert raw.possible_agents == ["player_0", "player_1", "player_2"]
    assert raw.metadata["name"] == "asara_v0"
    assert make(num_players=2).unwrapped.config == GameConfig(num_players=2)


# ------------------------------------------------------------------------------ lockstep
@pytest.mark.parametrize("reward", ["win", "rank", "margin"])
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_game_through_the_aec_api_matches_the_reference(config, reward):
    """Every decision: the agent to move, its mask (zeros for the others), its observation
    and the infos agree with the reference game of the same seed; no reward before the
    end; at the end the rewards seen through last(), the final prestige and the winners."""
    seed = 11 + config.num_players
    kw = {"num_players": config.num_players, "variant": config.variant}
    env = make(**kw, expansions=config.expansions, reward=reward)
    env.reset(seed=seed)
    ref, rng = engine.new_game(config, seed), np.random.default_rng(seed)
    seen = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, rew, term, trunc, info = env.last()
        seen[agent] += rew
        if term:
            env.step(None)
            continue
        assert agent == f"player_{ref.seat}" and not trunc
        assert (Phase(info["phase"]), info["year"]) == (ref.phase, ref.year)
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        assert (info["win"], info["final_prestige"], info["illegal"]) == (0.0, 0, 0)
        assert np.flatnonzero(obs["action_mask"]).tolist() == legal_actions(ref)
        assert np.array_equal(obs["observation"], encode_view(seat_view(ref, ref.seat)))
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        assert rew == 0.0
        action = random_action(obs, rng)
        env.step(action)
        engine.step(ref, action)
        if ref.is_over:
            final_infos = dict(env.infos)
    assert ref.is_over and ref.final is not None and env.agents == []
    want = terminal_rewards(np.array([ref.prestige]), reward)[0]
    assert [seen[a] for a in env.possible_agents] == pytest.approx(want.tolist())
    winners = engine.winners(ref)
    for s, info in enumerate(final_infos.values()):
        assert info["phase"] == Phase.GAME_OVER and not info["action_mask"].any()
        assert info["final_prestige"] == ref.prestige[s]
        assert info["win"] == (1 / len(winners) if s in winners else 0.0)
        assert info["scoring"].tolist() == [ref.final[s][k] for k in FINAL_CATEGORIES]


def test_game_over_masks_are_empty_and_dead_agents_step_none():
    env = make(num_players=3)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    while not all(env.terminations.values()):
        env.step(random_action(env.observe(env.agent_selection), rng))
    assert all(not env.observe(a)["action_mask"].any() for a in env.agents)
    with pytest.raises(ValueError, match="dead"):
        env.step(0)
    for _ in range(3):
        env.step(None)
    assert env.agents == []


def test_shaping_pays_zero_sum_prestige_gains_every_step():
    c = 0.1
    env = make(num_players=4, variant="pro", shaping=c)
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    paid_before_end = 0
    total = dict.fromkeys(env.possible_agents, 0.0)
    while not all(env.terminations.values()):
        env.step(random_action(env.observe(env.agent_selection), rng))
        assert sum(env.rewards.values()) == pytest.approx(0.0, abs=1e-6)
        paid_before_end += any(env.rewards.values()) and not all(env.terminations.values())
        for a, r in env.rewards.items():
            total[a] += r
    prestige = np.array([env.infos[a]["final_prestige"] for a in env.possible_agents])
    want = terminal_rewards(prestige[None], "win")[0] + c * (prestige - prestige.mean())
    assert [total[a] for a in env.possible_agents] == pytest.approx(want.tolist())
    assert paid_before_end > 0, "year-end scoring should pay shaping rewards mid-game"


# ------------------------------------------------------------------------------ illegal
def _illegal_action(env) -> int:
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])


def test_an_illegal_action_raises_naming_agent_and_reason_and_changes_nothing():
    env = make(num_players=3, variant="pro", illegal_action="raise")
    env.reset(seed=2)
    before, obs = env.unwrapped.save_game(), env.observe(env.agent_selection)
    bad = _illegal_action(env)
    with pytest.raises(IllegalActionError, match=rf"illegal action {bad} .*player_0") as err:
        env.step(bad)
    assert err.value.reason and err.value.action == bad
    assert env.unwrapped.save_game() == before and env.agent_selection == "player_0"
    assert np.array_equal(env.observe("player_0")["observation"], obs["observation"])
    for wrong in (-1, 803, 2.0, None, "3"):
        with pytest.raises(IllegalActionError, match="action id"):
            env.step(wrong)
    assert env.unwrapped.save_game() == before


@pytest.mark.parametrize("players", [2, 3, 4])
def test_by_default_an_illegal_action_ends_the_game_charges_the_offender_and_warns(players):
    env = make(num_players=players)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(7):
        env.step(random_action(env.observe(env.agent_selection), rng))
    offender = env.agent_selection
    bad = _illegal_action(env)
    with pytest.warns(UserWarning, match=rf"illegal action {bad} .* by {offender}"):
        env.step(bad)
    assert all(env.terminations.values())
    want = {a: -1.0 if a == offender else 0.0 for a in env.possible_agents}
    assert env.rewards == pytest.approx(want)
    assert [env.infos[a]["illegal"] for a in env.possible_agents] == [
        int(a == offender) for a in env.possible_agents
    ]
    assert not any(env.infos[a]["action_mask"].any() for a in env.possible_agents)
    seen = play(env, rng)
    assert seen == pytest.approx(want)


def test_penalize_also_covers_out_of_range_ids_and_numpy_scalars_are_actions():
    env = make(num_players=2, illegal_action="penalize")
    env.reset(seed=3)
    legal = np.flatnonzero(env.observe("player_0")["action_mask"])
    env.step(np.array(legal[0]))  # a 0-d array, as model.predict returns
    offender = env.agent_selection
    with pytest.warns(UserWarning, match="action ids are"):
        env.step(10_000)
    assert all(env.terminations.values()) and env.rewards[offender] == -1.0
    other = make(illegal_action="penalize")
    other.reset(seed=1)
    with pytest.raises(IllegalActionError, match="must be an int"):
        other.step("x")


# ------------------------------------------------------------------------------ seeding
def test_reset_seed_plays_the_reference_game_of_that_seed_and_then_derived_seeds():
    config = GameConfig(num_players=2, variant="pro")
    env = make(num_players=2, variant="pro")
    for seed, expected in [(5, 5), (None, derived_seed(5, 1)), (None, derived_seed(5, 2))]:
        env.reset(seed=seed)
        assert env.unwrapped.game_seed == expected
        ref = engine.new_game(config, expected)
        obs = env.observe(env.agent_selection)["observation"]
        assert np.array_equal(obs, encode_view(seat_view(ref, ref.seat)))


def test_same_seed_same_actions_same_game_and_unseeded_games_differ():
    def trajectory(seed):
        env = make(num_players=4)
        env.reset(seed=seed)
        rng, out = np.random.default_rng(0), []
        while not all(env.terminations.values()):
            obs = env.observe(env.agent_selection)
            out.append((env.agent_selection, obs["observation"].tobytes()))
            env.step(random_action(obs, rng))
        return out, env.unwrapped.save_game()

    assert trajectory(9) == trajectory(9)
    first, second = make(), make()
    first.reset()
    second.reset()
    assert first.unwrapped.game_seed != second.unwrapped.game_seed


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "7", True])
def test_bad_seeds_are_rejected(seed):
    with pytest.raises(ValueError, match="seed"):
        make().reset(seed=seed)


# ------------------------------------------------------------------------------ saved games
def test_a_saved_game_continues_identically():
    env = make(num_players=3, variant="pro")
    env.reset(seed=6)
    rng = np.random.default_rng(6)
    for _ in range(60):
        env.step(random_action(env.observe(env.agent_selection), rng))
    saved = env.unwrapped.save_game()
    twin = make(num_players=3, variant="pro")
    twin.load_game(saved)
    for _ in range(200):
        if all(env.terminations.values()):
            break
        a, b = env.observe(env.agent_selection), twin.observe(twin.agent_selection)
        assert env.agent_selection == twin.agent_selection
        assert np.array_equal(a["observation"], b["observation"])
        action = random_action(a, rng)
        env.step(action)
        twin.step(action)
    assert twin.unwrapped.save_game() == env.unwrapped.save_game()
    assert np.array_equal(twin.state(), env.state())


def test_a_saved_finished_game_loads_as_finished():
    env = make(num_players=2)
    env.reset(seed=12)
    play(env, np.random.default_rng(12))
    env.reset(seed=12)
    rng = np.random.default_rng(12)
    while not all(env.terminations.values()):
        env.step(random_action(env.observe(env.agent_selection), rng))
    twin = make(num_players=2)
    twin.reset(options={"state": env.unwrapped.save_game()})
    assert all(twin.terminations.values())
    assert twin.infos["player_0"]["final_prestige"] == env.infos["player_0"]["final_prestige"]
    assert play(twin, rng) == {"player_0": 0.0, "player_1": 0.0}  # rewards were paid already


def test_loading_a_bad_saved_game_is_refused():
    env = make(num_players=3, variant="pro")
    env.reset(seed=6)
    saved = env.unwrapped.save_game()
    with pytest.raises(ValueError, match="config"):
        make(num_players=4, variant="pro").reset(options={"state": saved})
    saved["money"][0] = -5
    with pytest.raises(CorruptStateError):
        make(num_players=3, variant="pro").reset(options={"state": saved})
    with pytest.raises(ValueError, match="options"):
        env.reset(options=[saved])


# ------------------------------------------------------------------------------ config
@pytest.mark.parametrize(
    "kw, match",
    [
        ({"num_players": 5}, "num_players"),
        ({"variant": "expert"}, "variant"),
        ({"reward": "score"}, "reward"),
        ({"illegal_action": "ignore"}, "illegal_action"),
        ({"render_mode": "rgb_array_list"}, "render_mode"),
        ({"shaping": -1.0}, "shaping"),
        ({"expansions": ("genie",)}, "genie"),
    ],
)
def test_bad_configuration_is_refused_with_a_clear_error(kw, match):
    with pytest.raises(ValueError, match=match):
        make(**kw)


# ------------------------------------------------------------------------------ rendering
def test_ansi_render_returns_the_movers_view_and_human_prints_it(capsys):
    env = make(num_players=3, render_mode="ansi")
    env.reset(seed=8)
    text = env.render()
    assert isinstance(text, str) and "P0" in text and "year 1" in text.lower()
    human = make(num_players=3, render_mode="human")
    human.reset(seed=8)
    assert human.render() is None
    assert capsys.readouterr().out.strip() == text.strip()
    full = env.unwrapped.full_view()
    assert isinstance(full, str) and full != text


def test_the_order_enforcing_wrapper_still_refuses_use_before_reset():
    env = make()
    with pytest.raises(Exception, match="reset"):
        env.last()
    with pytest.raises(Exception, match="reset"):
        env.step(0)


# ------------------------------------------------------------------------------ conventions
INFO_KEYS = {"action_mask", "phase", "year", "win", "final_prestige", "scoring", "illegal"}


def _info_shapes(info: dict[str, Any]) -> dict[str, Any]:
    return {k: (np.shape(v), np.asarray(v).dtype.kind) for k, v in info.items()}


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_infos_have_the_same_keys_and_shapes_at_every_step_of_whole_games(config):
    env = make(num_players=config.num_players, variant=config.variant, expansions=config.expansions)
    rng = np.random.default_rng(config.num_players)
    for seed in range(2):
        env.reset(seed=seed)
        want = None
        for _agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            assert set(info) == INFO_KEYS
            shapes = _info_shapes(info)
            want = want or shapes
            assert shapes == want
            assert info["action_mask"].shape == (803,) and info["scoring"].shape == (8,)
            env.step(None if term or trunc else random_action(obs, rng))


def test_state_is_every_seats_observation_hidden_information_included():
    env = make(num_players=3, variant="pro")
    env.reset(seed=4)
    state = env.state()
    assert state.dtype == np.float32 and env.state_space.contains(state)
    rows = state.reshape(4, -1)
    for seat, agent in enumerate(env.possible_agents):
        assert np.array_equal(rows[seat], env.observe(agent)["observation"])
    assert not rows[3].any()  # the absent fourth seat
    hands = [rows[s][asara_env.asara.core.observation.OBS_INDEX["hand"]] for s in range(3)]
    assert all(h.sum() > 0 for h in hands)  # every hidden hand is in the global state


def test_a_deep_copy_mid_game_continues_identically_and_independently():
    env = make(num_players=3, variant="pro")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(40):
        env.step(random_action(env.observe(env.agent_selection), rng))
    twin = copy.deepcopy(env)
    saved = env.unwrapped.save_game()
    twin_rng = np.random.default_rng(9)
    while not all(twin.terminations.values()):  # the copy plays on to the end ...
        twin.step(random_action(twin.observe(twin.agent_selection), twin_rng))
    assert env.unwrapped.save_game() == saved  # ... and the original has not moved
    moves = np.random.default_rng(7)
    copies = [copy.deepcopy(env) for _ in range(2)]
    for _ in range(30):
        actions = {random_action(c.observe(c.agent_selection), moves) for c in copies[:1]}
        for c in copies:
            c.step(next(iter(actions)))
    assert copies[0].unwrapped.save_game() == copies[1].unwrapped.save_game()


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_parallel_api_test_on_the_turn_based_conversion(players):
    """PettingZoo's parallel API test on `turn_based_aec_to_parallel` (the conversion a
    turn-based env takes; it samples unmasked actions, which end games with a penalty)."""
    from pettingzoo.test import parallel_api_test
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the illegal actions it samples
        parallel_api_test(turn_based_aec_to_parallel(make(num_players=players)), num_cycles=300)
