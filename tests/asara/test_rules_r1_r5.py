"""Rule tests for docs/asara/rules.md R1-R5: components, board, placement, moves, turn order.

Every test builds a small hand-made position (tests/asara/helpers.py), plays moves through the
reference engine and checks what the rule says. Numbers are written out as
docs/asara/rules.md states them (not read from asara_env.asara.constants), so a wrong
constant makes a test fail.
"""

from __future__ import annotations

import numpy as np
import pytest

from asara_env import GameConfig
from asara_env.asara.actions import CARD_OPTIONS, TARGETS, Group, decode, encode
from asara_env.asara.constants import Area
from asara_env.asara.phases import Phase
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.serialize import state_to_dict
from asara_env.asara.reference.view import seat_view
from asara_env.common.errors import IllegalActionError
from tests.asara.helpers import (
    BASE,
    TRUNK,
    TURRET,
    WINDOW,
    act,
    add_tower,
    empty_hands,
    give_lighted,
    give_tile,
    legal,
    new,
    put_buyer,
    set_display,
    set_hand,
    sound,
)

# Tile colours (R1) and buyer-card colours (R1): they are unrelated.
BROWN, GREEN, RED, BLACK, WHITE = range(5)
BLUE, YELLOW, VIOLET, CGREEN, ORANGE = range(5)
PARTS = (BASE, TRUNK, WINDOW, TURRET)
PART_WORDS = ("base", "trunk", "window", "turret")


# ------------------------------------------------------------------------------ helpers
def target(name: str) -> int:
    """The placement target index named `name` (e.g. 'bank 12', 'build 3')."""
    return next(i for i, t in enumerate(TARGETS) if t.name == name)


MARKET = {part: target(f"the {name}s market") for part, name in zip(PARTS, PART_WORDS)}
BANK = {v: target(f"bank {v}") for v in (8, 10, 12)}
SPIES = {v: target(f"spies {v}") for v in (3, 5)}
TENT = {v: target(f"tent {v}") for v in (0, 2, 4)}
CALIPH = target("the Caliph")
LIGHTS = target("the lighted windows")


def build_target(n: int) -> int:
    return target(f"build {n}")


def pair(a: int, b: int) -> int:
    """The card option of a face-down pair of card colours a and b."""
    return CARD_OPTIONS.index(tuple(sorted((a, b))))


def position(players: int = 2, hands=None, money=None, **kw):
    """A fresh game (seat 0 to move) with chosen hands (default 2,2,2,2,1 each) and money."""
    state = new(players, **kw)
    empty_hands(state, *range(players))
    for s in range(players):
        set_hand(state, s, (hands or {}).get(s, [2, 2, 2, 2, 1]))
    for s, m in (money or {}).items():
        state.money[s] = m
    sound(state)
    return state


def place(state, t: int, option: int) -> None:
    act(state, Group.PLACE, t, option)


def build_tile(state, part: int, colour: int, slot: int, gold: int = 0) -> None:
    act(state, Group.BUILD_TILE, part, colour, gold, slot)


def brown_tower_kit(state, seat: int = 0, trunks: int = 0, windows: int = 0) -> None:
    """Put a brown base, a brown turret and some brown trunks/windows in the supply."""
    give_tile(state, seat, BASE, BROWN)
    give_tile(state, seat, TURRET, BROWN)
    give_tile(state, seat, TRUNK, BROWN, n=trunks)
    give_tile(state, seat, WINDOW, BROWN, n=windows)


def assert_illegal(state, group: Group, *fields: int) -> None:
    """The action is not offered, `step` raises IllegalActionError, and nothing changes."""
    assert not legal(state, group, *fields)
    before = state_to_dict(state)
    with pytest.raises(IllegalActionError):
        act(state, group, *fields)
    assert state_to_dict(state) == before


def groups_offered(state) -> set[Group]:
    return {decode(a)[0] for a in legal_actions(state)}


def all_tiles(state) -> np.ndarray:
    """int[part, colour, gold] of every tile outside the players' hands at set-up."""
    return state.stacks + state.displays


# ------------------------------------------------------------------------------ R1 components
@pytest.mark.parametrize("players", [1, 5])
def test_R1_two_to_four_players(players):
    """R1: players 2, 3 or 4."""
    with pytest.raises(ValueError):
        GameConfig(num_players=players)
    for ok in (2, 3, 4):
        assert new(ok).num_players == ok


def test_R1_tiles_per_colour_4_bases_4_trunks_5_windows_4_turrets():
    """R1: tiles per colour: 4 bases, 4 trunks, 5 windows, 4 turrets (totals 20/20/25/20)."""
    tiles = all_tiles(new(2)).sum(axis=2)  # [part, colour]
    assert tiles[BASE].tolist() == [4] * 5
    assert tiles[TRUNK].tolist() == [4] * 5
    assert tiles[WINDOW].tolist() == [5] * 5
    assert tiles[TURRET].tolist() == [4] * 5
    assert tiles.sum(axis=1).tolist() == [20, 20, 25, 20]


def test_R1_one_gold_tile_of_each_part_in_each_colour():
    """R1: exactly 1 gold-decorated tile of each part type in each colour (20 gold tiles)."""
    gold = all_tiles(new(3))[:, :, 1]
    assert (gold == 1).all()
    assert gold.sum() == 20


def test_R1_buyer_cards_45_nine_of_each_colour():
    """R1: 45 buyer cards, 9 in each of 5 colours."""
    state = new(4)
    cards = state.hands.sum(axis=0) + state.draw_pile
    assert cards.tolist() == [9] * 5


@pytest.mark.parametrize("players,hand", [(2, 9), (3, 8), (4, 7)])
def test_R1_cards_dealt_per_player(players, hand):
    """R1: cards dealt per player each year: 2 players 9, 3 players 8, 4 players 7."""
    state = new(players)
    assert state.hands.sum(axis=1).tolist() == [hand] * players
    assert state.draw_pile.sum() == 45 - hand * players


def test_R1_display_sizes_at_set_up():
    """R2/R6.1: display size bases 7, trunks 7, windows 8, turrets 7, filled face up."""
    for seed in range(3):
        displays = new(2, seed=seed).displays
        assert [int(displays[p].sum()) for p in PARTS] == [7, 7, 8, 7]


