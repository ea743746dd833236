"""`examples.checks.check_games`, the check every recipe ends with (runs without the
integration extra: it needs numpy only)."""

from __future__ import annotations

import numpy as np
import pytest

from examples.checks import check_games, win_reward_sum


def test_win_reward_returns_pass_and_come_back_as_an_array():
    every_seat = [[1.0, -1 / 3, -1 / 3, -1 / 3], [0.5, 0.5, -0.5, -0.5]]
    assert check_games(0, every_seat).shape == (2, 4)
    assert check_games(0, [1.0, -1.0, 0.0]).tolist() == [1.0, -1.0, 0.0]


@pytest.mark.parametrize(
    ("illegal", "returns", "what", "message"),
    [
        (2, [[1.0, -1.0]], "game", "2 illegal actions were taken"),
        (0, [], "test game", "no test game finished"),
        (0, [[1.5, -1.5]], "game", "returns outside"),
        (0, [1.0, -1.25], "game", "returns outside"),
        (0, [[1.0, 0.0]], "game", "not summing to 0.0"),
    ],
)
def test_each_broken_promise_is_named(illegal, returns, what, message):
    with pytest.raises(AssertionError, match=message):
        check_games(illegal, returns, what)


def test_each_games_rows_sum_as_its_win_reward_does():
    assert win_reward_sum("asara") == 0.0 and win_reward_sum("basari") == 1.0
    assert check_games(0, [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0]], game="basari").shape == (2, 3)
    with pytest.raises(AssertionError, match="not summing to 1.0"):
        check_games(0, [[1.0, -1.0]], game="basari")


def test_one_seats_returns_need_not_sum_to_zero():
    assert np.array_equal(check_games(0, [1.0, 1.0]), [1.0, 1.0])
