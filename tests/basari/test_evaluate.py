"""`basari-evaluate`: the shared evaluation (training/evaluation/evaluate.py) for BASARI, with
`asara-evaluate`'s flags: a shipped model by name or a file, named opponents, seats
rotated, Wilson intervals, a progress bar; bad models and flags are usage errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from agents.models import model_path  # noqa: E402
from training.evaluation.basari import evaluate  # noqa: E402
from training.evaluation.tournament import game_seeds  # noqa: E402
from training.evaluation.tournament_stats import wilson_interval  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MODEL = model_path("basari", "ppo_4p")


def test_a_shipped_model_by_name_against_named_opponents(capsys):
    argv = ["--model", "ppo_2p", "--players", "2", "--games", "4", "--opponents", "random,value"]
    assert evaluate.main([*argv, "--seed", "3"]) == 0
    out, err = capsys.readouterr()
    model = model_path("basari", "ppo_2p")
    assert out.startswith(f"{model}: 2 players, BASARI, choose start, 4 games each\n")
    assert "1 x random" in out and "1 x value" in out and "95% Wilson" in out
    assert "evaluate" in err and "8/8" in err  # the progress bar: every game of both


def test_a_model_file_by_path_writes_json_and_a_plot_with_intervals(tmp_path, capsys):
    out = tmp_path / "eval"
    three = model_path("basari", "ppo_3p")  # by path: held to the count it was trained for
    argv = ["--model", str(three), "--players", "3", "--games", "6", "--opponents", "value"]
    assert evaluate.main([*argv, "--seed", "5", "--quiet", "--out", str(out)]) == 0
    assert "evaluate" not in capsys.readouterr().err
    (row,) = json.loads((out / "evaluation_3p.json").read_text())
    assert (out / "evaluation_3p.png").read_bytes()[:4] == b"\x89PNG"
    assert row["players"] == 3 and row["games"] == 6 and row["fair_share"] == pytest.approx(1 / 3)
    low, high = wilson_interval(row["win_rate"] * 6, 6)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high))
    assert row["ci_low"] <= row["win_rate"] <= row["ci_high"] and row["mean_points"] > 0


def test_the_function_and_the_command_play_the_same_seeded_games(tmp_path):
    """`evaluate(...)` (basari-train's final evaluation) is the command's row; the games
    are `game_seeds(seed, P, G)`, the model's seat rotated."""
    row = evaluate.evaluate(str(MODEL), 4, "points_first", 8, seed=11)
    again = evaluate.evaluate(str(MODEL), 4, "points_first", 8, seed=11)
    assert row == again
    evaluate.main(["--model", "ppo_4p", "--games", "8", "--opponents", "points_first",
                   "--seed", "11", "--quiet", "--out", str(tmp_path)])  # fmt: skip
    assert json.loads((tmp_path / "evaluation_4p.json").read_text()) == [row]
    seeds = evaluate.COMMAND.game_seeds(11, 4, 8)
    assert np.array_equal(seeds, game_seeds(11, 4, 8))


def _usage_error(module: str, *argv: str) -> str:
    """stderr of a command line that must be a usage error: exit status 2, no traceback,
    the message on the last line."""
    cmd = [sys.executable, "-m", module, *argv]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    return done.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--model", "README.md"], "README.md is not a saved MaskablePPO model"),
        (["--model", "nonexist.zip"], "no model at nonexist.zip"),
        (["--model", "ppo_5p"], "no model at ppo_5p"),  # no such shipped model
        (["--model", str(model_path("asara", "ppo_2p"))], "a model of another game?"),
        (["--model", "ppo_4p", "--players", "5"], "invalid choice: 5"),
        (["--model", "ppo_4p", "--games", "0"], "--games: must be at least 1"),
        (["--model", "ppo_4p", "--seed", "-1"], "--seed: must be a non-negative int"),
        (["--model", "ppo_4p", "--opponents", "towers"], "unknown agent 'towers' (game basari)"),
        (["--model", "ppo_4p", "--start-mode", "x"], "--start-mode: invalid choice: 'x'"),
        ([], "the following arguments are required: --model"),
    ],
)
def test_bad_models_and_flags_are_one_line_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        evaluate.main(argv)
    out, err = capsys.readouterr()
    line = err.strip().splitlines()[-1]
    assert exc.value.code == 2 and out == ""
    assert line.startswith("basari-evaluate: error:") and message in line


def test_a_bad_model_file_shows_no_traceback():
    line = _usage_error("training.evaluation.basari.evaluate", "--model", "README.md")
    assert line.startswith("basari-evaluate: error: argument --model: README.md is not a saved")
