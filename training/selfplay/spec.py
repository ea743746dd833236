"""What the self-play trainer needs to know about one game (training/<game>/selfplay.py's
`SPEC`): its rules options, its batched core as a `SelfPlay`, its sizes, the models it
ships and how a model is evaluated."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from training.imitation import SelfPlay

Row = dict[str, Any]


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def _no_check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    pass


@dataclass(frozen=True)
class SelfPlaySpec:
    """One game for the self-play trainer."""

    game: str  # the game's registered name
    prog: str  # the console script, for --help and errors
    config: Callable[[argparse.Namespace], Any]  # the parsed options -> the game's config
    self_play: Callable[[Any, str], SelfPlay]  # (config, backend) -> its batched core
    sizes: Callable[[Any], tuple[int, int]]  # config -> (observation entries, actions)
    shipped_model: Callable[[str], Path | None]  # a shipped model's file by name, else None
    start_model: Callable[[int], str]  # players -> the shipped model a run starts from
    eval_opponents: Callable[[int], list[str]]  # players -> the default evaluation opponents
    agent_names: Callable[[], list[str]]  # the names an evaluation opponent may have
    check_agent: Callable[[str], str]  # an agent spec, or ValueError saying what is wrong
    # win_rate(model, config, opponent, games, seed) -> training/evaluate.py's row
    win_rate: Callable[[Any, Any, str, int, int], Row]
    add_arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments
    check: Callable[[argparse.ArgumentParser, argparse.Namespace], None] = _no_check
