"""The fuzzing batteries: mutated saved states (refused naming a field, or loaded
and played to the end identically by both engines), bad actions through every API (refused,
the state byte-identical; under the AEC env's default illegal_action="penalize" an int id
ends the game instead, the offender -1 and the others sharing +1, with a warning naming it,
the game itself unchanged), bad configurations and seeds (refused naming the argument)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asara_env.asara.actions import NUM_ACTIONS, as_int, describe_action
from asara_env.asara.bridge import from_reference
from asara_env.asara.core import step, take
from asara_env.asara.core.state import ARRAY_FIELDS
from asara_env.asara.env import raw_env
from asara_env.asara.gym_env import AsaraGymEnv
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.serialize import state_from_dict, state_to_dict
from asara_env.common.errors import IllegalActionError
from tests.asara.fuzzing import TALLY, check_saved, classify, mutations, positions
from tests.asara.games import ALL_CONFIGS

FUZZ = settings(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


def test_the_positions_cover_every_configuration_and_phase():
    saves = positions()
    configs = {
        (d["config"]["num_players"], d["config"]["variant"], tuple(d["config"]["expansions"]))
        for d in saves
    }
    assert len(configs) == 18
    assert {d["phase"] for d in saves} == {
        "PLACE",
        "BUY",
        "BRIBE_STACK",
        "BRIBE_TAKE",
        "LIGHTS_OPTION",
        "LIGHTS_KEEP",
        "BUILD",
        "GAME_OVER",
        "GENIE",
        "GIFT_CARD",
        "GIFT_BUY",
        "GIFT_LIGHTS",
    }


def test_every_unmutated_position_loads_and_saves_back_unchanged():
    for saved in positions():
        assert state_to_dict(state_from_dict(saved)) == saved


def test_one_position_of_each_phase_and_configuration_plays_on_identically_in_both_engines():
    firsts: dict[tuple[str, str], dict[str, Any]] = {}
    for saved in positions():
        firsts.setdefault((saved["phase"], saved["config"]["variant"]), saved)
    for i, saved in enumerate(firsts.values()):
        assert classify(saved, i) == "loaded"


@pytest.mark.slow
def test_every_unmutated_position_plays_on_identically_in_both_engines():
    for i, saved in enumerate(positions()):
        assert classify(saved, i) == "loaded"


def battery(check, examples: int, *strategies):
    """`check` run by hypothesis on `examples` examples drawn from `strategies`."""
    return settings(FUZZ, max_examples=examples)(given(*strategies)(check))


SAVES = (mutations(), st.integers(0, 2**16))
test_250_mutated_saves_are_refused_naming_a_field_or_play_identically = battery(
    check_saved, 250, *SAVES
)


# ------------------------------------------------------------------------------ bad actions
BAD_ACTIONS = st.one_of(
    st.integers(max_value=-1),
    st.integers(min_value=NUM_ACTIONS),
    st.integers(0, NUM_ACTIONS - 1),  # those legal in the position are skipped
    st.floats(allow_nan=True),
    st.sampled_from([None, True, False, "7", "", b"1", [], [3], (1, 2), {}, 2.0]),
    st.builds(np.float64, st.integers(0, NUM_ACTIONS - 1)),
    st.builds(np.bool_, st.booleans()),
    st.builds(lambda a: np.array([a, a]), st.integers(0, NUM_ACTIONS - 1)),
)


@lru_cache(maxsize=1)
def phase_positions() -> tuple[dict[str, Any], ...]:
    """One saved position per phase and variant (finished games left out)."""
    firsts: dict[tuple[str, str], dict[str, Any]] = {}
    for saved in positions():
        if saved["phase"] != "GAME_OVER":
            firsts.setdefault((saved["phase"], saved["config"]["variant"]), saved)
    return tuple(firsts.values())


def _legal_int(state, action) -> bool:
    """True for an int id legal in the reference state (not a bad action)."""
    ok = isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))
    return ok and action in legal_actions(state)


def _core_bytes(core) -> dict[str, Any]:
    return {name: getattr(core, name).tobytes() for name in ARRAY_FIELDS}


def _position(k: int):
    saved = phase_positions()[k % len(phase_positions())]
    return saved, state_from_dict(saved)


def _refuses(api: str, snapshot, act, error: type = IllegalActionError) -> None:
    """`act()` raises `error` and `snapshot()` (bytes of the whole state) is unchanged."""
    TALLY[f"{api}: tried"] += 1
    before = snapshot()
    with pytest.raises(error):
        act()
    assert snapshot() == before
    TALLY[f"{api}: refused, unchanged"] += 1


def _reference_bad_action(k: int, action) -> None:
    _, state = _position(k)
    if not _legal_int(state, action):
        _refuses("reference step", lambda: state_to_dict(state), lambda: engine.step(state, action))


def _core_bad_action(k: int, action) -> None:
    _, state = _position(k)
    if _legal_int(state, action):
        return
    core = from_reference([state, state.copy()])
    good = int(np.flatnonzero(core.legal[1])[0])
    _refuses("core step", lambda: _core_bytes(core), lambda: step(core, [action, good]))
    if isinstance(action, int) and not isinstance(action, bool) and -(2**63) <= action < 2**63:
        # on_illegal="report": game 0 is flagged and left unchanged, game 1 steps
        assert step(core, [action, good], on_illegal="report").tolist() == [True, False]
        assert _core_bytes(take(core, [0])) == _core_bytes(take(from_reference([state]), [0]))


BAD_GAMES = st.one_of(
    st.lists(st.integers(0, 1), min_size=2, max_size=3).filter(lambda g: len(set(g)) < len(g)),
    st.lists(st.integers(2, 2**70), min_size=1, max_size=2),
    st.lists(st.integers(-(2**70), -1), min_size=1, max_size=2),
    st.lists(st.floats(), min_size=1, max_size=2),
    st.sampled_from([[True], [np.bool_(False)], "0", 0, None, [[0]], [0.0], np.array([0.0])]),
)


def _core_bad_games(k: int, games) -> None:
    _, state = _position(k)
    core = from_reference([state, state.copy()])
    good = int(np.flatnonzero(core.legal[0])[0])
    n = len(games) if isinstance(games, (list, np.ndarray)) else 1
    act = lambda: step(core, np.full(n, good), games=games)  # noqa: E731
    _refuses("core step games=", lambda: _core_bytes(core), act, ValueError)


def _env_snapshot(env) -> tuple[Any, ...]:
    observations = {a: env.observe(a) for a in env.agents}
    flat = {
        a: (o["observation"].tobytes(), o["action_mask"].tobytes()) for a, o in observations.items()
    }
    return (
        json.dumps(env.save_game()),
        env.state().tobytes(),
        env.agent_selection,
        dict(env.rewards),
        dict(env._cumulative_rewards),
        dict(env.terminations),
        flat,
    )


def _aec_bad_action(k: int, action) -> None:
    saved, state = _position(k)
    if _legal_int(state, action):
        return
    config = saved["config"]
    env = raw_env(
        config["num_players"], config["variant"], config["expansions"], illegal_action="raise"
    )
    env.reset(options={"state": saved})
    _refuses("AEC env", lambda: _env_snapshot(env), lambda: env.step(action))


def _game_snapshot(env) -> tuple[Any, ...]:
    """The game itself: saved game, global state and every seat's observation array."""
    observations = tuple(env.observe(a)["observation"].tobytes() for a in env.agents)
    return json.dumps(env.save_game()), env.state().tobytes(), observations


