"""SVG pictures of a game: what one seat may know, or everything (for debugging).

    svg_view(seat_view(state, seat))   # R10: one seat's knowledge, an `SVG` string
    svg_full(state)                    # hidden information included
    to_rgb_array(svg)                  # uint8[H, W, 3] pixels (resvg), PNG with to_png
    replay_frames(record, seat)        # a saved game as one picture per position
    animated_svg(frames), save_gif(frames, path)   # ... as one animated picture

Every picture draws the normalised view dict of `asara_env.asara.render` (the same knowledge as
the text board, nothing more) and holds no rules of its own. It shows the header (year,
whose turn, the Caliph, the decision pending), the four markets (required colour, buyer
spaces, display, stack), the building circle with the coloured building in its middle, the
bank, spies, Caliph, and with pro the recruit tent and the lighted-window spaces, with the
Genie its board, with the gifts the gifts lying on each chest space; then one panel per
player (money, prestige, hand, lighted windows held, supply, towers drawn as stacked parts
in their colour with gold tiles and lighted windows marked) and the piles; at the end the
final-scoring table.

The picture is also a map for clicking: an element a move can be chosen on carries
`data-spot` (the spot names of `action_spots`): `target:K` (a space of placement target
K), `coloured`, `tile:P,C,G` (a display tile), `stack:P`, `tower:C,K` (own tower K of
colour C). Towers are `<g class="tower">` of `<rect class="part">` elements, one per tile,
with `data-part`, `data-gold` and `data-lit`, so tests and tools can read the picture.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from asara_env.asara.actions import TARGETS, Group, decode
from asara_env.asara.constants import (
    CARD_NAMES,
    COLOUR_NAMES,
    FINAL_CATEGORIES,
    MARKET_AREAS,
    N_YEARS,
    PART_NAMES,
    PRICE,
    SPACE_VALUES,
    Area,
    Part,
)
from asara_env.asara.phases import Phase
from asara_env.asara.reference.engine import new_game, step
from asara_env.asara.reference.record import GameRecord
from asara_env.asara.reference.state import State
from asara_env.asara.reference.view import seat_view
from asara_env.asara.render import (
    AREA_NAMES,
    FINAL_HEADS,
    PENDING,
    area_in_game,
    chests,
    colour_counts_text,
    gifts_text,
    normalised_full,
    normalised_view,
    seat_name,
    tiles_text,
)
from asara_env.common.svg import SVG, document, el, rect, text
from asara_env.common.svg import animated_svg as animated_svg
from asara_env.common.svg import save_gif as save_gif
from asara_env.common.svg import to_png as to_png
from asara_env.common.svg import to_rgb_array as to_rgb_array

WIDTH = 1280
BOARD_W = 700  # the board column; the players' panels fill the rest
TILE_FILL = ("#8d5a2b", "#2f8f46", "#c8372d", "#2b2b2b", "#f2efe6")  # by TileColour
PRICE_INK = ("white", "white", "white", "white", "#222")  # the price on each TileColour
CARD_FILL = ("#2f6fd6", "#f2c230", "#8e44ad", "#27ae60", "#e67e22")  # by CardColour
SEAT_FILL = ("#17becf", "#e377c2", "#bcbd22", "#7f7f7f")  # by seat
GOLD = "#d4a017"
LIGHT = "#fff27a"
UNKNOWN = "#bbbbbb"
PANEL_H = {2: 330, 3: 230, 4: 180}  # a player's panel height by number of players
TILE_W = 22  # a tower tile's width
MID = {"text_anchor": "middle"}  # centred text


# ------------------------------------------------------------------------ spots (clicking)
def _space_targets() -> dict[tuple[int, int], int]:
    """(area, space index) -> the placement target whose buyer lies there."""
    spots: dict[tuple[int, int], int] = {}
    for t, target in enumerate(TARGETS):
        if target.area == Area.BUILDING:
            assert target.arg is not None  # plot n
            spots[(Area.BUILDING, target.arg - 1)] = t
        elif target.arg is None:
            spots |= {(target.area, i): t for i in range(len(SPACE_VALUES[target.area]))}
        else:
            spots[(target.area, target.arg)] = t
    return spots


SPACE_TARGET = _space_targets()


def action_spots(action: int) -> list[str]:
    """The `data-spot` names of the picture's elements this action can be chosen on."""
    group, f = decode(action)
    if group == Group.PLACE:
        return [f"target:{f[0]}"]
    if group == Group.PLACE_COLOURED:
        return ["coloured"]
    if group == Group.BUY:
        return [f"tile:{f[0]},{f[1]},{f[2]}"]
    if group == Group.BRIBE_STACK:
        return [f"stack:{f[0]}"]
    if group == Group.BUILD_TILE:
        return [f"tower:{f[1]},{f[3]}"]
    if group == Group.BUILD_LIGHTED:
        return [f"tower:{f[0]},{f[1]}"]
    return []


