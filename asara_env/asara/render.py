"""Plain-text pictures of a game: what one seat may know, or everything (for debugging).

    print(render_view(seat_view(state, seat)))  # R10: one seat's knowledge
    print(render_full(state))                   # hidden information included

Both draw one normalised view dict: a `seat_view` plus, per seat, the hand and the lighted
windows held where known (None where not), the lighted-window stack as the reader knows it
(a colour or None per position, top first), whether the stacks' contents are shown, and
what the seat to move looks through for a gift (R9.2: the draw pile, the lighted-window
stack) where the reader sees it. With the gifts expansion the gifts lying on a chest space
follow that space, in the order laid: `. (chest: asari 5, buy window)`.
Notation: `P0`..`P3` are seats; `(a+b)` are face-down cards; `?` is a card the reader
cannot see; `red 3(1g)` is three red tiles, one of them gold-decorated; `.` a vacant space.
Lines are at most `LINE_WIDTH` characters.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from asara_env.asara.actions import TARGETS
from asara_env.asara.constants import (
    CARD_NAMES,
    CHEST_SPACES,
    COLOUR_NAMES,
    EXPANSION_AREAS,
    FINAL_CATEGORIES,
    GIFT_NAMES,
    LIGHTED_GIFT_COST,
    LIGHTS_OPTIONS,
    MARKET_AREAS,
    N_YEARS,
    PART_NAMES,
    PRICE,
    PRO_AREAS,
    SPACE_VALUES,
    Area,
    Part,
    chests_in_play,
)
from asara_env.asara.phases import Phase
from asara_env.asara.reference.engine import winners as winners_of
from asara_env.asara.reference.state import Buyer, State
from asara_env.asara.reference.view import lighted_counts, public_view

LINE_WIDTH = 100
HEAD_WIDTH = 25  # label and required-colour column of the board lines

AREA_NAMES = {area: area.name.lower() for area in Area} | {
    area: f"{PART_NAMES[part]}s market" for part, area in zip(Part, MARKET_AREAS)
}
PART_SHORT = tuple(name[:3] for name in PART_NAMES)  # bas, tru, win, tur
FINAL_HEADS = {"most_towers": "towers"} | {c: c[:5] for c in COLOUR_NAMES}
# R9.2 gift kinds by id: 'buyer card', 'asari 5', 'buy window', 'prestige 2', 'lighted window'
GIFT_LABELS = tuple({"card": "buyer card"}.get(n, n.replace("_", " ")) for n in GIFT_NAMES)


def seat_name(seat: int, viewer: int | None) -> str:
    return f"P{seat}" + (" (you)" if seat == viewer else "")


def wrap(head: str, items: Sequence[str], sep: str = "  ", width: int = LINE_WIDTH) -> list[str]:
    """`head` followed by the items, wrapped at `width` under the end of `head`; an item
    too long for a line of its own is broken at its spaces."""
    indent = " " * len(head)
    lines: list[str] = []
    pieces: list[str] = []
    for item in items:
        prefix = indent if lines else head
        if pieces and len(prefix + sep.join([*pieces, item])) > width:
            lines.append(prefix + sep.join(pieces))
            pieces = []
        pieces.append(item)
    lines.append((indent if lines else head) + sep.join(pieces))
    return [
        part.rstrip()
        for line in lines
        for part in textwrap.wrap(line, width, subsequent_indent=indent) or [""]
    ]


def section(title: str) -> str:
    return f"-- {title} " + "-" * max(0, LINE_WIDTH - len(title) - 4)


# ------------------------------------------------------------------------ small pieces
def tiles_text(
    counts: Sequence[Sequence[int]],
    names: Sequence[str] = COLOUR_NAMES,
    space: str = " ",
    sep: str = ", ",
) -> str:
    """int[colour][gold] tile counts as 'brown 2, red 3(1g)' (`names`, `space` before the
    count and `sep` between colours as given); '-' when empty."""
    items = [
        f"{names[c]}{space}{plain + gold}" + (f"({gold}g)" if gold else "")
        for c, (plain, gold) in enumerate(counts)
        if plain + gold
    ]
    return sep.join(items) or "-"


def colour_counts_text(counts: Sequence[int], names: Sequence[str]) -> str:
    """int[colour] counts as 'blue 2, green 1'; '-' when empty."""
    return ", ".join(f"{names[c]} {n}" for c, n in enumerate(counts) if n) or "-"


def cards_text(buyer: dict[str, Any]) -> str:
    """The buyer's cards: 'blue' face up, '(blue+green)' or '(?+?)' face down."""
    shown = buyer["cards"]
    names = [CARD_NAMES[b] for b in shown] if shown is not None else ["?"] * buyer["n_cards"]
    text = "+".join(names)
    return text if buyer["face_up"] else f"({text})"