def test_R1_lighted_windows_pro_only_three_per_colour():
    """R1: lighted windows (pro only): 15, 3 per colour."""
    pro = new(2, variant="pro")
    colours = [c for c, _ in pro.lighted_stack]
    assert len(colours) == 15
    assert [colours.count(c) for c in range(5)] == [3] * 5
    basic = new(2)
    assert basic.lighted_stack == []
    assert basic.lighted_supply.sum() == 0


@pytest.mark.parametrize("colour,price", [(BROWN, 2), (GREEN, 4), (RED, 5), (BLACK, 6), (WHITE, 8)])
def test_R1_tile_prices_by_colour(colour, price):
    """R1: prices brown 2, green 4, red 5, black 6, white 8."""
    state = position(money={0: 20})
    set_display(state, TRUNK, {(colour, 0): 1, (BROWN, 1): 1})
    sound(state)
    place(state, MARKET[TRUNK], BLUE)
    act(state, Group.BUY, TRUNK, colour, 0)
    assert state.money[0] == 20 - price
    assert state.supply[0, TRUNK, colour, 0] == 1


def test_R1_money_supply_is_unlimited():
    """R1: unlimited supply of Asari (the coins are not a limit)."""
    state = position(money={0: 100_000})
    place(state, BANK[12], BLUE)
    assert state.money[0] == 100_012


# ------------------------------------------------------------------------------ R2 board
def test_R2_market_area_has_four_spaces():
    """R2: 4 market areas with 4 spaces each; a space buys 1 face-up tile of that part."""
    hand = [3, 1, 0, 0, 0]
    state = position(hands={0: hand, 1: hand}, money={0: 50, 1: 50})
    set_display(state, BASE, {(BROWN, 0): 3, (BROWN, 1): 1, (GREEN, 0): 3})
    for _ in range(4):
        place(state, MARKET[BASE], BLUE)
        act(state, Group.BUY, BASE, BROWN, 0 if state.displays[BASE, BROWN, 0] else 1)
    assert [b is not None for b in state.spaces[Area.MARKET_BASE]] == [True] * 4
    assert state.displays[BASE, GREEN, 0] == 3  # tiles remain, but no space is left
    assert state.hands[0, BLUE] == 1
    assert_illegal(state, Group.PLACE, MARKET[BASE], BLUE)
    assert legal(state, Group.PLACE, MARKET[TRUNK], BLUE)


@pytest.mark.parametrize("value", [8, 10, 12])
def test_R2_bank_spaces_pay_8_10_12(value):
    """R2/R4.3: bank: 3 spaces, 8, 10, 12 Asari; the player chooses any vacant space."""
    state = position(money={0: 20})
    place(state, BANK[value], BLUE)
    assert state.money[0] == 20 + value
    assert state.seat == 1 and state.phase == Phase.PLACE


def test_R2_bank_has_exactly_three_spaces_whatever_the_number_of_players():
    """R2: bank 3 spaces; the number of spaces does not depend on the number of players."""
    state = position(players=2)
    put_buyer(state, Area.BANK, 0, 1, (BLUE,), True)
    put_buyer(state, Area.BANK, 1, 1, (BLUE,), True)
    sound(state)
    assert legal(state, Group.PLACE, BANK[12], BLUE)
    place(state, BANK[12], BLUE)
    assert state.money[0] == 20 + 12
    for v in (8, 10, 12):
        assert_illegal(state, Group.PLACE, BANK[v], BLUE)


def test_R2_building_circle_has_plots_1_to_7():
    """R2: building circle: 7 plots, numbered 1-7; plot number = cost = tiles to build."""
    state = position(hands={0: [1, 0, 0, 0, 0], 1: [1, 0, 0, 0, 0]}, money={0: 50})
    give_tile(state, 0, BASE, BROWN)
    give_tile(state, 0, TURRET, BROWN)
    for plot in range(3, 8):  # plots 3..7 taken: build 2 still has plot 2
        put_buyer(state, Area.BUILDING, plot - 1, 1, (BLUE,), True)
    sound(state)
    assert legal(state, Group.PLACE, build_target(2), BLUE)
    put_buyer(state, Area.BUILDING, 1, 1, (BLUE,), True)  # plot 2 taken too: no plot >= 2
    assert_illegal(state, Group.PLACE, build_target(2), BLUE)


def test_R2_house_of_spies_spaces_cost_3_and_5():
    """R2: House of Spies: 2 spaces, cost 3 and 5."""
    for cost in (3, 5):
        state = position(money={0: 20})
        place(state, SPIES[cost], BLUE)
        assert state.money[0] == 20 - cost
        assert state.phase == Phase.BRIBE_STACK


def test_R2_caliph_has_one_space():
    """R2: Caliph's patronage: 1 space."""
    state = position()
    put_buyer(state, Area.CALIPH, 0, 1, (BLUE,), True)
    sound(state)
    assert_illegal(state, Group.PLACE, CALIPH, BLUE)


def test_R2_pro_areas_absent_in_basic():
    """R2: tent (pro) and House of the Lighted Windows (pro) are not on the basic board."""
    basic = position(money={0: 50})
    for t in (*TENT.values(), LIGHTS):
        assert_illegal(basic, Group.PLACE, t, BLUE)
    pro = position(money={0: 50}, variant="pro")
    for t in (*TENT.values(), LIGHTS):
        assert legal(pro, Group.PLACE, t, BLUE)


def test_R2_tent_spaces_cost_0_2_4():
    """R2: tent (pro): 3 spaces, cost 0, 2, 4."""
    for cost in (0, 2, 4):
        state = position(money={0: 20}, variant="pro")
        place(state, TENT[cost], BLUE)
        assert state.money[0] == 20 - cost


def test_R2_house_of_lighted_windows_has_three_spaces():
    """R2: House of the Lighted Windows (pro): 3 spaces."""
    state = position(money={0: 50}, variant="pro")
    for space in range(2):
        put_buyer(state, Area.LIGHTS, space, 1, (BLUE,), True)
    sound(state)
    assert legal(state, Group.PLACE, LIGHTS, BLUE)
    put_buyer(state, Area.LIGHTS, 2, 1, (BLUE,), True)
    assert_illegal(state, Group.PLACE, LIGHTS, BLUE)


