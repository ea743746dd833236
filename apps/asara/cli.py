"""The main job for now: play one complete seeded game between random players and print
the final scoring table.

    python -m apps.asara.cli --players 4 --variant pro --seed 1

The `asara` command has subcommands: `asara random ...` (the same job, same options),
`asara serve` (play in a browser, apps/serve.py) and `asara play ...` (play yourself
against agents in the terminal, apps/asara/play.py):

    asara play --players 3 --opponents greedy,random [--variant pro] [--seat 0] [--seed 7]
               [--expansions genie,gifts] [--save game.json [--force]] [--resume game.json]
               [--layout compact|full]
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import numpy as np

from agents.base import RandomAgent
from agents.registry import agent_names
from asara_env.asara.actions import NUM_ACTIONS
from asara_env.asara.bridge import encode_view
from asara_env.asara.config import VARIANTS, GameConfig
from asara_env.asara.constants import KNOWN_EXPANSIONS
from asara_env.asara.reference import engine
from asara_env.asara.reference.record import RULES, GameRecord
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.serialize import state_to_dict
from asara_env.asara.reference.state import State
from asara_env.asara.reference.view import seat_view
from asara_env.asara.render import scoring_table
from asara_env.common.record import SavedGame, read_saved_game
from asara_env.common.record import resume as resume_game
from commandline import command
from commandline.asara.options import (
    add_rules_arguments,
    add_serve_arguments,
    config_of,
    config_text,
    expansion_list,
)


def play_random_game(config: GameConfig, seed: int) -> tuple[State, GameRecord]:
    """Play a game between seeded random agents; return the final state and its record."""
    state = engine.new_game(config, seed)
    agents = [RandomAgent(seed * 100 + s) for s in range(config.num_players)]
    record = GameRecord(config, seed)
    while not state.is_over:
        mask = np.zeros(NUM_ACTIONS, np.int8)
        mask[legal_actions(state)] = 1
        observation = encode_view(seat_view(state, state.seat))
        action = agents[state.seat].act(observation, mask)
        engine.step(state, action)
        record.actions.append(action)
    return state, record


def add_random_arguments(parser: argparse.ArgumentParser) -> None:
    command.add_players_argument(parser, "asara", 4, "seats")
    add_rules_arguments(parser)
    parser.add_argument("--seed", type=command.seed, default=0, help="the game's seed")
    parser.add_argument(
        "--save-record", type=command.writable_file, help="write the game record (JSON) here"
    )
    parser.add_argument(
        "--save-state", type=command.writable_file, help="write the final state (JSON) here"
    )
    parser.add_argument(
        "--force", action="store_true", help="let --save-record and --save-state replace files"
    )


def run_random(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Play the random game `args` asks for, print its table and save what was asked
    (atomically)."""
    from commandline.outputs import atomic_write_text

    try:
        config = config_of(args)
    except ValueError as e:
        parser.error(str(e))
    command.check_new_files(parser, args, ("save_record", "save_state"))
    state, record = play_random_game(config, args.seed)
    rules = args.variant + "".join(f" + {e}" for e in config.expansions)
    print(
        f"ASARA, {args.players} players, {rules} rules, seed {args.seed}: "
        f"{len(record.actions)} decisions"
    )
    print(scoring_table(state))
    if args.save_record:
        atomic_write_text(args.save_record, json.dumps(record.to_dict()))
    if args.save_state:
        atomic_write_text(args.save_state, json.dumps(state_to_dict(state)))


RANDOM_DESCRIPTION = (
    "Play one complete seeded ASARA game between random players and print the final scoring table."
)


@command.run_main("asara-play-random")
def main(argv: list[str] | None = None) -> None:
    parser = command.parser("asara-play-random", RANDOM_DESCRIPTION)
    add_random_arguments(parser)
    run_random(parser.parse_args(argv), parser)


DEFAULT_OPPONENTS = ("greedy", "random", "towers")  # the first players - 1 by default


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    command.add_players_argument(parser, "asara", None, "(default: 3, or the resumed game's)")
    parser.add_argument(
        "--opponents",
        help=f"comma-separated agent names, one per other seat, from {agent_names('asara')} "
        f"(default: the resumed game's, else the first players-1 of "
        f"{','.join(DEFAULT_OPPONENTS)})",
    )
    parser.add_argument(
        "--variant", choices=VARIANTS, help="(default: basic, or the resumed game's)"
    )
    parser.add_argument(
        "--expansions",
        type=expansion_list,
        help=f"comma-separated expansions (R9) from {','.join(KNOWN_EXPANSIONS)} "
        "(default: none, or the resumed game's); genie needs --variant pro",
    )
    parser.add_argument(
        "--seat",
        type=command.bounded_int(0, 3, "a seat number"),
        help="your seat (0 starts; default 0, or the resumed game's)",
    )
    parser.add_argument("--seed", type=command.seed, help="the game's seed (default: a random one)")
    command.add_save_arguments(parser, "ASARA")
    parser.add_argument(
        "--layout",
        choices=("compact", "full"),
        default="compact",
        help="compact (default): the board, what happened since your last decision and the "
        "moves fit 80x24; full: the big board (100 columns, 40+ lines) and every move at once",
    )