def buyer_text(buyer: dict[str, Any] | None) -> str:
    return "." if buyer is None else f"P{buyer['seat']} {cards_text(buyer)}"


def space_texts(
    area: Area,
    buyers: Sequence[dict[str, Any] | None],
    gifts: dict[int, Sequence[int]] | None = None,
) -> list[str]:
    """Each space's buyer, prefixed by the space's value where the values differ, followed
    by the gifts on its chest where it has one (R9.2): `4: . (chest: prestige 2)`."""
    values = SPACE_VALUES[area]
    numbered = len(set(values)) > 1
    gifts = gifts or {}
    return [
        (f"{v}: " if numbered else "")
        + buyer_text(b)
        + (f" (chest: {gifts_text(gifts[i])})" if i in gifts else "")
        for i, (v, b) in enumerate(zip(values, buyers))
    ]


def required_colour(colour: int) -> str:
    return f"[{CARD_NAMES[colour]}]" if colour >= 0 else "[any]"


def area_in_game(config: dict[str, Any], area: Area) -> bool:
    """Pro-only areas need the professional variant; expansion areas their expansion."""
    pro_missing = area in PRO_AREAS and config["variant"] != "pro"
    expansion = EXPANSION_AREAS.get(area)
    return not pro_missing and (expansion is None or expansion in config["expansions"])


# ------------------------------------------------------------------------ gifts (R9.2)
def gifts_text(kinds: Sequence[int]) -> str:
    """Gift kinds in order as 'asari 5, buy window'; '-' when none."""
    return ", ".join(GIFT_LABELS[k] for k in kinds) or "-"


def chests(config: dict[str, Any]) -> dict[tuple[Area, int], int]:
    """(area, space index) -> chest of every chest space in play; empty without gifts."""
    if "gifts" not in config["expansions"]:
        return {}
    return {CHEST_SPACES[k]: k for k in chests_in_play(config["variant"] == "pro")}


def chest_name(chest: int) -> str:
    """'the bases market chest', 'the chest on plot 4', 'the lights chest'."""
    area, space = CHEST_SPACES[chest]
    if area == Area.BUILDING:
        return f"the chest on plot {SPACE_VALUES[area][space]}"
    return f"the {AREA_NAMES[area]} chest"


# ------------------------------------------------------------------------ header, decisions
def pending_lines(view: dict[str, Any]) -> list[str]:
    """The decision pending, with what the reader knows about it."""
    return wrap("pending: ", PENDING[Phase[view["phase"]]](view), sep="; ")


def _pending_bribe_take(view: dict[str, Any]) -> list[str]:
    part = view["bribe_stack"]
    take = f"bribery: take a tile from the {PART_NAMES[part]}s stack, or nothing"
    return [take, f"the stack holds {tiles_text(view['stacks'][part])}"]


def _pending_lights_keep(view: dict[str, Any]) -> list[str]:
    drawn = view["lights_drawn"]
    seen = (
        ", ".join(COLOUR_NAMES[c] for c in drawn)
        if drawn is not None
        else f"{view['lights_drawn_count']} unseen"
    )
    return [f"lighted windows: keep {view['lights_keep']} of those drawn: {seen}"]


_LIGHTS_CHOICE = " or ".join(f"pay {c}, draw {d}, keep {k}" for c, d, k in LIGHTS_OPTIONS)


def _gifts_left(view: dict[str, Any]) -> list[str]:
    """R9.2: the gifts of the chest still to carry out after this one, then the move of
    the space the buyer was placed on."""
    move = TARGETS[view["pending_target"]].name if view["pending_target"] >= 0 else "?"
    left = f"gifts still to carry out: {gifts_text(view['gift_queue'])}"
    return [left, f"then the space's own move: {move}"]


