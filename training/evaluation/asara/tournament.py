"""ASARA in the shared tournament (training/evaluation/tournament.py): its `TournamentGame` (the
baselines, shipped models and search agents of `agents`, played in batches through the
core; the scores are the final prestige) and its `TournamentCommand`, the console scripts
`asara-tournament` and `asara-ladder` (training/evaluation/ladder.py).

    asara-tournament --agents random,greedy,towers,tall --players 2 3 4 --games 1000 \\
        --seed 0 --out results/ [--variant pro] [--expansions genie,gifts] \\
        [--chunk-size 256] [--ray | --address A]

Every game is played with the rules of `--variant` and `--expansions` (R9; the Genie needs
the professional variant): the tables name them in the columns `variant` and `expansions`
('genie+gifts', empty for none), the title and the plot as 'ASARA, pro rules + genie'.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from asara_env.asara.config import GameConfig
from commandline.asara.options import add_rules_arguments, check_rules
from training.evaluation import ladder as ladder_command
from training.evaluation.tournament import TournamentGame, configs_at_every_count
from training.evaluation.tournament_cli import TournamentCommand, parse_command_args, run_command
from training.games import command_main

from . import agent_specs, baselines, check, make_agent, play_batch, spec_names


def rules_title(variant: str, expansions: Sequence[str]) -> str:
    """'ASARA, pro rules + genie + gifts'."""
    return f"ASARA, {variant} rules" + "".join(f" + {e}" for e in expansions)


def game(rules: GameConfig | None = None) -> TournamentGame:
    """ASARA with the rules of `rules` (its variant and expansions; default: the basic
    game), played in batches through the core by the agents of `agents` (baselines,
    shipped models, search agents); at `rules.num_players` the core is given `rules`
    itself."""
    rules = GameConfig() if rules is None else rules
    configs = configs_at_every_count("asara", rules)

    def play(
        players: int,
        agents: list[Any],
        seating: np.ndarray,
        seeds: np.ndarray,
        bar: Any,
        record: Any,
    ) -> np.ndarray:
        return play_batch(configs[players], agents, seating, seeds, len(seeds), bar)

    return TournamentGame(
        agent_specs(),
        make_agent,
        play,
        tuple(configs),
        rules={"variant": rules.variant, "expansions": list(rules.expansions)},
        title=rules_title(rules.variant, rules.expansions),
    )


def _game(parser: argparse.ArgumentParser, args: argparse.Namespace) -> TournamentGame:
    check_rules(parser, args)
    return game(GameConfig(variant=args.variant, expansions=args.expansions))


COMMAND = TournamentCommand(
    game="asara",
    prog="asara-tournament",
    description="Play agents against each other in ASARA.",
    check_agent=check,
    agent_names=spec_names(),
    default_agents=sorted(baselines()),
    default_games=1000,
    default_out=Path("results"),
    add_rules=add_rules_arguments,
    make_game=_game,
)

SEARCH = "flatmc:playout=towers:horizon=10:value=margin"
LADDER = ladder_command.LadderCommand(
    tournament=COMMAND,
    prog="asara-ladder",
    description="Place ASARA agents on one strength scale.",
    default_agents=[
        "random",
        "greedy",
        "tall",
        "towers",
        "model_2p=ppo_2p",  # the shipped models, found from any folder
        "sp_2p",
        f"flatmc16={SEARCH}:sims=16",
        f"flatmc64={SEARCH}:sims=64",
        f"flatmc128={SEARCH}:sims=128",
        "ismcts128=ismcts:128:playout=towers:horizon=10:value=margin",
    ],
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments of `asara-tournament`."""
    return parse_command_args(COMMAND, argv)


main = command_main("asara-tournament", run_command, COMMAND)
ladder = command_main("asara-ladder", ladder_command.run_command, LADDER)


if __name__ == "__main__":
    sys.exit(main())
