"""The tournament command line, one for every game: `asara-tournament`, `basari-tournament`
(a `TournamentCommand` each, in training/<game>/tournament.py), or any game by name:

    python -m training.evaluation.tournament_cli GAME --agents a,b,c --players 2 3 4 --games 1000 \\
        --seed 0 --out results/ [the game's rules flags] [--chunk-size 256] [--ray | --address A]

ASARA's rules flags are `--variant` and `--expansions`, BASARI's `--start-mode`
(`python -m training.evaluation.tournament_cli GAME --help`).

Output: `--out` (default `results/<game>-<YYYYmmdd-HHMMSS>`, new for every run) receives
games.csv, summary.csv, ratings.csv, results.json and win_rates.png, each written
atomically, and `chunks/`: every chunk of games kept as it finishes
(training/evaluation/tournament.py's `ChunkStore`). Ctrl-C says how many finished games
are kept there; the same command run again plays only the missing chunks (the same
settings give the same results). A folder holding a tournament (results or chunks) of
other settings is refused before any game (`--force` moves it aside to `<out>.old-<n>`
first).

Seats: `--games N` is rounded up to a multiple of P at P players (every agent then sits in
every seat equally often); agents play equally many games when the games also fill whole
rounds of lineups (with K >= P agents a round is C(K, P) lineups x P games). `--help`
says it; e.g. `--games 200` with 4 agents at 3 players plays 201 games, 67 lineups: one
agent sits 153 seats, the others 150.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from asara_env.games import game_card
from commandline import command as cli
from commandline.outputs import aside_path, fresh_dir, prepare_out_dir
from training.games import game_main, game_module

from .tournament import CHUNK_SIZE, ChunkStore, TournamentGame, run_tournament
from .tournament_report import report, write_report


# ---------------------------------------------------------------------------- command line
@dataclass(frozen=True)
class TournamentCommand:
    """What a game's command lines (tournament, ladder, heads-up, evaluation) have of their
    own; the arguments (agents, players, games, seed, chunk size, output, Ray, progress),
    the run and the files are shared (`parse_args`, `run_command`)."""

    game: str  # the game's name (results.json's settings["game"])
    prog: str  # the tournament's console script
    description: str
    check_agent: Callable[[str], str]  # an agent spec, or ValueError saying what is wrong
    agent_names: list[str]  # the names an agent spec may start with (for --help)
    default_agents: list[str]
    default_games: int
    default_out: Path  # a run's default folder is <default_out>/<game>-<time>, new each run
    add_rules: Callable[[argparse.ArgumentParser], None]  # the game's rules options
    # the games of those options (their rules checked: parser.error if they do not go together)
    make_game: Callable[[argparse.ArgumentParser, argparse.Namespace], TournamentGame]

    @property
    def player_counts(self) -> tuple[int, ...]:
        """The player counts the game's card allows (`asara_env.games`)."""
        return game_card(self.game).player_counts


def agent_spec(command: TournamentCommand) -> Callable[[str], str]:
    """An argparse type: one agent spec of `command`'s game, the precise error passed on."""

    def parse(text: str) -> str:
        try:
            return command.check_agent(text.strip())
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    return parse


def agent_list(command: TournamentCommand) -> Callable[[str], list[str]]:
    """An argparse type: comma-separated agent specs, each checked, none twice."""
    one = agent_spec(command)

    def parse(text: str) -> list[str]:
        names = [one(n) for n in text.split(",") if n.strip()]
        if not names:
            raise argparse.ArgumentTypeError("no agents given")
        if len(set(names)) < len(names):
            raise argparse.ArgumentTypeError(f"an agent is named twice in {names}")
        return names

    return parse


