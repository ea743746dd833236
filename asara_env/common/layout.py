"""Observation layouts declared once as named slices, for every game: a slice's name,
shape and meaning, and the index of each slice in the flat vector (docs tables are
generated from the same declarations)."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class ObsSlice:
    """One named piece of a flat observation vector."""

    name: str
    shape: tuple[int, ...]
    meaning: str

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
