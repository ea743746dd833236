"""BASARI for the self-play trainer (`basari-selfplay`, training/selfplay/): its batched
core as the trainer plays it, its rules option, shipped models and evaluation.

    basari-selfplay --players 4 --simulations 32 --iterations 100 --out runs/sp-basari-4p

BASARI's choices are simultaneous: every seat whose mask holds more than NOOP decides
(each by its own search, which treats the others' simultaneous choices as the shared
search does), the others play NOOP, and the joint action steps the game.
"""

from __future__ import annotations

import argparse

from agents.models import STRONGEST
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import obs_size
from commandline.basari.options import add_start_mode_argument
from commandline.command import run_main
from training.evaluation.basari import check, shipped_model, spec_names
from training.evaluation.basari.evaluate import win_rate
from training.selfplay import cli
from training.selfplay.spec import SelfPlaySpec

from .imitation import self_play


def _config(args: argparse.Namespace) -> BasariConfig:
    return BasariConfig(num_players=args.players, start_mode=args.start_mode)


def _sizes(config: BasariConfig) -> tuple[int, int]:
    return obs_size(config.n_archways), config.n_actions


SPEC = SelfPlaySpec(
    game="basari",
    prog="basari-selfplay",
    config=_config,
    self_play=self_play,
    sizes=_sizes,
    shipped_model=shipped_model,
    start_model=lambda players: STRONGEST["basari"][players],
    eval_opponents=lambda players: [STRONGEST["basari"][players], "value"],
    agent_names=spec_names,
    check_agent=check,
    win_rate=win_rate,
    add_arguments=add_start_mode_argument,
)


@run_main("basari-selfplay")
def main(argv: list[str] | None = None) -> None:
    """`basari-selfplay`."""
    cli.main_of(SPEC, argv)


if __name__ == "__main__":
    main()
