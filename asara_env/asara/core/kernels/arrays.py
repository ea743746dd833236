"""What ASARA's kernels take: the state's arrays (`Arrays`, the fields of
`asara_env.asara.core.state.FIELD_SPECS` in order) and a configuration's numbers and
tables (`Rules`). Both cross from Python as plain tuples (`arrays(state)`,
`rules_of(config)`) and are named again inside the entry points (`Arrays(*state)`,
`Rules(*rules)`); `asara_env.common.kernels` says why, and how each kind of kernel is
compiled."""

from __future__ import annotations

from operator import attrgetter
from typing import Any, NamedTuple

import numpy as np

from asara_env.asara.config import GameConfig
from asara_env.asara.core.state import ARRAY_FIELDS, CoreState
from asara_env.asara.core.tables import CHEST_OF_SPACE, min_money


class Arrays(NamedTuple):
    """The arrays of a `CoreState` (the same objects: kernels write them in place)."""

    year: np.ndarray  # int8[B]
    phase: np.ndarray  # int8[B]
    seat: np.ndarray  # int8[B]
    caliph: np.ndarray  # int8[B]
    decisions: np.ndarray  # int32[B]
    money: np.ndarray  # int32[B, P]
    prestige: np.ndarray  # int32[B, P]
    hands: np.ndarray  # int8[B, P, 5]
    draw_pile: np.ndarray  # int8[B, 5]
    supply: np.ndarray  # int8[B, P, 4, 5, 2]
    lighted_supply: np.ndarray  # int8[B, P, 5]
    tower_parts: np.ndarray  # int8[B, P, 5, 4, 4, 2]
    tower_lit: np.ndarray  # int8[B, P, 5, 4, 2]
    n_towers: np.ndarray  # int8[B, P, 5]
    build_sizes: np.ndarray  # uint8[B, P]
    stacks: np.ndarray  # int8[B, 4, 5, 2]
    displays: np.ndarray  # int8[B, 4, 5, 2]
    lighted_stack: np.ndarray  # int8[B, 15]
    lighted_owner: np.ndarray  # int8[B, 15]
    lighted_len: np.ndarray  # int8[B]
    area_colour: np.ndarray  # int8[B, 11]
    space_seat: np.ndarray  # int8[B, 38]
    space_cards: np.ndarray  # int8[B, 38, 2]
    space_face_up: np.ndarray  # bool[B, 38]
    coloured: np.ndarray  # int8[B, P, 5]
    market: np.ndarray  # int8[B]
    bribe_stack: np.ndarray  # int8[B]
    lights_drawn: np.ndarray  # int8[B, 5]
    lights_keep: np.ndarray  # int8[B]
    build_left: np.ndarray  # int8[B]
    gift_pile: np.ndarray  # int8[B, 11]
    gifts: np.ndarray  # int8[B, 6, 4]
    gift_queue: np.ndarray  # int8[B, 4]
    gift_chest: np.ndarray  # int8[B]
    pending_target: np.ndarray  # int8[B]
    pending_space: np.ndarray  # int8[B]
    legal: np.ndarray  # bool[B, 803]
    final: np.ndarray  # int32[B, P, 8]
    seed: np.ndarray  # uint64[B]
    tape: np.ndarray  # float64[B, 680]
    tape_pos: np.ndarray  # int32[B]


assert Arrays._fields == tuple(ARRAY_FIELDS), "Arrays must list FIELD_SPECS in order"

_GET_ARRAYS = attrgetter(*ARRAY_FIELDS)


def arrays(state: CoreState) -> tuple[np.ndarray, ...]:
    """The state's arrays in `Arrays` order (the same objects: kernels write them in
    place)."""
    got: tuple[np.ndarray, ...] = _GET_ARRAYS(state)
    return got


class Rules(NamedTuple):
    """One configuration's numbers and tables for the kernels."""

    num_players: int
    has_gifts: bool
    chest_of_space: np.ndarray  # int64[space] the chest on each space in play, -1 none
    min_money: np.ndarray  # int64[target] the money a placement there needs (R3.5)
    pro: float  # 1.0 in the pro variant, else 0.0 (as the observation writes it)
    genie: float  # 1.0 with the Genie, else 0.0
    gifts: float  # 1.0 with the gifts, else 0.0


_RULES: dict[GameConfig, tuple[Any, ...]] = {}


def rules_of(config: GameConfig) -> tuple[Any, ...]:
    """The kernels' view of `config`, a `Rules` as a plain tuple (cached per configuration)."""
    hit = _RULES.get(config)
    if hit is None:
        hit = _RULES[config] = tuple(
            Rules(
                config.num_players,
                config.has_gifts,
                CHEST_OF_SPACE[config.pro],
                min_money(config.pro, config.has_genie),
                float(config.pro),
                float(config.has_genie),
                float(config.has_gifts),
            )
        )
    return hit
