"""Command-line options shared by BASARI's console scripts (`basari-tournament`,
`basari-selfplay`, ...)."""

from __future__ import annotations

import argparse

from asara_env.basari.config import START_MODES

__all__ = ["add_start_mode_argument"]


def add_start_mode_argument(parser: argparse.ArgumentParser) -> None:
    """The `--start-mode` option: how the start archways are placed (default: choose)."""
    parser.add_argument(
        "--start-mode",
        choices=START_MODES,
        default="choose",
        help="choose: every player picks a start archway (B3.4); random: each one drawn at random",
    )
