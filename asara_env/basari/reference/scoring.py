"""Round-end bonus scoring (B9) and the final order (B10)."""

from __future__ import annotations

from dataclasses import dataclass

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


@dataclass(frozen=True)
class Majority:
    """B9.2 for one colour: the gems each seat held, the seats holding the most (none if
    nobody holds the colour), the points each of them scores and the gems each returns."""

    colour: int
    held: tuple[int, ...]
    holders: tuple[int, ...]
    points: int
    returned: int


@dataclass(frozen=True)
class RoundEnd:
    """What a round's end scored (B9.2-B9.3): the round (0-based), the seats that
    completed a lap, the lap bonus each scored, and each colour's majority."""

    round: int
    lapped: tuple[bool, ...]
    lap_bonus: int
    majorities: tuple[Majority, ...]


def majorities(state: State) -> tuple[Majority, ...]:
    """B9.2: each colour's most-holders share floor(bonus / k) and return 3 (alone) or 2
    (each, tied), at most what they hold. Nobody scores a colour nobody holds."""
    out = []
    for c in range(N_COLOURS):
        held = tuple(int(x) for x in state.gems[:, c])
        m = max(held)
        holders = tuple(s for s, x in enumerate(held) if x == m) if m else ()
        k = len(holders)
        points = int(MAJORITY_BONUS[state.round, c]) // k if k else 0
        back = min(MAJORITY_RETURN if k == 1 else TIE_RETURN, m) if k else 0
        out.append(Majority(c, held, holders, points, back))
    return tuple(out)


def score_majorities(state: State) -> None:
    """B9.2 (`majorities`), scored: points to the most-holders, their gems back to the
    carpet."""
    for majority in majorities(state):
        for seat in majority.holders:
            state.score[seat] += majority.points
            state.gems[seat, majority.colour] -= majority.returned
            state.carpet[majority.colour] += majority.returned


def score_laps(state: State) -> None:
    """B9.3: every seat that completed a lap this round scores LAP_BONUS."""
    state.score[state.lapped] += LAP_BONUS


def end_round(state: State) -> RoundEnd:
    """B9.2-B9.5: bonus points, then start disks to the merchants and progress to 0;
    returns what was scored."""
    scored = RoundEnd(
        int(state.round), tuple(bool(x) for x in state.lapped), LAP_BONUS, majorities(state)
    )
    score_laps(state)
    score_majorities(state)
    state.start = state.position.copy()
    state.progress[:] = 0
    return scored


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
