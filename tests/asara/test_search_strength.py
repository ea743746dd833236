"""Strength of the search agent (slow): flatmc beats towers heads-up.

Basic rules, 2 players, seats alternated, fixed seeds. The budget is in simulations per
decision (`SEARCH`), sized to cost well under 0.5 s per decision when one game is searched
alone on the 2-core development machine (see docs/performance.md for the times
measured); here the 120 games are played at once and their searches share playout
batches (same budget per decision), which only makes the run shorter.

    python -m pytest -m slow -q -s tests/asara/test_search_strength.py
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from agents.asara.arena import play_batch
from agents.registry import make_agent
from asara_env.asara.config import GameConfig
from asara_env.common.outcome import win_shares
from tests.asara.test_search import flatmc
from training.evaluation.tournament import game_seeds, rotated_seating, sub_seed
from training.evaluation.tournament_stats import wilson_interval

SEARCH = "flatmc:128:playout=towers:horizon=10:value=margin"
GAMES = 100
SEED = 17


def heads_up(spec: str, opponent: str, games: int, seed: int) -> dict[str, Any]:
    """The search agent `spec` against `opponent`: seats alternated, game g the reference
    game game_seeds(seed, 2, games)[g], all games in one batch."""
    config = GameConfig(num_players=2)
    search = flatmc(spec + ":batch=4096", sub_seed(seed, 1))
    agents = [search, make_agent("asara", opponent, sub_seed(seed, 2))]
    seating = rotated_seating(games, 2)  # seats alternated
    start, cpu = time.perf_counter(), time.process_time()
    prestige = play_batch(config, agents, seating, game_seeds(seed, 2, games), batch_size=games)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    wins = float(win_shares(prestige)[seating == 0].sum())
    low, high = wilson_interval(wins, games)
    return {
        "spec": spec,
        "opponent": opponent,
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "ci_low": low,
        "ci_high": high,
        "searches": search.searches,
        "cpu_s_per_search": cpu / max(search.searches, 1),
        "wall_s": wall,
    }


@pytest.mark.slow
def test_search_beats_towers_heads_up():
    result = heads_up(SEARCH, "towers", GAMES, SEED)
    print(result)
    assert result["ci_low"] > 0.5