def parse_command_args(
    command: TournamentCommand, argv: list[str] | None = None
) -> argparse.Namespace:
    """The arguments of `command`'s tournament; `args.game` is the `TournamentGame` and
    `args.settings` what the results depend on (written into results.json)."""
    parser = cli.parser(command.prog, command.description)
    parser.add_argument(
        "--agents",
        type=agent_list(command),
        default=list(command.default_agents),
        help=f"comma-separated agents among {command.agent_names} "
        f"(default: {','.join(command.default_agents)})",
    )
    counts = list(command.player_counts)
    cli.add_players_argument(parser, command.game, counts, "the player counts played", many=True)
    parser.add_argument(
        "--games",
        type=GAMES,
        default=command.default_games,
        help="games per player count, rounded up to a multiple of the player count P so "
        "that every agent sits in every seat equally often (agents play equally many games "
        "when the games also fill whole rounds of C(K, P) lineups x P games)",
    )
    parser.add_argument(
        "--seed", type=cli.seed, default=0, help="seeds the schedule, games and agents"
    )
    command.add_rules(parser)
    parser.add_argument(
        "--chunk-size",
        type=GAMES,
        default=CHUNK_SIZE,
        help="games per chunk, played together by freshly seeded agents (one Ray task); "
        "the results depend on it",
    )
    stem = command.default_out / command.game
    add_out_arguments(parser, f"{stem}-<time>, new for every run")
    add_ray_arguments(parser, "play the chunks as Ray tasks (same results)")
    args = parser.parse_args(argv)
    args.game = command.make_game(parser, args)
    check_ray(parser, args)
    args.players = sorted(set(args.players))
    if args.out is None:
        args.out = fresh_dir(str(stem))
    args.settings = {
        "agents": args.agents,
        "players": args.players,
        "games": args.games,
        "seed": args.seed,
        "game": command.game,
        **args.game.rules,
        "chunk_size": args.chunk_size,
    }
    problem = results_problem(args.out, args.settings)
    if problem and not args.force:
        parser.error(problem)
    return args


GAMES = cli.bounded_int(1, 10**8, "a positive int")
CHUNKS = "chunks"  # the folder of --out keeping the finished chunks


def add_out_arguments(parser: argparse.ArgumentParser, default: str) -> None:
    """--out (a writable folder) and --force."""
    parser.add_argument(
        "--out", type=cli.writable_dir, default=None, help=f"output folder (default: {default})"
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="if --out holds results of other settings, move it aside to <out>.old-<n> first",
    )


def results_problem(out: Path, settings: dict[str, object]) -> str:
    """'' unless `out` holds the results or kept chunks of a tournament with other
    settings."""
    path = out / "results.json"
    wanted = json.loads(json.dumps(settings))
    store = ChunkStore(out / CHUNKS)
    if (store.folder / "settings.json").exists() and store.settings() != wanted:
        what = "finished games"
    elif path.is_file() and _saved_settings(path) != wanted:
        what = "the results"
    else:
        return ""  # the same settings: the same results, resumed or written again
    return (
        f"argument --out: {out} already holds {what} of a tournament with other settings; "
        f"move it aside with --force (to {aside_path(out)}), or name a new --out"
    )


def _saved_settings(path: Path) -> object:
    try:
        return json.loads(path.read_text()).get("settings")
    except (OSError, ValueError, AttributeError):
        return None


def add_ray_arguments(parser: argparse.ArgumentParser, ray_help: str) -> None:
    """--ray, --address and --no-progress."""
    parser.add_argument("--ray", action="store_true", help=ray_help)
    parser.add_argument("--address", help="the Ray cluster's address (implies --ray)")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def check_ray(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """`args.ray` set by --ray or --address; a usage error if Ray is then not installed."""
    from .distribute import import_ray

    args.ray = args.ray or bool(args.address)
    if not args.ray:
        return
    try:
        import_ray()
    except RuntimeError as e:
        parser.error(str(e))


def run_command(command: TournamentCommand, argv: list[str] | None = None) -> int:
    """Parse the arguments, play the tournament, write and print its report."""
    args = parse_command_args(command, argv)
    if args.force and results_problem(args.out, args.settings):
        moved = prepare_out_dir(args.out, force=True)
        print(f"--force: the old {args.out} is now {moved}", flush=True)
    store = ChunkStore(args.out / CHUNKS)
    store.begin(args.settings)
    try:
        results = run_tournament(
            args.game,
            args.agents,
            args.players,
            args.games,
            args.seed,
            chunk_size=args.chunk_size,
            progress=not args.no_progress,
            use_ray=args.ray,
            address=args.address,
            store=store,
        )
    except KeyboardInterrupt:
        raise cli.Interrupted(
            f"{store.games()} finished games are kept in {store.folder}; run the same "
            "command again to play only the rest"
        ) from None
    done = report(args.game, args.agents, results)
    write_report(args.out, args.settings, done)
    print(done.title)
    print(done.text)
    print(f"\nresults written to {args.out}/")
    return 0


def game_command(game: str) -> TournamentCommand:
    """The `TournamentCommand` of the game named `game` (training/<game>/tournament.py)."""
    command: TournamentCommand = game_module(game, "tournament").COMMAND
    return command


main = game_main(
    "python -m training.evaluation.tournament_cli",
    "Play a game's agents.",
    game_command,
    run_command,
)


if __name__ == "__main__":
    sys.exit(main())
