"""Tournament: registered agents play many seeded games, seats rotated, in seeded chunks.

Written once for every game: a game comes in as a `TournamentGame` (its agents, a batched
`play`, its rules as table columns; each game's is in training/<game>/tournament.py), or by
name (`run_tournament("basari", ...)`). Statistics are in training/evaluation/tournament_stats.py,
tables and files in training/evaluation/tournament_report.py, the command line in
training/evaluation/tournament_cli.py (`asara-tournament`, `basari-tournament`,
`python -m training.evaluation.tournament_cli GAME ...`).

For each player count P the games are played in blocks of P: a lineup of P agents plays
all P cyclic rotations of its seats, so within every block each agent of the lineup sits
in each seat once. With K >= P agents the lineups are the K-choose-P combinations, taken
in rounds, each round in a seeded random order and each lineup in a seeded random seat
order; every round gives each agent the same number of games. With K < P an agent fills
several seats: the K lineups are agents i, i+1, ... (mod K). `--games` is rounded up to
a multiple of P, so every agent sits in every seat equally often; agents also play equally
many games when the games fill whole rounds.

A game's result is each seat's score with the game's tie-breaks folded in (`Played.scores`,
higher is better; equal scores share the win); a game whose scores fold tie-breaks into its
points also gives the points (`Played.points`, BASARI), which the tables show.

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

Kept chunks (`ChunkStore`): given a store, every chunk is written to a file as it finishes
(atomically, `<folder>/<P>p-<c>.pkl`) and a chunk already there is read back instead of
played, so an interrupted tournament run again with the same settings plays only what is
missing, with the same results. The store holds the settings it was made for
(`settings.json`); the command refuses a store of other settings
(training/evaluation/tournament_cli.py).
"""

from __future__ import annotations

import itertools
import json
import pickle
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from asara_env.common.files import atomic_write_bytes, atomic_write_text
from asara_env.common.seeding import derived_seeds
from asara_env.games import game_card

CHUNK_SIZE = 256  # games per chunk: played together by fresh agents; one Ray task
Rows = list[dict[str, Any]]  # a table: one dict per row


@dataclass
class Played:
    """The games of one player count."""

    players: int
    seeds: np.ndarray  # uint64[G] reference seed of each game
    seating: np.ndarray  # int64[G, P] agent index in each seat
    scores: np.ndarray  # int64[G, P] final score of each seat, tie-breaks folded in
    rules: dict[str, Any] = field(default_factory=dict)  # the rules played (TournamentGame)
    points: np.ndarray | None = None  # int64[G, P] the points in `scores`; None: the scores
    record: Any = None  # what the game measured besides the scores (TournamentGame.new_record)

    def seat_points(self) -> np.ndarray:
        """int64[G, P]: the points each seat made (the scores where they fold nothing)."""
        return self.scores if self.points is None else self.points


class PlayBatch(Protocol):
    """`play(players, agents, seating, seeds, bar, record)`: see `TournamentGame`."""

    def __call__(
        self,
        players: int,
        agents: list[Any],
        seating: np.ndarray,
        seeds: np.ndarray,
        bar: Any,
        record: Any,
    ) -> np.ndarray: ...


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
    pool = lineups(num_agents, players)
    order: list[np.ndarray] = []
    while len(order) < blocks:
        order += [rng.permutation(pool[i]) for i in rng.permutation(len(pool))]
    return np.array([np.roll(lineup, r) for lineup in order[:blocks] for r in range(players)])


def rotated_seating(games: int, players: int) -> np.ndarray:
    """int64[G, P]: one agent against copies of another, seats rotated: agent 0 in seat
    g mod P of game g, agent 1 in the other seats."""
    seating = np.ones((games, players), np.int64)
    seating[np.arange(games), np.arange(games) % players] = 0
    return seating


def game_seeds(seed: int, players: int, games: int) -> np.ndarray:
    """uint64[G]: the reference seed of each game of player count `players`."""
    return derived_seeds(sub_seed(seed, players, 2), np.arange(games, dtype=np.uint64))


# ---------------------------------------------------------------------------- running
@dataclass(frozen=True)
class TournamentGame:
    """What the tournament needs of a game: everything else here (scheduling, seeds,
    chunks, Ray, statistics, ratings, output) is written once for every game.

    `play(players, agents, seating, seeds, bar, record)` returns the final scores int[G, P]
    (tie-breaks folded in: higher is better, equal scores share the win) of G games, game g
    seeded `seeds[g]` with `agents[seating[g, s]]` in seat s, all G stepped together; it
    advances `bar` (a tqdm bar or None) by one per game. `record` is None, or with
    `new_record` a fresh `new_record(players, num_agents)` that `play` fills with whatever
    else it measures (BASARI: the negotiation figures); `merge_records` sums the chunks'
    records, `record_tables` turns the records into tables (NAME.csv, results.json[NAME])
    and `record_text` those tables into the text printed between results and ratings."""

    agent_names: Collection[str]  # `spec in agent_names` checks an agent spec
    make_agent: Callable[[str, int], Any]  # (spec, seed) -> a fresh agent
    play: PlayBatch
    player_counts: tuple[int, ...]
    rules: dict[str, Any] = field(default_factory=dict)  # the rules played: table columns
    title: str = "tournament"  # the game and its rules: the report's first line, plot title
    points: Callable[[np.ndarray], np.ndarray] | None = None  # scores -> points, if folded
    new_record: Callable[[int, int], Any] | None = None
    merge_records: Callable[[list[Any]], Any] | None = None
    record_tables: Callable[[list[str], list[Played]], dict[str, Rows]] | None = None
    record_text: Callable[[dict[str, Rows]], str] | None = None


