"""The observation of each game for its viewer, written entry by entry (numba); the layout
is `asara_env.asara.core.observation.OBS_SLICES`, whose offsets are read here once."""

from __future__ import annotations

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
from asara_env.asara.core.kernels.arrays import Arrays
from asara_env.asara.core.observation import OBS_INDEX, SPACE_FEATURES, TOWER_FEATURES
from asara_env.asara.core.state import N_SPACES
from asara_env.asara.phases import N_PHASES, Phase

P4, C, K = MAX_PLAYERS, N_TILE_COLOURS, N_CARD_COLOURS
TOWERS_PER_SEAT = C * MAX_TOWERS_PER_COLOUR * TOWER_FEATURES
TILES = N_PARTS * C * N_GOLD
N_TARGETS = len(TARGETS)
LIGHTS_KEEP, GIFT_CARD, GIFT_LIGHTS = int(Phase.LIGHTS_KEEP), int(Phase.GIFT_CARD), int(
    Phase.GIFT_LIGHTS
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
    OBS_INDEX[n].start
    for n in ("lights_drawn", "lights_drawn_count", "lights_keep", "build_left")
)
AT_CHEST_GIFTS, AT_GIFT_PILE, AT_GIFT_QUEUE, AT_GIFT_CHEST, AT_PENDING = (
    OBS_INDEX[n].start
    for n in ("chest_gifts", "gift_pile", "gift_queue", "gift_chest", "pending_target")
)
AT_PILE_SEEN, AT_STACK_SEEN = (
    OBS_INDEX[n].start for n in ("draw_pile_seen", "lighted_stack_seen")
)


@numba.njit(cache=True, inline="always")
def _hot(row: np.ndarray, at: int, value: int) -> None:
    """One-hot at row[at + value]; nothing for -1."""
    if value >= 0:
        row[at + value] = 1.0


@numba.njit(cache=True, inline="always")
def _relative(seat: int, viewer: int, p: int) -> int:
    return (seat - viewer) % p if seat >= 0 else -1


@numba.njit(cache=True)
def _flow(row, b, v, p, pro, genie, gifts, year, phase, seat, caliph, money, prestige):  # type: ignore[no-untyped-def]
    """The configuration, year, phase, seats and the players' money and prestige."""
    row[AT_PLAYERS + p - MIN_PLAYERS] = 1.0
    row[AT_PRO], row[AT_GENIE], row[AT_GIFTS] = pro, genie, gifts
    _hot(row, AT_YEAR, year[b] - 1)
    _hot(row, AT_PHASE, phase[b])
    _hot(row, AT_SEAT, _relative(seat[b], v, p))
    _hot(row, AT_CALIPH, _relative(caliph[b], v, p))
    for r in range(p):
        s = (v + r) % p
        row[AT_PRESENT + r] = 1.0
        row[AT_MONEY + r] = money[b, s]
        row[AT_PRESTIGE + r] = prestige[b, s]


@numba.njit(cache=True)
def _players(row, b, v, p, hands, supply, lighted_supply, coloured):  # type: ignore[no-untyped-def]
    """Hands, tiles, lighted windows and coloured-building cards of every seat."""
    for r in range(p):
        s = (v + r) % p
        held = 0
        for k in range(K):
            held += hands[b, s, k]
        row[AT_HAND_SIZES + r] = held
        flat = supply[b, s].ravel()
        for i in range(TILES):
            row[AT_SUPPLY + r * TILES + i] = flat[i]
        held = 0
        for c in range(C):
            held += lighted_supply[b, s, c]
        row[AT_LIT_HELD + r] = held
        held = 0
        for k in range(K):
            held += coloured[b, s, k]
        row[AT_COLOURED + r] = held
    for k in range(K):
        row[AT_HAND + k] = hands[b, v, k]
        row[AT_COLOURED_OWN + k] = coloured[b, v, k]
    for c in range(C):
        row[AT_LIT_SUPPLY + c] = lighted_supply[b, v, c]


@numba.njit(cache=True)
def _towers(row, b, v, p, tower_parts, tower_lit, n_towers):  # type: ignore[no-untyped-def]
    """Each tower's tile counts (part x gold), lit counts and whether it exists."""
    for r in range(p):
        s = (v + r) % p
        for c in range(C):
            for t in range(MAX_TOWERS_PER_COLOUR):
                at = AT_TOWERS + r * TOWERS_PER_SEAT + (c * MAX_TOWERS_PER_COLOUR + t) * TOWER_FEATURES
                for part in range(N_PARTS):
                    for g in range(N_GOLD):
                        row[at + part * N_GOLD + g] = tower_parts[b, s, c, t, part, g]
                at += N_PARTS * N_GOLD
                for g in range(N_GOLD):
                    row[at + g] = tower_lit[b, s, c, t, g]
                row[at + N_GOLD] = 1.0 if t < n_towers[b, s, c] else 0.0