# ------------------------------------------------------------------------ small pieces
def card_chips(x: float, y: float, buyer: dict[str, Any]) -> str:
    """A buyer's cards as small squares: the card colour, or grey '?' when unseen;
    face-down cards are drawn with a dashed border."""
    shown = buyer["cards"]
    colours = list(shown) if shown is not None else [None] * buyer["n_cards"]
    dash = None if buyer["face_up"] else "2,1"
    out = []
    for i, c in enumerate(colours):
        fill = UNKNOWN if c is None else CARD_FILL[c]
        title = el("title", "unseen card" if c is None else CARD_NAMES[c])
        out.append(el("g", title + rect(x + 10 * i, y, 9, 9, fill, stroke_dasharray=dash)))
    return "".join(out)


def space(
    x: float, y: float, area: Area, index: int, buyer: dict[str, Any] | None, label: str
) -> str:
    """One buyer space: a box with its value, the buyer's seat and cards if taken."""
    spot = SPACE_TARGET.get((area, index))
    attrs = dict(class_="space", data_area=area.name.lower(), data_space=index)
    attrs["data_spot"] = None if spot is None else f"target:{spot}"
    if buyer is None:
        body = rect(x, y, 38, 30, "#fffdf5", rx=4) + text(x + 19, y + 19, label, 11, **MID)
        return el("g", body, data_taken=0, **attrs)
    seat = buyer["seat"]
    body = rect(x, y, 38, 30, SEAT_FILL[seat], rx=4, stroke_width=2)
    body += text(x + 19, y + 12, f"P{seat}", 10, **MID) + card_chips(x + 4, y + 17, buyer)
    return el("g", body, data_taken=1, data_seat=seat, **attrs)


def colour_tag(x: float, y: float, colour: int) -> str:
    """The card colour an area requires (R3.2), or 'any' while none is set."""
    if colour < 0:
        return text(x, y + 10, "any colour", 10, fill="#777")
    return rect(x, y, 12, 12, CARD_FILL[colour], rx=2) + text(
        x + 16, y + 10, CARD_NAMES[colour], 10
    )


def tile_chip(x: float, y: float, colour: int, gold: int, **attrs: object) -> str:
    """One tile: its colour with its price (R1), a gold border when gold-decorated."""
    stroke = {"stroke": GOLD, "stroke_width": 3} if gold else {}
    body = rect(x, y, 16, 16, TILE_FILL[colour], rx=2, **stroke)
    ink = PRICE_INK[colour]
    body += text(
        x + 8, y + 12, str(PRICE[colour]), 10, text_anchor="middle", fill=ink, class_="price"
    )
    title = el("title", f"{COLOUR_NAMES[colour]}{' gold' if gold else ''}, {PRICE[colour]} Asari")
    return el("g", title + body, **attrs)


def tiles_row(x: float, y: float, counts: Sequence[Sequence[int]], part: int | None) -> str:
    """int[colour][gold] tiles as chips in a row; display tiles carry their buy spot."""
    out, i = [], 0
    for c, per_gold in enumerate(counts):
        for g, n in enumerate(per_gold):
            for _ in range(n):
                spot = None if part is None else f"tile:{part},{c},{g}"
                out.append(tile_chip(x + 19 * i, y, c, g, class_="tile", data_spot=spot))
                i += 1
    return "".join(out)


