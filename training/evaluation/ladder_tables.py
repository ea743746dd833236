"""The ladder's tables from its logged games (training/evaluation/ladder.py): the games as
the tournament's `Played`, an Elo-style scale (a Bradley-Terry model fitted to every pair
of seats of every game, with a bootstrap interval), one row per agent (Elo, seats, win rate
with its Wilson interval, time per decision), the OpenSkill ratings, and the files
written: games.csv, ladder.csv, ratings.csv, results.json, ladder.png, and per player
count ladder_<P>p.csv and ladder_<P>p.png."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from asara_env.common.outcome import win_shares
from commandline.outputs import atomic_open, atomic_write_text

from .tournament import Played, Rows, TournamentGame
from .tournament_report import text_table, write_csv
from .tournament_stats import rate_games, wilson_interval

ELO = 400 / np.log(10)  # Elo points per natural-log unit of odds
BOOTSTRAP = 200  # resamples of the games for the Elo intervals
Settings = dict[str, Any]  # agents ([label, spec] pairs), players, games, seed, the rules


def as_played(labels: list[str], rows: Rows) -> list[Played]:
    """The games as the tournament's `Played` (one per player count)."""
    index = {label: k for k, label in enumerate(labels)}
    played = []
    for p in sorted({r["players"] for r in rows}):
        mine = [r for r in rows if r["players"] == p]
        played.append(
            Played(
                p,
                np.array([r["seed"] for r in mine], np.uint64),
                np.array([[index[a] for a in r["seating"]] for r in mine], np.int64),
                np.array([r["scores"] for r in mine], np.int64),
            )
        )
    return played


def pairwise(labels: list[str], rows: Rows) -> list[list[tuple[int, int]]]:
    """Per game, the (winner, loser) agent indices of every pair of its seats; a tie gives
    both orders."""
    index = {label: k for k, label in enumerate(labels)}
    games = []
    for r in rows:
        seats, scores, pairs = [index[a] for a in r["seating"]], r["scores"], []
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                if scores[i] >= scores[j]:
                    pairs.append((seats[i], seats[j]))
                if scores[j] >= scores[i]:
                    pairs.append((seats[j], seats[i]))
        games.append(pairs)
    return games


def elo_fit(n: int, games: list[list[tuple[int, int]]], anchor: int) -> np.ndarray:
    """float[n]: Bradley-Terry strengths of the pairs in Elo points, `anchor` at 0."""
    import choix

    params = choix.opt_pairwise(n, [pair for pairs in games for pair in pairs], alpha=0.01)
    return (params - params[anchor]) * ELO


def elo_table(labels: list[str], rows: Rows, seed: int, bootstrap: int = BOOTSTRAP) -> Rows:
    """Elo per agent with a 95% interval from `bootstrap` resamples of the games."""
    anchor = labels.index("random") if "random" in labels else 0
    games = pairwise(labels, rows)
    elo = elo_fit(len(labels), games, anchor)
    rng = np.random.default_rng([seed, 7])
    picks = rng.integers(len(games), size=(bootstrap, len(games)))
    samples = np.array([elo_fit(len(labels), [games[i] for i in p], anchor) for p in picks])
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    return [
        {"agent": a, "elo": float(elo[k]), "elo_low": float(low[k]), "elo_high": float(high[k])}
        for k, a in enumerate(labels)
    ]


def agent_table(labels: list[str], rows: Rows, seed: int, bootstrap: int = BOOTSTRAP) -> Rows:
    """One row per agent, best Elo first: Elo and interval, seats, win rate, time per
    decision."""
    elo = {r["agent"]: r for r in elo_table(labels, rows, seed, bootstrap)}
    table = []
    for a in labels:
        shares = [
            win_shares(np.array(r["scores"]))[s]
            for r in rows
            for s, who in enumerate(r["seating"])
            if who == a
        ]
        seconds = sum(r["seconds"].get(a, 0.0) for r in rows)
        cpu = sum(r.get("cpu_seconds", {}).get(a, 0.0) for r in rows)
        decisions = sum(r["decisions"].get(a, 0) for r in rows)
        choices = sum(r["choices"].get(a, 0) for r in rows)
        low, high = wilson_interval(float(sum(shares)), len(shares))
        table.append(
            elo[a]
            | {
                "seats": len(shares),
                "win_rate": float(np.mean(shares)) if shares else float("nan"),
                "win_low": low,
                "win_high": high,
                "decisions": decisions,
                "ms_per_decision": 1e3 * seconds / max(decisions, 1),
                "ms_per_choice": 1e3 * seconds / max(choices, 1),
                "cpu_ms_per_choice": 1e3 * cpu / max(choices, 1),
            }
        )
    return sorted(table, key=lambda r: -r["elo"])


