"""Set-up of a batch (R6.1) and of each new year (R6.3)."""

from __future__ import annotations

import numpy as np

from ..actions import NUM_ACTIONS
from ..config import GameConfig
from ..constants import (
    CARDS_PER_COLOUR,
    DISPLAY_SIZE,
    HAND_SIZE,
    LIGHTED_PER_COLOUR,
    N_AREAS,
    N_CARD_COLOURS,
    N_GOLD,
    N_LIGHTED,
    N_PARTS,
    N_TILE_COLOURS,
    START_MONEY_FIRST,
)
from ..reference.state import Phase, full_tile_counts
from . import chance
from .mask import write_mask
from .state import N_SPACES, TAPE_LENGTH, CoreState, derived_seed
from .tables import MAX_TOWERS_PER_COLOUR


def seeds_for(seed, batch: int) -> np.ndarray:
    """Reference seeds of a batch: an int s gives derived_seed(s, i) to game i; an array of
    B ints is used as it is; None draws fresh entropy."""
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    if np.ndim(seed) == 0:
        return np.array([derived_seed(int(seed), i) for i in range(batch)], np.uint64)
    seeds = np.asarray(seed)
    if seeds.shape != (batch,):
        raise ValueError(f"seeds must be an int or {batch} ints, got shape {seeds.shape}")
    return seeds.astype(np.uint64)


def _blank(config: GameConfig, batch: int) -> CoreState:
    p, b = config.num_players, batch
    z16 = lambda *shape: np.zeros((b, *shape), np.int16)  # noqa: E731
    return CoreState(
        config=config,
        year=np.ones(b, np.int16),
        phase=np.full(b, Phase.PLACE, np.int16),
        seat=np.full(b, config.start_seat, np.int16),
        caliph=np.full(b, config.start_seat, np.int16),
        decisions=np.zeros(b, np.int32),
        money=np.zeros((b, p), np.int32),
        prestige=np.zeros((b, p), np.int32),
        hands=z16(p, N_CARD_COLOURS),
        draw_pile=z16(N_CARD_COLOURS),
        supply=z16(p, N_PARTS, N_TILE_COLOURS, N_GOLD),
        lighted_supply=z16(p, N_TILE_COLOURS),
        tower_parts=z16(p, N_TILE_COLOURS, MAX_TOWERS_PER_COLOUR, N_PARTS, N_GOLD),
        tower_lit=z16(p, N_TILE_COLOURS, MAX_TOWERS_PER_COLOUR, N_GOLD),
        n_towers=z16(p, N_TILE_COLOURS),
        build_sizes=np.ones((b, p), np.uint8),
        stacks=np.broadcast_to(full_tile_counts(), (b, N_PARTS, N_TILE_COLOURS, N_GOLD)).astype(
            np.int16
        ),
        displays=z16(N_PARTS, N_TILE_COLOURS, N_GOLD),
        lighted_stack=np.full((b, N_LIGHTED), -1, np.int16),
        lighted_owner=np.full((b, N_LIGHTED), -1, np.int16),
        lighted_len=z16(),
        area_colour=np.full((b, N_AREAS), -1, np.int16),
        space_seat=np.full((b, N_SPACES), -1, np.int16),
        space_cards=np.full((b, N_SPACES, 2), -1, np.int16),
        space_face_up=np.zeros((b, N_SPACES), bool),
        coloured=z16(p, N_CARD_COLOURS),
        market=np.full(b, -1, np.int16),
        bribe_stack=np.full(b, -1, np.int16),
        lights_drawn=np.full((b, 5), -1, np.int16),
        lights_keep=z16(),
        build_left=z16(),
        legal=np.zeros((b, NUM_ACTIONS), bool),
        final=np.zeros((b, p, 8), np.int32),
        seed=np.zeros(b, np.uint64),
        tape=np.zeros((b, TAPE_LENGTH)),
        tape_pos=np.zeros(b, np.int32),
    )


def init(config: GameConfig, batch: int, seeds=None) -> CoreState:
    """B games set up for year 1, game i identical to reference new_game(config, seed_i)."""
    if batch < 1:
        raise ValueError(f"batch must be at least 1, got {batch}")
    state = _blank(config, batch)
    reset_games(state, np.arange(batch), seeds_for(seeds, batch))
    return state


def reset_games(state: CoreState, rows: np.ndarray, seeds: np.ndarray) -> None:
    """Set games `rows` up afresh from their reference seeds (used by init and auto-reset)."""
    fresh = _blank(state.config, len(rows))
    for name in vars(fresh):
        if name != "config":
            getattr(state, name)[rows] = getattr(fresh, name)
    state.seed[rows] = seeds
    state.tape[rows] = chance.make_tapes(seeds)
    p, start = state.config.num_players, state.config.start_seat
    state.money[rows] = START_MONEY_FIRST + (np.arange(p) - start) % p
    if state.config.pro:
        pool = np.full((len(rows), N_TILE_COLOURS), LIGHTED_PER_COLOUR)
        state.lighted_stack[rows] = chance.shuffled(state, rows, pool)
        state.lighted_len[rows] = N_LIGHTED
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
    state.displays[rows] += taken.reshape(n, N_PARTS, N_TILE_COLOURS, N_GOLD).astype(np.int16)


def autoreset(state: CoreState) -> np.ndarray:
    """Set every finished game up afresh; return bool[B], the games reset. A game seeded s
    continues as the reference game seeded derived_seed(s, 1), so each game's sequence of
    episodes does not depend on the rest of the batch."""
    done = state.phase == Phase.GAME_OVER
    rows = np.flatnonzero(done)
    if len(rows):
        reset_games(state, rows, np.array([derived_seed(int(s), 1) for s in state.seed[rows]]))
    return done
