"""Tournament: registered agents play many seeded games; win rates, ranks and ratings.

    python -m training.tournament --agents random,greedy --players 2 3 4 --games 1000 \\
        --seed 0 --out results/ [--variant pro] [--expansions genie,gifts] \\
        [--chunk-size 256] [--ray | --address A]

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

Chunks and seeds: the games of player count P are cut into chunks of `--chunk-size`
games (default 256; the last chunk shorter), game g in chunk g // chunk-size. A chunk is
played by freshly made agents, agent k seeded `sub_seed(seed, P, 1, k, c)` in chunk c,
its games stepped together as one batch of the core; so a chunk's results depend only on
the settings and its index. The schedule of player count P uses `default_rng([seed, P,
0])`, and game g is the reference game `derived_seed(sub_seed(seed, P, 2), g)` (recorded
per game). Chunks are played one after the other, or as Ray tasks with `--ray` (a local
Ray instance) or `--address A` (the cluster at A), with identical results: the results
depend on the seed and the chunk size, not on where the chunks run. Agents draw their
random numbers in the order of the games of their chunk, so another chunk size gives other
(equally valid) games.

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agents import AGENT_SPECS, AGENTS, make_agent
from agents.arena import play_batch
from apps.options import add_expansions_argument, check_rules
from asara_env.common.outcome import ranks, win_shares
from asara_env.common.seeding import derived_seeds
from asara_env.config import VARIANTS, GameConfig

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile
MAX_PLAYERS = 4
CHUNK_SIZE = 256  # games per chunk: played together by fresh agents; one Ray task


@dataclass
class Played:
    """The games of one player count."""

    players: int
    seeds: np.ndarray  # uint64[G] reference seed of each game
    seating: np.ndarray  # int64[G, P] agent index in each seat
    prestige: np.ndarray  # int64[G, P] final score of each seat (ASARA: prestige)
    variant: str = "basic"  # the rules the games were played with
    expansions: tuple[str, ...] = ()
    record: Any = None  # what the game measured besides the scores (TournamentGame.new_record)

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
    chunks, Ray, statistics, ratings, output) is game-agnostic.

    `play(players, agents, seating, seeds, bar, record)` returns the final scores int[G, P]
    (higher is better; ties share the win) of G games, game g seeded `seeds[g]` with
    `agents[seating[g, s]]` in seat s, all G stepped together; it advances `bar` (a tqdm
    bar or None) by one per game. `record` is None, or with `new_record` a fresh
    `new_record(players, num_agents)` that `play` fills with whatever else it measures
    (BASARI: the negotiation figures); `merge_records` sums the chunks' records."""

    agent_names: Collection[str]
    make_agent: Callable[[str, int], Any]
    play: Callable[..., np.ndarray]
    player_counts: tuple[int, ...]
    variant: str = "basic"  # the rules the games are played with (table columns)
    expansions: tuple[str, ...] = ()
    new_record: Callable[[int, int], Any] | None = None
    merge_records: Callable[[list], Any] | None = None


def asara_game(variant: str = "basic", expansions: Sequence[str] = ()) -> TournamentGame:
    """ASARA with the baselines and shipped models of `agents`, played in batches through
    the core."""
    configs = {
        p: GameConfig(num_players=p, variant=variant, expansions=tuple(expansions))
        for p in (2, 3, 4)
    }

    def play(
        players: int, agents: list, seating: np.ndarray, seeds: np.ndarray, bar: Any, record: None
    ) -> np.ndarray:
        return play_batch(configs[players], agents, seating, seeds, len(seeds), bar)

    rules = configs[2]
    return TournamentGame(AGENT_SPECS, make_agent, play, (2, 3, 4), rules.variant, rules.expansions)


def chunk_agent_seed(seed: int, players: int, agent: int, chunk: int) -> int:
    """The seed of agent `agent` in chunk `chunk` of player count `players`."""
    return sub_seed(seed, players, 1, agent, chunk)


def play_chunk(
    game: TournamentGame,
    names: list[str],
    players: int,
    seed: int,
    chunk: int,
    seating: np.ndarray,
    seeds: np.ndarray,
    bar: Any = None,
) -> tuple[np.ndarray, Any]:
    """(scores int[G, P], record) of one chunk of games, played by freshly made agents
    seeded `chunk_agent_seed(seed, players, k, chunk)`: a chunk's results depend on
    nothing else, so chunks can be played in any order, anywhere."""
    agents = [
        game.make_agent(n, chunk_agent_seed(seed, players, k, chunk)) for k, n in enumerate(names)
    ]
    record = game.new_record(players, len(names)) if game.new_record else None
    return game.play(players, agents, seating, seeds, bar, record), record


