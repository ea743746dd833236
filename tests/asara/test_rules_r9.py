"""Rule tests for R9 (expansions): R9.1 the House of the Bottle Genie and R9.2 the Gifts of
the Caliph, each on a small hand-made position. Expected numbers come from docs/asara/rules.md."""

from __future__ import annotations

import json

import numpy as np
import pytest

from asara_env import GameConfig
from asara_env.asara.actions import CARD_OPTIONS, GENIE_MOVES, TARGETS, Group, decode
from asara_env.asara.constants import (
    CHEST_SPACES,
    GIFT_NAMES,
    Area,
    CardColour,
    TileColour,
    chests_in_play,
    gift_pile,
)
from asara_env.asara.phases import Phase
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.serialize import state_from_dict, state_to_dict
from asara_env.asara.reference.state import State
from asara_env.asara.reference.view import seat_view
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
GIFT = {name: k for k, name in enumerate(GIFT_NAMES)}
BASES, TRUNKS, WINDOWS, TURRETS, PLOT_4, LIGHTS = range(6)  # chest indices (CHEST_SPACES)
MOVE = {m.name: i for i, m in enumerate(GENIE_MOVES)}


def target(area: Area, arg: int | None = None) -> int:
    """The placement target index of `area` (space index, or n for a build)."""
    return next(i for i, t in enumerate(TARGETS) if t.area == area and t.arg == arg)


def legal_fields(s: State, group: Group) -> set[tuple[int, ...]]:
    """The fields of every legal action of `group`."""
    return {f for g, f in map(decode, legal_actions(s)) if g == group}


def builder(s: State, seat: int = 0) -> None:
    """`seat` owns a red tower and 3 red trunks + 4 red windows: a build of 1..7 is legal."""
    add_tower(s, seat, RED)
    give_tile(s, seat, TRUNK, RED, n=3)
    give_tile(s, seat, WINDOW, RED, n=4)


def game(expansions: tuple[str, ...], variant: str = "pro", players: int = 2, money: int = 30):
    """Seat 0 to move with two blue cards and `money` Asari; it can build 1..7 tiles."""
    s = new(players, variant, expansions=expansions)
    set_hand(s, 0, [2, 0, 0, 0, 0])
    s.money[0] = money
    builder(s)
    return s


# the face-up card colour filling every space of each area but the Genie's, in Area order:
# 4 markets, building, bank, spies, Caliph, tent, lights (the draw pile holds enough)
FILL = dict(zip(Area, [YELLOW, YELLOW, VIOLET, VIOLET, CGREEN, BLUE, BLUE, CGREEN, ORANGE, ORANGE]))


def fill_board(s: State, seat: int = 1) -> None:
    """`seat` (left with one orange card) has a buyer on every space but the Genie's."""
    set_hand(s, seat, [0, 0, 0, 0, 1])
    for area, colour in FILL.items():
        for i in range(len(s.spaces[area])):
            put_buyer(s, area, i, seat, (colour,), True)


def set_gifts(s: State, chests: dict[int, list[int]], year: int | None = None) -> None:
    """The chests hold exactly these gifts (the others none) in `year`; the gift pile keeps
    the size that year requires, the other cards counting as taken earlier."""
    s.year = year or s.year
    s.gifts = [list(chests.get(k, [])) for k in range(len(s.gifts))]
    laid = np.bincount([k for c in s.gifts for k in c], minlength=len(GIFT_NAMES))
    left = np.array(gift_pile(s.config.pro)) - laid
    assert (left >= 0).all()
    size = sum(gift_pile(s.config.pro)) - len(chests_in_play(s.config.pro)) * s.year
    s.gift_pile = np.zeros(len(GIFT_NAMES), np.int64)
    for kind in range(len(GIFT_NAMES)):
        s.gift_pile[kind] = min(int(left[kind]), size - int(s.gift_pile.sum()))


def gift_game(chests: dict[int, list[int]], variant="pro", year=None, money=20, players=2):
    """`game` with the gifts expansion and exactly these gifts on the chests."""
    s = game(("gifts",), variant, players, money)
    set_gifts(s, chests, year)
    return s


def leave_in_draw_pile(s: State, counts: list[int], into: int = 1) -> None:
    """Move every draw-pile card beyond `counts` into seat `into`'s hand."""
    set_hand(s, into, s.hands[into] + s.draw_pile - np.array(counts))


def set_lighted_stack(s: State, order: list[int], holder: int = 1) -> None:
    """The lighted-window stack is exactly `order` (top first); `holder` holds the rest."""
    counts = np.bincount(np.array(order, dtype=int), minlength=5)
    for c in range(5):
        give_lighted(s, holder, c, n=3 - int(counts[c]))
    s.lighted_stack = [[c, -1] for c in order]