# ------------------------------------------------------------------------------ R3 placement
def test_R3_1_placement_needs_a_vacant_space():
    """R3.1: a player places buyer cards from their hand on one vacant space."""
    state = position()
    put_buyer(state, Area.BANK, 2, 1, (BLUE,), True)  # bank 12 is taken
    sound(state)
    assert_illegal(state, Group.PLACE, BANK[12], BLUE)
    place(state, BANK[10], BLUE)
    assert state.spaces[Area.BANK][1].seat == 0


def test_R3_1_illegal_placement_raises_and_changes_nothing():
    """R3.1: only a vacant space; an illegal placement raises IllegalActionError and leaves
    the state as it was."""
    state = position()
    put_buyer(state, Area.SPIES, 0, 1, (BLUE,), True)
    sound(state)
    before = state_to_dict(state)
    with pytest.raises(IllegalActionError) as error:
        place(state, SPIES[3], BLUE)
    assert error.value.seat == 0
    assert state_to_dict(state) == before
    place(state, SPIES[5], BLUE)  # the state is still playable
    assert state.money[0] == 20 - 5


def test_R3_1_placed_cards_leave_the_hand():
    """R3.1: the buyer cards placed come from the player's hand."""
    state = position(hands={0: [1, 1, 0, 0, 0]})
    place(state, BANK[8], YELLOW)
    assert state.hands[0].tolist() == [1, 0, 0, 0, 0]
    assert state.spaces[Area.BANK][0].cards == (YELLOW,)


def test_R3_1_cards_not_in_hand_cannot_be_placed():
    """R3.1: cards come from the player's own hand."""
    state = position(hands={0: [1, 0, 0, 0, 0]})
    assert_illegal(state, Group.PLACE, BANK[8], YELLOW)
    assert_illegal(state, Group.PLACE_COLOURED, YELLOW)


def test_R3_2_first_card_of_an_area_may_be_any_colour():
    """R3.2: in an area with no face-up card yet, one card of any colour may be placed."""
    state = position(hands={0: [1, 1, 1, 1, 1]})
    for colour in range(5):
        assert legal(state, Group.PLACE, BANK[8], colour)


def test_R3_2_face_up_card_sets_required_colour():
    """R3.2: that colour becomes the area's required colour; a face-up card must match."""
    state = position()
    place(state, BANK[8], VIOLET)
    assert state.seat == 1
    assert_illegal(state, Group.PLACE, BANK[10], BLUE)
    assert_illegal(state, Group.PLACE, BANK[12], ORANGE)
    place(state, BANK[10], VIOLET)
    assert state.money[1] == 21 + 10


def test_R3_2_required_colour_belongs_to_one_area():
    """R3.2: the colour rule holds per area: other areas are not constrained."""
    state = position(money={0: 20, 1: 20})
    place(state, BANK[8], VIOLET)
    place(state, SPIES[3], ORANGE)  # seat 1, another area: any colour
    act(state, Group.BRIBE_STACK, BASE)
    act(state, Group.BRIBE_NOTHING)
    assert state.seat == 0
    assert legal(state, Group.PLACE, CALIPH, BLUE)
    assert_illegal(state, Group.PLACE, SPIES[5], BLUE)


def test_R3_2_each_market_is_its_own_area():
    """R2/R3.2: the four markets are four areas, each with its own required colour."""
    state = position(money={0: 20, 1: 20})
    set_display(state, BASE, {(BROWN, 0): 2})
    set_display(state, TRUNK, {(BROWN, 0): 2})
    sound(state)
    place(state, MARKET[BASE], BLUE)
    act(state, Group.BUY, BASE, BROWN, 0)
    assert_illegal(state, Group.PLACE, MARKET[BASE], YELLOW)
    place(state, MARKET[TRUNK], YELLOW)
    assert state.area_colour[Area.MARKET_TRUNK] == YELLOW


def test_R3_2_building_circle_is_one_area():
    """R2/R3.2: the 7 plots are one area: the first face-up card binds every plot."""
    state = position(money={0: 20, 1: 20})
    brown_tower_kit(state, seat=0)
    give_tile(state, 1, BASE, GREEN)
    give_tile(state, 1, TURRET, GREEN)
    sound(state)
    place(state, build_target(2), BLUE)
    build_tile(state, BASE, BROWN, 0)
    build_tile(state, TURRET, BROWN, 0)
    assert_illegal(state, Group.PLACE, build_target(2), YELLOW)  # goes to plot 3
    place(state, build_target(2), BLUE)
    assert state.spaces[Area.BUILDING][2].seat == 1


def test_R3_2_required_colour_binds_the_player_who_set_it():
    """R3.2: the required colour holds for the rest of the year, for everyone."""
    state = position()
    place(state, BANK[8], BLUE)
    place(state, CALIPH, YELLOW)
    assert state.seat == 0
    assert_illegal(state, Group.PLACE, BANK[12], YELLOW)
    assert legal(state, Group.PLACE, BANK[12], BLUE)


def test_R3_3_face_down_pair_of_any_colours_where_a_colour_is_required():
    """R3.3: instead of a face-up card of the required colour, any two cards face down."""
    state = position(hands={0: [0, 1, 0, 0, 1]})
    put_buyer(state, Area.BANK, 0, 1, (BLUE,), True)  # bank requires blue
    sound(state)
    assert_illegal(state, Group.PLACE, BANK[12], YELLOW)
    place(state, BANK[12], pair(YELLOW, ORANGE))
    buyer = state.spaces[Area.BANK][2]
    assert (buyer.seat, buyer.cards, buyer.face_up) == (0, (YELLOW, ORANGE), False)
    assert state.hands[0].sum() == 0
    assert state.money[0] == 20 + 12


def test_R3_3_face_down_pair_may_include_the_required_colour():
    """R3.3: 'any two cards' face down, the required colour included."""
    state = position(hands={0: [2, 0, 0, 0, 0]})
    put_buyer(state, Area.BANK, 0, 1, (BLUE,), True)
    sound(state)
    assert legal(state, Group.PLACE, BANK[10], pair(BLUE, BLUE))


def test_R3_3_no_face_down_pair_without_a_required_colour():
    """R3.3: a pair is only allowed where a colour is required; the first card is face up."""
    state = position()
    assert state.area_colour[Area.BANK] == -1
    assert_illegal(state, Group.PLACE, BANK[8], pair(BLUE, YELLOW))
    assert_illegal(state, Group.PLACE, BANK[8], pair(BLUE, BLUE))


