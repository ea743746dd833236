"""The observation of each game for its viewer, written entry by entry (numba); the layout
is `asara_env.asara.core.observation.OBS_SLICES`, whose offsets are read here once."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from asara_env.asara.actions import TARGETS
from asara_env.asara.constants import (
    GIFT_SLOTS,
    MAX_LIGHTS_DRAWN,
    MAX_PLAYERS,
    MAX_TOWERS_PER_COLOUR,
    MIN_PLAYERS,
    N_AREAS,
    N_CARD_COLOURS,
    N_CHESTS,
    N_GIFT_KINDS,
    N_GOLD,
    N_LIGHTED,
    N_PARTS,
    N_TILE_COLOURS,
    N_YEARS,
)
from asara_env.asara.core.kernels.arrays import Arrays, Rules
from asara_env.asara.core.observation import OBS_INDEX, SPACE_FEATURES, TOWER_FEATURES
from asara_env.asara.core.state import N_SPACES
from asara_env.asara.phases import N_PHASES, Phase
from asara_env.common.kernel_cache import use_source_digest_cache
from asara_env.common.kernels import ENTRY, INLINED

use_source_digest_cache()  # before the first kernel: the cache follows every source it reads

P4, C, K = MAX_PLAYERS, N_TILE_COLOURS, N_CARD_COLOURS
TOWERS_PER_SEAT = C * MAX_TOWERS_PER_COLOUR * TOWER_FEATURES
TILES = N_PARTS * C * N_GOLD
N_TARGETS = len(TARGETS)
LIGHTS_KEEP, GIFT_CARD, GIFT_LIGHTS = (
    int(Phase.LIGHTS_KEEP),
    int(Phase.GIFT_CARD),
    int(Phase.GIFT_LIGHTS),
)
# the first entry of each slice
AT_PLAYERS, AT_PRO, AT_GENIE, AT_GIFTS = (
    OBS_INDEX[n].start for n in ("num_players", "pro", "genie", "gifts")
)
AT_YEAR, AT_PHASE, AT_SEAT, AT_CALIPH = (
    OBS_INDEX[n].start for n in ("year", "phase", "seat_to_move", "caliph")
)
AT_PRESENT, AT_MONEY, AT_PRESTIGE = (OBS_INDEX[n].start for n in ("present", "money", "prestige"))
AT_HAND_SIZES, AT_HAND, AT_DRAW = (
    OBS_INDEX[n].start for n in ("hand_sizes", "hand", "draw_pile_size")
)
AT_STACKS, AT_DISPLAYS, AT_SUPPLY = (OBS_INDEX[n].start for n in ("stacks", "displays", "supply"))
AT_LIT_HELD, AT_LIT_SUPPLY, AT_LIT_SIZE, AT_LIT_KNOWN = (
    OBS_INDEX[n].start
    for n in ("lighted_held", "lighted_supply", "lighted_stack_size", "lighted_stack_known")
)
AT_TOWERS, AT_AREAS, AT_SPACES = (OBS_INDEX[n].start for n in ("towers", "area_colour", "spaces"))
AT_COLOURED, AT_COLOURED_OWN, AT_MARKET, AT_BRIBE = (
    OBS_INDEX[n].start for n in ("coloured", "coloured_own", "market", "bribe_stack")
)
AT_DRAWN, AT_DRAWN_COUNT, AT_KEEP, AT_BUILD_LEFT = (
    OBS_INDEX[n].start for n in ("lights_drawn", "lights_drawn_count", "lights_keep", "build_left")
)
AT_CHEST_GIFTS, AT_GIFT_PILE, AT_GIFT_QUEUE, AT_GIFT_CHEST, AT_PENDING = (
    OBS_INDEX[n].start
    for n in ("chest_gifts", "gift_pile", "gift_queue", "gift_chest", "pending_target")
)
AT_PILE_SEEN, AT_STACK_SEEN = (OBS_INDEX[n].start for n in ("draw_pile_seen", "lighted_stack_seen"))


@numba.njit(**INLINED)
def hot(row: np.ndarray, at: int, value: int) -> None:
    """One-hot at row[at + value]; nothing for -1."""
    if value >= 0:
        row[at + value] = 1.0


@numba.njit(**INLINED)
def relative(seat: int, viewer: int, p: int) -> int:
    return (seat - viewer) % p if seat >= 0 else -1


@numba.njit(**INLINED)
def flow(row: np.ndarray, s: Arrays, k: Rules, b: int, v: int) -> None:
    """The configuration, year, phase, seats and the players' money and prestige."""
    p = k.num_players
    row[AT_PLAYERS + p - MIN_PLAYERS] = 1.0
    row[AT_PRO], row[AT_GENIE], row[AT_GIFTS] = k.pro, k.genie, k.gifts
    hot(row, AT_YEAR, s.year[b] - 1)
    hot(row, AT_PHASE, s.phase[b])
    hot(row, AT_SEAT, relative(s.seat[b], v, p))
    hot(row, AT_CALIPH, relative(s.caliph[b], v, p))
    for r in range(p):
        seat = (v + r) % p
        row[AT_PRESENT + r] = 1.0
        row[AT_MONEY + r] = s.money[b, seat]
        row[AT_PRESTIGE + r] = s.prestige[b, seat]


