"""Sequential halving at the Gumbel root (mctx's `seq_halving.py`): which root actions
the next round simulates, and how many times (`halving_jobs`), and the better half kept
after it (`halve`)."""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray


def halving_jobs(
    survivors: list[list[int]],
    phases: list[int],
    phase: int,
    budget: list[int],
    timed: bool,
) -> tuple[list[int], list[int]]:
    """(decision, forced root action) of every simulation of one round of `phase`, for
    every decision still halving: with `sims` (budget[i]: decision i's simulations left)
    its share of what is left spread evenly over the survivors, budget[i] lowered by what
    it spends; `timed` (one decision, budget[0]: the worlds per survivor) budget[0] each."""
    jobs: list[int] = []
    forced: list[int] = []
    for i in range(len(survivors)):
        if phase >= phases[i] or budget[i] <= 0:
            continue
        per = budget[i] if timed else max(1, budget[i] // ((phases[i] - phase) * len(survivors[i])))
        for a in survivors[i]:
            jobs += [i] * per
            forced += [a] * per
        if not timed:
            budget[i] -= per * len(survivors[i])
    return jobs, forced


def halve(survivors: list[int], score: NDArray[np.float64]) -> list[int]:
    """The better half (rounded up) of `survivors` by `score`, best first."""
    keep = max(1, math.ceil(len(survivors) / 2))
    ranked = np.argsort(-score, kind="stable")[:keep]
    return [survivors[j] for j in ranked]
