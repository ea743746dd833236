"""The shipped models by name (agents/models.py) wherever an agent is named, and the clear
error for a name that is neither a baseline nor a shipped model; asara-evaluate's progress
bar."""

from __future__ import annotations

import numpy as np
import pytest

from agents.models import MODELS, model_path
from agents.policy_agent import PolicyAgent
from agents.registry import agent_names, make_agent, unknown_agents_error
from apps.asara.play import lineup
from asara_env.asara.config import GameConfig

pytest.importorskip("sb3_contrib")


def test_every_shipped_model_name_points_to_an_existing_file():
    assert set(MODELS["asara"]) == {"ppo_2p", "ppo_4p", "sp_2p", "sp_4p"}
    for name in MODELS["asara"]:
        assert model_path("asara", name).is_file()
    assert set(MODELS["asara"]) <= set(agent_names("asara"))


def test_an_unknown_name_is_refused_naming_the_agents_and_models_that_exist():
    with pytest.raises(ValueError) as err:
        make_agent("asara", "ppo")
    for name in ("'ppo'", "towers", "ppo_2p", "ppo_4p"):
        assert name in str(err.value)
    assert unknown_agents_error("asara", ["random", "ppo_4p"]) is None


def test_a_shipped_model_by_name_plays_legal_actions():
    from asara_env import GameConfig
    from asara_env.asara.core import init, legal_action_mask
    from asara_env.asara.core.observation import observe

    agent = make_agent("asara", "ppo_2p", seed=3)
    assert isinstance(agent, PolicyAgent) and agent.name == "ppo_2p"
    state = init(GameConfig(num_players=2), batch=8, seeds=0)
    mask = legal_action_mask(state)
    actions = agent.act_batch(observe(state, state.seat), mask)
    assert mask[np.arange(8), actions].all()


def test_asara_play_takes_a_model_as_opponent_and_names_the_models_on_a_typo():
    seats = lineup(GameConfig(2), "ppo_4p", 0)
    assert seats == [None, "ppo_4p"]
    with pytest.raises(
        ValueError, match="shipped models: \\['ppo_2p', 'ppo_4p', 'sp_2p', 'sp_4p'\\]"
    ):
        lineup(GameConfig(2), "ppo2", 0)


def test_the_tournament_plays_a_shipped_model_by_name():
    from training.evaluation.tournament import run_tournament

    results = run_tournament("asara", ["ppo_2p", "random"], [2], games=2, seed=0, progress=False)
    assert results[0].scores.shape == (2, 2)


def test_asara_evaluate_takes_model_opponents_and_names_the_models_on_a_typo(capsys):
    from training.evaluation.asara import evaluate

    model = str(model_path("asara", "ppo_2p"))
    args = evaluate.parse_args(["--model", model, "--opponents", "sp_2p,towers"])
    assert args.opponents == ["sp_2p", "towers"]
    with pytest.raises(SystemExit):
        evaluate.parse_args(["--model", model, "--opponents", "ppo"])
    assert "shipped models: ['ppo_2p', 'ppo_4p', 'sp_2p', 'sp_4p']" in capsys.readouterr().err


def test_asara_evaluate_shows_a_progress_bar(capsys):
    from training.evaluation.asara import evaluate

    evaluate.main(
        ["--model", str(model_path("asara", "ppo_2p")), "--games", "2", "--opponents", "random"]
    )
    out, err = capsys.readouterr()
    assert "1 x random" in out
    assert "evaluate" in err and "2/2" in err
    evaluate.main(
        [
            "--model",
            str(model_path("asara", "ppo_2p")),
            "--games",
            "2",
            "--opponents",
            "random",
            "--quiet",
        ]
    )
    assert "evaluate" not in capsys.readouterr().err
