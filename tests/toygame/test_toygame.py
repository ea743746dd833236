"""The test game proves the seam: defined only here, registered by conftest.py, it passes
the whole conformance battery (tests/common/conformance.py) and a tournament through the
shared tournament by name, with no file outside this folder edited for it."""

from __future__ import annotations

import numpy as np
import pytest

from asara_env import games
from tests.common.conformance import (
    CHECKS,
    Subject,
    check_pettingzoo,
    config_id,
    configs,
    env_kwargs,
)
from training.evaluation.tournament import run_tournament

from . import reference
from .rules import ToyConfig

NAME = "toygame"
CONFIGS = [ToyConfig(n) for n in (2, 3, 4)]


def test_the_card_is_registered_and_its_core_has_the_verbs():
    assert NAME in games.available_games()
    assert [config_id(NAME, c) for c in configs(NAME)] == ["toygame-2p", "toygame-3p", "toygame-4p"]
    games.load_core(NAME)


@pytest.mark.parametrize("check", list(CHECKS))
@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c.num_players}p")
def test_the_battery(config, check):
    CHECKS[check](Subject.of(NAME, config))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo(players):
    assert {"num_players": players} in env_kwargs(NAME)
    check_pettingzoo(NAME, {"num_players": players})


def test_a_tournament_by_name():
    played = run_tournament(NAME, ["random", "high"], [2, 3], games=8, seed=1)
    assert [p.players for p in played] == [2, 3]
    for p in played:
        assert p.scores.shape == (len(p.seating), p.players) and (p.scores >= 0).all()
    again = run_tournament(NAME, ["random", "high"], [2, 3], games=8, seed=1)
    assert all(np.array_equal(a.scores, b.scores) for a, b in zip(played, again))


def test_rule_the_sole_highest_bid_wins_the_prize_and_everyone_pays():
    game = reference.new_game(ToyConfig(3), 5)
    prize = game.prizes[0]
    reference.step(game, [3, 1, 1])
    assert game.points == [prize, 0, 0] and game.coins == [2, 4, 4]
    reference.step(game, [2, 2, 0])  # a tied highest bid wins nothing
    assert game.points == [prize, 0, 0] and game.coins == [1, 3, 5]
