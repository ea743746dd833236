"""Strength of network-guided information-set MCTS (slow): ismcts with the shipped 2-player
model's policy as priors and its value head at the leaves beats unguided ismcts at the same
iterations (which cost it more than twice the CPU), and, at 512 iterations, the model itself.

Basic rules, 2 players, 200 games with fixed seeds (`game_seeds(17, 2, 200)`), seats
alternated, played by `training.heads_up` in chunks of 10 games. docs/agents.md ("ASARA
search") gives the figures measured so far: the first 60 games against unguided ismcts
(0.61, interval 0.48-0.72) and the first 30 against the model at 512 iterations (0.67,
0.49-0.81). The same runs, resumable, from the command line:

    python -m training.heads_up asara ismcts:512:prior=ppo_2p:value=net:wave=128 ppo_2p \\
        --games 200 --seed 17 --chunk 10 --log results/guided/g512_vs_ppo_2p.jsonl

    python -m pytest -m slow -q -s tests/asara/test_guided_search_strength.py
"""

from __future__ import annotations

import pytest

from training.heads_up import heads_up

pytest.importorskip("sb3_contrib")

GUIDED = "ismcts:128:prior=ppo_2p:value=net:wave=128"
GUIDED_512 = "ismcts:512:prior=ppo_2p:value=net:wave=128"
UNGUIDED = "ismcts:128:playout=towers:horizon=10:value=margin"


@pytest.mark.slow
@pytest.mark.parametrize(("spec", "opponent"), [(GUIDED, UNGUIDED), (GUIDED_512, "ppo_2p")])
def test_guided_ismcts_wins_heads_up(spec, opponent):
    result = heads_up("asara", spec, opponent, games=200, seed=17, chunk=10, progress=False)
    print(result)
    assert result["games"] == 200 and result["ci_low"] > 0.5