def _aec_penalized_action(k: int, action) -> None:
    """The default illegal_action="penalize": an int id that is not legal ends the game,
    the offender gets -1 and the others 0, one warning names the action, and the
    game itself is unchanged (the masks emptied); anything but an int is refused."""
    saved, state = _position(k)
    if _legal_int(state, action):
        return
    config = saved["config"]
    env = raw_env(config["num_players"], config["variant"], config["expansions"])
    assert env.illegal_action == "penalize"
    env.reset(options={"state": saved})
    try:
        a = as_int(action)
    except IllegalActionError:
        _refuses("AEC env, penalize", lambda: _env_snapshot(env), lambda: env.step(action))
        return
    TALLY["AEC env, penalize: tried"] += 1
    offender, before = env.agent_selection, _game_snapshot(env)
    cumulative = {agent: env._cumulative_rewards[agent] for agent in env.agents}
    with pytest.warns(UserWarning) as caught:
        env.step(action)
    (message,) = [str(w.message) for w in caught]
    name = describe_action(a) if 0 <= a < NUM_ACTIONS else "?"
    assert message.startswith(f"illegal action {a} ({name}) by {offender} in phase ")
    assert message.endswith(f"; the game ends and {offender} is penalised (-1.0)")
    shares = {agent: 0.0 for agent in env.agents if agent != offender}
    assert env.rewards == pytest.approx({offender: -1.0, **shares})
    assert env._cumulative_rewards == pytest.approx(
        {offender: -1.0, **{agent: cumulative[agent] + s for agent, s in shares.items()}}
    )
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert {agent: info["illegal"] for agent, info in env.infos.items()} == {
        agent: int(agent == offender) for agent in env.agents
    }
    assert not any(env.infos[agent]["action_mask"].any() for agent in env.agents)
    assert not any(env.observe(agent)["action_mask"].any() for agent in env.agents)
    assert env.agent_selection == offender
    assert _game_snapshot(env) == before
    TALLY["AEC env, penalize: penalised, unchanged"] += 1


