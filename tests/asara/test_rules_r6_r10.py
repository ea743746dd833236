"""Rule tests for R6 (years), R7 (professional version), R8 (final scoring) and R10
(information), each on a small hand-made position. Expected numbers come from
docs/asara/rules.md."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from asara_env.asara.actions import TARGETS, Group
from asara_env.asara.constants import COLOUR_NAMES, Area, CardColour, TileColour
from asara_env.asara.phases import Phase, full_tile_counts
from asara_env.asara.reference import engine, scoring
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.state import Buyer, State
from asara_env.asara.reference.view import public_view, seat_view
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

BROWN, GREEN, RED, BLACK, WHITE = TileColour
BLUE, YELLOW, VIOLET, CGREEN, ORANGE = CardColour
ONE_BLUE = [1, 0, 0, 0, 0]


def target(area: Area, arg: int | None = None) -> int:
    """The placement target index of `area` (space index, or n for a build)."""
    return next(i for i, t in enumerate(TARGETS) if t.area == area and t.arg == arg)


def last_card_position(state: State, mover: int = 0) -> None:
    """`mover` (to move) holds one blue card, every other hand is empty."""
    assert state.seat == mover
    empty_hands(state, *range(state.num_players))
    set_hand(state, mover, ONE_BLUE)


def end_year(state: State) -> None:
    """The player to move plays their last card on the coloured building: the year ends."""
    act(state, Group.PLACE_COLOURED, BLUE)


def final(state: State, money=None) -> list[dict[str, Any]]:
    money = [0] * state.num_players if money is None else money
    return scoring.final_scoring(state.towers, money, state.config.pro)


def category(result: list[dict[str, Any]], name: str) -> list[int]:
    return [r[name] for r in result]


# ------------------------------------------------------------------------------------- R6.1
@pytest.mark.parametrize("players, hand", [(2, 9), (3, 8), (4, 7)])
def test_R6_1_set_up_money_caliph_displays_and_cards(players, hand):
    """R6.1: seat 0 starts, holds the Caliph, 20 Asari, next seats 21, 22, 23; displays full;
    cards dealt (R1), the rest form the draw pile."""
    s = new(players, seed=3)
    sound(s)
    assert (s.year, s.seat, s.caliph, s.phase) == (1, 0, 0, Phase.PLACE)
    assert s.money == [20, 21, 22, 23][:players]
    assert s.prestige == [0] * players
    assert [int(s.displays[p].sum()) for p in (BASE, TRUNK, WINDOW, TURRET)] == [7, 7, 8, 7]
    assert np.array_equal(s.stacks + s.displays, full_tile_counts())
    assert s.hands.sum(axis=1).tolist() == [hand] * players
    assert int(s.draw_pile.sum()) == 45 - hand * players
    assert (s.hands.sum(axis=0) + s.draw_pile).tolist() == [9] * 5
    assert all(b is None for area in s.spaces for b in area) and s.coloured == []


@pytest.mark.parametrize("players, start, money", [(3, 2, [21, 22, 20]), (4, 1, [23, 20, 21, 22])])
def test_R6_1_configured_start_seat_gets_caliph_and_20(players, start, money):
    """R6.1: the starting seat (configurable) holds the Caliph and 20; clockwise 21, 22, 23."""
    s = new(players, start_seat=start)
    sound(s)
    assert (s.seat, s.caliph) == (start, start)
    assert s.money == money


# ------------------------------------------------------------------------------------- R6.2
def test_R6_2_one_point_per_tower_and_gold_tile_and_caliph():
    """R6.2: 1 per tower, 1 per visible gold tile, and the Caliph holder scores 1."""
    s = new(2)
    add_tower(s, 0, BROWN, trunks=1, gold=(BASE, TURRET))  # 1 tower + 2 gold
    add_tower(s, 0, WHITE, windows=2)  # 1 tower
    add_tower(s, 1, RED, trunks=2, gold=(TRUNK,))  # 1 tower + 1 gold
    last_card_position(s)
    sound(s)
    end_year(s)
    assert s.year == 2
    assert s.prestige == [2 + 2 + 1, 1 + 1]


def test_R6_2_caliph_holder_scores_one():
    """R6.2: the Caliph holder scores 1 at the end of the year."""
    s = new(3)
    s.caliph = 2
    last_card_position(s)
    sound(s)
    end_year(s)
    assert s.prestige == [0, 0, 1]


def test_R6_2_lighted_windows_in_towers_score_one_each():
    """R6.2: 1 per lighted window in the player's towers (unbuilt ones score nothing)."""
    s = new(2, "pro")
    s.caliph = 1
    add_tower(s, 0, GREEN, windows=3, lit_plain=2)  # 1 tower + 2 lighted
    give_lighted(s, 0, RED)  # unbuilt: nothing
    last_card_position(s)
    sound(s)
    end_year(s)
    assert s.prestige == [1 + 2, 1]


def test_R6_2_covered_gold_window_scores_nothing():
    """R6.2: a gold window covered by a lighted window does not count."""
    s = new(2, "pro")
    s.caliph = 1
    add_tower(s, 0, BLACK, windows=1, gold=(WINDOW,), lit_gold=1)  # tower 1 + lit 1, gold 0
    add_tower(s, 1, BLACK, windows=2, gold=(BASE,), lit_plain=1)  # tower 1 + lit 1 + gold 1
    last_card_position(s)
    sound(s)
    end_year(s)
    assert s.prestige == [1 + 1, 1 + 1 + 1 + 1]  # seat 1 also holds the Caliph