def test_R3_3_face_down_pair_never_changes_the_required_colour():
    """R3.3: a face-down pair never changes the required colour."""
    state = position()
    put_buyer(state, Area.BANK, 0, 1, (VIOLET,), True)
    sound(state)
    place(state, BANK[10], pair(BLUE, YELLOW))
    assert state.area_colour[Area.BANK] == VIOLET
    assert_illegal(state, Group.PLACE, BANK[12], BLUE)  # seat 1: blue is still not allowed
    assert legal(state, Group.PLACE, BANK[12], VIOLET)


def test_R3_3_one_card_left_cannot_place_a_pair():
    """R3.3: a player with one card left cannot place a pair."""
    state = position(hands={0: [0, 0, 0, 1, 0]})
    put_buyer(state, Area.BANK, 0, 1, (BLUE,), True)
    sound(state)
    for b in range(5):
        assert_illegal(state, Group.PLACE, BANK[12], pair(CGREEN, b))
    assert legal(state, Group.PLACE_COLOURED, CGREEN)


def test_R3_3_pair_of_one_colour_needs_two_such_cards():
    """R3.3: the two cards of the pair both come from the hand."""
    state = position(hands={0: [0, 1, 0, 1, 0]})
    put_buyer(state, Area.BANK, 0, 1, (BLUE,), True)
    sound(state)
    assert_illegal(state, Group.PLACE, BANK[12], pair(YELLOW, YELLOW))
    assert legal(state, Group.PLACE, BANK[12], pair(YELLOW, CGREEN))


def test_R3_4_coloured_building_takes_one_card_face_down_any_number_of_times():
    """R3.4: the coloured building takes exactly one card, face down, of any colour,
    regardless of what lies there already, any number of times per year."""
    state = position(hands={0: [1, 1, 1, 0, 0], 1: [0, 0, 0, 2, 0]})
    act(state, Group.PLACE_COLOURED, BLUE)
    act(state, Group.PLACE_COLOURED, CGREEN)
    act(state, Group.PLACE_COLOURED, YELLOW)
    act(state, Group.PLACE_COLOURED, CGREEN)
    assert sorted((b.seat, b.cards, b.face_up) for b in state.coloured) == [
        (0, (BLUE,), False),
        (0, (YELLOW,), False),
        (1, (CGREEN,), False),
        (1, (CGREEN,), False),
    ]
    assert state.hands[0].tolist() == [0, 0, 1, 0, 0]
    assert legal(state, Group.PLACE_COLOURED, VIOLET)


def test_R3_4_coloured_building_ignores_required_colours():
    """R3.4: no colour rule at the coloured building."""
    state = position(hands={0: [0, 0, 0, 0, 1]})
    for area in (Area.BANK, Area.SPIES, Area.CALIPH):
        put_buyer(state, area, 0, 1, (BLUE,), True)
    sound(state)
    assert legal(state, Group.PLACE_COLOURED, ORANGE)


def test_R3_5_market_without_an_affordable_tile_is_illegal():
    """R3.5/R4.1: a market is only legal while its display has a tile the player can afford."""
    state = position(money={0: 7})
    set_display(state, BASE, {(WHITE, 0): 2, (WHITE, 1): 1})
    sound(state)
    assert_illegal(state, Group.PLACE, MARKET[BASE], BLUE)
    state.money[0] = 8
    assert legal(state, Group.PLACE, MARKET[BASE], BLUE)


def test_R3_5_market_with_an_empty_display_is_illegal():
    """R3.5: a placement is legal only if the move can be carried out (a tile to buy)."""
    state = position(money={0: 50})
    set_display(state, WINDOW, {})
    sound(state)
    assert_illegal(state, Group.PLACE, MARKET[WINDOW], BLUE)


def test_R3_5_build_needs_a_legal_build_of_exactly_n_tiles():
    """R3.5: build n is illegal without a legal build of exactly n tiles."""
    state = position(money={0: 50})
    give_tile(state, 0, BASE, BROWN)
    give_tile(state, 0, TURRET, BROWN)
    sound(state)
    assert legal(state, Group.PLACE, build_target(2), BLUE)
    for n in (1, 3, 4):
        assert_illegal(state, Group.PLACE, build_target(n), BLUE)
    give_tile(state, 0, TRUNK, BROWN)
    assert legal(state, Group.PLACE, build_target(3), BLUE)


def test_R3_5_build_needs_money_for_the_plot():
    """R3.5: the player can pay every cost the move requires (the plot's number)."""
    state = position(money={0: 1})
    give_tile(state, 0, BASE, BROWN)
    give_tile(state, 0, TURRET, BROWN)
    sound(state)
    assert_illegal(state, Group.PLACE, build_target(2), BLUE)
    state.money[0] = 2
    assert legal(state, Group.PLACE, build_target(2), BLUE)


def test_R3_5_build_needs_money_for_the_next_vacant_plot():
    """R3.5/R4.2: with plot n taken the player pays the next vacant plot's number."""
    state = position(money={0: 2})
    give_tile(state, 0, BASE, BROWN)
    give_tile(state, 0, TURRET, BROWN)
    put_buyer(state, Area.BUILDING, 1, 1, (BLUE,), True)  # plot 2 taken: build 2 uses plot 3
    sound(state)
    assert_illegal(state, Group.PLACE, build_target(2), BLUE)
    state.money[0] = 3
    assert legal(state, Group.PLACE, build_target(2), BLUE)


def test_R3_5_spies_need_the_space_cost():
    """R3.5: the House of Spies needs its cost (3 or 5)."""
    state = position(money={0: 2})
    for cost in (3, 5):
        assert_illegal(state, Group.PLACE, SPIES[cost], BLUE)
    state.money[0] = 3
    assert legal(state, Group.PLACE, SPIES[3], BLUE)
    assert_illegal(state, Group.PLACE, SPIES[5], BLUE)


