"""A game's config travels whole: the config object the console script's options make is
the one the core is given (the batch's `state.config` is it), never taken apart and built
again on the way (options -> trainer, self-play, tournament -> env -> core)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")

from asara_env.asara.config import GameConfig  # noqa: E402
from asara_env.basari.config import BasariConfig  # noqa: E402
from training.evaluation.tournament_cli import parse_command_args  # noqa: E402
from training.ppo import run, run_args  # noqa: E402
from training.selfplay.cli import build_parser  # noqa: E402

ASARA_RULES = ["--players", "3", "--variant", "pro", "--expansions", "genie,gifts"]
ASARA_CONFIG = GameConfig(num_players=3, variant="pro", expansions=("genie", "gifts"))
BASARI_CONFIG = BasariConfig(num_players=3, start_mode="random")


@pytest.mark.parametrize(
    "game, argv, expected",
    [("asara", ASARA_RULES, ASARA_CONFIG), ("basari", ["--players", "3"], BasariConfig(3))],
)
def test_the_trainers_env_gives_the_core_the_config_of_the_command_line(
    game, argv, expected, tmp_path
):
    spec = run.game_spec(game)
    args = run_args.parse_args(spec, [*argv, "--envs", "2", "--out", str(tmp_path / "run")])
    config = spec.config(args)
    assert config == expected
    env: Any = spec.make_env(config, args, ["random"], [1.0], 0)
    env.reset()
    assert env.config is config and env.core.config is config  # the core's batch
    cloned = import_module(f"training.{game}.imitation").self_play(config)  # --bc-expert's
    assert cloned.init(np.arange(2, dtype=np.uint64)).config is config


@pytest.mark.parametrize(
    "game, argv, expected",
    [
        ("asara", ASARA_RULES, ASARA_CONFIG),
        ("basari", ["--players", "3", "--start-mode", "random"], BASARI_CONFIG),
    ],
)
def test_self_play_gives_the_core_the_config_of_the_command_line(game, argv, expected):
    spec = import_module(f"training.{game}.selfplay").SPEC
    config = spec.config(build_parser(spec).parse_args(argv))
    assert config == expected
    state = spec.self_play(config, "numpy").init(np.arange(2, dtype=np.uint64))
    assert state.config is config


@pytest.mark.parametrize(
    "game, argv, expected",
    [
        ("asara", ["--variant", "pro", "--expansions", "genie"], GameConfig(3, "pro", ("genie",))),
        ("basari", ["--start-mode", "random"], BASARI_CONFIG),
    ],
)
def test_the_tournament_plays_the_rules_of_the_command_line(
    game, argv, expected, tmp_path, monkeypatch
):
    module = import_module(f"training.evaluation.{game}.tournament")
    seen: list[Any] = []
    monkeypatch.setattr(module, "play_batch", lambda config, *rest: seen.append(config))
    args = parse_command_args(module.COMMAND, [*argv, "--out", str(tmp_path / "out")])
    args.game.play(3, [], np.zeros((1, 3), np.int64), np.zeros(1, np.uint64), None, None)
    assert seen == [expected]
    seen.clear()  # a config given whole (an evaluation's) is the one played at its count
    module.game(expected).play(3, [], np.zeros((1, 3), np.int64), np.zeros(1), None, None)
    assert seen[0] is expected
