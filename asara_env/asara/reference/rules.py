"""Legality: for every action, why it is illegal in a state (None when it is legal).

One predicate per decision group; `legal_actions` and the error raised for an illegal
action both come from them, so the mask and the error messages cannot disagree.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from asara_env.asara.actions import (
    CARD_OPTIONS,
    GENIE_MOVES,
    TARGETS,
    GenieMove,
    Group,
    Target,
    decode,
    encode,
)
from asara_env.asara.constants import (
    CARD_NAMES,
    CHEST_SPACES,
    LIGHTED_GIFT_COST,
    LIGHTS_OPTIONS,
    MARKET_AREAS,
    MAX_TOWERS_PER_COLOUR,
    N_CARD_COLOURS,
    N_GOLD,
    N_PARTS,
    N_TILE_COLOURS,
    PRICE,
    PRO_AREAS,
    SPACE_VALUES,
    Area,
)
from asara_env.asara.phases import PHASE_GROUPS, Phase
from asara_env.asara.reference.build import (
    Works,
    lighted_fits,
    place_lighted,
    place_tile,
    tile_fits,
)
from asara_env.asara.reference.state import State


# ------------------------------------------------------------------------------ placement
def area_in_game(state: State, area: Area) -> bool:
    if area in PRO_AREAS:
        return state.config.pro
    if area == Area.GENIE:
        return state.config.has_genie
    return True


def target_space(state: State, target: Target) -> int | None:
    """The space a placement on `target` takes, or None if there is none vacant (R4.2)."""
    spaces = state.spaces[target.area]
    candidates: Iterable[int]
    if target.area == Area.BUILDING:
        assert target.arg is not None  # plot n
        candidates = range(target.arg - 1, len(spaces))
    elif target.arg is None:
        candidates = range(len(spaces))
    else:
        candidates = (target.arg,)
    return next((i for i in candidates if spaces[i] is None), None)


def cards_reason(state: State, area: Area, option: int) -> str | None:
    """R3.2/R3.3: why these cards may not be placed in `area`."""
    return _cards_reason(state.hands[state.seat].tolist(), state.area_colour[area], option)


def _cards_reason(hand: list[int], required: int, option: int) -> str | None:
    colours = CARD_OPTIONS[option]
    if not _holds(hand, colours):
        return f"the hand does not hold {'+'.join(CARD_NAMES[x] for x in colours)}"
    if not _follows(required, colours):
        if len(colours) == 2:
            return "a face-down pair needs an area with a required colour (R3.3)"
        return f"the area requires {CARD_NAMES[required]} face up (R3.2)"
    return None


def move_reason(
    state: State, target: Target, space: int, sizes: set[int] | None = None
) -> str | None:
    """R3.5: why the move of `target` could not be carried out by the player to move.
    `sizes`: the player's possible build sizes, if already known."""
    money = state.money[state.seat]
    value = SPACE_VALUES[target.area][space]
    area = target.area
    if area in MARKET_AREAS:
        affordable = [
            c for c in range(N_TILE_COLOURS) if state.displays[area, c].sum() and PRICE[c] <= money
        ]
        return None if affordable else "the market has no tile the player can afford (R3.5)"
    if area == Area.BUILDING:
        if value > money:
            return f"plot {value} costs {value}, the player has {money} (R3.5)"
        if sizes is None:
            sizes = works(state, state.seat).build_sizes()
        if target.arg not in sizes:
            return f"no legal build of exactly {target.arg} tiles exists (R3.5)"
        return None
    if area in (Area.SPIES, Area.TENT, Area.GENIE) and value > money:
        return f"the space costs {value}, the player has {money} (R3.5)"
    if area == Area.LIGHTS:
        if not state.lighted_stack:
            return "the lighted-window stack is empty (R3.5)"
        if min(cost for cost, _, _ in LIGHTS_OPTIONS) > money:
            return "the player cannot pay for a lighted-window option (R3.5)"
    return None


def target_reason(state: State, t: int, sizes: set[int] | None = None) -> str | None:
    target = TARGETS[t]
    if not area_in_game(state, target.area):
        return f"{target.area.name} is not part of this game's configuration"
    space = target_space(state, target)
    if space is None:
        return f"no vacant space for {target.name} (R3.1)"
    return move_reason(state, target, space, sizes)


def place_reason(state: State, t: int, option: int) -> str | None:
    return cards_reason(state, TARGETS[t].area, option) or target_reason(state, t)


def chest_at(state: State, area: Area, space: int) -> int | None:
    """The chest on a space (R9.2), or None (always None without the gifts expansion)."""
    if "gifts" not in state.config.expansions or (area, space) not in CHEST_SPACES:
        return None
    chest = CHEST_SPACES.index((area, space))
    return chest if area_in_game(state, area) else None


def coloured_reason(state: State, card: int) -> str | None:
    if state.hands[state.seat, card] < 1:
        return f"the hand holds no {CARD_NAMES[card]} card"
    return None