# ------------------------------------------------------------------------------------- R6.3
def test_R6_3_new_year_clears_board_redeals_refills_and_pays_20():
    """R6.3: buyers leave the board, all 45 cards dealt again, empty display slots refilled,
    +20 Asari each, money and unbuilt tiles stay, the Caliph holder starts."""
    s = new(3)
    last_card_position(s)
    put_buyer(s, Area.BANK, 2, 1, (YELLOW,), True)
    put_buyer(s, Area.BANK, 0, 2, (BLUE, VIOLET), False)
    put_buyer(s, Area.CALIPH, 0, 2, (ORANGE,), True)
    s.caliph = 2
    s.money = [3, 7, 11]
    set_display(s, BASE, {(BROWN, 1): 1, (WHITE, 1): 1})  # 5 empty slots
    give_tile(s, 1, TURRET, RED)
    give_tile(s, 1, WINDOW, GREEN, gold=1)
    supply = s.supply.copy()
    sound(s)
    end_year(s)
    assert s.year == 2 and s.phase == Phase.PLACE
    assert s.seat == 2  # the Caliph holder starts
    assert all(b is None for area in s.spaces for b in area) and s.coloured == []
    assert s.area_colour == [-1] * len(s.area_colour)
    assert s.hands.sum(axis=1).tolist() == [8, 8, 8]
    assert s.draw_pile.sum() == 45 - 24
    assert s.money == [3 + 5 + 20, 7 + 20, 11 + 20]
    assert np.array_equal(s.supply, supply)
    assert [int(s.displays[p].sum()) for p in (BASE, TRUNK, WINDOW, TURRET)] == [7, 7, 8, 7]
    assert s.displays[BASE, BROWN, 1] == 1 and s.displays[BASE, WHITE, 1] == 1  # stayed
    sound(s)


def test_R6_3_display_refill_stops_when_the_stack_runs_out():
    """R6.3: empty display slots are refilled from their stack while it lasts."""
    s = new(2)
    last_card_position(s)
    set_display(s, TURRET, {(BROWN, 0): 2, (GREEN, 0): 1})  # 4 empty slots
    for (colour, gold), n in np.ndenumerate(s.stacks[TURRET]):  # all but 2 to seat 1
        give_tile(s, 1, TURRET, colour, gold, n=int(n))
    for _ in range(2):
        s.supply[1, TURRET, WHITE, 0] -= 1
        s.stacks[TURRET, WHITE, 0] += 1
    sound(s)
    end_year(s)
    assert s.displays[TURRET].sum() == 3 + 2
    assert s.displays[TURRET, WHITE, 0] == 2
    assert s.stacks[TURRET].sum() == 0


def test_R6_3_later_years_start_the_same_way():
    """R6.3: the start of year 4 also re-deals, pays 20 and lets the Caliph holder start."""
    s = new(2, start_seat=1)
    s.year = 3
    last_card_position(s, mover=1)
    s.caliph = 0
    s.money = [0, 0]
    sound(s)
    end_year(s)
    assert (s.year, s.seat, s.phase) == (4, 0, Phase.PLACE)
    assert s.hands.sum(axis=1).tolist() == [9, 9]
    assert s.money == [20, 25]


# ------------------------------------------------------------------------------------- R6.4
def test_R6_4_after_year_4_final_scoring_and_game_over():
    """R6.4: after the 4th end-of-year scoring comes the final scoring; then the game ends."""
    s = new(2)
    s.year = 4
    s.caliph = 1
    add_tower(s, 0, BROWN)  # height 2, seat 0's only tower
    s.money = [40, 19]
    last_card_position(s)
    sound(s)
    end_year(s)
    assert s.is_over and s.phase == Phase.GAME_OVER and s.year == 4
    assert legal_actions(s) == []
    assert s.hands.sum() == 0 and s.money == [45, 19]  # no new year: no deal, no 20 Asari
    # seat 0: year end 1 (tower); final brown 4 + tallest 8 + most towers 12 + 45 // 10 = 4
    # seat 1: year end 1 (Caliph); final 19 // 10 = 1
    assert s.prestige == [1 + 4 + 8 + 12 + 4, 1 + 1]
    assert s.final is not None and s.final[0]["total"] == 28 and s.final[1]["total"] == 1
    assert engine.winners(s) == [0]


def test_R6_4_year_3_does_not_end_the_game():
    """R6.4: only the 4th end of year is followed by the final scoring."""
    s = new(2)
    s.year = 3
    last_card_position(s)
    end_year(s)
    assert not s.is_over and s.final is None and s.year == 4


# ------------------------------------------------------------------------------------- R7.1
@pytest.mark.parametrize("space, cost", [(0, 0), (1, 2), (2, 4)])
def test_R7_1_recruit_pays_the_space_and_draws_two(space, cost):
    """R7.1: pay the tent space's cost (0/2/4), then draw 2 cards from the draw pile."""
    s = new(2, "pro")
    set_hand(s, 0, [2, 0, 0, 0, 0])
    sound(s)
    pile = s.draw_pile.sum()
    act(s, Group.PLACE, target(Area.TENT, space), BLUE)
    assert s.money[0] == 20 - cost
    assert s.hands[0].sum() == 2 - 1 + 2
    assert s.draw_pile.sum() == pile - 2
    assert s.spaces[Area.TENT][space].seat == 0


def test_R7_1_recruit_needs_the_space_cost():
    """R7.1 with R3.5: the tent space's cost must be payable."""
    s = new(2, "pro")
    set_hand(s, 0, ONE_BLUE)
    s.money[0] = 3
    sound(s)
    assert legal(s, Group.PLACE, target(Area.TENT, 1), BLUE)
    assert not legal(s, Group.PLACE, target(Area.TENT, 2), BLUE)