def end_year(s: State) -> None:
    """Every hand is emptied but one blue card of the seat to move, which it plays on the
    coloured building: the year ends."""
    empty_hands(s, *range(s.num_players))
    set_hand(s, s.seat, [1, 0, 0, 0, 0])
    act(s, Group.PLACE_COLOURED, BLUE)


# ------------------------------------------------------------------------------------ R9.1
GENIE_EFFECTS = [  # move: (Asari taken (+) or paid (-) besides the Genie's cost, what follows)
    *[(f"the {p}s market", 0, Phase.BUY) for p in ("base", "trunk", "window", "turret")],
    *[(f"build {n}", -n, Phase.BUILD) for n in range(1, 8)],
    *[(f"bank {v}", v, Phase.PLACE) for v in (8, 10, 12)],
    ("the coloured building", 5, Phase.PLACE),
    *[(f"spies {v}", -v, Phase.BRIBE_STACK) for v in (3, 5)],
    *[(f"tent {v}", -v, Phase.PLACE) for v in (0, 2, 4)],
    ("the lighted windows", 0, Phase.LIGHTS_OPTION),
]


def test_R9_1_genie_offers_21_moves_every_space_but_the_caliphs():
    """R9.1: the move of any other space of the board except the Caliph's; all of them are
    open even when every one of those spaces is occupied (vacant or not)."""
    assert len(GENIE_MOVES) == 21
    assert {m.name for m in GENIE_MOVES} == {name for name, _, _ in GENIE_EFFECTS}
    assert all(m.area not in (Area.CALIPH, Area.GENIE) for m in GENIE_MOVES)
    s = game(("genie",))
    fill_board(s)
    sound(s)
    act(s, Group.PLACE, target(Area.GENIE, 0), BLUE)
    assert legal_fields(s, Group.GENIE_MOVE) == {(m,) for m in range(21)}
    s.caliph = 1
    for m in range(21):  # no Genie move takes the Caliph tile
        t = s.copy()
        act(t, Group.GENIE_MOVE, m)
        assert t.caliph == 1


@pytest.mark.parametrize("name, asari, phase", GENIE_EFFECTS, ids=[n for n, _, _ in GENIE_EFFECTS])
def test_R9_1_each_genie_move_is_that_spaces_move_paying_its_own_cost(name, asari, phase):
    """R9.1: buy (the market's decision), build n paying n, bank 8/10/12, +5 for the coloured
    building, bribery paying 3/5, recruit paying 0/2/4 and drawing 2, lighted windows; no
    second buyer is placed (the occupied spaces stay as they were)."""
    s = game(("genie",))
    fill_board(s)
    act(s, Group.PLACE, target(Area.GENIE, 0), BLUE)
    assert s.money[0] == 30 - 3 and s.phase == Phase.GENIE
    board, hand, pile = [list(a) for a in s.spaces], s.hands[0].sum(), s.draw_pile.sum()
    act(s, Group.GENIE_MOVE, MOVE[name])
    assert s.money[0] == 27 + asari
    assert s.phase == phase and s.seat == (1 if phase == Phase.PLACE else 0)
    assert s.spaces == board and s.coloured == []
    drawn = 2 if name.startswith("tent") else 0
    assert s.hands[0].sum() == hand + drawn and s.draw_pile.sum() == pile - drawn
    if phase == Phase.BUY:
        assert s.market == MOVE[name]  # the market of that part
    if phase == Phase.BUILD:
        assert s.build_left == int(name.split()[1])
    sound(s)


@pytest.mark.parametrize("money, open_spaces", [(2, []), (4, [0]), (5, [0, 1]), (7, [0, 1, 2])])
def test_R9_1_genie_spaces_cost_3_5_7(money, open_spaces):
    """R9.1 with R3.5: on a vacant space of the house pay 3, 5 or 7, then choose the move;
    a space is legal only with at least its cost in Asari."""
    s = game(("genie",), money=money)
    sound(s)
    spaces = [i for i in range(3) if legal(s, Group.PLACE, target(Area.GENIE, i), BLUE)]
    assert spaces == open_spaces
    for i in open_spaces:
        t = s.copy()
        act(t, Group.PLACE, target(Area.GENIE, i), BLUE)
        assert t.money[0] == money - (3, 5, 7)[i] and t.phase == Phase.GENIE and t.seat == 0
        assert t.spaces[Area.GENIE][i].seat == 0
        sound(t)