def _pending_gift_card(view: dict[str, Any]) -> list[str]:
    take = f"gift from {chest_name(view['gift_chest'])}: take a buyer card from the draw pile"
    seen = view.get("draw_pile_seen")
    holds = [] if seen is None else [f"the pile holds {colour_counts_text(seen, CARD_NAMES)}"]
    return [take, *holds, *_gifts_left(view)]


def _pending_gift_buy(view: dict[str, Any]) -> list[str]:
    market = PART_NAMES[view["market"]]
    buy = f"gift from {chest_name(view['gift_chest'])}: buy a tile from the {market}s market"
    return [buy, *_gifts_left(view)]


def _pending_gift_lights(view: dict[str, Any]) -> list[str]:
    keep = (
        f"gift from {chest_name(view['gift_chest'])}: keep one window of the lighted-window "
        f"stack, pay {LIGHTED_GIFT_COST}"
    )
    seen = view.get("lighted_stack_seen")
    holds = [] if seen is None else [f"the stack holds {colour_counts_text(seen, COLOUR_NAMES)}"]
    return [keep, *holds, *_gifts_left(view)]


PENDING: dict[Phase, Callable[[dict[str, Any]], list[str]]] = {
    Phase.PLACE: lambda v: ["place a buyer"],
    Phase.BUY: lambda v: [f"buy a tile from the {PART_NAMES[v['market']]}s market"],
    Phase.BRIBE_STACK: lambda v: ["bribery: choose a stack to search"],
    Phase.BRIBE_TAKE: _pending_bribe_take,
    Phase.LIGHTS_OPTION: lambda v: [f"lighted windows: {_LIGHTS_CHOICE}"],
    Phase.LIGHTS_KEEP: _pending_lights_keep,
    Phase.BUILD: lambda v: [f"build: {v['build_left']} tile(s) still to place"],
    Phase.GAME_OVER: lambda v: ["nothing: the game is over"],
    Phase.GENIE: lambda v: [
        "the Bottle Genie: choose the move of another space (not the Caliph's), paying its cost"
    ],
    Phase.GIFT_CARD: _pending_gift_card,
    Phase.GIFT_BUY: _pending_gift_buy,
    Phase.GIFT_LIGHTS: _pending_gift_lights,
}


def header_lines(view: dict[str, Any]) -> list[str]:
    config = view["config"]
    reader = "full view (hidden information included)"
    if view["viewer"] is not None:
        reader = f"view of {seat_name(view['viewer'], view['viewer'])}"
    expansions = "".join(f" + {e}" for e in config["expansions"])
    return [
        f"== ASARA: {config['num_players']} players, {config['variant']}{expansions}; {reader} ==",
        f"year {view['year']}/{N_YEARS}   phase {view['phase']}   "
        f"to move: {seat_name(view['seat_to_move'], view['viewer'])}   "
        f"Caliph: {seat_name(view['caliph'], view['viewer'])}",
        *pending_lines(view),
    ]


# ------------------------------------------------------------------------ board
def market_lines(view: dict[str, Any], part: int) -> list[str]:
    stack = sum(map(sum, view["stacks"][part]))
    items = [f"display: {tiles_text(view['displays'][part])}", f"stack {stack}"]
    if view["show_stacks"]:
        items.append(f"stack holds: {tiles_text(view['stacks'][part])}")
    return wrap(" " * 4, items, sep=" | ")


def area_lines(view: dict[str, Any], area: Area) -> list[str]:
    head = f"{AREA_NAMES[area]:<15} {required_colour(view['area_colour'][area]):<8} "
    gifts = {i: view["gifts"][k] for (a, i), k in chests(view["config"]).items() if a == area}
    lines = wrap(head[:HEAD_WIDTH], space_texts(area, view["spaces"][area], gifts), sep=" | ")
    return lines + (market_lines(view, area) if area in MARKET_AREAS else [])


