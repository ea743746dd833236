"""SVG pictures of a BASARI game: what one seat may know, or everything.

    svg_view(picture_view(state, seat))   # B11: one seat's knowledge, an `SVG` string
    svg_full(state)                       # everything, the bundle being built included
    svg_of(state, seat)                   # either: seat None is the full view
    to_rgb_array(svg)                     # uint8[H, W, 3] pixels (resvg), PNG with to_png
    replay_frames(record, seat)           # a saved game as one picture per position
    animated_svg(frames), save_gif(frames, path)   # ... as one animated picture

The picture shows the header (round, turn, phase, the decision pending), the bazaar: the
ring of archways as a square, each with its number, its points and its gems, the merchants
(discs with the seat number) and start disks (rings) standing on it, and inside the ring
the carpets and the running barter (its card, opener and responder, the standing offer and
who made it, the bundle being built where the reader may see it, the barter still to
come); then one panel per player (score, gems per colour, lap progress, start and merchant
archways, the three action cards with the one revealed this turn, the dice rolled); at the
end the final standings (B10).

B11: everything in BASARI is public except the simultaneous choices, which the state never
holds (a chosen card is applied in the step it is chosen in), the future dice (drawn from
the seed, which no picture shows), and the bundle the seat to act is building (E2), which
only that seat's picture and the full picture show.

The picture is also a map for clicking: the elements a move can be chosen on carry
`data-spot` (the names of `action_spots`): `archway:K` (every archway), `card:C` and `gem:C`
(the reader's own cards and gems), `offer` (the standing offer), `pending` (the bundle
being built); `data-*` attributes give every number drawn, so tests and tools can read
the picture.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from asara_env.basari.actions import ActionLayout, Group
from asara_env.basari.constants import CARD_NAMES, COLOUR_NAMES, N_ARCHWAYS, ROUNDS
from asara_env.basari.phases import Phase
from asara_env.basari.reference.engine import new_game, step
from asara_env.basari.reference.record import GameRecord
from asara_env.basari.reference.scoring import ranking_score, winners
from asara_env.basari.reference.state import State
from asara_env.common.svg import SVG, document, el, rect, text
from asara_env.common.svg import animated_svg as animated_svg
from asara_env.common.svg import save_gif as save_gif
from asara_env.common.svg import to_png as to_png
from asara_env.common.svg import to_rgb_array as to_rgb_array
from asara_env.common.validate import check_int

WIDTH = 1280
HEADER_H = 74
TOP = HEADER_H + 12  # where the bazaar and the panels start
BAZAAR = 640  # the bazaar square's side
PANEL_X = BAZAAR + 30  # the players' panels fill the rest
SIDES = 4  # the archways run round a square (B2.4)
GEM_FILL = ("#d62728", "#f2c230", "#2ca02c", "#1f77b4")  # by Colour
SEAT_FILL = ("#17becf", "#e377c2", "#8c564b", "#7f7f7f")  # by seat
CARD_FILL = "#f7ecd2"
REVEALED_FILL = "#fff27a"
BACKGROUND = "#fffaf0"
BAND = "#5c2f2f"
LIGHT = "#fff27a"
PANEL_H = {2: 300, 3: 210, 4: 160}  # a player's panel height by number of players
GEM_R = 5  # a gem chip's radius
MERCHANT_R = 8
MAX_GEM_CHIPS = 6  # an archway with more gems shows counts instead of chips
MAX_BUNDLE_CHIPS = 30  # an offer's chips drawn; its words name every gem
MID = {"text_anchor": "middle"}
END = {"text_anchor": "end"}


# ------------------------------------------------------------------------ the view
def picture_view(state: State, seat: int | None) -> dict[str, Any]:
    """What a picture may draw: everything public (B11.1) in seat order, and the bundle
    being built only when `seat` is the one building it or `seat` is None (full view).
    Nothing else of the state (its seed, the future dice) is in it."""
    p = state.num_players
    if seat is not None:
        seat = check_int("seat", seat, 0, p - 1)
    barter = state.phase == Phase.BARTER
    sees_pending = barter and seat in (None, state.to_act)
    over = state.phase == Phase.OVER
    return {
        "num_players": p,
        "start_mode": state.config.start_mode,
        "board": state.board.tolist(),
        "viewer": seat,
        "phase": state.phase.name,
        "round": state.round,
        "turn": state.turn,
        "carpet": state.carpet.tolist(),
        "seats": [_seat_facts(state, s) for s in range(p)],
        "barter": {
            "card": state.barter_card,
            "queued_card": state.queued_card,
            "opener": state.opener,
            "responder": state.responder,
            "to_act": state.to_act,
            "offer": state.offer.tolist() if state.offer_by >= 0 else None,
            "offer_by": state.offer_by,
            "offers": state.offers,
            "pending": state.pending.tolist() if sees_pending else None,
        }
        if barter
        else None,
        "final": {"places": places(state), "winners": winners(state).tolist()} if over else None,
    }


def places(state: State) -> list[int]:
    """Every seat's place by B10 (score, then the B10.2 keys): 1 + the seats ahead of it,
    so seats still tied share the better place."""
    key = ranking_score(state)
    return [1 + int((key > k).sum()) for k in key]


def _seat_facts(state: State, seat: int) -> dict[str, Any]:
    return {
        "score": int(state.score[seat]),
        "gems": state.gems[seat].tolist(),
        "position": int(state.position[seat]),
        "start": int(state.start[seat]),
        "progress": int(state.progress[seat]),
        "lapped": bool(state.lapped[seat]),
        "revealed": int(state.revealed[seat]),
        "move_roll": int(state.move_roll[seat]),
        "action_roll": int(state.action_roll[seat]),
    }


def seat_name(seat: int, viewer: int | None) -> str:
    return f"P{seat}" + (" (you)" if seat == viewer else "")


def bundle_words(bundle: Sequence[int]) -> str:
    """'2 red + 1 blue', or 'nothing'."""
    parts = [f"{k} {COLOUR_NAMES[c]}" for c, k in enumerate(bundle) if k]
    return " + ".join(parts) if parts else "nothing"


# ------------------------------------------------------------------------ clicking
def action_spots(action: int, n_archways: int = N_ARCHWAYS) -> list[str]:
    """The `data-spot` names of the picture's elements this action can be chosen on."""
    group, arg = ActionLayout(n_archways).decode(action)
    named = {Group.START: "archway", Group.CARD: "card", Group.ADD: "gem"}
    if group in named:
        return [f"{named[group]}:{arg}"]
    return {Group.ACCEPT: ["offer"], Group.SUBMIT: ["pending"]}.get(group, [])