@numba.njit(**INLINED)
def tiles(row: np.ndarray, at: int, pile: np.ndarray, b: int, seat: int) -> None:
    """row[at:at + TILES]: pile[b, seat] (a tile multiset), flat."""
    for part in range(N_PARTS):
        for c in range(C):
            for g in range(N_GOLD):
                row[at + (part * C + c) * N_GOLD + g] = pile[b, seat, part, c, g]


@numba.njit(**INLINED)
def players(row: np.ndarray, s: Arrays, b: int, v: int, p: int) -> None:
    """Hands, tiles, lighted windows and coloured-building cards of every seat."""
    for r in range(p):
        seat = (v + r) % p
        held = 0
        for k in range(K):
            held += s.hands[b, seat, k]
        row[AT_HAND_SIZES + r] = held
        tiles(row, AT_SUPPLY + r * TILES, s.supply, b, seat)
        held = 0
        for c in range(C):
            held += s.lighted_supply[b, seat, c]
        row[AT_LIT_HELD + r] = held
        held = 0
        for k in range(K):
            held += s.coloured[b, seat, k]
        row[AT_COLOURED + r] = held
    for k in range(K):
        row[AT_HAND + k] = s.hands[b, v, k]
        row[AT_COLOURED_OWN + k] = s.coloured[b, v, k]
    for c in range(C):
        row[AT_LIT_SUPPLY + c] = s.lighted_supply[b, v, c]


@numba.njit(**INLINED)
def towers(row: np.ndarray, s: Arrays, b: int, v: int, p: int) -> None:
    """Each tower's tile counts (part x gold), lit counts and whether it exists. Slots
    from n_towers on hold no tower, and so no tile: their entries stay 0."""
    for r in range(p):
        seat = (v + r) % p
        for c in range(C):
            for t in range(s.n_towers[b, seat, c]):
                slot = c * MAX_TOWERS_PER_COLOUR + t
                at = AT_TOWERS + r * TOWERS_PER_SEAT + slot * TOWER_FEATURES
                for part in range(N_PARTS):
                    for g in range(N_GOLD):
                        row[at + part * N_GOLD + g] = s.tower_parts[b, seat, c, t, part, g]
                at += N_PARTS * N_GOLD
                for g in range(N_GOLD):
                    row[at + g] = s.tower_lit[b, seat, c, t, g]
                row[at + N_GOLD] = 1.0


@numba.njit(**INLINED)
def board(row: np.ndarray, s: Arrays, b: int, v: int, p: int) -> None:
    """The areas' colours, the spaces (the viewer's own face-down cards shown to it) and
    the windows the viewer put back into the lighted stack."""
    for a in range(N_AREAS):
        hot(row, AT_AREAS + a * K, s.area_colour[b, a])
    for sp in range(N_SPACES):
        at = AT_SPACES + sp * SPACE_FEATURES
        buyer, up = s.space_seat[b, sp], s.space_face_up[b, sp]
        hot(row, at, relative(buyer, v, p))
        if up:
            hot(row, at + P4, s.space_cards[b, sp, 0])
        if buyer >= 0 and not up:
            row[at + P4 + K] = 1.0
            if buyer == v:
                for j in range(s.space_cards.shape[2]):
                    card = s.space_cards[b, sp, j]
                    if card >= 0:
                        row[at + P4 + K + 1 + card] += 1.0
    for i in range(N_LIGHTED):
        if s.lighted_owner[b, i] == v:
            hot(row, AT_LIT_KNOWN + i * C, s.lighted_stack[b, i])


