"""ASARA's tournament: the CLI's files, seeds and rules (variant, expansions) through the
shared machinery."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from training.evaluation import tournament as T
from training.evaluation.asara import tournament as A

ROOT = Path(__file__).resolve().parents[2]


def run_cli(tmp_path: Path, *args: str, out: str = "out") -> Path:
    argv = ["--agents", "random", "--players", "2", "--games", "4", "--no-progress"]
    A.main([*argv, *args, "--out", str(tmp_path / out)])
    return tmp_path / out


# ---------------------------------------------------------------------------- files, CLI
def test_cli_writes_csv_json_and_png(tmp_path):
    out = tmp_path / "results"
    cmd = [sys.executable, "-m", "training.evaluation.tournament_cli", "asara",
           "--agents", "random", "--players", "2", "3", "--games", "3", "--seed", "5",
           "--out", str(out)]  # fmt: skip
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "win rate" in done.stdout and "Plackett-Luce" in done.stdout
    with open(out / "games.csv") as f:
        games = list(csv.DictReader(f))
    assert [int(g["players"]) for g in games] == [2] * 4 + [3] * 3  # 3 rounded up to 4 for P=2
    assert all(g["seat_0"] == "random" and g["score_1"] for g in games)
    assert "prestige" not in (out / "games.csv").read_text().splitlines()[0]
    assert games[0]["seat_2"] == "" and games[-1]["seat_2"] == "random"
    document = json.loads((out / "results.json").read_text())
    assert document["settings"]["seed"] == 5 and document["settings"]["game"] == "asara"
    assert document["settings"]["chunk_size"] == T.CHUNK_SIZE == 256
    assert len(document["games"]) == 7 and len(document["summary"]) == 2
    assert [int(g["seed"]) for g in games] == [g["seed"] for g in document["games"]]
    assert (out / "summary.csv").read_text().startswith("players,agent,games,wins,win_rate")
    assert (out / "ratings.csv").exists()
    assert (out / "win_rates.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_game_seeds_follow_the_documented_derivation(tmp_path):
    from asara_env.asara.core import derived_seed

    out = run_cli(tmp_path, "--seed", "11")
    with open(out / "games.csv") as f:
        seeds = [int(g["seed"]) for g in csv.DictReader(f)]
    assert seeds == [derived_seed(T.sub_seed(11, 2, 2), g) for g in range(4)]


def test_same_seed_same_csv_other_seed_other_games(tmp_path):
    a, b = run_cli(tmp_path, out="a"), run_cli(tmp_path, out="b")
    c = run_cli(tmp_path, "--seed", "1", out="c")
    for name in ("games.csv", "summary.csv", "ratings.csv", "results.json"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert (a / "games.csv").read_bytes() != (c / "games.csv").read_bytes()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--agents", "random,nosuchagent"], "unknown agent.*nosuchagent"),
        (["--agents", "random,random"], "named twice"),
        (["--players", "5"], "invalid choice: 5"),
        (["--games", "0"], "at least 1"),
        (["--seed", "-3"], "non-negative"),
        (["--chunk-size", "0"], "--chunk-size: must be at least 1"),
        (["--expansions", "gifts,dragons"], r"unknown expansion\(s\) \['dragons'\]"),
        (["--expansions", "genie"], "'genie' expansion needs the professional variant"),
    ],
)
def test_bad_arguments_are_argparse_errors(args, message, capsys):
    with pytest.raises(SystemExit) as exc:
        A.parse_args(args)
    assert exc.value.code == 2
    assert re.search(message, capsys.readouterr().err)


# ---------------------------------------------------------------------------- expansions (R9)
def test_expansions_reach_the_game_configuration(monkeypatch):
    configs = []

    def fake_play_batch(config, agents, seating, seeds, batch_size, bar):
        configs.append(config)
        return np.zeros(seating.shape, np.int64)

    monkeypatch.setattr(A, "play_batch", fake_play_batch)
    args = A.parse_args(["--variant", "pro", "--expansions", "gifts, genie", "--players", "2", "3"])
    assert args.expansions == ("gifts", "genie")
    results = T.run_tournament(args.game, ["random"], [2, 3], 2)
    assert [(c.num_players, c.variant, c.expansions) for c in configs] == [
        (2, "pro", ("genie", "gifts")),
        (3, "pro", ("genie", "gifts")),
    ]
    assert [r.rules for r in results] == [{"variant": "pro", "expansions": ["genie", "gifts"]}] * 2
    assert A.parse_args([]).expansions == ()
    assert A.rules_title("pro", ("genie", "gifts")) == "ASARA, pro rules + genie + gifts"
    assert args.game.title == "ASARA, pro rules + genie + gifts"


def test_cli_with_expansions_names_them_in_every_output(tmp_path, capsys):
    out = run_cli(tmp_path, "--variant", "pro", "--expansions", "genie,gifts")
    assert capsys.readouterr().out.startswith("ASARA, pro rules + genie + gifts\n")
    with open(out / "games.csv") as f:
        games = list(csv.DictReader(f))
    assert len(games) == 4
    assert all((g["variant"], g["expansions"]) == ("pro", "genie+gifts") for g in games)
    with open(out / "summary.csv") as f:
        (row,) = csv.DictReader(f)
    assert (row["variant"], row["expansions"]) == ("pro", "genie+gifts")
    document = json.loads((out / "results.json").read_text())
    assert document["settings"]["expansions"] == ["genie", "gifts"]
    assert document["games"][0]["expansions"] == "genie+gifts"
    plain = run_cli(tmp_path, out="plain")
    with open(plain / "games.csv") as f:
        assert {(g["variant"], g["expansions"]) for g in csv.DictReader(f)} == {("basic", "")}


def test_the_shipped_scores_are_the_final_prestige():
    """ASARA's scores are the final prestige: the tournament's games replay in the core."""
    from asara_env.asara.config import GameConfig
    from training.evaluation.asara import make_agent, play_batch

    (played,) = T.run_tournament("asara", ["greedy", "random"], [2], 2, seed=3)
    agents = [
        make_agent(n, T.chunk_agent_seed(3, 2, k, 0)) for k, n in enumerate(["greedy", "random"])
    ]
    again = play_batch(GameConfig(num_players=2), agents, played.seating, played.seeds, 2)
    assert played.scores.tolist() == again.tolist() and played.points is None
