"""The end of a year for one game (numba): its scoring (R6.2), the final scoring after the
last year (R8, R7.3) and the next year's set-up (R6.3); mirrors
`asara_env.asara.core.year.end_year` and `asara_env.asara.core.scoring`, drawing the same
doubles from the game's tape in the same order (the deal, each display's refill, the
gifts)."""

from __future__ import annotations

import numba
import numpy as np

from asara_env.asara.constants import (
    ASARI_PER_PRESTIGE,
    CARDS_PER_COLOUR,
    COLOUR_AWARDS,
    DISPLAY_SIZE,
    HAND_SIZE,
    MOST_TOWERS_AWARD,
    N_CARD_COLOURS,
    N_CHESTS,
    N_GOLD,
    N_PARTS,
    N_TILE_COLOURS,
    N_YEARS,
    TALLEST_AWARD,
    YEARLY_MONEY,
    chests_in_play,
)
from asara_env.asara.core.kernels.arrays import Arrays, Rules
from asara_env.asara.core.state import TAPE_LENGTH
from asara_env.asara.core.tables import PHASE
from asara_env.common.kernel_cache import use_source_digest_cache
from asara_env.common.kernels import COUNTED, INLINED

use_source_digest_cache()  # before the first kernel: the cache follows every source it reads

C, K = N_TILE_COLOURS, N_CARD_COLOURS
PILE = C * N_GOLD  # the items of one stack: colour-major, then plain/gold
PRO_TIEBREAK = 64  # R7.3: lighted windows break ties (as scoring.final_points)
COLOUR_AWARDS_I64 = np.array(COLOUR_AWARDS, np.int64)  # [colour, (first, second)]
TALLEST_FIRST, TALLEST_SECOND = TALLEST_AWARD
MOST_FIRST, MOST_SECOND = MOST_TOWERS_AWARD
HAND_SIZES = np.array([HAND_SIZE.get(p, 0) for p in range(max(HAND_SIZE) + 1)], np.int64)
DISPLAY_SIZES = np.array(DISPLAY_SIZE, np.int64)
CHESTS = np.full((2, N_CHESTS), -1, np.int64)  # [pro] the chests in play in order, -1 past
for _pro in (False, True):
    CHESTS[int(_pro), : len(chests_in_play(_pro))] = chests_in_play(_pro)
N_CHESTS_IN_PLAY = np.array([len(chests_in_play(pro)) for pro in (False, True)], np.int64)
PH_PLACE, PH_GAME_OVER = PHASE.PLACE, PHASE.GAME_OVER


@numba.njit(**INLINED)  # allocates: called by COUNTED functions only
def shuffled(s: Arrays, b: int, counts: np.ndarray) -> np.ndarray:
    """The items of a pile (counts[K]) in random order: one double per item from game b's
    tape, sorted stably (chance.shuffled)."""
    total = counts.sum()
    start = s.tape_pos[b]
    if total and start + total > TAPE_LENGTH:
        raise RuntimeError("a game used more chance than TAPE_LENGTH provides")
    s.tape_pos[b] = start + total
    items = np.empty(total, np.int64)
    at = 0
    for k in range(len(counts)):
        for _ in range(counts[k]):
            items[at] = k
            at += 1
    order = np.argsort(s.tape[b, start : start + total], kind="mergesort")
    return items[order]


@numba.njit(**INLINED)
def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@numba.njit(**INLINED)
def ranking_award(keys: np.ndarray, first: int, second: int, out: np.ndarray) -> None:
    """out[e] += the R8.2 award of entry e; keys: higher is better, -1 = not ranked
    (scoring.ranking_award)."""
    best = keys.max()
    n_first = 0
    for e in range(len(keys)):
        if keys[e] >= 0 and keys[e] == best:
            n_first += 1
    runner, n_second = np.int64(-1), 0
    for e in range(len(keys)):
        if keys[e] >= 0 and keys[e] == best:
            out[e] += ceil_div(first + second, n_first) if n_first >= 2 else first
        elif keys[e] > runner:
            runner, n_second = keys[e], 1
        elif keys[e] == runner:
            n_second += 1
    if n_first == 1 and runner >= 0:
        for e in range(len(keys)):
            if keys[e] == runner:
                out[e] += ceil_div(second, n_second)


@numba.njit(**INLINED)
def year_end_points(s: Arrays, b: int, seat: int) -> int:
    """Towers, visible gold tiles, lighted windows, the Caliph (R6.2)."""
    points = np.int64(1 if s.caliph[b] == seat else 0)
    for c in range(C):
        points += s.n_towers[b, seat, c]
        for t in range(s.tower_parts.shape[3]):
            for part in range(s.tower_parts.shape[4]):
                points += s.tower_parts[b, seat, c, t, part, 1]
            points += s.tower_lit[b, seat, c, t, 0]  # gold ones count once, as gold
    return points