def run_tournament(
    names: list[str],
    players: list[int],
    games: int,
    seed: int = 0,
    variant: str = "basic",
    chunk_size: int = CHUNK_SIZE,
    progress: bool = False,
    expansions: tuple[str, ...] = (),
    game: TournamentGame | None = None,
    use_ray: bool = False,
    address: str | None = None,
) -> list[Played]:
    """Play `games` (rounded up to a multiple of P) games per player count P, of `game`
    (default: ASARA with the rules of `variant` and `expansions`), in chunks of
    `chunk_size` games: one after the other here, or as Ray tasks with `use_ray` (on the
    cluster at `address`; None: a local instance), with the same results."""
    game = game or asara_game(variant, expansions)
    _check_settings(game, names, players, games, seed, chunk_size)
    seatings = {
        p: schedule(len(names), p, games, np.random.default_rng([seed, p, 0])) for p in players
    }
    seeds = {p: game_seeds(seed, p, len(seatings[p])) for p in players}
    jobs = [
        (game, names, p, seed, c, seatings[p][part], seeds[p][part])
        for p in players
        for c, part in enumerate(chunks(len(seatings[p]), chunk_size))
    ]
    bar = _progress_bar(progress, sum(len(s) for s in seatings.values()))
    if use_ray:
        done = _ray_chunks(jobs, address, bar)
    else:
        done = [play_chunk(*job, bar=bar) for job in jobs]
    if bar is not None:
        bar.close()
    results = []
    for p in players:
        mine = [result for job, result in zip(jobs, done) if job[2] == p]
        scores = np.concatenate([scores for scores, _ in mine])
        record = game.merge_records([r for _, r in mine]) if game.merge_records else None
        played = Played(p, seeds[p], seatings[p], scores, game.variant, game.expansions, record)
        results.append(played)
    return results


def chunks(games: int, chunk_size: int) -> list[slice]:
    """The chunks of `games` games: consecutive slices of `chunk_size` (the last shorter)."""
    return [slice(lo, min(lo + chunk_size, games)) for lo in range(0, games, chunk_size)]


def _ray_chunks(jobs: list[tuple], address: str | None, bar: Any) -> list[tuple[np.ndarray, Any]]:
    """The chunks' results played as Ray tasks, in the order of `jobs`; `bar` advances as
    each chunk finishes."""
    from .distribute import ray_jobs

    done: list = [None] * len(jobs)
    for i, result in ray_jobs(play_chunk, jobs, address):
        done[i] = result
        if bar is not None:
            bar.update(len(jobs[i][-1]))
    return done


def _check_settings(
    game: TournamentGame,
    names: list[str],
    players: list[int],
    games: int,
    seed: int,
    chunk_size: int = CHUNK_SIZE,
) -> None:
    problems = [
        (bool(agent_problem(game.agent_names, names)), agent_problem(game.agent_names, names)),
        (not players, "no player counts given"),
        (len(set(players)) < len(players), f"a player count is given twice in {players}"),
        (
            any(p not in game.player_counts for p in players),
            f"players must be among {game.player_counts}, got {players}",
        ),
        (games < 1, f"games must be at least 1, got {games}"),
        (seed < 0, f"seed must be a non-negative int, got {seed}"),
        (chunk_size < 1, f"chunk size must be at least 1, got {chunk_size}"),
    ]
    for bad, message in problems:
        if bad:
            raise ValueError(message)


def agent_problem(known: Collection[str], names: list[str]) -> str:
    """What is wrong with the agent list `names` ('' if nothing)."""
    unknown = [n for n in names if n not in known]
    if not names:
        return "no agents given"
    if unknown:
        return f"unknown agent(s) {unknown}; known: {sorted(known)}"
    if len(set(names)) < len(names):
        return f"an agent is named twice in {names}"
    return ""


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


