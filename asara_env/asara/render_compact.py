"""The board in a small terminal: one seat's view in at most 80 columns and about 18 lines.

    print(render_compact(seat_view(state, seat)))  # R10: one seat's knowledge

`render_view` (asara_env/asara/render.py) draws the same view in full (100 columns, 40+ lines);
this one keeps what a person needs to decide, in a short notation:

    == ASARA 3p pro | year 4/4 | to move: P2 | Caliph: P0 ==
    pending: build: 2 tile(s) still to place
    bases   [any] . . . . | bro1 gre3 red2 whi1(1g) | stack 4
    trunks  [gre] P1 P0 P1 . | red1 bla2(1g) whi1 | stack 4
    windows [vio] P2 . . . | bro1 gre3 bla1(1g) whi2(1g) | stack 8
    turrets [any] . . . . | bro1 gre1 red1 bla3 whi1 | stack 7
    building [ora] 1:P0 2:. 3:P0 4:P2 5:. 6:. 7:.  bank [any] 8:. 10:. 12:.
    spies [yel] 3:. 5:P2  caliph [any] .  tent [ora] 0:P1 2:. 4:.
    lights [any] . . .  coloured .  draw pile 19  lighted stack 6 (2 yours)
    P1 (you) prestige 7 money 21 | hand 6: blu 3, vio 2, gre 1 | lighted 2: bro 1,
      bla 1 | supply: bas:bro1 whi2 | tru:bro1 gre2(1g) red1 whi1(1g) | win:gre1(1g)
      bla1 | towers: whi2(1g)
    P0 prestige 12 money 15 | hand 4 | lighted 1 | towers: bro5(2g) bla2(1g)
    P2 prestige 1 money 21 | hand 4 | lighted 6 | towers: gre1

Colours are shortened to their first three letters (`bro` brown, `gre` green, `bla` black,
`whi` white; `blu` blue, `yel` yellow, `vio` violet, `ora` orange); `[gre]` is an area's
required colour, `[any]` none yet; `8:P2` space 8 taken by seat 2, `.` vacant;
`{$5,buy-win}` the gifts on a chest space (R9.2); `lighted stack 6 (2 yours)` six windows,
two of them put back by the reader (who knows their colours); `red3(1g)` three red tiles,
one gold-decorated; `supply: bas:bro1 whi2 | tru:...` the reader's unbuilt tiles by part
(bases, trunks, windows, turrets); `red6(1g,1l)` a red tower six tiles high with one
visible gold tile and one lighted window; `prices bro2 gre4 ...` what a tile of each
colour costs in asari (R1), on the pending decision's line where it fits.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from asara_env.asara.constants import (
    CARD_NAMES,
    COLOUR_NAMES,
    GIFT_NAMES,
    MARKET_AREAS,
    N_YEARS,
    PART_NAMES,
    PRICE,
    SPACE_VALUES,
    Area,
    Part,
)
from asara_env.asara.phases import Phase
from asara_env.asara.render import (
    AREA_NAMES,
    PENDING,
    area_in_game,
    chests,
    known_counts,
    seat_name,
    tiles_text,
    wrap,
)

COMPACT_WIDTH = 80
COMPACT_LINES = 18  # the board's lines at most, in the games tested (test_render_compact)

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
    return tiles_text(counts, TILE_SHORT, space="", sep=" ")


def tower_short(colour: int, tower: dict[str, Any]) -> str:
    """'red6(1g,1l)': colour, height, visible gold tiles and lighted windows (R6.2)."""
    height = sum(map(sum, tower["parts"]))
    gold = sum(g for _, g in tower["parts"]) - tower["lit_gold"]
    lit = tower["lit_plain"] + tower["lit_gold"]
    extras = [f"{gold}g"] * bool(gold) + [f"{lit}l"] * bool(lit)
    return f"{TILE_SHORT[colour]}{height}" + (f"({','.join(extras)})" if extras else "")


def colour_short(colour: int) -> str:
    return f"[{CARD_SHORT[colour]}]" if colour >= 0 else "[any]"


def spaces_short(view: dict[str, Any], area: Area) -> str:
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
def header_short(view: dict[str, Any]) -> list[str]:
    config = view["config"]
    rules = "+".join([config["variant"], *config["expansions"]])
    return [
        f"== ASARA {config['num_players']}p {rules} | year {view['year']}/{N_YEARS} | "
        f"to move: {seat_name(view['seat_to_move'], view['viewer'])} | "
        f"Caliph: P{view['caliph']} =="
    ]


def pending_short(view: dict[str, Any]) -> list[str]:
    """The decision pending (as in the full view), without the empty gift queue, and the
    tile prices where they fit on its lines."""
    items = [item for item in PENDING[Phase[view["phase"]]](view) if not item.endswith(": -")]
    plain = flow(items, "pending: ", sep="; ")
    priced = flow([*items, prices_short()], "pending: ", sep="; ")
    return priced if len(priced) == len(plain) else plain


def markets_short(view: dict[str, Any]) -> list[str]:
    """One line per market: required colour, spaces, display and stack size."""
    lines = []
    for part, area in zip(Part, MARKET_AREAS):
        head = f"{PART_NAMES[part] + 's':<8}{colour_short(view['area_colour'][area])} "
        stack = sum(map(sum, view["stacks"][part]))
        items = [spaces_short(view, area), tiles_short(view["displays"][part])]
        lines += pack([*items, f"stack {stack}"], head, sep=" | ")
    return lines


def prices_short() -> str:
    """'prices bro2 gre4 red5 bla6 whi8': a tile's price by colour in asari (R1; gold costs
    the same)."""
    return "prices " + " ".join(f"{name}{price}" for name, price in zip(TILE_SHORT, PRICE))


def others_short(view: dict[str, Any]) -> list[str]:
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


def seat_short(view: dict[str, Any], seat: int) -> list[str]:
    """A seat's prestige and money, hand (by colour for the viewer), lighted windows (pro),
    unbuilt tiles (the viewer's: `bas:bro2 whi1`), towers last, as running text."""
    mine = seat == view["viewer"]
    hand = view["hand"] if mine else None
    items = [
        f"prestige {view['prestige'][seat]} money {view['money'][seat]}",
        f"hand {known_counts(view['hand_sizes'][seat], hand, CARD_SHORT)}",
    ]
    if view["config"]["variant"] == "pro":
        lighted = view["lighted_supply"] if mine else None
        items.append(f"lighted {known_counts(view['lighted_held'][seat], lighted, TILE_SHORT)}")
    if mine:
        supply = view["supply"][seat]
        parts = [
            f"{PART_SHORT[p]}:{tiles_short(supply[p])}" for p in Part if sum(map(sum, supply[p]))
        ]
        items.append(f"supply: {' | '.join(parts) or '-'}")
    towers = [
        tower_short(colour, tower)
        for colour, column in enumerate(view["towers"][seat])
        for tower in column
    ]
    items.append(f"towers: {' '.join(towers) or '-'}")
    return flow(items, f"{seat_name(seat, view['viewer'])} ")


def render_compact(view: dict[str, Any]) -> str:
    """Draw `seat_view(state, seat)` (R10) in at most COMPACT_WIDTH columns."""
    seats = range(view["config"]["num_players"])
    order = [view["viewer"], *(s for s in seats if s != view["viewer"])]
    lines = header_short(view) + pending_short(view) + markets_short(view) + others_short(view)
    lines += [line for seat in order for line in seat_short(view, seat)]
    return "\n".join(lines)