def _shrink_draw_pile(s: State, keep: int, into: int = 1) -> None:
    """Move all but `keep` cards of the draw pile into seat `into`'s hand."""
    extra = s.draw_pile.copy()
    for b in range(5):
        take = min(int(extra[b]), keep)
        extra[b] -= take
        keep -= take
    set_hand(s, into, s.hands[into] + extra)


@pytest.mark.parametrize("left", [1, 0])
def test_R7_1_recruit_draws_fewer_when_the_pile_is_short(left):
    """R7.1: fewer cards if the pile has fewer; legal even if the pile is empty."""
    s = new(2, "pro")
    set_hand(s, 0, ONE_BLUE + np.array([0, 1, 0, 0, 0]))
    _shrink_draw_pile(s, left)
    sound(s)
    assert s.draw_pile.sum() == left
    assert legal(s, Group.PLACE, target(Area.TENT, 1), BLUE)
    act(s, Group.PLACE, target(Area.TENT, 1), BLUE)
    assert s.hands[0].sum() == 1 + left
    assert s.draw_pile.sum() == 0 and s.money[0] == 18


# ------------------------------------------------------------------------------------- R7.2
def lights_position(order: Sequence[int], money: int = 20) -> State:
    """2-player pro game, seat 0 to move with two cards; the lighted stack in this order
    (top first, other windows given to seat 1)."""
    s = new(2, "pro")
    set_hand(s, 0, [2, 0, 0, 0, 0])
    counts = np.bincount(np.array(order, dtype=int), minlength=5)
    for c in range(5):
        give_lighted(s, 1, c, n=3 - int(counts[c]))
    s.lighted_stack = [[c, -1] for c in order]
    s.money[0] = money
    return s


def test_R7_2_pay_4_draw_3_keep_1_rest_to_the_bottom():
    """R7.2: pay 4, draw the top 3, keep 1; the others go to the bottom of the stack."""
    order = [RED, WHITE, BLACK, GREEN, BROWN, BROWN]
    s = lights_position(order)
    sound(s)
    act(s, Group.PLACE, target(Area.LIGHTS), BLUE)
    act(s, Group.LIGHTS_OPTION, 0)
    assert s.money[0] == 16
    keepable = {c for c in range(5) if legal(s, Group.LIGHTS_KEEP, c)}
    assert keepable == {RED, WHITE, BLACK}
    act(s, Group.LIGHTS_KEEP, WHITE)
    assert s.lighted_supply[0].tolist() == [0, 0, 0, 0, 1]
    assert [c for c, _ in s.lighted_stack[:3]] == [GREEN, BROWN, BROWN]
    assert sorted(c for c, _ in s.lighted_stack[3:]) == [RED, BLACK]
    assert len(s.lighted_stack) == 5
    assert s.phase == Phase.PLACE and s.seat == 1
    sound(s)


def test_R7_2_pay_10_draw_5_keep_2():
    """R7.2: pay 10, draw the top 5, keep 2; the other 3 go to the bottom."""
    order = [RED, RED, WHITE, BLACK, GREEN, BROWN, GREEN]
    s = lights_position(order)
    act(s, Group.PLACE, target(Area.LIGHTS), BLUE)
    act(s, Group.LIGHTS_OPTION, 1)
    assert s.money[0] == 10
    assert not legal(s, Group.LIGHTS_KEEP, BROWN)  # the 6th window was not drawn
    act(s, Group.LIGHTS_KEEP, RED)
    assert s.phase == Phase.LIGHTS_KEEP  # a second one to keep
    act(s, Group.LIGHTS_KEEP, BLACK)
    assert s.lighted_supply[0].tolist() == [0, 0, 1, 1, 0]
    assert [c for c, _ in s.lighted_stack[:2]] == [BROWN, GREEN]
    assert sorted(c for c, _ in s.lighted_stack[2:]) == sorted([RED, WHITE, GREEN])
    assert s.phase == Phase.PLACE
    sound(s)


def test_R7_2_option_10_needs_10_asari():
    """R7.2: the 5-window option costs 10 Asari."""
    s = lights_position([RED, GREEN, BLACK, WHITE, BROWN], money=9)
    act(s, Group.PLACE, target(Area.LIGHTS), BLUE)
    assert legal(s, Group.LIGHTS_OPTION, 0)
    assert not legal(s, Group.LIGHTS_OPTION, 1)


def test_R7_2_short_stack_draws_fewer():
    """R7.2: fewer are drawn if the stack is short (2 left: pay 10, keep both)."""
    s = lights_position([GREEN, BLACK])
    sound(s)
    act(s, Group.PLACE, target(Area.LIGHTS), BLUE)
    act(s, Group.LIGHTS_OPTION, 1)
    assert s.money[0] == 10
    act(s, Group.LIGHTS_KEEP, GREEN)
    act(s, Group.LIGHTS_KEEP, BLACK)
    assert s.lighted_supply[0].tolist() == [0, 1, 0, 1, 0]
    assert s.lighted_stack == [] and s.phase == Phase.PLACE


def test_R7_2_short_stack_one_window_keeps_one():
    """R7.2: with one window left, pay 4 draws it and keeps it; nothing to put back."""
    s = lights_position([WHITE])
    act(s, Group.PLACE, target(Area.LIGHTS), BLUE)
    act(s, Group.LIGHTS_OPTION, 0)
    act(s, Group.LIGHTS_KEEP, WHITE)
    assert s.lighted_supply[0, WHITE] == 1 and s.lighted_stack == []
    assert s.money[0] == 16 and s.phase == Phase.PLACE


def test_R7_2_needs_at_least_one_window_in_the_stack():
    """R7.2: the option needs at least one tile in the stack."""
    s = lights_position([])
    sound(s)
    assert not legal(s, Group.PLACE, target(Area.LIGHTS), BLUE)
    s2 = lights_position([BROWN])
    assert legal(s2, Group.PLACE, target(Area.LIGHTS), BLUE)


