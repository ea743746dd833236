"""The peer benchmark's random legal actions and decision counting (benchmarks/bench_peers.py)."""

import numpy as np

from asara_env.common.sampling import random_legal
from benchmarks.bench_peers import decisions_in


def test_random_legal_picks_only_legal_ids_and_reaches_each_of_them():
    rng = np.random.default_rng(0)
    mask = rng.random((64, 3, 40)) < 0.2
    mask[..., 7] = True  # every row has a legal id
    seen = np.zeros_like(mask)
    for _ in range(300):
        picks = random_legal(mask, rng)
        assert picks.shape == mask.shape[:-1]
        assert np.take_along_axis(mask, picks[..., None], axis=-1).all()
        np.put_along_axis(seen, picks[..., None], True, axis=-1)
    assert (seen == mask).all()


def test_decisions_count_live_games_or_seats_with_a_real_choice():
    mask = np.zeros((2, 3, 5), bool)
    mask[:, :, 0] = True  # the no-op everywhere
    mask[0, 1, 3] = True
    mask[1, 2, 4] = True
    mask[1, 0, 2] = True
    assert decisions_in(mask, np.array([True, True]), simultaneous=True) == 3
    assert decisions_in(mask[:, 0], np.array([True, False]), simultaneous=False) == 1
