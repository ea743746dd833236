"""The board in a small terminal: one seat's view in at most 80 columns and about 18 lines.

    print(render_compact(seat_view(state, seat)))  # R10: one seat's knowledge

`render_view` (asara_env/render.py) draws the same view in full (100 columns, 40+ lines);
this one keeps what a person needs to decide, in a short notation:

    == ASARA 3p pro | year 2/4 | to move: P1 (you) | Caliph: P0 ==
    pending: buy a tile from the trunks market
    bases   [red] P0 P1 . .  | display bro2 gre1 red3(1g) | stack 8
    ...
    bank [gre] 8:P2 10:. 12:.  spies [any] 3:. 5:.  caliph [yel] P0  coloured P1 P2
    P1 (you) prestige 4 money 12 hand 5: blue 2, violet 3 | lighted 1: red 1
      supply: bas bro1 | tur whi1(1g)
    P0 prestige 6 money 3 hand 4 lighted 2 | towers: red6(1g,1l) whi3

Colours are shortened to their first three letters (`bro` brown, `gre` green, `bla` black,
`whi` white; `blu` blue, `yel` yellow, `vio` violet, `ora` orange); `[gre]` is an area's
required colour, `[any]` none yet; `8:P2` space 8 taken by seat 2, `.` vacant; `{$5,buy-win}`
the gifts on a chest space (R9.2); `red3(1g)` three red tiles, one gold-decorated;
`red6(1g,1l)` a red tower six tiles high with one visible gold tile and one lighted window.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from .constants import (
    CARD_NAMES,
    COLOUR_NAMES,
    GIFT_NAMES,
    MARKET_AREAS,
    N_YEARS,
    PART_NAMES,
    SPACE_VALUES,
    Area,
    Part,
)
from .phases import Phase
from .render import AREA_NAMES, PENDING, area_in_game, chests, known_counts, seat_name, wrap

COMPACT_WIDTH = 80
COMPACT_LINES = 18  # the board's lines at most, in the games tested (tests/test_render_compact)

TILE_SHORT = tuple(name[:3] for name in COLOUR_NAMES)  # bro gre red bla whi
CARD_SHORT = tuple(name[:3] for name in CARD_NAMES)  # blu yel vio gre ora
PART_SHORT = tuple(name[:3] for name in PART_NAMES)  # bas tru win tur
# R9.2 gift kinds by id, without spaces: card $3 $4 $5 $6 buy-bas .. buy-tur +2pr lit-win
GIFT_SHORT = tuple(
    "card"
    if name == "card"
    else f"${name[6:]}"
    if name.startswith("asari_")
    else f"buy-{name[4:7]}"
    if name.startswith("buy_")
    else f"+{name[9:]}pr"
    if name.startswith("prestige_")
    else "lit-win"
    for name in GIFT_NAMES
)


def pack(items: Sequence[str], head: str = "", sep: str = "  ") -> list[str]:
    """The items after `head`, as many whole items to a line as fit in COMPACT_WIDTH."""
    return wrap(head, items, sep=sep, width=COMPACT_WIDTH)


def flow(items: Sequence[str], head: str = "", sep: str = " | ") -> list[str]:
    """`head` and the items as running text, broken at spaces (never inside a word) to
    COMPACT_WIDTH columns, the lines after the first indented by two."""
    text = head + sep.join(items)
    return textwrap.wrap(
        text, COMPACT_WIDTH, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False
    )


# ------------------------------------------------------------------------ small pieces
def tiles_short(counts: Sequence[Sequence[int]]) -> str:
    """int[colour][gold] tile counts as 'bro2 red3(1g)'; '-' when empty."""
    items = [
        f"{TILE_SHORT[c]}{plain + gold}" + (f"({gold}g)" if gold else "")
        for c, (plain, gold) in enumerate(counts)
        if plain + gold
    ]
    return " ".join(items) or "-"


def tower_short(colour: int, tower: dict) -> str:
    """'red6(1g,1l)': colour, height, visible gold tiles and lighted windows (R6.2)."""
    height = sum(map(sum, tower["parts"]))
    gold = sum(g for _, g in tower["parts"]) - tower["lit_gold"]
    lit = tower["lit_plain"] + tower["lit_gold"]
    extras = [f"{gold}g"] * bool(gold) + [f"{lit}l"] * bool(lit)
    return f"{TILE_SHORT[colour]}{height}" + (f"({','.join(extras)})" if extras else "")


def colour_short(colour: int) -> str:
    return f"[{CARD_SHORT[colour]}]" if colour >= 0 else "[any]"


def spaces_short(view: dict, area: Area) -> str:
    """'8:P2 10:. 12:.': each space's value where the values differ, its buyer's seat or
    '.', and the gifts on its chest (`{$5,buy-win}`, R9.2)."""
    values = SPACE_VALUES[area]
    numbered = len(set(values)) > 1
    gifts = {i: view["gifts"][k] for (a, i), k in chests(view["config"]).items() if a == area}
    texts = []
    for i, (value, buyer) in enumerate(zip(values, view["spaces"][area])):
        text = (f"{value}:" if numbered else "") + ("." if buyer is None else f"P{buyer['seat']}")
        if i in gifts:
            text += "{" + ",".join(GIFT_SHORT[k] for k in gifts[i]) + "}"
        texts.append(text)
    return " ".join(texts)


# ------------------------------------------------------------------------ the parts
def header_short(view: dict) -> list[str]:
    config = view["config"]
    rules = "+".join([config["variant"], *config["expansions"]])
    return [
        f"== ASARA {config['num_players']}p {rules} | year {view['year']}/{N_YEARS} | "
        f"to move: {seat_name(view['seat_to_move'], view['viewer'])} | "
        f"Caliph: P{view['caliph']} =="
    ]


def pending_short(view: dict) -> list[str]:
    """The decision pending (as in the full view), without the empty gift queue."""
    items = PENDING[Phase[view["phase"]]](view)
    return flow([item for item in items if not item.endswith(": -")], "pending: ", sep="; ")


def markets_short(view: dict) -> list[str]:
    """One line per market: required colour, spaces, display and stack size."""
    lines = []
    for part, area in zip(Part, MARKET_AREAS):
        head = f"{PART_NAMES[part] + 's':<8}{colour_short(view['area_colour'][area])} "
        stack = sum(map(sum, view["stacks"][part]))
        items = [spaces_short(view, area), tiles_short(view["displays"][part])]
        lines += pack([*items, f"stack {stack}"], head, sep=" | ")
    return lines


def others_short(view: dict) -> list[str]:
    """The other areas, the coloured building and the piles, packed."""
    config = view["config"]
    items = [
        f"{AREA_NAMES[area]} {colour_short(view['area_colour'][area])} {spaces_short(view, area)}"
        for area in Area
        if area not in MARKET_AREAS and area_in_game(config, area)
    ]
    coloured = " ".join(f"P{b['seat']}" for b in view["coloured"]) or "."
    items += [f"coloured {coloured}", f"draw pile {view['draw_pile_size']}"]
    if "gifts" in config["expansions"]:
        items.append(f"gift pile {sum(view['gift_pile'])}")
    if config["variant"] == "pro":
        known = sum(c is not None for c in view["lighted_stack_known"])
        items.append(
            f"lighted stack {view['lighted_stack_size']}" + f" ({known} yours)" * bool(known)
        )
    return pack(items)


def seat_short(view: dict, seat: int) -> list[str]:
    """A seat's prestige, money, hand (by colour for the viewer), lighted windows (pro),
    towers; the viewer's unbuilt tiles on a line of their own."""
    mine = seat == view["viewer"]
    hand = view["hand"] if mine else None
    items = [
        f"prestige {view['prestige'][seat]}",
        f"money {view['money'][seat]}",
        f"hand {known_counts(view['hand_sizes'][seat], hand, CARD_SHORT)}",
    ]
    if view["config"]["variant"] == "pro":
        lighted = view["lighted_supply"] if mine else None
        items.append(f"lighted {known_counts(view['lighted_held'][seat], lighted, TILE_SHORT)}")
    towers = [
        tower_short(colour, tower)
        for colour, column in enumerate(view["towers"][seat])
        for tower in column
    ]
    head = f"{seat_name(seat, view['viewer'])} "
    if not mine:
        return flow([" ".join(items), "towers: " + (" ".join(towers) or "-")], head)
    supply = view["supply"][seat]
    parts = [f"{PART_SHORT[p]} {tiles_short(supply[p])}" for p in Part if sum(map(sum, supply[p]))]
    lines = flow([" ".join(items[:2]), "towers: " + (" ".join(towers) or "-")], head)
    return lines + flow([*items[2:], "supply: " + (" | ".join(parts) or "-")], "  ")


def render_compact(view: dict) -> str:
    """Draw `seat_view(state, seat)` (R10) in at most COMPACT_WIDTH columns."""
    seats = range(view["config"]["num_players"])
    order = [view["viewer"], *(s for s in seats if s != view["viewer"])]
    lines = header_short(view) + pending_short(view) + markets_short(view) + others_short(view)
    lines += [line for seat in order for line in seat_short(view, seat)]
    return "\n".join(lines)
