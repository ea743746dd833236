"""The strength ladder (training/evaluation/ladder.py): schedule, games independent of their order,
resuming, Ray = local, the Elo fit and the outputs."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from training.evaluation.asara import check
from training.evaluation.asara.tournament import LADDER, game, ladder
from training.evaluation.ladder import (
    Entry,
    main,
    parse_entry,
    planned_games,
    play_one,
    read_games,
    run_ladder,
)
from training.evaluation.ladder_tables import agent_table, elo_table

GAME = game()

SETTINGS = {
    "agents": [["random", "random"], ["greedy", "greedy"], ["towers", "towers"]],
    "players": [2, 3],
    "games": 3,
    "seed": 4,
    "variant": "basic",
    "expansions": [],
}


def test_entries_name_agents_by_label_and_spec():
    assert parse_entry("fm=flatmc:64:playout=towers", check) == Entry(
        "fm", "flatmc:64:playout=towers"
    )
    assert parse_entry("flatmc:sims=8", check) == Entry("flatmc:sims=8", "flatmc:sims=8")
    for bad in ("x=nobody", "flatmc:depth=2", "policy"):
        with pytest.raises(ValueError):
            parse_entry(bad, check)


def test_plan_rotates_seats_and_is_fixed_by_the_settings():
    plan = planned_games(SETTINGS)
    assert plan == planned_games(dict(SETTINGS))
    two = np.array([seats for p, _, seats, _ in plan if p == 2])
    assert len(two) == 4 and len(plan) == 4 + 3  # rounded up to whole blocks of P games
    for k in range(3):  # every agent sits in each seat of its block once
        assert (two[:, 0] == k).sum() == (two[:, 1] == k).sum()
    assert len({seed for *_, seed in plan}) == len(plan)


def test_a_game_depends_only_on_the_settings_and_its_index():
    plan = planned_games(SETTINGS)
    forward = [play_one(GAME, SETTINGS, *g) for g in plan[:3]]
    backward = [play_one(GAME, SETTINGS, *g) for g in reversed(plan[:3])][::-1]
    strip = [{k: r[k] for k in ("players", "game", "seed", "seating", "scores")} for r in forward]
    assert strip == [{k: r[k] for k in strip[0]} for r in backward]
    assert all(sum(r["decisions"].values()) > 0 for r in forward)


def _results(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(r["players"], r["game"], r["seed"], r["seating"], r["scores"]) for r in rows]


def test_an_interrupted_ladder_resumes_to_the_same_games(tmp_path):
    full = run_ladder(GAME, SETTINGS, tmp_path / "a", progress=False)
    assert len(full) == len(planned_games(SETTINGS))
    path = tmp_path / "a" / "games.jsonl"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:3]) + "\n")  # as if stopped after three games
    resumed = run_ladder(GAME, SETTINGS, tmp_path / "a", progress=False)
    assert _results(resumed) == _results(full)
    assert len(path.read_text().splitlines()) == len(full)
    with pytest.raises(ValueError, match="other settings"):
        run_ladder(GAME, SETTINGS | {"seed": 5}, tmp_path / "a", progress=False)


def test_ray_plays_the_same_games_as_a_local_run(tmp_path):
    ray = pytest.importorskip("ray")
    settings = SETTINGS | {"players": [2], "games": 4}
    local = run_ladder(GAME, settings, tmp_path / "local", progress=False)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = run_ladder(GAME, settings, tmp_path / "ray", use_ray=True, progress=False)
    finally:
        ray.shutdown()
    assert _results(remote) == _results(local)


def _row(seating: list[str], scores: list[int]) -> dict[str, Any]:
    return {
        "players": len(seating),
        "seating": seating,
        "scores": scores,
        "seconds": dict.fromkeys(seating, 0.5),
        "decisions": dict.fromkeys(seating, 10),
        "choices": dict.fromkeys(seating, 5),
    }


def test_elo_orders_agents_by_who_beats_whom_with_random_at_zero():
    rows = [_row(["a", "b"], [30, 20])] * 6 + [_row(["b", "random"], [30, 20])] * 6
    rows += [_row(["random", "a"], [10, 40])] * 3 + [_row(["a", "random"], [25, 25])]
    table = {r["agent"]: r for r in elo_table(["random", "a", "b"], rows, seed=0, bootstrap=20)}
    assert table["random"]["elo"] == 0
    assert table["a"]["elo"] > table["b"]["elo"] > 0
    assert table["a"]["elo_low"] <= table["a"]["elo"] <= table["a"]["elo_high"]
    listed = agent_table(["random", "a", "b"], rows, seed=0, bootstrap=20)
    rows_by_agent = {r["agent"]: r for r in listed}
    assert rows_by_agent["b"]["win_rate"] == 0.5 and rows_by_agent["b"]["seats"] == 12
    assert rows_by_agent["a"]["ms_per_decision"] == 50.0
    assert rows_by_agent["a"]["ms_per_choice"] == 100.0


def test_the_command_writes_tables_and_a_plot(tmp_path, capsys):
    out = tmp_path / "ladder"
    agents = ["random", "fm=flatmc:1:horizon=0"]  # a search agent scoring one move ahead
    argv = ["--agents", *agents, "--players", "2", "--games", "2", "--seed", "1"]
    assert ladder(argv + ["--out", str(out), "--no-progress"]) == 0
    assert "Elo" in capsys.readouterr().out
    for name in ("games.csv", "ladder.csv", "ratings.csv", "results.json", "ladder.png"):
        assert (out / name).stat().st_size > 0
    document = json.loads((out / "results.json").read_text())
    assert sorted(r["agent"] for r in document["ladder"]) == ["fm", "random"]
    assert len(document["games"]) == 2
    assert all(r["decisions"]["fm"] > 0 for r in document["games"])
    header = (out / "games.csv").read_text().splitlines()[0]
    assert header == "players,game,seed,seat_0,seat_1,score_0,score_1"


def test_a_ladder_written_before_the_rename_resumes(tmp_path):
    """A folder of an earlier ladder (its settings the same, its games' scores named
    'prestige') resumes: its games are read back, not replayed."""
    out = tmp_path / "old"
    settings = SETTINGS | {"players": [2], "games": 2}
    rows = run_ladder(GAME, settings, out, progress=False)
    old = [json.dumps({**{k: v for k, v in r.items() if k != "scores"}, "prestige": r["scores"]})
           for r in rows[:1]]  # fmt: skip
    (out / "games.jsonl").write_text("\n".join(old) + "\n")
    again = run_ladder(GAME, settings, out, progress=False)
    assert _results(again) == _results(rows)
    assert [r["scores"] for r in read_games(out / "games.jsonl")] == [r["scores"] for r in rows]


def test_the_shared_command_plays_basari_and_refuses_bad_flags(tmp_path, capsys):
    out = tmp_path / "basari"
    argv = ["basari", "--agents", "random", "value", "--players", "2", "--games", "2"]
    assert main([*argv, "--out", str(out), "--no-progress"]) == 0
    assert capsys.readouterr().out.startswith("BASARI, choose start - 2 games")
    settings = json.loads((out / "settings.json").read_text())
    assert settings["start_mode"] == "choose" and "variant" not in settings
    for bad, message in (
        (["asara", "--agents", "x=nobody"], "unknown agent 'nobody'"),
        (["asara", "--games", "0"], "--games: must be at least 1"),
        (["asara", "--agents", "a=random", "a=greedy"], "given twice"),
        (["basari", "--agents", "towers"], "unknown agent 'towers' (game basari)"),
    ):
        with pytest.raises(SystemExit) as exc:
            main(bad)
        assert exc.value.code == 2 and message in capsys.readouterr().err, bad
    assert LADDER.default_agents[0] == "random"


def test_a_ladder_with_other_settings_is_refused_before_any_game(tmp_path, capsys):
    out = tmp_path / "ladder"
    argv = ["--agents", "random", "greedy", "--players", "2", "--games", "2", "--no-progress"]
    assert ladder([*argv, "--out", str(out)]) == 0
    before = (out / "games.jsonl").read_bytes()
    with pytest.raises(SystemExit) as exc:
        ladder([*argv, "--seed", "3", "--out", str(out)])
    assert exc.value.code == 2 and "holds a ladder with other settings" in capsys.readouterr().err
    assert (out / "games.jsonl").read_bytes() == before