# ------------------------------------------------------------------------ header
def header(view: dict[str, Any]) -> str:
    config = view["config"]
    reader = "full view (hidden information included)"
    if view["viewer"] is not None:
        reader = f"as seen by {seat_name(view['viewer'], view['viewer'])}"
    expansions = "".join(f" + {e}" for e in config["expansions"])
    title = f"ASARA · {config['num_players']} players, {config['variant']}{expansions} · {reader}"
    status = (
        f"year {view['year']}/{N_YEARS} · to move: "
        f"{seat_name(view['seat_to_move'], view['viewer'])} · "
        f"Caliph: {seat_name(view['caliph'], view['viewer'])}"
    )
    pending = "pending: " + "; ".join(PENDING[Phase[view["phase"]]](view))
    return (
        rect(0, 0, WIDTH, 74, "#3b2f5c", stroke="none")
        + text(12, 22, title, 16, fill="white", font_weight="bold")
        + text(12, 44, status, 13, fill="white", class_="status")
        + text(12, 64, pending, 12, fill=LIGHT, class_="pending")
    )


# ------------------------------------------------------------------------ board
def market(
    view: dict[str, Any], part: int, x: float, y: float, gifts: dict[Area, dict[int, str]]
) -> str:
    """One market: title, required colour, its four spaces, display and stack."""
    area = MARKET_AREAS[part]
    out = [rect(x, y, 340, 150, "#f7ecd2", rx=6)]
    out.append(text(x + 8, y + 18, AREA_NAMES[area], 13, font_weight="bold"))
    out.append(colour_tag(x + 150, y + 7, view["area_colour"][area]))
    for i, buyer in enumerate(view["spaces"][area]):
        out.append(space(x + 8 + 44 * i, y + 26, area, i, buyer, ""))
    if 0 in gifts.get(area, {}):
        out.append(text(x + 186, y + 46, f"chest: {gifts[area][0]}", 10, class_="chest"))
    out.append(text(x + 8, y + 76, "display", 10, fill="#555"))
    out.append(tiles_row(x + 8, y + 80, view["displays"][part], part))
    stack = sum(map(sum, view["stacks"][part]))
    stack_box = rect(x + 8, y + 104, 70, 20, "#d9c9a3", rx=3) + text(
        x + 14, y + 118, f"stack {stack}", 11
    )
    out.append(el("g", stack_box, class_="stack", data_spot=f"stack:{part}"))
    if view["show_stacks"]:
        holds = tiles_text(view["stacks"][part])
        out.append(text(x + 86, y + 118, f"holds {holds}"[:60], 9, fill="#555"))
    return el("g", "".join(out), class_="market", data_part=PART_NAMES[part])


def building_circle(
    view: dict[str, Any], cx: float, cy: float, gifts: dict[Area, dict[int, str]]
) -> str:
    """The seven building plots around the coloured building (R2)."""
    area = Area.BUILDING
    out = [el("circle", cx=cx, cy=cy, r=92, fill="#efe3f7", stroke="#555")]
    out.append(text(cx - 88, cy - 98, "building circle", 13, font_weight="bold"))
    out.append(colour_tag(cx + 20, cy - 108, view["area_colour"][area]))
    for i, buyer in enumerate(view["spaces"][area]):
        angle = -np.pi / 2 + 2 * np.pi * i / len(SPACE_VALUES[area])
        x, y = cx + 72 * np.cos(angle) - 19, cy + 72 * np.sin(angle) - 15
        out.append(space(x, y, area, i, buyer, f"plot {SPACE_VALUES[area][i]}"))
        if i in gifts.get(area, {}):
            chest = f"chest on plot {SPACE_VALUES[area][i]}: {gifts[area][i]}"
            out.append(text(cx - 88, cy + 112, chest, 10, class_="chest"))
    out.append(coloured_building(view, cx, cy))
    return el("g", "".join(out), class_="building")