def test_R3_5_coloured_building_is_always_legal():
    """R3.5: the coloured building is always legal for a player holding a card, so a player
    with cards always has a legal move."""
    state = position(hands={0: [0, 1, 0, 0, 0]}, money={0: 0})
    for space in range(3):
        put_buyer(state, Area.BANK, space, 1, (BLUE,), True)
    put_buyer(state, Area.CALIPH, 0, 1, (BLUE,), True)
    sound(state)
    assert legal_actions(state) == [encode(Group.PLACE_COLOURED, YELLOW)]


def test_R3_6_face_down_colours_known_only_to_their_owner():
    """R3.6: which cards a player placed face down is known only to that player."""
    state = position()
    put_buyer(state, Area.BANK, 0, 1, (BLUE,), True)
    sound(state)
    place(state, BANK[10], pair(YELLOW, VIOLET))
    act(state, Group.PLACE_COLOURED, ORANGE)  # seat 1, on the coloured building
    mine, theirs = seat_view(state, 0), seat_view(state, 1)
    assert mine["spaces"][Area.BANK][1]["cards"] == [YELLOW, VIOLET]
    assert theirs["spaces"][Area.BANK][1]["cards"] is None
    assert theirs["spaces"][Area.BANK][1]["n_cards"] == 2
    assert theirs["spaces"][Area.BANK][0]["cards"] == [BLUE]  # face up: public
    assert theirs["coloured"][0]["cards"] == [ORANGE]
    assert mine["coloured"][0]["cards"] is None


def test_R3_6_other_seats_cannot_tell_face_down_pairs_apart():
    """R3.6: two games differing only in seat 0's face-down colours look alike to seat 1."""

    def game(hand, cards):
        state = position(hands={0: hand})
        put_buyer(state, Area.BANK, 0, 1, (BLUE,), True)
        place(state, BANK[10], cards)
        return state

    a = game([1, 1, 0, 0, 1], pair(BLUE, YELLOW))
    b = game([0, 0, 1, 1, 1], pair(VIOLET, CGREEN))
    assert seat_view(a, 1) == seat_view(b, 1)
    assert seat_view(a, 0) != seat_view(b, 0)


# ------------------------------------------------------------------------------ R4.1 buy
def test_R4_1_buy_moves_a_display_tile_to_the_supply_for_its_price():
    """R4.1: take one face-up tile of the area's part type from its display, pay its price;
    bought tiles go behind the player's screen."""
    state = position(money={0: 20})
    set_display(state, WINDOW, {(RED, 0): 2, (BROWN, 0): 1})
    sound(state)
    place(state, MARKET[WINDOW], BLUE)
    act(state, Group.BUY, WINDOW, RED, 0)
    assert state.money[0] == 20 - 5
    assert state.displays[WINDOW, RED, 0] == 1
    assert state.supply[0, WINDOW, RED, 0] == 1
    assert state.supply[0].sum() == 1


def test_R4_1_gold_does_not_change_the_price():
    """R4.1: gold does not change the price."""
    state = position(money={0: 20})
    set_display(state, TURRET, {(BLACK, 1): 1})
    sound(state)
    place(state, MARKET[TURRET], BLUE)
    act(state, Group.BUY, TURRET, BLACK, 1)
    assert state.money[0] == 20 - 6
    assert state.supply[0, TURRET, BLACK, 1] == 1


def test_R4_1_buying_is_compulsory_and_only_of_the_markets_part():
    """R4.1: buying is compulsory in a market; the tile is of the area's part type."""
    state = position(money={0: 20})
    set_display(state, BASE, {(GREEN, 0): 1})
    sound(state)
    place(state, MARKET[BASE], BLUE)
    assert state.phase == Phase.BUY
    assert legal_actions(state) == [encode(Group.BUY, BASE, GREEN, 0)]
    assert_illegal(state, Group.BUY, TRUNK, GREEN, 0)
    assert_illegal(state, Group.PLACE_COLOURED, YELLOW)


def test_R4_1_only_affordable_display_tiles_can_be_bought():
    """R4.1: the player pays its colour's price."""
    state = position(money={0: 5})
    set_display(state, BASE, {(WHITE, 0): 1, (RED, 0): 1})
    sound(state)
    place(state, MARKET[BASE], BLUE)
    assert_illegal(state, Group.BUY, BASE, WHITE, 0)
    act(state, Group.BUY, BASE, RED, 0)
    assert state.money[0] == 0


def test_R4_1_displays_not_refilled_during_a_year():
    """R4.1: displays are not refilled during a year (R6.3)."""
    state = position(money={0: 20, 1: 20})
    set_display(state, TRUNK, {(BROWN, 0): 2})
    sound(state)
    place(state, MARKET[TRUNK], BLUE)
    act(state, Group.BUY, TRUNK, BROWN, 0)
    place(state, MARKET[TRUNK], BLUE)
    act(state, Group.BUY, TRUNK, BROWN, 0)
    assert state.displays[TRUNK].sum() == 0
    place(state, BANK[8], BLUE)
    assert state.year == 1
    assert state.displays[TRUNK].sum() == 0
    assert_illegal(state, Group.PLACE, MARKET[TRUNK], BLUE)  # seat 1: nothing to buy


# ------------------------------------------------------------------------------ R4.2 build
def test_R4_2_build_n_on_plot_n_pays_n_and_scores_n():
    """R4.2: the buyer goes on plot n if vacant; the player pays n, builds exactly n tiles,
    scoring n prestige at once."""
    state = position(money={0: 20})
    brown_tower_kit(state, trunks=1)
    sound(state)
    place(state, build_target(3), BLUE)
    assert state.spaces[Area.BUILDING][2].seat == 0
    assert state.money[0] == 20 - 3
    build_tile(state, BASE, BROWN, 0)
    build_tile(state, TRUNK, BROWN, 0)
    build_tile(state, TURRET, BROWN, 0)
    assert state.prestige[0] == 3
    assert state.towers[0][BROWN][0].height == 3
    assert state.seat == 1 and state.phase == Phase.PLACE


def test_R4_2_taken_plot_uses_the_lowest_vacant_higher_plot():
    """R4.2: otherwise the lowest vacant plot p > n; the player pays p and builds n tiles."""
    state = position(money={0: 20})
    brown_tower_kit(state, trunks=2)
    for plot in (2, 3):
        put_buyer(state, Area.BUILDING, plot - 1, 1, (BLUE,), True)
    sound(state)
    place(state, build_target(2), BLUE)
    assert state.spaces[Area.BUILDING][3].seat == 0  # plot 4
    assert state.spaces[Area.BUILDING][0] is None  # a lower vacant plot is not used
    assert state.money[0] == 20 - 4
    build_tile(state, BASE, BROWN, 0)
    build_tile(state, TURRET, BROWN, 0)
    assert state.prestige[0] == 2
    assert state.supply[0, TRUNK, BROWN].sum() == 2  # exactly n = 2 tiles were built
    assert state.seat == 1


