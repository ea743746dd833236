"""One validation of configurations, seeds, batch sizes and game indices at every entry point:
known bad examples, and a hypothesis battery of arguments of every kind, each
accepted exactly when it is valid, else refused with a ValueError naming the argument."""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asara_env import GameConfig
from asara_env.asara.core import init, step
from asara_env.asara.core.state import ARRAY_FIELDS
from asara_env.asara.env import raw_env
from asara_env.asara.gym_env import AsaraGymEnv
from asara_env.asara.reference import engine
from asara_env.asara.reference.record import GameRecord
from asara_env.asara.reference.serialize import state_to_dict
from asara_env.common.validate import check_indices, check_int, check_seed, check_seeds

ANY = st.one_of(
    st.integers(-3, 6),
    st.sampled_from([2**31, 2**63, 2**64 - 1, 2**64, -(2**63)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1.0, 2.0, 1.5, "7", "", "gifts", None, True, False, [], [1], (2,), {}]),
    st.builds(np.int64, st.integers(-3, 6)),
    st.builds(np.uint64, st.integers(0, 2**64 - 1)),
    st.builds(np.float32, st.integers(0, 5)),
    st.builds(np.bool_, st.booleans()),
)


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _is_seed(v=None) -> bool:
    return _is_int(v) and 0 <= v < 2**64


def _outcome(call, value):
    """('ok', result) or ('refused', message); any other exception fails the test."""
    try:
        return "ok", call(value)
    except ValueError as exc:
        return "refused", str(exc)


ENTRY_POINTS = {
    # name: (argument named in the message, call, valid)
    "GameConfig(num_players=)": (
        "num_players",
        lambda v: GameConfig(num_players=v),
        lambda v: _is_int(v) and 2 <= v <= 4,
    ),
    "GameConfig(start_seat=)": (
        "start_seat",
        lambda v: GameConfig(num_players=3, start_seat=v),
        lambda v: _is_int(v) and 0 <= v <= 2,
    ),
    "GameConfig(variant=)": (
        "variant",
        lambda v: GameConfig(variant=v),
        lambda v: isinstance(v, str) and v in ("basic", "pro"),
    ),
    "GameConfig(expansions=)": (
        "expansions",
        lambda v: GameConfig(expansions=v),
        lambda v: v == "gifts" or (isinstance(v, (list, tuple)) and len(v) == 0),
    ),
    "core.init(batch=)": (
        "batch",
        lambda v: None if _is_int(v) and v > 8 else init(GameConfig(num_players=2), v, seeds=0),
        lambda v: _is_int(v) and v >= 1,
    ),
    "core.init(seeds=)": (
        "seeds",
        lambda v: init(GameConfig(num_players=2), 1, seeds=v),
        lambda v: v is None or _is_seed(v) or (type(v) in (list, tuple) and _is_seed(*v[:1])),
    ),
    "new_game(seed=)": (
        "seed",
        lambda v: engine.new_game(GameConfig(num_players=2), v),
        lambda v: v is None or _is_int(v) and 0 <= v < 2**64,
    ),
    "GameRecord(seed=)": (
        "seed",
        lambda v: GameRecord(GameConfig(), v),
        lambda v: _is_int(v) and 0 <= v < 2**64,
    ),
    "raw_env().reset(seed=)": (
        "seed",
        lambda v: raw_env(num_players=2).reset(seed=v),
        lambda v: v is None or _is_int(v) and 0 <= v < 2**64,
    ),
    "AsaraGymEnv(seat=)": (
        "seat",
        lambda v: AsaraGymEnv(num_players=2, seat=v),
        lambda v: v is None or _is_int(v) and 0 <= v <= 1,
    ),
}


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=ANY)
def test_arguments_are_accepted_exactly_when_valid_else_refused_naming_them(entry, value):
    name, call, valid = ENTRY_POINTS[entry]
    outcome, detail = _outcome(call, value)
    assert outcome == ("ok" if valid(value) else "refused"), (entry, value, detail)
    if outcome == "refused":
        assert name in detail, detail