def test_R9_1_colour_rule_applies_in_the_house():
    """R9.1: the first face-up card sets the house's colour; then that colour face up or a
    face-down pair (R3.2, R3.3), on a vacant space (R3.1)."""
    s = game(("genie",))
    set_hand(s, 1, [1, 1, 1, 0, 0])
    act(s, Group.PLACE, target(Area.GENIE, 0), BLUE)
    act(s, Group.GENIE_MOVE, MOVE["bank 8"])
    assert s.area_colour[Area.GENIE] == BLUE and s.seat == 1
    genie_5 = target(Area.GENIE, 1)
    assert legal(s, Group.PLACE, genie_5, BLUE)
    assert not legal(s, Group.PLACE, genie_5, YELLOW)
    options = {CARD_OPTIONS[o] for t, o in legal_fields(s, Group.PLACE) if t == genie_5}
    assert options == {(BLUE,), (BLUE, YELLOW), (BLUE, VIOLET), (YELLOW, VIOLET)}
    assert not legal(s, Group.PLACE, target(Area.GENIE, 0), BLUE)  # taken


def test_R9_1_genie_needs_the_professional_version():
    """R9.1: the Genie is played with the professional version only."""
    with pytest.raises(ValueError):
        GameConfig(variant="basic", expansions=("genie",))
    s = game(())  # pro without the expansion: no House of the Bottle Genie
    assert not any(legal(s, Group.PLACE, target(Area.GENIE, i), BLUE) for i in range(3))


def test_R9_1_genie_build_on_an_occupied_plot_pays_n_not_the_next_plot():
    """R9.1: build n tiles on plot n paying n; the next-plot rule does not apply."""
    s = game(("genie",))
    put_buyer(s, Area.BUILDING, 1, 1, (BLUE,), True)  # plot 2 taken
    placed = s.copy()
    act(placed, Group.PLACE, target(Area.BUILDING, 2), BLUE)
    assert placed.money[0] == 30 - 3  # an ordinary buyer goes on plot 3 and pays 3
    act(s, Group.PLACE, target(Area.GENIE, 0), BLUE)
    act(s, Group.GENIE_MOVE, MOVE["build 2"])
    assert s.money[0] == 30 - 3 - 2 and s.build_left == 2
    act(s, Group.BUILD_TILE, TRUNK, RED, 0, 0)
    act(s, Group.BUILD_TILE, WINDOW, RED, 0, 0)
    assert s.towers[0][RED][0].height == 4 and s.prestige[0] == 2
    assert s.spaces[Area.BUILDING][2:] == [None] * 5  # no buyer went on a plot
    assert s.phase == Phase.PLACE and s.seat == 1
    sound(s)


def test_R9_1_genie_build_needs_n_asari_and_a_build_of_exactly_n():
    """R9.1 with R3.5: build n is open only with n Asari and a legal build of n tiles."""
    s = new(2, "pro", expansions=("genie",))
    set_hand(s, 0, [2, 0, 0, 0, 0])
    give_tile(s, 0, BASE, GREEN)
    give_tile(s, 0, TURRET, GREEN)  # only a new green tower: exactly 2 tiles
    s.money[0] = 3 + 2
    act(s, Group.PLACE, target(Area.GENIE, 0), BLUE)
    builds = {GENIE_MOVES[m].name for (m,) in legal_fields(s, Group.GENIE_MOVE)}
    assert {b for b in builds if b.startswith("build")} == {"build 2"}
    s.money[0] = 1
    assert not legal(s, Group.GENIE_MOVE, MOVE["build 2"])


def test_R9_1_genie_market_needs_an_affordable_tile_and_buys_it():
    """R9.1: buy from a market paying the tile's price; the market needs a tile the player
    can afford (R4.1) even if all its spaces are taken."""
    s = game(("genie",), money=3 + 5)
    fill_board(s)
    set_display(s, BASE, {(BLACK, 0): 1})  # 6
    set_display(s, TURRET, {(RED, 1): 1})  # 5
    act(s, Group.PLACE, target(Area.GENIE, 0), BLUE)
    assert not legal(s, Group.GENIE_MOVE, MOVE["the bases market"])
    act(s, Group.GENIE_MOVE, MOVE["the turrets market"])
    assert legal_fields(s, Group.BUY) == {(TURRET, RED, 1)}
    act(s, Group.BUY, TURRET, RED, 1)
    assert s.money[0] == 0 and s.supply[0, TURRET, RED, 1] == 1
    assert s.displays[TURRET].sum() == 0 and s.seat == 1
    sound(s)