def build_position(players: int = 2) -> State:
    s = new(players, "pro")
    set_hand(s, 0, [2, 0, 0, 0, 0])
    return s


def test_R7_2_lighted_window_counts_as_a_tile_scores_1_adds_no_height():
    """R7.2: a lighted window counts as one of the n tiles, scores 1, adds no height."""
    s = build_position()
    add_tower(s, 0, RED, windows=1)  # height 3
    give_tile(s, 0, TRUNK, RED)
    give_lighted(s, 0, RED)
    sound(s)
    assert legal(s, Group.PLACE, target(Area.BUILDING, 2), BLUE)  # trunk + lighted = 2
    act(s, Group.PLACE, target(Area.BUILDING, 2), BLUE)
    assert s.money[0] == 18
    act(s, Group.BUILD_LIGHTED, RED, 0, 0)
    act(s, Group.BUILD_TILE, TRUNK, RED, 0, 0)
    tower = s.towers[0][RED][0]
    assert tower.height == 4 and tower.lit_plain == 1
    assert s.prestige[0] == 2
    assert s.phase == Phase.PLACE and s.seat == 1
    sound(s)


def test_R7_2_lighted_window_needs_a_window_of_its_colour():
    """R7.2: a lighted window must lie on a window of the same colour."""
    s = build_position()
    add_tower(s, 0, RED)  # no window
    add_tower(s, 0, BLACK, windows=2)  # windows of another colour
    give_lighted(s, 0, RED)
    sound(s)
    assert not legal(s, Group.PLACE, target(Area.BUILDING, 1), BLUE)
    give_tile(s, 0, TRUNK, BLACK)
    act(s, Group.PLACE, target(Area.BUILDING, 1), BLUE)
    assert not legal(s, Group.BUILD_LIGHTED, RED, 0, 0)
    assert not legal(s, Group.BUILD_LIGHTED, RED, 0, 1)


def test_R7_2_lighted_window_needs_a_free_window():
    """R7.2: the window must carry no lighted window yet."""
    s = build_position()
    add_tower(s, 0, WHITE, windows=1, lit_plain=1)
    give_lighted(s, 0, WHITE)
    sound(s)
    assert not legal(s, Group.PLACE, target(Area.BUILDING, 1), BLUE)
    s2 = build_position()
    add_tower(s2, 0, WHITE, windows=2, lit_plain=1)
    give_lighted(s2, 0, WHITE)
    assert legal(s2, Group.PLACE, target(Area.BUILDING, 1), BLUE)


def test_R7_2_lighted_window_on_a_window_placed_earlier_in_the_same_build():
    """R7.2 [decision]: the window may have been placed earlier in the same build."""
    s = build_position()
    for part in (BASE, WINDOW, TURRET):
        give_tile(s, 0, part, GREEN)
    give_lighted(s, 0, GREEN)
    sound(s)
    assert legal(s, Group.PLACE, target(Area.BUILDING, 4), BLUE)
    act(s, Group.PLACE, target(Area.BUILDING, 4), BLUE)
    act(s, Group.BUILD_TILE, BASE, GREEN, 0, 0)
    assert not legal(s, Group.BUILD_LIGHTED, GREEN, 0, 0)  # no window yet
    act(s, Group.BUILD_TILE, WINDOW, GREEN, 0, 0)
    act(s, Group.BUILD_LIGHTED, GREEN, 0, 0)
    act(s, Group.BUILD_TILE, TURRET, GREEN, 0, 0)
    tower = s.towers[0][GREEN][0]
    assert tower.height == 3 and tower.lit == 1
    assert s.prestige[0] == 4 and s.phase == Phase.PLACE
    sound(s)


def test_R7_2_lighted_window_over_gold_window_removes_its_gold_point():
    """R7.2: a gold window covered by a lighted window loses its gold point."""
    s = build_position()
    last_card_position(s)
    s.caliph = 1
    add_tower(s, 0, BROWN, windows=1, gold=(WINDOW,))
    give_lighted(s, 0, BROWN)
    sound(s)
    act(s, Group.PLACE, target(Area.BUILDING, 1), BLUE)
    assert not legal(s, Group.BUILD_LIGHTED, BROWN, 0, 0)  # the only window is gold
    act(s, Group.BUILD_LIGHTED, BROWN, 0, 1)  # the last card: the year ends
    assert s.year == 2
    # build 1 + year end: tower 1 + lighted 1 + covered gold window 0
    assert s.prestige[0] == 1 + 1 + 1


# ------------------------------------------------------------------------------------- R7.3
def test_R7_3_tower_ranking_tie_broken_by_lighted_windows():
    """R7.3: in a tower ranking the tower with more lighted windows ranks higher."""
    s = new(2, "pro")
    add_tower(s, 0, RED, windows=2, lit_plain=1)  # height 4
    add_tower(s, 1, RED, windows=2)  # height 4
    sound(s)
    r = final(s)
    assert category(r, "red") == [8, 4]
    assert category(r, "tallest") == [8, 4]
    assert category(r, "most_towers") == [12, 6]  # 1 tower each: 1 lighted beats 0


def test_R7_3_equal_lighted_windows_still_share():
    """R7.3: what is still tied is shared (R8.2)."""
    s = new(2, "pro")
    add_tower(s, 0, BLACK, windows=2, lit_plain=1)
    add_tower(s, 1, BLACK, windows=2, gold=(WINDOW,), lit_gold=1)
    sound(s)
    r = final(s)
    assert category(r, "black") == [8, 8]  # ceil(15 / 2)
    assert category(r, "tallest") == [6, 6]
    assert category(r, "most_towers") == [9, 9]


