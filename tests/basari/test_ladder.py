"""BASARI on the strength ladder (training/evaluation/ladder.py through `basari-ladder`): its
default lineup (the baselines and a shipped model for every player count), games played on their
own and independent of their order, Ray = local, and the command's tables and plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agents.basari import AGENTS
from agents.models import MODELS
from agents.registry import is_agent
from asara_env.games import game_card
from training.evaluation.basari.tournament import LADDER, game, ladder
from training.evaluation.ladder import planned_games, play_one, run_ladder
from training.evaluation.ladder_tables import per_players

GAME = game()

SETTINGS: dict[str, Any] = {
    "agents": [["random", "random"], ["points_first", "points_first"], ["value", "value"]],
    "players": [2, 3, 4],
    "games": 4,
    "seed": 6,
    "start_mode": "choose",
}


def _results(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["players"], r["game"], r["seed"], r["seating"], r["scores"]) for r in rows]


def test_the_default_lineup_holds_every_baseline_a_model_for_every_player_count_and_search():
    agents = LADDER.default_agents
    assert agents[0] == "random"
    plain = [a for a in agents if "=" not in a]
    assert set(plain) == set(AGENTS) | set(MODELS["basari"])
    searches = [a.partition("=")[2] for a in agents if "=" in a]
    assert {s.partition(":")[0] for s in searches} == {"ismcts", "flatmc"}
    assert all(is_agent("basari", s) for s in searches)
    assert {f"ppo_{p}p" for p in game_card("basari").player_counts} <= set(MODELS["basari"])
    assert LADDER.default_players == list(game_card("basari").player_counts)


def test_a_basari_game_depends_only_on_the_settings_and_its_index() -> None:
    plan = planned_games(SETTINGS)
    assert {p for p, *_ in plan} == {2, 3, 4}
    some = [plan[0], plan[5], plan[-1]]
    forward = [play_one(GAME, SETTINGS, *g) for g in some]
    backward = [play_one(GAME, SETTINGS, *g) for g in reversed(some)][::-1]
    assert _results(forward) == _results(backward)
    assert all(sum(r["decisions"].values()) > 0 for r in forward)
    assert [len(r["scores"]) for r in forward] == [2, 3, 4]


def test_ray_plays_the_same_basari_games_as_a_local_run(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    settings = SETTINGS | {"players": [2, 3], "games": 3}
    local = run_ladder(GAME, settings, tmp_path / "local", progress=False)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = run_ladder(GAME, settings, tmp_path / "ray", use_ray=True, progress=False)
    finally:
        ray.shutdown()
    assert _results(remote) == _results(local)
    assert len(local) == len(planned_games(settings)) == 4 + 3


def test_the_command_ranks_a_shipped_model_with_one_table_per_player_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("sb3_contrib")
    out = tmp_path / "ladder"
    argv = ["--agents", "random,model=ppo_3p", "--players", "2", "3", "--games", "2"]
    assert ladder([*argv, "--seed", "2", "--out", str(out), "--no-progress"]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("BASARI, choose start - 5 games") and "Elo" in printed
    assert "\n2 players - 2 games\n" in printed and "\n3 players - 3 games\n" in printed
    names = ["games.csv", "ladder.csv", "ratings.csv", "results.json"]
    for name in names + [f"ladder_{p}p.csv" for p in (2, 3)]:
        assert (out / name).stat().st_size > 0, name
    for name in ("ladder.png", "ladder_2p.png", "ladder_3p.png"):
        assert (out / name).read_bytes()[:4] == b"\x89PNG", name
    document = json.loads((out / "results.json").read_text())
    assert sorted(r["agent"] for r in document["ladder"]) == ["model", "random"]
    assert document["settings"]["agents"] == [["random", "random"], ["model", "ppo_3p"]]
    assert all(r["decisions"]["model"] > 0 for r in document["games"])
    for players, games in (("2", 2), ("3", 3)):
        table = document["by_players"][players]["ladder"]
        assert sum(r["seats"] for r in table) == games * int(players)
    whole = {r["agent"]: r["seats"] for r in document["ladder"]}
    assert whole["model"] == sum(
        r["seats"]
        for p in ("2", "3")
        for r in document["by_players"][p]["ladder"]
        if r["agent"] == "model"
    )


def _row(seating: list[str], scores: list[int]) -> dict[str, Any]:
    return {
        "players": len(seating),
        "seed": sum(scores),
        "seating": seating,
        "scores": scores,
        "seconds": dict.fromkeys(seating, 0.1),
        "decisions": dict.fromkeys(seating, 4),
        "choices": dict.fromkeys(seating, 2),
    }


def test_each_player_count_has_its_own_table_of_the_agents_seated_there() -> None:
    settings = SETTINGS | {"players": [2, 3]}
    rows = [_row(["value", "random"], [9, 1])] * 4 + [_row(["random", "value"], [1, 9])] * 4
    rows += [_row(["points_first", "random", "value"], [5, 1, 3])] * 6
    counts = per_players(settings, rows)
    two, three = counts[2].table, counts[3].table
    assert [r["agent"] for r in two] == ["value", "random"]  # points_first never sat at 2
    assert [r["seats"] for r in two] == [8, 8] and two[0]["win_rate"] == 1.0
    assert [r["agent"] for r in three] == ["points_first", "value", "random"]
    assert sorted(r["agent"] for r in counts[3].ratings) == ["points_first", "random", "value"]
    assert per_players(SETTINGS | {"players": [2]}, rows[:8]) == {}