def test_R9_1_genie_spies_pays_then_bribes():
    """R9.1: bribery paying the spies' 3 or 5; then search a stack and take a tile affordable
    with what remains (R4.5), or nothing."""
    s = game(("genie",), money=3 + 4)
    act(s, Group.PLACE, target(Area.GENIE, 0), BLUE)
    assert legal(s, Group.GENIE_MOVE, MOVE["spies 3"])
    assert not legal(s, Group.GENIE_MOVE, MOVE["spies 5"])
    s = game(("genie",), money=3 + 5 + 2)
    act(s, Group.PLACE, target(Area.GENIE, 0), BLUE)
    act(s, Group.GENIE_MOVE, MOVE["spies 5"])
    assert s.money[0] == 2 and s.phase == Phase.BRIBE_STACK
    act(s, Group.BRIBE_STACK, TURRET)
    takes = legal_fields(s, Group.BRIBE_TAKE)
    assert takes and {colour for _, colour, _ in takes} == {BROWN}  # only brown costs 2
    assert legal(s, Group.BRIBE_NOTHING)
    _, _, gold = min(takes)
    stack = s.stacks[TURRET].sum()
    act(s, Group.BRIBE_TAKE, TURRET, BROWN, gold)
    assert s.money[0] == 0 and s.supply[0, TURRET, BROWN, gold] == 1 and s.seat == 1
    assert s.stacks[TURRET].sum() == stack - 1
    sound(s)


@pytest.mark.parametrize("money, options", [(10, {(0,), (1,)}), (9, {(0,)})])
def test_R9_1_genie_lighted_windows_offers_4_or_10(money, options):
    """R9.1: the lighted windows (pay 4 or 10, R7.2) with what is left after the Genie."""
    s = game(("genie",), money=3 + money)
    act(s, Group.PLACE, target(Area.GENIE, 0), BLUE)
    act(s, Group.GENIE_MOVE, MOVE["the lighted windows"])
    assert legal_fields(s, Group.LIGHTS_OPTION) == options
    act(s, Group.LIGHTS_OPTION, 0)
    act(s, Group.LIGHTS_KEEP, s.lights_drawn[0])
    assert s.money[0] == money - 4 and s.lighted_supply[0].sum() == 1
    sound(s)


def test_R9_1_genie_moves_are_legal_as_placements_on_their_spaces_are():
    """R9.1 with R3.5: with 2 Asari left only the moves that can be paid for are open: a
    market with a tile of 2, builds of 1 and 2, the bank, the coloured building, tents 0 and
    2; lighted windows also need a window in the stack."""
    s = game(("genie",), money=3 + 2)
    set_display(s, BASE, {(BROWN, 0): 1})
    for part in (TRUNK, WINDOW, TURRET):
        set_display(s, part, {(GREEN, 0): 1})
    act(s, Group.PLACE, target(Area.GENIE, 0), BLUE)
    open_moves = {GENIE_MOVES[m].name for (m,) in legal_fields(s, Group.GENIE_MOVE)}
    assert open_moves == {
        *("the bases market", "build 1", "build 2", "bank 8", "bank 10", "bank 12"),
        *("the coloured building", "tent 0", "tent 2"),
    }
    s.money[0] = 4
    for name in ("the lighted windows", "tent 4", "build 4", "spies 3"):
        assert legal(s, Group.GENIE_MOVE, MOVE[name])
    for c in range(5):
        give_lighted(s, 1, c, n=3)
    assert not legal(s, Group.GENIE_MOVE, MOVE["the lighted windows"])


def test_R9_1_genie_market_move_takes_no_gift():
    """R9.1 with R9.2: no buyer is placed by the Genie, so no chest is emptied."""
    s = game(("genie", "gifts"))
    set_gifts(s, {BASES: [GIFT["asari_6"]]})
    act(s, Group.PLACE, target(Area.GENIE, 0), BLUE)
    act(s, Group.GENIE_MOVE, MOVE["the bases market"])
    assert s.phase == Phase.BUY and s.money[0] == 27
    assert s.gifts[BASES] == [GIFT["asari_6"]] and s.spaces[Area.MARKET_BASE] == [None] * 4
    sound(s)


# ------------------------------------------------------------------------------------ R9.2
def test_R9_2_gift_pile_and_chest_spaces():
    """R9.2 [assumed]: 4 cards, Asari 3/4/5/6, 2 of each part, 4 x +2 prestige and (pro
    only) 4 lighted windows; chests on the first space of each market, plot 4 and (pro
    only) the House of the Lighted Windows."""
    pro = dict(zip(GIFT_NAMES, gift_pile(True)))
    assert pro == {
        "card": 4,
        **{f"asari_{a}": 1 for a in (3, 4, 5, 6)},
        **{f"buy_{p}": 2 for p in ("base", "trunk", "window", "turret")},
        "prestige_2": 4,
        "lighted_window": 4,
    }
    assert sum(gift_pile(True)) == 24
    assert dict(zip(GIFT_NAMES, gift_pile(False))) == {**pro, "lighted_window": 0}
    markets = [(Area(p), 0) for p in range(4)]
    assert (*markets, (Area.BUILDING, 3), (Area.LIGHTS, 0)) == CHEST_SPACES
    assert chests_in_play(True) == (0, 1, 2, 3, 4, 5)
    assert chests_in_play(False) == (0, 1, 2, 3, 4)