# ------------------------------------------------------------------------ header
def pending_text(view: dict[str, Any]) -> str:
    """The decision the game waits for."""
    phase, viewer = Phase[view["phase"]], view["viewer"]
    if phase == Phase.SETUP:
        return "every player picks a start archway (B3.4)"
    if phase == Phase.SELECT:
        return "every player picks an action card (B5.1)"
    if phase == Phase.OVER:
        return "the game is over"
    barter = view["barter"]
    who = seat_name(barter["to_act"], viewer)
    if barter["pending"] is not None and any(barter["pending"]):
        return f"{who} is building a raise (E2)"
    if barter["offer"] is None:
        return f"{who} opens the barter: an offer or nothing (B7.2)"
    return f"{who} accepts the standing offer or raises it (B7.3)"


def header(view: dict[str, Any]) -> str:
    viewer = view["viewer"]
    reader = "full view" if viewer is None else f"as seen by {seat_name(viewer, viewer)}"
    starts = f"{view['start_mode']} starts"
    n = len(view["board"])
    title = f"BASARI · {view['num_players']} players, {n} archways, {starts} · {reader}"
    status = f"round {view['round'] + 1}/{ROUNDS} · turn {view['turn'] + 1} · {view['phase']}"
    return (
        rect(0, 0, WIDTH, HEADER_H, BAND, stroke="none")
        + text(12, 22, title, 16, fill="white", font_weight="bold")
        + text(12, 44, status, 13, fill="white", class_="status")
        + text(12, 64, "pending: " + pending_text(view), 12, fill=LIGHT, class_="pending")
    )


# ------------------------------------------------------------------------ the bazaar
def ring_cells(n: int) -> tuple[list[tuple[int, int]], int]:
    """The grid cell (column, row) of every archway, clockwise round a square from the top
    left corner, and the grid's side: `ceil(n / 4)` archways a side."""
    k = max(math.ceil(n / SIDES), 1)
    cells = [(i, 0) for i in range(k)]
    cells += [(k, i) for i in range(k)]
    cells += [(k - i, k) for i in range(k)]
    cells += [(0, k - i) for i in range(k)]
    return cells[:n], k + 1


def gem_chip(x: float, y: float, colour: int, **attrs: object) -> str:
    title = el("title", f"{COLOUR_NAMES[colour]} gem")
    circle = el("circle", cx=round(x, 1), cy=round(y, 1), r=GEM_R, fill=GEM_FILL[colour])
    return el("g", title + circle, class_="gem", data_colour=COLOUR_NAMES[colour], **attrs)


