"""ASARA for the self-play trainer (`asara-selfplay`, training/selfplay/): its batched core
as the trainer plays it, its rules options, shipped models and evaluation.

    asara-selfplay --players 2 --simulations 32 --iterations 100 --out runs/sp-2p

ASARA is turn-based: in every unfinished game the seat to move decides.
"""

from __future__ import annotations

from agents.models import STRONGEST
from asara_env.asara.actions import NUM_ACTIONS
from asara_env.asara.core.observation import OBS_DIM
from commandline.asara.options import add_rules_arguments, check_rules, config_of
from commandline.command import run_main
from training.evaluation.asara import check, shipped_model, spec_names
from training.evaluation.asara.evaluate import win_rate
from training.selfplay import cli
from training.selfplay.spec import SelfPlaySpec

from .imitation import self_play

SPEC = SelfPlaySpec(
    game="asara",
    prog="asara-selfplay",
    config=config_of,
    self_play=self_play,
    sizes=lambda config: (OBS_DIM, NUM_ACTIONS),
    shipped_model=shipped_model,
    start_model=lambda players: STRONGEST["asara"][players],
    eval_opponents=lambda players: [STRONGEST["asara"][players], "towers"],
    agent_names=spec_names,
    check_agent=check,
    win_rate=win_rate,
    add_arguments=add_rules_arguments,
    check=check_rules,
)


@run_main("asara-selfplay")
def main(argv: list[str] | None = None) -> None:
    """`asara-selfplay`."""
    cli.main_of(SPEC, argv)


if __name__ == "__main__":
    main()
