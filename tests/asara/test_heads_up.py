"""training/evaluation/heads_up.py: a resumable heads-up match, seats alternated (ASARA, and BASARI
through the same code)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from training.evaluation.heads_up import heads_up, main, same_settings

TIMES = ("cpu_s", "cpu_s_per_search", "wall_s")


def _results(summary: dict[str, Any]) -> dict[str, Any]:
    """The summary without its timings."""
    return {k: v for k, v in summary.items() if k not in TIMES}


def test_a_heads_up_match_resumes_from_its_log(tmp_path):
    log = tmp_path / "match.jsonl"
    first = heads_up("asara", "greedy", "random", games=3, seed=4, chunk=2, log=log, progress=False)
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["settings"]["games"] == 3 and len(lines) == 3  # 2 chunks
    assert [json.loads(line)["agent_seat"] for line in lines[1:]] == [[0, 1], [0]]
    assert first["games"] == 3 and 0 <= first["wins"] <= 3
    assert first["ci_low"] <= first["win_rate"] <= first["ci_high"]
    assert first["searches"] == 0 and first["cpu_s_per_search"] is None  # baselines only
    assert first["cpu_s"] > 0
    lines[2:] = []  # the last chunk lost: a rerun plays only that one
    log.write_text("\n".join(lines) + "\n")
    again = heads_up("asara", "greedy", "random", games=3, seed=4, chunk=2, log=log, progress=False)
    assert _results(again) == _results(first) and len(log.read_text().splitlines()) == 3
    fresh = heads_up("asara", "greedy", "random", games=3, seed=4, chunk=2, progress=False)
    assert _results(fresh) == _results(first)  # a chunk depends only on the settings


def test_a_heads_up_match_refuses_another_log_and_bad_settings(tmp_path):
    log = tmp_path / "match.jsonl"
    heads_up("asara", "greedy", "random", games=1, seed=4, chunk=1, log=log, progress=False)
    with pytest.raises(ValueError, match="another match"):
        heads_up("asara", "greedy", "random", games=2, seed=4, chunk=1, log=log, progress=False)
    with pytest.raises(ValueError, match="games and chunk"):
        heads_up("asara", "greedy", "random", games=0)
    with pytest.raises(ValueError, match="unknown agent"):
        heads_up("asara", "greedy", "nobody", games=1)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["asara", "greedy", "nobody"], "unknown agent 'nobody'"),
        (["asara", "greedy", "flatmc:depth=2"], "flatmc has no option 'depth'"),
        (["asara", "greedy", "random", "--games", "0"], "--games: must be at least 1"),
        (["asara", "greedy", "random", "--expansions", "genie"], "professional variant"),
        (["chess", "greedy", "random"], "invalid choice: 'chess'"),
    ],
)
def test_bad_command_lines_are_usage_errors(argv, message, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2 and message in capsys.readouterr().err


def test_a_log_written_before_the_rules_were_recorded_resumes(tmp_path, capsys):
    """Logs written before the expansions were recorded (always none then) resume; the
    chunk lines' old 'prestige' key is not read."""
    log = tmp_path / "old.jsonl"
    heads_up("asara", "greedy", "random", games=2, seed=4, chunk=1, log=log, progress=False)
    first, *chunks = log.read_text().splitlines()
    settings = json.loads(first)["settings"]
    assert settings == {
        "spec": "greedy",
        "opponent": "random",
        "games": 2,
        "seed": 4,
        "chunk": 1,
        "variant": "basic",
        "expansions": [],
    }
    del settings["expansions"]
    old_chunk = json.loads(chunks[0])
    old_chunk["prestige"] = old_chunk.pop("scores")
    log.write_text(json.dumps({"settings": settings}) + "\n" + json.dumps(old_chunk) + "\n")
    resumed = main(["asara", "greedy", "random", "--games", "2", "--seed", "4", "--chunk", "1",
                    "--log", str(log)])  # fmt: skip
    assert resumed["games"] == 2 and len(log.read_text().splitlines()) == 3
    assert same_settings(settings, {**settings, "expansions": []})
    assert not same_settings(settings, {**settings, "expansions": ["gifts"]})
    assert not same_settings({**settings, "other": 1}, settings)


def test_a_basari_match_runs_through_the_same_code():
    result = heads_up("basari", "value", "random", games=4, seed=1, chunk=2, progress=False)
    assert result["games"] == 4 and result["start_mode"] == "choose"
    assert result["ci_low"] <= result["win_rate"] <= result["ci_high"]


def test_another_match_in_the_log_is_a_usage_error(tmp_path, capsys):
    log = str(tmp_path / "match.jsonl")
    main(["asara", "greedy", "random", "--games", "1", "--log", log])
    with pytest.raises(SystemExit) as exc:
        main(["asara", "greedy", "random", "--games", "2", "--log", log])
    assert exc.value.code == 2 and "holds another match" in capsys.readouterr().err


def test_the_budget_plot_reads_each_logged_match(tmp_path):
    from training.evaluation.heads_up_plot import budget, family
    from training.evaluation.heads_up_plot import main as plot_main

    assert budget("ismcts:128:prior=ppo_2p:wave=32") == 128
    assert budget("flatmc:playout=towers:sims=64") == 64
    specs = ["ismcts:32:prior=ppo_2p:wave=32", "ismcts:prior=ppo_2p:sims=512:wave=128"]
    assert family(specs) == "ismcts:N:prior=ppo_2p"
    with pytest.raises(ValueError, match="no budget"):
        budget("towers")
    logs = []
    for sims in (2, 4):
        logs.append(tmp_path / f"m{sims}.jsonl")
        heads_up("asara", f"flatmc:{sims}", "random", 2, 4, 1, logs[-1], progress=False)
    png = tmp_path / "budgets.png"
    matches = plot_main([*map(str, logs), "--out", str(png)])
    assert [m["spec"] for m in matches] == ["flatmc:2", "flatmc:4"]
    assert [m["games"] for m in matches] == [2, 2]
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    before = png.read_bytes()
    with pytest.raises(SystemExit) as exc:
        plot_main([*map(str, logs), "--out", str(png)])
    assert exc.value.code == 2 and png.read_bytes() == before  # refused, nothing replaced
    plot_main([*map(str, logs), "--out", str(png), "--force"])


def test_a_match_at_four_players_rotates_the_agent_against_three_copies(tmp_path):
    log = tmp_path / "four.jsonl"
    result = heads_up(
        "basari", "value", "random", games=4, seed=2, chunk=4, log=log, progress=False, players=4
    )
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["settings"]["players"] == 4
    assert json.loads(lines[1])["agent_seat"] == [0, 1, 2, 3]
    assert len(json.loads(lines[1])["scores"][0]) == 4
    assert result["fair_share"] == 0.25 and 0 <= result["wins"] <= 4
    with pytest.raises(ValueError, match="players must be one of"):
        heads_up("basari", "value", "random", games=1, players=5, progress=False)