@pytest.mark.parametrize("variant, chests", [("pro", 6), ("basic", 5)])
def test_R9_2_gifts_accumulate_one_per_chest_per_year_until_taken(variant, chests):
    """R9.2: at the start of each year one gift from the pile on every chest in play, on
    top of those still there; after four years the whole pile has been laid. The basic game
    has no lighted-window gifts and no lights chest."""
    s = new(3, variant, seed=4, expansions=("gifts",))
    total = sum(gift_pile(variant == "pro"))
    assert s.gift_queue == [] and s.pending_target == -1
    for year in range(1, 5):
        assert s.year == year
        assert [len(c) for c in s.gifts] == [year] * chests + [0] * (6 - chests)
        assert s.gift_pile.sum() == total - chests * year
        laid = np.bincount([k for c in s.gifts for k in c], minlength=len(GIFT_NAMES))
        assert (s.gift_pile + laid).tolist() == list(gift_pile(variant == "pro"))
        sound(s)
        before = [list(c) for c in s.gifts]
        end_year(s)
        if year < 4:
            assert [c[:year] for c in s.gifts] == before  # the old ones stay, in order
    assert s.is_over and s.gift_pile.sum() == 0
    if variant == "basic":
        assert all(GIFT["lighted_window"] not in c for c in s.gifts)


def test_R9_2_first_buyer_in_a_market_takes_its_chest():
    """R9.2: the market's first buyer stands on its chest space and takes the gift."""
    s = gift_game({BASES: [GIFT["asari_5"]], TRUNKS: [GIFT["asari_3"]]})
    act(s, Group.PLACE, target(Area.MARKET_BASE), BLUE)
    assert s.spaces[Area.MARKET_BASE][0].seat == 0
    assert s.money[0] == 25 and s.gifts[BASES] == [] and s.phase == Phase.BUY
    assert s.gifts[TRUNKS] == [GIFT["asari_3"]]  # other chests keep theirs
    sound(s)


def test_R9_2_next_plot_rule_can_land_a_build_on_the_plot_4_chest():
    """R9.2 with R4.2: build 2 with plots 2 and 3 taken goes on plot 4, pays 4, takes the
    gift; a buyer on plot 5 takes nothing."""
    s = gift_game({PLOT_4: [GIFT["asari_6"]]})
    other = s.copy()
    put_buyer(s, Area.BUILDING, 1, 1, (BLUE,), True)
    put_buyer(s, Area.BUILDING, 2, 1, (BLUE,), True)
    act(s, Group.PLACE, target(Area.BUILDING, 2), BLUE)
    assert s.spaces[Area.BUILDING][3].seat == 0 and s.gifts[PLOT_4] == []
    assert s.money[0] == 20 + 6 - 4 and s.build_left == 2
    act(other, Group.PLACE, target(Area.BUILDING, 5), BLUE)
    assert other.money[0] == 15 and other.gifts[PLOT_4] == [GIFT["asari_6"]]


ONCE = [("asari_3", 3, 0), ("asari_4", 4, 0), ("asari_5", 5, 0), ("asari_6", 6, 0)]


@pytest.mark.parametrize("gift, asari, prestige", [*ONCE, ("prestige_2", 0, 2)])
def test_R9_2_asari_and_prestige_gifts_pay_at_once(gift, asari, prestige):
    """R9.2: take the Asari shown, or +2 prestige, before the space's own move."""
    s = gift_game({TURRETS: [GIFT[gift]]})
    act(s, Group.PLACE, target(Area.MARKET_TURRET), BLUE)
    assert s.money == [20 + asari, 21] and s.prestige == [prestige, 0]
    assert s.phase == Phase.BUY and s.market == TURRET and s.gifts[TURRETS] == []
    sound(s)


def test_R9_2_card_gift_takes_a_chosen_colour_from_the_draw_pile():
    """R9.2: choose a buyer card of any colour in the draw pile into the hand."""
    s = gift_game({BASES: [GIFT["card"]]})
    leave_in_draw_pile(s, [0, 2, 0, 1, 0])
    sound(s)
    act(s, Group.PLACE, target(Area.MARKET_BASE), BLUE)
    assert s.phase == Phase.GIFT_CARD and s.seat == 0
    assert legal_fields(s, Group.GIFT_CARD) == {(YELLOW,), (CGREEN,)}
    act(s, Group.GIFT_CARD, CGREEN)
    assert s.hands[0].tolist() == [1, 0, 0, 1, 0] and s.draw_pile.tolist() == [0, 2, 0, 0, 0]
    assert s.phase == Phase.BUY and s.pending_target == -1
    sound(s)


