"""The tournament command line, shared by both games (`asara-tournament`; BASARI's
`basari-tournament` is a `TournamentCommand` of its own, training/basari_tournament.py).

    python -m training.tournament --agents random,greedy --players 2 3 4 --games 1000 \\
        --seed 0 --out results/ [--variant pro] [--expansions genie,gifts] \\
        [--chunk-size 256] [--ray | --address A]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path

from agents.asara import AGENTS
from agents.registry import agent_specs
from apps.asara.options import add_expansions_argument, check_rules
from asara_env.asara.config import VARIANTS

from .tournament import (
    CHUNK_SIZE,
    Played,
    TournamentGame,
    agent_problem,
    asara_game,
    run_tournament,
)
from .tournament_report import Report, asara_report, write_report


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
    agent_names=agent_specs("asara"),
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
