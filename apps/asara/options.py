"""Command-line options shared by the console scripts (`asara`, `asara-tournament`,
`asara-train`, `asara-evaluate`, ...)."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from asara_env.asara.config import GameConfig
from asara_env.asara.constants import KNOWN_EXPANSIONS


def expansion_list(text: str) -> tuple[str, ...]:
    """`--expansions genie,gifts` as ('genie', 'gifts'); '' as none; unknown names are
    errors (their combination with the variant is checked by GameConfig)."""
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [n for n in names if n not in KNOWN_EXPANSIONS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown expansion(s) {unknown}; known: {KNOWN_EXPANSIONS}"
        )
    return names


def config_text(config: GameConfig) -> str:
    """'ASARA, 3 players, basic rules + gifts'."""
    expansions = "".join(f" + {e}" for e in config.expansions)
    return f"ASARA, {config.num_players} players, {config.variant} rules{expansions}"


def check_rules(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Exit through `parser.error` if `--variant` and `--expansions` do not go together
    (the Genie needs the pro variant)."""
    try:
        GameConfig(variant=args.variant, expansions=args.expansions)
    except ValueError as e:
        parser.error(str(e))


def add_expansions_argument(parser: argparse.ArgumentParser) -> None:
    """The `--expansions` option shared by the console scripts."""
    parser.add_argument(
        "--expansions",
        type=expansion_list,
        default=(),
        help=f"comma-separated expansions (R9) from {','.join(KNOWN_EXPANSIONS)} "
        "(default: none); genie needs --variant pro",
    )


def positive_int(text: str) -> int:
    """An argparse `type`: a whole number above 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number above 0, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number above 0, got {text!r}")
    return value


def positive_float(text: str) -> float:
    """An argparse `type`: a finite number above 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a finite number above 0, got {text!r}")
    return value


def add_serve_arguments(parser: argparse.ArgumentParser) -> None:
    """The web page's address and limits (`asara serve`, `asara-serve`)."""
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    from apps.command import bounded_int

    port = bounded_int(0, 65535, "a port number")
    parser.add_argument("--port", type=port, default=8000, help="port to listen on (0: any)")
    parser.add_argument(
        "--max-games",
        type=positive_int,
        default=200,
        help="games held at once (and as many replays); a new one evicts the least recently "
        "used (default 200)",
    )
    parser.add_argument(
        "--idle-minutes",
        type=positive_float,
        default=60.0,
        help="a game unused this long is evicted (default 60)",
    )
    parser.add_argument(
        "--records",
        type=Path,
        default=None,
        metavar="DIR",
        help="write each finished game evicted here first (default: nowhere)",
    )
    parser.add_argument(
        "--max-body-kib",
        type=positive_int,
        default=256,
        help="largest request body in KiB; larger ones get 413 (default 256)",
    )
