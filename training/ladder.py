"""One strength ladder: every agent of a game on one scale (`asara-ladder`, `basari-ladder`,
or `python -m training.ladder GAME ...`).

    asara-ladder --players 2 3 --games 56 --seed 0 --out results/ladder [--ray [--address A]]

Agents are given as `label=spec` (or a bare spec, its own label); a spec is an agent spec
of the game (ASARA: `towers`, `flatmc:64:playout=towers`, `policy:model=PATH`). The default
lineup is the game's `LadderCommand.default_agents` (ASARA: the four baselines, the
shipped 2-player model, the flat Monte Carlo search agent at three budgets and
information-set MCTS at 128 iterations; BASARI: the baselines, the shipped models
(`ppo_2p`, `ppo_3p`, `ppo_4p`, `sp_2p`, `sp_4p`), the shared search unguided
(`ismcts:128:playout=random:horizon=10`) and flat Monte Carlo over the 2-player model's
playouts, at 2, 3 and 4 players).

Schedule and seeds are the tournament's (training/tournament.py): for each player count P,
blocks of P games in which one lineup of P agents plays all P rotations of its seats,
lineups in shuffled rounds; game g of player count P is the reference game
`game_seeds(seed, P, G)[g]`. Unlike the tournament, every game is played on its own, with
fresh agents seeded `sub_seed(seed, P, 1, k, g)` (agent k, game g), so a game's result
depends only on the settings and its index: games can be played in any order, resumed, or
spread over a Ray cluster (`--ray`, `--address`), with identical results.

Resuming: `--out` (default `results/<game>-ladder`) holds `games.jsonl`, one line per
finished game, appended (and flushed to disk) as games finish, and `settings.json` (the
agents, player counts, games, seed and the game's rules); a new run with the same settings
reads them back and plays only the missing games. A folder of a ladder with other
settings, or one holding anything else, is refused before any game, naming the ways on:
the same settings, `--force` (the old folder is moved aside to `<out>.old-<n>`), or a new
`--out`. Ctrl-C stops after the last finished game (all kept: rerun to resume). The tables
are written atomically.

`--agents` takes a comma-separated list (`--agents random,towers,greedy`); the older
space-separated form is still accepted, with a deprecation note on stderr.

Results, from all games of all player counts:
- OpenSkill Plackett-Luce ratings (the tournament's `rate_games`, games in seed order);
- an Elo-style scale: a Bradley-Terry model (choix, lightly regularised) fitted to every
  pair of seats of every game (the higher score wins the pair, a tie counts a win each
  way), in Elo points (400 per factor 10 of odds) with `random` (else the first agent) at
  0, and a 95% interval from a bootstrap over games;
- per agent: seats played, win rate (shared wins split) with its Wilson interval, and the
  time per decision: the wall time of its calls per decision asked, and per decision with
  more than one legal action (a "choice"), wall and CPU (the CPU time is what a quiet
  machine would take; on a shared one the wall time is longer).
Written into --out: games.csv, ladder.csv, ratings.csv, results.json and ladder.png; a
ladder of several player counts also has one table and plot per count, from its games
alone (ladder_<P>p.csv, ladder_<P>p.png; results.json's "by_players"), printed after the
whole ladder's.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from asara_env.common.outcome import win_shares
from commandline import command as cli
from commandline.outputs import (
    append_line,
    atomic_open,
    atomic_write_text,
    out_problem,
    prepare_out_dir,
)

from .games import game_main, game_module
from .tournament import Played, Rows, TournamentGame, game_seeds, schedule, sub_seed
from .tournament_cli import GAMES, TournamentCommand, add_ray_arguments, check_ray
from .tournament_report import text_table, write_csv
from .tournament_stats import rate_games, wilson_interval

ELO = 400 / np.log(10)  # Elo points per natural-log unit of odds
BOOTSTRAP = 200  # resamples of the games for the Elo intervals
Settings = dict[str, Any]  # agents ([label, spec] pairs), players, games, seed, the rules


@dataclass(frozen=True)
class Entry:
    """One agent of the ladder: its label in the tables and its spec."""

    label: str
    spec: str


def parse_entry(text: str, check_agent: Callable[[str], str]) -> Entry:
    """`label=spec` or a bare spec; ValueError (from `check_agent`) for an unknown agent
    or bad options."""
    label, eq, spec = text.partition("=")
    if not eq or ":" in label:
        label, spec = text, text
    return Entry(label.strip(), check_agent(spec.strip()))


@dataclass(frozen=True)
class LadderCommand:
    """A game's ladder command: its tournament command (agents, rules) and defaults."""

    tournament: TournamentCommand
    prog: str
    description: str
    default_agents: list[str]  # label=spec entries
    default_players: list[int] = field(default_factory=lambda: [2, 3])
    default_games: int = 56
    default_out: Path | None = None  # None: results/<game>-ladder


