"""Observation layouts declared once as named slices, for every game: a slice's name,
shape, meaning and the largest value its entries take, the index of each slice in the flat
vector and the per-entry upper bounds of the observation space (docs tables are generated
from the same declarations)."""

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
