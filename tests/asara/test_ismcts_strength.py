"""Strength of information-set MCTS (slow): ismcts beats towers heads-up.

Basic rules, 2 players, 100 games with fixed seeds (`game_seeds(17, 2, 100)`), seats
alternated, played by `training.evaluation.heads_up` in chunks of 10 games (each chunk one arena
batch, its searches sharing core batches; the budget per decision is the same). The
budget, `SEARCH`'s 128 iterations in waves of 32, costs about 0.22 s of CPU per decision
(at most 0.3 s) when one game is searched alone on the 2-core development machine
(docs/performance.md, "ASARA: search"). The same run, resumable, from the command line:

    python -m training.evaluation.heads_up asara \
        ismcts:128:playout=towers:horizon=10:value=margin towers \
        --games 100 --seed 17 --chunk 10 --log results/ismcts/ismcts128w_vs_towers.jsonl

    python -m pytest -m slow -q -s tests/asara/test_ismcts_strength.py
"""

from __future__ import annotations

import pytest

from training.evaluation.heads_up import heads_up

SEARCH = "ismcts:128:playout=towers:horizon=10:value=margin"


@pytest.mark.slow
def test_ismcts_beats_towers_heads_up():
    result = heads_up("asara", SEARCH, "towers", games=100, seed=17, chunk=10)
    print(result)
    assert result["games"] == 100 and result["ci_low"] > 0.5
