"""The shipped ASARA self-play models' headline strength (slow: `python -m pytest -m slow
tests/asara/test_model_strength.py`), on seeds no training run used (`EVALUATION_SEED`),
seats rotated, 95% Wilson intervals:

- `sp_2p` and `sp_4p` alone (their most probable legal action) against P - 1 copies of the
  PPO model each started from, 2,000 games: the lower end above the fair share 1/P;
- each against P - 1 towers, 400 games: above the fair share;
- `sp_2p` with 32 simulations of the Gumbel root (its policy as the prior, its playouts to
  the end) against `ppo_2p`, 400 games: the lower end above 0.6.

docs/performance.md ("ASARA's self-play networks") gives the figures of these matches.
"""

from __future__ import annotations

from typing import Any

import pytest

from agents.models import MODELS, STRONGEST, TRAINED_FOR, model_path
from training.evaluation.heads_up import heads_up

pytest.importorskip("sb3_contrib")

EVALUATION_SEED = 20261128  # the self-play runs used seeds 71 to 83 (docs/performance.md)
HEAD_TO_HEAD_GAMES = 2000
GAMES = 400
STARTS = {"sp_2p": "ppo_2p", "sp_4p": "ppo_4p"}  # the model each self-play run started from
SEARCH_32 = "gumbel:32:prior=sp_2p:playout=sp_2p"
SEARCH_BAR = 0.6  # the 32-simulation search's lower bound against ppo_2p


def test_the_self_play_models_are_shipped_and_the_strongest_at_their_counts() -> None:
    assert set(STARTS) <= set(MODELS["asara"])
    for name, start in STARTS.items():
        assert TRAINED_FOR["asara"][name] == TRAINED_FOR["asara"][start]
        assert STRONGEST["asara"][TRAINED_FOR["asara"][name]] == name


def _alone(name: str, opponent: str, games: int) -> dict[str, Any]:
    """`asara-evaluate --model NAME --opponents OPPONENT`: the network alone in one seat."""
    from training.evaluation.asara.evaluate import evaluate

    players = TRAINED_FOR["asara"][name]
    path = model_path("asara", name)
    (row,) = evaluate(path, players, "basic", games, [opponent], EVALUATION_SEED)
    assert row["games"] == games and row["fair_share"] == pytest.approx(1 / players)
    return row


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(STARTS))
def test_a_self_play_model_beats_the_ppo_model_it_started_from(name: str) -> None:
    row = _alone(name, STARTS[name], HEAD_TO_HEAD_GAMES)
    assert row["ci_low"] > row["fair_share"], row


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(STARTS))
def test_a_self_play_model_beats_towers(name: str) -> None:
    row = _alone(name, "towers", GAMES)
    assert row["ci_low"] > row["fair_share"], row


@pytest.mark.slow
def test_sp_2p_with_32_simulations_beats_ppo_2p_by_a_wide_margin() -> None:
    result = heads_up("asara", SEARCH_32, "ppo_2p", GAMES, EVALUATION_SEED, 10, None, False)
    assert result["games"] == GAMES and result["ci_low"] > SEARCH_BAR, result
