"""End-of-year scoring (R6.2) and final scoring (R8, with the professional tie-breaks R7.3)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from asara_env.asara.constants import (
    ASARI_PER_PRESTIGE,
    COLOUR_AWARDS,
    COLOUR_NAMES,
    FINAL_CATEGORIES,
    MOST_TOWERS_AWARD,
    N_TILE_COLOURS,
    TALLEST_AWARD,
)
from asara_env.asara.reference.state import Tower

YEAR_END_CATEGORIES = ("towers", "gold", "lit", "caliph")  # R6.2, in this order


def year_end_breakdown(towers: list[list[Tower]], holds_caliph: bool) -> dict[str, int]:
    """R6.2 by category: 1 per tower, per visible gold tile, per lighted window; 1 for the
    Caliph (keys YEAR_END_CATEGORIES)."""
    all_towers = [t for colour in towers for t in colour]
    return {
        "towers": len(all_towers),
        "gold": sum(t.visible_gold for t in all_towers),
        "lit": sum(t.lit for t in all_towers),
        "caliph": int(holds_caliph),
    }


def year_end_points(towers: list[list[Tower]], holds_caliph: bool) -> int:
    """R6.2: the year-end points of one seat (the sum of its breakdown)."""
    return sum(year_end_breakdown(towers, holds_caliph).values())


def ranking_award(keys: Sequence[tuple[int, ...]], award: tuple[int, int]) -> list[int]:
    """R8.2: points for each ranked entry, given its ranking key (higher is better)."""
    first, second = award
    points = [0] * len(keys)
    if not keys:
        return points
    best = max(keys)
    tied_first = [i for i, k in enumerate(keys) if k == best]
    if len(tied_first) >= 2:
        for i in tied_first:
            points[i] = math.ceil((first + second) / len(tied_first))
        return points
    points[tied_first[0]] = first
    rest = [k for k in keys if k != best]
    if rest:
        runner_up = max(rest)
        tied_second = [i for i, k in enumerate(keys) if k == runner_up]
        for i in tied_second:
            points[i] = math.ceil(second / len(tied_second))
    return points


def tower_key(tower: Tower, pro: bool) -> tuple[int, ...]:
    """R8.1 ranks towers by height; R7.3 breaks ties by lighted windows (pro)."""
    return (tower.height, tower.lit) if pro else (tower.height,)


def final_scoring(
    towers: list[list[list[Tower]]], money: Sequence[int], pro: bool
) -> list[dict[str, Any]]:
    """Final-scoring points per seat by category (R8). towers: [seat][colour] lists."""
    seats = range(len(towers))
    result = [dict.fromkeys(FINAL_CATEGORIES, 0) for _ in seats]

    def pay(entries: list[tuple[int, Tower]], award: tuple[int, int], category: str) -> None:
        points = ranking_award([tower_key(t, pro) for _, t in entries], award)
        for (seat, _), pts in zip(entries, points):
            result[seat][category] += pts

    for c in range(N_TILE_COLOURS):
        entries = [(s, t) for s in seats for t in towers[s][c]]
        pay(entries, COLOUR_AWARDS[c], COLOUR_NAMES[c])
    pay([(s, t) for s in seats for col in towers[s] for t in col], TALLEST_AWARD, "tallest")

    builders = [s for s in seats if any(towers[s])]
    keys = []
    for s in builders:
        own = [t for col in towers[s] for t in col]
        keys.append((len(own), sum(t.lit for t in own)) if pro else (len(own),))
    for s, pts in zip(builders, ranking_award(keys, MOST_TOWERS_AWARD)):
        result[s]["most_towers"] = pts

    for s in seats:
        result[s]["asari"] = money[s] // ASARI_PER_PRESTIGE
        result[s]["total"] = sum(result[s][k] for k in FINAL_CATEGORIES)
    return result


def winners(prestige: Sequence[int]) -> list[int]:
    """R8.5: every seat with the highest total."""
    best = max(prestige)
    return [s for s, p in enumerate(prestige) if p == best]