def archway_gems(x: float, y: float, gems: Sequence[int]) -> str:
    """An archway's gems as chips, or as counts when there are many."""
    if sum(gems) > MAX_GEM_CHIPS:
        words = " ".join(f"{COLOUR_NAMES[c][0].upper()}{k}" for c, k in enumerate(gems) if k)
        return text(x, y + 4, words, 10)
    colours = [c for c, k in enumerate(gems) for _ in range(k)]
    return "".join(gem_chip(x + GEM_R + 12 * i, y, c) for i, c in enumerate(colours))


def merchant_disc(x: float, y: float, seat: int) -> str:
    body = el("circle", cx=x, cy=y, r=MERCHANT_R, fill=SEAT_FILL[seat], stroke="#222")
    return body + text(x, y + 4, str(seat), 10, fill="white", font_weight="bold", **MID)


def start_ring(x: float, y: float, seat: int) -> str:
    return el("circle", cx=x, cy=y, r=5, fill="none", stroke=SEAT_FILL[seat], stroke_width=3)


def merchant(x: float, y: float, seat: int, archway: int) -> str:
    body = el("title", f"merchant of P{seat}") + merchant_disc(x, y, seat)
    return el("g", body, class_="merchant", data_seat=seat, data_archway=archway)


def start_disk(x: float, y: float, seat: int, archway: int) -> str:
    body = el("title", f"start disk of P{seat}") + start_ring(x, y, seat)
    return el("g", body, class_="start-disk", data_seat=seat, data_archway=archway)


def archway(view: dict[str, Any], k: int, x: float, y: float, size: float) -> str:
    """One archway: its number, points and gems, and the pieces standing on it."""
    points, *gems = view["board"][k]
    seats = view["seats"]
    body = [rect(x + 2, y + 2, size - 4, size - 4, "#f7ecd2", rx=6)]
    body.append(text(x + 7, y + 15, f"#{k}", 10, fill="#666", class_="number"))
    body.append(
        text(x + size - 7, y + 17, str(points), 15, font_weight="bold", class_="points", **END)
    )
    body.append(archway_gems(x + 8, y + 29, gems))
    on = [s for s, f in enumerate(seats) if f["position"] == k]
    body += [merchant(x + 13 + 17 * i, y + 47, s, k) for i, s in enumerate(on)]
    disks = [s for s, f in enumerate(seats) if f["start"] == k]
    body += [start_disk(x + 11 + 13 * i, y + size - 12, s, k) for i, s in enumerate(disks)]
    gem_data = ",".join(map(str, gems))
    return el(
        "g",
        "".join(body),
        class_="archway",
        data_archway=k,
        data_points=points,
        data_gems=gem_data,
        data_spot=f"archway:{k}",
    )


def bazaar(view: dict[str, Any], top: float) -> str:
    """The ring of archways, with the carpets and the barter inside it."""
    cells, side = ring_cells(len(view["board"]))
    size = BAZAAR / side
    out = [
        archway(view, k, 10 + col * size, top + row * size, size)
        for k, (col, row) in enumerate(cells)
    ]
    inner_x, inner_y = 10 + size + 10, top + size + 10
    out.append(carpets(view, inner_x, inner_y))
    out.append(barter_panel(view, inner_x, inner_y + 60))
    out.append(final_panel(view, inner_x, inner_y + 60))
    out.append(legend(inner_x, top + BAZAAR - size - 50))
    return el("g", "".join(out), class_="bazaar")


def legend(x: float, y: float) -> str:
    """How to read the ring."""
    body = merchant_disc(x + MERCHANT_R, y, 0) + start_ring(x + 6, y + 22, 0)
    body += text(x + 22, y + 4, "merchant, with its seat number", 11)
    body += text(x + 22, y + 26, "start disk", 11)
    body += text(x, y + 46, "archway: #number, points, gems; clockwise from #0", 11)
    return el("g", body, class_="legend", fill="#555")


def carpets(view: dict[str, Any], x: float, y: float) -> str:
    """The four carpets: the gems left in the supply (B2.3)."""
    out = [text(x, y + 14, "carpets", 13, font_weight="bold")]
    for c, count in enumerate(view["carpet"]):
        cx = x + 80 + 70 * c
        body = gem_chip(cx, y + 10, c) + text(cx + 9, y + 14, str(count), 12)
        out.append(el("g", body, class_="carpet", data_colour=COLOUR_NAMES[c], data_count=count))
    return "".join(out)