@pytest.mark.parametrize(
    "call, words",
    [
        (
            lambda: GameConfig(expansions=cast(Any, None)),
            "expansions must be one expansion or a sequence",
        ),
        (lambda: GameConfig(expansions=cast(Any, "gift")), "expansions: unknown expansion 'gift'"),
        (
            lambda: GameConfig(expansions=cast(Any, ["gifts", "gifts"])),
            "expansions names one expansion",
        ),
        (lambda: init(GameConfig(), 2, seeds=-1), "seeds must be an int from 0 to 2\\*\\*64 - 1"),
        (lambda: init(GameConfig(), 2, seeds=1.5), "seeds must be an int"),
        (lambda: init(GameConfig(), 2, seeds=cast(Any, "7")), "seeds must be an int"),
        (lambda: init(GameConfig(), 2, seeds=True), "seeds must be an int"),
        (lambda: init(GameConfig(), 2, seeds=2**64), "seeds must be an int"),
        (lambda: init(GameConfig(), 2, seeds=[1, -1]), "seeds must hold seeds from 0"),
        (lambda: init(GameConfig(), 2, seeds=[1]), "seeds must hold 2 seeds, got 1"),
        (lambda: init(GameConfig(), 2, seeds=np.array([1.0, 2.0])), "seeds must be a one-dim"),
        (lambda: init(GameConfig(), cast(Any, "2")), "batch must be an int from 1"),
        (lambda: init(GameConfig(), 0), "batch must be an int from 1"),
        (lambda: init(cast(Any, "config"), 1), "config must be a GameConfig"),
        (
            lambda: AsaraGymEnv(num_players=2, seat=cast(Any, 1.5)),
            "seat must be an int from 0 to 1, got 1.5",
        ),
        (lambda: AsaraGymEnv().reset(options=cast(Any, "x")), "reset options must be a dict"),
        (lambda: AsaraGymEnv().reset(seed=-1), "seed must be an int from 0"),
        (lambda: AsaraGymEnv().reset(options={"game_seed": -2}), "options\\['game_seed'\\]"),
        (lambda: AsaraGymEnv().reset(options={"seat": 4}), "options\\['seat'\\] must be"),
        (lambda: raw_env().reset(options=cast(Any, "x")), "reset options must be a dict"),
        (lambda: engine.new_game(GameConfig(), -1), "seed must be an int from 0 to 2"),
        (lambda: engine.new_game(cast(Any, "pro"), 1), "config must be a GameConfig"),
        (lambda: GameRecord(GameConfig(), 1, [803]), "actions\\[0\\] must be an int from 0"),
        (lambda: GameRecord(GameConfig(), 1, cast(Any, "12")), "actions must be a list"),
    ],
)
def test_bad_configurations_and_seeds_are_refused_naming_the_argument(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_numpy_integers_are_accepted_and_mean_the_same_as_python_ints():
    config = GameConfig(num_players=np.int64(3), start_seat=np.int8(2), expansions=("gifts",))
    assert config == GameConfig(num_players=3, start_seat=2, expansions=cast(Any, "gifts"))
    assert config.to_dict()["num_players"].__class__ is int
    a, b = init(config, np.int32(2), seeds=np.uint64(7)), init(config, 2, seeds=7)
    assert all(np.array_equal(getattr(a, f), getattr(b, f)) for f in ARRAY_FIELDS)
    same = state_to_dict(engine.new_game(config, np.int64(9)))
    assert same == state_to_dict(engine.new_game(config, 9))


def test_seeds_at_both_ends_of_the_range_are_accepted_and_differ():
    config = GameConfig(num_players=2)
    low, high = init(config, 2, seeds=[0, 2**64 - 1]), init(config, 2, seeds=np.array([5, 5]))
    assert not np.array_equal(low.hands[0], low.hands[1]) or not np.array_equal(
        low.tape[0], low.tape[1]
    )
    assert np.array_equal(high.tape[0], high.tape[1])


@pytest.mark.parametrize(
    "games, words",
    [
        ([0, 0], "distinct game indices, got 0 twice"),
        ([0.7], "must hold ints"),
        ([3], "game indices from 0 to 2, got 3"),
        ([-1], "game indices from 0 to 2, got -1"),
        ([True], "must hold ints"),
        (np.array([0.0]), "one-dimensional array of game indices"),
        (np.array([[0]]), "one-dimensional array of game indices"),
        ("0", "must be a sequence of game indices"),
    ],
)
def test_bad_game_indices_are_refused_and_change_nothing(games, words):
    state = init(GameConfig(num_players=2), 3, seeds=1)
    before = {f: getattr(state, f).tobytes() for f in ARRAY_FIELDS}
    actions = np.flatnonzero(state.legal[0])[:1].repeat(np.size(games))
    with pytest.raises(ValueError, match=f"games {words}|games: {words}|{words}"):
        step(state, actions, games=games)
    assert {f: getattr(state, f).tobytes() for f in ARRAY_FIELDS} == before


def test_the_checks_name_the_argument_and_range():
    with pytest.raises(ValueError, match="width must be an int from 1 to 9, got 0"):
        check_int("width", 0, 1, 9)
    with pytest.raises(ValueError, match="s must be an int from 0 to 2\\*\\*64 - 1, got -1"):
        check_seed("s", -1)
    assert check_seeds("s", [0, 2**64 - 1], 2).dtype == np.uint64
    assert check_indices("g", np.array([2, 0], np.int32), 3).tolist() == [2, 0]
