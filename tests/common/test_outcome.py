"""The shared outcome (asara_env.common.outcome) and both cores' `scores`: terminal flags,
winners (R8.5, B10) and each game's reward schemes built on its final scores, checked on
worked examples, as properties, and against the reference engines."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from asara_env.asara.bridge.convert import from_reference
from asara_env.asara.core import (
    current_seat,
    is_terminal,
    scores,
    terminal_rewards,
    winners,
)
from asara_env.asara.core.outcome import MARGIN_SCALE, REWARD_SCHEMES
from asara_env.asara.reference import engine
from asara_env.basari import core as basari_core
from asara_env.basari.config import BasariConfig
from asara_env.common import outcome
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
    assert scores(core)[-1].tolist() == end.prestige
    assert np.flatnonzero(winners(scores(core)[-1])).tolist() == engine.winners(end)


def test_each_game_declares_its_schemes_under_the_same_names_with_one_margin_scale():
    assert {
        "win": outcome.zero_sum_win_rewards,
        "rank": outcome.rank_rewards,
        "margin": outcome.margin_over_best_rewards,
    } == REWARD_SCHEMES
    assert {
        "win": outcome.win_share_rewards,
        "rank": outcome.rank_rewards,
        "margin": basari_core.outcome.margin_over_mean_points,
    } == basari_core.REWARD_SCHEMES
    assert MARGIN_SCALE == basari_core.outcome.MARGIN_SCALE == outcome.MARGIN_SCALE == 50.0
    untyped: Any = outcome.terminal_rewards  # called without its table on purpose
    with pytest.raises(TypeError):  # the shared function has no game's default table
        untyped(np.zeros((1, 2)), "win")
    with pytest.raises(ValueError, match=r"reward must be one of \['margin', 'rank', 'win'\]"):
        basari_core.terminal_rewards(np.zeros((1, 2)), "elo")


def _basari_state(score, gems):
    state = basari_core.init(BasariConfig(num_players=len(score)), 1, seeds=0)
    state.score[0], state.gems[0] = score, gems
    return state


def test_basari_scores_fold_the_b10_tie_breaks_and_the_shared_winners_take_them():
    gems = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 2, 0]]
    state = _basari_state([12, 12, 5], gems)
    score = basari_core.scores(state)
    assert score.dtype == np.int64 and score.shape == (1, 3)
    assert winners(score).tolist() == [[True, False, False]]  # red beats yellow (B10.2)
    assert basari_core.winners is outcome.winners is winners
    assert basari_core.points(score).tolist() == [[12, 12, 5]]
    assert basari_core.terminal_rewards(score, "win").tolist() == [[1.0, 0.0, 0.0]]
    assert basari_core.terminal_rewards(score, "rank").tolist() == [[1.0, 0.0, -1.0]]
    tied = basari_core.scores(_basari_state([12, 12, 5], [[1, 0, 0, 0]] * 2 + [[0] * 4]))
    assert basari_core.terminal_rewards(tied, "win").tolist() == [[0.5, 0.5, 0.0]]


@given(
    st.lists(st.integers(-40, 300), min_size=2, max_size=4),
    st.lists(st.integers(0, 25), min_size=16, max_size=16),
)
def test_basari_margin_is_on_the_points_alone(points, gems):
    p = len(points)
    state = _basari_state(points, np.array(gems[: 4 * p]).reshape(p, 4))
    score = basari_core.scores(state)
    assert basari_core.points(score).tolist() == [points]
    want = outcome.margin_over_mean_rewards(np.array([points]))
    assert basari_core.terminal_rewards(score, "margin").tolist() == want.tolist()
    assert abs(float(want.sum())) < 1e-5


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", ["asara", "basari"])
def test_each_scheme_declares_its_share_map_and_the_declaration_is_true(game, players):
    """An exact map turns every outcome without ties into the win shares; a monotone one
    (`rank` at 3 or 4 seats) into 1 - place / (n - 1); a scheme without one has rewards that
    no (a, b) maps to the win shares (a tie-free outcome's losers get different rewards)."""
    from asara_env.games import reward_schemes

    rng = np.random.default_rng(players)
    points = np.stack([rng.choice(np.arange(1, 60), players, replace=False) for _ in range(64)])
    scores = points.astype(np.int64) * 10**11  # far apart: BASARI's tie-break keys and all
    shares = outcome.win_shares(scores)
    for name, scheme in reward_schemes(game).items():
        rewards = np.asarray(scheme(scores, MARGIN_SCALE), np.float64)
        found = outcome.share_map(scheme, players)
        if found is None:
            losers = rewards[shares == 0]
            assert np.ptp(losers) > 0, f"{game} {name}: an affine map was left undeclared"
        elif found.exact:
            assert np.allclose(found.a * rewards + found.b, shares), f"{game} {name}"
        else:
            assert np.allclose(
                found.a * rewards + found.b, 1 - outcome.places(scores) / (players - 1)
            )
            assert not np.allclose(found.a * rewards + found.b, shares)
