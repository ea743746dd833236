"""Tournament: registered agents play many seeded games; win rates, ranks and ratings.

    python -m training.tournament --agents random,greedy --players 2 3 4 --games 1000 \\
        --seed 0 --out results/ [--variant pro] [--expansions genie,gifts]

For each player count P the games are played in blocks of P: a lineup of P agents plays
all P cyclic rotations of its seats, so within every block each agent of the lineup sits
in each seat once. With K >= P agents the lineups are the K-choose-P combinations, taken
in rounds, each round in a seeded random order and each lineup in a seeded random seat
order; every round gives each agent the same number of games. With K < P an agent fills
several seats: the K lineups are agents i, i+1, ... (mod K). `--games` is rounded up to
a multiple of P, so every agent sits in every seat equally often; agents also play equally
many games when the games fill whole rounds.

Statistics count seats: an agent in two seats of one game counts twice. With k winners
(R8.5: ties all win) each winner scores 1/k of a win; the win rate is the mean score,
with a 95% Wilson interval over the seats played (an approximation for fractional wins).
Rank 1 is first; tied seats share the mean of their places. Ratings: OpenSkill's
Plackett-Luce model updated game by game over every game of every player count, sorted
by game seed (a fixed, well-mixed order); an agent in several seats of one game takes the
mean of its seats' updated ratings.

Seeds: the schedule of player count P uses `default_rng([seed, P, 0])`, agent k is
seeded `sub_seed(seed, P, 1, k)`, and game g is the reference game
`derived_seed(sub_seed(seed, P, 2), g)` (recorded per game). Agents are fresh per player
count and draw their random numbers in batch order, so results depend on `--batch-size`.

Every game is played with the rules of `--variant` and `--expansions` (R9; the Genie needs
the professional variant). Writes into --out: games.csv (one row per game), summary.csv
(one row per agent and player count), ratings.csv, results.json (settings, summary,
ratings, games) and win_rates.png; games.csv and summary.csv name the variant and the
expansions ('genie+gifts', empty for none) in every row, the plot in its title.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import math
import sys
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from agents import AGENT_SPECS, AGENTS, agent_names, make_agent
from agents.arena import play_batch
from apps.options import add_expansions_argument, check_rules
from asara_env.common.outcome import ranks, win_shares
from asara_env.common.seeding import derived_seeds
from asara_env.config import VARIANTS, GameConfig

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile
MAX_PLAYERS = 4


@dataclass
class Played:
    """The games of one player count."""

    players: int
    seeds: np.ndarray  # uint64[G] reference seed of each game
    seating: np.ndarray  # int64[G, P] agent index in each seat
    prestige: np.ndarray  # int64[G, P] final score of each seat (ASARA: prestige)
    variant: str = "basic"  # the rules the games were played with
    expansions: tuple[str, ...] = ()

    @property
    def rules(self) -> dict:
        """The variant and the expansions as table columns: 'genie+gifts', '' for none."""
        return {"variant": self.variant, "expansions": "+".join(self.expansions)}


# ---------------------------------------------------------------------------- scheduling
def sub_seed(seed: int, *path: int) -> int:
    """A 64-bit seed derived from `seed` and a path of non-negative ints."""
    return int(np.random.SeedSequence([seed, *path]).generate_state(1, np.uint64)[0])


def lineups(num_agents: int, players: int) -> list[tuple[int, ...]]:
    """The groups of agents that share a game (see the module docstring)."""
    if num_agents >= players:
        return list(itertools.combinations(range(num_agents), players))
    return [tuple((r + i) % num_agents for i in range(players)) for r in range(num_agents)]


def schedule(num_agents: int, players: int, games: int, rng: np.random.Generator) -> np.ndarray:
    """int64[G, P] seating, G = `games` rounded up to a multiple of P: blocks of P games,
    one lineup in all P rotations; lineups drawn in shuffled rounds, seats shuffled."""
    blocks = -(-games // players)
    pool, order = lineups(num_agents, players), []
    while len(order) < blocks:
        order += [rng.permutation(pool[i]) for i in rng.permutation(len(pool))]
    return np.array([np.roll(lineup, r) for lineup in order[:blocks] for r in range(players)])


def game_seeds(seed: int, players: int, games: int) -> np.ndarray:
    """uint64[G]: the reference seed of each game of player count `players`."""
    return derived_seeds(sub_seed(seed, players, 2), np.arange(games, dtype=np.uint64))


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


def summarize(names: list[str], played: Played) -> list[dict]:
    """One row per agent: seats played, win score, Wilson interval, mean prestige, rank."""
    shares, places = win_shares(played.prestige), ranks(played.prestige)
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
                "mean_prestige": float(played.prestige[mine].mean()) if n else float("nan"),
                "mean_rank": float(places[mine].mean()) if n else float("nan"),
            }
            | played.rules
        )
    return rows


# ---------------------------------------------------------------------------- ratings
def rate_games(names: list[str], results: list[Played]) -> list[dict]:
    """Plackett-Luce ratings over all games sorted by seed, best ordinal first."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating() for _ in names]
    games = [(s, seating, p) for r in results for s, seating, p in zip(*_columns(r))]
    for _, seating, prestige in sorted(games, key=lambda g: g[0]):
        # one rating object per seat: openskill mixes up an object passed in twice
        teams = [[model.rating(mu=ratings[k].mu, sigma=ratings[k].sigma)] for k in seating]
        new = model.rate(teams, scores=[float(x) for x in prestige])
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