def configs_at_every_count(game: str, rules: Any) -> dict[int, Any]:
    """The config a tournament of `game` plays at each of its card's player counts:
    `rules` itself at its own count (the config passed on whole, as it was given), a copy
    with only `num_players` changed at the others."""
    return {
        p: rules if p == rules.num_players else replace(rules, num_players=p)
        for p in game_card(game).player_counts
    }


def tournament_game(game: TournamentGame | str) -> TournamentGame:
    """`game` itself, or the game of that name with its default rules
    (`training.<game>.tournament.game()`)."""
    if isinstance(game, TournamentGame):
        return game
    from training.games import game_module

    made: TournamentGame = game_module(game, "tournament").game()
    return made


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


@dataclass(frozen=True)
class ChunkStore:
    """Finished chunks kept as files in `folder`, one per chunk (`<P>p-<c>.pkl`, the pickled
    (scores, record) of `play_chunk`, written atomically), with the settings they were
    played with in `settings.json`."""

    folder: Path

    def path(self, players: int, chunk: int) -> Path:
        return self.folder / f"{players}p-{chunk}.pkl"

    def settings(self) -> Any:
        """The settings the chunks were played with (None: no store yet, or unreadable)."""
        try:
            return json.loads((self.folder / "settings.json").read_text())
        except (OSError, ValueError):
            return None

    def begin(self, settings: dict[str, Any]) -> None:
        """Make the folder and record `settings` (the caller checked they are the same)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(self.folder / "settings.json", json.dumps(settings, indent=1) + "\n")

    def load(self, players: int, chunk: int) -> tuple[np.ndarray, Any] | None:
        """The kept result of a chunk, None if it is not kept (or its file is unreadable)."""
        path = self.path(players, chunk)
        if not path.is_file():
            return None
        try:
            result: tuple[np.ndarray, Any] = pickle.loads(path.read_bytes())
        except (OSError, EOFError, pickle.UnpicklingError):
            return None
        return result

    def save(self, players: int, chunk: int, result: tuple[np.ndarray, Any]) -> None:
        atomic_write_bytes(self.path(players, chunk), pickle.dumps(result))

    def games(self) -> int:
        """How many games the kept chunks hold."""
        return sum(len(pickle.loads(p.read_bytes())[0]) for p in self.folder.glob("*.pkl"))


def run_tournament(
    game: TournamentGame | str,
    names: list[str],
    players: list[int],
    games: int,
    seed: int = 0,
    chunk_size: int = CHUNK_SIZE,
    progress: bool = False,
    use_ray: bool = False,
    address: str | None = None,
    store: ChunkStore | None = None,
) -> list[Played]:
    """Play `games` (rounded up to a multiple of P) games per player count P of `game` (a
    `TournamentGame`, or a game's name for its default rules) in chunks of `chunk_size`
    games: one after the other here, or as Ray tasks with `use_ray` (on the cluster at
    `address`; None: a local instance), with the same results. With a `store`, each chunk
    is kept as it finishes and a kept one is read back instead of played."""
    game = tournament_game(game)
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
    kept = {i: store.load(job[2], job[4]) for i, job in enumerate(jobs)} if store else {}
    found = {i: r for i, r in kept.items() if r is not None}
    todo = [i for i in range(len(jobs)) if i not in found]
    bar = _progress_bar(progress, sum(len(s) for s in seatings.values()))
    if bar is not None:
        bar.update(sum(len(jobs[i][-1]) for i in found))

    def finished(i: int, result: tuple[np.ndarray, Any]) -> None:
        found[i] = result
        if store is not None:
            store.save(jobs[i][2], jobs[i][4], result)

    if use_ray:
        for n, result in _ray_chunks([jobs[i] for i in todo], address, bar):
            finished(todo[n], result)
    else:
        for i in todo:
            finished(i, play_chunk(*jobs[i], bar=bar))
    if bar is not None:
        bar.close()
    done = [found[i] for i in range(len(jobs))]
    return [_played(game, p, seeds[p], seatings[p], jobs, done) for p in players]


def _played(
    game: TournamentGame,
    players: int,
    seeds: np.ndarray,
    seating: np.ndarray,
    jobs: list[tuple[Any, ...]],
    done: list[tuple[np.ndarray, Any]],
) -> Played:
    """The chunks of player count `players` put together."""
    mine = [result for job, result in zip(jobs, done) if job[2] == players]
    scores = np.concatenate([scores for scores, _ in mine])
    record = game.merge_records([r for _, r in mine]) if game.merge_records else None
    points = game.points(scores) if game.points else None
    return Played(players, seeds, seating, scores, dict(game.rules), points, record)


def chunks(games: int, chunk_size: int) -> list[slice]:
    """The chunks of `games` games: consecutive slices of `chunk_size` (the last shorter)."""
    return [slice(lo, min(lo + chunk_size, games)) for lo in range(0, games, chunk_size)]


def _ray_chunks(
    jobs: list[tuple[Any, ...]], address: str | None, bar: Any
) -> Iterator[tuple[int, tuple[np.ndarray, Any]]]:
    """(index into `jobs`, result) of each chunk played as a Ray task, as they finish;
    `bar` advances as each chunk finishes."""
    from .distribute import ray_jobs

    for i, result in ray_jobs(play_chunk, jobs, address):
        if bar is not None:
            bar.update(len(jobs[i][-1]))
        yield i, result


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


def _progress_bar(progress: bool, total: int) -> Any:
    if not progress:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="game", desc="tournament")
