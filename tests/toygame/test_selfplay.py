"""The shared self-play trainer learns the toy game from a random network with its default
search (the Gumbel root over the network's own value head): no code of the trainer names
the game, and no shipped model, PPO run or heuristic is in the loop. After 6 iterations
(about 6,000 positions) the network alone wins 0.84 of its games against random and 0.99
against the high bidder."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from training.selfplay.cli import main_of  # noqa: E402

from .rules import ToyConfig  # noqa: E402
from .selfplay import SPEC, win_rate  # noqa: E402


def test_self_play_from_scratch_beats_random(tmp_path: Path):
    out = tmp_path / "r"
    main_of(
        SPEC,
        ["--start", "scratch", "--hidden", "32", "--backend", "numpy", "--games", "64",
         "--iterations", "6", "--updates", "64", "--batch-size", "128", "--learning-rate", "3e-3",
         "--search", "gumbel:8:prior=self:value=net", "--eval-every", "6", "--eval-games", "64",
         "--seed", "3", "--no-progress", "--out", str(out)],
    )  # fmt: skip
    rows = list(csv.DictReader((out / "eval.csv").open()))
    assert [r["iteration"] for r in rows] == ["0", "6"]
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(out / "model.zip", device="cpu")
    # the random network it started from: 0.617 against random, 0.588 against high
    against_random = win_rate(model, ToyConfig(2), "random", 1000, 12345)
    against_high = win_rate(model, ToyConfig(2), "high", 1000, 12345)
    assert against_random["ci_low"] > 0.7 and against_high["ci_low"] > 0.8