def prices_line() -> str:
    """What a tile of each colour costs (R1; gold costs the same)."""
    prices = ", ".join(f"{name} {price}" for name, price in zip(COLOUR_NAMES, PRICE))
    return f"tile prices in asari: {prices} (gold-decorated the same)"


def board_lines(view: dict[str, Any]) -> list[str]:
    lines = [section("board: area [required colour] spaces"), prices_line()]
    for area in Area:
        if area_in_game(view["config"], area):
            lines += area_lines(view, area)
    coloured = [buyer_text(b) for b in view["coloured"]] or ["."]
    return lines + wrap(f"{'coloured':<{HEAD_WIDTH}}", coloured)


# ------------------------------------------------------------------------ players
def tower_text(colour: int, index: int, tower: dict[str, Any]) -> str:
    """'red#1 h6 bas1 tru2 win2 tur1 gold 1 lit 1 (1 on gold)'."""
    parts = tower["parts"]
    heights = " ".join(f"{PART_SHORT[p]}{sum(parts[p])}" for p in Part if sum(parts[p]))
    gold = sum(g for _, g in parts)
    lit = tower["lit_plain"] + tower["lit_gold"]
    on_gold = f" ({tower['lit_gold']} on gold)" if tower["lit_gold"] else ""
    height = sum(map(sum, parts))
    return f"{COLOUR_NAMES[colour]}#{index + 1} h{height} {heights} gold {gold} lit {lit}{on_gold}"


def towers_lines(view: dict[str, Any], seat: int) -> list[str]:
    items = [
        tower_text(colour, i, tower)
        for colour, towers in enumerate(view["towers"][seat])
        for i, tower in enumerate(towers)
    ]
    return wrap("    towers: ", items or ["-"], sep=" | ")


def supply_lines(view: dict[str, Any], seat: int) -> list[str]:
    supply = view["supply"][seat]
    items = [f"{PART_NAMES[p]}s {tiles_text(supply[p])}" for p in Part if sum(map(sum, supply[p]))]
    return wrap("    supply: ", items or ["-"], sep=" | ")


def known_counts(total: int, counts: Sequence[int] | None, names: Sequence[str]) -> str:
    """'4' when the colours are unknown, '4: blue 1, green 3' when known."""
    return str(total) if counts is None else f"{total}: {colour_counts_text(counts, names)}"


def player_head(view: dict[str, Any], seat: int) -> list[str]:
    items = [
        f"money {view['money'][seat]}",
        f"prestige {view['prestige'][seat]}",
        f"hand {known_counts(view['hand_sizes'][seat], view['hands'][seat], CARD_NAMES)}",
    ]
    if view["config"]["variant"] == "pro":
        held = view["lighted_held"][seat]
        items.append(f"lighted {known_counts(held, view['lighted'][seat], COLOUR_NAMES)}")
    items += ["holds the Caliph"] if view["caliph"] == seat else []
    return wrap(f"{seat_name(seat, view['viewer']):<10}", items, sep="  ")


def players_lines(view: dict[str, Any]) -> list[str]:
    lines = [section("players")]
    for seat in range(view["config"]["num_players"]):
        lines += player_head(view, seat) + supply_lines(view, seat) + towers_lines(view, seat)
    return lines


# ------------------------------------------------------------------------ piles, final
def lighted_stack_lines(view: dict[str, Any]) -> list[str]:
    """The lighted-window stack's size and the colours the reader knows, top first."""
    stack = view["lighted_stack"]
    known = [f"#{i + 1} {COLOUR_NAMES[c]}" for i, c in enumerate(stack) if c is not None]
    return wrap(f"lighted stack {len(stack)}, known (top first): ", known or ["-"], sep=", ")


def piles_lines(view: dict[str, Any]) -> list[str]:
    stacks = [f"{PART_NAMES[p]}s {sum(map(sum, view['stacks'][p]))}" for p in Part]
    items = [f"draw pile {view['draw_pile_size']}", f"tile stacks: {', '.join(stacks)}"]
    if "gifts" in view["config"]["expansions"]:
        items.append(f"gift pile {sum(view['gift_pile'])}")
    if view["show_stacks"]:
        items.append(f"draw pile holds: {colour_counts_text(view['draw_pile'], CARD_NAMES)}")
    pro = view["config"]["variant"] == "pro"
    return [section("piles"), *wrap("", items, sep=" | "), *(lighted_stack_lines(view) * pro)]


