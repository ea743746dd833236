"""The reference engine: set-up, turns, moves, years and scoring of one game (R3-R8).

    state = new_game(GameConfig(num_players=3, variant="pro"), seed=7)
    while not state.is_over:
        step(state, legal_actions(state)[0])
    state.prestige, winners(state)

`step` checks the action first and raises `IllegalActionError` (state untouched) if it is
not legal; otherwise it applies it and runs every automatic consequence (end of turn, end
of year, scoring, the next year's set-up) up to the next decision.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from asara_env.asara.actions import (
    CARD_OPTIONS,
    GENIE_MOVES,
    TARGETS,
    Group,
    action_id,
    decode,
    describe_action,
)
from asara_env.asara.config import GameConfig
from asara_env.asara.constants import (
    CARDS_PER_COLOUR,
    COLOURED_BUILDING_ASARI,
    DISPLAY_SIZE,
    GIFT_AMOUNT,
    GIFT_EFFECT,
    HAND_SIZE,
    LIGHTED_GIFT_COST,
    LIGHTED_PER_COLOUR,
    LIGHTS_OPTIONS,
    MARKET_AREAS,
    N_CARD_COLOURS,
    N_PARTS,
    N_TILE_COLOURS,
    N_YEARS,
    PRICE,
    RECRUIT_CARDS,
    SPACE_VALUES,
    START_MONEY_FIRST,
    YEARLY_MONEY,
    Area,
    GiftEffect,
    chests_in_play,
    gift_pile,
)
from asara_env.asara.phases import Phase
from asara_env.asara.reference import chance, scoring
from asara_env.asara.reference.build import place_lighted, place_tile
from asara_env.asara.reference.rules import (
    chest_at,
    genie_space,
    illegal_reason,
    legal_actions,
    target_space,
    works,
)
from asara_env.asara.reference.state import Buyer, State, empty_state
from asara_env.common.errors import IllegalActionError
from asara_env.common.validate import check_seed, check_type


def new_game(
    config: GameConfig | None = None, seed: int | np.random.Generator | None = None
) -> State:
    """A game set up for year 1 (R6.1). `seed` (an int from 0 to 2**64 - 1, a Generator, or
    None for fresh entropy) seeds the game's `numpy.random.Generator`."""
    config = GameConfig() if config is None else check_type("config", config, GameConfig)
    if not (seed is None or isinstance(seed, np.random.Generator)):
        seed = check_seed("seed", seed)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    state = empty_state(config, rng)
    p = config.num_players
    for k in range(p):
        state.money[(config.start_seat + k) % p] = START_MONEY_FIRST + k
    if config.pro:
        colours = chance.shuffled(rng, np.full(N_TILE_COLOURS, LIGHTED_PER_COLOUR))
        state.lighted_stack = [[int(c), -1] for c in colours]
    if config.has_gifts:
        state.gift_pile = np.array(gift_pile(config.pro), np.int64)
    _deal_and_refill(state)
    return state


def step(state: State, action: int) -> None:
    """Apply one legal action of the player to move (see module docstring)."""
    action = action_id(action)
    reason = illegal_reason(state, action)
    if reason is not None:
        raise IllegalActionError(
            state.seat, action, describe_action(action), state.phase.name, reason
        )
    group, fields = decode(action)
    state.decisions += 1
    APPLY[group](state, *fields)


def _apply_place(state: State, t: int, option: int) -> None:
    target = TARGETS[t]
    space = target_space(state, target)
    assert space is not None  # the action is legal: a vacant space exists
    colours = CARD_OPTIONS[option]
    face_up = len(colours) == 1
    for b in colours:
        state.hands[state.seat, b] -= 1
    state.spaces[target.area][space] = Buyer(state.seat, colours, face_up)
    if face_up and state.area_colour[target.area] == -1:
        state.area_colour[target.area] = colours[0]
    chest = chest_at(state, target.area, space)
    if chest is not None and state.gifts[chest]:  # R9.2: the gifts first, in the order laid
        state.gift_queue, state.gifts[chest] = state.gifts[chest], []
        state.gift_chest, state.pending_target, state.pending_space = chest, t, space
        _carry_out_gifts(state)
    else:
        _start_move(state, target.area, space, target.arg)


# the decision each gift effect asks for (the others are carried out at once)
_GIFT_PHASE = {
    GiftEffect.CARD: Phase.GIFT_CARD,
    GiftEffect.BUY: Phase.GIFT_BUY,
    GiftEffect.LIGHTED: Phase.GIFT_LIGHTS,
}