@numba.njit(cache=True)
def _board(row, b, v, p, area_colour, space_seat, space_cards, space_face_up, lighted_stack, lighted_owner):  # type: ignore[no-untyped-def]
    """The areas' colours, the spaces (the viewer's own face-down cards shown to it) and
    the windows the viewer put back into the lighted stack."""
    for a in range(N_AREAS):
        _hot(row, AT_AREAS + a * K, area_colour[b, a])
    for sp in range(N_SPACES):
        at = AT_SPACES + sp * SPACE_FEATURES
        buyer, up = space_seat[b, sp], space_face_up[b, sp]
        _hot(row, at, _relative(buyer, v, p))
        if up:
            _hot(row, at + P4, space_cards[b, sp, 0])
        if buyer >= 0 and not up:
            row[at + P4 + K] = 1.0
            if buyer == v:
                for j in range(space_cards.shape[2]):
                    card = space_cards[b, sp, j]
                    if card >= 0:
                        row[at + P4 + K + 1 + card] += 1.0
    for i in range(N_LIGHTED):
        if lighted_owner[b, i] == v:
            _hot(row, AT_LIT_KNOWN + i * C, lighted_stack[b, i])


@numba.njit(cache=True)
def _pending(row, b, v, seat, phase, market, bribe_stack, lights_drawn, lights_keep, build_left, draw_pile, lighted_stack):  # type: ignore[no-untyped-def]
    """The pending decision's context, and what the seat to move alone sees (R7.2, R9.2)."""
    _hot(row, AT_MARKET, market[b])
    _hot(row, AT_BRIBE, bribe_stack[b])
    drawn = 0
    for j in range(MAX_LIGHTS_DRAWN):
        if lights_drawn[b, j] >= 0:
            drawn += 1
    row[AT_DRAWN_COUNT] = drawn
    row[AT_KEEP] = lights_keep[b]
    row[AT_BUILD_LEFT] = build_left[b]
    if seat[b] != v:
        return
    if phase[b] == LIGHTS_KEEP:
        for j in range(MAX_LIGHTS_DRAWN):
            if lights_drawn[b, j] >= 0:
                row[AT_DRAWN + lights_drawn[b, j]] += 1.0
    elif phase[b] == GIFT_CARD:
        for k in range(K):
            row[AT_PILE_SEEN + k] = draw_pile[b, k]
    elif phase[b] == GIFT_LIGHTS:
        for i in range(N_LIGHTED):
            if lighted_stack[b, i] >= 0:
                row[AT_STACK_SEEN + lighted_stack[b, i]] += 1.0


@numba.njit(cache=True)
def _counts(row, b, draw_pile, stacks, displays, lighted_len, gift_pile, gifts, gift_queue, gift_chest, pending_target):  # type: ignore[no-untyped-def]
    """The draw pile's size, the tile stacks and displays, and the gifts (R9.2)."""
    pile = 0
    for k in range(K):
        pile += draw_pile[b, k]
    row[AT_DRAW] = pile
    flat_stacks, flat_displays = stacks[b].ravel(), displays[b].ravel()
    for i in range(TILES):
        row[AT_STACKS + i] = flat_stacks[i]
        row[AT_DISPLAYS + i] = flat_displays[i]
    row[AT_LIT_SIZE] = lighted_len[b]
    for kind in range(N_GIFT_KINDS):
        row[AT_GIFT_PILE + kind] = gift_pile[b, kind]
    for chest in range(N_CHESTS):
        for j in range(GIFT_SLOTS):
            _hot(row, AT_CHEST_GIFTS + (chest * GIFT_SLOTS + j) * N_GIFT_KINDS, gifts[b, chest, j])
    for j in range(GIFT_SLOTS):
        _hot(row, AT_GIFT_QUEUE + j * N_GIFT_KINDS, gift_queue[b, j])
    _hot(row, AT_GIFT_CHEST, gift_chest[b])
    _hot(row, AT_PENDING, pending_target[b])


@numba.njit(cache=True)
def observe_games(out, games, viewers, p, pro, genie, gifts, *fields):  # type: ignore[no-untyped-def]
    """Writes out[j] = game games[j]'s observation for seat viewers[j]; `fields`: the
    state's arrays in ARRAY_FIELDS order."""
    s = Arrays(*fields)
    for j in range(out.shape[0]):
        b, row, v = games[j], out[j], viewers[j]
        row[:] = 0.0
        _flow(row, b, v, p, pro, genie, gifts, s.year, s.phase, s.seat, s.caliph, s.money, s.prestige)  # fmt: skip
        _players(row, b, v, p, s.hands, s.supply, s.lighted_supply, s.coloured)
        _towers(row, b, v, p, s.tower_parts, s.tower_lit, s.n_towers)
        _board(row, b, v, p, s.area_colour, s.space_seat, s.space_cards, s.space_face_up, s.lighted_stack, s.lighted_owner)  # fmt: skip
        _pending(row, b, v, s.seat, s.phase, s.market, s.bribe_stack, s.lights_drawn, s.lights_keep, s.build_left, s.draw_pile, s.lighted_stack)  # fmt: skip
        _counts(row, b, s.draw_pile, s.stacks, s.displays, s.lighted_len, s.gift_pile, s.gifts, s.gift_queue, s.gift_chest, s.pending_target)  # fmt: skip


assert N_YEARS and N_PHASES and N_TARGETS  # the slices' sizes the one-hots index into