# ------------------------------------------------------------------------------ sub-decisions
def buy_reason(state: State, part: int, colour: int, gold: int) -> str | None:
    if part != state.market:
        where = "gift buys from" if state.phase == Phase.GIFT_BUY else "buyer stands in"
        return f"the {where} the {Area(state.market).name} market, not this part's"
    if state.displays[part, colour, gold] < 1:
        return "that tile is not in the display"
    if PRICE[colour] > state.money[state.seat]:
        return f"the tile costs {PRICE[colour]}, the player has {state.money[state.seat]}"
    if state.phase == Phase.GIFT_BUY:
        trial = state.copy()
        trial.displays[part, colour, gold] -= 1
        trial.money[trial.seat] -= PRICE[colour]
        return _after_gift_reason(trial)
    return None


def genie_space(move: GenieMove) -> int:
    """The space (index within its area) whose move the Genie carries out: plot n for a
    build of n, the chosen space where spaces differ, else the first."""
    if move.area == Area.BUILDING:
        assert move.arg is not None  # a build of n
        return move.arg - 1
    return move.arg if move.arg is not None else 0


def genie_reason(state: State, move: int) -> str | None:
    """R9.1: the Genie carries out any space's move but the Caliph's, vacant or not, paying
    that space's cost; a build of n pays n (no next-plot rule)."""
    m = GENIE_MOVES[move]
    if m.area is None:  # the coloured building: take 5
        return None
    return move_reason(state, Target(m.area, m.arg, m.name), genie_space(m))


def gift_card_reason(state: State, card: int) -> str | None:
    if state.draw_pile[card] < 1:
        return f"the draw pile holds no {CARD_NAMES[card]} card"
    return None


def gift_lights_reason(state: State, colour: int) -> str | None:
    money = state.money[state.seat]
    if colour not in [c for c, _ in state.lighted_stack]:
        return "the lighted-window stack holds no window of that colour"
    if money < LIGHTED_GIFT_COST:
        return f"the gift's window costs {LIGHTED_GIFT_COST}, the player has {money}"
    trial = state.copy()
    trial.lighted_stack.remove(next(x for x in trial.lighted_stack if x[0] == colour))
    trial.money[trial.seat] -= LIGHTED_GIFT_COST
    return _after_gift_reason(trial)


def _after_gift_reason(trial: State) -> str | None:
    """A gift's purchase must leave the space's own move possible (R9.2 with R3.5)."""
    target = TARGETS[trial.pending_target]
    reason = move_reason(trial, target, trial.pending_space)
    if reason is None:
        return None
    return f"after this purchase the move of {target.name} would be impossible: {reason}"


def bribe_take_reason(state: State, part: int, colour: int, gold: int) -> str | None:
    if part != state.bribe_stack:
        return "that tile is not of the searched stack's part"
    if state.stacks[part, colour, gold] < 1:
        return "that tile is not in the searched stack"
    if PRICE[colour] > state.money[state.seat]:
        return f"the tile costs {PRICE[colour]}, the player has {state.money[state.seat]} (R4.5)"
    return None


def lights_option_reason(state: State, option: int) -> str | None:
    cost = LIGHTS_OPTIONS[option][0]
    if cost > state.money[state.seat]:
        return f"the option costs {cost}, the player has {state.money[state.seat]}"
    return None


def lights_keep_reason(state: State, colour: int) -> str | None:
    if state.phase == Phase.GIFT_LIGHTS:
        return gift_lights_reason(state, colour)
    return None if colour in state.lights_drawn else "no lighted window of that colour was drawn"


def works(state: State, seat: int) -> Works:
    return Works(state.towers[seat], state.supply[seat], state.lighted_supply[seat])


def build_tile_reason(state: State, part: int, colour: int, gold: int, slot: int) -> str | None:
    w = works(state, state.seat)
    if w.supply[part, colour, gold] < 1:
        return "that tile is not in the player's supply"
    reason = tile_fits(w.towers[colour], part, slot)
    if reason:
        return reason
    trial = w.copy()
    place_tile(trial, part, colour, gold, slot)
    return _finish_reason(trial, state.build_left - 1)


def build_lighted_reason(state: State, colour: int, slot: int, over_gold: int) -> str | None:
    w = works(state, state.seat)
    if w.lighted[colour] < 1:
        return "the player holds no lighted window of that colour"
    reason = lighted_fits(w.towers[colour], slot, over_gold)
    if reason:
        return reason
    trial = w.copy()
    place_lighted(trial, colour, slot, over_gold)
    return _finish_reason(trial, state.build_left - 1)


def _finish_reason(trial: Works, left: int) -> str | None:
    if trial.completable(left):
        return None
    return f"the build could not then be finished with exactly {left} more tiles (R4.2.6)"


# ------------------------------------------------------------------------------ dispatch
def _always(state: State, *fields: int) -> None:
    return None


