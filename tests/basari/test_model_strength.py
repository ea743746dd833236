"""The shipped BASARI models' headline strength (slow: `python -m pytest -m slow
tests/basari/test_model_strength.py`): each model, at the player count it was trained for,
plays one seat against P - 1 copies of every baseline, 400 seat-rotated games on seeds no
training run used (`EVALUATION_SEED`, the seed of the tables in docs/agents.md); the lower
end of its 95% Wilson interval lies above the fair share 1/P."""

from __future__ import annotations

import pytest

from agents.basari import AGENTS
from agents.models import MODELS

EVALUATION_SEED = 20261125  # the training runs used 0, 1, 7 and 1000 on (training/ppo/run.py)
GAMES = 400
HEAD_TO_HEAD_GAMES = 2000  # a self-play model against its start: the margin is narrower
# each model's own player count
MODEL_PLAYERS = {"ppo_2p": 2, "ppo_3p": 3, "ppo_4p": 4, "sp_2p": 2, "sp_4p": 4}


def test_every_shipped_basari_model_has_its_player_count() -> None:
    assert set(MODEL_PLAYERS) == set(MODELS["basari"])


@pytest.mark.slow
@pytest.mark.parametrize("opponent", sorted(AGENTS))
@pytest.mark.parametrize("name", sorted(MODEL_PLAYERS))
def test_a_shipped_model_beats_every_baseline_at_its_player_count(name: str, opponent: str) -> None:
    pytest.importorskip("sb3_contrib")
    from agents.models import model_path
    from training.evaluation.basari.evaluate import evaluate

    players = MODEL_PLAYERS[name]
    result = evaluate(model_path("basari", name), players, opponent, GAMES, EVALUATION_SEED)
    assert result["games"] == GAMES and result["fair_share"] == pytest.approx(1 / players)
    assert result["ci_low"] > 1 / players, result


@pytest.mark.slow
@pytest.mark.parametrize("name, start", [("sp_2p", "ppo_2p"), ("sp_4p", "ppo_4p")])
def test_a_self_play_model_beats_the_ppo_model_it_started_from(name: str, start: str) -> None:
    """sp_2p / sp_4p (self-play from ppo_2p / ppo_4p towards flat search's improved
    policy) against P - 1 copies of the model it started from: 2,000 seat-rotated games,
    the lower end of its interval above the fair share."""
    pytest.importorskip("sb3_contrib")
    from agents.models import model_path
    from training.evaluation.basari.evaluate import evaluate

    players = MODEL_PLAYERS[name]
    games = HEAD_TO_HEAD_GAMES
    result = evaluate(model_path("basari", name), players, start, games, EVALUATION_SEED)
    assert result["games"] == games and result["ci_low"] > 1 / players, result
