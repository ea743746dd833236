"""A tournament's tables, plot and files: one report for every game.

Writes into --out: games.csv (one row per game: player count, index, seed, the rules, the
agent and the score of every seat, and its points where the game folds tie-breaks into
its scores), summary.csv (one row per agent and player count: win rate with its Wilson
interval, mean points and rank, the rules), one CSV per table of the game's record
(BASARI: negotiation.csv), ratings.csv, results.json (settings, summary, the record's
tables, ratings, games) and win_rates.png. The rules are columns named by the game
(ASARA: variant, expansions as 'genie+gifts', empty for none; BASARI: start_mode); the
title names the game and its rules.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from commandline.outputs import atomic_open, atomic_write_text

from .tournament import Played, Rows, TournamentGame
from .tournament_stats import game_columns, rate_games, rules_columns, summarize


# ---------------------------------------------------------------------------- games
def game_rows(names: list[str], results: list[Played]) -> Rows:
    """One dict per game: player count, index, seed, the rules, agent per seat, score per
    seat (and points per seat where the scores fold tie-breaks in)."""
    rows = []
    for r in results:
        for g, (seed, seating, scores) in enumerate(zip(*game_columns(r))):
            row = {
                "players": r.players,
                "game": g,
                "seed": seed,
                **rules_columns(r.rules),
                "seating": [names[k] for k in seating],
                "scores": scores.tolist(),
            }
            if r.points is not None:
                row["points"] = r.points[g].tolist()
            rows.append(row)
    return rows


def game_fields(results: list[Played], max_players: int) -> list[str]:
    """games.csv's columns: the game, the rules, then per seat (up to `max_players`) the
    agent, the score and, where the game has them, the points."""
    has_points = any(r.points is not None for r in results)
    per_seat = ["seat", "score"] + (["points"] if has_points else [])
    rules = list(dict.fromkeys(k for r in results for k in r.rules))
    return ["players", "game", "seed", *rules] + [
        f"{what}_{s}" for what in per_seat for s in range(max_players)
    ]


def flat_game_row(row: dict[str, Any]) -> dict[str, Any]:
    """A `game_rows` row with one column per seat (`seat_s`, `score_s`, `points_s`)."""
    nested = ("seating", "scores", "points")
    flat = {key: value for key, value in row.items() if key not in nested}
    for column, key in (("seat", "seating"), ("score", "scores"), ("points", "points")):
        flat |= {f"{column}_{s}": x for s, x in enumerate(row.get(key, ()))}
    return flat


def write_csv(path: Path, rows: Rows, fields: list[str]) -> None:
    with atomic_open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


# ---------------------------------------------------------------------------- plot
def plot_win_rates(path: Path, summary: Rows, title: str | None = None) -> None:
    """Grouped bars: win rate with its 95% interval per agent per player count."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    counts = sorted({r["players"] for r in summary})
    agents = list(dict.fromkeys(r["agent"] for r in summary))
    width = 0.8 / len(agents)
    fig, ax = plt.subplots(figsize=(1.5 + 1.2 * len(counts) * max(1, len(agents) / 2), 4))
    for i, agent in enumerate(agents):
        rows = [
            next(r for r in summary if r["players"] == p and r["agent"] == agent) for p in counts
        ]
        rate = np.array([r["win_rate"] for r in rows])
        err = np.array([[x - r["ci_low"], r["ci_high"] - x] for x, r in zip(rate, rows)]).T
        x = np.arange(len(counts)) + (i - (len(agents) - 1) / 2) * width
        ax.bar(x, rate, width, yerr=err, capsize=3, label=agent)
    for j, p in enumerate(counts):
        ax.hlines(1 / p, j - 0.45, j + 0.45, colors="grey", linestyles="dashed")
    ax.set_xticks(range(len(counts)), [f"{p} players" for p in counts])
    ax.set_ylabel("win rate (shared wins split; 95% Wilson)")
    ax.set_ylim(0, 1)
    if title:
        ax.set_title(title)
    ax.legend(loc="upper left", bbox_to_anchor=(1, 1))
    fig.tight_layout()
    with atomic_open(path, "wb") as f:
        fig.savefig(f, dpi=120, format="png")
    plt.close(fig)


