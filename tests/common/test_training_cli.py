"""The training and evaluation commands of both games before any work: their arguments are
checked (`--help` included) without importing torch or stable-baselines3, and an
evaluation refuses a model trained for another player count unless told otherwise."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from agents.models import model_path  # noqa: E402
from training.evaluation.asara import evaluate as asara_evaluate  # noqa: E402
from training.evaluation.basari import evaluate as basari_evaluate  # noqa: E402
from training.evaluation.evaluate import TRAINED_PLAYERS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("torch", "stable_baselines3", "sb3_contrib")


@pytest.mark.parametrize("game", ["asara", "basari"])
@pytest.mark.parametrize("argv", [["--envs", "0"], ["--help"]])
def test_train_checks_its_arguments_before_importing_torch(game, argv):
    code = (
        "import sys\n"
        f"from training.{game}.train import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit as e:\n"
        f"    print(e.code, [m for m in {HEAVY!r} if m in sys.modules])\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    status, imported = run.stdout.strip().splitlines()[-1].split(" ", 1)
    assert status == ("2" if argv[0] == "--envs" else "0"), run.stderr
    assert imported == "[]", f"{game}-train {argv} imported {imported}"


def _usage_error(main, argv, capsys) -> str:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


@pytest.mark.parametrize(
    "main, argv, trained, asked",
    [
        (basari_evaluate.main, ["--model", "ppo_2p", "--players", "4"], 2, 4),
        (asara_evaluate.main, ["--model", "ppo_4p", "--players", "2"], 4, 2),
        (asara_evaluate.main, ["--model", "ppo_2p", "--players", "3"], 2, 3),
    ],
)
def test_evaluate_refuses_a_model_of_another_player_count(main, argv, trained, asked, capsys):
    line = _usage_error(main, argv, capsys)
    assert f"was trained for {trained} players, not {asked}" in line, line
    assert "--any-players" in line


def test_any_players_evaluates_it_all_the_same():
    args = basari_evaluate.parse_args(["--model", "ppo_2p", "--players", "4", "--any-players"])
    assert args.players == 4 and args.model_path == model_path("basari", "ppo_2p")


def test_the_count_of_a_run_comes_from_the_model_or_its_run_json(tmp_path, capsys):
    """A model the training saved knows its count; an older one is found by its run.json
    (beside it, or above its checkpoints/ folder)."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(model_path("basari", "ppo_3p"), device="cpu")
    setattr(model, TRAINED_PLAYERS, 3)
    model.save(tmp_path / "final.zip")
    line = _usage_error(basari_evaluate.main, ["--model", str(tmp_path / "final.zip")], capsys)
    assert "was trained for 3 players, not 4" in line

    delattr(model, TRAINED_PLAYERS)
    (tmp_path / "checkpoints").mkdir()
    model.save(tmp_path / "checkpoints" / "model_64_steps.zip")
    (tmp_path / "run.json").write_text(json.dumps({"args": {"players": 2}}))
    argv = ["--model", str(tmp_path / "checkpoints" / "model_64_steps.zip")]
    assert "was trained for 2 players, not 4" in _usage_error(basari_evaluate.main, argv, capsys)
    (tmp_path / "run.json").write_text(json.dumps({"settings": {"players": 3}}))  # today's
    assert "was trained for 3 players, not 4" in _usage_error(basari_evaluate.main, argv, capsys)
    (tmp_path / "run.json").unlink()  # nothing says: refused, unless --any-players
    line = _usage_error(basari_evaluate.main, argv, capsys)
    assert "does not say which player count it was trained for" in line
    assert "--any-players" in line
    assert basari_evaluate.parse_args([*argv, "--any-players"]).players == 4


@pytest.mark.parametrize("copied", [False, True])
def test_a_shipped_model_given_by_path_is_held_to_its_count(copied, tmp_path, capsys):
    path = model_path("asara", "ppo_2p")
    if copied:
        (tmp_path / "mine.zip").write_bytes(path.read_bytes())
        path = tmp_path / "mine.zip"
    line = _usage_error(asara_evaluate.main, ["--model", str(path), "--players", "4"], capsys)
    assert "was trained for 2 players, not 4" in line
    assert asara_evaluate.parse_args(["--model", str(path), "--players", "2"]).players == 2


def test_asaras_defaults_clone_towers_and_reward_the_margin(tmp_path):
    from training.asara import train

    args = train.parse_args(["--out", str(tmp_path / "run")])
    assert (args.reward, args.bc_expert, args.bc_games) == ("margin", "towers", 200)
    assert "random" in args.opponents[0]  # an opponent the first policy can beat
    none = train.parse_args(["--bc-expert", "none", "--out", str(tmp_path / "run")])
    assert none.bc_expert is None


def test_a_policy_opponents_model_is_held_to_the_player_count(tmp_path, capsys):
    """A `policy:model=FILE` opponent's file is held to --players as --model is."""
    two = str(model_path("basari", "ppo_2p"))
    four = ["--model", "ppo_4p", "--players", "4"]
    argv = [*four, "--opponents", f"random,policy:model={two}"]
    line = _usage_error(basari_evaluate.main, argv, capsys)
    assert "argument --opponents:" in line and "was trained for 2 players, not 4" in line
    assert basari_evaluate.parse_args([*argv, "--any-players"]).players == 4
    line = _usage_error(basari_evaluate.main, [*four, "--opponents", "random,ppo_3p"], capsys)
    assert "argument --opponents: ppo_3p was trained for 3 players, not 4" in line
    fitting = f"policy:model={model_path('basari', 'ppo_4p')}"
    assert basari_evaluate.parse_args([*four, "--opponents", f"ppo_4p,{fitting}"]).players == 4