def test_R9_2_card_gift_with_an_empty_draw_pile_does_nothing():
    """R9.2: if the draw pile is empty, nothing (the next gift and the move go on)."""
    s = gift_game({BASES: [GIFT["card"], GIFT["asari_3"]]}, year=2)
    leave_in_draw_pile(s, [0, 0, 0, 0, 0])
    sound(s)
    act(s, Group.PLACE, target(Area.MARKET_BASE), BLUE)
    assert s.phase == Phase.BUY and s.hands[0].tolist() == [1, 0, 0, 0, 0]
    assert s.money[0] == 23
    sound(s)


@pytest.mark.parametrize("part", [BASE, TRUNK, WINDOW, TURRET])
def test_R9_2_buy_gift_buys_a_tile_of_its_part_from_that_display(part):
    """R9.2: buy one face-up tile of the part shown from that market, paying its price;
    [decision] compulsory: there is no way to decline."""
    name = ("buy_base", "buy_trunk", "buy_window", "buy_turret")[part]
    s = gift_game({PLOT_4: [GIFT[name]]})
    set_display(s, part, {(GREEN, 0): 1, (WHITE, 0): 1})
    act(s, Group.PLACE, target(Area.BUILDING, 4), BLUE)
    assert s.phase == Phase.GIFT_BUY and s.market == part
    assert [decode(a)[0] for a in legal_actions(s)] == [Group.BUY] * 2
    assert legal_fields(s, Group.BUY) == {(part, GREEN, 0), (part, WHITE, 0)}
    act(s, Group.BUY, part, WHITE, 0)
    assert s.supply[0, part, WHITE, 0] == 1 and s.displays[part].sum() == 1
    assert s.phase == Phase.BUILD and s.money[0] == 20 - 8 - 4 and s.build_left == 4
    sound(s)


def test_R9_2_unaffordable_buy_gift_does_nothing():
    """R9.2: if the player cannot pay for any tile shown, the gift does nothing."""
    s = gift_game({PLOT_4: [GIFT["buy_turret"]]}, money=7)
    set_display(s, TURRET, {(WHITE, 0): 2})
    act(s, Group.PLACE, target(Area.BUILDING, 4), BLUE)
    assert s.phase == Phase.BUILD and s.money[0] == 3 and s.build_left == 4
    assert s.displays[TURRET, WHITE, 0] == 2 and s.supply[0, TURRET].sum() == 0


def test_R9_2_buy_gift_may_not_make_the_plot_unaffordable():
    """R9.2 [decision]: a tile is allowed only if plot 4 can still be paid afterwards."""
    s = gift_game({PLOT_4: [GIFT["buy_turret"]]}, money=7)
    set_display(s, TURRET, {(BROWN, 0): 1, (GREEN, 0): 1})
    act(s, Group.PLACE, target(Area.BUILDING, 4), BLUE)
    assert legal_fields(s, Group.BUY) == {(TURRET, BROWN, 0)}  # green would leave 3 < 4
    act(s, Group.BUY, TURRET, BROWN, 0)
    assert s.phase == Phase.BUILD and s.money[0] == 7 - 2 - 4


@pytest.mark.parametrize("tiles, offered", [(1, False), (2, True)])
def test_R9_2_buy_gift_must_leave_the_market_move_possible(tiles, offered):
    """R9.2 [decision]: on a market chest the same display must still hold a tile the
    player can then afford; otherwise the gift does nothing."""
    s = gift_game({BASES: [GIFT["buy_base"]]}, money=8)
    set_display(s, BASE, {(GREEN, 0): tiles})
    act(s, Group.PLACE, target(Area.MARKET_BASE), BLUE)
    assert s.phase == (Phase.GIFT_BUY if offered else Phase.BUY)
    if offered:
        act(s, Group.BUY, BASE, GREEN, 0)
        assert s.phase == Phase.BUY and s.money[0] == 4
    act(s, Group.BUY, BASE, GREEN, 0)
    assert s.supply[0, BASE, GREEN, 0] == tiles and s.money[0] == 8 - 4 * tiles
    sound(s)


def test_R9_2_lighted_window_gift_keeps_any_window_of_the_stack_for_4():
    """R9.2: look through the stack, keep one, pay 4; then the lights chest's own move.
    The rest is shuffled, so nobody knows any position in it any more."""
    s = gift_game({LIGHTS: [GIFT["lighted_window"]]}, money=8)
    set_lighted_stack(s, [RED, WHITE, RED, BLACK])
    s.lighted_stack[1][1] = s.lighted_stack[3][1] = 1  # seat 1 put these back
    sound(s)
    act(s, Group.PLACE, target(Area.LIGHTS), BLUE)
    assert s.phase == Phase.GIFT_LIGHTS
    assert legal_fields(s, Group.LIGHTS_KEEP) == {(RED,), (WHITE,), (BLACK,)}
    act(s, Group.LIGHTS_KEEP, BLACK)  # the bottom window
    assert s.lighted_supply[0].tolist() == [0, 0, 0, 1, 0] and s.money[0] == 4
    assert sorted(s.lighted_stack) == [[RED, -1], [RED, -1], [WHITE, -1]]
    assert s.phase == Phase.LIGHTS_OPTION and legal(s, Group.LIGHTS_OPTION, 0)
    sound(s)