# ---------------------------------------------------------------------------- text
def text_table(rows: list[list[Any]], header: list[str]) -> str:
    """A plain aligned table: first column left-aligned, the others right-aligned."""
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    line = "  ".join("-" * w for w in widths)

    def fmt(cells: list[Any]) -> str:
        first, *rest = (str(c) for c in cells)
        return "  ".join([first.ljust(widths[0])] + [c.rjust(w) for c, w in zip(rest, widths[1:])])

    return "\n".join([fmt(header), line, *(fmt(r) for r in rows)])


def results_table(summary: Rows) -> str:
    """One row per agent and player count: seats played, win rate, Wilson interval, mean
    points, mean rank."""
    return text_table(
        [
            [
                r["agent"],
                r["players"],
                r["games"],
                f"{r['win_rate']:.3f}",
                f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]",
                f"{r['mean_points']:.1f}",
                f"{r['mean_rank']:.2f}",
            ]
            for r in summary
        ],
        ["agent", "players", "seats", "win rate", "95% Wilson", "points", "rank"],
    )


def ratings_table(ratings: Rows) -> str:
    """The OpenSkill ratings, best first."""
    return text_table(
        [
            [r["agent"], f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}", r["games"]]
            for r in ratings
        ],
        ["agent", "mu", "sigma", "mu-3sigma", "games"],
    )


def summary_text(summary: Rows, ratings: Rows, middle: str = "") -> str:
    """The results table, `middle` (the game's own tables, if any) and the ratings."""
    parts = [results_table(summary), middle] if middle else [results_table(summary)]
    rating = ratings_table(ratings)
    return "\n\n".join(
        [*parts, f"OpenSkill Plackett-Luce ratings (all games, seed order)\n{rating}"]
    )


# ---------------------------------------------------------------------------- the report
@dataclass
class Report:
    """What a tournament command prints and writes (`write_report`)."""

    title: str  # printed first; the plot's title
    text: str  # the tables, as printed
    summary: Rows  # summary.csv: one row per player count and agent
    ratings: Rows  # ratings.csv: OpenSkill, best first
    games: Rows  # results.json's "games": one per game
    games_csv: Rows  # games.csv's rows
    games_fields: list[str]  # games.csv's columns
    tables: dict[str, Rows] = field(default_factory=dict)  # NAME.csv and results.json[NAME]


def report(game: TournamentGame, names: list[str], results: list[Played]) -> Report:
    """The tables of a tournament of `game`: win rates, mean points and ranks, the game's
    record tables, ratings, one row per game."""
    summary = [row for r in results for row in summarize(names, r)]
    ratings = rate_games(names, results)
    games = game_rows(names, results)
    tables = game.record_tables(names, results) if game.record_tables else {}
    middle = game.record_text(tables) if game.record_text else ""
    text = summary_text(summary, ratings, middle)
    fields = game_fields(results, max(game.player_counts))
    flat = [flat_game_row(g) for g in games]
    return Report(game.title, text, summary, ratings, games, flat, fields, tables)


def write_report(out: Path, settings: dict[str, Any], report: Report) -> None:
    """games.csv, summary.csv, one CSV per extra table, ratings.csv, results.json (settings,
    summary, the extra tables, ratings, games) and win_rates.png in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    write_csv(out / "games.csv", report.games_csv, report.games_fields)
    write_csv(out / "summary.csv", report.summary, list(report.summary[0]))
    for name, rows in report.tables.items():
        write_csv(out / f"{name}.csv", rows, list(rows[0]))
    write_csv(out / "ratings.csv", report.ratings, list(report.ratings[0]))
    document = {
        "settings": settings,
        "summary": report.summary,
        **report.tables,
        "ratings": report.ratings,
        "games": report.games,
    }
    atomic_write_text(out / "results.json", json.dumps(document, indent=1) + "\n")
    plot_win_rates(out / "win_rates.png", report.summary, report.title)
