"""The observation unpacked into named arrays, and the facts agents derive from it.

Everything here reads only the observation (what the seat may know, R10), batched:
`unpack(obs)` maps each slice of `OBS_SLICES` to an array `[B, *shape]` (a view).
"""

from __future__ import annotations

import numpy as np

from asara_env.asara.constants import (
    CHEST_SPACES,
    MAX_PLAYERS,
    N_GOLD,
    N_PARTS,
    N_YEARS,
    Area,
    Part,
)
from asara_env.asara.core.mask import colour_features, colour_sizes, total_sizes
from asara_env.asara.core.observation import OBS_INDEX, OBS_SLICES
from asara_env.asara.core.state import SPACES
from asara_env.asara.core.tables import TARGET_SPACES

SHAPES = {s.name: s.shape for s in OBS_SLICES}
# One tower's row of the `towers` slice (its meaning in OBS_SLICES): the tiles by part x
# gold (gold fastest), the lighted windows (plain, gold), whether the tower exists.
TOWER_TILES = slice(0, N_PARTS * N_GOLD)
TOWER_LIT = slice(TOWER_TILES.stop, TOWER_TILES.stop + N_GOLD)
TOWER_LIT_PLAIN, TOWER_LIT_GOLD = range(TOWER_LIT.start, TOWER_LIT.stop)
TOWER_EXISTS = TOWER_LIT.stop
assert SHAPES["towers"][-1] == TOWER_EXISTS + 1, "the towers slice changed: update the offsets"
SPACE_SEATS = slice(0, MAX_PLAYERS)  # a space's row of `spaces`: first the one-hot seat on it
PLOT_SPACES = np.array([s for s, (a, _) in enumerate(SPACES) if a == Area.BUILDING])  # plot 1..7
# int[space + 1]: the chest on each space (R9.2), -1 for none; the last entry is "no space"
SPACE_CHEST = np.array([CHEST_SPACES.index(s) if s in CHEST_SPACES else -1 for s in SPACES] + [-1])


def hot_index(onehot: np.ndarray) -> np.ndarray:
    """int[B]: the position of the one in each row of a one-hot [B, n]; -1 for none."""
    return np.where(onehot.any(axis=1), onehot.argmax(axis=1), -1)


def unpack(obs: np.ndarray) -> dict[str, np.ndarray]:
    """name -> array [B, *shape] for every observation slice."""
    obs = np.atleast_2d(obs)
    return {n: obs[:, OBS_INDEX[n]].reshape(len(obs), *SHAPES[n]) for n in OBS_INDEX}


class Seen:
    """The viewer's facts, batched: each attribute is an array with the batch axis first."""

    def __init__(self, obs: np.ndarray):
        o = unpack(obs)
        self.o = o
        self.year = o["year"].argmax(axis=1) + 1  # int[B] 1..4
        self.years_left = N_YEARS - self.year + 1  # end-of-year scorings still to come
        self.money = o["money"][:, 0]  # [B]
        self.hand = o["hand"]  # [B, card colour]
        self.supply = o["supply"][:, 0]  # [B, part, colour, gold]
        self.displays = o["displays"]  # [B, part, colour, gold]
        self.stacks = o["stacks"]  # [B, part, colour, gold]
        towers = o["towers"][:, 0]  # [B, colour, slot, TOWER_EXISTS + 1]
        tiles = towers[..., TOWER_TILES]
        self.tower_tiles = tiles.reshape(*towers.shape[:3], N_PARTS, N_GOLD)  # [B, C, k, part, g]
        self.tower_exists = towers[..., TOWER_EXISTS] > 0  # [B, colour, slot]
        self.tower_height = self.tower_tiles.sum(axis=(-1, -2))  # [B, colour, slot]
        self.tower_lit = towers[..., TOWER_LIT_PLAIN] + towers[..., TOWER_LIT_GOLD]  # [B, C, k]
        self.n_towers = self.tower_exists.sum(axis=2)  # [B, colour]
        self.holds_caliph = o["caliph"][:, 0] > 0  # [B]
        self.occupied = o["spaces"][..., SPACE_SEATS].sum(axis=-1) > 0  # [B, space]
        self.lighted_supply = o["lighted_supply"]  # [B, colour]
        self.draw_pile = o["draw_pile_size"][:, 0]
        self.lighted_stack = o["lighted_stack_size"][:, 0]
        self.area_colour = o["area_colour"]  # [B, area, card colour] one-hot required colour
        self.phase = o["phase"].argmax(axis=1)  # int[B]: the pending decision (a Phase value)
        self.pro = o["pro"][:, 0] > 0  # [B]
        self.has_genie = o["genie"][:, 0] > 0  # [B]: the Bottle Genie is in play (R9.1)
        self.has_gifts = o["gifts"][:, 0] > 0  # [B]: the gifts are in play (R9.2)
        self.chest_gifts = o["chest_gifts"].sum(axis=2)  # [B, chest, gift kind] gifts waiting
        self.gift_queue = o["gift_queue"].sum(axis=1)  # [B, gift kind] gifts still to carry out
        self.gift_chest = hot_index(o["gift_chest"])  # int[B]: chest being emptied, -1 none
        self.pending_target = hot_index(o["pending_target"])  # int[B]: target after the gifts
        self.draw_pile_seen = o["draw_pile_seen"]  # [B, card colour] (GIFT_CARD only)
        self.lighted_stack_seen = o["lighted_stack_seen"]  # [B, colour] (GIFT_LIGHTS only)

    def in_supply(self, part: Part) -> np.ndarray:
        """[B, colour]: unbuilt tiles of one part type, gold or not."""
        return self.supply[:, part].sum(axis=-1)

    def free_windows(self) -> np.ndarray:
        """[B, colour]: windows in towers without a lighted window, plus windows in supply."""
        windows = self.tower_tiles[..., Part.WINDOW, :].sum(axis=-1)
        built = np.maximum(windows - self.tower_lit, 0).sum(axis=2)
        return built + self.in_supply(Part.WINDOW)

    def plot_cost(self) -> np.ndarray:
        """[B, n=1..7 → index 0..6]: the plot a build of n tiles would take (99 = none free)."""
        free = ~self.occupied[:, PLOT_SPACES]  # [B, plot]
        plots = np.arange(1, 8)
        cost = np.where(free, plots, 99)
        # lowest free plot >= n: reverse cumulative minimum
        return np.minimum.accumulate(cost[:, ::-1], axis=1)[:, ::-1]

    def target_chest(self) -> np.ndarray:
        """int[B, target]: the chest a placement on each target would open (R9.2), -1 for
        none: the target takes its lowest vacant candidate space (a market's first vacant
        space, a build's lowest vacant plot >= n)."""
        free = TARGET_SPACES[None] & ~self.occupied[:, None, :]  # [B, target, space]
        space = np.where(free.any(axis=2), free.argmax(axis=2), -1)
        return SPACE_CHEST[space]

    def build_sizes(self) -> np.ndarray:
        """bool[B, n=1..7 → index 0..6]: builds of exactly n tiles the supply allows (R4.2),
        whatever the plots and money."""
        f = colour_features(
            self.tower_tiles.astype(np.int64),
            self.o["towers"][:, 0, ..., TOWER_LIT].astype(np.int64),
            self.n_towers.astype(np.int64),
            self.supply.astype(np.int64),
            self.lighted_supply.astype(np.int64),
        )
        sizes = total_sizes(colour_sizes(f)).astype(np.int64)  # uint8 bitmask of sizes 0..7
        return (sizes[:, None] >> np.arange(1, 8)) & 1 > 0
