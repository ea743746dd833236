"""Heads-up strength of one agent against another, resumable, for any game.

    python -m training.evaluation.heads_up GAME SPEC OPPONENT --games 100 --seed 17 --chunk 10 \
        --log FILE [--players P] [the game's rules flags: ASARA --variant, --expansions]

Game g is the reference game `game_seeds(seed, P, games)[g]`, with the agent in seat
g mod P and the opponent in every other seat (P = 2 by default: seats alternated; with
`--players 4`, one agent against three copies of the opponent, seats rotated; its fair
share is 1 / P). Games are played in chunks
of `chunk` games, each chunk one batch of the game's `TournamentGame.play` (the agents'
searches of a chunk share core batches) with fresh agents seeded `sub_seed(seed, 1, c)`
and `sub_seed(seed, 2, c)` for chunk c: a chunk's result depends only on the settings and
its index. Each finished chunk is appended to `--log` as one JSON line; a rerun with the
same log plays only the missing chunks (resume; a log of other settings is refused
before any game, unless `--force` moves it aside to `<log>.old-<n>`). The log's folder
must exist and be writable; lines are flushed to disk as chunks finish.
The summary (wins with shared wins split, the win rate and its 95% Wilson interval, the
CPU time of the games and per searched decision, None where neither agent searched) is
printed and returned.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from asara_env.common.outcome import win_shares
from commandline import command as cli
from commandline.outputs import append_line, aside_path, atomic_write_text

from .tournament import TournamentGame, game_seeds, sub_seed, tournament_game
from .tournament_cli import GAMES, TournamentCommand, agent_spec, game_command
from .tournament_stats import wilson_interval

Settings = dict[str, Any]  # spec, opponent, games, seed, chunk, the game's rules


def _chunk(game: TournamentGame, settings: Settings, c: int) -> dict[str, Any]:
    """Chunk c: its games' scores, the agent's seats, its wins and its search work."""
    games, chunk, seed = settings["games"], settings["chunk"], settings["seed"]
    index = np.arange(c * chunk, min(games, (c + 1) * chunk))
    players = settings.get("players", 2)
    agent = game.make_agent(settings["spec"], sub_seed(seed, 1, c))
    agents = [agent, game.make_agent(settings["opponent"], sub_seed(seed, 2, c))]
    seating = np.array([[0 if s == g % players else 1 for s in range(players)] for g in index])
    seeds = game_seeds(seed, players, games)[index]
    start, cpu = time.perf_counter(), time.process_time()
    scores = game.play(players, agents, seating, seeds, None, None)
    wins = win_shares(scores)[seating == 0]
    return {
        "chunk": c,
        "games": index.tolist(),
        "scores": scores.tolist(),
        "agent_seat": [int(g % players) for g in index],
        "wins": float(wins.sum()),
        "searches": int(getattr(agent, "searches", 0)),
        "cpu_s": time.process_time() - cpu,
        "wall_s": time.perf_counter() - start,
    }


def summary(settings: Settings, chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """Wins, win rate and Wilson interval over the chunks played so far."""
    games = sum(len(c["games"]) for c in chunks)
    wins = sum(c["wins"] for c in chunks)
    low, high = wilson_interval(wins, games)
    searches = sum(c["searches"] for c in chunks)
    cpu = sum(c["cpu_s"] for c in chunks)
    return {
        **{k: v for k, v in settings.items() if k not in ("games", "chunk")},
        "games": games,
        "wins": wins,
        "win_rate": wins / games if games else float("nan"),
        "fair_share": 1 / settings.get("players", 2),
        "ci_low": low,
        "ci_high": high,
        "searches": searches,
        "cpu_s": cpu,
        "cpu_s_per_search": cpu / searches if searches else None,  # None: nothing searched
        "wall_s": sum(c["wall_s"] for c in chunks),
    }


def heads_up(
    game: TournamentGame | str,
    spec: str,
    opponent: str,
    games: int = 100,
    seed: int = 17,
    chunk: int = 10,
    log: str | Path | None = None,
    progress: bool = True,
    players: int = 2,
) -> dict[str, Any]:
    """Play (or resume, from `log`) the match of `game` (a `TournamentGame`, or a game's
    name for its default rules) at `players` players; the summary (see the module
    docstring)."""
    if players not in tournament_game(game).player_counts:
        raise ValueError(
            f"players must be one of {tournament_game(game).player_counts}, got {players}"
        )
    game = tournament_game(game)
    if games < 1 or chunk < 1:
        raise ValueError(f"games and chunk must be at least 1, got {games} and {chunk}")
    for name in (spec, opponent):
        if name not in game.agent_names:
            raise ValueError(f"unknown agent {name!r}; known: {sorted(game.agent_names)}")
    settings = settings_of(game, spec, opponent, games, seed, chunk, players)
    chunks = _read_log(log, settings)
    todo = [c for c in range(-(-games // chunk)) if c not in {d["chunk"] for d in chunks}]
    for c in tqdm(todo, desc=f"{spec} vs {opponent}", unit="chunk", disable=not progress):
        chunks.append(_chunk(game, settings, c))
        if log is not None:
            append_line(Path(log), json.dumps(chunks[-1]))
        if progress:
            tqdm.write(json.dumps(summary(settings, chunks)))
    return summary(settings, chunks)


def same_settings(saved: Settings, settings: Settings) -> bool:
    """Whether a log's settings are `settings`; a setting the log was written before
    counts as empty (an empty list of expansions, say)."""
    return set(saved) <= set(settings) and all(
        saved.get(k, type(v)()) == v for k, v in settings.items()
    )


def settings_of(
    game: TournamentGame,
    spec: str,
    opponent: str,
    games: int,
    seed: int,
    chunk: int,
    players: int = 2,
) -> Settings:
    """What a match's results depend on (the log's first line; `players` only when not
    2, so the logs of heads-up matches keep their settings)."""
    return {
        "spec": spec,
        "opponent": opponent,
        "games": games,
        "seed": seed,
        "chunk": chunk,
        **({} if players == 2 else {"players": players}),
        **game.rules,
    }


def log_problem(log: str | Path | None, settings: Settings) -> str:
    """What stops a match with `settings` from resuming from `log` ('' if nothing)."""
    path = Path(log) if log is not None else None
    if path is None or not path.exists() or path.stat().st_size == 0:
        return ""
    first = path.read_text().splitlines()[0]
    try:
        saved = json.loads(first)["settings"]
    except (ValueError, KeyError, TypeError):
        saved = None
    if saved is None or not same_settings(saved, settings):
        return (
            f"argument --log: {log} holds another match: {first[:200]}; replace it with "
            f"--force (moved to {aside_path(path)}), or name another --log"
        )
    return ""


def _read_log(log: str | Path | None, settings: Settings) -> list[dict[str, Any]]:
    """The chunks already in the log (its first line holds the settings; written if new)."""
    if log is None:
        return []
    problem = log_problem(log, settings)
    if problem:
        raise ValueError(problem)
    path = Path(log)
    if not path.exists() or path.stat().st_size == 0:
        atomic_write_text(path, json.dumps({"settings": settings}) + "\n")
        return []
    chunks = []
    for line in path.read_text().splitlines()[1:]:
        try:
            chunks.append(json.loads(line))
        except ValueError:  # empty, or cut short by a kill
            continue
    return chunks


def parse_args(command: TournamentCommand, argv: list[str] | None = None) -> argparse.Namespace:
    """The arguments of a heads-up match of `command`'s game; `args.game` is the
    `TournamentGame`."""
    parser = cli.parser(
        f"python -m training.evaluation.heads_up {command.game}",
        "Heads-up strength of one agent against another, resumable.",
    )
    spec = agent_spec(command)
    parser.add_argument("spec", type=spec, help="the agent measured (an agent spec)")
    parser.add_argument("opponent", type=spec, help="its opponent (an agent spec)")
    parser.add_argument("--games", type=GAMES, default=100)
    parser.add_argument("--seed", type=cli.seed, default=17)
    parser.add_argument("--chunk", type=GAMES, default=10, help="games per batch (and line)")
    cli.add_players_argument(
        parser,
        command.game,
        2,
        "players per game: the agent in one seat (rotated), the opponent in the others",
    )
    command.add_rules(parser)
    parser.add_argument(
        "--log", type=cli.writable_file, help="JSON-lines file: appended per chunk, resumed from"
    )
    parser.add_argument(
        "--force", action="store_true", help="move a --log of another match aside first"
    )
    args = parser.parse_args(argv)
    args.game = command.make_game(parser, args)
    settings = settings_of(
        args.game, args.spec, args.opponent, args.games, args.seed, args.chunk, args.players
    )
    problem = log_problem(args.log, settings)
    if problem and not args.force:
        parser.error(problem)
    if problem:
        moved = aside_path(args.log)
        args.log.rename(moved)
        print(f"--force: the old {args.log} is now {moved}", file=sys.stderr)
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """`python -m training.evaluation.heads_up GAME SPEC OPPONENT [flags]`."""
    from training.games import split_game

    game, rest = split_game("python -m training.evaluation.heads_up", "Heads-up strength.", argv)
    args = parse_args(game_command(game), rest)
    result = heads_up(
        args.game,
        args.spec,
        args.opponent,
        args.games,
        args.seed,
        args.chunk,
        args.log,
        players=args.players,
    )
    print(json.dumps(result))
    return result


main = cli.run_main("python -m training.evaluation.heads_up")(main)


if __name__ == "__main__":
    main()
