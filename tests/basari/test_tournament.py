"""The BASARI tournament: files, tables and negotiation figures through the shared
machinery, and the strength ladder random < points_first < value (Wilson lower bounds)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from agents.models import model_path
from asara_env.basari.core import ranking_score
from training.evaluation.basari import tournament as BT
from training.evaluation.tournament_stats import wilson_interval


def test_cli_writes_every_table_and_the_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    argv = ["--players", "2", "3", "--games", "6", "--chunk-size", "4", "--no-progress"]
    assert BT.main([*argv, "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Negotiation" in printed and "OpenSkill" in printed and "steps/barter" in printed
    for name in ("games.csv", "summary.csv", "negotiation.csv", "ratings.csv", "win_rates.png"):
        assert (out / name).stat().st_size > 0, name
    summary = list(csv.DictReader((out / "summary.csv").read_text().splitlines()))
    assert {(int(r["players"]), r["agent"]) for r in summary} == {
        (p, a) for p in (2, 3) for a in BT.DEFAULT_AGENTS
    }
    doc = json.loads((out / "results.json").read_text())
    assert doc["settings"]["game"] == "basari" and len(doc["negotiation"]) == 6
    reader = csv.DictReader((out / "games.csv").read_text().splitlines())
    games = list(reader)
    assert len(games) == 6 + 6
    assert reader.fieldnames == ["players", "game", "seed", "start_mode"] + [
        f"{what}_{s}" for what in ("seat", "score", "points") for s in range(4)
    ]  # one layout for every game: no prestige, no column deleted
    for row in games:
        p = int(row["players"])
        points = [int(row[f"points_{s}"]) for s in range(p)]
        ranking = [int(row[f"score_{s}"]) for s in range(p)]
        assert BT.points_of(np.array(ranking)).tolist() == points
        assert row["start_mode"] == "choose"
    header = (out / "summary.csv").read_text().splitlines()[0].split(",")
    assert "mean_points" in header and "start_mode" in header
    assert not [c for c in header if "prestige" in c or c in ("variant", "expansions")]


def test_points_of_strips_the_tie_breaks() -> None:
    rng = np.random.default_rng(0)
    score = rng.integers(0, 300, (50, 4))
    gems = rng.integers(0, 26, (50, 4, 4))
    assert (BT.points_of(ranking_score(score, gems)) == score).all()


def test_tournament_is_reproducible_and_counts_every_seat() -> None:
    a = BT.tournament(["random", "value"], [2], 4, seed=3, chunk_size=2)
    b = BT.tournament(["random", "value"], [2], 4, seed=3, chunk_size=2)
    assert (a[0][0].scores == b[0][0].scores).all()
    points = a[0][0].points
    assert points is not None and np.array_equal(points, BT.points_of(a[0][0].scores))
    assert a[2] == b[2]
    negotiation = {r["agent"]: r for r in a[2]}
    assert sum(r["games"] for r in negotiation.values()) == 8  # 4 games, 2 seats


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(SystemExit):
        BT.parse_args(["--agents", "nobody"])
    with pytest.raises(SystemExit):
        BT.parse_args(["--players", "5"])
    with pytest.raises(SystemExit):
        BT.parse_args(["--games", "0"])


def lower_bound(summary: list[dict[str, Any]], players: int, agent: str) -> tuple[float, float]:
    row = next(r for r in summary if r["players"] == players and r["agent"] == agent)
    return row["ci_low"], row["ci_high"]


def test_points_first_and_value_beat_random_two_players() -> None:
    """Fast default check: in 2-player games both heuristics beat `random` (every seat
    rotated, fixed seeds): their Wilson lower bounds are above random's upper bound."""
    _, summary, _, _ = BT.tournament(["random", "points_first", "value"], [2], 30, seed=1)
    _, random_high = lower_bound(summary, 2, "random")
    for agent in ("points_first", "value"):
        low, _ = lower_bound(summary, 2, agent)
        assert low > random_high, (agent, low, random_high)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_strength_ladder_random_points_first_value(players: int) -> None:
    """random < points_first < value with 95% Wilson intervals that do not overlap, in a
    seat-rotated tournament of 600 games per player count (fixed seed)."""
    _, summary, _, _ = BT.tournament(["random", "points_first", "value"], [players], 600, 0)
    r_low, r_high = lower_bound(summary, players, "random")
    p_low, p_high = lower_bound(summary, players, "points_first")
    v_low, _ = lower_bound(summary, players, "value")
    assert r_high < p_low, (r_high, p_low)
    assert p_high < v_low, (p_high, v_low)


def test_wilson_bounds_used_by_the_ladder_are_sound() -> None:
    low, high = wilson_interval(30, 30)
    assert 0.88 < low < 1.0 == high


MODEL = model_path("basari", "ppo_4p")


@pytest.mark.slow
def test_shipped_model_beats_three_value_agents_in_four_player_games() -> None:
    """The model's bar: one model seat against three `value`s, 400 seat-rotated games with
    fixed seeds; the 95% Wilson interval lies above the fair share 0.25."""
    pytest.importorskip("sb3_contrib")
    from training.evaluation.basari.evaluate import evaluate

    result = evaluate(str(MODEL), players=4, opponent="value", games=400, seed=1234)
    assert result["ci_low"] > 0.25, result


def test_the_shipped_model_can_be_named_in_a_tournament() -> None:
    args = BT.parse_args(["--agents", "value,ppo_4p,ppo_3p,ppo_2p", "--players", "4"])
    assert args.agents == ["value", "ppo_4p", "ppo_3p", "ppo_2p"]
