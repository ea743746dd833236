"""Strength of network-guided information-set MCTS (slow): ismcts with the shipped 2-player
model's policy as priors and its value head at the leaves, at 512 iterations, beats the
model itself.

Basic rules, 2 players, fixed seeds (`game_seeds(17, 2, games)`), seats alternated, played
by `training.evaluation.heads_up` in chunks of 10 games. docs/agents.md ("Strength") gives the
figures measured on this match. The same run, resumable, from the command line:

    python -m training.evaluation.heads_up asara \\
        ismcts:512:prior=ppo_2p:value=net:wave=128 ppo_2p \\
        --games 200 --seed 17 --chunk 10 --log results/guided/g512_vs_ppo_2p.jsonl

    python -m pytest -m slow -q -s tests/asara/test_guided_search_strength.py
"""

from __future__ import annotations

import pytest

from training.evaluation.heads_up import heads_up

pytest.importorskip("sb3_contrib")

GUIDED_512 = "ismcts:512:prior=ppo_2p:value=net:wave=128"


@pytest.mark.slow
def test_guided_ismcts_at_512_iterations_beats_the_model_heads_up():
    result = heads_up("asara", GUIDED_512, "ppo_2p", games=200, seed=17, chunk=10, progress=False)
    print(result)
    assert result["games"] == 200 and result["ci_low"] > 0.5