def test_R4_2_no_vacant_plot_at_or_above_n():
    """R4.2: if no plot >= n is vacant, n cannot be chosen."""
    state = position(money={0: 50})
    brown_tower_kit(state, trunks=3)
    for plot in (5, 6, 7):
        put_buyer(state, Area.BUILDING, plot - 1, 1, (BLUE,), True)
    sound(state)
    assert_illegal(state, Group.PLACE, build_target(5), BLUE)
    assert legal(state, Group.PLACE, build_target(4), BLUE)


def test_R4_2_build_ends_after_exactly_n_tiles():
    """R4.2: the player builds exactly n tiles (not fewer, not more)."""
    state = position(money={0: 20})
    brown_tower_kit(state, trunks=1, windows=1)
    sound(state)
    place(state, build_target(2), BLUE)
    assert groups_offered(state) == {Group.BUILD_TILE}  # no stopping early
    build_tile(state, BASE, BROWN, 0)
    build_tile(state, TURRET, BROWN, 0)
    assert state.phase == Phase.PLACE and state.seat == 1
    assert state.supply[0, TRUNK, BROWN].sum() == 1
    assert state.supply[0, WINDOW, BROWN].sum() == 1


def test_R4_2_1_every_tower_has_one_colour():
    """R4.2.1: every tower has one colour (a brown base and a green turret make no tower)."""
    state = position(money={0: 20})
    give_tile(state, 0, BASE, BROWN)
    give_tile(state, 0, TURRET, GREEN)
    sound(state)
    assert_illegal(state, Group.PLACE, build_target(2), BLUE)


def test_R4_2_1_tiles_go_on_towers_of_their_own_colour():
    """R4.2.1: a green trunk cannot be added to a brown tower."""
    state = position(money={0: 20})
    add_tower(state, 0, BROWN)
    give_tile(state, 0, TRUNK, GREEN)
    sound(state)
    assert_illegal(state, Group.PLACE, build_target(1), BLUE)
    give_tile(state, 0, TRUNK, BROWN)
    place(state, build_target(1), BLUE)
    assert_illegal(state, Group.BUILD_TILE, TRUNK, GREEN, 0, 0)  # no green tower #1
    build_tile(state, TRUNK, BROWN, 0)
    assert state.towers[0][BROWN][0].parts[TRUNK].sum() == 1
    assert state.towers[0][GREEN] == []


def test_R4_2_2_exactly_one_base_and_one_turret():
    """R4.2.2: a tower has exactly one base and exactly one turret."""
    state = position(money={0: 20})
    add_tower(state, 0, BROWN)
    give_tile(state, 0, BASE, BROWN, n=2)
    give_tile(state, 0, TURRET, BROWN, n=2)
    sound(state)
    assert_illegal(state, Group.PLACE, build_target(1), BLUE)  # no second turret/base
    assert_illegal(state, Group.PLACE, build_target(3), BLUE)  # a new tower takes 1 of each


def test_R4_2_2_no_second_base_or_turret_during_a_build():
    """R4.2.2: a tower has exactly one base and exactly one turret (checked tile by tile)."""
    state = position(money={0: 20})
    add_tower(state, 0, BROWN)
    give_tile(state, 0, BASE, BROWN, n=2)
    give_tile(state, 0, TURRET, BROWN, n=2)
    give_tile(state, 0, TRUNK, BROWN)
    sound(state)
    place(state, build_target(3), BLUE)
    assert_illegal(state, Group.BUILD_TILE, TURRET, BROWN, 0, 0)
    assert_illegal(state, Group.BUILD_TILE, BASE, BROWN, 0, 0)
    build_tile(state, BASE, BROWN, 1)
    assert_illegal(state, Group.BUILD_TILE, BASE, BROWN, 0, 1)
    build_tile(state, TURRET, BROWN, 1)
    assert_illegal(state, Group.BUILD_TILE, TURRET, BROWN, 0, 1)
    build_tile(state, TRUNK, BROWN, 1)
    assert [t.parts.sum(axis=1).tolist() for t in state.towers[0][BROWN]] == [
        [1, 0, 0, 1],
        [1, 1, 0, 1],
    ]


def test_R4_2_2_any_number_of_trunks_and_windows():
    """R4.2.2: any number of trunks and windows."""
    state = position(money={0: 20})
    give_tile(state, 0, BASE, RED)
    give_tile(state, 0, TURRET, RED)
    give_tile(state, 0, TRUNK, RED, n=3)
    give_tile(state, 0, WINDOW, RED, n=2)
    sound(state)
    place(state, build_target(7), BLUE)
    build_tile(state, BASE, RED, 0)
    for _ in range(3):
        build_tile(state, TRUNK, RED, 0)
    for _ in range(2):
        build_tile(state, WINDOW, RED, 0)
    build_tile(state, TURRET, RED, 0)
    tower = state.towers[0][RED][0]
    assert tower.parts.sum(axis=1).tolist() == [1, 3, 2, 1]
    assert state.prestige[0] == 7


def test_R4_2_3_several_towers_of_several_colours_in_one_build():
    """R4.2.3: in one build the player may start any number of new towers and add to any
    number of existing towers, of any colours."""
    state = position(money={0: 20})
    add_tower(state, 0, RED)
    give_tile(state, 0, WINDOW, RED)
    for colour in (BROWN, GREEN):
        give_tile(state, 0, BASE, colour)
        give_tile(state, 0, TURRET, colour)
    sound(state)
    place(state, build_target(5), BLUE)
    build_tile(state, BASE, BROWN, 0)
    build_tile(state, BASE, GREEN, 0)
    build_tile(state, WINDOW, RED, 0)
    build_tile(state, TURRET, GREEN, 0)
    build_tile(state, TURRET, BROWN, 0)
    assert [len(state.towers[0][c]) for c in (BROWN, GREEN, RED)] == [1, 1, 1]
    assert state.towers[0][RED][0].height == 3
    assert state.prestige[0] == 5


