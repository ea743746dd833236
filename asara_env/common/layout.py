"""Observation layouts declared once as named slices, for every game: a slice's name,
shape, meaning and the largest value its entries take, the index of each slice in the flat
vector and the per-entry upper bounds of the observation space (docs tables are generated
from the same declarations).

The normalised observation (the envs' `normalize_obs=True`, for libraries that do not
rescale their inputs) is derived from the same tables by `ObsNormalizer`: an entry with a
bound is divided by it; an entry the rules leave unbounded (money, prestige, scores: its
`high` is the int32 fields' largest value) is squashed as v / (v + scale), with the slice's
`scale` its typical size. Every value then lies in [0, 1], order kept."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True)
class ObsSlice:
    """One named piece of a flat observation vector."""

    name: str
    shape: tuple[int, ...]
    meaning: str
    high: float = 1.0  # the largest value of its entries (one-hots and flags: 1)
    # > 0 for entries the rules leave unbounded: their typical size, which the normalised
    # observation maps to 0.5 (v / (v + scale)); 0: normalised as v / high
    scale: float = 0.0

    @property
    def size(self) -> int:
        return math.prod(self.shape)


def slice_index(slices: Iterable[ObsSlice]) -> dict[str, slice]:
    """name -> the slice of the flat vector each piece occupies, in declaration order."""
    index, start = {}, 0
    for s in slices:
        index[s.name] = slice(start, start + s.size)
        start += s.size
    return index


def slice_highs(slices: Iterable[ObsSlice]) -> NDArray[np.float32]:
    """float32[size]: every entry's upper bound, slice by slice in declaration order."""
    parts = [np.full(s.size, s.high, np.float32) for s in slices]
    return np.concatenate(parts) if parts else np.zeros(0, np.float32)


def slice_scales(slices: Iterable[ObsSlice]) -> NDArray[np.float32]:
    """float32[size]: every entry's squashing scale (0 where the entry has a bound), slice
    by slice in declaration order."""
    parts = [np.full(s.size, s.scale, np.float32) for s in slices]
    return np.concatenate(parts) if parts else np.zeros(0, np.float32)


class ObsNormalizer:
    """Maps a game's observations (float32[..., size], entries in [0, high]) into [0, 1]
    entry by entry: v / high where `scale` is 0, v / (v + scale) where it is positive (see
    the module docstring). `high` and `scale` come from a layout (`slice_highs`,
    `slice_scales`)."""

    def __init__(self, high: NDArray[np.float32], scale: NDArray[np.float32]) -> None:
        if high.shape != scale.shape or high.ndim != 1:
            raise ValueError(f"high {high.shape} and scale {scale.shape} must be one shape [size]")
        bounded = scale == 0
        if not (high[bounded] > 0).all() or (scale < 0).any():
            raise ValueError("every entry needs a positive high or a positive scale")
        self.size = high.shape[0]
        self._divisor = np.where(bounded, high, 1.0).astype(np.float32)
        self._squashed = ~bounded
        self._scale = np.where(bounded, 0.0, scale).astype(np.float32)

    def __call__(self, obs: NDArray[np.float32]) -> NDArray[np.float32]:
        """float32[..., size] in [0, 1]: `obs` normalised (a new array)."""
        obs = np.asarray(obs, np.float32)
        if obs.shape[-1:] != (self.size,):
            raise ValueError(f"observations of size {self.size} expected, got {obs.shape}")
        out = obs / self._divisor
        squashed = obs[..., self._squashed]
        out[..., self._squashed] = squashed / (squashed + self._scale[self._squashed])
        return out
