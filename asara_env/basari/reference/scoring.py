"""Round-end bonus scoring (B9) and the final order (B10)."""

from __future__ import annotations

import numpy as np

from asara_env.basari.constants import (
    GEMS_PER_COLOUR,
    LAP_BONUS,
    MAJORITY_BONUS,
    MAJORITY_RETURN,
    N_COLOURS,
    TIE_RETURN,
)
from asara_env.basari.reference.state import State
from asara_env.common import outcome

TIE_BREAK_BASE = 4 * GEMS_PER_COLOUR + 1  # every tie-break key is below this (101)


def score_majorities(state: State) -> None:
    """B9.2: each colour's most-holders share floor(bonus / k) and return 3 (alone) or 2
    (each, tied), at most what they hold. Nobody scores a colour nobody holds."""
    for c in range(N_COLOURS):
        held = state.gems[:, c]
        m = int(held.max())
        if m == 0:
            continue
        holders = held == m
        k = int(holders.sum())
        state.score[holders] += int(MAJORITY_BONUS[state.round, c]) // k
        back = min(MAJORITY_RETURN if k == 1 else TIE_RETURN, m)
        state.gems[holders, c] -= back
        state.carpet[c] += back * k


def score_laps(state: State) -> None:
    """B9.3: every seat that completed a lap this round scores LAP_BONUS."""
    state.score[state.lapped] += LAP_BONUS


def end_round(state: State) -> None:
    """B9.2-B9.5: bonus points, then start disks to the merchants and progress to 0."""
    score_laps(state)
    score_majorities(state)
    state.start = state.position.copy()
    state.progress[:] = 0


def tie_break_key(state: State) -> np.ndarray:
    """int64[P, 5]: B10.2's keys, compared in order: total gems, then red, yellow, green,
    blue."""
    return np.concatenate([state.gems.sum(axis=1, keepdims=True), state.gems], axis=1)


def ranking_score(state: State) -> np.ndarray:
    """int64[P]: the score with B10.2's tie-break folded in (each key below 101), so the
    common outcome module's winners and ranks follow B10."""
    folded = state.score.astype(np.int64)
    for column in tie_break_key(state).T:
        folded = folded * TIE_BREAK_BASE + column
    return folded


def winners(state: State) -> np.ndarray:
    """bool[P]: B10: the highest score, ties broken by B10.2; seats still tied share."""
    return outcome.winners(ranking_score(state))


def ranks(state: State) -> np.ndarray:
    """float[P]: 1 = first; seats tied on score and every tie-break key share places."""
    return outcome.ranks(ranking_score(state))