def coloured_building(view: dict[str, Any], cx: float, cy: float) -> str:
    """The coloured building's cards, in the order placed (R3.4)."""
    body = [el("circle", cx=cx, cy=cy, r=38, fill="#fbe7a1", stroke="#555")]
    body.append(text(cx, cy - 20, "coloured", 10, **MID))
    for i, buyer in enumerate(view["coloured"][:6]):
        row, col = divmod(i, 3)
        x, y = cx - 33 + 23 * col, cy - 12 + 16 * row
        body.append(rect(x, y, 20, 14, SEAT_FILL[buyer["seat"]], rx=2))
        body.append(card_chips(x + 6, y + 3, buyer))
    if len(view["coloured"]) > 6:
        body.append(text(cx, cy + 32, f"+{len(view['coloured']) - 6}", 9, **MID))
    return el("g", "".join(body), class_="coloured", data_spot="coloured")


ROW_AREAS = (
    (Area.BANK, "bank: take"),
    (Area.SPIES, "spies: cost"),
    (Area.CALIPH, "Caliph"),
    (Area.TENT, "recruit tent: cost"),
    (Area.LIGHTS, "lighted windows"),
    (Area.GENIE, "Genie: cost"),
)


def area_row(
    view: dict[str, Any],
    area: Area,
    label: str,
    x: float,
    y: float,
    gifts: dict[Area, dict[int, str]],
) -> str:
    """One row of spaces: bank, spies, Caliph, tent, lighted windows, Genie."""
    out = [text(x, y + 19, label, 12, font_weight="bold")]
    out.append(colour_tag(x + 130, y + 9, view["area_colour"][area]))
    values = SPACE_VALUES[area]
    numbered = len(set(values)) > 1 or area == Area.BANK
    for i, buyer in enumerate(view["spaces"][area]):
        value = str(values[i]) if numbered else ""
        out.append(space(x + 210 + 44 * i, y, area, i, buyer, value))
    if 0 in gifts.get(area, {}):
        out.append(text(x + 350, y + 19, f"chest: {gifts[area][0]}", 10, class_="chest"))
    return el("g", "".join(out), class_="area", data_area=area.name.lower())