def test_R7_3_more_lighted_windows_do_not_beat_a_taller_tower():
    """R7.3: lighted windows only break ties of height."""
    s = new(2, "pro")
    add_tower(s, 0, WHITE, windows=2, lit_plain=2)  # height 4
    add_tower(s, 1, WHITE, trunks=3)  # height 5
    r = final(s)
    assert category(r, "white") == [6, 12]


def test_R7_3_most_towers_tie_broken_by_all_lighted_windows_of_the_player():
    """R7.3: in the most-towers ranking the player with more lighted windows in all their
    towers ranks higher."""
    s = new(3, "pro")
    add_tower(s, 0, BROWN, windows=1, lit_plain=1)  # seat 0: 2 towers, 2 lighted
    add_tower(s, 0, GREEN, windows=1, lit_plain=1)
    add_tower(s, 1, BROWN, windows=3, lit_plain=1)  # seat 1: 2 towers, 1 lighted
    add_tower(s, 1, WHITE)
    add_tower(s, 2, RED)  # seat 2: 1 tower
    sound(s)
    assert category(final(s), "most_towers") == [12, 6, 0]


def test_R7_3_no_tie_break_in_the_basic_game():
    """R7.3 is the professional version only; the basic game shares ties (R8.2)."""
    s = new(2, "pro")
    add_tower(s, 0, RED, windows=2, lit_plain=1)
    add_tower(s, 1, RED, windows=2)
    r = scoring.final_scoring(s.towers, [0, 0], pro=False)
    assert category(r, "red") == [6, 6]


# ------------------------------------------------------------------------------------- R8.1
@pytest.mark.parametrize(
    "colour, first, second",
    [(BROWN, 4, 2), (GREEN, 6, 3), (RED, 8, 4), (BLACK, 10, 5), (WHITE, 12, 6)],
)
def test_R8_1_colour_rankings_pay_first_and_second(colour, first, second):
    """R8.1: towers of each colour ranked by height: brown 4/2 ... white 12/6."""
    s = new(3)
    add_tower(s, 0, colour, trunks=1)  # height 3
    add_tower(s, 1, colour, trunks=2)  # height 4
    add_tower(s, 2, colour)  # height 2: third, nothing
    sound(s)
    r = final(s)
    assert category(r, COLOUR_NAMES[colour]) == [second, first, 0]
    others = [c for c in COLOUR_NAMES if c != COLOUR_NAMES[colour]]
    assert all(category(r, c) == [0, 0, 0] for c in others)


def test_R8_1_tallest_tower_overall_pays_8_and_4():
    """R8.1: all towers of every colour ranked by height: 8/4."""
    s = new(3)
    add_tower(s, 0, BROWN, trunks=3)  # height 5
    add_tower(s, 1, GREEN, windows=2)  # height 4
    add_tower(s, 2, WHITE, trunks=1)  # height 3
    add_tower(s, 2, RED)  # height 2
    r = final(s)
    assert category(r, "tallest") == [8, 4, 0]


def test_R8_1_one_player_takes_first_and_second_with_two_towers():
    """R8.1: rankings are of towers: a player can win first and second with two towers."""
    s = new(2)
    add_tower(s, 0, WHITE, trunks=2)  # height 4
    add_tower(s, 0, WHITE, trunks=1)  # height 3
    add_tower(s, 1, WHITE)  # height 2
    r = final(s)
    assert category(r, "white") == [12 + 6, 0]
    assert category(r, "tallest") == [8 + 4, 0]


def test_R8_1_most_towers_ranks_players():
    """R8.1: players ranked by number of towers: 12/6."""
    s = new(3)
    for colour in (BROWN, GREEN, RED):
        add_tower(s, 0, colour)
    add_tower(s, 1, BROWN)
    add_tower(s, 1, WHITE, trunks=4, windows=5, gold=(TRUNK, WINDOW))  # height does not matter here
    add_tower(s, 2, BLACK)
    r = final(s)
    assert category(r, "most_towers") == [12, 6, 0]


def test_R8_1_players_without_towers_are_not_ranked_for_most_towers():
    """R8.1 [decision]: players with no towers are not ranked (no shared second place)."""
    s = new(4)
    add_tower(s, 0, BROWN)
    add_tower(s, 0, GREEN)
    r = final(s)
    assert category(r, "most_towers") == [12, 0, 0, 0]
    add_tower(s, 3, RED)
    assert category(final(s), "most_towers") == [12, 0, 0, 6]


# ------------------------------------------------------------------------------------- R8.2
@pytest.mark.parametrize(
    "keys, award, expected",
    [
        ([(5,), (5,), (3,)], (10, 5), [8, 8, 0]),  # ceil(15 / 2)
        ([(4,), (4,), (4,)], (8, 4), [4, 4, 4]),  # 12 / 3
        ([(2,), (2,), (2,), (2,)], (4, 2), [2, 2, 2, 2]),  # ceil(6 / 4)
        ([(3,), (3,)], (6, 3), [5, 5]),  # ceil(9 / 2)
        ([(7,), (3,), (7,), (6,)], (12, 6), [9, 0, 9, 0]),  # no second place after a tie
    ],
)
def test_R8_2_tie_for_first_shares_first_plus_second_rounded_up(keys, award, expected):
    """R8.2: k >= 2 tied for first each get ceil((first + second) / k); no second place."""
    assert scoring.ranking_award(keys, award) == expected