def plot_ladder(path: Path, table: Rows, ratings: Rows, title: str) -> None:
    """Two panels: Elo with its 95% interval, and OpenSkill mu with +-3 sigma."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 0.5 * len(table) + 1.8))
    names = [r["agent"] for r in table][::-1]
    elo = np.array([r["elo"] for r in table][::-1])
    err = np.array([[r["elo"] - r["elo_low"], r["elo_high"] - r["elo"]] for r in table][::-1]).T
    left.errorbar(elo, range(len(names)), xerr=err, fmt="o", capsize=3)
    left.set_yticks(range(len(names)), names)
    left.set_xlabel("Elo (Bradley-Terry over seat pairs; random = 0; 95% bootstrap)")
    by_name = {r["agent"]: r for r in ratings}
    mu = np.array([by_name[n]["mu"] for n in names])
    sigma = np.array([by_name[n]["sigma"] for n in names])
    right.errorbar(mu, range(len(names)), xerr=3 * sigma, fmt="s", capsize=3, color="C1")
    right.set_yticks(range(len(names)), names)
    right.set_xlabel("OpenSkill Plackett-Luce mu (+- 3 sigma)")
    fig.suptitle(title)
    fig.tight_layout()
    with atomic_open(path, "wb") as f:
        fig.savefig(f, dpi=120, format="png")
    plt.close(fig)


def ladder_text(table: Rows) -> str:
    return text_table(
        [
            [
                r["agent"],
                f"{r['elo']:.0f}",
                f"[{r['elo_low']:.0f}, {r['elo_high']:.0f}]",
                r["seats"],
                f"{r['win_rate']:.3f}",
                f"[{r['win_low']:.3f}, {r['win_high']:.3f}]",
                f"{r['ms_per_decision']:.1f}",
                f"{r['ms_per_choice']:.1f}",
                f"{r['cpu_ms_per_choice']:.1f}",
            ]
            for r in table
        ],
        [
            "agent",
            "Elo",
            "95% interval",
            "seats",
            "win rate",
            "95% Wilson",
            "ms/dec",
            "ms/choice",
            "cpu ms/choice",
        ],
    )


@dataclass(frozen=True)
class Standing:
    """The ladder of some of its games (all, or one player count's): the agent table and
    the OpenSkill ratings."""

    table: Rows
    ratings: Rows


def standing(labels: list[str], rows: Rows, seed: int) -> Standing:
    """The agent table and the OpenSkill ratings of the games `rows`."""
    return Standing(agent_table(labels, rows, seed), rate_games(labels, as_played(labels, rows)))


def per_players(settings: Settings, rows: Rows) -> dict[int, Standing]:
    """One standing per player count of a ladder of several, of the agents seated at that
    count (none for a single count: the whole ladder is its table)."""
    if len(settings["players"]) < 2:
        return {}
    standings = {}
    for p in settings["players"]:
        mine = [r for r in rows if r["players"] == p]
        seated = {a for r in mine for a in r["seating"]}
        labels = [label for label, _ in settings["agents"] if label in seated]
        if mine:
            standings[p] = standing(labels, mine, settings["seed"])
    return standings


def _write_standing(out: Path, name: str, found: Standing, title: str) -> None:
    write_csv(out / f"{name}.csv", found.table, list(found.table[0]))
    plot_ladder(out / f"{name}.png", found.table, found.ratings, title)


def write_outputs(
    game: TournamentGame, out: Path, settings: Settings, rows: Rows
) -> tuple[Standing, dict[int, Standing]]:
    """games.csv, ladder.csv, ratings.csv, results.json and ladder.png, and for a ladder
    of several player counts ladder_<P>p.csv and ladder_<P>p.png for each; returns the
    whole ladder's standing and each player count's."""
    labels = [label for label, _ in settings["agents"]]
    whole = standing(labels, rows, settings["seed"])
    counts = per_players(settings, rows)
    flat = [
        {k: r[k] for k in ("players", "game", "seed")}
        | {f"seat_{s}": a for s, a in enumerate(r["seating"])}
        | {f"score_{s}": x for s, x in enumerate(r["scores"])}
        for r in rows
    ]
    fields = ["players", "game", "seed"] + [
        f"{w}_{s}" for w in ("seat", "score") for s in range(max(settings["players"]))
    ]
    write_csv(out / "games.csv", flat, fields)
    write_csv(out / "ratings.csv", whole.ratings, list(whole.ratings[0]))
    document = {
        "settings": settings,
        "ladder": whole.table,
        "ratings": whole.ratings,
        "by_players": {
            str(p): {"ladder": s.table, "ratings": s.ratings} for p, s in counts.items()
        },
        "games": rows,
    }
    atomic_write_text(out / "results.json", json.dumps(document, indent=1) + "\n")
    players = "+".join(str(p) for p in settings["players"])
    _write_standing(out, "ladder", whole, f"{game.title}; {players} players; {len(rows)} games")
    for p, found in counts.items():
        games = sum(r["players"] == p for r in rows)
        _write_standing(out, f"ladder_{p}p", found, f"{game.title}; {p} players; {games} games")
    return whole, counts
