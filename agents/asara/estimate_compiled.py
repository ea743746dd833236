"""The search's leaf estimate (`agents.asara.search.estimate`) compiled with numba: the
same integers, read from the core state's arrays game by game instead of through the
batched numpy scoring (`asara_env.asara.core.scoring`)."""

from __future__ import annotations

import numba
import numpy as np
from numpy.typing import NDArray

from asara_env.asara.constants import (
    ASARI_PER_PRESTIGE,
    COLOUR_AWARDS,
    MOST_TOWERS_AWARD,
    N_YEARS,
    TALLEST_AWARD,
)
from asara_env.asara.core.kernels.arrays import Arrays, arrays
from asara_env.asara.core.state import CoreState
from asara_env.asara.phases import Phase
from asara_env.common.kernel_cache import use_source_digest_cache
from asara_env.common.kernels import COUNTED

use_source_digest_cache()  # before the first kernel: the cache follows every source it reads

GAME_OVER = int(Phase.GAME_OVER)
PRO_KEY = 64  # R7.3: a tower's height (or a seat's tower count) outranks its lit windows
COLOUR_FIRST = np.array([first for first, _ in COLOUR_AWARDS], np.int64)
COLOUR_SECOND = np.array([second for _, second in COLOUR_AWARDS], np.int64)


def estimate(games: CoreState) -> NDArray[np.int64]:
    """int64[B, P]: `agents.asara.search.estimate(games)`."""
    out = np.empty(games.prestige.shape, np.int64)
    estimate_rows(arrays(games), games.config.pro, out)
    return out


@numba.njit(**COUNTED)
def award(keys: np.ndarray, first: int, second: int, points: np.ndarray) -> None:
    """points[e] += entry e's share of the (first, second) award among `keys` (R8.2;
    higher is better, -1 = not ranked), as `asara_env.asara.core.scoring.ranking_award`."""
    best = keys.max()
    n_first = 0
    for e in range(len(keys)):
        if keys[e] >= 0 and keys[e] == best:
            n_first += 1
    shared = -(-(first + second) // max(n_first, 1))
    runner = -1
    for e in range(len(keys)):
        if keys[e] >= 0 and keys[e] == best:
            points[e] += shared if n_first >= 2 else first
        elif keys[e] > runner:
            runner = keys[e]
    if n_first != 1 or runner < 0:
        return
    n_second = 0
    for e in range(len(keys)):
        if keys[e] == runner and keys[e] != best:
            n_second += 1
    for e in range(len(keys)):
        if keys[e] == runner and keys[e] != best:
            points[e] += -(-second // n_second)


@numba.njit(**COUNTED)
def seat_towers(
    b: int,
    p: int,
    pro: bool,
    tower_parts: np.ndarray,
    tower_lit: np.ndarray,
    n_towers: np.ndarray,
    key: np.ndarray,
    tallest: np.ndarray,
) -> tuple[int, int]:
    """(end-of-year points, most-towers key) of seat p in game b (R6.2, R8); writes the
    keys of its towers (-1: no tower) into key[colour, (seat, slot)] and tallest[(colour,
    seat, slot)]."""
    players, colours, slots = tower_parts.shape[1], tower_parts.shape[2], tower_parts.shape[3]
    year_end, count, lit_total = np.int64(0), np.int64(0), np.int64(0)
    for c in range(colours):
        count += n_towers[b, p, c]
        for k in range(slots):
            height = np.int64(0)
            for part in range(tower_parts.shape[4]):
                for g in range(tower_parts.shape[5]):
                    height += tower_parts[b, p, c, k, part, g]
                year_end += tower_parts[b, p, c, k, part, 1]
            lit = np.int64(0)
            for g in range(tower_lit.shape[4]):
                lit += tower_lit[b, p, c, k, g]
            year_end += lit - tower_lit[b, p, c, k, 1]
            exists = k < n_towers[b, p, c]
            if pro:
                height = height * PRO_KEY + lit
                if exists:
                    lit_total += lit
            key[c, p * slots + k] = height if exists else -1
            tallest[(c * players + p) * slots + k] = height if exists else -1
    most = (count * PRO_KEY + lit_total if pro else count) if count > 0 else -1
    return year_end + count, most


@numba.njit(**COUNTED)
def estimate_rows(state: tuple[np.ndarray, ...], pro: bool, out: np.ndarray) -> None:
    """out[b]: the estimate of game b (its prestige where the game is over); `state`: the
    `Arrays` as a plain tuple."""
    s = Arrays(*state)
    phase, year, caliph, money, prestige = s.phase, s.year, s.caliph, s.money, s.prestige
    tower_parts, tower_lit, n_towers = s.tower_parts, s.tower_lit, s.n_towers
    players, colours, slots = tower_parts.shape[1], tower_parts.shape[2], tower_parts.shape[3]
    key = np.empty((colours, players * slots), np.int64)  # per colour, entries (seat, slot)
    points = np.empty((colours, players * slots), np.int64)
    tallest = np.empty(colours * players * slots, np.int64)  # entries (colour, seat, slot)
    tallest_points = np.empty(colours * players * slots, np.int64)
    most = np.empty(players, np.int64)
    most_points = np.empty(players, np.int64)
    for b in range(len(phase)):
        if phase[b] == GAME_OVER:
            for p in range(players):
                out[b, p] = prestige[b, p]
            continue
        years_left = N_YEARS + 1 - np.int64(year[b])
        points[:] = 0
        tallest_points[:] = 0
        most_points[:] = 0
        for p in range(players):
            towers, most[p] = seat_towers(b, p, pro, tower_parts, tower_lit, n_towers, key, tallest)
            year_end = towers + (1 if caliph[b] == p else 0)
            out[b, p] = prestige[b, p] + money[b, p] // ASARI_PER_PRESTIGE
            out[b, p] += years_left * year_end
        for c in range(colours):
            award(key[c], COLOUR_FIRST[c], COLOUR_SECOND[c], points[c])
        award(tallest, TALLEST_AWARD[0], TALLEST_AWARD[1], tallest_points)
        award(most, MOST_TOWERS_AWARD[0], MOST_TOWERS_AWARD[1], most_points)
        for p in range(players):
            out[b, p] += most_points[p]
            for c in range(colours):
                for k in range(slots):
                    out[b, p] += points[c, p * slots + k]
                    out[b, p] += tallest_points[(c * players + p) * slots + k]
