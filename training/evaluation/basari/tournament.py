"""BASARI in the shared tournament (training/evaluation/tournament.py): its `TournamentGame` (the
baselines and shipped model of `agents.basari`, played in batches on the core, with the
negotiation figures measured in the arena) and its `TournamentCommand`, the console script
`basari-tournament`.

    basari-tournament --agents random,points_first,value --players 2 3 4 --games 600 \\
        --seed 0 --out results/basari/ [--start-mode choose] [--chunk-size 256] \\
        [--ray | --address A]

A game's result is the B10 order (points, then gems in total, then red, yellow, green,
blue): the tournament's scores are the core's `ranking_score`, so tie-breaks are applied
before wins are shared, and the tables show the points inside them (`points_of`). Besides
the shared files (games.csv with each seat's agent, score and points; summary.csv;
ratings.csv; results.json; win_rates.png) it writes negotiation.csv: per agent and player
count, barters won, gems paid per barter won, contested and cancelled cards, offers and
steps per barter.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from asara_env.basari.config import BasariConfig
from asara_env.basari.core.outcome import TIE_BASE
from commandline.basari.options import add_start_mode_argument
from training.evaluation import ladder as ladder_command
from training.evaluation.tournament import (
    CHUNK_SIZE,
    Played,
    Rows,
    TournamentGame,
    configs_at_every_count,
    run_tournament,
)
from training.evaluation.tournament_cli import TournamentCommand, parse_command_args, run_command
from training.evaluation.tournament_report import summary_text, text_table
from training.evaluation.tournament_stats import rate_games, summarize
from training.games import command_main

from . import NegotiationStats, agent_specs, check, make_agent, new_stats, play_batch, spec_names

DEFAULT_AGENTS = ("random", "points_first", "value")


def points_of(ranking: np.ndarray) -> np.ndarray:
    """int64[...]: the points inside a `ranking_score` (its five gem keys stripped)."""
    return np.asarray(ranking, np.int64) // TIE_BASE**5


def merge_stats(parts: list[NegotiationStats]) -> NegotiationStats:
    """The negotiation figures of several chunks added up."""
    total = new_stats(parts[0].num_agents)
    for part in parts:
        for name, counts in part.counts.items():
            total.counts[name] = total.counts[name] + counts
    return total


def negotiation_rows(names: list[str], results: list[Played]) -> Rows:
    """One row per player count and agent with the arena's barter figures."""
    return [{"players": r.players, **row} for r in results for row in r.record.rows(names)]


def negotiation_text(tables: dict[str, Rows]) -> str:
    """The negotiation table as text, with its legend."""
    talk = text_table(
        [
            [
                r["agent"],
                r["players"],
                int(r["barters"]),
                f"{r['barter_win_rate']:.3f}",
                f"{r['gems_paid_per_win']:.2f}",
                f"{r['contested_rate']:.3f}",
                f"{r['cancel_rate']:.3f}",
                f"{r['offers_per_barter']:.2f}",
                f"{r['steps_per_barter']:.2f}",
            ]
            for r in tables["negotiation"]
        ],
        [
            "agent",
            "players",
            "barters",
            "won",
            "gems/win",
            "contested",
            "cancelled",
            "offers/barter",
            "steps/barter",
        ],
    )
    return (
        "Negotiation (won: share of its barters won; gems/win: gems paid per barter won; "
        "contested: share of its cards played by 2+ seats; cancelled: share of those played "
        f"by 3+)\n{talk}"
    )


def tables_text(summary: Rows, ratings: Rows, negotiation: Rows) -> str:
    """The results, negotiation and rating tables as text (as `basari-tournament` prints
    them)."""
    return summary_text(summary, ratings, negotiation_text({"negotiation": negotiation}))


def game(rules: BasariConfig | None = None) -> TournamentGame:
    """BASARI with the rules of `rules` (its start mode and board; default: the standard
    game) and the agents of `agents.basari`, played in batches on the core (given `rules`
    itself at `rules.num_players`); every chunk records its barters (`Played.record`: the
    chunks' NegotiationStats added up)."""
    rules = BasariConfig() if rules is None else rules
    configs = configs_at_every_count("basari", rules)

    def play(
        players: int,
        agents: list[Any],
        seating: np.ndarray,
        seeds: np.ndarray,
        bar: Any,
        record: Any,
    ) -> np.ndarray:
        return play_batch(configs[players], agents, seating, seeds, len(seeds), bar, record)

    return TournamentGame(
        agent_specs(),
        make_agent,
        play,
        tuple(configs),
        rules={"start_mode": rules.start_mode},
        title=f"BASARI, {rules.start_mode} start",
        points=points_of,
        new_record=lambda players, num_agents: new_stats(num_agents),
        merge_records=merge_stats,
        record_tables=lambda names, results: {"negotiation": negotiation_rows(names, results)},
        record_text=negotiation_text,
    )


def tournament(
    names: list[str],
    players: list[int],
    games: int,
    seed: int = 0,
    start_mode: str = "choose",
    chunk_size: int = CHUNK_SIZE,
    progress: bool = False,
    use_ray: bool = False,
    address: str | None = None,
) -> tuple[list[Played], Rows, Rows, Rows]:
    """(results, summary, negotiation, ratings) of a BASARI tournament (`run_tournament`'s
    chunks, locally or on Ray)."""
    results = run_tournament(
        game(BasariConfig(start_mode=start_mode)),
        names,
        players,
        games,
        seed,
        chunk_size=chunk_size,
        progress=progress,
        use_ray=use_ray,
        address=address,
    )
    summary = [row for r in results for row in summarize(names, r)]
    return results, summary, negotiation_rows(names, results), rate_games(names, results)


COMMAND = TournamentCommand(
    game="basari",
    prog="basari-tournament",
    description="Play BASARI agents against each other.",
    check_agent=check,
    agent_names=spec_names(),
    default_agents=list(DEFAULT_AGENTS),
    default_games=600,
    default_out=Path("results"),
    add_rules=add_start_mode_argument,
    make_game=lambda parser, args: game(BasariConfig(start_mode=args.start_mode)),
)

LADDER = ladder_command.LadderCommand(
    tournament=COMMAND,
    prog="basari-ladder",
    description="Place BASARI agents on one strength scale.",
    default_agents=[
        *["random", "points_first", "value", "value_l1", "ppo_2p", "ppo_3p", "ppo_4p"],
        *["sp_2p", "sp_4p"],
        "ismcts128=ismcts:128:playout=random:horizon=10",  # the unguided search
        "flatmc128=flatmc:128:playout=ppo_2p",  # flat Monte Carlo over the model's playouts
    ],
    default_players=list(COMMAND.player_counts),
    default_out=Path("results/basari_ladder"),
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments of `basari-tournament`."""
    return parse_command_args(COMMAND, argv)


main = command_main("basari-tournament", run_command, COMMAND)
ladder = command_main("basari-ladder", ladder_command.run_command, LADDER)


if __name__ == "__main__":
    sys.exit(main())