# ---------------------------------------------------------------------------- one game
class TimedAgent:
    """An agent whose calls are timed: wall and CPU (this thread's) seconds, decisions
    asked (all, and those with more than one legal action)."""

    def __init__(self, agent: Any) -> None:
        self.agent, self.needs_state = agent, getattr(agent, "needs_state", False)
        self.seconds, self.cpu_seconds, self.decisions, self.choices = 0.0, 0.0, 0, 0

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        self._count(np.asarray(action_masks).astype(bool))
        return self._timed(self.agent.act_batch, observations, action_masks)

    def act_games(self, state: Any, games: np.ndarray) -> np.ndarray:
        """A search agent's call: the state (its `legal` bool[B, A] the masks of the seats
        to move) and the games where it is to move."""
        self._count(np.asarray(state.legal)[games])
        return self._timed(self.agent.act_games, state, games)

    def act_seats(self, state: Any, games: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """A search agent's call in a simultaneous game: the state (its `legal` bool[B, P,
        A] every seat's masks) and the (game, seat) pairs it decides."""
        self._count(np.asarray(state.legal)[games, seats])
        return self._timed(self.agent.act_seats, state, games, seats)

    def _timed(self, method: Callable[..., np.ndarray], *args: Any) -> np.ndarray:
        wall, cpu = time.perf_counter(), time.thread_time()
        actions = method(*args)
        self.seconds += time.perf_counter() - wall
        self.cpu_seconds += time.thread_time() - cpu
        return actions

    def _count(self, masks: np.ndarray) -> None:
        self.decisions += len(masks)
        self.choices += int((masks.sum(axis=1) > 1).sum())


def play_one(
    game: TournamentGame,
    settings: Settings,
    players: int,
    index: int,
    seat_agents: list[int],
    seed: int,
) -> dict[str, Any]:
    """Game `index` of the ladder: `seat_agents[s]` is the index (into settings["agents"])
    of the agent in seat s; returns the game's row (scores, and time and decisions per
    seat)."""
    lineup = sorted(set(seat_agents))
    specs = [Entry(*e).spec for e in settings["agents"]]
    timed = {
        k: TimedAgent(game.make_agent(specs[k], sub_seed(settings["seed"], players, 1, k, index)))
        for k in lineup
    }
    seating = np.array([[lineup.index(k) for k in seat_agents]])
    agents = [timed[k] for k in lineup]
    scores = game.play(players, agents, seating, np.array([seed], np.uint64), None, None)[0]
    labels = {k: settings["agents"][k][0] for k in lineup}
    return {
        "players": players,
        "game": index,
        "seed": int(seed),
        "seating": [settings["agents"][k][0] for k in seat_agents],
        "scores": scores.tolist(),
        "seconds": {labels[k]: timed[k].seconds for k in lineup},
        "cpu_seconds": {labels[k]: timed[k].cpu_seconds for k in lineup},
        "decisions": {labels[k]: timed[k].decisions for k in lineup},
        "choices": {labels[k]: timed[k].choices for k in lineup},
    }


def planned_games(settings: Settings) -> list[tuple[int, int, list[int], int]]:
    """(players, game, agent index per seat, reference seed) of every game of the ladder."""
    plan = []
    for p in settings["players"]:
        rng = np.random.default_rng([settings["seed"], p, 0])
        seating = schedule(len(settings["agents"]), p, settings["games"], rng)
        seeds = game_seeds(settings["seed"], p, len(seating))
        plan += [(p, g, row.tolist(), int(s)) for g, (row, s) in enumerate(zip(seating, seeds))]
    return plan


# ---------------------------------------------------------------------------- running
def read_games(path: Path) -> Rows:
    """The finished games recorded in a games.jsonl file (none if it does not exist)."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except ValueError:  # empty, or the last line of a run killed while writing it
            continue
    for row in rows:  # ladders written before the scores had one name for every game
        if "prestige" in row:
            row["scores"] = row.pop("prestige")
    return rows


def resume_problem(out: Path, settings: Settings) -> str:
    """What stops a ladder with `settings` from resuming in `out` ('' if nothing)."""
    saved = out / "settings.json"
    if not saved.exists():
        return out_problem(out, "something other than a ladder")
    try:
        before = json.loads(saved.read_text())
    except ValueError:
        before = None
    if before != json.loads(json.dumps(settings)):
        return out_problem(out, f"a ladder with other settings ({before})", "the same settings")
    return ""


def _check_resume(out: Path, settings: Settings, force: bool = False) -> None:
    problem = resume_problem(out, settings)
    if problem and not force:
        raise ValueError(problem)
    moved = prepare_out_dir(out, force and bool(problem))
    if moved is not None:
        print(f"--force: the old {out} is now {moved}", flush=True)
    atomic_write_text(out / "settings.json", json.dumps(settings, indent=1) + "\n")


def run_ladder(
    game: TournamentGame,
    settings: Settings,
    out: Path,
    use_ray: bool = False,
    address: str | None = None,
    progress: bool = True,
    force: bool = False,
) -> Rows:
    """Play every planned game not yet in out/games.jsonl (appending each as it finishes);
    return all games' rows sorted by player count and game. `force`: a folder of other
    settings is moved aside first (else ValueError)."""
    _check_resume(out, settings, force)
    path = out / "games.jsonl"
    done = {(r["players"], r["game"]) for r in read_games(path)}
    todo = [g for g in planned_games(settings) if (g[0], g[1]) not in done]
    bar = _bar(progress, len(done) + len(todo), len(done))
    finished, total = len(done), len(done) + len(todo)
    try:
        for row in _games(game, settings, todo, use_ray, address):
            append_line(path, json.dumps(row))
            finished += 1
            if bar is not None:
                bar.update(1)
    except KeyboardInterrupt:
        raise cli.Interrupted(
            f"{finished} of {total} games are in {path}; run the same command again to resume"
        ) from None
    if bar is not None:
        bar.close()
    return sorted(read_games(path), key=lambda r: (r["players"], r["game"]))


def _games(
    game: TournamentGame,
    settings: Settings,
    todo: list[tuple[int, int, list[int], int]],
    use_ray: bool,
    address: str | None,
) -> Iterator[dict[str, Any]]:
    """The rows of the games `todo`, played here in order or as Ray tasks (yielded as they
    finish, in any order)."""
    if not use_ray:
        for planned in todo:
            yield play_one(game, settings, *planned)
        return
    from .distribute import ray_jobs

    for _, row in ray_jobs(play_one, [(game, settings, *planned) for planned in todo], address):
        yield row


def _bar(progress: bool, total: int, initial: int) -> Any:
    if not progress:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=initial, unit="game", desc="ladder")


# ---------------------------------------------------------------------------- tables
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


# ---------------------------------------------------------------------------- command line
MIN_AGENTS = 2  # one agent has nothing to be placed against


def parse_args(command: LadderCommand, argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments of `command`'s ladder; `args.game` is the `TournamentGame` and
    `args.settings` what the games depend on (settings.json)."""
    check = command.tournament.check_agent

    def entries(text: str) -> list[Entry]:
        try:
            return [parse_entry(t, check) for t in text.split(",") if t.strip()]
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    parser = cli.parser(command.prog, command.description)
    parser.add_argument(
        "--agents",
        type=entries,
        nargs="+",
        default=[[parse_entry(e, check) for e in command.default_agents]],
        help="label=spec or spec, comma-separated (space-separated still accepted, "
        "deprecated) (default: " + ",".join(command.default_agents) + ")",
    )
    game, players = command.tournament.game, command.default_players
    cli.add_players_argument(parser, game, players, "the player counts played", many=True)
    parser.add_argument(
        "--games",
        type=GAMES,
        default=command.default_games,
        help="games per player count (rounded up to a multiple of it: every agent in every "
        "seat equally often)",
    )
    parser.add_argument(
        "--seed", type=cli.seed, default=0, help="seeds the schedule, games and agents"
    )
    command.tournament.add_rules(parser)
    default_out = command.default_out or Path(f"results/{command.tournament.game}-ladder")
    parser.add_argument(
        "--out",
        type=cli.writable_dir,
        default=default_out,
        help="the ladder's folder; a rerun with the same settings resumes it",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="if --out holds something else, move it aside to <out>.old-<n> first",
    )
    add_ray_arguments(parser, "play the games as Ray tasks")
    args = parser.parse_args(argv)
    spaced = len(args.agents) > 1
    args.agents = [e for group in args.agents for e in group]
    if len(args.agents) < MIN_AGENTS:
        given = ",".join(e.label for e in args.agents) or "none"
        parser.error(
            f"argument --agents: a ladder places at least {MIN_AGENTS} agents, got {given}"
        )
    args.game = command.tournament.make_game(parser, args)
    labels = [e.label for e in args.agents]
    if len(set(labels)) < len(labels):
        parser.error(f"argument --agents: an agent label is given twice in {labels}")
    check_ray(parser, args)
    args.settings = {
        "agents": [[e.label, e.spec] for e in args.agents],
        "players": sorted(set(args.players)),
        "games": args.games,
        "seed": args.seed,
        **args.game.rules,
    }
    problem = resume_problem(args.out, args.settings)
    if problem and not args.force:
        parser.error(problem)
    if spaced:  # after every check: a usage error stays one line
        print(
            f"{command.prog}: note: space-separated --agents is deprecated; use commas",
            file=sys.stderr,
        )
    return args


def run_command(command: LadderCommand, argv: list[str] | None = None) -> int:
    """Parse the arguments, play (or resume) the ladder, write and print its tables."""
    args = parse_args(command, argv)
    start = time.perf_counter()
    rows = run_ladder(
        args.game,
        args.settings,
        args.out,
        args.ray,
        args.address,
        not args.no_progress,
        args.force,
    )
    whole, counts = write_outputs(args.game, args.out, args.settings, rows)
    print(args.game.title, f"- {len(rows)} games")
    print(ladder_text(whole.table))
    for p, found in counts.items():
        games = sum(r["players"] == p for r in rows)
        print(f"\n{p} players - {games} games")
        print(ladder_text(found.table))
    print(f"\nresults written to {args.out}/ ({time.perf_counter() - start:.0f} s this run)")
    return 0


def game_ladder(game: str) -> LadderCommand:
    """The `LadderCommand` of the game named `game` (training/<game>/tournament.py)."""
    command: LadderCommand = game_module(game, "tournament").LADDER
    return command


main = game_main(
    "python -m training.ladder", "Place agents on one scale.", game_ladder, run_command
)


if __name__ == "__main__":
    sys.exit(main())
