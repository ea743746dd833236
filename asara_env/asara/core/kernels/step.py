"""One decision applied per game, with its automatic consequences up to the next decision
(numba), the end of a year included (`asara_env.asara.core.kernels.year`); mirrors
`asara_env.asara.core.step` function by function."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from asara_env.asara.actions import NUM_ACTIONS, Group
from asara_env.asara.constants import (
    COLOURED_BUILDING_ASARI,
    LIGHTED_GIFT_COST,
    MAX_LIGHTS_DRAWN,
    N_CARD_COLOURS,
    N_TILE_COLOURS,
    RECRUIT_CARDS,
    GiftEffect,
)
from asara_env.asara.core.kernels.arrays import Arrays, Rules
from asara_env.asara.core.kernels.mask import (
    PH_GIFT_BUY,
    PH_GIFT_LIGHTS,
    PH_PLACE,
    build_sizes,
    mask_gift,
    space_taken,
    write_mask,
)
from asara_env.asara.core.kernels.year import end_year, shuffled
from asara_env.asara.core.state import SPACE_VALUE
from asara_env.asara.core.tables import (
    ACTION_FIELDS,
    ACTION_GROUP,
    AMOUNT,
    AREA,
    CHANGES_MATERIALS,
    EFFECT,
    GENIE_AREA,
    GENIE_BUILD,
    GENIE_VALUE,
    GIFT_PHASE,
    LIGHTS_COST,
    LIGHTS_DRAWN,
    LIGHTS_KEPT,
    MARKET,
    MONEY_SIGN,
    NEXT_PHASE,
    OPTION_CARDS,
    OPTION_FACE_UP,
    OPTION_HAND,
    PHASE,
    PRICES,
    TARGET_AREA,
    TARGET_BUILD_N,
)
from asara_env.common.kernel_cache import use_source_digest_cache
from asara_env.common.kernels import COUNTED, ENTRY, INLINED

use_source_digest_cache()  # before the first kernel: the cache follows every source it reads

C, K = N_TILE_COLOURS, N_CARD_COLOURS
OPTION_HAND_I64 = OPTION_HAND.astype(np.int64)
ASARI, PRESTIGE, GIFT_BUY = int(GiftEffect.ASARI), int(GiftEffect.PRESTIGE), int(GiftEffect.BUY)
CALIPH, TENT = AREA.CALIPH, AREA.TENT
PH_GAME_OVER = PHASE.GAME_OVER
PLACE, PLACE_COLOURED, BUY, BRIBE_STACK, BRIBE_TAKE, BRIBE_NOTHING = (
    int(Group.PLACE), int(Group.PLACE_COLOURED), int(Group.BUY), int(Group.BRIBE_STACK),
    int(Group.BRIBE_TAKE), int(Group.BRIBE_NOTHING),
)  # fmt: skip
LIGHTS_OPTION, LIGHTS_KEEP, BUILD_TILE, BUILD_LIGHTED, GENIE_MOVE, GIFT_CARD = (
    int(Group.LIGHTS_OPTION), int(Group.LIGHTS_KEEP), int(Group.BUILD_TILE),
    int(Group.BUILD_LIGHTED), int(Group.GENIE_MOVE), int(Group.GIFT_CARD),
)  # fmt: skip
PH_BRIBE_TAKE, PH_LIGHTS_KEEP = PHASE.BRIBE_TAKE, PHASE.LIGHTS_KEEP


# ------------------------------------------------------------------------------ chance
@numba.njit(**INLINED)  # allocates: called by COUNTED functions only
def draw_many(s: Arrays, b: int, counts: np.ndarray, k: int) -> np.ndarray:
    """Draw min(k, total) items one by one from counts[K] (in place); the counts drawn
    (chance.draw_many)."""
    drawn = np.zeros(len(counts), np.int64)
    for _ in range(min(k, counts.sum())):
        u = s.tape[b, s.tape_pos[b]]
        s.tape_pos[b] += 1
        position = np.int64(u * counts.sum())
        edge = 0
        for index in range(len(counts)):
            edge += counts[index]
            if edge > position:
                break
        counts[index] -= 1
        drawn[index] += 1
    return drawn


# ------------------------------------------------------------------------------ placement
@numba.njit(**INLINED)
def place(
    s: Arrays,
    b: int,
    seat: int,
    target: int,
    option: int,
    chest_of_space: np.ndarray,
    has_gifts: bool,
) -> bool:
    for c in range(K):
        s.hands[b, seat, c] -= OPTION_HAND_I64[option, c]
    space = space_taken(s, b, target)
    s.space_seat[b, space] = seat
    for j in range(OPTION_CARDS.shape[1]):
        s.space_cards[b, space, j] = OPTION_CARDS[option, j]
    face_up = OPTION_FACE_UP[option]
    s.space_face_up[b, space] = face_up
    area = TARGET_AREA[target]
    if face_up and s.area_colour[b, area] < 0:  # a face-up card sets the colour (R3.2)
        s.area_colour[b, area] = OPTION_CARDS[option, 0]
    chest = chest_of_space[space] if has_gifts else -1
    if chest < 0 or s.gifts[b, chest, 0] < 0:
        return start_move(s, b, seat, area, SPACE_VALUE[space], TARGET_BUILD_N[target])
    for j in range(s.gifts.shape[2]):  # R9.2: the gifts first, in the order laid
        s.gift_queue[b, j] = s.gifts[b, chest, j]
        s.gifts[b, chest, j] = -1
    s.gift_chest[b] = chest
    s.pending_target[b] = target
    s.pending_space[b] = space
    return carry_out_gifts(s, b, seat)


@numba.njit(**COUNTED)
def carry_out_gifts(s: Arrays, b: int, seat: int) -> bool:
    """Carry out the waiting gifts in order until one asks for a decision with a legal
    choice (one without does nothing), then the space's own move; whether the turn ended.
    The gift masks are tried in s.legal[b], which the step rewrites afterwards."""
    queue = s.gift_queue[b]
    while queue[0] >= 0:
        kind = queue[0]
        queue[:-1] = queue[1:].copy()
        queue[-1] = -1
        effect, amount = EFFECT[kind], AMOUNT[kind]
        if effect == ASARI:
            s.money[b, seat] += amount
        elif effect == PRESTIGE:
            s.prestige[b, seat] += amount
        s.market[b] = amount if effect == GIFT_BUY else -1
        phase = GIFT_PHASE[effect]
        if phase == PH_PLACE:
            continue
        s.phase[b] = phase
        row = s.legal[b]
        row[:] = False
        if mask_gift(s, b, phase, s.money[b, seat], row):
            return False
    return pending_move(s, b, seat)


@numba.njit(**INLINED)
def pending_move(s: Arrays, b: int, seat: int) -> bool:
    """The move of the space the gifts lay on, once they are carried out."""
    target, space = s.pending_target[b], s.pending_space[b]
    s.market[b] = -1
    s.gift_chest[b] = s.pending_target[b] = s.pending_space[b] = -1
    return start_move(s, b, seat, TARGET_AREA[target], SPACE_VALUE[space], TARGET_BUILD_N[target])


@numba.njit(**INLINED)
def start_move(s: Arrays, b: int, seat: int, area: int, value: int, build_n: int) -> bool:
    """Carry out the move of a placement (R4); whether it ends the turn."""
    phase = NEXT_PHASE[area]
    s.phase[b] = phase
    s.market[b] = MARKET[area]
    s.build_left[b] = build_n
    s.money[b, seat] += MONEY_SIGN[area] * value
    if area == CALIPH:
        s.caliph[b] = seat
    elif area == TENT:
        recruit(s, b, seat)
    return phase == PH_PLACE


@numba.njit(**COUNTED)
def recruit(s: Arrays, b: int, seat: int) -> None:
    """R7.1: draw RECRUIT_CARDS cards into the hand."""
    pile = s.draw_pile[b].astype(np.int64)
    drawn = draw_many(s, b, pile, RECRUIT_CARDS)
    s.draw_pile[b, :] = pile
    for c in range(K):
        s.hands[b, seat, c] += drawn[c]


# ------------------------------------------------------------------------------ moves
@numba.njit(**INLINED)
def take_tile(
    s: Arrays, b: int, seat: int, pile: np.ndarray, part: int, colour: int, gold: int
) -> bool:
    pile[b, part, colour, gold] -= 1
    s.supply[b, seat, part, colour, gold] += 1
    s.money[b, seat] -= PRICES[colour]
    return True


@numba.njit(**COUNTED)
def keep_gift_window(s: Arrays, b: int, seat: int, colour: int) -> bool:
    """R9.2: keep a window of the stack, pay for it; the rest is shuffled, known to nobody."""
    counts = np.zeros(C, np.int64)
    for i in range(s.lighted_stack.shape[1]):
        if s.lighted_stack[b, i] >= 0:
            counts[s.lighted_stack[b, i]] += 1
    counts[colour] -= 1
    order = shuffled(s, b, counts)
    s.lighted_stack[b, :] = -1
    s.lighted_stack[b, : len(order)] = order
    s.lighted_owner[b, :] = -1
    s.lighted_len[b] -= 1
    s.lighted_supply[b, seat, colour] += 1
    s.money[b, seat] -= LIGHTED_GIFT_COST
    return carry_out_gifts(s, b, seat)


@numba.njit(**COUNTED)
def lights_option(s: Arrays, b: int, seat: int, option: int) -> bool:
    s.money[b, seat] -= LIGHTS_COST[option]
    length = np.int64(s.lighted_len[b])
    drawn = min(LIGHTS_DRAWN[option], length)
    stack, owner = s.lighted_stack[b].copy(), s.lighted_owner[b].copy()
    width = len(stack)
    for j in range(MAX_LIGHTS_DRAWN):
        s.lights_drawn[b, j] = stack[j] if j < drawn else -1
    for k in range(width):
        keep = k < length - drawn
        s.lighted_stack[b, k] = stack[min(k + drawn, width - 1)] if keep else -1
        s.lighted_owner[b, k] = owner[min(k + drawn, width - 1)] if keep else -1
    s.lighted_len[b] = length - drawn
    s.lights_keep[b] = min(LIGHTS_KEPT[option], drawn)
    s.phase[b] = PH_LIGHTS_KEEP
    return False


@numba.njit(**COUNTED)
def keep_drawn(s: Arrays, b: int, seat: int, colour: int) -> bool:
    """Keep a drawn window; once the last is kept the others go back (R7.2)."""
    drawn = s.lights_drawn[b]
    for j in range(MAX_LIGHTS_DRAWN):
        if drawn[j] == colour:
            drawn[j] = -1
            break
    kept = drawn[drawn >= 0].copy()  # the rest closed up, in drawn order
    drawn[:] = -1
    drawn[: len(kept)] = kept
    s.lighted_supply[b, seat, colour] += 1
    s.lights_keep[b] -= 1
    if s.lights_keep[b] != 0:
        return False
    length = s.lighted_len[b]
    for k in range(len(kept)):  # to the bottom of the stack, known to `seat`
        s.lighted_stack[b, length + k] = kept[k]
        s.lighted_owner[b, length + k] = seat
    s.lighted_len[b] = length + len(kept)
    drawn[:] = -1
    return True


@numba.njit(**INLINED)
def apply(
    s: Arrays, b: int, group: int, f: np.ndarray, chest_of_space: np.ndarray, has_gifts: bool
) -> bool:
    """Apply one legal action of `group` with fields f; whether the turn ended."""
    seat = np.int64(s.seat[b])
    if group == PLACE:
        return place(s, b, seat, f[0], f[1], chest_of_space, has_gifts)
    if group == PLACE_COLOURED:
        s.hands[b, seat, f[0]] -= 1
        s.coloured[b, seat, f[0]] += 1
        s.money[b, seat] += COLOURED_BUILDING_ASARI
        return True
    if group in (BUY, BRIBE_STACK, BRIBE_TAKE, BRIBE_NOTHING):
        return market_move(s, b, seat, group, f)
    if group in (LIGHTS_OPTION, LIGHTS_KEEP):
        if group == LIGHTS_OPTION:
            return lights_option(s, b, seat, f[0])
        if s.phase[b] == PH_GIFT_LIGHTS:
            return keep_gift_window(s, b, seat, f[0])
        return keep_drawn(s, b, seat, f[0])
    if group in (BUILD_TILE, BUILD_LIGHTED):
        return build(s, b, seat, group, f)
    if group == GENIE_MOVE:
        area = GENIE_AREA[f[0]]
        if area < 0:  # the coloured building: no card is placed (R9.1)
            s.money[b, seat] += COLOURED_BUILDING_ASARI
            return True
        return start_move(s, b, seat, area, GENIE_VALUE[f[0]], GENIE_BUILD[f[0]])
    s.draw_pile[b, f[0]] -= 1  # GIFT_CARD
    s.hands[b, seat, f[0]] += 1
    return carry_out_gifts(s, b, seat)


@numba.njit(**INLINED)
def market_move(s: Arrays, b: int, seat: int, group: int, f: np.ndarray) -> bool:
    """A purchase from a display, or the steps of a bribe (R4.1, R4.5)."""
    if group == BUY:
        take_tile(s, b, seat, s.displays, f[0], f[1], f[2])
        return carry_out_gifts(s, b, seat) if s.phase[b] == PH_GIFT_BUY else True
    if group == BRIBE_STACK:
        s.bribe_stack[b] = f[0]
        s.phase[b] = PH_BRIBE_TAKE
        return False
    if group == BRIBE_TAKE:
        return take_tile(s, b, seat, s.stacks, f[0], f[1], f[2])
    return True  # BRIBE_NOTHING


@numba.njit(**INLINED)
def build(s: Arrays, b: int, seat: int, group: int, f: np.ndarray) -> bool:
    """One tile or lighted window built onto a tower (R4.2, R7.2)."""
    if group == BUILD_TILE:
        part, colour, gold, slot = f[0], f[1], f[2], f[3]
        s.tower_parts[b, seat, colour, slot, part, gold] += 1
        s.supply[b, seat, part, colour, gold] -= 1
        s.n_towers[b, seat, colour] = max(s.n_towers[b, seat, colour], slot + 1)
    else:
        s.tower_lit[b, seat, f[0], f[1], f[2]] += 1
        s.lighted_supply[b, seat, f[0]] -= 1
    s.prestige[b, seat] += 1
    s.build_left[b] -= 1
    return s.build_left[b] == 0


@numba.njit(**INLINED)
def next_seat(s: Arrays, b: int, p: int) -> bool:
    """End the turn: the next seat in turn holding cards moves (R5); False if none does
    (the year ends)."""
    s.phase[b] = PH_PLACE
    s.market[b] = -1
    s.bribe_stack[b] = -1
    seat = s.seat[b]
    for i in range(1, p + 1):
        candidate = (seat + i) % p
        for c in range(K):
            if s.hands[b, candidate, c] != 0:
                s.seat[b] = candidate
                return True
    return False


@numba.njit(**ENTRY)
def apply_actions(
    state: tuple[np.ndarray, ...],
    rules: tuple[Any, ...],
    games: np.ndarray,
    actions: np.ndarray,
    strict: bool,
    ok: np.ndarray,
    applies: np.ndarray,
    work: np.ndarray,
) -> None:
    """Apply actions[j] to game games[j] where it is legal, with the end of its year if it
    comes, and write its mask. Writes ok[j]: the action was legal or the game finished.
    `strict`: change nothing if any action is illegal. `state`: the `Arrays` as a plain
    tuple, `rules` the `Rules`; applies: bool[len(games)] and work: int64[N_SCRATCH] of
    scratch (the kernel allocates nothing but an end of year's piles)."""
    s, k = Arrays(*state), Rules(*rules)
    n = len(games)
    all_ok = True
    for j in range(n):
        b, a = games[j], actions[j]
        applies[j] = 0 <= a < NUM_ACTIONS and s.legal[b, a]
        ok[j] = applies[j] or s.phase[b] == PH_GAME_OVER
        all_ok = all_ok and ok[j]
    if strict and not all_ok:
        return
    for j in range(n):
        if applies[j]:
            apply_one(s, k, games[j], actions[j], work)


@numba.njit(**INLINED)
def apply_one(s: Arrays, k: Rules, b: int, a: int, work: np.ndarray) -> None:
    """Apply legal action a to game b, with the end of its year if it comes, and write
    its mask. work: int64[N_SCRATCH] of scratch."""
    s.decisions[b] += 1
    group = ACTION_GROUP[a]
    seat = np.int64(s.seat[b])
    ended = apply(s, b, group, ACTION_FIELDS[a], k.chest_of_space, k.has_gifts)
    if CHANGES_MATERIALS[group]:  # the sizes the mover can build now (R3.5), mid-turn too
        s.build_sizes[b, seat] = build_sizes(s, b, seat, work)
    if ended and not next_seat(s, b, k.num_players):
        end_year(s, k, b)
    write_mask(s, b, k.min_money, work)
