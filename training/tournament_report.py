"""A tournament's tables, plot and files.

Every game is played with the rules of `--variant` and `--expansions` (R9; the Genie needs
the professional variant). Writes into --out: games.csv (one row per game), summary.csv
(one row per agent and player count), ratings.csv, results.json (settings, summary,
ratings, games) and win_rates.png; games.csv and summary.csv name the variant and the
expansions ('genie+gifts', empty for none) in every row, the plot in its title.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from .tournament import MAX_PLAYERS, Played
from .tournament_stats import game_columns, rate_games, summarize

# ---------------------------------------------------------------------------- output
GAME_FIELDS = ["players", "game", "seed", "variant", "expansions"] + [
    f"{what}_{s}" for what in ("seat", "prestige") for s in range(MAX_PLAYERS)
]


def game_rows(names: list[str], results: list[Played]) -> list[dict]:
    """One dict per game: player count, index, seed, variant, expansions, agent per seat,
    prestige per seat."""
    rows = []
    for r in results:
        for g, (seed, seating, prestige) in enumerate(zip(*game_columns(r))):
            rows.append(
                {
                    "players": r.players,
                    "game": g,
                    "seed": seed,
                    **r.rules,
                    "seating": [names[k] for k in seating],
                    "prestige": prestige.tolist(),
                }
            )
    return rows


def _flat_game_row(row: dict) -> dict:
    flat = {key: row[key] for key in ("players", "game", "seed", "variant", "expansions")}
    for s, (name, points) in enumerate(zip(row["seating"], row["prestige"])):
        flat[f"seat_{s}"], flat[f"prestige_{s}"] = name, points
    return flat


def write_csv(path: Path, rows: list[dict], fields: list[str]) -> None:
    with open(path, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def rules_title(variant: str, expansions) -> str:
    """'ASARA, pro rules + genie + gifts'."""
    return f"ASARA, {variant} rules" + "".join(f" + {e}" for e in expansions)


def plot_win_rates(path: Path, summary: list[dict], title: str | None = None) -> None:
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
    fig.savefig(path, dpi=120)
    plt.close(fig)


def text_table(rows: list[list[str]], header: list[str]) -> str:
    """A plain aligned table: first column left-aligned, the others right-aligned."""
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]
    line = "  ".join("-" * w for w in widths)

    def fmt(cells):
        first, *rest = (str(c) for c in cells)
        return "  ".join([first.ljust(widths[0])] + [c.rjust(w) for c, w in zip(rest, widths[1:])])

    return "\n".join([fmt(header), line, *(fmt(r) for r in rows)])


def results_table(summary: list[dict], score: str = "prestige", seats: str = "games") -> str:
    """One row per agent and player count: win rate, Wilson interval, mean `score` (the
    summary's `mean_<score>` column), mean rank; `seats` heads the seats-played column."""
    return text_table(
        [
            [
                r["agent"],
                r["players"],
                r["games"],
                f"{r['win_rate']:.3f}",
                f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}]",
                f"{r[f'mean_{score}']:.1f}",
                f"{r['mean_rank']:.2f}",
            ]
            for r in summary
        ],
        ["agent", "players", seats, "win rate", "95% Wilson", score, "rank"],
    )


def ratings_table(ratings: list[dict]) -> str:
    """The OpenSkill ratings, best first."""
    return text_table(
        [
            [r["agent"], f"{r['mu']:.2f}", f"{r['sigma']:.2f}", f"{r['ordinal']:.2f}", r["games"]]
            for r in ratings
        ],
        ["agent", "mu", "sigma", "mu-3sigma", "games"],
    )


def summary_text(summary: list[dict], ratings: list[dict]) -> str:
    """The summary and rating tables as text."""
    rating = ratings_table(ratings)
    return (
        f"{results_table(summary)}\n\nOpenSkill Plackett-Luce ratings (all games, seed order)"
        f"\n{rating}"
    )


@dataclass
class Report:
    """What a tournament command prints and writes (`write_report`)."""

    title: str  # printed first; the plot's title
    text: str  # the tables, as printed
    summary: list[dict]  # summary.csv: one row per player count and agent
    ratings: list[dict]  # ratings.csv: OpenSkill, best first
    games: list[dict]  # results.json's "games": one per game
    games_csv: list[dict]  # games.csv's rows
    games_fields: list[str]  # games.csv's columns
    tables: dict[str, list[dict]] = field(default_factory=dict)  # NAME.csv and results.json[NAME]


def write_report(out: Path, settings: dict, report: Report) -> None:
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
    (out / "results.json").write_text(json.dumps(document, indent=1) + "\n")
    plot_win_rates(out / "win_rates.png", report.summary, report.title)


def asara_report(settings: dict, names: list[str], results: list[Played]) -> Report:
    """ASARA's tables: win rates, mean prestige and ranks, ratings, one row per game."""
    summary = [row for r in results for row in summarize(names, r)]
    ratings = rate_games(names, results)
    games = game_rows(names, results)
    title = rules_title(settings.get("variant", "basic"), settings.get("expansions", ()))
    text = summary_text(summary, ratings)
    flat = [_flat_game_row(g) for g in games]
    return Report(title, text, summary, ratings, games, flat, GAME_FIELDS)