@pytest.mark.parametrize("money", [3, 7])
def test_R9_2_lighted_window_gift_needs_4_beyond_the_spaces_own_move(money):
    """R9.2: pay 4 if affordable, otherwise nothing; [decision] on the lights chest the
    own move's 4 must remain (7 is not enough), on a market chest its tile's price."""
    s = gift_game({LIGHTS: [GIFT["lighted_window"]], BASES: [GIFT["lighted_window"]]}, money=money)
    set_display(s, BASE, {(BROWN, 0): 1})
    if money >= 4:
        act(s, Group.PLACE, target(Area.LIGHTS), BLUE)
        assert s.phase == Phase.LIGHTS_OPTION
    else:
        act(s, Group.PLACE, target(Area.MARKET_BASE), BLUE)
        assert s.phase == Phase.BUY
    assert s.money[0] == money and s.lighted_supply[0].sum() == 0
    sound(s)


def test_R9_2_placement_must_be_legal_without_counting_the_gifts():
    """R9.2: a placement on a gift space must still be legal by R3.5 without the gift."""
    s = gift_game({BASES: [GIFT["asari_6"]], PLOT_4: [GIFT["asari_5"]]}, money=1)
    set_display(s, BASE, {(BROWN, 0): 1})
    assert not legal(s, Group.PLACE, target(Area.MARKET_BASE), BLUE)
    s.money[0] = 3
    assert legal(s, Group.PLACE, target(Area.MARKET_BASE), BLUE)
    assert not legal(s, Group.PLACE, target(Area.BUILDING, 4), BLUE)  # plot 4 costs 4


@pytest.mark.parametrize(
    "order, bought", [(["asari_3", "buy_base"], True), (["buy_base", "asari_3"], False)]
)
def test_R9_2_gifts_are_carried_out_in_the_order_laid(order, bought):
    """R9.2: in the order laid: 3 Asari first make the brown base affordable beside plot 4;
    the purchase first would leave 2 < 4, so it does nothing."""
    s = gift_game({PLOT_4: [GIFT[g] for g in order]}, year=2, money=4)
    set_display(s, BASE, {(BROWN, 0): 1})
    sound(s)
    act(s, Group.PLACE, target(Area.BUILDING, 4), BLUE)
    if bought:
        assert s.phase == Phase.GIFT_BUY and s.money[0] == 7
        act(s, Group.BUY, BASE, BROWN, 0)
    assert s.phase == Phase.BUILD and s.supply[0, BASE, BROWN, 0] == bought
    assert s.money[0] == 4 + 3 - 2 * bought - 4
    sound(s)


def four_gifts() -> State:
    """Year 4: the trunks chest holds a card, 5 Asari, a trunk purchase and +2 prestige."""
    laid = [GIFT[g] for g in ("card", "asari_5", "buy_trunk", "prestige_2")]
    s = gift_game({TRUNKS: laid}, year=4)
    set_display(s, TRUNK, {(GREEN, 0): 2})
    return s


def test_R9_2_the_buyer_takes_all_gifts_and_carries_them_out_in_order():
    """R9.2: all the chest's gifts, each in the order laid, before the space's own move."""
    s = four_gifts()
    sound(s)
    act(s, Group.PLACE, target(Area.MARKET_TRUNK), BLUE)
    assert s.gifts[TRUNKS] == [] and s.phase == Phase.GIFT_CARD
    assert s.gift_queue == [GIFT["asari_5"], GIFT["buy_trunk"], GIFT["prestige_2"]]
    act(s, Group.GIFT_CARD, next(b for b in range(5) if s.draw_pile[b]))
    assert s.phase == Phase.GIFT_BUY and s.money[0] == 25 and s.prestige[0] == 0
    assert s.gift_queue == [GIFT["prestige_2"]] and s.gift_chest == TRUNKS
    sound(s)
    act(s, Group.BUY, TRUNK, GREEN, 0)
    assert s.phase == Phase.BUY and s.market == TRUNK and s.prestige[0] == 2
    assert s.gift_queue == [] and s.pending_target == -1 and s.gift_chest == -1
    act(s, Group.BUY, TRUNK, GREEN, 0)
    assert s.supply[0, TRUNK, GREEN, 0] == 2 and s.money[0] == 25 - 8 and s.seat == 1
    assert s.hands[0].sum() == 2
    sound(s)


