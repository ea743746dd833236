"""Random players for property tests: uniform, and a 'builder' that favours the moves that
make the game's rich positions (buying, building, lighted windows) so they get covered."""

from __future__ import annotations

import numpy as np

from asara_env.asara.actions import TARGETS, Group, decode
from asara_env.asara.constants import MARKET_AREAS, Area, Part

_FAVOURED_AREAS = {Area.BUILDING: 12.0, Area.LIGHTS: 6.0, Area.SPIES: 3.0, Area.TENT: 2.0}


def _weight(action: int) -> float:
    group, fields = decode(action)
    if group == Group.BUILD_LIGHTED:
        return 10.0
    if group in (Group.BUY, Group.BRIBE_TAKE) and fields[0] in (Part.BASE, Part.TURRET):
        return 3.0
    if group != Group.PLACE:
        return 1.0
    area = TARGETS[fields[0]].area
    if area in MARKET_AREAS:
        return 4.0
    return _FAVOURED_AREAS.get(area, 1.0)


def choose(actions: list[int], rng: np.random.Generator, style: str = "uniform") -> int:
    if style == "uniform":
        return actions[int(rng.integers(len(actions)))]
    weights = np.array([_weight(a) for a in actions])
    return actions[int(rng.choice(len(actions), p=weights / weights.sum()))]