@numba.njit(**INLINED)
def pending(row: np.ndarray, s: Arrays, b: int, v: int) -> None:
    """The pending decision's context, and what the seat to move alone sees (R7.2, R9.2)."""
    hot(row, AT_MARKET, s.market[b])
    hot(row, AT_BRIBE, s.bribe_stack[b])
    drawn = 0
    for j in range(MAX_LIGHTS_DRAWN):
        if s.lights_drawn[b, j] >= 0:
            drawn += 1
    row[AT_DRAWN_COUNT] = drawn
    row[AT_KEEP] = s.lights_keep[b]
    row[AT_BUILD_LEFT] = s.build_left[b]
    if s.seat[b] != v:
        return
    if s.phase[b] == LIGHTS_KEEP:
        for j in range(MAX_LIGHTS_DRAWN):
            if s.lights_drawn[b, j] >= 0:
                row[AT_DRAWN + s.lights_drawn[b, j]] += 1.0
    elif s.phase[b] == GIFT_CARD:
        for k in range(K):
            row[AT_PILE_SEEN + k] = s.draw_pile[b, k]
    elif s.phase[b] == GIFT_LIGHTS:
        for i in range(N_LIGHTED):
            if s.lighted_stack[b, i] >= 0:
                row[AT_STACK_SEEN + s.lighted_stack[b, i]] += 1.0


@numba.njit(**INLINED)
def counts(row: np.ndarray, s: Arrays, b: int) -> None:
    """The draw pile's size, the tile stacks and displays, and the gifts (R9.2)."""
    pile = 0
    for k in range(K):
        pile += s.draw_pile[b, k]
    row[AT_DRAW] = pile
    for part in range(N_PARTS):
        for c in range(C):
            for g in range(N_GOLD):
                i = (part * C + c) * N_GOLD + g
                row[AT_STACKS + i] = s.stacks[b, part, c, g]
                row[AT_DISPLAYS + i] = s.displays[b, part, c, g]
    row[AT_LIT_SIZE] = s.lighted_len[b]
    for kind in range(N_GIFT_KINDS):
        row[AT_GIFT_PILE + kind] = s.gift_pile[b, kind]
    for chest in range(N_CHESTS):
        for j in range(GIFT_SLOTS):
            at = AT_CHEST_GIFTS + (chest * GIFT_SLOTS + j) * N_GIFT_KINDS
            hot(row, at, s.gifts[b, chest, j])
    for j in range(GIFT_SLOTS):
        hot(row, AT_GIFT_QUEUE + j * N_GIFT_KINDS, s.gift_queue[b, j])
    hot(row, AT_GIFT_CHEST, s.gift_chest[b])
    hot(row, AT_PENDING, s.pending_target[b])


@numba.njit(**ENTRY)
def observe_games(
    state: tuple[np.ndarray, ...],
    rules: tuple[Any, ...],
    games: np.ndarray,
    viewers: np.ndarray,
    out: np.ndarray,
) -> None:
    """Writes out[j] = game games[j]'s observation for seat viewers[j]; `state`: the
    `Arrays` as a plain tuple, `rules` the `Rules`."""
    s, k = Arrays(*state), Rules(*rules)
    p = k.num_players
    for j in range(out.shape[0]):
        b, row, v = games[j], out[j], viewers[j]
        row[:] = 0.0
        flow(row, s, k, b, v)
        players(row, s, b, v, p)
        towers(row, s, b, v, p)
        board(row, s, b, v, p)
        pending(row, s, b, v)
        counts(row, s, b)


assert N_YEARS and N_PHASES and N_TARGETS  # the slices' sizes the one-hots index into