# ------------------------------------------------------------------------ R9.2 with R10
def test_R9_2_only_the_seat_taking_a_gift_card_sees_the_draw_pile():
    """R9.2 with R10.2/R10.3: who takes a gift card looks through the draw pile; nobody else
    sees it, and another seat's view does not depend on it."""
    s = gift_game({BASES: [GIFT["card"]]}, players=3)
    assert seat_view(s, 0)["draw_pile_seen"] is None  # not while placing
    act(s, Group.PLACE, target(Area.MARKET_BASE), BLUE)
    views = [seat_view(s, p) for p in range(3)]
    assert views[0]["draw_pile_seen"] == s.draw_pile.tolist()
    assert views[1]["draw_pile_seen"] is None and views[2]["draw_pile_seen"] is None
    a = int(np.flatnonzero(s.hands[2])[0])  # seat 2 swaps a card with the draw pile
    b = next(c for c in range(5) if c != a and s.draw_pile[c])
    s.hands[2, a], s.hands[2, b] = s.hands[2, a] - 1, s.hands[2, b] + 1
    s.draw_pile[a], s.draw_pile[b] = s.draw_pile[a] + 1, s.draw_pile[b] - 1
    sound(s)
    assert seat_view(s, 1) == views[1]
    assert seat_view(s, 0)["draw_pile_seen"] != views[0]["draw_pile_seen"]
    act(s, Group.GIFT_CARD, a)
    assert seat_view(s, 0)["draw_pile_seen"] is None  # the look is over


def counts(colours: list[int]) -> list[int]:
    return np.bincount(colours, minlength=5).tolist()


def test_R9_2_only_the_seat_taking_a_gift_window_sees_the_lighted_stack():
    """R9.2 with R10.2/R10.3: who takes a gift window looks through the stack; nobody else."""
    s = gift_game({LIGHTS: [GIFT["lighted_window"]]}, players=3)
    set_lighted_stack(s, [RED, WHITE, GREEN], holder=2)
    act(s, Group.PLACE, target(Area.LIGHTS), BLUE)
    views = [seat_view(s, p) for p in range(3)]
    assert views[0]["lighted_stack_seen"] == counts([RED, WHITE, GREEN])
    assert views[1]["lighted_stack_seen"] is None and views[2]["lighted_stack_seen"] is None
    s.lighted_supply[2, BLACK] -= 1  # seat 2's black window and the stack's white one swap
    s.lighted_supply[2, WHITE] += 1
    s.lighted_stack[1][0] = BLACK
    sound(s)
    assert seat_view(s, 1) == views[1]
    assert seat_view(s, 0)["lighted_stack_seen"] == counts([RED, BLACK, GREEN])
    act(s, Group.LIGHTS_KEEP, RED)
    assert seat_view(s, 0)["lighted_stack_seen"] is None


# --------------------------------------------------------------------- R9.2 saved states
def test_R9_2_save_and_load_in_the_middle_of_the_gifts():
    """R9.2: a game saved while gifts are carried out loads (through JSON) into the same
    state and plays on identically, chance included."""
    s = four_gifts()
    act(s, Group.PLACE, target(Area.MARKET_TRUNK), BLUE)
    act(s, Group.GIFT_CARD, next(b for b in range(5) if s.draw_pile[b]))
    saved = state_to_dict(s)
    assert saved["version"] == 2 and saved["gift_queue"] == [GIFT["prestige_2"]]
    loaded = state_from_dict(json.loads(json.dumps(saved)))
    assert state_to_dict(loaded) == saved
    assert loaded.phase == Phase.GIFT_BUY and loaded.pending_target == target(Area.MARKET_TRUNK)
    assert legal_actions(loaded) == legal_actions(s)
    for state in (s, loaded):
        while not state.is_over:
            actions = legal_actions(state)
            engine.step(state, actions[state.decisions % len(actions)])
    assert state_to_dict(loaded) == state_to_dict(s)
    assert loaded.prestige[0] >= 2


def test_R9_2_version_1_saves_load_without_gifts():
    """Saves of schema version 1 (before the gifts) load with no gifts anywhere."""
    s = new(2, "pro", seed=2)
    saved = state_to_dict(s)
    old = {k: v for k, v in saved.items() if "gift" not in k and not k.startswith("pending")}
    old["version"] = 1
    loaded = state_from_dict(old)
    assert loaded.gifts == [[]] * 6 and loaded.gift_pile.sum() == 0
    assert loaded.gift_queue == [] and loaded.pending_target == -1
    assert state_to_dict(loaded) == saved