def _gym_snapshot(env: AsaraGymEnv) -> tuple[Any, ...]:
    game = json.dumps(env.game.save_game())
    return game, env._observation().tobytes(), env.action_masks().tobytes()


def _gym_bad_action(seed: int, config, action) -> None:
    env = AsaraGymEnv(
        config.num_players, config.variant, None, config.expansions, illegal_action="raise"
    )
    env.reset(seed=seed)
    ok = isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))
    if not (ok and 0 <= action < NUM_ACTIONS and env.action_masks()[action]):
        _refuses("gym env", lambda: _gym_snapshot(env), lambda: env.step(action))


POSITION = st.integers(0, 100)
ACTION_BATTERIES = {
    # name: (check, examples in the default run, strategies)
    "reference step": (_reference_bad_action, 120, (POSITION, BAD_ACTIONS)),
    "core step": (_core_bad_action, 120, (POSITION, BAD_ACTIONS)),
    "core step games=": (_core_bad_games, 80, (POSITION, BAD_GAMES)),
    "AEC env": (_aec_bad_action, 80, (POSITION, BAD_ACTIONS)),
    "AEC env, penalize": (_aec_penalized_action, 80, (POSITION, BAD_ACTIONS)),
    "gym env": (
        _gym_bad_action,
        60,
        (st.integers(0, 2**16), st.sampled_from(ALL_CONFIGS), BAD_ACTIONS),
    ),
}


@pytest.mark.parametrize("api", list(ACTION_BATTERIES))
def test_bad_actions_are_refused_and_change_nothing(api):
    check, examples, strategies = ACTION_BATTERIES[api]
    battery(check, examples, *strategies)()


def _tally(name: str) -> None:
    print(f"\n{name}: " + ", ".join(f"{k} {v}" for k, v in sorted(TALLY.items())))


@pytest.mark.slow
def test_5000_mutated_saves_are_refused_naming_a_field_or_play_identically():
    TALLY.clear()
    battery(check_saved, 5000, *SAVES)()
    _tally("saved-state battery")
    assert TALLY["tried"] >= 5000 and TALLY["tried"] == TALLY["refused"] + TALLY["loaded"]


@pytest.mark.slow
def test_thousands_of_bad_actions_are_refused_and_change_nothing():
    TALLY.clear()
    for check, examples, strategies in ACTION_BATTERIES.values():
        battery(check, 10 * examples, *strategies)()
    _tally("bad-action battery")
    for api in ACTION_BATTERIES:
        done = TALLY[f"{api}: refused, unchanged"] + TALLY[f"{api}: penalised, unchanged"]
        assert done == TALLY[f"{api}: tried"] > 0
    assert TALLY["AEC env, penalize: penalised, unchanged"] > 0