def bundle_chips(x: float, y: float, bundle: Sequence[int]) -> str:
    colours = [c for c, k in enumerate(bundle) for _ in range(k)]
    return "".join(
        gem_chip(x + GEM_R + 12 * i, y, c) for i, c in enumerate(colours[:MAX_BUNDLE_CHIPS])
    )


def barter_panel(view: dict[str, Any], x: float, y: float) -> str:
    """The running barter (B7): card, parties, standing offer, bundle being built."""
    barter, viewer = view["barter"], view["viewer"]
    if barter is None:
        return ""
    card = CARD_NAMES[barter["card"]]
    opener, responder = seat_name(barter["opener"], viewer), seat_name(barter["responder"], viewer)
    out = [text(x, y + 14, f"barter for {card}", 14, font_weight="bold")]
    out.append(text(x, y + 34, f"{opener} (opener) against {responder}", 12))
    out.append(text(x, y + 52, f"to act: {seat_name(barter['to_act'], viewer)}", 12))
    out.append(text(x, y + 70, f"offers so far: {barter['offers']}", 12))
    out.append(offer_line(barter, viewer, x, y + 90))
    pending = barter["pending"]
    if pending is not None and any(pending):
        words = f"{seat_name(barter['to_act'], viewer)} is building: {bundle_words(pending)}"
        body = text(x, y + 138, words, 12) + bundle_chips(x, y + 150, pending)
        gems = ",".join(map(str, pending))
        out.append(el("g", body, class_="pending-bundle", data_gems=gems, data_spot="pending"))
    if barter["queued_card"] >= 0:
        out.append(text(x, y + 180, f"next barter: {CARD_NAMES[barter['queued_card']]}", 12))
    return el(
        "g",
        "".join(out),
        class_="barter",
        data_card=card,
        data_opener=barter["opener"],
        data_responder=barter["responder"],
        data_to_act=barter["to_act"],
    )


def offer_line(barter: dict[str, Any], viewer: int | None, x: float, y: float) -> str:
    """The standing offer (B7.4) and who made it, or that there is none yet."""
    offer = barter["offer"]
    if offer is None:
        return text(x, y + 14, "no offer yet", 12, class_="offer-none")
    words = f"standing offer by {seat_name(barter['offer_by'], viewer)}: {bundle_words(offer)}"
    body = text(x, y + 14, words, 12, font_weight="bold") + bundle_chips(x, y + 28, offer)
    return el(
        "g",
        body,
        class_="offer",
        data_seat=barter["offer_by"],
        data_gems=",".join(map(str, offer)),
        data_spot="offer",
    )


def final_panel(view: dict[str, Any], x: float, y: float) -> str:
    """The final standings (B10): places, scores, gems, the winners."""
    final, viewer = view["final"], view["viewer"]
    if final is None:
        return ""
    out = [text(x, y + 14, "final standings (B10)", 14, font_weight="bold")]
    order = sorted(range(view["num_players"]), key=lambda s: final["places"][s])
    for i, s in enumerate(order):
        facts = view["seats"][s]
        place = final["places"][s]
        line = (
            f"{place}. {seat_name(s, viewer)}: score {facts['score']}, "
            f"{sum(facts['gems'])} gems" + (" · wins" if final["winners"][s] else "")
        )
        row = text(x, y + 36 + 18 * i, line, 12)
        out.append(el("g", row, class_="final-row", data_seat=s, data_place=place))
    return el("g", "".join(out), class_="final")


# ------------------------------------------------------------------------ players
def player_panel(view: dict[str, Any], seat: int, x: float, y: float, h: float) -> str:
    """One player's panel: score, gems, lap, archways, cards and dice."""
    facts, viewer, n = view["seats"][seat], view["viewer"], len(view["board"])
    barter = view["barter"]
    acting = barter is not None and barter["to_act"] == seat
    out = [rect(x, y, WIDTH - x - 10, h - 8, "#fafafa", rx=6, stroke_width=3 if acting else 1)]
    out.append(rect(x + 8, y + 8, 14, 14, SEAT_FILL[seat], rx=3))
    name = seat_name(seat, viewer) + (" · to act" if acting else "")
    out.append(text(x + 28, y + 20, name, 14, font_weight="bold"))
    out.append(text(WIDTH - 22, y + 22, f"score {facts['score']}", 16, class_="score", **END))
    out.append(player_gems(facts["gems"], seat == viewer, x + 10, y + 40))
    out.append(lap(facts, n, x + 300, y + 34))
    out.append(text(x + 10, y + 76, places_text(facts), 11, class_="places"))
    out.append(cards(facts["revealed"], seat == viewer, x + 10, y + 88))
    out.append(text(x + 250, y + 103, rolls_text(facts), 11, class_="rolls"))
    return el(
        "g",
        "".join(out),
        class_="player",
        data_seat=seat,
        data_score=facts["score"],
        data_gems=",".join(map(str, facts["gems"])),
        data_progress=facts["progress"],
        data_lapped=int(facts["lapped"]),
    )