def test_R4_2_3_add_to_several_existing_towers_in_one_build():
    """R4.2.3: add to any number of existing towers in one build."""
    state = position(money={0: 20})
    add_tower(state, 0, RED)
    add_tower(state, 0, RED)
    add_tower(state, 0, WHITE)
    give_tile(state, 0, WINDOW, RED, n=2)
    give_tile(state, 0, TRUNK, WHITE)
    sound(state)
    place(state, build_target(3), BLUE)
    build_tile(state, WINDOW, RED, 1)
    build_tile(state, TRUNK, WHITE, 0)
    build_tile(state, WINDOW, RED, 0)
    assert [t.height for t in state.towers[0][RED]] == [3, 3]
    assert state.towers[0][WHITE][0].height == 3


def test_R4_2_3_two_new_towers_of_one_colour_in_one_build():
    """R4.2.3: any number of new towers in one build, also of the same colour."""
    state = position(money={0: 20})
    give_tile(state, 0, BASE, BLACK, n=2)
    give_tile(state, 0, TURRET, BLACK, n=2)
    sound(state)
    place(state, build_target(4), BLUE)
    build_tile(state, BASE, BLACK, 0)
    build_tile(state, BASE, BLACK, 1)
    build_tile(state, TURRET, BLACK, 1)
    build_tile(state, TURRET, BLACK, 0)
    assert [t.complete for t in state.towers[0][BLACK]] == [True, True]


def test_R4_2_4_trunks_and_windows_added_to_a_complete_tower_later():
    """R4.2.4: trunks and windows may be added to a complete tower later."""
    state = position(money={0: 20})
    add_tower(state, 0, WHITE, trunks=1)
    give_tile(state, 0, WINDOW, WHITE)
    give_tile(state, 0, TRUNK, WHITE)
    sound(state)
    place(state, build_target(2), BLUE)
    build_tile(state, WINDOW, WHITE, 0)
    build_tile(state, TRUNK, WHITE, 0)
    assert state.towers[0][WHITE][0].parts.sum(axis=1).tolist() == [1, 2, 1, 1]
    assert len(state.towers[0][WHITE]) == 1


def test_R4_2_5_tiles_never_move_between_towers():
    """R4.2.5: tiles never move between towers (a built turret cannot crown a new base)."""
    state = position(money={0: 20})
    add_tower(state, 0, BROWN)
    give_tile(state, 0, BASE, BROWN)
    sound(state)
    assert_illegal(state, Group.PLACE, build_target(1), BLUE)
    give_tile(state, 0, TURRET, BROWN)
    place(state, build_target(2), BLUE)
    build_tile(state, BASE, BROWN, 1)
    build_tile(state, TURRET, BROWN, 1)
    assert [t.height for t in state.towers[0][BROWN]] == [2, 2]


def test_R4_2_6_every_tower_complete_at_the_end_of_the_build():
    """R4.2.6: at the end of the build every tower is complete; a new tower needs a base
    and a turret of its colour in the same build."""
    state = position(money={0: 20})
    give_tile(state, 0, BASE, GREEN)
    give_tile(state, 0, TRUNK, GREEN)
    sound(state)
    for n in (1, 2):
        assert_illegal(state, Group.PLACE, build_target(n), BLUE)


def test_R4_2_6_a_build_may_not_strand_an_incomplete_tower():
    """R4.2.6: with one tile left after a new base, it must be the tower's turret."""
    state = position(money={0: 20})
    give_tile(state, 0, BASE, GREEN)
    give_tile(state, 0, TRUNK, GREEN)
    give_tile(state, 0, TURRET, GREEN)
    sound(state)
    place(state, build_target(2), BLUE)
    assert_illegal(state, Group.BUILD_TILE, TRUNK, GREEN, 0, 0)  # base+trunk: no turret
    build_tile(state, BASE, GREEN, 0)
    assert_illegal(state, Group.BUILD_TILE, TRUNK, GREEN, 0, 0)
    build_tile(state, TURRET, GREEN, 0)
    assert state.towers[0][GREEN][0].complete


def test_R4_2_7_height_is_the_number_of_tiles():
    """R4.2.7: height of a tower = number of its tiles (base, trunks, windows, turret)."""
    state = position(money={0: 20})
    brown_tower_kit(state, trunks=2, windows=1)
    sound(state)
    place(state, build_target(5), BLUE)
    for part in (BASE, TRUNK, WINDOW, TRUNK, TURRET):
        build_tile(state, part, BROWN, 0)
    assert state.towers[0][BROWN][0].height == 5


def test_R4_2_7_lighted_windows_add_no_height():
    """R4.2.7: lighted windows do not count toward height (R7.2); they still score 1."""
    state = position(money={0: 20}, variant="pro")
    add_tower(state, 0, GREEN, windows=1)
    give_lighted(state, 0, GREEN)
    sound(state)
    place(state, build_target(1), BLUE)
    act(state, Group.BUILD_LIGHTED, GREEN, 0, 0)
    tower = state.towers[0][GREEN][0]
    assert tower.lit == 1
    assert tower.height == 3
    assert state.prestige[0] == 1


# ------------------------------------------------------------------------------ R4.3-R4.4
def test_R4_3_bank_pays_the_chosen_space():
    """R4.3: take the Asari printed on the chosen vacant bank space."""
    state = position(money={0: 3, 1: 4})
    place(state, BANK[10], BLUE)
    place(state, BANK[8], BLUE)
    assert state.money == [13, 12]


def test_R4_4_coloured_building_pays_5():
    """R4.4: coloured building: take 5 Asari."""
    state = position(money={0: 0, 1: 7})
    act(state, Group.PLACE_COLOURED, ORANGE)
    act(state, Group.PLACE_COLOURED, BLUE)
    act(state, Group.PLACE_COLOURED, YELLOW)
    assert state.money == [10, 12]


# ------------------------------------------------------------------------------ R4.5 bribery
@pytest.mark.parametrize("cost", [3, 5])
def test_R4_5_bribery_pays_the_space_and_may_take_nothing(cost):
    """R4.5: pay the space's cost (3 or 5) ... or take nothing."""
    state = position(money={0: 20})
    supply = state.supply.copy()
    place(state, SPIES[cost], BLUE)
    act(state, Group.BRIBE_STACK, WINDOW)
    act(state, Group.BRIBE_NOTHING)
    assert state.money[0] == 20 - cost
    assert (state.supply == supply).all()
    assert state.seat == 1


