"""`python -m training.selfplay GAME [the game's self-play options]`."""

from __future__ import annotations

import sys

from commandline.command import run_main
from training.games import game_module, split_game


@run_main("python -m training.selfplay")
def main(argv: list[str] | None = None) -> int:
    game, rest = split_game("python -m training.selfplay", "Train a network by self-play.", argv)
    from .cli import main_of

    main_of(game_module(game, "selfplay").SPEC, rest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
