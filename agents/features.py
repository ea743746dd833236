"""The observation unpacked into named arrays, and the facts agents derive from it.

Everything here reads only the observation (what the seat may know, R10), batched:
`unpack(obs)` maps each slice of `OBS_SLICES` to an array `[B, *shape]` (a view).
"""

from __future__ import annotations

import numpy as np

from asara_env.constants import N_YEARS, Area, Part
from asara_env.core.observation import OBS_INDEX, OBS_SLICES
from asara_env.core.state import SPACES

SHAPES = {s.name: s.shape for s in OBS_SLICES}
PLOT_SPACES = np.array([s for s, (a, _) in enumerate(SPACES) if a == Area.BUILDING])  # plot 1..7


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
        towers = o["towers"][:, 0]  # [B, colour, slot, 11]
        self.tower_tiles = towers[..., :8].reshape(*towers.shape[:3], 4, 2)  # [B, C, k, part, g]
        self.tower_exists = towers[..., 10] > 0  # [B, colour, slot]
        self.tower_height = self.tower_tiles.sum(axis=(-1, -2))  # [B, colour, slot]
        self.tower_lit = towers[..., 8] + towers[..., 9]  # [B, colour, slot]
        self.n_towers = self.tower_exists.sum(axis=2)  # [B, colour]
        self.holds_caliph = o["caliph"][:, 0] > 0  # [B]
        self.occupied = o["spaces"][..., :4].sum(axis=-1) > 0  # [B, space]
        self.lighted_supply = o["lighted_supply"]  # [B, colour]
        self.draw_pile = o["draw_pile_size"][:, 0]

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