@pytest.mark.parametrize(
    "keys, award, expected",
    [
        ([(6,), (4,), (4,)], (12, 6), [12, 3, 3]),  # 6 / 2
        ([(6,), (4,), (4,)], (10, 5), [10, 3, 3]),  # ceil(5 / 2)
        ([(2,), (9,), (2,), (2,), (2,)], (4, 2), [1, 4, 1, 1, 1]),  # ceil(2 / 4)
        ([(9,), (5,), (3,), (3,)], (8, 4), [8, 4, 0, 0]),  # third place gets nothing
        ([(3,)], (6, 3), [6]),
    ],
)
def test_R8_2_first_alone_then_tie_for_second_shares_second_rounded_up(keys, award, expected):
    """R8.2: otherwise the first gets `first`; k >= 2 tied for second each get ceil(second/k)."""
    assert scoring.ranking_award(keys, award) == expected


def test_R8_2_most_towers_ties_count_players_not_towers():
    """R8.2: for most towers, k counts players: 2 players with 2 towers each get 18/2 = 9."""
    s = new(3)
    add_tower(s, 0, BROWN)
    add_tower(s, 0, GREEN)
    add_tower(s, 1, RED)
    add_tower(s, 1, BLACK)
    add_tower(s, 2, WHITE)
    assert category(final(s), "most_towers") == [9, 9, 0]


def test_R8_2_tied_towers_in_the_final_scoring():
    """R8.2: three equal red towers share ceil((8 + 4) / 3) = 4 each, per tower."""
    s = new(2)
    add_tower(s, 0, RED, trunks=1)
    add_tower(s, 0, RED, windows=1)
    add_tower(s, 1, RED, trunks=1)
    assert category(final(s), "red") == [8, 4]


# ------------------------------------------------------------------------------------- R8.3
@pytest.mark.parametrize("money, points", [(0, 0), (9, 0), (10, 1), (19, 1), (57, 5), (100, 10)])
def test_R8_3_one_point_per_10_asari_rounded_down(money, points):
    """R8.3: each player scores floor(Asari / 10)."""
    s = new(2)
    r = final(s, [money, 0])
    assert r[0]["asari"] == points and r[0]["total"] == points


# ------------------------------------------------------------------------------------- R8.4
def test_R8_4_gold_and_caliph_score_nothing_in_the_final_scoring():
    """R8.4: gold and the Caliph tile score nothing in the final scoring."""
    s = new(2)
    s.year = 4
    add_tower(s, 0, RED, trunks=1, gold=(BASE, TRUNK, TURRET))  # height 3, 3 gold
    add_tower(s, 1, RED, trunks=1)  # height 3, plain
    s.caliph = 0
    s.money = [10, 15]  # seat 0 gets 5 more on the coloured building: 1 point each
    last_card_position(s)
    sound(s)
    end_year(s)
    assert s.final is not None and s.final[0] == s.final[1]
    assert s.final[0]["total"] == 6 + 6 + 9 + 1  # red, tallest, most towers tied; Asari
    # the whole difference is the 4th year-end scoring: 3 gold + 1 Caliph
    assert s.prestige[0] - s.prestige[1] == 4


# ------------------------------------------------------------------------------------- R8.5
@pytest.mark.parametrize(
    "prestige, won", [([30, 45, 45], [1, 2]), ([10, 9], [0]), ([7, 7, 7, 7], [0, 1, 2, 3])]
)
def test_R8_5_highest_total_wins_and_ties_all_win(prestige, won):
    """R8.5: the highest total wins; players tied for the highest total all win."""
    assert scoring.winners(prestige) == won


def test_R8_5_tied_game_has_two_winners():
    """R8.5: a game ending in a tie for the highest total has every tied player winning."""
    s = new(2)
    s.year = 4
    s.caliph = 1
    s.money = [5, 0]  # seat 0 takes 5 more on the coloured building: 10 Asari = 1 point
    add_tower(s, 0, GREEN)
    add_tower(s, 1, GREEN)
    last_card_position(s)
    sound(s)
    end_year(s)
    # seat 0: tower 1 + green 5 + tallest 6 + most towers 9 + Asari 1
    # seat 1: tower 1 + Caliph 1 + green 5 + tallest 6 + most towers 9
    assert s.prestige == [22, 22]
    assert engine.winners(s) == [0, 1]


# ------------------------------------------------------------------- R8 worked example (p. 6)
TINA, WOLFGANG, PHILIPP = 0, 1, 2


def worked_example() -> State:
    s = new(3)
    s.money = [0, 0, 0]
    # brown: Tina 8 > Wolfgang 3 > Philipp 2 (Tina's is the tallest tower of all)
    add_tower(s, TINA, BROWN, trunks=4, windows=2, gold=(TRUNK,))
    add_tower(s, WOLFGANG, BROWN, windows=1)
    add_tower(s, PHILIPP, BROWN)
    # green: Tina 4 > Wolfgang 2
    add_tower(s, TINA, GREEN, trunks=2)
    add_tower(s, WOLFGANG, GREEN)
    # red: three towers of height 3, two of them Philipp's
    add_tower(s, WOLFGANG, RED, trunks=1)
    add_tower(s, PHILIPP, RED, trunks=1)
    add_tower(s, PHILIPP, RED, windows=1)
    # black: Philipp 5 = Tina 5 > Wolfgang 3 (the two 5s are second tallest of all)
    add_tower(s, PHILIPP, BLACK, trunks=2, windows=1)
    add_tower(s, TINA, BLACK, trunks=2, windows=1, gold=(TRUNK,))
    add_tower(s, WOLFGANG, BLACK, windows=1)
    # white: Wolfgang 4 > Philipp 3 = Tina 3
    add_tower(s, WOLFGANG, WHITE, trunks=2)
    add_tower(s, PHILIPP, WHITE, trunks=1)
    add_tower(s, TINA, WHITE, windows=1)
    return s


