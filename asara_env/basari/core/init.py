"""Set-up of a batch (B3), per-game seeds and automatic reset of finished games."""

from __future__ import annotations

from typing import cast

import numpy as np
from numpy.typing import ArrayLike

from asara_env.basari import chance
from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import GEMS_PER_COLOUR, START_GEMS
from asara_env.basari.core import rules
from asara_env.basari.core.state import FIELD_SPECS, BasariState, blank
from asara_env.basari.core.tables import tables
from asara_env.basari.phases import Phase
from asara_env.common.batch import MAX_BATCH
from asara_env.common.seeding import derived_seeds
from asara_env.common.validate import check_int

OVER = int(Phase.OVER)


def seeds_for(seed: object, batch: int) -> np.ndarray:
    """uint64[batch] game seeds: an int s gives game i the seed `derived_seed(s, i)`; an
    array of `batch` non-negative ints is used as it is; None draws fresh entropy."""
    if seed is None:
        seed = int(cast(int, np.random.SeedSequence().entropy) % 2**64)  # an int when unseeded
    if np.ndim(cast(ArrayLike, seed)) == 0:
        return derived_seeds(chance.check_seed(seed), np.arange(batch))
    seeds = np.asarray(seed)
    if seeds.shape != (batch,) or seeds.dtype.kind not in "iu":
        raise ValueError(f"seeds must be an int or {batch} ints, got {seeds.dtype} {seeds.shape}")
    if seeds.dtype.kind == "i" and (seeds < 0).any():
        raise ValueError(f"seeds must be non-negative, got {seeds[seeds < 0][0]}")
    return seeds.astype(np.uint64)


def init(config: BasariConfig, batch: int, seeds: object = None) -> BasariState:
    """B games set up; game i is the reference game `new_game(config, seeds_i)` (with an
    int seed s: `derived_seed(s, i)`). A `config` that is not a BasariConfig is a
    TypeError naming it; a `batch` that is not an int from 1 to MAX_BATCH a ValueError
    naming it and the limit."""
    config = BasariConfig.check(config)
    batch = check_int("batch", batch, 1, MAX_BATCH)
    state = blank(config, batch)
    reset_games(state, np.arange(batch), seeds_for(seeds, batch))
    return state


def reset_games(state: BasariState, rows: np.ndarray, seeds: np.ndarray) -> None:
    """Set games `rows` up afresh from their seeds (B3): 3 gems of each colour per seat,
    the rest on the carpets; start archways chosen (SETUP) or drawn (C4) and moved from."""
    for name, spec in FIELD_SPECS.items():
        getattr(state, name)[rows] = spec.blank
    p, n = state.config.num_players, state.config.n_archways
    state.seed[rows] = seeds
    state.gems[rows] = START_GEMS
    state.carpet[rows] = GEMS_PER_COLOUR - START_GEMS * p
    if state.config.start_mode == "random":
        start = chance.start_archway(seeds[:, None], np.arange(p)[None, :], n)
        state.start[rows] = state.position[rows] = start
        rules.movement(state, rows)
    else:
        state.phase[rows] = Phase.SETUP
    # a fresh game is in SETUP or SELECT, where every seat's mask is the phase's template
    state.legal[rows] = tables(state.config).templates[state.phase[rows]][:, None, :]


def autoreset(state: BasariState) -> np.ndarray:
    """Set every finished game up afresh and return bool[B], the games reset. A game seeded
    s continues as the game seeded `derived_seed(s, 1)`, so each game's sequence of episodes
    does not depend on the rest of the batch."""
    done = state.phase == OVER
    rows = np.flatnonzero(done)
    if rows.size:
        reset_games(state, rows, derived_seeds(state.seed[rows], 1))
    return done