def _columns(played: Played):
    return played.seeds.tolist(), played.seating, played.prestige


def _seats_played(num_agents: int, results: list[Played]) -> list[int]:
    return [int(sum((r.seating == k).sum() for r in results)) for k in range(num_agents)]


# ---------------------------------------------------------------------------- running
@dataclass(frozen=True)
class TournamentGame:
    """What the tournament needs of a game: everything else here (scheduling, seeds,
    statistics, ratings, output) is game-agnostic. `play(players, agents, seating, seeds,
    batch_size, bar)` returns the final scores int[G, P] (higher is better; ties share
    the win) of G games, game g seeded `seeds[g]` with `agents[seating[g, s]]` in seat s."""

    agent_names: Collection[str]
    make_agent: Callable[[str, int], Any]
    play: Callable[..., np.ndarray]
    player_counts: tuple[int, ...]
    variant: str = "basic"  # the rules the games are played with (table columns)
    expansions: tuple[str, ...] = ()


def asara_game(variant: str = "basic", expansions: Sequence[str] = ()) -> TournamentGame:
    """ASARA with the baselines and shipped models of `agents`, played in batches through
    the core."""
    configs = {
        p: GameConfig(num_players=p, variant=variant, expansions=tuple(expansions))
        for p in (2, 3, 4)
    }

    def play(players: int, agents: list, seating: np.ndarray, seeds: np.ndarray, batch, bar):
        return play_batch(configs[players], agents, seating, seeds, batch, bar)

    rules = configs[2]
    return TournamentGame(AGENT_SPECS, make_agent, play, (2, 3, 4), rules.variant, rules.expansions)


def run_tournament(
    names: list[str],
    players: list[int],
    games: int,
    seed: int = 0,
    variant: str = "basic",
    batch_size: int = 256,
    progress: bool = False,
    expansions: tuple[str, ...] = (),
    game: TournamentGame | None = None,
) -> list[Played]:
    """Play `games` (rounded up to a multiple of P) games per player count P, of `game`
    (default: ASARA with the rules of `variant` and `expansions`)."""
    game = game or asara_game(variant, expansions)
    _check_settings(game, names, players, games, seed)
    seatings = {
        p: schedule(len(names), p, games, np.random.default_rng([seed, p, 0])) for p in players
    }
    bar = _progress_bar(progress, sum(len(s) for s in seatings.values()))
    results = []
    for p in players:
        agents = [game.make_agent(n, sub_seed(seed, p, 1, k)) for k, n in enumerate(names)]
        seeds = game_seeds(seed, p, len(seatings[p]))
        scores = game.play(p, agents, seatings[p], seeds, batch_size, bar)
        results.append(Played(p, seeds, seatings[p], scores, game.variant, game.expansions))
    if bar is not None:
        bar.close()
    return results


