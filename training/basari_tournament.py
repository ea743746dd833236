"""BASARI tournament: the shared machinery of `training.tournament` (seat rotation, seeds,
Wilson intervals, OpenSkill ratings, CSV/JSON/plot, progress bar) with BASARI's baselines
played on the batched core, plus the negotiation figures measured in the arena.

    basari-tournament --agents random,points_first,value --players 2 3 4 --games 600 \\
        --seed 0 --out results/basari/

A game's result is the B10 order (points, then gems in total, then red, yellow, green,
blue): the tournament's scores are the core's `ranking_score`, so tie-breaks are applied
before wins are shared. Writes into --out: games.csv (agent, points and ranking score per
seat), summary.csv (win rate with its 95% Wilson interval, mean points and rank per agent
and player count), negotiation.csv (per agent and player count: barters won, gems paid per
barter won, contested and cancelled cards, offers and steps per barter), ratings.csv,
results.json (all of it) and win_rates.png.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from agents.basari import BASARI_AGENTS, make_basari_agent
from agents.basari.arena import NegotiationStats, play_batch
from asara_env.basari.config import BasariConfig
from asara_env.basari.core.outcome import TIE_BASE

from .tournament import (
    Played,
    TournamentGame,
    plot_win_rates,
    rate_games,
    ratings_table,
    results_table,
    run_tournament,
    summarize,
    text_table,
    write_csv,
)

PLAYER_COUNTS = (2, 3, 4)
DEFAULT_AGENTS = ("random", "points_first", "value")


def points_of(ranking: np.ndarray) -> np.ndarray:
    """int64[...]: the points inside a `ranking_score` (its five gem keys stripped)."""
    return np.asarray(ranking, np.int64) // TIE_BASE**5


def basari_game(
    start_mode: str = "choose", negotiation: dict[int, NegotiationStats] | None = None
) -> TournamentGame:
    """BASARI with the baselines of `agents.basari`, played in batches on the core. With
    `negotiation` (player count -> stats, filled as games are played) the arena records
    the barters."""
    configs = {p: BasariConfig(num_players=p, start_mode=start_mode) for p in PLAYER_COUNTS}

    def play(players: int, agents: list, seating: np.ndarray, seeds: np.ndarray, batch, bar):
        stats = None
        if negotiation is not None:
            stats = negotiation.setdefault(players, NegotiationStats(len(agents)))
        return play_batch(configs[players], agents, seating, seeds, batch, bar, stats)

    return TournamentGame(BASARI_AGENTS, make_basari_agent, play, PLAYER_COUNTS, variant=start_mode)


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


def negotiation_rows(names: list[str], negotiation: dict[int, NegotiationStats]) -> list[dict]:
    """One row per player count and agent with the arena's barter figures."""
    return [
        {"players": p, **row} for p in sorted(negotiation) for row in negotiation[p].rows(names)
    ]


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


def write_results(
    out: Path, settings: dict, names: list[str], results, summary, negotiation, ratings
) -> None:
    """games.csv, summary.csv, negotiation.csv, ratings.csv, results.json, win_rates.png."""
    out.mkdir(parents=True, exist_ok=True)
    games = game_rows(names, results)
    write_csv(out / "games.csv", games, list(max(games, key=len)))
    write_csv(out / "summary.csv", summary, list(summary[0]))
    write_csv(out / "negotiation.csv", negotiation, list(negotiation[0]))
    write_csv(out / "ratings.csv", ratings, list(ratings[0]))
    document = {
        "settings": settings,
        "summary": summary,
        "negotiation": negotiation,
        "ratings": ratings,
        "games": games,
    }
    (out / "results.json").write_text(json.dumps(document, indent=1) + "\n")
    title = f"BASARI ({settings['start_mode']} start), {settings['games']} games per count"
    plot_win_rates(out / "win_rates.png", summary, title)


def tournament(
    names: list[str],
    players: list[int],
    games: int,
    seed: int = 0,
    start_mode: str = "choose",
    batch_size: int = 256,
    progress: bool = False,
) -> tuple[list[Played], list[dict], list[dict], list[dict]]:
    """(results, summary, negotiation, ratings) of a BASARI tournament."""
    negotiation: dict[int, NegotiationStats] = {}
    game = basari_game(start_mode, negotiation)
    results = run_tournament(
        names, players, games, seed, batch_size=batch_size, progress=progress, game=game
    )
    summary = [row for r in results for row in basari_summary(names, r)]
    return results, summary, negotiation_rows(names, negotiation), rate_games(names, results)


def _agent_list(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in BASARI_AGENTS]
    if not names or unknown or len(set(names)) < len(names):
        raise argparse.ArgumentTypeError(
            f"need distinct agents among {sorted(BASARI_AGENTS)}, got {text!r}"
        )
    return names


def _at_least(low: int):
    def parse(text: str) -> int:
        value = int(text)
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, got {value}")
        return value

    return parse


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="basari-tournament", description="Play BASARI agents against each other."
    )
    parser.add_argument(
        "--agents",
        type=_agent_list,
        default=list(DEFAULT_AGENTS),
        help=f"comma-separated agents among {sorted(BASARI_AGENTS)} (default: all)",
    )
    parser.add_argument("--players", type=int, nargs="+", choices=PLAYER_COUNTS, default=[2, 3, 4])
    parser.add_argument("--games", type=_at_least(1), default=600, help="games per player count")
    parser.add_argument("--seed", type=_at_least(0), default=0)
    parser.add_argument("--start-mode", choices=("choose", "random"), default="choose")
    parser.add_argument("--batch-size", type=_at_least(1), default=256)
    parser.add_argument("--out", type=Path, default=Path("results/basari"))
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    players = sorted(set(args.players))
    results, summary, negotiation, ratings = tournament(
        args.agents,
        players,
        args.games,
        args.seed,
        args.start_mode,
        args.batch_size,
        progress=not args.no_progress,
    )
    settings = {
        "game": "basari",
        "agents": args.agents,
        "players": players,
        "games": args.games,
        "seed": args.seed,
        "start_mode": args.start_mode,
        "batch_size": args.batch_size,
    }
    write_results(args.out, settings, args.agents, results, summary, negotiation, ratings)
    print(f"BASARI, {args.start_mode} start")
    print(tables_text(summary, ratings, negotiation))
    print(f"\nresults written to {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
