"""Turns and years: who moves next (R5), the end of a year with its scoring (R6.2, R6.4)
and the next year's set-up (R6.3), shared by the set-up of a batch and the step."""

from __future__ import annotations

import numpy as np

from asara_env.asara.constants import (
    CARDS_PER_COLOUR,
    DISPLAY_SIZE,
    HAND_SIZE,
    N_CARD_COLOURS,
    N_GIFT_KINDS,
    N_GOLD,
    N_PARTS,
    N_TILE_COLOURS,
    N_YEARS,
    YEARLY_MONEY,
    chests_in_play,
    gift_pile,
)
from asara_env.asara.core import chance, scoring
from asara_env.asara.core.chance import count_items
from asara_env.asara.core.state import COUNT, CoreState
from asara_env.asara.core.tables import PHASE, any_count


def end_turn(state: CoreState, rows: np.ndarray) -> None:
    state.phase[rows] = PHASE.PLACE
    state.market[rows] = -1
    state.bribe_stack[rows] = -1
    p = state.config.num_players
    seat = state.seat[rows].astype(np.int64)
    candidates = (seat[:, None] + np.arange(1, p + 1)) % p  # [n, k] the next seats in turn
    offset = np.arange(0, len(rows) * p, p)  # of each row in a flat [n, p] array
    has_cards = np.take(any_count(state.hands[rows]), candidates + offset[:, None])
    found = has_cards.any(axis=1)
    state.seat[rows] = np.where(found, np.take(candidates, has_cards.argmax(1) + offset), seat)
    if not found.all():
        end_year(state, rows[~found])


def end_year(state: CoreState, rows: np.ndarray) -> None:
    state.prestige[rows] += scoring.year_end_points(state, rows).astype(np.int32)
    last = state.year[rows] == N_YEARS
    over = rows[last]
    if len(over):
        points = scoring.final_points(state, over)
        state.final[over] = points
        state.prestige[over] += points.sum(axis=2).astype(np.int32)
        state.phase[over] = PHASE.GAME_OVER
    nxt = rows[~last]
    if len(nxt):
        state.year[nxt] += 1
        state.area_colour[nxt] = -1
        state.space_seat[nxt] = -1
        state.space_cards[nxt] = -1
        state.space_face_up[nxt] = False
        state.coloured[nxt] = 0
        state.money[nxt] += YEARLY_MONEY
        deal_and_refill(state, nxt)
        state.seat[nxt] = state.caliph[nxt]


def deal_and_refill(state: CoreState, rows: np.ndarray) -> None:
    """Deal all 45 cards afresh, seat 0 first, then refill the displays (R6.1, R6.3)."""
    p, n = state.config.num_players, len(rows)
    deck = np.full((n, N_CARD_COLOURS), CARDS_PER_COLOUR)
    state.hands[rows] = chance.deal(state, rows, deck, p, HAND_SIZE[p])
    state.draw_pile[rows] = deck
    shown = state.displays[rows].reshape(n, N_PARTS, -1)
    stacks = state.stacks[rows].reshape(n, N_PARTS, -1).astype(np.int64)
    taken = chance.take_top(state, rows, stacks, np.array(DISPLAY_SIZE) - shown.sum(axis=2))
    state.stacks[rows] = stacks.reshape(n, N_PARTS, N_TILE_COLOURS, N_GOLD)
    state.displays[rows] += taken.reshape(n, N_PARTS, N_TILE_COLOURS, N_GOLD).astype(COUNT)
    if state.config.has_gifts:
        lay_gifts(state, rows)


# the pile lasts the game: one gift per chest in play each year
assert all(sum(gift_pile(pro)) >= len(chests_in_play(pro)) * N_YEARS for pro in (False, True))


def lay_gifts(state: CoreState, rows: np.ndarray) -> None:
    """R9.2: one gift from the shuffled pile on top of every chest in play, in chest order."""
    chests = np.array(chests_in_play(state.config.pro), np.int64)
    pile = state.gift_pile[rows].astype(np.int64)
    top = chance.shuffled(state, rows, pile)[:, : len(chests)]
    state.gift_pile[rows] -= count_items(top, N_GIFT_KINDS).astype(COUNT)
    laid = state.gifts[rows][:, chests]  # [n, chest, slot]
    slot = (laid >= 0).sum(axis=2)  # the first free slot of each chest
    laid[np.arange(len(rows))[:, None], np.arange(len(chests)), slot] = top
    state.gifts[np.ix_(rows, chests)] = laid
