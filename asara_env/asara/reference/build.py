"""Build legality (R4.2, R7.2): which tile may go where, and whether a partial build can
still be completed with exactly the tiles left to place.

A player's build position is their supply, their unbuilt lighted windows and their towers,
some of which may have been started in this build and still lack a base or a turret.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from asara_env.asara.constants import MAX_TOWERS_PER_COLOUR, N_BUILD_MAX, N_TILE_COLOURS, Part
from asara_env.asara.reference.state import Tower


def tile_fits(towers: list[Tower], part: int, slot: int) -> str | None:
    """Why an ordinary tile cannot go on tower `slot` of its colour (None if it can).

    slot == len(towers) starts a new tower.
    """
    if slot > len(towers) or slot >= MAX_TOWERS_PER_COLOUR:
        return (
            f"there is no tower #{slot + 1} to build on or start (the next is #{len(towers) + 1})"
        )
    if slot < len(towers) and part in (Part.BASE, Part.TURRET) and towers[slot].has(part):
        return f"tower #{slot + 1} already has its {Part(part).name.lower()} (R4.2.2)"
    return None


def lighted_fits(towers: list[Tower], slot: int, over_gold: int) -> str | None:
    """Why a lighted window cannot go on tower `slot` over a (gold) window (None if it can)."""
    if slot >= len(towers):
        return f"tower #{slot + 1} does not exist; a lighted window needs a window (R7.2)"
    if towers[slot].free_windows(over_gold) <= 0:
        kind = "gold" if over_gold else "plain"
        return f"tower #{slot + 1} has no {kind} window without a lighted window (R7.2)"
    return None


def colour_counts(towers: list[Tower], supply: np.ndarray, lighted: int) -> set[int]:
    """The numbers of tiles that can still be placed on towers of one colour such that every
    tower ends complete. supply: int[part, gold] of this colour; lighted: unbuilt lighted
    windows of this colour."""
    missing_base = sum(not t.has(Part.BASE) for t in towers)
    missing_turret = sum(not t.has(Part.TURRET) for t in towers)
    bases, trunks, windows, turrets = supply.sum(axis=1).tolist()
    if missing_base > bases or missing_turret > turrets:
        return set()
    free = sum(t.free_windows(0) + t.free_windows(1) for t in towers)
    max_new = min(
        bases - missing_base, turrets - missing_turret, MAX_TOWERS_PER_COLOUR - len(towers)
    )
    counts = set()
    for new in range(max_new + 1):
        fixed = missing_base + missing_turret + 2 * new
        if not towers and new == 0:
            counts.add(fixed)
            continue
        for w in range(windows + 1):
            top = fixed + w + trunks + min(lighted, free + w)
            counts.update(range(fixed + w, min(top, N_BUILD_MAX) + 1))
    return counts


def build_sizes(towers: list[list[Tower]], supply: np.ndarray, lighted: np.ndarray) -> set[int]:
    """Every number of tiles (up to 7) that can still be placed so that every tower ends
    complete. towers: [colour] lists; supply: int[part, colour, gold]; lighted: int[colour]."""
    reachable = {0}
    for c in range(N_TILE_COLOURS):
        options = colour_counts(towers[c], supply[:, c, :], int(lighted[c]))
        reachable = {a + b for a in reachable for b in options if a + b <= N_BUILD_MAX}
    return reachable


def completable(
    towers: list[list[Tower]], supply: np.ndarray, lighted: np.ndarray, left: int
) -> bool:
    """Can exactly `left` more tiles be placed so that every tower ends complete?"""
    return left in build_sizes(towers, supply, lighted)


@dataclass
class Works:
    """One player's building materials. Built from a state with `works(state, seat)`, its
    fields are views: changing them changes the state."""

    towers: list[list[Tower]]  # [colour] towers in the order they were started
    supply: np.ndarray  # int[part, colour, gold] unbuilt tiles
    lighted: np.ndarray  # int[colour] unbuilt lighted windows

    def copy(self) -> Works:
        towers = [[t.copy() for t in col] for col in self.towers]
        return Works(towers, self.supply.copy(), self.lighted.copy())

    def completable(self, left: int) -> bool:
        return completable(self.towers, self.supply, self.lighted, left)

    def build_sizes(self) -> set[int]:
        return build_sizes(self.towers, self.supply, self.lighted)


def place_tile(w: Works, part: int, colour: int, gold: int, slot: int) -> None:
    """Move a supply tile onto tower `slot` of its colour, starting the tower if new."""
    towers = w.towers[colour]
    if slot == len(towers):
        towers.append(Tower(colour))
    towers[slot].parts[part, gold] += 1
    w.supply[part, colour, gold] -= 1


def place_lighted(w: Works, colour: int, slot: int, over_gold: int) -> None:
    """Lay a lighted window over a free plain (0) or gold (1) window of tower `slot`."""
    tower = w.towers[colour][slot]
    if over_gold:
        tower.lit_gold += 1
    else:
        tower.lit_plain += 1
    w.lighted[colour] -= 1
