"""R4.2 / R7.2 build masks are exact: on random positions, the builds reachable by following
the masks are exactly the builds a brute-force enumeration of the rules finds, and no
masked-in partial build is a dead end."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from asara_env.asara.actions import Group, encode
from asara_env.asara.constants import MAX_TOWERS_PER_COLOUR, N_GOLD, N_PARTS, Part
from asara_env.asara.phases import Phase
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.state import State
from tests.asara.helpers import (
    BASE,
    TURRET,
    WINDOW,
    act,
    add_tower,
    give_lighted,
    give_tile,
    new,
    set_hand,
    sound,
)


def _tower_key(t) -> tuple[Any, ...]:
    return (tuple(t.parts.reshape(-1).tolist()), t.lit_plain, t.lit_gold)


def _config(state: State, seat: int) -> tuple[Any, ...]:
    return tuple(tuple(_tower_key(t) for t in col) for col in state.towers[seat])


def builds_through_masks(state: State, n: int) -> set[tuple[Any, ...]]:
    """Final tower configurations reachable by placing on `build n` and following masks."""
    seat = state.seat
    act(state, Group.PLACE, 3 + n, 0)  # target 4 + n - 1 = build n, a face-up blue card
    finals: set[tuple[Any, ...]] = set()
    seen: set[tuple[Any, ...]] = set()

    def walk(st: State) -> None:
        key = (_config(st, seat), st.build_left)
        if key in seen:
            return
        seen.add(key)
        if st.phase != Phase.BUILD:
            finals.add(_config(st, seat))
            return
        actions = legal_actions(st)
        assert actions, f"dead end with {st.build_left} tiles left"
        for a in actions:
            child = st.copy()
            engine.step(child, a)
            walk(child)

    walk(state)
    return finals


def builds_by_brute_force(state: State, seat: int, n: int) -> set[tuple[Any, ...]]:
    """Every assignment of supply units to towers that the rules allow, as final configs."""
    units = []  # (kind, colour, part, gold) ; kind 0 = ordinary tile, 1 = lighted window
    for part, colour, gold in zip(*np.nonzero(state.supply[seat])):
        units += [(0, int(colour), int(part), int(gold))] * int(
            state.supply[seat, part, colour, gold]
        )
    for colour in np.flatnonzero(state.lighted_supply[seat]):
        units += [(1, int(colour), -1, -1)] * int(state.lighted_supply[seat, colour])

    def destinations(unit):
        slots = range(MAX_TOWERS_PER_COLOUR)
        if unit[0] == 0:
            return [None] + [(s, 0) for s in slots]
        return [None] + [(s, g) for s in slots for g in range(N_GOLD)]

    finals = set()
    for choice in itertools.product(*(destinations(u) for u in units)):
        if sum(d is not None for d in choice) != n:
            continue
        final = _apply_assignment(state.towers[seat], units, choice)
        if final is not None:
            finals.add(final)
    return finals


def _apply_assignment(towers, units, choice):
    """The final configuration, or None if the assignment breaks a building rule."""
    cols = [[(t.parts.copy(), t.lit_plain, t.lit_gold) for t in col] for col in towers]
    # colour -> {slot: [parts, lit_plain, lit_gold]}
    new_towers: list[dict[int, dict[int, list[Any]]]] = [{} for _ in cols]
    for unit, dest in zip(units, choice):
        if dest is None:
            continue
        kind, colour, part, gold = unit
        slot, over_gold = dest
        if slot < len(cols[colour]):
            entry = list(cols[colour][slot])
            cols[colour][slot] = entry
        else:
            entry = new_towers[colour].setdefault(slot, [np.zeros((N_PARTS, N_GOLD), int), 0, 0])
        if kind == 0:
            entry[0][part, gold] += 1
        elif over_gold:
            entry[2] += 1
        else:
            entry[1] += 1
    result = []
    for colour, col in enumerate(cols):
        extra = new_towers[colour]
        if sorted(extra) != list(range(len(col), len(col) + len(extra))):
            return None  # new towers take the next free numbers
        towers = [tuple(t) for t in col] + [tuple(extra[s]) for s in sorted(extra)]
        for parts, lit_plain, lit_gold in towers:
            if parts[Part.BASE].sum() != 1 or parts[Part.TURRET].sum() != 1:
                return None  # R4.2.2, R4.2.6
            if lit_plain > parts[Part.WINDOW, 0] or lit_gold > parts[Part.WINDOW, 1]:
                return None  # R7.2
        result.append(tuple((tuple(p.reshape(-1).tolist()), lp, lg) for p, lp, lg in towers))
    return tuple(result)


def random_build_position(rng: np.random.Generator) -> tuple[State, int]:
    """A pro game where seat 0 may build: random towers, supply and lighted windows."""
    state = new(2, "pro", seed=int(rng.integers(1 << 30)))
    set_hand(state, 0, [1, 0, 0, 0, 0])
    state.money[0] = 50
    colours = rng.choice(5, size=int(rng.integers(1, 3)), replace=False)
    for colour in colours:
        for _ in range(int(rng.integers(0, 3))):
            windows = int(rng.integers(0, 3))
            gold = (WINDOW,) if windows and rng.random() < 0.4 else ()
            plain = windows - len(gold)
            lit = int(rng.integers(0, plain + 1)) if rng.random() < 0.3 else 0
            try:
                add_tower(state, 0, int(colour), windows=windows, gold=gold, lit_plain=lit)
            except AssertionError:
                pass  # the colour ran out of tiles: fewer towers
    for _ in range(int(rng.integers(2, 7))):
        colour = int(rng.choice(colours))
        part = int(rng.choice([BASE, TURRET, WINDOW, Part.TRUNK, BASE, TURRET]))
        gilded = int(rng.random() < 0.25)
        try:
            if rng.random() < 0.2:
                give_lighted(state, 0, colour)
            else:
                give_tile(state, 0, part, colour, gilded)
        except AssertionError:
            pass  # none of that kind left
    sound(state)
    return state, int(rng.integers(1, 6))


def _check_position(seed: int) -> bool:
    rng = np.random.default_rng(seed)
    state, n = random_build_position(rng)
    expected = builds_by_brute_force(state, 0, n)
    placement = encode(Group.PLACE, 3 + n, 0)
    assert (placement in legal_actions(state)) == bool(expected), (
        "R3.5: build n legal iff a build exists"
    )
    if expected:
        assert builds_through_masks(state, n) == expected
    return bool(expected)


def test_R4_2_masks_reach_exactly_the_legal_builds_on_random_positions():
    buildable = sum(_check_position(seed) for seed in range(150))
    assert buildable >= 40, "the generator should produce many positions with a legal build"


@pytest.mark.slow
def test_R4_2_masks_reach_exactly_the_legal_builds_many_positions():
    for seed in range(1000, 3000):
        _check_position(seed)
