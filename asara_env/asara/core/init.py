"""Set-up of a batch (R6.1) and of each new year (R6.3)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from asara_env.asara.config import GameConfig
from asara_env.asara.constants import (
    LIGHTED_PER_COLOUR,
    N_LIGHTED,
    N_TILE_COLOURS,
    START_MONEY_FIRST,
    gift_pile,
)
from asara_env.asara.core import chance
from asara_env.asara.core.mask import write_mask
from asara_env.asara.core.state import FIELD_SPECS, CoreState, blank
from asara_env.asara.core.tables import PHASE
from asara_env.asara.core.year import deal_and_refill
from asara_env.asara.phases import full_tile_counts
from asara_env.common.batch import MAX_BATCH
from asara_env.common.seeding import derived_seeds
from asara_env.common.validate import check_int, check_seed, check_seeds, check_type


def seeds_for(seed: int | np.integer | ArrayLike | None, batch: int) -> NDArray[np.uint64]:
    """Reference seeds of a batch: an int s (0..2**64-1) gives derived_seed(s, i) to game i;
    a sequence or array of B such ints is used as it is; None draws fresh entropy."""
    if seed is None:
        seed = int(np.random.SeedSequence().generate_state(1)[0])
    if isinstance(seed, np.ndarray) and seed.ndim == 0:
        seed = seed[()]
    if isinstance(seed, (list, tuple, range, np.ndarray)):
        return check_seeds("seeds", seed, batch)
    return derived_seeds(check_seed("seeds", seed), np.arange(batch))


def init(
    config: GameConfig, batch: int, seeds: int | np.integer | ArrayLike | None = None
) -> CoreState:
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
    for name, spec in FIELD_SPECS.items():
        if name not in _SET_BELOW:
            getattr(state, name)[rows] = spec.blank
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
    if state.config.has_gifts:
        state.gift_pile[rows] = gift_pile(state.config.pro)
    deal_and_refill(state, rows)
    write_mask(state, rows)


def autoreset(state: CoreState) -> np.ndarray:
    """Set every finished game up afresh; return bool[B], the games reset. A game seeded s
    continues as the reference game seeded derived_seed(s, 1), so each game's sequence of
    episodes does not depend on the rest of the batch."""
    done = state.phase == PHASE.GAME_OVER
    rows = done.nonzero()[0]
    if len(rows):
        reset_games(state, rows, derived_seeds(state.seed[rows], 1))
    return done
