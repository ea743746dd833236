"""The games training knows, found by name: one package per game under training/
(training/asara/, training/basari/), each with the same module names (`train`, `vec_env`,
`imitation`, `tournament`, `evaluate`).

The shared modules beside this one import no game: a shared command names its game first
(`python -m training.tournament_cli basari --games 600`), and the game's module is imported
then, here. A new game is a new package with those modules; nothing here changes.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent


def training_games() -> list[str]:
    """The games with a training package: the sub-packages of training/, sorted."""
    return sorted(m.name for m in pkgutil.iter_modules([str(HERE)]) if m.ispkg)


def game_module(game: str, module: str) -> ModuleType:
    """`training.<game>.<module>`, imported now; ValueError naming the games for an unknown
    game."""
    if game not in training_games():
        raise ValueError(f"unknown game {game!r}; games: {training_games()}")
    return importlib.import_module(f"training.{game}.{module}")


def split_game(prog: str, description: str, argv: list[str] | None) -> tuple[str, list[str]]:
    """(game, the game's own arguments) of a shared command `python -m training.X GAME ...`;
    a missing or unknown game is a usage error (exit status 2, one line)."""
    from apps.command import parser as command_parser

    parser = command_parser(prog, description)
    parser.add_argument(
        "game", choices=training_games(), help="the game; its own flags follow (GAME --help)"
    )
    parser.add_argument("arguments", nargs=argparse.REMAINDER, help="the game's flags")
    args = parser.parse_args(argv)
    return args.game, list(args.arguments)
