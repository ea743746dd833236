"""The games training knows: the registered games' cards (`asara_env.games`) with a
package under training/ of the game's name (training/asara/, training/basari/: `train`,
`vec_env`, `imitation`, `selfplay`) and one under training/evaluation/ (`tournament`,
`evaluate`, the game's measuring), each with the same module names in every game.

The shared modules import no game: a shared command names its game first
(`python -m training.evaluation.tournament_cli basari --games 600`), and the game's module
is imported then, here. A new game is a new package with those modules; nothing here
changes. A game whose package lives elsewhere (a test's game) names it with
`register_game(game, package)`, which then holds all its modules.
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from types import ModuleType
from typing import TypeVar

from asara_env.games import available_games, games_with

C = TypeVar("C")


_PACKAGES: dict[str, str] = {}  # game -> its training package outside training/
# a game's measuring modules: training/evaluation/<game>/, below its trainers
MEASURING = ("tournament", "evaluate")


def register_game(game: str, package: str) -> None:
    """Find game `game`'s training modules (`tournament`, ...) in `package` (a dotted
    import name, e.g. a test's "tests.toygame") instead of `training.<game>`;
    `unregister_game` undoes it."""
    if game in training_games() and _PACKAGES.get(game) != package:
        raise ValueError(f"game {game!r} already has a training package")
    _PACKAGES[game] = package


def unregister_game(game: str) -> None:
    """Forget the package `register_game` gave game `game`."""
    del _PACKAGES[game]


def training_games() -> list[str]:
    """The registered games (`asara_env.games`, in registration order) with a training
    package: `training.<game>`, or the one `register_game` gave it."""
    with_package = games_with("training.{game}")
    return [name for name in available_games() if name in _PACKAGES or name in with_package]


def game_module(game: str, module: str) -> ModuleType:
    """`training.<game>.<module>` (`training.evaluation.<game>.<module>` for a module of
    `MEASURING`), imported now; ValueError naming the games for an unknown game."""
    if game not in training_games():
        raise ValueError(f"unknown game {game!r}; games: {training_games()}")
    floor = "training.evaluation" if module in MEASURING else "training"
    package = _PACKAGES.get(game, f"{floor}.{game}")
    return importlib.import_module(f"{package}.{module}")


def split_game(prog: str, description: str, argv: list[str] | None) -> tuple[str, list[str]]:
    """(game, the game's own arguments) of a shared command `python -m training.X GAME ...`;
    a missing or unknown game is a usage error (exit status 2, one line)."""
    from commandline.command import parser as command_parser

    parser = command_parser(prog, description)
    parser.add_argument(
        "game", choices=training_games(), help="the game; its own flags follow (GAME --help)"
    )
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="the game's flags")
    args = parser.parse_args(argv)
    return args.game, list(args.arguments)


def game_main(
    prog: str,
    description: str,
    command_of: Callable[[str], C],
    run_command: Callable[[C, list[str]], int],
) -> Callable[..., int]:
    """The console `main(argv=None)` of a shared command `prog GAME [the game's flags]`:
    the game named first (`split_game`) picks its command (`command_of(game)`), which
    `run_command` runs on the rest of the arguments; wrapped by `commandline.command.run_main`."""
    from commandline.command import run_main

    def main(argv: list[str] | None = None) -> int:
        game, rest = split_game(prog, description, argv)
        return run_command(command_of(game), rest)

    main.__doc__ = f"`{prog} GAME [the game's flags]`."
    return run_main(prog)(main)


def command_main(
    prog: str, run_command: Callable[[C, list[str] | None], int], command: C
) -> Callable[..., int]:
    """The console `main(argv=None)` of one game's command `prog` (`asara-tournament`,
    `basari-ladder`, ...): `run_command(command, argv)`, wrapped by
    `commandline.command.run_main`."""
    from commandline.command import run_main

    def main(argv: list[str] | None = None) -> int:
        return run_command(command, argv)

    main.__doc__ = f"`{prog}`."
    return run_main(prog)(main)
