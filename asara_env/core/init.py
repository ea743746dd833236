"""Set-up of a batch (R6.1) and of each new year (R6.3)."""

from __future__ import annotations

import numpy as np

from ..common.validate import check_int, check_seed, check_seeds, check_type
from ..config import GameConfig
from ..constants import (
    CARDS_PER_COLOUR,
    DISPLAY_SIZE,
    HAND_SIZE,
    LIGHTED_PER_COLOUR,
    N_CARD_COLOURS,
    N_GIFT_KINDS,
    N_GOLD,
    N_LIGHTED,
    N_PARTS,
    N_TILE_COLOURS,
    N_YEARS,
    START_MONEY_FIRST,
    chests_in_play,
    gift_pile,
)
from ..reference.state import full_tile_counts
from . import chance
from .chance import count_items
from .mask import write_mask
from .state import COUNT, FIELD_SPECS, CoreState, blank, derived_seeds
from .tables import PHASE

MAX_BATCH = 2**31 - 1


def seeds_for(seed, batch: int) -> np.ndarray:
    """Reference seeds of a batch: an int s (0..2**64-1) gives derived_seed(s, i) to game i;
    a sequence or array of B such ints is used as it is; None draws fresh entropy."""
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    if isinstance(seed, np.ndarray) and seed.ndim == 0:
        seed = seed[()]
    if isinstance(seed, (list, tuple, range, np.ndarray)):
        return check_seeds("seeds", seed, batch)
    return derived_seeds(check_seed("seeds", seed), np.arange(batch))


def init(config: GameConfig, batch: int, seeds=None) -> CoreState:
    """B games set up for year 1, game i identical to reference new_game(config, seed_i)."""
    check_type("config", config, GameConfig)
    batch = check_int("batch", batch, 1, MAX_BATCH)
    state = blank(config, batch)
    reset_games(state, np.arange(batch), seeds_for(seeds, batch))
    return state


# fields reset_games sets itself (write_mask clears `legal`)
_SET_BELOW = {"seat", "caliph", "stacks", "seed", "tape", "money", "hands", "draw_pile", "legal"}


def reset_games(state: CoreState, rows: np.ndarray, seeds: np.ndarray) -> None:
    """Set games `rows` up afresh from their reference seeds (used by init and auto-reset)."""
    for name, (_, _, value) in FIELD_SPECS.items():
        if name not in _SET_BELOW:
            getattr(state, name)[rows] = value
    state.seat[rows] = state.caliph[rows] = state.config.start_seat
    state.stacks[rows] = full_tile_counts()
    state.seed[rows] = seeds
    state.tape[rows] = chance.make_tapes(seeds)
    p, start = state.config.num_players, state.config.start_seat
    state.money[rows] = START_MONEY_FIRST + (np.arange(p) - start) % p
    if state.config.pro:
        pool = np.full((len(rows), N_TILE_COLOURS), LIGHTED_PER_COLOUR)
        state.lighted_stack[rows] = chance.shuffled(state, rows, pool)
        state.lighted_len[rows] = N_LIGHTED
    if "gifts" in state.config.expansions:
        state.gift_pile[rows] = gift_pile(state.config.pro)
    deal_and_refill(state, rows)
    write_mask(state, rows)


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
    if "gifts" in state.config.expansions:
        lay_gifts(state, rows)


# the pile lasts the game: one gift per chest in play each year
assert all(sum(gift_pile(pro)) >= len(chests_in_play(pro)) * N_YEARS for pro in (False, True))


def lay_gifts(state: CoreState, rows: np.ndarray) -> None:
    """R9.2: one gift from the shuffled pile on top of every chest in play, in chest order."""
    chests = list(chests_in_play(state.config.pro))
    pile = state.gift_pile[rows].astype(np.int64)
    top = chance.shuffled(state, rows, pile)[:, : len(chests)]
    state.gift_pile[rows] -= count_items(top, N_GIFT_KINDS).astype(COUNT)
    laid = state.gifts[rows][:, chests]  # [n, chest, slot]
    slot = (laid >= 0).sum(axis=2)  # the first free slot of each chest
    laid[np.arange(len(rows))[:, None], np.arange(len(chests)), slot] = top
    state.gifts[np.ix_(rows, chests)] = laid


def autoreset(state: CoreState) -> np.ndarray:
    """Set every finished game up afresh; return bool[B], the games reset. A game seeded s
    continues as the reference game seeded derived_seed(s, 1), so each game's sequence of
    episodes does not depend on the rest of the batch."""
    done = state.phase == PHASE.GAME_OVER
    rows = done.nonzero()[0]
    if len(rows):
        reset_games(state, rows, derived_seeds(state.seed[rows], 1))
    return done