def _check_settings(
    game: TournamentGame, names: list[str], players: list[int], games: int, seed: int
) -> None:
    known = sorted(game.agent_names)
    unknown = [n for n in names if n not in game.agent_names]
    problems = [
        (not names, "no agents given"),
        (bool(unknown), f"unknown agent(s) {unknown}; known: {known}"),
        (len(set(names)) < len(names), f"an agent is named twice in {names}"),
        (not players, "no player counts given"),
        (
            any(p not in game.player_counts for p in players),
            f"players must be among {game.player_counts}, got {players}",
        ),
        (games < 1, f"games must be at least 1, got {games}"),
        (seed < 0, f"seed must be a non-negative int, got {seed}"),
    ]
    for bad, message in problems:
        if bad:
            raise ValueError(message)


def _progress_bar(progress: bool, total: int):
    if not progress:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="game", desc="tournament")


# ---------------------------------------------------------------------------- output
GAME_FIELDS = ["players", "game", "seed", "variant", "expansions"] + [
    f"{what}_{s}" for what in ("seat", "prestige") for s in range(MAX_PLAYERS)
]


def game_rows(names: list[str], results: list[Played]) -> list[dict]:
    """One dict per game: player count, index, seed, variant, expansions, agent per seat,
    prestige per seat."""
    rows = []
    for r in results:
        for g, (seed, seating, prestige) in enumerate(zip(*_columns(r))):
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


def write_results(out: Path, settings: dict, names: list[str], results, summary, ratings):
    """games.csv, summary.csv, ratings.csv, results.json and win_rates.png in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    games = game_rows(names, results)
    write_csv(out / "games.csv", [_flat_game_row(g) for g in games], GAME_FIELDS)
    write_csv(out / "summary.csv", summary, list(summary[0]))
    write_csv(out / "ratings.csv", ratings, list(ratings[0]))
    document = {"settings": settings, "summary": summary, "ratings": ratings, "games": games}
    (out / "results.json").write_text(json.dumps(document, indent=1) + "\n")
    title = rules_title(settings.get("variant", "basic"), settings.get("expansions", ()))
    plot_win_rates(out / "win_rates.png", summary, title)


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


# ---------------------------------------------------------------------------- command line
def _agent_list(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    try:
        _check_settings(asara_game(), names, [2], 1, 0)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return names


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative int, got {value}")
    return value


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="asara-tournament", description="Play agents against each other in ASARA."
    )
    parser.add_argument(
        "--agents",
        type=_agent_list,
        default=sorted(AGENTS),
        help=f"comma-separated agents from {agent_names()} (default: the baselines "
        f"{sorted(AGENTS)})",
    )
    parser.add_argument("--players", type=int, nargs="+", choices=(2, 3, 4), default=[2, 3, 4])
    parser.add_argument("--games", type=_positive, default=1000, help="games per player count")
    parser.add_argument("--seed", type=_non_negative, default=0)
    parser.add_argument("--variant", choices=VARIANTS, default="basic")
    add_expansions_argument(parser)
    parser.add_argument("--batch-size", type=_positive, default=256)
    parser.add_argument("--out", type=Path, default=Path("results"))
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    args = parser.parse_args(argv)
    check_rules(parser, args)
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    players = sorted(set(args.players))
    results = run_tournament(
        args.agents,
        players,
        args.games,
        args.seed,
        args.variant,
        args.batch_size,
        progress=not args.no_progress,
        expansions=args.expansions,
    )
    summary = [row for r in results for row in summarize(args.agents, r)]
    ratings = rate_games(args.agents, results)
    settings = {
        "agents": args.agents,
        "players": players,
        "games": args.games,
        "seed": args.seed,
        "variant": args.variant,
        "expansions": list(args.expansions),
        "batch_size": args.batch_size,
    }
    write_results(args.out, settings, args.agents, results, summary, ratings)
    print(rules_title(args.variant, args.expansions))
    print(summary_text(summary, ratings))
    print(f"\nresults written to {args.out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
