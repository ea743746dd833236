"""ASARA's decision phases, the action groups each phase offers, and the game's tiles.

Part of the game definition that both engines share (see docs/architecture.md).
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from asara_env.asara.actions import Group
from asara_env.asara.constants import (
    GOLD_PER_KIND,
    N_GOLD,
    N_PARTS,
    N_TILE_COLOURS,
    TILES_PER_COLOUR,
    Part,
)


class Phase(IntEnum):
    """The decision pending. PLACE starts a turn; the others are a turn's sub-decisions."""

    PLACE = 0
    BUY = 1
    BRIBE_STACK = 2
    BRIBE_TAKE = 3
    LIGHTS_OPTION = 4
    LIGHTS_KEEP = 5
    BUILD = 6
    GAME_OVER = 7
    GENIE = 8  # R9.1: choose the move the Bottle Genie carries out
    GIFT_CARD = 9  # R9.2: choose a buyer card from the draw pile
    GIFT_BUY = 10  # R9.2: buy a tile from the display of part `market`
    GIFT_LIGHTS = 11  # R9.2: keep one window of the lighted-window stack


# the action groups each decision phase offers
PHASE_GROUPS: dict[Phase, tuple[Group, ...]] = {
    Phase.PLACE: (Group.PLACE, Group.PLACE_COLOURED),
    Phase.BUY: (Group.BUY,),
    Phase.BRIBE_STACK: (Group.BRIBE_STACK,),
    Phase.BRIBE_TAKE: (Group.BRIBE_TAKE, Group.BRIBE_NOTHING),
    Phase.LIGHTS_OPTION: (Group.LIGHTS_OPTION,),
    Phase.LIGHTS_KEEP: (Group.LIGHTS_KEEP,),
    Phase.BUILD: (Group.BUILD_TILE, Group.BUILD_LIGHTED),
    Phase.GAME_OVER: (),
    Phase.GENIE: (Group.GENIE_MOVE,),
    Phase.GIFT_CARD: (Group.GIFT_CARD,),
    Phase.GIFT_BUY: (Group.BUY,),
    Phase.GIFT_LIGHTS: (Group.LIGHTS_KEEP,),
}

N_PHASES = len(Phase)


def full_tile_counts() -> np.ndarray:
    """int[part, colour, gold]: every ordinary tile of the game (R1)."""
    counts = np.zeros((N_PARTS, N_TILE_COLOURS, N_GOLD), np.int64)
    for part in Part:
        counts[part, :, 1] = GOLD_PER_KIND
        counts[part, :, 0] = TILES_PER_COLOUR[part] - GOLD_PER_KIND
    return counts
