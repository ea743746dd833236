"""core.outcome: terminal flags, winners (R8.5) and the reward schemes built on final
prestige, checked on worked examples, as properties, and against the reference engine."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from asara_env.asara.bridge.convert import from_reference
from asara_env.asara.core import (
    current_seat,
    final_prestige,
    is_terminal,
    terminal_rewards,
    winners,
)
from asara_env.asara.core.outcome import MARGIN_SCALE, REWARD_SCHEMES
from asara_env.asara.reference import engine
from tests.asara.games import CONFIGS, IDS, game_states

prestige_rows = st.lists(st.integers(0, 120), min_size=2, max_size=4)


def rewards(row, scheme):
    return terminal_rewards(np.array([row]), scheme)[0].tolist()


@pytest.mark.parametrize(
    "row, want",
    [
        ([30, 20], [1, -1]),
        ([20, 20], [0, 0]),
        ([31, 30, 30], [1, -0.5, -0.5]),
        ([30, 30, 12], [0.5, 0.5, -1]),
        ([9, 9, 9, 9], [0, 0, 0, 0]),
        ([40, 10, 40, 5], [0.5, -0.5, 0.5, -0.5]),
    ],
)
def test_r8_5_win_rewards_share_the_win_among_tied_leaders(row, want):
    assert rewards(row, "win") == pytest.approx(want)
    assert winners(np.array(row)).tolist() == [x > 0 for x in want] or max(want) == 0


@pytest.mark.parametrize(
    "row, want",
    [
        ([30, 20], [1, -1]),
        ([10, 20, 30], [-1, 0, 1]),
        ([30, 30, 12], [0.5, 0.5, -1]),
        ([5, 40, 40, 40], [-1, 1 / 3, 1 / 3, 1 / 3]),
        ([7, 7, 7, 7], [0, 0, 0, 0]),
    ],
)
def test_rank_rewards_are_linear_in_place_with_ties_averaged(row, want):
    assert rewards(row, "rank") == pytest.approx(want)


def test_margin_is_own_minus_best_opponent_scaled():
    assert rewards([30, 20, 25], "margin") == pytest.approx(
        [5 / MARGIN_SCALE, -10 / MARGIN_SCALE, -5 / MARGIN_SCALE]
    )


@given(prestige_rows)
def test_win_and_rank_rewards_are_zero_sum_and_order_preserving(row):
    for scheme in ("win", "rank"):
        r = np.array(rewards(row, scheme))
        assert abs(r.sum()) < 1e-5
        assert r.max() <= 1 + 1e-6 and r.min() >= -1 - 1e-6
        for i in range(len(row)):
            for j in range(len(row)):
                if row[i] > row[j]:
                    assert r[i] >= r[j]
                if row[i] == row[j]:
                    assert r[i] == r[j]


@given(st.integers(0, 120), st.integers(0, 120))
def test_two_player_margin_is_zero_sum(a, b):
    assert sum(rewards([a, b], "margin")) == pytest.approx(0.0)


def test_unknown_scheme_is_refused():
    with pytest.raises(ValueError, match="reward must be one of"):
        terminal_rewards(np.zeros((1, 2)), "elo")
    assert set(REWARD_SCHEMES) == {"win", "rank", "margin"}


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_terminal_flags_seat_and_winners_match_the_reference(config):
    states = game_states(config, 31)
    picks = states[::7] + states[-1:]
    core = from_reference(picks)
    assert is_terminal(core).tolist() == [s.is_over for s in picks]
    assert current_seat(core).tolist() == [s.seat for s in picks]
    end = picks[-1]
    assert final_prestige(core)[-1].tolist() == end.prestige
    assert np.flatnonzero(winners(final_prestige(core)[-1])).tolist() == engine.winners(end)