def test_R4_5_bribery_chooses_any_of_the_four_stacks():
    """R4.5: choose one of the four face-down stacks."""
    state = position(money={0: 20})
    place(state, SPIES[3], BLUE)
    assert legal_actions(state) == [encode(Group.BRIBE_STACK, p) for p in PARTS]


def test_R4_5_bribery_takes_a_stack_tile_for_its_price():
    """R4.5: take one tile from the stack, paying its colour price; shown to all."""
    state = position(money={0: 20})
    set_display(state, TURRET, {(WHITE, 0): 2})  # every green turret is in the stack
    sound(state)
    display = state.displays.copy()
    assert state.stacks[TURRET, GREEN].sum() == 4
    place(state, SPIES[5], BLUE)
    act(state, Group.BRIBE_STACK, TURRET)
    act(state, Group.BRIBE_TAKE, TURRET, GREEN, 1)  # the gold one: same price
    assert state.money[0] == 20 - 5 - 4
    assert state.supply[0, TURRET, GREEN, 1] == 1
    assert state.stacks[TURRET, GREEN].sum() == 3
    assert (state.displays == display).all()
    assert seat_view(state, 1)["supply"][0][TURRET][GREEN][1] == 1


def test_R4_5_bribery_takes_at_most_one_tile_of_the_chosen_stack():
    """R4.5: one tile, from the chosen stack only."""
    state = position(money={0: 50})
    set_display(state, BASE, {})
    sound(state)
    place(state, SPIES[3], BLUE)
    act(state, Group.BRIBE_STACK, BASE)
    assert_illegal(state, Group.BRIBE_TAKE, TRUNK, BROWN, 0)
    act(state, Group.BRIBE_TAKE, BASE, BROWN, 0)
    assert state.supply[0].sum() == 1
    assert state.phase == Phase.PLACE and state.seat == 1


def test_R4_5_bribery_cannot_buy_from_the_display():
    """R4.5: the display cannot be bought from this way."""
    state = position(money={0: 50})
    set_display(state, BASE, {(WHITE, 0): 3, (WHITE, 1): 1, (BROWN, 0): 1})
    sound(state)
    assert state.stacks[BASE, WHITE].sum() == 0
    place(state, SPIES[3], BLUE)
    act(state, Group.BRIBE_STACK, BASE)
    for gold in (0, 1):
        assert_illegal(state, Group.BRIBE_TAKE, BASE, WHITE, gold)
    assert state.displays[BASE, WHITE].sum() == 4


def test_R4_5_tile_must_be_affordable_after_the_space_cost():
    """R4.5: the placement needs the space cost; the tile must be affordable with what
    remains."""
    state = position(money={0: 8})
    set_display(state, BASE, {})
    sound(state)
    place(state, SPIES[3], BLUE)  # 5 Asari remain
    act(state, Group.BRIBE_STACK, BASE)
    for gold in (0, 1):
        assert_illegal(state, Group.BRIBE_TAKE, BASE, BLACK, gold)
        assert_illegal(state, Group.BRIBE_TAKE, BASE, WHITE, gold)
    act(state, Group.BRIBE_TAKE, BASE, RED, 0)
    assert state.money[0] == 0


def test_R4_5_bribery_legal_with_only_the_space_cost():
    """R4.5: the placement needs the space cost (not the price of a tile as well)."""
    state = position(money={0: 3})
    place(state, SPIES[3], BLUE)
    act(state, Group.BRIBE_STACK, TRUNK)
    assert legal_actions(state) == [encode(Group.BRIBE_NOTHING)]
    act(state, Group.BRIBE_NOTHING)
    assert state.money[0] == 0


# ------------------------------------------------------------------------------ R4.6 Caliph
def test_R4_6_caliph_taken_from_whoever_holds_it():
    """R4.6: take the Caliph tile from whoever holds it."""
    state = position()
    assert state.caliph == 0
    act(state, Group.PLACE_COLOURED, BLUE)
    place(state, CALIPH, YELLOW)  # seat 1
    assert state.caliph == 1


def test_R4_6_caliph_holder_may_take_it_again():
    """R4.6: the player may already hold it."""
    state = position(money={0: 20})
    assert state.caliph == 0
    assert legal(state, Group.PLACE, CALIPH, BLUE)
    place(state, CALIPH, BLUE)
    assert state.caliph == 0
    assert state.spaces[Area.CALIPH][0].seat == 0
    assert state.money[0] == 20


# ------------------------------------------------------------------------------ R5 turn order
def test_R5_1_play_goes_clockwise_from_the_starting_player():
    """R5.1: play goes clockwise (seat order) from the starting player."""
    state = position(players=4, start_seat=2)
    seen = []
    for _ in range(6):
        seen.append(state.seat)
        act(state, Group.PLACE_COLOURED, BLUE if state.hands[state.seat, BLUE] else YELLOW)
    assert seen == [2, 3, 0, 1, 2, 3]


def test_R5_2_players_without_cards_are_skipped():
    """R5.2: a player with no cards is skipped."""
    state = position(players=3, hands={0: [3, 0, 0, 0, 0], 1: [1, 0, 0, 0, 0], 2: [2, 0, 0, 0, 0]})
    seen = []
    while state.year == 1:
        seen.append(state.seat)
        act(state, Group.PLACE_COLOURED, BLUE)
    assert seen == [0, 1, 2, 0, 2, 0]


def test_R5_2_year_ends_when_no_player_has_cards():
    """R5.2: the year ends when no player has cards left."""
    state = position(hands={0: [1, 0, 0, 0, 0], 1: [0, 2, 0, 0, 0]})
    act(state, Group.PLACE_COLOURED, BLUE)
    assert (state.year, state.seat) == (1, 1)
    act(state, Group.PLACE_COLOURED, YELLOW)
    assert (state.year, state.seat) == (1, 1)  # seat 0 has no cards: seat 1 again
    act(state, Group.PLACE_COLOURED, YELLOW)
    assert state.year == 2
    assert state.hands.sum(axis=1).tolist() == [9, 9]
