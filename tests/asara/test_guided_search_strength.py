"""Strength of network-guided information-set MCTS (slow): ismcts with the shipped 2-player
model's policy as priors and its value head at the leaves beats that model heads-up, and
beats unguided ismcts at the same iterations (which cost it about twice the CPU).

Basic rules, 2 players, 200 games with fixed seeds (`game_seeds(17, 2, 200)`), seats
alternated, played by `training.heads_up` in chunks of 20 games against the model and of 10
against unguided search. The same runs, resumable,
from the command line (docs/agents.md, "ASARA search", gives the figures):

    python -m training.heads_up asara ismcts:128:prior=ppo_2p:value=net:wave=128 ppo_2p \\
        --games 200 --seed 17 --chunk 20 --log results/guided/g128_vs_ppo_2p.jsonl

    python -m pytest -m slow -q -s tests/asara/test_guided_search_strength.py
"""

from __future__ import annotations

import pytest

from training.heads_up import heads_up

pytest.importorskip("sb3_contrib")

GUIDED = "ismcts:128:prior=ppo_2p:value=net:wave=128"
UNGUIDED = "ismcts:128:playout=towers:horizon=10:value=margin"


@pytest.mark.slow
@pytest.mark.parametrize(("opponent", "chunk"), [("ppo_2p", 20), (UNGUIDED, 10)])
def test_guided_ismcts_beats_heads_up(opponent, chunk):
    result = heads_up("asara", GUIDED, opponent, games=200, seed=17, chunk=chunk, progress=False)
    print(result)
    assert result["games"] == 200 and result["ci_low"] > 0.5
