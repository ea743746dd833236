"""One strength ladder: every agent of a game on one scale (`asara-ladder`, `basari-ladder`,
or `python -m training.evaluation.ladder GAME ...`).

    asara-ladder --players 2 3 --games 56 --seed 0 --out results/ladder [--ray [--address A]]

Agents are given as `label=spec` (or a bare spec, its own label); a spec is an agent spec
of the game (ASARA: `towers`, `flatmc:64:playout=towers`, `policy:model=PATH`). The default
lineup is the game's `LadderCommand.default_agents` (ASARA: the four baselines, the
shipped 2-player model, the flat Monte Carlo search agent at three budgets and
information-set MCTS at 128 iterations; BASARI: the baselines, the shipped models
(`ppo_2p`, `ppo_3p`, `ppo_4p`, `sp_2p`, `sp_4p`), the shared search unguided
(`ismcts:128:playout=random:horizon=10`) and flat Monte Carlo over the 2-player model's
playouts, at 2, 3 and 4 players).

Schedule and seeds are the tournament's (training/evaluation/tournament.py): for each player
count P, blocks of P games in which one lineup of P agents plays all P rotations of its seats,
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

from commandline import command as cli
from commandline.outputs import (
    append_line,
    atomic_write_text,
    out_problem,
    prepare_out_dir,
)
from training.games import game_main, game_module

from .ladder_tables import Settings, ladder_text, write_outputs
from .tournament import Rows, TournamentGame, game_seeds, schedule, sub_seed
from .tournament_cli import GAMES, TournamentCommand, add_ray_arguments, check_ray


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
    "python -m training.evaluation.ladder", "Place agents on one scale.", game_ladder, run_command
)


if __name__ == "__main__":
    sys.exit(main())
