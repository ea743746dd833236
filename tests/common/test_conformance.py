"""The conformance battery (tests/common/conformance.py) on every registered game, in
every configuration its adapter lists: fields, masks, determinism, batch independence,
refused actions, autoreset, reward sums, the lockstep differential and PettingZoo's tests.
A game added to the registry is checked here without a line changing."""

from __future__ import annotations

import pytest

from asara_env.games import available_games
from tests.common.backends import backend_params
from tests.common.conformance import (
    CHECKS,
    Subject,
    check_pettingzoo,
    config_id,
    configs,
    env_kwargs,
)

CASES = [
    pytest.param(game, config, backend.values[0], id=f"{config_id(game, config)}-{backend.id}",
                 marks=backend.marks)
    for game in available_games()
    for config in configs(game)
    for backend in backend_params(game)
]  # fmt: skip
ENVS = [(game, kw) for game in available_games() for kw in env_kwargs(game)]
ENV_IDS = [f"{game}-" + "-".join(f"{k}={v}" for k, v in kw.items()) for game, kw in ENVS]


@pytest.mark.parametrize("check", list(CHECKS))
@pytest.mark.parametrize(("game", "config", "backend"), CASES)
def test_conformance(game, config, backend, check):
    CHECKS[check](Subject.of(game, config, backend))


@pytest.mark.parametrize(("game", "kwargs"), ENVS, ids=ENV_IDS)
def test_pettingzoo_api_and_seed_tests(game, kwargs):
    check_pettingzoo(game, kwargs)