EXAMPLE = {  # category: points for (Tina, Wolfgang, Philipp)
    "brown": [4, 2, 0],
    "green": [6, 3, 0],
    "red": [0, 4, 8],
    "black": [8, 0, 8],
    "white": [3, 12, 3],
    "most_towers": [0, 9, 9],
    "tallest": [8 + 2, 0, 2],
    "asari": [0, 0, 0],
}


def test_R8_worked_example_from_the_rulebook():
    """R8 worked example (rulebook p. 6): every category for Tina, Wolfgang and Philipp.

    docs/asara/rules.md says two towers of Philipp tie for second tallest; that cannot hold together
    with the other statements (each of Philipp's five towers has an equal or taller tower
    of another player), so the printed caption is followed: "the black towers contain the
    same number of sections": Philipp's and Tina's black towers tie for second, 2 each."""
    s = worked_example()
    sound(s)
    assert [sum(len(c) for c in s.towers[p]) for p in range(3)] == [4, 5, 5]
    r = final(s)
    for name, points in EXAMPLE.items():
        assert category(r, name) == points, name
    assert category(r, "total") == [31, 30, 30]


def test_R8_worked_example_through_the_end_of_the_game():
    """R8 worked example: the engine's final scoring after year 4 gives the same points."""
    s = worked_example()
    s.year = 4
    last_card_position(s)
    sound(s)
    end_year(s)
    assert s.is_over and s.final is not None
    for name, points in EXAMPLE.items():
        assert [s.final[p][name] for p in range(3)] == points, name


# ------------------------------------------------------------------------------------ R10
PRIVATE = {"viewer", "spaces", "coloured", "hand", "lighted_supply", "lighted_stack_known"}
PRIVATE |= {"lights_drawn", "draw_pile_seen", "lighted_stack_seen"}


def info_position() -> State:
    """3-player pro game: seat 2 holds cards, a face-down pair, a face-down card on the
    coloured building, unbuilt lighted windows and two windows it put back."""
    s = new(3, "pro", seed=5)
    set_hand(s, 0, [1, 1, 0, 0, 0])
    set_hand(s, 1, [0, 1, 1, 0, 0])
    set_hand(s, 2, [1, 0, 1, 1, 0])
    put_buyer(s, Area.BANK, 0, 1, (YELLOW,), True)
    put_buyer(s, Area.BANK, 2, 2, (BLUE, ORANGE), False)
    put_buyer(s, Area.SPIES, 0, 0, (VIOLET,), True)
    put_buyer(s, Area.SPIES, 1, 1, (BLUE, CGREEN), False)
    s.draw_pile[ORANGE] -= 1
    s.coloured.append(Buyer(2, (ORANGE,), False))
    s.lighted_stack = [[c, -1] for c in [0, 1, 2, 3, 4] * 3]
    give_lighted(s, 2, RED)
    give_lighted(s, 0, WHITE)
    s.lighted_stack[-1][1] = 2  # seat 2 put back a white and a black window
    s.lighted_stack[-2][1] = 2
    s.lighted_stack[-3][1] = 0  # seat 0 put back a red one
    return s


def test_R10_1_public_information_is_the_same_for_every_seat():
    """R10.1: board, displays, stacks, towers, prestige, Caliph, year, turn, hand sizes,
    Asari and supplies are public: every seat sees them alike."""
    s = info_position()
    add_tower(s, 1, BLACK, windows=1, lit_plain=1)
    give_tile(s, 2, BASE, GREEN)
    sound(s)
    views = [seat_view(s, p) for p in range(3)]
    public = public_view(s)
    for v in views:
        assert {k: x for k, x in v.items() if k not in PRIVATE} == public
        assert v["hand_sizes"] == [2, 2, 3]
        assert v["money"] == s.money and v["caliph"] == 0 and v["year"] == 1
        assert v["supply"][2][BASE][GREEN][0] == 1
        assert v["towers"][1][BLACK][0]["lit_plain"] == 1
        face_up = v["spaces"][Area.BANK][0]
        assert face_up == {"seat": 1, "n_cards": 1, "face_up": True, "cards": [YELLOW]}
        down = v["spaces"][Area.BANK][2]
        assert (down["seat"], down["n_cards"], down["face_up"]) == (2, 2, False)
        assert v["coloured"][0]["seat"] == 2
        assert v["lighted_held"] == [1, 0, 1]
    before = public_view(s)
    s.hands[1, BLUE] += 1
    s.draw_pile[BLUE] -= 1
    assert seat_view(s, 0)["hand_sizes"] == [2, 3, 3] != before["hand_sizes"]


def swap_hand(s: State, seat: int) -> None:
    a = int(np.flatnonzero(s.hands[seat])[0])
    b = next(c for c in range(5) if c != a and s.draw_pile[c] > 0)
    s.hands[seat, a] -= 1
    s.hands[seat, b] += 1
    s.draw_pile[a] += 1
    s.draw_pile[b] -= 1


def swap_face_down(s: State, seat: int) -> None:
    for area in s.spaces:
        for i, buyer in enumerate(area):
            if buyer is not None and buyer.seat == seat and not buyer.face_up:
                a = buyer.cards[0]
                b = next(c for c in range(5) if c not in buyer.cards and s.draw_pile[c] > 0)
                s.draw_pile[a] += 1
                s.draw_pile[b] -= 1
                area[i] = Buyer(seat, tuple(sorted((b, buyer.cards[1]))), False)
                return
    raise AssertionError("no face-down pair")