@numba.njit(**COUNTED)
def final_points(s: Arrays, b: int, p: int, pro: bool) -> None:
    """Write s.final[b] (colour awards x5, tallest, most towers, Asari; R8) and add it to
    the prestige (scoring.final_points)."""
    towers = s.tower_parts.shape[3]
    key = np.full((p, C, towers), -1, np.int64)
    most = np.full(p, -1, np.int64)
    for seat in range(p):
        count, lit_total = np.int64(0), np.int64(0)
        for c in range(C):
            count += s.n_towers[b, seat, c]
            for t in range(s.n_towers[b, seat, c]):
                lit = np.int64(s.tower_lit[b, seat, c, t, 0]) + s.tower_lit[b, seat, c, t, 1]
                tiles = np.int64(0)
                for part in range(s.tower_parts.shape[4]):
                    for g in range(N_GOLD):
                        tiles += s.tower_parts[b, seat, c, t, part, g]
                key[seat, c, t] = tiles * PRO_TIEBREAK + lit if pro else tiles
                lit_total += lit
        if count > 0:
            most[seat] = count * PRO_TIEBREAK + lit_total if pro else count
    points = np.zeros((p, C, towers), np.int64)
    by_colour = np.empty(p * towers, np.int64)
    won = np.zeros(p * towers, np.int64)
    for c in range(C):
        by_colour[:] = key[:, c, :].copy().reshape(-1)
        won[:] = 0
        ranking_award(by_colour, COLOUR_AWARDS_I64[c, 0], COLOUR_AWARDS_I64[c, 1], won)
        for seat in range(p):
            s.final[b, seat, c] = won[seat * towers : (seat + 1) * towers].sum()
    ranking_award(key.reshape(-1), TALLEST_FIRST, TALLEST_SECOND, points.reshape(-1))
    most_won = np.zeros(p, np.int64)
    ranking_award(most, MOST_FIRST, MOST_SECOND, most_won)
    for seat in range(p):
        s.final[b, seat, C] = points[seat].sum()
        s.final[b, seat, C + 1] = most_won[seat]
        s.final[b, seat, C + 2] = s.money[b, seat] // ASARI_PER_PRESTIGE
        s.prestige[b, seat] += s.final[b, seat].sum()


@numba.njit(**COUNTED)
def end_year(s: Arrays, k: Rules, b: int) -> None:
    """Score game b's year; then the final scoring after the last one, else the next
    year's set-up, its first seat the Caliph (year.end_year)."""
    p = k.num_players
    for seat in range(p):
        s.prestige[b, seat] += year_end_points(s, b, seat)
    if s.year[b] == N_YEARS:
        final_points(s, b, p, k.pro > 0)
        s.phase[b] = PH_GAME_OVER
        return
    s.year[b] += 1
    s.area_colour[b, :] = -1
    s.space_seat[b, :] = -1
    s.space_cards[b, :, :] = -1
    s.space_face_up[b, :] = False
    s.coloured[b, :, :] = 0
    for seat in range(p):
        s.money[b, seat] += YEARLY_MONEY
    deal_and_refill(s, b, p, k.has_gifts, k.pro > 0)
    s.seat[b] = s.caliph[b]


@numba.njit(**INLINED)
def deal_and_refill(s: Arrays, b: int, p: int, has_gifts: bool, pro: bool) -> None:
    """Deal all the cards afresh, seat 0 first, then refill the displays part by part,
    then lay the gifts (year.deal_and_refill)."""
    deck = np.full(K, CARDS_PER_COLOUR, np.int64)
    items = shuffled(s, b, deck)
    hand = HAND_SIZES[p]
    s.hands[b, :, :] = 0
    for seat in range(p):
        for j in range(seat * hand, (seat + 1) * hand):
            s.hands[b, seat, items[j]] += 1
            deck[items[j]] -= 1
    for c in range(K):
        s.draw_pile[b, c] = deck[c]
    pile = np.empty(PILE, np.int64)
    for part in range(N_PARTS):
        want = DISPLAY_SIZES[part] - s.displays[b, part].sum()
        if want <= 0:
            continue  # draws nothing
        for c in range(C):
            for g in range(N_GOLD):
                pile[c * N_GOLD + g] = s.stacks[b, part, c, g]
        order = shuffled(s, b, pile)
        for j in range(min(want, len(order))):
            c, g = order[j] // N_GOLD, order[j] % N_GOLD
            s.stacks[b, part, c, g] -= 1
            s.displays[b, part, c, g] += 1
    if has_gifts:
        lay_gifts(s, b, pro)


@numba.njit(**INLINED)
def lay_gifts(s: Arrays, b: int, pro: bool) -> None:
    """R9.2: one gift from the shuffled pile on top of every chest in play, in chest order
    (year.lay_gifts)."""
    top = shuffled(s, b, s.gift_pile[b].astype(np.int64))
    for i in range(N_CHESTS_IN_PLAY[int(pro)]):
        chest = CHESTS[int(pro), i]
        slot = 0  # the first free slot: how many are laid
        for j in range(s.gifts.shape[2]):
            slot += s.gifts[b, chest, j] >= 0
        s.gifts[b, chest, slot] = top[i]
        s.gift_pile[b, top[i]] -= 1
