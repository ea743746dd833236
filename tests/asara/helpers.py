"""Hand-made positions for rule tests. Every helper moves components between places (never
creates or destroys them), so `sound(state)` holds after each."""

from __future__ import annotations

import numpy as np

from asara_env import GameConfig
from asara_env.asara.actions import Group, encode
from asara_env.asara.constants import Area, Part
from asara_env.asara.reference import engine
from asara_env.asara.reference.invariants import violations
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.state import Buyer, State, Tower

BASE, TRUNK, WINDOW, TURRET = Part.BASE, Part.TRUNK, Part.WINDOW, Part.TURRET


def new(players: int = 2, variant: str = "basic", seed: int = 0, **kw) -> State:
    return engine.new_game(GameConfig(num_players=players, variant=variant, **kw), seed)


def sound(state: State) -> None:
    problems = violations(state)
    assert not problems, problems


def act(state: State, group: Group, *fields: int) -> None:
    engine.step(state, encode(group, *fields))


def legal(state: State, group: Group, *fields: int) -> bool:
    return encode(group, *fields) in legal_actions(state)


def set_hand(state: State, seat: int, counts) -> None:
    """Give `seat` exactly these cards (int[card colour]); the draw pile absorbs the rest."""
    counts = np.asarray(counts, np.int64)
    state.draw_pile += state.hands[seat] - counts
    state.hands[seat] = counts
    assert (state.draw_pile >= 0).all(), "not enough cards of that colour left in the draw pile"


def empty_hands(state: State, *seats: int) -> None:
    for s in seats:
        set_hand(state, s, [0] * 5)


def _take_tile(state: State, part: int, colour: int, gold: int) -> None:
    """Remove one tile from the stacks (or, if none is left there, the display)."""
    for pile in (state.stacks, state.displays):
        if pile[part, colour, gold] > 0:
            pile[part, colour, gold] -= 1
            return
    raise AssertionError(f"no {colour=} {part=} {gold=} tile left outside the players' hands")


def give_tile(state: State, seat: int, part: int, colour: int, gold: int = 0, n: int = 1) -> None:
    for _ in range(n):
        _take_tile(state, part, colour, gold)
        state.supply[seat, part, colour, gold] += 1


def _take_lighted(state: State, colour: int) -> None:
    for i, (c, _) in enumerate(state.lighted_stack):
        if c == colour:
            del state.lighted_stack[i]
            return
    raise AssertionError(f"no lighted window of colour {colour} in the stack")


def give_lighted(state: State, seat: int, colour: int, n: int = 1) -> None:
    for _ in range(n):
        _take_lighted(state, colour)
        state.lighted_supply[seat, colour] += 1


def add_tower(
    state: State,
    seat: int,
    colour: int,
    trunks: int = 0,
    windows: int = 0,
    gold: tuple[int, ...] = (),
    lit_plain: int = 0,
    lit_gold: int = 0,
) -> Tower:
    """Build a complete tower for `seat` from the stacks: base, trunks, windows, turret.
    `gold` lists the parts whose gold tile is used (one of them per part at most)."""
    tower = Tower(colour)
    counts = {BASE: 1, TRUNK: trunks, WINDOW: windows, TURRET: 1}
    saved = state.stacks.copy(), state.displays.copy(), [list(x) for x in state.lighted_stack]
    try:
        for part, n in counts.items():
            for k in range(n):
                g = int(part in gold and k == 0)
                _take_tile(state, part, colour, g)
                tower.parts[part, g] += 1
        for _ in range(lit_plain + lit_gold):
            _take_lighted(state, colour)
    except AssertionError:
        state.stacks, state.displays, state.lighted_stack = saved  # all or nothing
        raise
    tower.lit_plain, tower.lit_gold = lit_plain, lit_gold
    state.towers[seat][colour].append(tower)
    return tower


def set_display(state: State, part: int, tiles: dict[tuple[int, int], int]) -> None:
    """Make the display of `part` hold exactly `tiles` ({(colour, gold): n}); the rest of
    its tiles go back to the stack."""
    state.stacks[part] += state.displays[part]
    state.displays[part] = 0
    for (colour, gold), n in tiles.items():
        state.stacks[part, colour, gold] -= n
        state.displays[part, colour, gold] += n
    assert (state.stacks >= 0).all()


def put_buyer(
    state: State, area: Area, space: int, seat: int, cards: tuple[int, ...], face_up: bool
) -> None:
    """Place cards from the draw pile on a space as if `seat` had placed them earlier."""
    for b in cards:
        assert state.draw_pile[b] > 0
        state.draw_pile[b] -= 1
    state.spaces[area][space] = Buyer(seat, tuple(sorted(cards)), face_up)
    if face_up and state.area_colour[area] == -1:
        state.area_colour[area] = cards[0]
