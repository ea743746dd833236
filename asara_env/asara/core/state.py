"""The vectorised core's state: B games of one configuration as numpy arrays, batch first.

P = number of players of the configuration; seats 0..P-1 clockwise. Counts are int16
unless noted; -1 is the "none" sentinel of index fields. Space indices run over all
spaces of all areas in `SPACES` order (38 spaces: 4 areas x 4 markets, plots 1-7, bank,
spies, Caliph, tent, lighted windows, genie).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

import numpy as np
from numpy.typing import NDArray

from asara_env.asara.actions import NUM_ACTIONS
from asara_env.asara.config import GameConfig
from asara_env.asara.constants import (
    GIFT_SLOTS,
    N_AREAS,
    N_CHESTS,
    N_GIFT_KINDS,
    SPACE_VALUES,
    Area,
)

# (area, index within the area) of every space, and the area / value of each
SPACES: tuple[tuple[int, int], ...] = tuple(
    (int(a), i) for a in Area for i in range(len(SPACE_VALUES[a]))
)
N_SPACES = len(SPACES)
SPACE_AREA = np.array([a for a, _ in SPACES], np.int64)  # int[space]
SPACE_VALUE = np.array([SPACE_VALUES[Area(a)][i] for a, i in SPACES], np.int64)  # int[space]
# doubles of chance per game: at most 15 (lighted stack) + 4 x 45 (deals) + 85 + 3 x 56
# (display refills shuffle the stacks) + 4 x 27 (recruited cards) = 556; with the gifts
# (R9.2) 24 + 18 + 12 + 6 (the pile shuffled each year) + 4 x 14 (the lighted-window
# stack shuffled after each lighted-window gift) = 672
TAPE_LENGTH = 680


@dataclass
class CoreState:
    """B games of one configuration. Every field but `config` is an array whose first axis
    is the game."""

    config: GameConfig
    # game flow
    year: NDArray[np.int8]  # int8[B] 1..4
    phase: NDArray[np.int8]  # int8[B] reference.state.Phase value of the pending decision
    seat: NDArray[np.int8]  # int8[B] seat to decide
    caliph: NDArray[np.int8]  # int8[B] seat holding the Caliph tile
    decisions: NDArray[np.int32]  # int32[B] decisions taken
    # players
    money: NDArray[np.int32]  # int32[B, P] Asari
    prestige: NDArray[np.int32]  # int32[B, P] prestige track (final scoring added at the end)
    hands: NDArray[np.int8]  # int8[B, P, card colour] cards in hand
    draw_pile: NDArray[np.int8]  # int8[B, card colour]
    supply: NDArray[np.int8]  # int8[B, P, part, colour, gold] unbuilt tiles
    lighted_supply: NDArray[np.int8]  # int8[B, P, colour] unbuilt lighted windows
    # towers: slot k of colour c is the k-th tower of that colour the player started
    tower_parts: NDArray[np.int8]  # int8[B, P, colour, slot 4, part, gold] tiles; all 0 = no tower
    tower_lit: NDArray[np.int8]  # int8[B, P, colour, slot 4, gold] lighted windows over plain/gold
    n_towers: NDArray[np.int8]  # int8[B, P, colour] towers started
    # uint8[B, P] bit n set: the player can build exactly n tiles now
    build_sizes: NDArray[np.uint8]
    # tiles and cards outside the players
    stacks: NDArray[np.int8]  # int8[B, part, colour, gold] face-down stacks (multisets)
    displays: NDArray[np.int8]  # int8[B, part, colour, gold] face-up market tiles
    lighted_stack: NDArray[np.int8]  # int8[B, 15] colours, top first; -1 past the end
    lighted_owner: NDArray[np.int8]  # int8[B, 15] seat that put the window back, -1 nobody
    lighted_len: NDArray[np.int8]  # int8[B] windows in the stack
    # the board
    area_colour: NDArray[np.int8]  # int8[B, area] required card colour, -1 none (R3.2)
    space_seat: NDArray[np.int8]  # int8[B, space] seat of the buyer there, -1 vacant
    space_cards: NDArray[np.int8]  # int8[B, space, 2] card colours (sorted), -1 none
    space_face_up: NDArray[np.bool_]  # bool[B, space]
    # int8[B, P, card colour] cards each seat laid on the coloured building
    coloured: NDArray[np.int8]
    # pending decision
    market: NDArray[np.int8]  # int8[B] BUY: part of the market, else -1
    bribe_stack: NDArray[np.int8]  # int8[B] BRIBE_TAKE: part of the searched stack, else -1
    lights_drawn: NDArray[np.int8]  # int8[B, 5] LIGHTS_KEEP: drawn colours in order, -1 = none/kept
    lights_keep: NDArray[np.int8]  # int8[B] LIGHTS_KEEP: windows still to keep
    build_left: NDArray[np.int8]  # int8[B] BUILD: tiles still to place
    # R9.2 gifts (blank without the expansion)
    gift_pile: NDArray[np.int8]  # int8[B, gift kind] gift cards left in the pile
    gifts: NDArray[np.int8]  # int8[B, chest, 4] gift kinds on each chest in the order laid, -1 none
    gift_queue: NDArray[np.int8]  # int8[B, 4] gifts still to carry out, in order, -1 none
    gift_chest: NDArray[np.int8]  # int8[B] the chest being emptied, -1 none
    pending_target: NDArray[np.int8]  # int8[B] the placement target whose move follows, -1 none
    pending_space: NDArray[np.int8]  # int8[B] the space (SPACES index) it took, -1 none
    # the legal actions of the player to move, kept up to date by init and step
    legal: NDArray[np.bool_]  # bool[B, NUM_ACTIONS]; all False in a finished game
    # outcome
    # int32[B, P, 8] final-scoring points: 5 colours, tallest, most towers, Asari
    final: NDArray[np.int32]
    # chance: each game's reference seed and doubles, consumed in order
    seed: NDArray[np.uint64]  # uint64[B] reference seed of the game being played
    tape: NDArray[np.float64]  # float64[B, TAPE_LENGTH]
    tape_pos: NDArray[np.int32]  # int32[B] next unused double


def batch_size(state: CoreState) -> int:
    return int(state.year.shape[0])


ARRAY_FIELDS = tuple(f.name for f in fields(CoreState) if f.name != "config")
COUNT = np.int8  # small counts and indices; every one stays within -1..45

# name -> (dtype, shape after the batch axis with "P" = players, value of a blank game)
FIELD_SPECS: dict[str, tuple[type, tuple[int | str, ...], object]] = {
    "year": (COUNT, (), 1),
    "phase": (COUNT, (), 0),
    "seat": (COUNT, (), 0),
    "caliph": (COUNT, (), 0),
    "decisions": (np.int32, (), 0),
    "money": (np.int32, ("P",), 0),
    "prestige": (np.int32, ("P",), 0),
    "hands": (COUNT, ("P", 5), 0),
    "draw_pile": (COUNT, (5,), 0),
    "supply": (COUNT, ("P", 4, 5, 2), 0),
    "lighted_supply": (COUNT, ("P", 5), 0),
    "tower_parts": (COUNT, ("P", 5, 4, 4, 2), 0),
    "tower_lit": (COUNT, ("P", 5, 4, 2), 0),
    "n_towers": (COUNT, ("P", 5), 0),
    "build_sizes": (np.uint8, ("P",), 1),
    "stacks": (COUNT, (4, 5, 2), 0),
    "displays": (COUNT, (4, 5, 2), 0),
    "lighted_stack": (COUNT, (15,), -1),
    "lighted_owner": (COUNT, (15,), -1),
    "lighted_len": (COUNT, (), 0),
    "area_colour": (COUNT, (N_AREAS,), -1),
    "space_seat": (COUNT, (N_SPACES,), -1),
    "space_cards": (COUNT, (N_SPACES, 2), -1),
    "space_face_up": (bool, (N_SPACES,), False),
    "coloured": (COUNT, ("P", 5), 0),
    "market": (COUNT, (), -1),
    "bribe_stack": (COUNT, (), -1),
    "lights_drawn": (COUNT, (5,), -1),
    "lights_keep": (COUNT, (), 0),
    "build_left": (COUNT, (), 0),
    "gift_pile": (COUNT, (N_GIFT_KINDS,), 0),
    "gifts": (COUNT, (N_CHESTS, GIFT_SLOTS), -1),
    "gift_queue": (COUNT, (GIFT_SLOTS,), -1),
    "gift_chest": (COUNT, (), -1),
    "pending_target": (COUNT, (), -1),
    "pending_space": (COUNT, (), -1),
    "legal": (bool, (NUM_ACTIONS,), False),
    "final": (np.int32, ("P", 8), 0),
    "seed": (np.uint64, (), 0),
    "tape": (np.float64, (TAPE_LENGTH,), 0.0),
    "tape_pos": (np.int32, (), 0),
}
assert tuple(FIELD_SPECS) == ARRAY_FIELDS


def blank(config: GameConfig, batch: int) -> CoreState:
    """B games with every field at its blank value (see FIELD_SPECS)."""
    p = config.num_players
    arrays: dict[str, NDArray[Any]] = {}
    for name, (dtype, shape, value) in FIELD_SPECS.items():
        dims = tuple(p if isinstance(d, str) else d for d in shape)  # "P": the players
        arrays[name] = np.full((batch, *dims), value, dtype)
    return CoreState(config=config, **arrays)


def take(state: CoreState, index: int | slice | NDArray[np.intp] | NDArray[np.bool_]) -> CoreState:
    """The games `index` of a batch, copied."""
    arrays = {name: getattr(state, name)[index].copy() for name in ARRAY_FIELDS}
    return CoreState(config=state.config, **arrays)


def copy_state(state: CoreState) -> CoreState:
    return take(state, slice(None))