REASONS: dict[Group, Callable[..., str | None]] = {
    Group.PLACE: place_reason,
    Group.PLACE_COLOURED: coloured_reason,
    Group.BUY: buy_reason,
    Group.BRIBE_STACK: _always,  # any stack may be searched, even an empty one
    Group.BRIBE_TAKE: bribe_take_reason,
    Group.BRIBE_NOTHING: _always,
    Group.LIGHTS_OPTION: lights_option_reason,
    Group.LIGHTS_KEEP: lights_keep_reason,
    Group.BUILD_TILE: build_tile_reason,
    Group.BUILD_LIGHTED: build_lighted_reason,
    Group.GENIE_MOVE: genie_reason,
    Group.GIFT_CARD: gift_card_reason,
}


def illegal_reason(state: State, action: int) -> str | None:
    """Why `action` is illegal in `state`, or None if it is legal."""
    if state.is_over:
        return "the game is over"
    group, fields = decode(action)
    expected = PHASE_GROUPS[state.phase]
    if group not in expected:
        names = "/".join(g.name for g in expected)
        return f"the pending decision is {state.phase.name} ({names}), not {group.name}"
    return REASONS[group](state, *fields)


def legal_actions(state: State) -> list[int]:
    """Every legal action id of the player to move, ascending."""
    if state.phase == Phase.PLACE:
        return _legal_placements(state)
    return [a for a in _candidates(state) if illegal_reason(state, a) is None]


def _legal_placements(state: State) -> list[int]:
    hand = state.hands[state.seat].tolist()
    sizes = works(state, state.seat).build_sizes()
    allowed = {}  # required colour -> card options the colour rule allows
    actions = []
    for t, target in enumerate(TARGETS):
        required = state.area_colour[target.area]
        if required not in allowed:
            allowed[required] = allowed_card_options(hand, required)
        if allowed[required] and target_reason(state, t, sizes) is None:
            actions += [encode(Group.PLACE, t, o) for o in allowed[required]]
    coloured = [b for b in range(N_CARD_COLOURS) if hand[b] > 0]
    return actions + [encode(Group.PLACE_COLOURED, b) for b in coloured]


def allowed_card_options(hand: list[int], required: int) -> list[int]:
    """The card options (R3.2, R3.3) a hand may place in an area requiring `required`."""
    return [
        o
        for o, colours in enumerate(CARD_OPTIONS)
        if _holds(hand, colours) and _follows(required, colours)
    ]


def _holds(hand: list[int], colours: tuple[int, ...]) -> bool:
    return (
        hand[colours[0]] >= 1 + (len(colours) == 2 and colours[0] == colours[1])
        and hand[colours[-1]] >= 1
    )


def _follows(required: int, colours: tuple[int, ...]) -> bool:
    if len(colours) == 2:
        return required != -1
    return required in (-1, colours[0])


def _candidates(state: State) -> list[int]:
    """Action ids worth checking in the current sub-decision (a superset of the legal ones)."""
    s = state.seat
    if state.phase in (Phase.BUY, Phase.GIFT_BUY):
        return [
            encode(Group.BUY, state.market, c, g)
            for c in range(N_TILE_COLOURS)
            for g in range(N_GOLD)
        ]
    if state.phase == Phase.BRIBE_STACK:
        return [encode(Group.BRIBE_STACK, p) for p in range(N_PARTS)]
    if state.phase == Phase.BRIBE_TAKE:
        take = [
            encode(Group.BRIBE_TAKE, state.bribe_stack, c, g)
            for c in range(N_TILE_COLOURS)
            for g in range(N_GOLD)
        ]
        return take + [encode(Group.BRIBE_NOTHING)]
    if state.phase == Phase.LIGHTS_OPTION:
        return [encode(Group.LIGHTS_OPTION, o) for o in range(len(LIGHTS_OPTIONS))]
    if state.phase in (Phase.LIGHTS_KEEP, Phase.GIFT_LIGHTS):
        return [encode(Group.LIGHTS_KEEP, c) for c in range(N_TILE_COLOURS)]
    if state.phase == Phase.GENIE:
        return [encode(Group.GENIE_MOVE, m) for m in range(len(GENIE_MOVES))]
    if state.phase == Phase.GIFT_CARD:
        return [encode(Group.GIFT_CARD, b) for b in range(N_CARD_COLOURS)]
    if state.phase == Phase.BUILD:
        return _build_candidates(state, s)
    return []


def _build_candidates(state: State, s: int) -> list[int]:
    out = []
    for part in range(N_PARTS):
        for colour in range(N_TILE_COLOURS):
            for gold in range(N_GOLD):
                if state.supply[s, part, colour, gold]:
                    slots = range(min(len(state.towers[s][colour]) + 1, MAX_TOWERS_PER_COLOUR))
                    out += [encode(Group.BUILD_TILE, part, colour, gold, k) for k in slots]
    for colour in range(N_TILE_COLOURS):
        if state.lighted_supply[s, colour]:
            for k in range(len(state.towers[s][colour])):
                out += [encode(Group.BUILD_LIGHTED, colour, k, g) for g in range(N_GOLD)]
    return sorted(out)