# ---------------------------------------------------------------------------- command line
@dataclass(frozen=True)
class TournamentCommand:
    """What a game's tournament command line has of its own; the arguments (agents,
    players, games, seed, chunk size, output, Ray, progress), the run and the files are
    shared (`parse_args`, `run_command`)."""

    prog: str
    description: str
    agent_names: Collection[str]  # the agents it knows
    default_agents: list[str]
    default_games: int
    default_out: Path
    player_counts: tuple[int, ...]
    add_rules: Callable[[argparse.ArgumentParser], None]  # the game's rules options
    rules: Callable[[argparse.ArgumentParser, argparse.Namespace], dict]  # checked, as settings
    game: Callable[[argparse.Namespace], TournamentGame]
    report: Callable[[dict, list[str], list[Played]], Report]  # (settings, agents, results)


def _asara_rules_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", choices=VARIANTS, default="basic")
    add_expansions_argument(parser)


def _asara_rules(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict:
    check_rules(parser, args)
    return {"game": "asara", "variant": args.variant, "expansions": list(args.expansions)}


ASARA_COMMAND = TournamentCommand(
    prog="asara-tournament",
    description="Play agents against each other in ASARA.",
    agent_names=AGENT_SPECS,
    default_agents=sorted(AGENTS),
    default_games=1000,
    default_out=Path("results"),
    player_counts=(2, 3, 4),
    add_rules=_asara_rules_options,
    rules=_asara_rules,
    game=lambda args: asara_game(args.variant, args.expansions),
    report=asara_report,
)


def _agent_list(known: Collection[str]) -> Callable[[str], list[str]]:
    def parse(text: str) -> list[str]:
        names = [n.strip() for n in text.split(",") if n.strip()]
        problem = agent_problem(known, names)
        if problem:
            raise argparse.ArgumentTypeError(problem)
        return names

    return parse


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


def parse_command_args(
    command: TournamentCommand, argv: list[str] | None = None
) -> argparse.Namespace:
    """The arguments of `command`'s tournament; `args.settings` holds what the results
    depend on (written into results.json)."""
    parser = argparse.ArgumentParser(prog=command.prog, description=command.description)
    parser.add_argument(
        "--agents",
        type=_agent_list(command.agent_names),
        default=list(command.default_agents),
        help=f"comma-separated agents among {sorted(command.agent_names)} "
        f"(default: {','.join(command.default_agents)})",
    )
    counts = command.player_counts
    parser.add_argument("--players", type=int, nargs="+", choices=counts, default=list(counts))
    parser.add_argument(
        "--games", type=_positive, default=command.default_games, help="games per player count"
    )
    parser.add_argument("--seed", type=_non_negative, default=0)
    command.add_rules(parser)
    parser.add_argument(
        "--chunk-size",
        type=_positive,
        default=CHUNK_SIZE,
        help="games per chunk, played together by freshly seeded agents (one Ray task); "
        "the results depend on it (default: %(default)s)",
    )
    parser.add_argument("--out", type=Path, default=command.default_out)
    parser.add_argument(
        "--ray", action="store_true", help="play the chunks as Ray tasks (same results)"
    )
    parser.add_argument("--address", help="the Ray cluster's address (implies --ray)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")
    args = parser.parse_args(argv)
    rules = command.rules(parser, args)
    args.ray = args.ray or bool(args.address)
    if args.ray:
        _require_ray(parser)
    args.players = sorted(set(args.players))
    args.settings = {
        "agents": args.agents,
        "players": args.players,
        "games": args.games,
        "seed": args.seed,
        **rules,
        "chunk_size": args.chunk_size,
    }
    return args


def _require_ray(parser: argparse.ArgumentParser) -> None:
    from .distribute import import_ray

    try:
        import_ray()
    except RuntimeError as e:
        parser.error(str(e))


def run_command(command: TournamentCommand, argv: list[str] | None = None) -> int:
    """Parse the arguments, play the tournament, write and print its report."""
    args = parse_command_args(command, argv)
    results = run_tournament(
        args.agents,
        args.players,
        args.games,
        args.seed,
        chunk_size=args.chunk_size,
        progress=not args.no_progress,
        game=command.game(args),
        use_ray=args.ray,
        address=args.address,
    )
    report = command.report(args.settings, args.agents, results)
    write_report(args.out, args.settings, report)
    print(report.title)
    print(report.text)
    print(f"\nresults written to {args.out}/")
    return 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    return parse_command_args(ASARA_COMMAND, argv)


def main(argv: list[str] | None = None) -> int:
    return run_command(ASARA_COMMAND, argv)


if __name__ == "__main__":
    sys.exit(main())