def swap_coloured(s: State, seat: int) -> None:
    i, buyer = next((i, b) for i, b in enumerate(s.coloured) if b.seat == seat)
    a = buyer.cards[0]
    b = next(c for c in range(5) if c != a and s.draw_pile[c] > 0)
    s.draw_pile[a] += 1
    s.draw_pile[b] -= 1
    s.coloured[i] = Buyer(seat, (b,), False)


def swap_lighted_held(s: State, seat: int) -> None:
    a = int(np.flatnonzero(s.lighted_supply[seat])[0])
    entry = next(e for e in s.lighted_stack if e[1] == -1 and e[0] != a)
    s.lighted_supply[seat, a] -= 1
    s.lighted_supply[seat, entry[0]] += 1
    entry[0] = a


def swap_put_back(s: State, seat: int) -> None:
    mine = next(e for e in s.lighted_stack if e[1] == seat)
    other = next(e for e in s.lighted_stack if e[1] == -1 and e[0] != mine[0])
    mine[0], other[0] = other[0], mine[0]


RESAMPLES = [swap_hand, swap_face_down, swap_coloured, swap_lighted_held, swap_put_back]


@pytest.mark.parametrize("resample", RESAMPLES, ids=lambda f: f.__name__)
def test_R10_2_other_seats_private_information_does_not_change_a_view(resample):
    """R10.2: another seat's hand, face-down colours, unbuilt lighted windows and the
    windows it put back are private to it: changing them changes no other seat's view."""
    s = info_position()
    sound(s)
    before = [seat_view(s, p) for p in range(3)]
    resample(s, 2)
    sound(s)
    assert seat_view(s, 0) == before[0]
    assert seat_view(s, 1) == before[1]
    assert seat_view(s, 2) != before[2]  # seat 2 knows its own


@pytest.mark.parametrize("resample", RESAMPLES, ids=lambda f: f.__name__)
def test_R10_2_own_private_information_appears_in_the_view(resample):
    """R10.2: a seat's own hand, face-down colours and lighted windows are in its view."""
    s = info_position()
    s.lighted_stack[-4][1] = 1  # seat 1 also put one back
    s.coloured.append(Buyer(1, (VIOLET,), False))
    s.draw_pile[VIOLET] -= 1
    give_lighted(s, 1, GREEN)
    sound(s)
    before = [seat_view(s, p) for p in range(3)]
    resample(s, 1)
    sound(s)
    assert seat_view(s, 1) != before[1]
    assert seat_view(s, 0) == before[0] and seat_view(s, 2) == before[2]


def test_R10_2_own_view_shows_the_exact_private_colours():
    """R10.2: the view holds the seat's own hand, face-down colours and lighted windows."""
    s = info_position()
    v = seat_view(s, 2)
    assert v["hand"] == [1, 0, 1, 1, 0]
    assert v["spaces"][Area.BANK][2]["cards"] == [BLUE, ORANGE]
    assert v["coloured"][0]["cards"] == [ORANGE]
    assert v["lighted_supply"] == [0, 0, 1, 0, 0]
    assert v["lighted_stack_known"][-2:] == [BLACK, WHITE]
    other = seat_view(s, 0)
    assert other["spaces"][Area.BANK][2]["cards"] is None
    assert other["coloured"][0]["cards"] is None
    assert other["lighted_stack_known"][-2:] == [None, None]


def test_R10_2_windows_drawn_by_another_seat_are_hidden():
    """R10.2: the lighted windows a seat drew (before keeping) are known to it only."""
    s = lights_position([RED, WHITE, BLACK, GREEN, BROWN, BROWN])
    act(s, Group.PLACE, target(Area.LIGHTS), BLUE)
    act(s, Group.LIGHTS_OPTION, 0)
    assert s.phase == Phase.LIGHTS_KEEP
    sound(s)
    before = [seat_view(s, p) for p in range(2)]
    assert before[0]["lights_drawn"] == [RED, WHITE, BLACK]
    s.lights_drawn[0], s.lighted_stack[0][0] = s.lighted_stack[0][0], s.lights_drawn[0]
    sound(s)
    assert seat_view(s, 1) == before[1]
    assert seat_view(s, 0) != before[0]


def test_R10_2_windows_put_back_are_known_to_that_seat_only():
    """R10.2: the lighted windows a seat saw and put back are known to that seat only."""
    s = lights_position([RED, WHITE, BLACK, GREEN, BROWN, BROWN])
    act(s, Group.PLACE, target(Area.LIGHTS), BLUE)
    act(s, Group.LIGHTS_OPTION, 0)
    act(s, Group.LIGHTS_KEEP, WHITE)
    mine, theirs = seat_view(s, 0), seat_view(s, 1)
    assert mine["lighted_stack_known"][:3] == [None] * 3
    assert sorted(mine["lighted_stack_known"][3:]) == [RED, BLACK]
    assert theirs["lighted_stack_known"] == [None] * 5
    assert mine["lighted_supply"] == [0, 0, 0, 0, 1]
    assert theirs["lighted_held"] == [1, 3 * 5 - 6]
    swap_lighted_held(s, 0)  # seat 0 kept another colour: seat 1 cannot tell
    assert seat_view(s, 1) == theirs and seat_view(s, 0) != mine


def test_R10_3_order_of_unseen_stack_entries_is_hidden_from_all():
    """R10.3: the order of every stack is hidden: reordering the lighted windows nobody
    has seen changes no seat's view."""
    s = info_position()
    before = [seat_view(s, p) for p in range(3)]
    unseen = [e for e in s.lighted_stack if e[1] == -1]
    colours = [e[0] for e in unseen][::-1]
    assert colours != [e[0] for e in unseen]
    for e, c in zip(unseen, colours):
        e[0] = c
    sound(s)
    assert [seat_view(s, p) for p in range(3)] == before