def board(view: dict[str, Any], top: float) -> tuple[str, float]:
    """The whole board; returns the SVG and its bottom edge."""
    config = view["config"]
    gifts: dict[Area, dict[int, str]] = {}
    for (area, i), k in chests(config).items():
        gifts.setdefault(area, {})[i] = gifts_text(view["gifts"][k])
    out = [market(view, p, 10 + 350 * (p % 2), top + 160 * (p // 2), gifts) for p in Part]
    y = top + 330
    out.append(building_circle(view, 130, y + 110, gifts))
    y_rows = y
    for area, label in ROW_AREAS:
        if area_in_game(config, area):
            out.append(area_row(view, area, label, 250, y_rows, gifts))
            y_rows += 38
    bottom = max(y + 215, y_rows)
    return "".join(out), bottom


# ------------------------------------------------------------------------ players
def tower(x: float, base: float, colour: int, tower: dict[str, Any], tile_h: float) -> str:
    """One tower as stacked parts, base at the bottom: plain tiles first, then gold ones;
    lighted windows lie on the lowest windows of their kind (plain or gold)."""
    parts, out, y = tower["parts"], [], base
    lit_left = {0: tower["lit_plain"], 1: tower["lit_gold"]}
    for part in Part:
        for gold in (0, 1):
            for _ in range(parts[part][gold]):
                lit = int(part == Part.WINDOW and lit_left[gold] > 0)
                lit_left[gold] -= lit
                y -= tile_h
                out.append(tile_part(x, y, colour, part, gold, lit, tile_h))
    return "".join(out)


def tile_part(x: float, y: float, colour: int, part: int, gold: int, lit: int, h: float) -> str:
    """One tile of a tower; turrets are narrower, windows show a window (yellow if lit)."""
    inset = {Part.BASE: 0, Part.TRUNK: 2, Part.WINDOW: 2, Part.TURRET: 5}[Part(part)]
    stroke = {"stroke": GOLD, "stroke_width": 2} if gold else {"stroke": "#444"}
    data = dict(class_="part", data_part=PART_NAMES[part], data_gold=gold, data_lit=lit)
    out = rect(x + inset, y, TILE_W - 2 * inset, h, TILE_FILL[colour], **stroke, **data)
    if part == Part.WINDOW:
        fill = LIGHT if lit else "#1d1d3a"
        out += rect(x + 8, y + h * 0.25, 6, h * 0.5, fill, stroke="none")
    return out


def towers(view: dict[str, Any], seat: int, x: float, base: float, room: float) -> str:
    """Every tower of one seat, grouped by colour, with its number and height."""
    all_towers = [
        (c, k, t) for c, per in enumerate(view["towers"][seat]) for k, t in enumerate(per)
    ]
    if not all_towers:
        return text(x, base - 4, "no towers yet", 11, fill="#777")
    tallest = max(sum(map(sum, t["parts"])) for _, _, t in all_towers)
    tile_h = min(14.0, room / max(tallest, 1))
    out = []
    for i, (c, k, t) in enumerate(all_towers):
        tx = x + (TILE_W + 5) * i
        height = sum(map(sum, t["parts"]))
        label = text(tx + TILE_W / 2, base + 11, f"#{k + 1}", 9, **MID)
        title = el("title", f"{COLOUR_NAMES[c]} tower #{k + 1}, height {height}")
        body = title + tower(tx, base, c, t, tile_h) + label
        out.append(
            el(
                "g",
                body,
                class_="tower",
                data_seat=seat,
                data_colour=COLOUR_NAMES[c],
                data_index=k,
                data_height=height,
                data_spot=f"tower:{c},{k}" if seat == view["viewer"] else None,
            )
        )
    return "".join(out)


def player_facts(view: dict[str, Any], seat: int) -> str:
    """Money, prestige, hand (its cards where known), lighted windows, the Caliph."""
    facts = [f"money {view['money'][seat]}", f"prestige {view['prestige'][seat]}"]
    facts.append(f"hand {view['hand_sizes'][seat]}")
    if view["config"]["variant"] == "pro":
        held, known = view["lighted_held"][seat], view["lighted"][seat]
        shown = "" if known is None else f" ({colour_counts_text(known, COLOUR_NAMES)})"
        facts.append(f"lighted {held}{shown}")
    return " · ".join(facts)


def hand_chips(x: float, y: float, hand: Sequence[int] | None) -> str:
    if hand is None:
        return ""
    colours = [c for c, n in enumerate(hand) for _ in range(n)]
    chips = [rect(x + 13 * i, y, 11, 15, CARD_FILL[c], rx=2) for i, c in enumerate(colours)]
    return el("g", "".join(chips), class_="hand", data_cards=len(colours))


def player_panel(view: dict[str, Any], seat: int, x: float, y: float, h: float) -> str:
    """One player's panel: facts, hand, supply, towers."""
    to_move = view["seat_to_move"] == seat and view["final"] is None
    out = [rect(x, y, WIDTH - x - 10, h - 8, "#fafafa", rx=6, stroke_width=3 if to_move else 1)]
    out.append(rect(x + 8, y + 8, 14, 14, SEAT_FILL[seat], rx=3))
    name = seat_name(seat, view["viewer"]) + (" · to move" if to_move else "")
    name += " · holds the Caliph" if view["caliph"] == seat else ""
    out.append(text(x + 28, y + 20, name, 14, font_weight="bold"))
    hand = view["hands"][seat]
    if hand is not None:
        out.append(hand_chips(WIDTH - 22 - 13 * sum(hand), y + 27, hand))
    out.append(text(x + 10, y + 40, player_facts(view, seat), 11, class_="facts"))
    supply = view["supply"][seat]
    sx = x + 10
    out.append(text(sx, y + 62, "supply", 10, fill="#555"))
    for part in Part:
        n = sum(map(sum, supply[part]))
        if n:
            label = f"{PART_NAMES[part]}s"
            out.append(text(sx + 40, y + 62, label, 10))
            width = 40 + 7 * len(label)
            out.append(tiles_row(sx + width, y + 50, supply[part], None))
            sx += width + 19 * n - 30
    out.append(towers(view, seat, x + 10, y + h - 24, h - 100))
    return el("g", "".join(out), class_="player", data_seat=seat)


def players(view: dict[str, Any], top: float) -> tuple[str, float]:
    n = view["config"]["num_players"]
    h = PANEL_H[n]
    panels = [player_panel(view, s, BOARD_W + 20, top + h * s, h) for s in range(n)]
    return "".join(panels), top + h * n


# ------------------------------------------------------------------------ piles, final
def piles(view: dict[str, Any], y: float) -> str:
    config = view["config"]
    items = [f"draw pile {view['draw_pile_size']}"]
    if "gifts" in config["expansions"]:
        items.append(f"gift pile {sum(view['gift_pile'])}")
    if config["variant"] == "pro":
        known = [COLOUR_NAMES[c] for c in view["lighted_stack"] if c is not None]
        items.append(f"lighted-window stack {len(view['lighted_stack'])}")
        items += [f"known: {', '.join(known)}"] if known else []
    if view["show_stacks"]:
        items.append(f"draw pile holds {colour_counts_text(view['draw_pile'], CARD_NAMES)}")
    return text(10, y + 16, " · ".join(items), 12, class_="piles")


def final_table(view: dict[str, Any], y: float) -> tuple[str, float]:
    """The final-scoring table (R8) and the winners, once the game is over."""
    if view["final"] is None:
        return "", y
    heads = ["seat", *(FINAL_HEADS.get(k, k) for k in FINAL_CATEGORIES), "final", "prestige"]
    out = [text(10, y + 18, "final scoring (R8)", 14, font_weight="bold")]
    col = 84
    out += [text(10 + col * i, y + 38, h, 11, font_weight="bold") for i, h in enumerate(heads)]
    for s, points in enumerate(view["final"]):
        row = [seat_name(s, view["viewer"]), *(points[k] for k in FINAL_CATEGORIES)]
        row += [points["total"], view["prestige"][s]]
        cells = [text(10 + col * i, y + 56 + 18 * s, str(v), 11) for i, v in enumerate(row)]
        out.append(el("g", "".join(cells), class_="final-row", data_seat=s))
    best = max(view["prestige"])
    won = [seat_name(s, view["viewer"]) for s, p in enumerate(view["prestige"]) if p == best]
    bottom = y + 56 + 18 * len(view["final"])
    out.append(text(10, bottom + 8, f"winner(s): {', '.join(won)}", 13, font_weight="bold"))
    return el("g", "".join(out), class_="final"), bottom + 20


# ------------------------------------------------------------------------ the entries
def svg_picture(view: dict[str, Any]) -> SVG:
    """Draw a normalised view dict (asara_env.asara.render) as an SVG document."""
    board_svg, board_bottom = board(view, 86)
    players_svg, players_bottom = players(view, 86)
    y = max(board_bottom, players_bottom) + 4
    final_svg, bottom = final_table(view, y + 26)
    height = int(bottom + 10)
    body = (
        rect(0, 0, WIDTH, height, "#fffaf0", stroke="none")
        + header(view)
        + board_svg
        + players_svg
        + piles(view, y)
        + final_svg
    )
    meta = dict(data_year=view["year"], data_phase=view["phase"], data_to_move=view["seat_to_move"])
    return document(body, WIDTH, height, class_="asara-board", **meta)


def svg_view(view: dict[str, Any]) -> SVG:
    """The board as one seat knows it, from `seat_view(state, seat)` (R10)."""
    return svg_picture(normalised_view(view))


def svg_full(state: State) -> SVG:
    """Everything about a reference state, hidden information included (for debugging)."""
    return svg_picture(normalised_full(state))


def svg_of(state: State, seat: int | None) -> SVG:
    """`svg_view` of `seat`'s view, or `svg_full` when seat is None."""
    return svg_full(state) if seat is None else svg_view(seat_view(state, seat))


# ------------------------------------------------------------------------ replays
def replay_frames(record: GameRecord, seat: int | None = None) -> list[SVG]:
    """One picture per position of a saved game (the start, then after each action), as
    `seat` sees it or in full (seat None)."""
    if seat is not None and not 0 <= seat < record.config.num_players:
        raise ValueError(f"seat must be in 0..{record.config.num_players - 1}, got {seat}")
    state = new_game(record.config, record.seed)
    frames = [svg_of(state, seat)]
    for action in record.actions:
        step(state, action)
        frames.append(svg_of(state, seat))
    return frames