def _carry_out_gifts(state: State) -> None:
    """Carry out the waiting gifts in order (R9.2) until one asks for a decision that has
    a legal choice (one without does nothing); then the move of the space itself."""
    s = state.seat
    while state.gift_queue:
        kind = state.gift_queue.pop(0)
        effect, amount = GiftEffect(GIFT_EFFECT[kind]), GIFT_AMOUNT[kind]
        if effect == GiftEffect.ASARI:
            state.money[s] += amount
        elif effect == GiftEffect.PRESTIGE:
            state.prestige[s] += amount
        else:
            state.phase = _GIFT_PHASE[effect]
            state.market = amount if effect == GiftEffect.BUY else -1
            if legal_actions(state):
                return
    state.market = -1
    target, space = TARGETS[state.pending_target], state.pending_space
    state.gift_chest = state.pending_target = state.pending_space = -1
    _start_move(state, target.area, space, target.arg)


def _apply_place_coloured(state: State, card: int) -> None:
    state.hands[state.seat, card] -= 1
    state.coloured.append(Buyer(state.seat, (card,), False))
    state.coloured.sort(key=lambda b: (b.seat, b.cards))  # the order carries no information
    state.money[state.seat] += COLOURED_BUILDING_ASARI  # R4.4
    _end_turn(state)


def _start_move(state: State, area: Area, space: int, arg: int | None) -> None:
    """The move of the space the buyer was placed on (R4, R7)."""
    s = state.seat
    value = SPACE_VALUES[area][space]
    if area in MARKET_AREAS:
        state.market, state.phase = int(area), Phase.BUY
    elif area == Area.BUILDING:
        assert arg is not None  # plot n builds n tiles
        state.money[s] -= value
        state.build_left, state.phase = arg, Phase.BUILD
    elif area == Area.BANK:
        state.money[s] += value
        _end_turn(state)
    elif area == Area.SPIES:
        state.money[s] -= value
        state.phase = Phase.BRIBE_STACK
    elif area == Area.CALIPH:
        state.caliph = s
        _end_turn(state)
    elif area == Area.TENT:
        state.money[s] -= value
        state.hands[s] += chance.draw_many(state.rng, state.draw_pile, RECRUIT_CARDS)
        _end_turn(state)
    elif area == Area.LIGHTS:
        state.phase = Phase.LIGHTS_OPTION
    elif area == Area.GENIE:
        state.money[s] -= value
        state.phase = Phase.GENIE
    else:
        raise AssertionError(f"no move for area {area!r}")


# ------------------------------------------------------------------------------ moves (R4, R7)
def _apply_buy(state: State, part: int, colour: int, gold: int) -> None:
    state.displays[part, colour, gold] -= 1
    _take_tile(state, part, colour, gold)
    if state.phase == Phase.GIFT_BUY:
        _carry_out_gifts(state)
    else:
        _end_turn(state)


def _apply_genie_move(state: State, move: int) -> None:
    m = GENIE_MOVES[move]  # R9.1: no second buyer is placed
    if m.area is None:
        state.money[state.seat] += COLOURED_BUILDING_ASARI
        _end_turn(state)
    else:
        _start_move(state, m.area, genie_space(m), m.arg)


def _apply_gift_card(state: State, card: int) -> None:
    state.draw_pile[card] -= 1
    state.hands[state.seat, card] += 1
    _carry_out_gifts(state)


def _keep_gift_window(state: State, colour: int) -> None:
    """R9.2: keep a window of the stack looked through, pay for it; the stack is then
    shuffled [decision], so nobody knows the order of what is left."""
    counts = np.bincount([c for c, _ in state.lighted_stack], minlength=N_TILE_COLOURS)
    counts[colour] -= 1
    state.lighted_stack = [[int(c), -1] for c in chance.shuffled(state.rng, counts)]
    state.lighted_supply[state.seat, colour] += 1
    state.money[state.seat] -= LIGHTED_GIFT_COST
    _carry_out_gifts(state)


def _apply_bribe_stack(state: State, part: int) -> None:
    state.bribe_stack, state.phase = part, Phase.BRIBE_TAKE


def _apply_bribe_take(state: State, part: int, colour: int, gold: int) -> None:
    state.stacks[part, colour, gold] -= 1  # the stack is then shuffled: a multiset already
    _take_tile(state, part, colour, gold)
    _end_turn(state)


def _apply_bribe_nothing(state: State) -> None:
    _end_turn(state)


def _take_tile(state: State, part: int, colour: int, gold: int) -> None:
    state.supply[state.seat, part, colour, gold] += 1
    state.money[state.seat] -= PRICE[colour]


def _apply_lights_option(state: State, option: int) -> None:
    cost, drawn, kept = LIGHTS_OPTIONS[option]
    state.money[state.seat] -= cost
    taken, state.lighted_stack = state.lighted_stack[:drawn], state.lighted_stack[drawn:]
    state.lights_drawn = [colour for colour, _ in taken]
    state.lights_keep = min(kept, len(taken))
    state.phase = Phase.LIGHTS_KEEP


