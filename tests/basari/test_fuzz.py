"""BASARI's fuzzing batteries (as tests/asara/test_fuzz_saves.py for ASARA): mutated
saved states (refused naming a field, or loaded and played to the end identically by both
engines), bad actions through every API (reference, core, parallel, AEC, gym: refused with
the state unchanged and the game still playable; under illegal_action="penalize" an int id
ends the game with PettingZoo's penalty, the game itself unchanged), bad configurations and
boards (refused naming the argument and showing the value given), and determinism across
processes. The `slow` tests run thousands of each and print the counts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from asara_env import basari_v0
from asara_env.basari.bridge import from_reference
from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import GEMS_PER_COLOUR, MAX_ARCHWAY_POINTS
from asara_env.basari.core import init, step
from asara_env.basari.core.state import ARRAY_FIELDS
from asara_env.basari.core.tables import tables
from asara_env.basari.gym_env import BasariGymEnv
from asara_env.basari.reference import GameRecord, engine, new_game
from asara_env.basari.reference.rules import legal_actions
from asara_env.basari.reference.serialize import state_from_dict, state_to_dict
from asara_env.common.errors import CorruptStateError, IllegalActionError
from tests.basari.fuzzing import (
    BOARDS,
    CONFIGS,
    TALLY,
    check_saved,
    classify,
    mutations,
    play_both_to_the_end,
    positions,
    random_joint,
)

FUZZ = settings(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
ROOT = Path(__file__).resolve().parents[2]


def battery(check, examples: int, *strategies):
    """`check` run by hypothesis on `examples` examples drawn from `strategies`."""
    return settings(FUZZ, max_examples=examples)(given(*strategies)(check))


def _tally(name: str) -> None:
    print(f"\n{name}: " + ", ".join(f"{k} {v}" for k, v in sorted(TALLY.items())))


# ------------------------------------------------------------------------------ saved games
def test_the_positions_cover_every_configuration_and_phase():
    saves = positions()
    configs = {
        (d["config"]["num_players"], d["config"]["start_mode"], len(d["config"]["board"]))
        for d in saves
    }
    assert configs == {(p, m, n) for p in (2, 3, 4) for m in ("choose", "random") for n in (9, 40)}
    assert {d["phase"] for d in saves} == {"SETUP", "SELECT", "BARTER", "OVER"}
    assert any(d["offers"] > 0 for d in saves) and any(d["queued_card"] >= 0 for d in saves)


def test_every_unmutated_position_loads_saves_back_and_plays_on_identically():
    for i, saved in enumerate(positions()):
        assert classify(saved, i) == "loaded"


SAVES = (mutations(), st.integers(0, 2**16))
test_300_mutated_saves_are_refused_naming_a_field_or_play_identically = battery(
    check_saved, 300, *SAVES
)


@pytest.mark.parametrize(
    "path, value, field",
    [
        (("score", 0), 2**31 + 5, "score[0]"),  # must not be saved back as -2147483643
        (("offers",), 2**40, "offers"),  # must not crash the bridge with OverflowError
        (("seed",), 2**70, "seed"),  # beyond 64 bits: no OverflowError
        (("config", "board", 0, 0), 2**40, "config.board[0][0]"),  # a points table of 0
        (("config", "board", 0, 1), 26, "config.board"),
        (("progress", 0), 2**15, "progress[0]"),
        (("turn",), 1000, "turn"),
    ],
)
def test_out_of_range_values_are_refused_naming_the_field(path, value, field):
    saved = json.loads(json.dumps(positions()[3]))
    node = saved
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    with pytest.raises(CorruptStateError) as refused:
        state_from_dict(saved)
    assert refused.value.field == field and str(refused.value).startswith(field)


def test_a_setup_game_that_has_moved_is_refused_naming_the_field():
    saved = next(d for d in positions() if d["phase"] == "SETUP")
    cases: list[tuple[str, Any, str]] = [("turn", 1, "turn"), ("progress", [0, 3], "progress[1]")]
    for name, value, field in cases:
        moved = {**saved, name: value if name == "turn" else value + [0] * (len(saved[name]) - 2)}
        with pytest.raises(CorruptStateError, match="the game has moved during SETUP") as refused:
            state_from_dict(moved)
        assert refused.value.field == field


@pytest.mark.parametrize("bad", [None, "x", 3, [], [positions], 1.5])
def test_load_game_refuses_anything_but_a_saved_game_and_changes_nothing(bad):
    saved = positions()[5]
    n = saved["config"]
    kwargs = dict(num_players=n["num_players"], start_mode=n["start_mode"], board=n["board"])
    envs = [
        basari_v0.parallel_env(**kwargs),
        basari_v0.raw_env(**kwargs),
        basari_v0.env(**kwargs),
        BasariGymEnv(**kwargs),
    ]
    for env in envs:
        env.load_game(saved)
        loaded = env.save_game()  # the gym env has played the opponents up to its learner
        with pytest.raises(CorruptStateError, match=r"^\(top\): a saved game is a dict"):
            env.load_game(bad)
        assert env.save_game() == loaded


# ------------------------------------------------------------------------------ bad actions
N_ACTIONS = max(c.n_actions for c in CONFIGS)
BAD_ACTIONS = st.one_of(
    st.integers(max_value=-1),
    st.integers(min_value=N_ACTIONS),
    st.integers(0, N_ACTIONS - 1),  # those legal in the position are skipped
    st.floats(allow_nan=True),
    st.sampled_from([None, True, False, "7", "", b"1", [], [3], (1, 2), {}, {3}, 2.0]),
    st.builds(np.float64, st.integers(0, N_ACTIONS - 1)),
    st.builds(np.bool_, st.booleans()),
    st.builds(np.uint64, st.sampled_from([2**64 - 1, 2**63, 2**32])),
    st.builds(np.int8, st.integers(-128, 127)),
    st.builds(lambda a: np.array([a, a]), st.integers(0, N_ACTIONS - 1)),
)


@lru_cache(maxsize=1)
def phase_positions() -> tuple[dict[str, Any], ...]:
    """One saved position per phase, player count and board (finished games left out)."""
    firsts: dict[tuple[str, int, int], dict[str, Any]] = {}
    for saved in positions():
        if saved["phase"] != "OVER":
            key = (saved["phase"], saved["config"]["num_players"], len(saved["config"]["board"]))
            firsts.setdefault(key, saved)
    return tuple(firsts.values())


def _position(k: int):
    saved = phase_positions()[k % len(phase_positions())]
    return saved, state_from_dict(saved)


def _is_int(action) -> bool:
    return isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))


def _legal_int(state, seat: int, action) -> bool:
    """True for an int id legal for `seat` in the reference state (not a bad action)."""
    return (
        _is_int(action)
        and 0 <= action < state.config.n_actions
        and bool(legal_actions(state, seat)[int(action)])
    )


def _refuses(api: str, snapshot, act, then, error: type = IllegalActionError) -> None:
    """`act()` raises `error`, `snapshot()` (the whole state) is unchanged, and `then()`
    (a legal step) still plays."""
    TALLY[f"{api}: tried"] += 1
    before = snapshot()
    with pytest.raises(error):
        act()
    assert snapshot() == before
    then()
    TALLY[f"{api}: refused, unchanged, playable"] += 1


def _bad_seat(state, k: int) -> int:
    """A seat with a real decision (the barter's party to act, else seat k mod P)."""
    return int(state.to_act) if state.phase.name == "BARTER" else k % state.num_players


def _reference_bad_action(k: int, action, chooser_seed: int) -> None:
    _, state = _position(k)
    seat = _bad_seat(state, k)
    if _legal_int(state, seat, action):
        return
    joint = random_joint(state, np.random.default_rng(chooser_seed))
    bad = joint[:seat] + [action] + joint[seat + 1 :]
    _refuses(
        "reference step",
        lambda: state_to_dict(state),
        lambda: engine.step(state, bad),
        lambda: engine.step(state, joint),
    )


BAD_JOINTS = st.sampled_from(["set", "dict", "str", "short", "long", "2d", "int", "none"])


def _reference_bad_joint(k: int, kind: str) -> None:
    """Joint actions that are not one id per seat in seat order: refused, unchanged."""
    _, state = _position(k)
    joint = random_joint(state, np.random.default_rng(k))
    bad: Any = {  # anything but one action id per seat
        "set": set(joint),
        "dict": dict(enumerate(joint)),
        "str": "".join(map(str, joint)),
        "short": joint[:-1],
        "long": [*joint, 0],
        "2d": np.array([joint]),
        "int": joint[0],
        "none": None,
    }[kind]
    _refuses(
        "reference joint",
        lambda: state_to_dict(state),
        lambda: engine.step(state, bad),
        lambda: engine.step(state, joint),
    )


def _core_bytes(core) -> dict[str, Any]:
    return {name: getattr(core, name).tobytes() for name in ARRAY_FIELDS}


def _core_bad_action(k: int, action, chooser_seed: int) -> None:
    _, state = _position(k)
    seat = _bad_seat(state, k)
    if _legal_int(state, seat, action):
        return
    core = from_reference([state, state.copy()])
    good = random_joint(state, np.random.default_rng(chooser_seed))
    bad: Any = [list(good), list(good)]  # one game's seat given `action`
    bad[0][seat] = action
    if isinstance(action, np.uint64):  # a whole uint64 batch: the value must not wrap
        bad = np.array(bad, np.uint64) if not isinstance(action, bool) else bad
    try:
        as_array = np.asarray(bad)
    except ValueError:
        as_array = None
    _refuses(
        "core step",
        lambda: _core_bytes(core),
        lambda: step(core, bad),
        lambda: step(core, [good, good]),
    )
    if as_array is not None and as_array.dtype.kind == "u" and _is_int(action):
        with pytest.raises(IllegalActionError) as refused:
            step(from_reference([state, state]), bad)
        assert refused.value.action == int(action)  # as given, e.g. 2**64 - 1, not -1


BAD_BATCHES = st.sampled_from(
    ["set", "dict", "float", "bool", "ragged", "short", "3d", "str", "none", "uint-wrap"]
)


def _core_bad_batch(k: int, kind: str) -> None:
    _, state = _position(k)
    core = from_reference([state])
    good = random_joint(state, np.random.default_rng(k))
    bad = {
        "set": [set(good)],
        "dict": {0: good},
        "float": [np.array(good, float)],
        "bool": np.ones((1, len(good)), bool),
        "ragged": [good, good[:-1]],
        "short": [good[:-1]],
        "3d": [[good]],
        "str": [[str(a) for a in good]],
        "none": None,
        "uint-wrap": np.array([good], np.uint64) + np.uint64(2**64 - 2**63),
    }[kind]
    _refuses(
        "core batch", lambda: _core_bytes(core), lambda: step(core, bad), lambda: step(core, [good])
    )


def _env_args(saved: dict[str, Any], illegal_action: str) -> dict[str, Any]:
    c = saved["config"]
    return dict(
        num_players=c["num_players"],
        start_mode=c["start_mode"],
        board=c["board"],
        illegal_action=illegal_action,
    )


def _parallel_snapshot(env) -> tuple[Any, ...]:
    return json.dumps(env.save_game()), env.state().tobytes(), tuple(env.agents)


def _parallel_bad_action(k: int, action, chooser_seed: int) -> None:
    saved, state = _position(k)
    seat = _bad_seat(state, k)
    if _legal_int(state, seat, action):
        return
    env = basari_v0.parallel_env(**_env_args(saved, "raise"))
    env.reset(options={"state": saved})
    joint = random_joint(state, np.random.default_rng(chooser_seed))
    good = {a: joint[i] for i, a in enumerate(env.agents)}
    bad = {**good, env.agents[seat]: action}
    _refuses(
        "parallel env",
        lambda: _parallel_snapshot(env),
        lambda: env.step(bad),
        lambda: env.step(good),
        ValueError,  # an IllegalActionError, or the ValueError naming a non-int's agent
    )


def _aec_snapshot(env) -> tuple[Any, ...]:
    raw = env.unwrapped if hasattr(env, "unwrapped") else env
    observations = {
        a: (o["observation"].tobytes(), o["action_mask"].tobytes())
        for a, o in ((a, env.observe(a)) for a in env.agents)
    }
    return (
        json.dumps(env.save_game()),
        env.state().tobytes(),
        env.agent_selection,
        dict(env.rewards),
        dict(env._cumulative_rewards),
        dict(env.terminations),
        dict(getattr(raw, "_actions", {})),
        observations,
    )


def _aec_to_seat(env, state, seat: int, joint: list[int]) -> None:
    """Play the legal `joint` ids of the agents before `seat` (the bad action comes at
    `seat`'s own step, not the first agent's)."""
    for a in env.possible_agents[:seat]:
        assert env.agent_selection == a
        env.step(joint[env.possible_agents.index(a)])


def _aec_bad_action(k: int, action, chooser_seed: int) -> None:
    saved, state = _position(k)
    seat = _bad_seat(state, k)
    if _legal_int(state, seat, action):
        return
    env = basari_v0.env(**_env_args(saved, "raise"))
    env.reset(options={"state": saved})
    joint = random_joint(state, np.random.default_rng(chooser_seed))
    _aec_to_seat(env, state, seat, joint)

    def then() -> None:  # the offender's legal action, then the rest of the step
        for a in env.possible_agents[seat:]:
            env.step(joint[env.possible_agents.index(a)])
        engine.step(state, joint)
        assert env.save_game() == state_to_dict(state)

    _refuses("AEC env", lambda: _aec_snapshot(env), lambda: env.step(action), then, ValueError)


def _aec_penalized_action(k: int, action, chooser_seed: int) -> None:
    """The default illegal_action="penalize": an int id that is not legal, given at its
    agent's own step, ends the game there (the offender -1, the others 0, PettingZoo's
    convention), one warning names it, the game is unchanged; dead agents then take only
    None (anything else is PettingZoo's ValueError, changing nothing); the env plays on
    after a reset. Anything but an int is refused as under "raise"."""
    saved, state = _position(k)
    seat = _bad_seat(state, k)
    if _legal_int(state, seat, action):
        return
    env = basari_v0.env(**_env_args(saved, "penalize"))
    env.reset(options={"state": saved})
    joint = random_joint(state, np.random.default_rng(chooser_seed))
    _aec_to_seat(env, state, seat, joint)
    offender = env.agent_selection
    if not _is_int(action):
        _refuses(
            "AEC env, penalize",
            lambda: _aec_snapshot(env),
            lambda: env.step(action),
            lambda: env.step(joint[seat]),
            ValueError,
        )
        return
    TALLY["AEC env, penalize: tried"] += 1
    with pytest.warns(UserWarning) as caught:
        env.step(action)
    (message,) = [str(w.message) for w in caught]
    assert message.startswith(f"illegal action {int(action)} (") and f"by {offender}" in message
    assert env.save_game() == saved  # the game itself is unchanged
    assert all(env.terminations.values())
    assert env.rewards == {a: (-1.0 if a == offender else 0.0) for a in env.possible_agents}
    assert env.infos[offender]["illegal"] == 1
    assert env.agent_selection == offender
    before = _aec_snapshot(env)
    with pytest.raises(ValueError):  # a dead agent's action other than None
        env.step(joint[seat])
    assert _aec_snapshot(env) == before
    while env.agents:
        env.step(None)
    env.reset(seed=k)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    TALLY["AEC env, penalize: penalised, unchanged, playable"] += 1


def _gym_snapshot(env) -> tuple[Any, ...]:
    return json.dumps(env.save_game()), env._observation().tobytes(), env.action_masks().tobytes()


def _gym_bad_action(k: int, action, chooser_seed: int) -> None:
    saved, state = _position(k)
    env = BasariGymEnv(**_env_args(saved, "raise"), seat=0)
    env.reset(options={"state": saved}, seed=chooser_seed)
    mask = env.action_masks()
    if _is_int(action) and 0 <= action < len(mask) and mask[int(action)]:
        return
    legal = int(np.flatnonzero(mask)[0])
    _refuses(
        "gym env",
        lambda: _gym_snapshot(env),
        lambda: env.step(action),
        lambda: env.step(legal),
        ValueError,
    )


POSITION = st.integers(0, 200)
SEED = st.integers(0, 2**16)
ACTION_BATTERIES = {
    # name: (check, examples in the default run, strategies)
    "reference step": (_reference_bad_action, 80, (POSITION, BAD_ACTIONS, SEED)),
    "reference joint": (_reference_bad_joint, 30, (POSITION, BAD_JOINTS)),
    "core step": (_core_bad_action, 80, (POSITION, BAD_ACTIONS, SEED)),
    "core batch": (_core_bad_batch, 30, (POSITION, BAD_BATCHES)),
    "parallel env": (_parallel_bad_action, 50, (POSITION, BAD_ACTIONS, SEED)),
    "AEC env": (_aec_bad_action, 50, (POSITION, BAD_ACTIONS, SEED)),
    "AEC env, penalize": (_aec_penalized_action, 50, (POSITION, BAD_ACTIONS, SEED)),
    "gym env": (_gym_bad_action, 40, (POSITION, BAD_ACTIONS, SEED)),
}


@pytest.mark.parametrize("api", list(ACTION_BATTERIES))
def test_bad_actions_are_refused_change_nothing_and_the_game_plays_on(api):
    check, examples, strategies = ACTION_BATTERIES[api]
    battery(check, examples, *strategies)()


def test_examples_of_bad_actions():
    state = new_game(BasariConfig(2), 1)
    with pytest.raises(IllegalActionError, match="got set"):
        engine.step(state, cast(Any, {30, 29}))  # played [29, 30], seats swapped, before
    core = init(BasariConfig(2), 1, seeds=1)
    with pytest.raises(IllegalActionError, match="illegal action 18446744073709551615") as refused:
        step(core, np.array([[2**64 - 1, 1]], np.uint64))
    assert refused.value.action == 2**64 - 1
    with pytest.raises(CorruptStateError, match=r"^actions: .*actions\[0\]\[0\] must be an int"):
        GameRecord.from_dict({"config": {"num_players": 2}, "seed": 1, "actions": [[1.4, "2"]]})
    for bad in ([[True, 1]], [["2", 1]], [[1.0, 1]]):
        with pytest.raises(CorruptStateError, match="must be an int"):
            GameRecord.from_dict({"config": {"num_players": 2}, "seed": 1, "actions": bad})


# ------------------------------------------------------------------------------ configurations
ANY = st.one_of(
    st.integers(-3, 6),
    st.sampled_from([2**31, 2**63, 2**64 - 1, 2**64, -(2**63)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1.0, 3.0, "3", "", "choose", "random", None, True, False, [], {}, (2,)]),
    st.builds(np.int64, st.integers(-3, 6)),
    st.builds(np.uint64, st.integers(0, 2**64 - 1)),
    st.builds(np.float32, st.integers(0, 5)),
    st.builds(np.bool_, st.booleans()),
)
ENTRY_POINTS = {
    # name: (argument named in the message, call, valid)
    "BasariConfig(num_players=)": (
        "num_players",
        lambda v: BasariConfig(num_players=v),
        lambda v: _is_int(v) and 2 <= v <= 4,
    ),
    "BasariConfig(start_mode=)": (
        "start_mode",
        lambda v: BasariConfig(start_mode=v),
        lambda v: isinstance(v, str) and v in ("choose", "random"),
    ),
    "parallel_env(num_players=)": (
        "num_players",
        lambda v: basari_v0.parallel_env(num_players=v),
        lambda v: _is_int(v) and 2 <= v <= 4,
    ),
    "new_game(seed=)": (
        "seed",
        lambda v: new_game(BasariConfig(2), v),
        lambda v: _is_int(v) and 0 <= v < 2**64,
    ),
    "GameRecord(seed=)": (
        "seed",
        lambda v: GameRecord(BasariConfig(2), v),
        lambda v: _is_int(v) and 0 <= v < 2**64,
    ),
}


def _check_argument(entry: str, value) -> None:
    name, call, valid = ENTRY_POINTS[entry]
    TALLY["config: tried"] += 1
    try:
        call(value)
        outcome, detail = "ok", ""
    except ValueError as exc:
        outcome, detail = "refused", str(exc)
    assert outcome == ("ok" if valid(value) else "refused"), (entry, value, detail)
    if outcome == "refused":
        assert name in detail, detail
        TALLY["config: refused naming it"] += 1
    else:
        TALLY["config: accepted"] += 1


def _argument_check(entry: str):
    return lambda value: _check_argument(entry, value)


def _board_check(which: str):
    return lambda change, as_array: _check_board(which, change, as_array)


@pytest.mark.parametrize("entry", list(ENTRY_POINTS))
def test_bad_arguments_are_refused_naming_them(entry):
    battery(_argument_check(entry), 40, ANY)()


ENTRY = st.one_of(
    st.integers(0, 30),
    st.sampled_from([-1, 26, 1000, 1001, 2**31, 2**40, 2**63, 2**64 - 1, 2**70, -(2**63)]),
    st.sampled_from([4.0, 5.5, float("inf"), float("-inf"), float("nan"), 1e300, 2.0**63]),
    st.sampled_from([True, False, "5", None]),
)
BOARD_MUTATION = st.tuples(st.integers(0, 39), st.integers(0, 4), ENTRY)


def _valid_entry(value, col: int) -> bool:
    whole = isinstance(value, float) and np.isfinite(value) and value == int(value)
    high = MAX_ARCHWAY_POINTS if col == 0 else GEMS_PER_COLOUR
    ok = not isinstance(value, bool) and (isinstance(value, int) or whole)
    return ok and 0 <= value <= high


def _check_board(which: str, change, as_array: bool) -> None:
    """A board with one entry changed is accepted exactly when every entry is an integer
    (or whole finite float) in range; refused naming the entry and showing the value as
    given; an accepted board's points reach the core unwrapped and its games play
    identically in both engines."""
    k, col, value = change
    rows = BOARDS[which].tolist()
    k %= len(rows)
    rows[k][col] = value
    board = rows
    if as_array:
        try:
            board = np.array(rows)
        except (OverflowError, ValueError):
            board = rows
    TALLY["board: tried"] += 1
    valid = _valid_entry(value, col) or (
        as_array
        and isinstance(board, np.ndarray)
        and board.dtype.kind in "iu"
        and not isinstance(value, bool)
        and _valid_entry(int(value), col)
    )
    try:
        config = BasariConfig(3, "random", board)
    except ValueError as exc:
        assert not valid, (which, change, exc)
        if isinstance(board, np.ndarray) and board.dtype.kind not in "iufbO":  # all strings
            assert str(exc).startswith("board[0].points must be an integer, got '"), exc
            TALLY["board: refused naming the entry"] += 1
            return
        where = f"board[{k}]."
        assert where in str(exc) or "board must" in str(exc), exc
        given = board[k][col]  # as the board holds it (numpy may have converted a list)
        shown = repr(given.item() if isinstance(given, np.generic) else given)
        assert str(exc).endswith(shown) or "board must" in str(exc) or "dtype" in str(exc), exc
        TALLY["board: refused naming the entry"] += 1
        return
    assert valid or isinstance(board, np.ndarray), (which, change)
    assert tables(config).points.tolist() == config.board[:, 0].tolist()
    play_both_to_the_end(new_game(config, k), k)
    TALLY["board: accepted, played identically"] += 1


@pytest.mark.parametrize("which", list(BOARDS))
def test_boards_are_accepted_exactly_when_finite_bounded_ints(which):
    battery(_board_check(which), 40, BOARD_MUTATION, st.booleans())()


@pytest.mark.parametrize("config", [None, {}, {"num_players": 2}, "choose", 3])
def test_a_config_that_is_not_a_basari_config_is_a_type_error_naming_it(config):
    with pytest.raises(TypeError, match="config must be a BasariConfig"):
        init(config, 1)
    if config is not None:  # new_game(None) is the default configuration
        with pytest.raises(TypeError, match="config must be a BasariConfig"):
            new_game(config, 1)


# ------------------------------------------------------------------------------ determinism
GAME_SCRIPT = """
import hashlib, json, sys
import numpy as np
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import init, legal_action_mask, step
from asara_env.basari.bridge import to_reference
from asara_env.basari.reference.serialize import state_to_dict
from tests.basari.fuzzing import BOARD_40
seed, players, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
config = BasariConfig(players, mode, BOARD_40)
core, rng = init(config, 3, seeds=seed), np.random.default_rng(seed)
for _ in range(400):
    mask = legal_action_mask(core)
    step(core, [[int(rng.choice(np.flatnonzero(m))) for m in g] for g in mask])
games = [state_to_dict(to_reference(core, i)) for i in range(3)]
print(hashlib.sha256(json.dumps(games, sort_keys=True).encode()).hexdigest())
"""


def _game_hash(seed: int, players: int, mode: str, hash_seed: str) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": hash_seed}
    out = subprocess.run(
        [sys.executable, "-c", GAME_SCRIPT, str(seed), str(players), mode],
        capture_output=True, text=True, env=env, cwd=ROOT, check=True, timeout=300,
    )  # fmt: skip
    return out.stdout.strip()


@pytest.mark.parametrize("seed, players, mode", [(7, 4, "choose"), (2**64 - 1, 2, "random")])
def test_the_same_seed_plays_the_same_game_in_separate_processes(seed, players, mode):
    first, second = _game_hash(seed, players, mode, "1"), _game_hash(seed, players, mode, "2")
    assert first == second and len(first) == 64
    assert _game_hash(seed + 1 if seed < 2**64 - 1 else 0, players, mode, "1") != first


# ------------------------------------------------------------------------------ slow runs
@pytest.mark.slow
def test_5000_mutated_saves_are_refused_naming_a_field_or_play_identically():
    TALLY.clear()
    battery(check_saved, 5000, *SAVES)()
    _tally("saved-state battery")
    assert TALLY["tried"] >= 5000 and TALLY["tried"] == TALLY["refused"] + TALLY["loaded"]


@pytest.mark.slow
def test_thousands_of_bad_actions_are_refused_and_change_nothing():
    TALLY.clear()
    with warnings.catch_warnings():
        for check, examples, strategies in ACTION_BATTERIES.values():
            battery(check, 10 * examples, *strategies)()
    _tally("bad-action battery")
    for api in ACTION_BATTERIES:
        done = (
            TALLY[f"{api}: refused, unchanged, playable"]
            + TALLY[f"{api}: penalised, unchanged, playable"]
        )
        assert done == TALLY[f"{api}: tried"] > 0, api
    assert TALLY["AEC env, penalize: penalised, unchanged, playable"] > 0


@pytest.mark.slow
def test_hundreds_of_bad_configurations_and_boards_are_refused_naming_them():
    TALLY.clear()
    for entry in ENTRY_POINTS:
        battery(_argument_check(entry), 200, ANY)()
    for which in BOARDS:
        battery(_board_check(which), 200, BOARD_MUTATION, st.booleans())()
    _tally("configuration battery")
    assert TALLY["config: tried"] == TALLY["config: refused naming it"] + TALLY["config: accepted"]
    assert TALLY["board: tried"] == (
        TALLY["board: refused naming the entry"] + TALLY["board: accepted, played identically"]
    )
