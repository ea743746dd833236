"""Tournament statistics: win rates with Wilson intervals, mean points and ranks, OpenSkill
ratings.

Statistics count seats: an agent in two seats of one game counts twice. With k winners
(equal scores, the game's tie-breaks folded in: all win) each winner scores 1/k of a win;
the win rate is the mean score, with a 95% Wilson interval over the seats played (an
approximation for fractional wins). Rank 1 is first; tied seats share the mean of their
places. Ratings: OpenSkill's Plackett-Luce model updated game by game over every game of
every player count, sorted by game seed (a fixed, well-mixed order); an agent in several
seats of one game takes the mean of its seats' updated ratings.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from asara_env.common.outcome import ranks, win_shares

from .tournament import Played, Rows

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile


# ---------------------------------------------------------------------------- statistics
def wilson_interval(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a success rate of `wins` out of `n` (0..1 if n = 0)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low, high = max(0.0, centre - half), min(1.0, centre + half)
    return min(p, low), max(p, high)  # contains p despite rounding


def summarize(names: list[str], played: Played) -> Rows:
    """One row per agent: seats played, win score, Wilson interval, mean points, mean rank,
    and the rules played."""
    shares, places = win_shares(played.scores), ranks(played.scores)
    points = played.seat_points()
    rows = []
    for k, name in enumerate(names):
        mine = played.seating == k
        n, wins = int(mine.sum()), float(shares[mine].sum())
        low, high = wilson_interval(wins, n)
        rows.append(
            {
                "players": played.players,
                "agent": name,
                "games": n,
                "wins": wins,
                "win_rate": wins / n if n else float("nan"),
                "ci_low": low,
                "ci_high": high,
                "mean_points": float(points[mine].mean()) if n else float("nan"),
                "mean_rank": float(places[mine].mean()) if n else float("nan"),
            }
            | rules_columns(played.rules)
        )
    return rows


def rules_columns(rules: dict[str, Any]) -> dict[str, Any]:
    """The rules as table cells: a list of names joined by '+' ('genie+gifts', '' if none)."""
    return {k: "+".join(v) if isinstance(v, (list, tuple)) else v for k, v in rules.items()}


# ---------------------------------------------------------------------------- ratings
def rate_games(names: list[str], results: list[Played]) -> Rows:
    """Plackett-Luce ratings over all games sorted by seed, best ordinal first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating() for _ in names]
    games = [(s, seating, p) for r in results for s, seating, p in zip(*game_columns(r))]
    for _, seating, scores in sorted(games, key=lambda g: g[0]):
        # one rating object per seat: openskill mixes up an object passed in twice
        teams = [[model.rating(mu=ratings[k].mu, sigma=ratings[k].sigma)] for k in seating]
        new = model.rate(teams, scores=[float(x) for x in scores])
        for k in set(seating.tolist()):
            seats = [new[s][0] for s in np.flatnonzero(seating == k)]
            mu, sigma = np.mean([r.mu for r in seats]), np.mean([r.sigma for r in seats])
            ratings[k] = model.rating(mu=float(mu), sigma=float(sigma))
    played = _seats_played(len(names), results)
    rows = [
        {"agent": n, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal(), "games": played[k]}
        for k, (n, r) in enumerate(zip(names, ratings))
    ]
    return sorted(rows, key=lambda row: -row["ordinal"])


def game_columns(played: Played) -> tuple[list[int], np.ndarray, np.ndarray]:
    """Per game: seed, seating and scores."""
    return played.seeds.tolist(), played.seating, played.scores


def _seats_played(num_agents: int, results: list[Played]) -> list[int]:
    return [int(sum((r.seating == k).sum() for r in results)) for k in range(num_agents)]