def _apply_lights_keep(state: State, colour: int) -> None:
    if state.phase == Phase.GIFT_LIGHTS:
        _keep_gift_window(state, colour)
        return
    state.lights_drawn.remove(colour)
    state.lighted_supply[state.seat, colour] += 1
    state.lights_keep -= 1
    if state.lights_keep == 0:
        state.lighted_stack += [[c, state.seat] for c in state.lights_drawn]
        state.lights_drawn = []
        _end_turn(state)


def _apply_build_tile(state: State, part: int, colour: int, gold: int, slot: int) -> None:
    place_tile(works(state, state.seat), part, colour, gold, slot)
    _built_one(state)


def _apply_build_lighted(state: State, colour: int, slot: int, over_gold: int) -> None:
    place_lighted(works(state, state.seat), colour, slot, over_gold)
    _built_one(state)


def _built_one(state: State) -> None:
    state.prestige[state.seat] += 1  # R4.2: one prestige per tile built
    state.build_left -= 1
    if state.build_left == 0:
        _end_turn(state)


APPLY: dict[Group, Callable[..., None]] = {
    Group.PLACE: _apply_place,
    Group.PLACE_COLOURED: _apply_place_coloured,
    Group.BUY: _apply_buy,
    Group.BRIBE_STACK: _apply_bribe_stack,
    Group.BRIBE_TAKE: _apply_bribe_take,
    Group.BRIBE_NOTHING: _apply_bribe_nothing,
    Group.LIGHTS_OPTION: _apply_lights_option,
    Group.LIGHTS_KEEP: _apply_lights_keep,
    Group.BUILD_TILE: _apply_build_tile,
    Group.BUILD_LIGHTED: _apply_build_lighted,
    Group.GENIE_MOVE: _apply_genie_move,
    Group.GIFT_CARD: _apply_gift_card,
}


# -------------------------------------------------------------------- turns and years (R5, R6)
def _end_turn(state: State) -> None:
    state.phase, state.market, state.bribe_stack = Phase.PLACE, -1, -1
    p = state.num_players
    for k in range(1, p + 1):
        nxt = (state.seat + k) % p
        if state.hands[nxt].sum() > 0:  # R5.2: players without cards are skipped
            state.seat = nxt
            return
    _end_year(state)


def _end_year(state: State) -> None:
    for s in range(state.num_players):  # R6.2
        state.prestige[s] += scoring.year_end_points(state.towers[s], state.caliph == s)
    if state.year == N_YEARS:
        _final_scoring(state)
        return
    state.year += 1
    _clear_board(state)
    for s in range(state.num_players):
        state.money[s] += YEARLY_MONEY
    _deal_and_refill(state)
    state.seat = state.caliph  # R6.3


def _clear_board(state: State) -> None:
    state.area_colour = [-1] * len(state.area_colour)
    state.spaces = [[None] * len(area) for area in state.spaces]
    state.coloured = []


def _deal_and_refill(state: State) -> None:
    """Deal all 45 cards afresh (seat 0 first), then refill the displays (R6.1, R6.3)."""
    deck = np.full(N_CARD_COLOURS, CARDS_PER_COLOUR)
    state.hands[:] = chance.deal(state.rng, deck, state.num_players, HAND_SIZE[state.num_players])
    state.draw_pile = deck
    for part in range(N_PARTS):
        empty = DISPLAY_SIZE[part] - int(state.displays[part].sum())
        state.displays[part] += chance.take_top(state.rng, state.stacks[part], empty)
    if state.config.has_gifts:
        _lay_gifts(state)


def _lay_gifts(state: State) -> None:
    """R9.2: one gift from the shuffled pile face up on every chest space in play, on top
    of any gift still there (chests in CHEST_SPACES order)."""
    chests = chests_in_play(state.config.pro)
    for chest, kind in zip(chests, chance.shuffled(state.rng, state.gift_pile)):
        state.gifts[chest].append(int(kind))
        state.gift_pile[kind] -= 1


def _final_scoring(state: State) -> None:
    state.final = scoring.final_scoring(state.towers, state.money, state.config.pro)
    for s, points in enumerate(state.final):
        state.prestige[s] += points["total"]
    state.phase = Phase.GAME_OVER


def winners(state: State) -> list[int]:
    """The winning seats of a finished game (R8.5)."""
    if not state.is_over:
        raise ValueError("the game is not over")
    return scoring.winners(state.prestige)


__all__ = ["new_game", "step", "legal_actions", "winners", "GameConfig"]
