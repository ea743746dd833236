"""Every number of the rules, in one place (docs/asara/rules.md R1, R2, R6, R7, R8).

Numbers marked [assumed] in docs/asara/rules.md are collected in `ASSUMED`, so that
changing one is a one-line edit. Everything else is tables indexed by the enums below; the
engines gather from them instead of branching.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any


class TileColour(IntEnum):
    BROWN = 0
    GREEN = 1
    RED = 2
    BLACK = 3
    WHITE = 4


class Part(IntEnum):
    BASE = 0
    TRUNK = 1
    WINDOW = 2
    TURRET = 3


class CardColour(IntEnum):
    BLUE = 0
    YELLOW = 1
    VIOLET = 2
    GREEN = 3
    ORANGE = 4


class Area(IntEnum):
    """Groups of spaces under one colour rule (R2, R3). The coloured building has none."""

    MARKET_BASE = 0
    MARKET_TRUNK = 1
    MARKET_WINDOW = 2
    MARKET_TURRET = 3
    BUILDING = 4
    BANK = 5
    SPIES = 6
    CALIPH = 7
    TENT = 8
    LIGHTS = 9
    GENIE = 10


N_TILE_COLOURS = len(TileColour)
N_PARTS = len(Part)
N_CARD_COLOURS = len(CardColour)
N_AREAS = len(Area)
N_GOLD = 2  # index 0 = plain tile, 1 = gold-decorated tile

MIN_PLAYERS, MAX_PLAYERS = 2, 4
N_YEARS = 4  # R1

# ------------------------------------------------------- [assumed] numbers (docs/asara/rules.md)
ASSUMED: dict[str, Any] = {
    # R1: tiles per colour by part (totals 20/20/25/20 are sourced; the even split is assumed)
    "tiles_per_colour": {Part.BASE: 4, Part.TRUNK: 4, Part.WINDOW: 5, Part.TURRET: 4},
    # R1: gold-decorated tiles: this many of each part type in each colour
    "gold_per_colour_and_part": 1,
    # R1: lighted windows per tile colour (15 in all is sourced)
    "lighted_windows_per_colour": 3,
    # R1: buyer cards per card colour (45 in all is sourced)
    "cards_per_colour": 9,
    # R2: spaces in the House of the Lighted Windows
    "lights_spaces": 3,
    # R9.2: the gift pile, as (kind, cards); the lighted-window gifts only with pro
    "gift_pile": {
        "card": 4,
        "asari_3": 1,
        "asari_4": 1,
        "asari_5": 1,
        "asari_6": 1,
        "buy_base": 2,
        "buy_trunk": 2,
        "buy_window": 2,
        "buy_turret": 2,
        "prestige_2": 4,
        "lighted_window": 4,
    },
    # R9.2: chest spaces, as (area name, space index); the lighted-windows one only with pro
    "chest_spaces": (
        ("MARKET_BASE", 0),
        ("MARKET_TRUNK", 0),
        ("MARKET_WINDOW", 0),
        ("MARKET_TURRET", 0),
        ("BUILDING", 3),
        ("LIGHTS", 0),
    ),
}

TILES_PER_COLOUR = tuple(ASSUMED["tiles_per_colour"][p] for p in Part)  # indexed by Part
GOLD_PER_KIND = ASSUMED["gold_per_colour_and_part"]
LIGHTED_PER_COLOUR = ASSUMED["lighted_windows_per_colour"]
CARDS_PER_COLOUR = ASSUMED["cards_per_colour"]
N_CARDS = CARDS_PER_COLOUR * N_CARD_COLOURS  # 45 (R1)
N_LIGHTED = LIGHTED_PER_COLOUR * N_TILE_COLOURS  # 15 (R1)

# R1 prices in Asari, indexed by TileColour
PRICE = (2, 4, 5, 6, 8)

# R1 cards dealt per player each year, by number of players
HAND_SIZE = {2: 9, 3: 8, 4: 7}

# R2 display size of each market, indexed by Part
DISPLAY_SIZE = (7, 7, 8, 7)

# R2 spaces of each area and what each space is worth (its value: plot number, Asari taken,
# or cost). Spaces of one area that share a value are interchangeable.
SPACE_VALUES = {
    Area.MARKET_BASE: (0, 0, 0, 0),
    Area.MARKET_TRUNK: (0, 0, 0, 0),
    Area.MARKET_WINDOW: (0, 0, 0, 0),
    Area.MARKET_TURRET: (0, 0, 0, 0),
    Area.BUILDING: (1, 2, 3, 4, 5, 6, 7),
    Area.BANK: (8, 10, 12),
    Area.SPIES: (3, 5),
    Area.CALIPH: (0,),
    Area.TENT: (0, 2, 4),
    Area.LIGHTS: (0,) * ASSUMED["lights_spaces"],
    Area.GENIE: (3, 5, 7),
}
MARKET_AREAS = (Area.MARKET_BASE, Area.MARKET_TRUNK, Area.MARKET_WINDOW, Area.MARKET_TURRET)
PRO_AREAS = (Area.TENT, Area.LIGHTS)
EXPANSION_AREAS = {Area.GENIE: "genie"}

COLOURED_BUILDING_ASARI = 5  # R4.4
N_BUILD_MAX = 7  # R4.2: a build uses 1..7 tiles
MAX_TOWERS_PER_COLOUR = TILES_PER_COLOUR[Part.BASE]  # one base per tower (R4.2.2)

# R6 money
START_MONEY_FIRST = 20  # R6.1: the starting player; each next seat clockwise gets 1 more
YEARLY_MONEY = 20  # R6.3

# R7 professional version
RECRUIT_CARDS = 2  # R7.1
# R7.2 lighted-window options: (cost, drawn, kept)
LIGHTS_OPTIONS = ((4, 3, 1), (10, 5, 2))
MAX_LIGHTS_DRAWN = max(drawn for _, drawn, _ in LIGHTS_OPTIONS)  # 5: most drawn at once

# R8 final scoring: (first, second) prestige
COLOUR_AWARDS = ((4, 2), (6, 3), (8, 4), (10, 5), (12, 6))  # indexed by TileColour
TALLEST_AWARD = (8, 4)
MOST_TOWERS_AWARD = (12, 6)
ASARI_PER_PRESTIGE = 10  # R8.3

# R9 expansions
KNOWN_EXPANSIONS = ("genie", "gifts")


class GiftEffect(IntEnum):
    """What a gift card does (R9.2)."""

    CARD = 0  # choose a buyer card from the draw pile
    ASARI = 1  # take `amount` Asari
    BUY = 2  # buy a face-up tile of part `amount` from that market's display
    PRESTIGE = 3  # score `amount` prestige
    LIGHTED = 4  # look through the lighted-window stack, keep one, pay LIGHTED_GIFT_COST


LIGHTED_GIFT_COST = 4  # R9.2
# R9.2 gift kinds, indexed by kind id: (name, effect, amount)
GIFT_KINDS = (
    ("card", GiftEffect.CARD, 0),
    ("asari_3", GiftEffect.ASARI, 3),
    ("asari_4", GiftEffect.ASARI, 4),
    ("asari_5", GiftEffect.ASARI, 5),
    ("asari_6", GiftEffect.ASARI, 6),
    ("buy_base", GiftEffect.BUY, Part.BASE),
    ("buy_trunk", GiftEffect.BUY, Part.TRUNK),
    ("buy_window", GiftEffect.BUY, Part.WINDOW),
    ("buy_turret", GiftEffect.BUY, Part.TURRET),
    ("prestige_2", GiftEffect.PRESTIGE, 2),
    ("lighted_window", GiftEffect.LIGHTED, LIGHTED_GIFT_COST),
)
N_GIFT_KINDS = len(GIFT_KINDS)
GIFT_NAMES = tuple(name for name, _, _ in GIFT_KINDS)
GIFT_EFFECT = tuple(int(effect) for _, effect, _ in GIFT_KINDS)  # [kind]
GIFT_AMOUNT = tuple(int(amount) for _, _, amount in GIFT_KINDS)  # [kind]
PRO_GIFTS = ("lighted_window",)


def gift_pile(pro: bool) -> tuple[int, ...]:
    """The cards of each gift kind in the pile at set-up (R9.2)."""
    pile = ASSUMED["gift_pile"]
    return tuple(0 if name in PRO_GIFTS and not pro else pile[name] for name in GIFT_NAMES)


# R9.2 chest spaces, as (area, space index); the last one is in play with pro only
CHEST_SPACES = tuple((Area[a], i) for a, i in ASSUMED["chest_spaces"])
N_CHESTS = len(CHEST_SPACES)
PRO_CHESTS = tuple(k for k, (area, _) in enumerate(CHEST_SPACES) if area in PRO_AREAS)
GIFT_SLOTS = N_YEARS  # gifts a chest can hold: one laid per year


def chests_in_play(pro: bool) -> tuple[int, ...]:
    return tuple(k for k in range(N_CHESTS) if pro or k not in PRO_CHESTS)


COLOUR_NAMES = tuple(c.name.lower() for c in TileColour)
PART_NAMES = tuple(p.name.lower() for p in Part)
CARD_NAMES = tuple(c.name.lower() for c in CardColour)

# the final scoring's categories (R8), in the order of every per-category table
FINAL_CATEGORIES = (*COLOUR_NAMES, "tallest", "most_towers", "asari")
