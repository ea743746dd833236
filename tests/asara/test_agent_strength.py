"""Graded strength of the baselines, with fixed seeds and enough games to be sure.

Heads-up 2-player games with seats alternated (400 games per pairing, the seeds fixed):
each rule-based strategy must beat RandomAgent in at least 90% of the games, i.e. the
95% Wilson interval's lower bound is at least 0.9, and the strongest baseline (towers)
must beat GreedyAgent (lower bound above 0.5). Ties count half. The same with the
expansions (R9).
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.asara.arena import play_batch
from agents.registry import make_agent
from asara_env import GameConfig
from asara_env.asara.core import derived_seed
from training.evaluation.tournament_stats import wilson_interval

GAMES = 400


def heads_up(first: str, second: str, rules, seed: int) -> tuple[float, float]:
    """The Wilson interval of `first`'s win rate over GAMES games, seats alternated;
    `rules`: a variant name or a GameConfig."""
    config = rules if isinstance(rules, GameConfig) else GameConfig(num_players=2, variant=rules)
    seating = np.array([[0, 1], [1, 0]] * (GAMES // 2))
    seeds = np.array([derived_seed(seed, g) for g in range(GAMES)], np.uint64)
    agents = [make_agent("asara", first, seed), make_agent("asara", second, seed + 1)]
    prestige = play_batch(config, agents, seating, seeds)
    mine = prestige[np.arange(GAMES), seating.argmin(axis=1)]
    theirs = prestige[np.arange(GAMES), seating.argmax(axis=1)]
    wins = (mine > theirs).sum() + 0.5 * (mine == theirs).sum()
    return wilson_interval(float(wins), GAMES)


@pytest.mark.parametrize("variant", ["basic", "pro"])
@pytest.mark.parametrize("strategy", ["towers", "tall"])
def test_rule_based_strategies_beat_random_in_at_least_90_percent(strategy, variant):
    low, _ = heads_up(strategy, "random", variant, seed=101)
    assert low >= 0.9


@pytest.mark.parametrize("variant", ["basic", "pro"])
def test_the_strongest_baseline_beats_greedy(variant):
    low, _ = heads_up("towers", "greedy", variant, seed=202)
    assert low > 0.5


def test_greedy_beats_random():
    low, _ = heads_up("greedy", "random", "basic", seed=303)
    assert low > 0.5


R9_CONFIGS = [
    GameConfig(num_players=2, variant="pro", expansions=("genie", "gifts")),
    GameConfig(num_players=2, variant="basic", expansions=("gifts",)),
]


@pytest.mark.parametrize("config", R9_CONFIGS, ids=["pro-genie-gifts", "basic-gifts"])
@pytest.mark.parametrize("strategy", ["towers", "tall"])
def test_R9_rule_based_strategies_beat_random_with_the_expansions(strategy, config):
    low, _ = heads_up(strategy, "random", config, seed=404)
    assert low >= 0.9


@pytest.mark.parametrize("config", R9_CONFIGS, ids=["pro-genie-gifts", "basic-gifts"])
def test_R9_the_strongest_baseline_beats_greedy_with_the_expansions(config):
    low, _ = heads_up("towers", "greedy", config, seed=505)
    assert low > 0.5
