"""A game's `GameSpec`: what PPO's driver (training/ppo/run.py) needs to know about it
(training/<game>/train.py)."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from training.imitation import Samples

    from .sb3_vec_env import BatchedVecEnv, Opponent

Row = dict[str, Any]


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    pass


def _no_check(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    pass


@dataclass(frozen=True)
class GameSpec:
    """What the driver needs to know about one game (training/<game>/train.py)."""

    game: str  # the game's registered name (its card: the player counts)
    name: str  # the console script, for --help
    description: str  # the first line of --help
    opponents: Collection[str]  # the baseline agents' names: what --opponents may name
    hyper: dict[str, Any]  # MaskablePPO defaults, each one a flag
    defaults: dict[str, Any]  # defaults of the shared flags (players, opponents, ...)
    # the parsed options -> the game's config: built once, then passed on whole
    config: Callable[[argparse.Namespace], Any]
    # env(config, args, opponent names, weights, seed) -> the learner's VecEnv
    make_env: Callable[[Any, argparse.Namespace, list[str], list[float], int], BatchedVecEnv]
    # win_rate(model, config, opponent, games, seed) -> a row of training/evaluation/evaluate.py
    win_rate: Callable[[Any, Any, str, int, int], Row]
    # collect(config, expert, games, seed, reward) -> behaviour-cloning samples
    collect: Callable[[Any, str, int, int, str], Samples]
    policy_kwargs: Callable[[], dict[str, Any]]
    policy_agent: Callable[[Any, int], Opponent]  # (policy holder, seed): a league snapshot
    add_arguments: Callable[[argparse.ArgumentParser], None] = _no_arguments
    check: Callable[[argparse.ArgumentParser, argparse.Namespace], None] = _no_check
    # finish(model, args, run info) -> extra entries for run.json (a final evaluation)
    finish: Callable[[Any, argparse.Namespace, Row], Row] | None = None


# ------------------------------------------------------------------------------ the run
