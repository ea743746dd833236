"""Command-line options shared by the console scripts (`asara`, `asara-tournament`,
`asara-train`, `asara-evaluate`, ...)."""

from __future__ import annotations

import argparse

from asara_env.asara.config import VARIANTS, GameConfig
from asara_env.asara.constants import KNOWN_EXPANSIONS
from commandline.command import add_serve_arguments, positive_float, positive_int

__all__ = [
    "add_expansions_argument",
    "add_rules_arguments",
    "add_serve_arguments",
    "add_variant_argument",
    "check_rules",
    "config_of",
    "expansion_list",
    "positive_float",
    "positive_int",
]


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


def config_of(args: argparse.Namespace) -> GameConfig:
    """The game a console script's parsed `--players`, `--variant` and `--expansions` ask
    for: built once here, then passed on whole."""
    return GameConfig(
        num_players=args.players, variant=args.variant, expansions=tuple(args.expansions)
    )


def add_variant_argument(parser: argparse.ArgumentParser) -> None:
    """The `--variant` option shared by the console scripts (default: basic)."""
    parser.add_argument(
        "--variant",
        choices=VARIANTS,
        default="basic",
        help="the rules: basic or the professional variant (R7)",
    )


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """`--variant` and `--expansions`: the rules a console script plays (`check_rules`
    checks that they go together)."""
    add_variant_argument(parser)
    add_expansions_argument(parser)


def add_expansions_argument(parser: argparse.ArgumentParser) -> None:
    """The `--expansions` option shared by the console scripts."""
    parser.add_argument(
        "--expansions",
        type=expansion_list,
        default=(),
        help=f"comma-separated expansions (R9) from {','.join(KNOWN_EXPANSIONS)} "
        "(default: none); genie needs --variant pro",
    )