PLAY_DEFAULTS: dict[str, Any] = {"players": 3, "variant": "basic", "expansions": (), "seat": 0}


def saved_lineup(saved: SavedGame) -> tuple[int, str] | None:
    """The person's seat and the opponents of a saved game, None for a bare record."""
    seats = saved.seats or []
    mine = [s for s, name in enumerate(seats) if name is None]
    if len(mine) != 1:
        return None
    return mine[0], ",".join(name for name in seats if name is not None)


def play_options(args: argparse.Namespace, saved: SavedGame | None = None) -> dict[str, Any]:
    """play()'s keyword arguments for the parsed `asara play` options, the game's config
    made once, here; with a saved game (any format `saved_game_from_dict` reads), what the
    options leave out comes from it (the opponents too, if the seat is the saved one).
    ValueError naming both configurations if the options ask for another game than the
    saved one, or saying which rules do not go together."""
    resume = None if saved is None else resume_game(RULES, saved)
    chosen = dict(PLAY_DEFAULTS)
    opponents = args.opponents
    if resume is not None:
        config = resume.config
        chosen.update(players=config.num_players, variant=config.variant)
        chosen["expansions"] = config.expansions
        seats = None if saved is None else saved_lineup(saved)
        if seats is not None:
            chosen["seat"] = seats[0]
            if opponents is None and args.seat in (None, seats[0]):
                opponents = seats[1]
    chosen.update({k: getattr(args, k) for k in PLAY_DEFAULTS if getattr(args, k) is not None})
    config = GameConfig(chosen["players"], chosen["variant"], tuple(chosen["expansions"]))
    if resume is not None and config != resume.config:
        raise ValueError(
            f"the saved game is {config_text(resume.config)}; the options ask for "
            f"{config_text(config)}"
        )
    players = config.num_players
    return {
        "config": config,
        "opponents": opponents or ",".join(DEFAULT_OPPONENTS[: max(players - 1, 0)]),
        "seat": chosen["seat"],
        "seed": args.seed,
        "record_path": None if args.save is None else str(args.save),
        "layout": args.layout,
        "resume": resume,
    }


def run_play(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    from .play import lineup, play

    command.check_save_path(parser, args)
    if args.resume is not None and args.seed is not None:
        parser.error("argument --seed: a resumed game keeps its own seed")
    flag = "expansions" if args.resume is None else "resume"  # what a ValueError is about
    try:
        saved = None if args.resume is None else read_saved_game(args.resume, "asara")
        options = play_options(args, saved)
    except ValueError as exc:  # the saved game, or rules that do not go together
        parser.error(f"argument --{flag}: {exc}")
    try:
        lineup(options["config"], options["opponents"], options["seat"])
    except ValueError as exc:
        command.lineup_error(parser, str(exc))
    play(**options)  # Ctrl-C: saved if --save; `run_main` ends it with one line


def run_serve(args: argparse.Namespace) -> None:
    from apps.serve import serve  # FastAPI and uvicorn load only for this command

    serve(args, prog="asara serve")


def asara_parser() -> argparse.ArgumentParser:
    """The `asara` command line; each subcommand's `run(args)` is in its defaults."""
    parser = command.parser("asara", "The board game ASARA.")
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser(
        "play", help="play against agents in the terminal", formatter_class=command.Formatter
    )
    add_play_arguments(play)
    play.set_defaults(run=lambda args: run_play(args, play))
    web = commands.add_parser(
        "serve", help="play in a browser: a local web page", formatter_class=command.Formatter
    )
    add_serve_arguments(web)
    web.set_defaults(run=run_serve)
    random = commands.add_parser(
        "random",
        help="one seeded game between random players",
        description=RANDOM_DESCRIPTION,
        formatter_class=command.Formatter,
    )
    add_random_arguments(random)
    random.set_defaults(run=lambda args: run_random(args, random))
    return parser


@command.run_main("asara")
def main_asara(argv: list[str] | None = None) -> None:
    """The `asara` console script: `asara play ...` or `asara random ...`."""
    args = asara_parser().parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main()
