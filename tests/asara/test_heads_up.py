"""training/heads_up.py: a resumable heads-up match, seats alternated."""

from __future__ import annotations

import json

import pytest

from training.heads_up import heads_up, main

TIMES = ("cpu_s_per_search", "wall_s")


def _results(summary: dict) -> dict:
    """The summary without its timings."""
    return {k: v for k, v in summary.items() if k not in TIMES}


def test_a_heads_up_match_resumes_from_its_log(tmp_path):
    log = tmp_path / "match.jsonl"
    first = heads_up("greedy", "random", games=3, seed=4, chunk=2, log=log, progress=False)
    lines = log.read_text().splitlines()
    assert json.loads(lines[0])["settings"]["games"] == 3 and len(lines) == 3  # 2 chunks
    assert [json.loads(line)["agent_seat"] for line in lines[1:]] == [[0, 1], [0]]
    assert first["games"] == 3 and 0 <= first["wins"] <= 3
    assert first["ci_low"] <= first["win_rate"] <= first["ci_high"]
    lines[2:] = []  # the last chunk lost: a rerun plays only that one
    log.write_text("\n".join(lines) + "\n")
    again = heads_up("greedy", "random", games=3, seed=4, chunk=2, log=log, progress=False)
    assert _results(again) == _results(first) and len(log.read_text().splitlines()) == 3
    fresh = heads_up("greedy", "random", games=3, seed=4, chunk=2, progress=False)
    assert _results(fresh) == _results(first)  # a chunk depends only on the settings


def test_a_heads_up_match_refuses_another_log_and_bad_settings(tmp_path):
    log = tmp_path / "match.jsonl"
    heads_up("greedy", "random", games=1, seed=4, chunk=1, log=log, progress=False)
    with pytest.raises(ValueError, match="another match"):
        heads_up("greedy", "random", games=2, seed=4, chunk=1, log=log, progress=False)
    with pytest.raises(ValueError, match="games and chunk"):
        heads_up("greedy", "random", games=0)
    with pytest.raises(ValueError, match="unknown agent"):
        main(["greedy", "nobody", "--games", "1"])
