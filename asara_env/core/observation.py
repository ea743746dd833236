"""The observation: one flat float32 vector per seat, exactly what that seat may know (R10)
plus the context of the pending decision.

Everything is player-relative: relative seat r = (seat - viewer) mod P, the viewer first,
padded to 4 players (the "present" flag marks real ones), so the size is the same for every
configuration. Values are raw counts; -1 sentinels become all-zero one-hots. The layout is
declared once in `OBS_SLICES`; `OBS_DIM`, `OBS_INDEX` and docs/observation.md derive from it.

`encode_view` encodes the reference `seat_view` dict (plain loops, the specification);
`observe` encodes a whole `CoreState` batch with numpy and must agree with it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..actions import TARGETS
from ..constants import (
    GIFT_SLOTS,
    MAX_PLAYERS,
    MAX_TOWERS_PER_COLOUR,
    MIN_PLAYERS,
    N_AREAS,
    N_CARD_COLOURS,
    N_CHESTS,
    N_GIFT_KINDS,
    N_GOLD,
    N_LIGHTED,
    N_PARTS,
    N_TILE_COLOURS,
    N_YEARS,
    Area,
)
from ..phases import Phase
from .state import N_SPACES, SPACE_VALUE, SPACES, CoreState

N_PHASES = 12  # Phase values 0..11 (8..11: the expansions' decisions)
N_PLAYER_COUNTS = MAX_PLAYERS - MIN_PLAYERS + 1
MAX_DRAWN = 5  # most lighted windows drawn at once (R7.2)
TOWER_FEATURES = N_PARTS * N_GOLD + 3  # part/gold counts, lit plain, lit gold, exists
SPACE_FEATURES = MAX_PLAYERS + N_CARD_COLOURS + 1 + N_CARD_COLOURS
P4, C, B = MAX_PLAYERS, N_TILE_COLOURS, N_CARD_COLOURS


@dataclass(frozen=True)
class ObsSlice:
    name: str
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        return math.prod(self.shape)


TILES = (N_PARTS, C, N_GOLD)
_S = ObsSlice
OBS_SLICES: tuple[ObsSlice, ...] = (
    _S("num_players", (N_PLAYER_COUNTS,), "one-hot: 2, 3, 4 players"),
    _S("pro", (1,), "1 = professional variant (R7)"),
    _S("genie", (1,), "1 = Bottle Genie expansion (R9.1)"),
    _S("gifts", (1,), "1 = gifts expansion (R9.2)"),
    _S("year", (N_YEARS,), "one-hot: year 1..4"),
    _S("phase", (N_PHASES,), "one-hot: Phase value (PLACE..GAME_OVER, GENIE, GIFT_*)"),
    _S("seat_to_move", (P4,), "one-hot relative seat to decide"),
    _S("caliph", (P4,), "one-hot relative seat holding the Caliph tile"),
    _S("present", (P4,), "[relative seat] 1 = a player sits there"),
    _S("money", (P4,), "[relative seat] Asari"),
    _S("prestige", (P4,), "[relative seat] prestige (final scoring added at the end)"),
    _S("hand_sizes", (P4,), "[relative seat] cards in hand"),
    _S("hand", (B,), "[card colour] the viewer's hand"),
    _S("draw_pile_size", (1,), "cards in the draw pile"),
    _S("stacks", TILES, "[part, colour, gold] face-down stacks"),
    _S("displays", TILES, "[part, colour, gold] face-up market displays"),
    _S("supply", (P4, *TILES), "[relative seat, part, colour, gold] unbuilt tiles"),
    _S("lighted_held", (P4,), "[relative seat] unbuilt lighted windows"),
    _S("lighted_supply", (C,), "[colour] the viewer's unbuilt lighted windows"),
    _S("lighted_stack_size", (1,), "lighted windows in the stack"),
    _S(
        "lighted_stack_known",
        (N_LIGHTED, C),
        "[position from the top, colour] one-hot where the viewer put that window back",
    ),
    _S(
        "towers",
        (P4, C, MAX_TOWERS_PER_COLOUR, TOWER_FEATURES),
        "[relative seat, colour, k-th tower started, (tiles by part x gold, gold fastest (8),"
        " lit plain, lit gold, exists)]",
    ),
    _S("area_colour", (N_AREAS, B), "[area] one-hot required card colour (R3.2)"),
    _S(
        "spaces",
        (N_SPACES, SPACE_FEATURES),
        "[space, (relative seat one-hot (4), face-up colour one-hot (5), face-down flag,"
        " the viewer's own face-down colours (5))]",
    ),
    _S("coloured", (P4,), "[relative seat] cards on the coloured building"),
    _S("coloured_own", (B,), "[card colour] the viewer's cards on the coloured building"),
    _S("market", (N_PARTS,), "BUY: one-hot part of the market"),
    _S("bribe_stack", (N_PARTS,), "BRIBE_TAKE: one-hot part of the searched stack"),
    _S("lights_drawn", (C,), "LIGHTS_KEEP: [colour] windows drawn, if the viewer drew them"),
    _S("lights_drawn_count", (1,), "LIGHTS_KEEP: windows drawn and not yet kept"),
    _S("lights_keep", (1,), "LIGHTS_KEEP: windows still to keep"),
    _S("build_left", (1,), "BUILD: tiles still to place"),
    # R9.2 gifts (appended, so that the slices above keep their positions)
    _S(
        "chest_gifts",
        (N_CHESTS, GIFT_SLOTS, N_GIFT_KINDS),
        "[chest, k-th gift laid, gift kind] one-hot: the gifts face up on each chest space",
    ),
    _S("gift_pile", (N_GIFT_KINDS,), "[gift kind] gift cards left in the pile"),
    _S(
        "gift_queue",
        (GIFT_SLOTS, N_GIFT_KINDS),
        "GIFT_*: [k-th, gift kind] one-hot: the gifts still to carry out, in order",
    ),
    _S("gift_chest", (N_CHESTS,), "GIFT_*: one-hot chest being emptied"),
    _S("pending_target", (len(TARGETS),), "GIFT_*: one-hot placement target whose move follows"),
    _S("draw_pile_seen", (B,), "GIFT_CARD: [card colour] the draw pile, if the viewer chooses"),
    _S(
        "lighted_stack_seen",
        (C,),
        "GIFT_LIGHTS: [colour] the lighted-window stack, if the viewer looks through it",
    ),
)


def _index() -> dict[str, slice]:
    index, start = {}, 0
    for s in OBS_SLICES:
        index[s.name] = slice(start, start + s.size)
        start += s.size
    return index


OBS_INDEX: dict[str, slice] = _index()
OBS_DIM: int = sum(s.size for s in OBS_SLICES)


def observation_markdown() -> str:
    """The observation documentation, generated from `OBS_SLICES`."""
    lines = [
        "# Observation",
        "",
        f"One flat `float32[{OBS_DIM}]` vector per seat, the same size for every configuration",
        "(`asara_env.core.observation`). Player axes are relative to the viewer (relative",
        "seat r = (seat - viewer) mod P, the viewer first) and padded to 4 players; values are",
        "raw counts. It holds exactly what the viewer may know (R10). Generated by",
        "`python -m asara_env.docs` (`make docs`); do not edit by hand.",
        "",
        "| slice | start | end | shape | meaning |",
        "|---|---|---|---|---|",
    ]
    for s in OBS_SLICES:
        sl = OBS_INDEX[s.name]
        shape = "×".join(map(str, s.shape))
        lines.append(f"| {s.name} | {sl.start} | {sl.stop} | {shape} | {s.meaning} |")
    lines += ["", "## Spaces", "", "| space | area | index | value |", "|---|---|---|---|"]
    lines += [
        f"| {k} | {Area(a).name} | {i} | {SPACE_VALUE[k]} |" for k, (a, i) in enumerate(SPACES)
    ]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------ vectorised
# `observe` builds one float32 "source" row per game holding every count the observation
# may show (SOURCE), gathers the observation from it with one index table per viewer
# (a count of an absent seat or a one-hot position gathers the source's constant 0), then
# sets the ones of the one-hot slices (HOT).

# source fields: name -> shape after the batch axis, "P" = a player axis (absolute seats)
SOURCE: dict[str, tuple] = {
    "constants": (5,),  # 0, 1, pro, genie, gifts
    "money": ("P",),
    "prestige": ("P",),
    "hand_sizes": ("P",),
    "hands": ("P", B),
    "draw_pile_size": (),
    "stacks": TILES,
    "displays": TILES,
    "supply": ("P", *TILES),
    "lighted_held": ("P",),
    "lighted_supply": ("P", C),
    "lighted_len": (),
    "tower_parts": ("P", C, MAX_TOWERS_PER_COLOUR, N_PARTS * N_GOLD),
    "tower_lit": ("P", C, MAX_TOWERS_PER_COLOUR, N_GOLD),
    "tower_exists": ("P", C, MAX_TOWERS_PER_COLOUR, 1),
    "face_down": (N_SPACES,),
    "own_cards": (N_SPACES, B),  # the viewer's face-down cards on each space
    "coloured_sum": ("P",),
    "coloured": ("P", B),
    "lights_drawn": (C,),  # counts by colour, if the viewer drew them
    "lights_drawn_count": (),
    "lights_keep": (),
    "build_left": (),
    "gift_pile": (N_GIFT_KINDS,),
    "draw_pile_seen": (B,),  # the draw pile, if the viewer is choosing a gift card
    "lighted_stack_seen": (C,),  # the stack by colour, if the viewer is looking through it
}
ZERO, ONE = 0, 1  # source positions of the constants


def _source_positions(p: int) -> dict[str, np.ndarray]:
    """Source field -> int array of its positions in the source row, shaped like the field."""
    positions, start = {}, 0
    for name, shape in SOURCE.items():
        dims = tuple(p if d == "P" else d for d in shape)
        size = math.prod(dims)
        positions[name] = np.arange(start, start + size).reshape(dims)
        start += size
    return positions


def _gather_table(p: int, viewer: int) -> np.ndarray:
    """int[OBS_DIM]: the source position of each observation entry for `viewer`."""
    src = _source_positions(p)
    seats = [(viewer + r) % p for r in range(p)]

    def relative(field: str) -> np.ndarray:  # [4, ...] in relative seat order, zero-padded
        rows = src[field][seats]
        return np.concatenate([rows, np.full((P4 - p, *rows.shape[1:]), ZERO)])

    def const(*values: int) -> np.ndarray:
        return np.array(values)

    spaces = np.full((N_SPACES, SPACE_FEATURES), ZERO)
    spaces[:, P4 + B] = src["face_down"]
    spaces[:, P4 + B + 1 :] = src["own_cards"]
    towers = [relative(f) for f in ("tower_parts", "tower_lit", "tower_exists")]
    pro, genie, gifts = src["constants"][2:]
    table = {
        "num_players": const(*[ONE if k == p - MIN_PLAYERS else ZERO for k in range(3)]),
        "pro": const(pro),
        "genie": const(genie),
        "gifts": const(gifts),
        "present": const(*[ONE if r < p else ZERO for r in range(P4)]),
        "money": relative("money"),
        "prestige": relative("prestige"),
        "hand_sizes": relative("hand_sizes"),
        "hand": src["hands"][viewer],
        "draw_pile_size": src["draw_pile_size"],
        "stacks": src["stacks"],
        "displays": src["displays"],
        "supply": relative("supply"),
        "lighted_held": relative("lighted_held"),
        "lighted_supply": src["lighted_supply"][viewer],
        "lighted_stack_size": src["lighted_len"],
        "towers": np.concatenate(towers, axis=-1),
        "spaces": spaces,
        "coloured": relative("coloured_sum"),
        "coloured_own": src["coloured"][viewer],
        "lights_drawn": src["lights_drawn"],
        "lights_drawn_count": src["lights_drawn_count"],
        "lights_keep": src["lights_keep"],
        "build_left": src["build_left"],
        "gift_pile": src["gift_pile"],
        "draw_pile_seen": src["draw_pile_seen"],
        "lighted_stack_seen": src["lighted_stack_seen"],
    }
    out = np.full(OBS_DIM, ZERO)
    for name, positions in table.items():
        out[OBS_INDEX[name]] = np.broadcast_to(positions, _shape(name)).reshape(-1)
    return out


def _shape(name: str) -> tuple[int, ...]:
    return next(s.shape for s in OBS_SLICES if s.name == name)


def _hot_bases() -> np.ndarray:
    """int[H]: the observation position of value 0 of each one-hot, in `_hot_values` order:
    first those of relative seats (seat to move, Caliph, each space's buyer), then the
    others (year, phase, known lighted windows, area colours, face-up colours, market,
    bribery stack, gifts on the chests, gifts waiting, the chest, the waiting target)."""

    def at(name: str, stride: int = 0, count: int = 1, shift: int = 0) -> list[int]:
        start = OBS_INDEX[name].start + shift
        return [start + k * stride for k in range(count)]

    return np.array(
        at("seat_to_move")
        + at("caliph")
        + at("spaces", SPACE_FEATURES, N_SPACES)
        + at("year", shift=-1)  # years count from 1
        + at("phase")
        + at("lighted_stack_known", C, N_LIGHTED)
        + at("area_colour", B, N_AREAS)
        + at("spaces", SPACE_FEATURES, N_SPACES, shift=P4)
        + at("market")
        + at("bribe_stack")
        + at("chest_gifts", N_GIFT_KINDS, N_CHESTS * GIFT_SLOTS)
        + at("gift_queue", N_GIFT_KINDS, GIFT_SLOTS)
        + at("gift_chest")
        + at("pending_target")
    )


HOT_BASES = _hot_bases()
_TABLES: dict[int, np.ndarray] = {}  # players -> int[viewer, OBS_DIM]
# RELATIVE[p][viewer, seat + 1]: the relative seat of an absolute seat, -1 for -1
RELATIVE = {
    p: np.array([[-1] + [(s - v) % p for s in range(p)] for v in range(p)], np.int8)
    for p in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}


def _gather_tables(p: int) -> np.ndarray:
    if p not in _TABLES:
        _TABLES[p] = np.stack([_gather_table(p, v) for v in range(p)])
    return _TABLES[p]


def _viewers(state: CoreState, seat) -> tuple[np.ndarray | int, int | None]:
    """The viewer of each game (an int, or int[B, 1]) and, if all games share one, it."""
    p = state.config.num_players
    if isinstance(seat, np.ndarray) and seat.size == 1:
        seat = seat.reshape(-1)[0]
    if isinstance(seat, (int, np.integer)):
        if not 0 <= seat < p:
            raise ValueError(f"seats must be in 0..{p - 1}, got {[int(seat)]}")
        return int(seat), int(seat)
    viewer = np.broadcast_to(np.asarray(seat, np.int64), state.year.shape)
    low, high = viewer.min(), viewer.max()
    if low < 0 or high >= p:
        raise ValueError(f"seats must be in 0..{p - 1}, got {np.unique(viewer).tolist()}")
    if low == high:
        return int(low), int(low)
    return viewer[:, None], None


def _source(state: CoreState, viewer) -> np.ndarray:
    """float32[B, source size]: the SOURCE fields of each game for its viewer."""
    batch = state.year.shape[0]
    face_down = (state.space_seat >= 0) & ~state.space_face_up
    mine = face_down & (state.space_seat == viewer)
    cards = np.where(mine[..., None], state.space_cards, -1)
    flat_viewer = viewer if isinstance(viewer, int) else viewer[:, 0]
    drawing = (state.phase == _LIGHTS_KEEP) & (state.seat == flat_viewer)
    drawn = state.lights_drawn
    fields = (
        _constants(state.config, batch),
        state.money,
        state.prestige,
        state.hands.sum(axis=-1),
        state.hands,
        state.draw_pile.sum(axis=-1),
        state.stacks,
        state.displays,
        state.supply,
        state.lighted_supply.sum(axis=-1),
        state.lighted_supply,
        state.lighted_len,
        state.tower_parts,
        state.tower_lit,
        state.n_towers[..., None] > _SLOTS,
        face_down,
        _PAIR_COUNTS[cards[..., 0], cards[..., 1]],
        state.coloured.sum(axis=-1),
        state.coloured,
        _drawn_colours(drawn, drawing),
        (drawn >= 0).sum(axis=-1),
        state.lights_keep,
        state.build_left,
        state.gift_pile,
        *_seen_piles(state, flat_viewer),
    )
    return np.concatenate([f.reshape(batch, -1) for f in fields], axis=1, dtype=np.float32)


def _seen_piles(state: CoreState, viewer) -> tuple[np.ndarray, np.ndarray]:
    """The draw pile [B, card colour] and the lighted-window stack by colour [B, colour] of
    the games where the viewer looks through them for a gift (R9.2), zeros elsewhere."""
    acting = state.seat == viewer
    cards = (state.phase == _GIFT_CARD) & acting
    lights = (state.phase == _GIFT_LIGHTS) & acting
    batch = len(state.phase)
    pile = state.draw_pile * cards[:, None] if cards.any() else np.zeros((batch, B), np.int8)
    if not lights.any():
        return pile, np.zeros((batch, C), np.int8)
    stack = (state.lighted_stack[..., None] == _COLOURS).sum(axis=-2) * lights[:, None]
    return pile, stack


def _drawn_colours(drawn: np.ndarray, drawing: np.ndarray) -> np.ndarray:
    """int[B, colour]: the lighted windows each viewer is choosing from (none if not)."""
    if not drawing.any():  # the usual case; skips the histogram
        return np.zeros((len(drawn), C), np.int8)
    return (drawn[..., None] == _COLOURS).sum(axis=-2) * drawing[:, None]


def _constants(cfg, batch: int) -> np.ndarray:
    """int8[batch, 5]: the source's constants 0, 1, pro, genie, gifts (cached)."""
    key = (cfg, batch)
    if key not in _CONSTANTS:
        if len(_CONSTANTS) > 64:
            _CONSTANTS.clear()
        flags = [0, 1, cfg.pro, cfg.has_genie, cfg.has_gifts]
        _CONSTANTS[key] = np.tile(np.array(flags, np.int8), (batch, 1))
    return _CONSTANTS[key]


_CONSTANTS: dict[tuple, np.ndarray] = {}
# numpy compares plain ints much faster than enums
_LIGHTS_KEEP = int(Phase.LIGHTS_KEEP)
_GIFT_CARD, _GIFT_LIGHTS = int(Phase.GIFT_CARD), int(Phase.GIFT_LIGHTS)
_COLOURS = np.arange(C)
_SLOTS = np.arange(MAX_TOWERS_PER_COLOUR)
# int8[card, card, colour]: colour counts of a pair of cards; card -1 (index B) = none
_PAIR_COUNTS = np.zeros((B + 1, B + 1, B), np.int8)
for _a in range(B + 1):
    for _b in range(B + 1):
        for _card in (_a, _b):
            if _card < B:
                _PAIR_COUNTS[_a, _b, _card] += 1


def _hot_values(state: CoreState, viewer) -> np.ndarray:
    """int[B, H]: the value of each one-hot of HOT_BASES, -1 for none."""
    seats = np.concatenate([state.seat[:, None], state.caliph[:, None], state.space_seat], 1)
    relative = RELATIVE[state.config.num_players][viewer, seats + 1]
    known = np.where(state.lighted_owner == viewer, state.lighted_stack, -1)
    face_up = np.where(state.space_face_up, state.space_cards[..., 0], -1)
    others = (state.year, state.phase, known, state.area_colour, face_up)
    others += (state.market, state.bribe_stack, state.gifts, state.gift_queue)
    others += (state.gift_chest, state.pending_target)
    batch = state.year.shape[0]
    return np.concatenate([relative, *(x.reshape(batch, -1) for x in others)], axis=1)


def observe(state: CoreState, seat) -> np.ndarray:
    """float32[B, OBS_DIM]: each game's observation for `seat` (an int or int[B])."""
    viewer, shared = _viewers(state, seat)
    source = _source(state, viewer)
    tables = _gather_tables(state.config.num_players)
    if shared is not None:
        out = np.take(source, tables[shared], axis=1)  # C-contiguous, unlike source[:, t]
    else:
        out = source[np.arange(len(source))[:, None], tables[viewer[:, 0]]]
    values = _hot_values(state, viewer)
    positions = HOT_BASES + values
    if len(out) > 1:
        positions += np.arange(0, out.size, OBS_DIM)[:, None]
    assert out.flags.c_contiguous  # so that reshape(-1) is a view
    out.reshape(-1)[positions[values >= 0]] = 1
    return out
