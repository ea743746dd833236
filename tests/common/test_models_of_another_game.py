"""A model of one game given to another game's evaluation is refused with a one-line
usage error naming the mismatch, never a tensor-shape traceback."""

from __future__ import annotations

import pytest

pytest.importorskip("sb3_contrib")

from agents.models import model_path  # noqa: E402
from training.evaluation.asara import evaluate as asara_evaluate  # noqa: E402
from training.evaluation.basari import evaluate as basari_evaluate  # noqa: E402


def _usage_error(main, model: str, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exc:
        main(["--model", model])
    assert exc.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


def test_asara_evaluate_refuses_a_basari_model(capsys: pytest.CaptureFixture[str]) -> None:
    line = _usage_error(asara_evaluate.main, str(model_path("basari", "ppo_4p")), capsys)
    assert line.startswith("asara-evaluate: error: argument --model:")
    assert "a model of another game?" in line and "asara at 2 players" in line


def test_basari_evaluate_refuses_an_asara_model(capsys: pytest.CaptureFixture[str]) -> None:
    line = _usage_error(basari_evaluate.main, str(model_path("asara", "ppo_2p")), capsys)
    assert line.startswith("basari-evaluate: error: argument --model:")
    assert "a model of another game?" in line