def final_lines(view: dict[str, Any]) -> list[str]:
    """The final-scoring table (R8) and the winners, once the game is over."""
    if view["final"] is None:
        return []
    heads = ["seat", *(FINAL_HEADS.get(k, k) for k in FINAL_CATEGORIES), "final", "prestige"]
    rows = [
        [f"P{s}", *(points[k] for k in FINAL_CATEGORIES), points["total"], view["prestige"][s]]
        for s, points in enumerate(view["final"])
    ]
    widths = [max(len(str(x)) for x in column) for column in zip(heads, *rows)]
    table = [" ".join(str(x).rjust(w) for x, w in zip(row, widths)) for row in [heads, *rows]]
    best = max(view["prestige"])
    won = [seat_name(s, view["viewer"]) for s, p in enumerate(view["prestige"]) if p == best]
    return [section("final scoring (R8)"), *table, f"winner(s): {', '.join(won)}"]


def render(view: dict[str, Any]) -> str:
    """Draw a normalised view (see the module docstring)."""
    sections = (header_lines, board_lines, players_lines, piles_lines, final_lines)
    return "\n".join(line for draw in sections for line in draw(view))


# ------------------------------------------------------------------------ the two entries
def render_view(view: dict[str, Any]) -> str:
    """The board as one seat knows it, from `seat_view(state, seat)` (R10)."""
    return render(normalised_view(view))


def normalised_view(view: dict[str, Any]) -> dict[str, Any]:
    """A `seat_view` as the normalised view dict every picture draws (module docstring)."""
    viewer = view["viewer"]
    seats = range(view["config"]["num_players"])
    return view | {
        "hands": [view["hand"] if s == viewer else None for s in seats],
        "lighted": [view["lighted_supply"] if s == viewer else None for s in seats],
        "lighted_stack": view["lighted_stack_known"],
        "show_stacks": False,
    }


def open_buyer(buyer: Buyer | None) -> dict[str, Any] | None:
    """A buyer with its cards shown, in `seat_view`'s form."""
    if buyer is None:
        return None
    return {
        "seat": buyer.seat,
        "n_cards": len(buyer.cards),
        "face_up": buyer.face_up,
        "cards": list(buyer.cards),
    }


def render_full(state: State) -> str:
    """Everything about a reference state, hidden information included (for debugging)."""
    return render(normalised_full(state))


def normalised_full(state: State) -> dict[str, Any]:
    """Everything about a reference state as a normalised view dict (module docstring)."""
    return public_view(state) | {
        "viewer": None,
        "spaces": [[open_buyer(b) for b in area] for area in state.spaces],
        "coloured": [open_buyer(b) for b in state.coloured],
        "hands": state.hands.tolist(),
        "lighted": state.lighted_supply.tolist(),
        "lighted_stack": [colour for colour, _ in state.lighted_stack],
        "lights_drawn": list(state.lights_drawn),
        "draw_pile": state.draw_pile.tolist(),
        "draw_pile_seen": state.draw_pile.tolist(),
        "lighted_stack_seen": lighted_counts(state),
        "show_stacks": True,
    }


def scoring_table(state: State, sep: str = "  ") -> str:
    """The final scoring, one row per seat and one column per category, the columns
    `sep` apart (about 87 columns wide with the default, 76 with one space)."""
    if state.final is None:
        raise ValueError("the game is not over: it has no final scoring yet")
    header = ["seat", "track"] + list(FINAL_CATEGORIES) + ["final", "total"]
    rows = []
    for s, points in enumerate(state.final):
        track = state.prestige[s] - points["total"]
        rows.append(
            [s, track]
            + [points[k] for k in FINAL_CATEGORIES]
            + [points["total"], state.prestige[s]]
        )
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]
    lines = [sep.join(str(x).rjust(w) for x, w in zip(row, widths)) for row in [header] + rows]
    winners = winners_of(state)
    lines.append(f"winner{'s' if len(winners) > 1 else ''}: seat {', '.join(map(str, winners))}")
    return "\n".join(lines)
