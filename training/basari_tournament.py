"""BASARI tournament: the shared machinery and command line of `training.tournament` (seat
rotation, seeds and chunks, Ray, Wilson intervals, OpenSkill ratings, CSV/JSON/plot,
progress bar) with BASARI's baselines played on the batched core, plus the negotiation
figures measured in the arena.

    basari-tournament --agents random,points_first,value --players 2 3 4 --games 600 \\
        --seed 0 --out results/basari/ [--chunk-size 256] [--ray | --address A]

A game's result is the B10 order (points, then gems in total, then red, yellow, green,
blue): the tournament's scores are the core's `ranking_score`, so tie-breaks are applied
before wins are shared. Games are played in chunks with freshly seeded agents, locally or
as Ray tasks with the same results, as in `training.tournament`. Writes into --out:
games.csv (agent, points and ranking score per seat), summary.csv (win rate with its 95%
Wilson interval, mean points and rank per agent and player count), negotiation.csv (per
agent and player count: barters won, gems paid per barter won, contested and cancelled
cards, offers and steps per barter), ratings.csv, results.json (all of it) and
win_rates.png.
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from agents.basari.arena import NegotiationStats, play_batch
from agents.registry import agent_specs, make_agent
from asara_env.basari.config import BasariConfig
from asara_env.basari.core.outcome import TIE_BASE

from .tournament import CHUNK_SIZE, Played, TournamentGame, run_tournament
from .tournament_cli import TournamentCommand, parse_command_args, run_command
from .tournament_report import Report, ratings_table, results_table, text_table
from .tournament_stats import rate_games, summarize

PLAYER_COUNTS = (2, 3, 4)
DEFAULT_AGENTS = ("random", "points_first", "value")


def points_of(ranking: np.ndarray) -> np.ndarray:
    """int64[...]: the points inside a `ranking_score` (its five gem keys stripped)."""
    return np.asarray(ranking, np.int64) // TIE_BASE**5


def merge_stats(parts: list[NegotiationStats]) -> NegotiationStats:
    """The negotiation figures of several chunks added up."""
    total = NegotiationStats(parts[0].num_agents)
    for part in parts:
        for name, counts in part.counts.items():
            total.counts[name] = total.counts[name] + counts
    return total


def basari_game(start_mode: str = "choose") -> TournamentGame:
    """BASARI with the baselines of `agents.basari`, played in batches on the core; every
    chunk records its barters (`Played.record`: the chunks' NegotiationStats added up)."""
    configs = {p: BasariConfig(num_players=p, start_mode=start_mode) for p in PLAYER_COUNTS}

    def play(
        players: int,
        agents: list,
        seating: np.ndarray,
        seeds: np.ndarray,
        bar: Any,
        record: NegotiationStats,
    ) -> np.ndarray:
        return play_batch(configs[players], agents, seating, seeds, len(seeds), bar, record)

    return TournamentGame(
        agent_specs("basari"),
        partial(make_agent, "basari"),
        play,
        PLAYER_COUNTS,
        variant=start_mode,
        new_record=lambda players, num_agents: NegotiationStats(num_agents),
        merge_records=merge_stats,
    )


def basari_summary(names: list[str], played: Played) -> list[dict]:
    """`summarize` with the mean points (B10 ranking score stripped of its tie-breaks)."""
    rows = summarize(names, played)
    points = points_of(played.prestige)
    for k, row in enumerate(rows):
        mine = played.seating == k
        row.pop("mean_prestige")
        row.pop("expansions")
        row["start_mode"] = row.pop("variant")
        row["mean_points"] = float(points[mine].mean()) if mine.any() else float("nan")
    return rows


def negotiation_rows(names: list[str], results: list[Played]) -> list[dict]:
    """One row per player count and agent with the arena's barter figures."""
    return [{"players": r.players, **row} for r in results for row in r.record.rows(names)]


def game_rows(names: list[str], results: list[Played]) -> list[dict]:
    """One flat dict per game: agent, points and ranking score of every seat."""
    rows = []
    for r in results:
        points = points_of(r.prestige)
        for g in range(len(r.seeds)):
            row = {"players": r.players, "game": g, "seed": int(r.seeds[g])}
            for s in range(r.players):
                row[f"seat_{s}"] = names[r.seating[g, s]]
                row[f"points_{s}"] = int(points[g, s])
                row[f"ranking_{s}"] = int(r.prestige[g, s])
            rows.append(row)
    return rows


def tables_text(summary: list[dict], ratings: list[dict], negotiation: list[dict]) -> str:
    """The results, negotiation and rating tables as text."""
    results = results_table(summary, score="points", seats="seats")
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
            for r in negotiation
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
    rating = ratings_table(ratings)
    return (
        f"{results}\n\nNegotiation (won: share of its barters won; gems/win: gems paid per "
        f"barter won; contested: share of its cards played by 2+ seats; cancelled: share of "
        f"those played by 3+)\n{talk}\n\nOpenSkill Plackett-Luce ratings (all games, seed "
        f"order)\n{rating}"
    )


def basari_report(settings: dict, names: list[str], results: list[Played]) -> Report:
    """BASARI's tables: win rates, mean points and ranks, negotiation, ratings, games."""
    summary = [row for r in results for row in basari_summary(names, r)]
    negotiation = negotiation_rows(names, results)
    ratings = rate_games(names, results)
    games = game_rows(names, results)
    title = f"BASARI, {settings['start_mode']} start, {settings['games']} games per count"
    text = tables_text(summary, ratings, negotiation)
    fields = list(max(games, key=len))
    return Report(title, text, summary, ratings, games, games, fields, {"negotiation": negotiation})


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
) -> tuple[list[Played], list[dict], list[dict], list[dict]]:
    """(results, summary, negotiation, ratings) of a BASARI tournament (`run_tournament`'s
    chunks, locally or on Ray)."""
    results = run_tournament(
        names,
        players,
        games,
        seed,
        chunk_size=chunk_size,
        progress=progress,
        game=basari_game(start_mode),
        use_ray=use_ray,
        address=address,
    )
    summary = [row for r in results for row in basari_summary(names, r)]
    return results, summary, negotiation_rows(names, results), rate_games(names, results)


def _start_mode_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--start-mode", choices=("choose", "random"), default="choose")


BASARI_COMMAND = TournamentCommand(
    prog="basari-tournament",
    description="Play BASARI agents against each other.",
    agent_names=agent_specs("basari"),
    default_agents=list(DEFAULT_AGENTS),
    default_games=600,
    default_out=Path("results/basari"),
    player_counts=PLAYER_COUNTS,
    add_rules=_start_mode_option,
    rules=lambda parser, args: {"game": "basari", "start_mode": args.start_mode},
    game=lambda args: basari_game(args.start_mode),
    report=basari_report,
)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    return parse_command_args(BASARI_COMMAND, argv)


def main(argv: list[str] | None = None) -> int:
    return run_command(BASARI_COMMAND, argv)


if __name__ == "__main__":
    sys.exit(main())
