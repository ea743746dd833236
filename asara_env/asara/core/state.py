"""The vectorised core's state: B games of one configuration as numpy arrays, batch first.

P = number of players of the configuration; seats 0..P-1 clockwise. Counts are int16
unless noted; -1 is the "none" sentinel of index fields. Space indices run over all
spaces of all areas in `SPACES` order (38 spaces: 4 areas x 4 markets, plots 1-7, bank,
spies, Caliph, tent, lighted windows, genie).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from asara_env.asara.actions import MAX_PLACEMENT_CARDS, NUM_ACTIONS
from asara_env.asara.config import GameConfig
from asara_env.asara.constants import (
    FINAL_CATEGORIES,
    GIFT_SLOTS,
    MAX_LIGHTS_DRAWN,
    MAX_TOWERS_PER_COLOUR,
    N_AREAS,
    N_CARD_COLOURS,
    N_CHESTS,
    N_GIFT_KINDS,
    N_GOLD,
    N_LIGHTED,
    N_PARTS,
    N_TILE_COLOURS,
    SPACE_VALUES,
    Area,
)
from asara_env.common import batch
from asara_env.common.batch import FieldSpec, copy_state, states_equal, take

__all__ = [
    "ARRAY_FIELDS",
    "COUNT",
    "FIELD_SPECS",
    "N_FINAL",
    "N_SPACES",
    "SPACE_AREA",
    "SPACE_VALUE",
    "SPACES",
    "TAPE_LENGTH",
    "CoreState",
    "FieldSpec",
    "batch_size",
    "blank",
    "copy_state",
    "dims",
    "field_shape",
    "states_equal",
    "take",
]

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
N_FINAL = len(FINAL_CATEGORIES)  # 5 colours, tallest, most towers, Asari


COUNT = np.int8  # small counts and indices; every one stays within -1..45
C, K, PARTS, G = N_TILE_COLOURS, N_CARD_COLOURS, N_PARTS, N_GOLD  # tile colours, card colours
TOWER = (C, MAX_TOWERS_PER_COLOUR)  # a player's towers: slot k of colour c is the k-th started
TILES = (PARTS, C, G)  # a multiset of tiles: [part, colour, gold]

_F = FieldSpec
# name -> dtype, shape after the batch axis ("P" = players), blank value, meaning
FIELD_SPECS: dict[str, FieldSpec] = {
    # game flow
    "year": _F(COUNT, (), 1, "1..N_YEARS"),
    "phase": _F(COUNT, (), 0, "Phase value of the pending decision"),
    "seat": _F(COUNT, (), 0, "seat to decide"),
    "caliph": _F(COUNT, (), 0, "seat holding the Caliph tile"),
    "decisions": _F(np.int32, (), 0, "decisions taken"),
    # players
    "money": _F(np.int32, ("P",), 0, "Asari"),
    "prestige": _F(np.int32, ("P",), 0, "prestige track (final scoring added at the end)"),
    "hands": _F(COUNT, ("P", K), 0, "cards in hand per card colour"),
    "draw_pile": _F(COUNT, (K,), 0, "cards in the draw pile per card colour"),
    "supply": _F(COUNT, ("P", *TILES), 0, "each player's unbuilt tiles"),
    "lighted_supply": _F(COUNT, ("P", C), 0, "unbuilt lighted windows per colour"),
    "tower_parts": _F(COUNT, ("P", *TOWER, PARTS, G), 0, "a tower's tiles; all 0 = no tower"),
    "tower_lit": _F(COUNT, ("P", *TOWER, G), 0, "a tower's lighted windows over plain/gold"),
    "n_towers": _F(COUNT, ("P", C), 0, "towers started per colour"),
    "build_sizes": _F(np.uint8, ("P",), 1, "bit n set: the player can build exactly n tiles now"),
    # tiles and cards outside the players
    "stacks": _F(COUNT, TILES, 0, "face-down stacks (multisets)"),
    "displays": _F(COUNT, TILES, 0, "face-up market tiles"),
    "lighted_stack": _F(COUNT, (N_LIGHTED,), -1, "window colours, top first; -1 past the end"),
    "lighted_owner": _F(COUNT, (N_LIGHTED,), -1, "seat that put the window back; -1 nobody"),
    "lighted_len": _F(COUNT, (), 0, "windows in the lighted stack"),
    # the board
    "area_colour": _F(COUNT, (N_AREAS,), -1, "required card colour per area; -1 none (R3.2)"),
    "space_seat": _F(COUNT, (N_SPACES,), -1, "seat of the buyer on each space; -1 vacant"),
    "space_cards": _F(COUNT, (N_SPACES, MAX_PLACEMENT_CARDS), -1, "card colours, sorted; -1"),
    "space_face_up": _F(bool, (N_SPACES,), False, "the space's card lies face up"),
    "coloured": _F(COUNT, ("P", K), 0, "cards each seat laid on the coloured building"),
    # pending decision
    "market": _F(COUNT, (), -1, "BUY: part of the market; else -1"),
    "bribe_stack": _F(COUNT, (), -1, "BRIBE_TAKE: part of the searched stack; else -1"),
    "lights_drawn": _F(COUNT, (MAX_LIGHTS_DRAWN,), -1, "LIGHTS_KEEP: drawn colours; -1 none/kept"),
    "lights_keep": _F(COUNT, (), 0, "LIGHTS_KEEP: windows still to keep"),
    "build_left": _F(COUNT, (), 0, "BUILD: tiles still to place"),
    # R9.2 gifts (blank without the expansion)
    "gift_pile": _F(COUNT, (N_GIFT_KINDS,), 0, "gift cards left in the pile per kind"),
    "gifts": _F(COUNT, (N_CHESTS, GIFT_SLOTS), -1, "gift kinds on each chest as laid; -1 none"),
    "gift_queue": _F(COUNT, (GIFT_SLOTS,), -1, "gifts still to carry out, in order; -1 none"),
    "gift_chest": _F(COUNT, (), -1, "the chest being emptied; -1 none"),
    "pending_target": _F(COUNT, (), -1, "the placement target whose move follows; -1 none"),
    "pending_space": _F(COUNT, (), -1, "the space (SPACES index) it took; -1 none"),
    # the legal actions of the seat to move, kept up to date by init and step
    "legal": _F(bool, (NUM_ACTIONS,), False, "legal actions of the seat to move; none if over"),
    # outcome
    "final": _F(np.int32, ("P", N_FINAL), 0, "final-scoring points per FINAL_CATEGORIES"),
    # chance: each game's reference seed and doubles, consumed in order
    "seed": _F(np.uint64, (), 0, "reference seed of the game being played"),
    "tape": _F(np.float64, (TAPE_LENGTH,), 0.0, "the game's doubles of chance, in order"),
    "tape_pos": _F(np.int32, (), 0, "next unused double"),
}


@dataclass
class CoreState:
    """B games of one configuration. Every field but `config` is an array whose first axis
    is the game; FIELD_SPECS gives each one's dtype, shape, blank value and meaning."""

    config: GameConfig
    year: NDArray[np.int8]
    phase: NDArray[np.int8]
    seat: NDArray[np.int8]
    caliph: NDArray[np.int8]
    decisions: NDArray[np.int32]
    money: NDArray[np.int32]
    prestige: NDArray[np.int32]
    hands: NDArray[np.int8]
    draw_pile: NDArray[np.int8]
    supply: NDArray[np.int8]
    lighted_supply: NDArray[np.int8]
    tower_parts: NDArray[np.int8]
    tower_lit: NDArray[np.int8]
    n_towers: NDArray[np.int8]
    build_sizes: NDArray[np.uint8]
    stacks: NDArray[np.int8]
    displays: NDArray[np.int8]
    lighted_stack: NDArray[np.int8]
    lighted_owner: NDArray[np.int8]
    lighted_len: NDArray[np.int8]
    area_colour: NDArray[np.int8]
    space_seat: NDArray[np.int8]
    space_cards: NDArray[np.int8]
    space_face_up: NDArray[np.bool_]
    coloured: NDArray[np.int8]
    market: NDArray[np.int8]
    bribe_stack: NDArray[np.int8]
    lights_drawn: NDArray[np.int8]
    lights_keep: NDArray[np.int8]
    build_left: NDArray[np.int8]
    gift_pile: NDArray[np.int8]
    gifts: NDArray[np.int8]
    gift_queue: NDArray[np.int8]
    gift_chest: NDArray[np.int8]
    pending_target: NDArray[np.int8]
    pending_space: NDArray[np.int8]
    legal: NDArray[np.bool_]
    final: NDArray[np.int32]
    seed: NDArray[np.uint64]
    tape: NDArray[np.float64]
    tape_pos: NDArray[np.int32]


ARRAY_FIELDS = batch.array_fields(CoreState)
batch.check_specs(CoreState, FIELD_SPECS)


def batch_size(state: CoreState) -> int:
    return int(state.year.shape[0])


def dims(config: GameConfig) -> dict[str, int]:
    """The sizes of the shapes' letters: "P" players."""
    return {"P": config.num_players}


def field_shape(config: GameConfig, name: str) -> tuple[int, ...]:
    """The shape of field `name` after the batch axis, for `config`."""
    return batch.field_shape(FIELD_SPECS[name], dims(config))


def blank(config: GameConfig, n: int) -> CoreState:
    """`n` games with every field at its blank value (see FIELD_SPECS)."""
    return CoreState(config=config, **batch.blank_arrays(FIELD_SPECS, n, dims(config)))