def player_gems(gems: Sequence[int], own: bool, x: float, y: float) -> str:
    """A player's gems per colour, a chip and its count (public, B3.2); the reader's own
    are where a gem is added to the bundle being built."""
    out = []
    for c, count in enumerate(gems):
        spot = f"gem:{c}" if own else None
        body = gem_chip(x + 6 + 62 * c, y, c) + text(x + 15 + 62 * c, y + 4, str(count), 12)
        out.append(
            el(
                "g",
                body,
                class_="gem-count",
                data_colour=COLOUR_NAMES[c],
                data_count=count,
                data_spot=spot,
            )
        )
    return "".join(out)


def lap(facts: dict[str, Any], n: int, x: float, y: float) -> str:
    """Archways moved this round out of the lap (B4.3), as words and a bar."""
    moved = min(facts["progress"], n)
    words = "lap done" if facts["lapped"] else f"lap {facts['progress']}/{n}"
    body = rect(x, y, 150, 10, "#eee", rx=3) + rect(x, y, 150 * moved / n, 10, "#5a9", rx=3)
    return body + text(x + 160, y + 10, words, 12, class_="lap")


def places_text(facts: dict[str, Any]) -> str:
    where = facts["position"]
    if where < 0:
        return "no start archway yet"
    return f"merchant on archway {where} · start disk on archway {facts['start']}"


def rolls_text(facts: dict[str, Any]) -> str:
    rolls = [f"moved {facts['move_roll']}"] if facts["move_roll"] else []
    if facts["action_roll"]:
        rolls.append(f"Die action rolled {facts['action_roll']}")
    return " · ".join(rolls)


def cards(revealed: int, own: bool, x: float, y: float) -> str:
    """The three action cards every player holds (B3.5); the one revealed this turn is
    lit and marked."""
    out = []
    for c, name in enumerate(CARD_NAMES):
        shown = c == revealed
        body = rect(x + 76 * c, y, 70, 22, REVEALED_FILL if shown else CARD_FILL, rx=4)
        body += text(
            x + 76 * c + 35, y + 15, name, 11, font_weight="bold" if shown else None, **MID
        )
        out.append(
            el(
                "g",
                body,
                class_="card",
                data_card=name,
                data_revealed=int(shown),
                data_spot=f"card:{c}" if own else None,
            )
        )
    return "".join(out)


def players(view: dict[str, Any], top: float) -> tuple[str, float]:
    n = view["num_players"]
    h = PANEL_H[n]
    panels = [player_panel(view, s, PANEL_X, top + h * s, h) for s in range(n)]
    return "".join(panels), top + h * n


# ------------------------------------------------------------------------ the entries
def svg_view(view: dict[str, Any]) -> SVG:
    """Draw a `picture_view` dict as an SVG document."""
    players_svg, players_bottom = players(view, TOP)
    height = int(max(TOP + BAZAAR, players_bottom) + 10)
    body = (
        rect(0, 0, WIDTH, height, BACKGROUND, stroke="none")
        + header(view)
        + bazaar(view, TOP)
        + players_svg
    )
    viewer = view["viewer"]
    meta = dict(
        data_round=view["round"] + 1,
        data_turn=view["turn"] + 1,
        data_phase=view["phase"],
        data_viewer="full" if viewer is None else viewer,
    )
    return document(body, WIDTH, height, class_="basari-board", **meta)


def svg_full(state: State) -> SVG:
    """Everything about a reference state, the bundle being built included."""
    return svg_view(picture_view(state, None))


def svg_of(state: State, seat: int | None) -> SVG:
    """The picture as `seat` sees it, or the full one when seat is None."""
    return svg_view(picture_view(state, seat))


# ------------------------------------------------------------------------ replays
def replay_frames(record: GameRecord, seat: int | None = None) -> list[SVG]:
    """One picture per position of a saved game (the start, then after each joint
    action), as `seat` sees it or in full (seat None)."""
    if seat is not None:
        seat = check_int("seat", seat, 0, record.config.num_players - 1)
    state = new_game(record.config, record.seed)
    frames = [svg_of(state, seat)]
    for joint in record.actions:
        step(state, joint)
        frames.append(svg_of(state, seat))
    return frames
