"""The vectorised `observe` as it was before the batch-speed rewrite,
copied verbatim from asara_env/asara/core/observation.py at commit e166c2b: the oracle the
new `observe` must equal byte for byte (tests/asara/test_observe_fast.py). Test-only; it
reads the layout from the live module so that both encode the same table."""

# ruff: noqa: E731
from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from asara_env.asara.constants import (
    GIFT_SLOTS,
    MAX_PLAYERS,
    MAX_TOWERS_PER_COLOUR,
    N_AREAS,
    N_CHESTS,
    N_GIFT_KINDS,
    N_GOLD,
    N_LIGHTED,
    N_PARTS,
)
from asara_env.asara.core.observation import (
    MIN_PLAYERS,
    N_SPACES,
    OBS_DIM,
    OBS_INDEX,
    OBS_SLICES,
    P4,
    SPACE_FEATURES,
    TILES,
    B,
    C,
)
from asara_env.asara.phases import Phase

CoreState = Any  # the core's state container (wherever it lives)
GameConfig = Any

# `observe` builds one float32 "source" row per game holding every count the observation
# may show (SOURCE), gathers the observation from it with one index table per viewer
# (a count of an absent seat or a one-hot position gathers the source's constant 0), then
# sets the ones of the one-hot slices (HOT).


@dataclass(frozen=True)
class Seen:
    """What one call of `observe` computes once and several source fields read."""

    viewer: np.ndarray | int  # int, or int[B, 1] when the games' viewers differ
    flat_viewer: np.ndarray | int  # int, or int[B]
    face_down: np.ndarray  # bool[B, space] a buyer lies face down there
    own_cards: np.ndarray  # int8[B, space, card colour] the viewer's face-down cards
    drawing: np.ndarray  # bool[B] the viewer is keeping drawn lighted windows


Reader = Callable[[CoreState, Seen], np.ndarray]


@dataclass(frozen=True)
class Source:
    """One field of the source row: its shape after the batch axis ("P": a player axis in
    absolute seats) and how it is read from the state."""

    shape: tuple[int | str, ...]
    read: Reader


# the source row, in order; `observe` gathers every observation entry from it
SOURCE: dict[str, Source] = {
    "constants": Source((5,), lambda st, s: _constants(st.config, len(st.year))),
    "money": Source(("P",), lambda st, s: st.money),
    "prestige": Source(("P",), lambda st, s: st.prestige),
    "hand_sizes": Source(("P",), lambda st, s: st.hands.sum(axis=-1)),
    "hands": Source(("P", B), lambda st, s: st.hands),
    "draw_pile_size": Source((), lambda st, s: st.draw_pile.sum(axis=-1)),
    "stacks": Source(TILES, lambda st, s: st.stacks),
    "displays": Source(TILES, lambda st, s: st.displays),
    "supply": Source(("P", *TILES), lambda st, s: st.supply),
    "lighted_held": Source(("P",), lambda st, s: st.lighted_supply.sum(axis=-1)),
    "lighted_supply": Source(("P", C), lambda st, s: st.lighted_supply),
    "lighted_len": Source((), lambda st, s: st.lighted_len),
    "tower_parts": Source(
        ("P", C, MAX_TOWERS_PER_COLOUR, N_PARTS * N_GOLD), lambda st, s: st.tower_parts
    ),
    "tower_lit": Source(("P", C, MAX_TOWERS_PER_COLOUR, N_GOLD), lambda st, s: st.tower_lit),
    "tower_exists": Source(
        ("P", C, MAX_TOWERS_PER_COLOUR, 1), lambda st, s: st.n_towers[..., None] > _SLOTS
    ),
    "face_down": Source((N_SPACES,), lambda st, s: s.face_down),
    "own_cards": Source((N_SPACES, B), lambda st, s: s.own_cards),
    "coloured_sum": Source(("P",), lambda st, s: st.coloured.sum(axis=-1)),
    "coloured": Source(("P", B), lambda st, s: st.coloured),
    "lights_drawn": Source((C,), lambda st, s: _drawn_colours(st.lights_drawn, s.drawing)),
    "lights_drawn_count": Source((), lambda st, s: (st.lights_drawn >= 0).sum(axis=-1)),
    "lights_keep": Source((), lambda st, s: st.lights_keep),
    "build_left": Source((), lambda st, s: st.build_left),
    "gift_pile": Source((N_GIFT_KINDS,), lambda st, s: st.gift_pile),
    "draw_pile_seen": Source((B,), lambda st, s: _seen_draw_pile(st, s.flat_viewer)),
    "lighted_stack_seen": Source((C,), lambda st, s: _seen_lighted_stack(st, s.flat_viewer)),
}
ZERO, ONE = 0, 1  # source positions of the constants


def _source_positions(p: int) -> dict[str, np.ndarray]:
    """Source field -> int array of its positions in the source row, shaped like the field."""
    positions, start = {}, 0
    for name, field in SOURCE.items():
        shape = field.shape
        dims = tuple(p if isinstance(d, str) else d for d in shape)  # "P": the players
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


def _at(name: str, stride: int = 0, count: int = 1, shift: int = 0) -> tuple[int, ...]:
    """Observation positions of value 0 of `count` one-hots of slice `name`, `stride` apart
    (`shift`: where value 0 is not the slice's first entry)."""
    start = OBS_INDEX[name].start + shift
    return tuple(start + k * stride for k in range(count))


@dataclass(frozen=True)
class Hot:
    """One-hots of the observation: the position of value 0 of each, and how their values
    (int[B, count], -1 = none) are read. `seat` values are absolute seats, shown relative
    to the viewer."""

    bases: tuple[int, ...]
    read: Callable[[CoreState, np.ndarray | int], np.ndarray]
    seat: bool = False


def _face_up_colour(st: CoreState, viewer: np.ndarray | int) -> np.ndarray:
    return np.where(st.space_face_up, st.space_cards[..., 0], -1)


HOT: dict[str, Hot] = {
    "seat_to_move": Hot(_at("seat_to_move"), lambda st, v: st.seat[:, None], seat=True),
    "caliph": Hot(_at("caliph"), lambda st, v: st.caliph[:, None], seat=True),
    "space_buyer": Hot(
        _at("spaces", SPACE_FEATURES, N_SPACES), lambda st, v: st.space_seat, seat=True
    ),
    "year": Hot(_at("year", shift=-1), lambda st, v: st.year[:, None]),  # years count from 1
    "phase": Hot(_at("phase"), lambda st, v: st.phase[:, None]),
    "lighted_stack_known": Hot(
        _at("lighted_stack_known", C, N_LIGHTED),
        lambda st, v: np.where(st.lighted_owner == v, st.lighted_stack, -1),
    ),
    "area_colour": Hot(_at("area_colour", B, N_AREAS), lambda st, v: st.area_colour),
    "space_face_up": Hot(_at("spaces", SPACE_FEATURES, N_SPACES, shift=P4), _face_up_colour),
    "market": Hot(_at("market"), lambda st, v: st.market[:, None]),
    "bribe_stack": Hot(_at("bribe_stack"), lambda st, v: st.bribe_stack[:, None]),
    "chest_gifts": Hot(
        _at("chest_gifts", N_GIFT_KINDS, N_CHESTS * GIFT_SLOTS),
        lambda st, v: st.gifts.reshape(len(st.gifts), -1),
    ),
    "gift_queue": Hot(_at("gift_queue", N_GIFT_KINDS, GIFT_SLOTS), lambda st, v: st.gift_queue),
    "gift_chest": Hot(_at("gift_chest"), lambda st, v: st.gift_chest[:, None]),
    "pending_target": Hot(_at("pending_target"), lambda st, v: st.pending_target[:, None]),
}
_SEAT_HOTS = tuple(h for h in HOT.values() if h.seat)  # their values share one lookup
_OTHER_HOTS = tuple(h for h in HOT.values() if not h.seat)
# int[H]: the position of value 0 of every one-hot, seat one-hots first
HOT_BASES = np.array([b for h in _SEAT_HOTS + _OTHER_HOTS for b in h.bases])
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


def _viewers(
    state: CoreState, seat: int | np.integer | np.ndarray
) -> tuple[np.ndarray | int, int | None]:
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


def _seen(state: CoreState, viewer: np.ndarray | int) -> Seen:
    face_down = (state.space_seat >= 0) & ~state.space_face_up
    mine = face_down & (state.space_seat == viewer)
    cards = np.where(mine[..., None], state.space_cards, -1)
    flat_viewer = viewer if isinstance(viewer, int) else viewer[:, 0]
    drawing = (state.phase == _LIGHTS_KEEP) & (state.seat == flat_viewer)
    own_cards = _PAIR_COUNTS[cards[..., 0], cards[..., 1]]
    return Seen(viewer, flat_viewer, face_down, own_cards, drawing)


def _source(state: CoreState, viewer: np.ndarray | int) -> np.ndarray:
    """float32[B, source size]: the SOURCE fields of each game for its viewer."""
    batch = state.year.shape[0]
    seen = _seen(state, viewer)
    fields = [f.read(state, seen).reshape(batch, -1) for f in SOURCE.values()]
    return np.concatenate(fields, axis=1, dtype=np.float32)


def _seen_draw_pile(state: CoreState, viewer: np.ndarray | int) -> np.ndarray:
    """int[B, card colour]: the draw pile where the viewer chooses a gift card (R9.2)."""
    cards = (state.phase == _GIFT_CARD) & (state.seat == viewer)
    if not cards.any():
        return np.zeros((len(state.phase), B), np.int8)
    return state.draw_pile * cards[:, None]


def _seen_lighted_stack(state: CoreState, viewer: np.ndarray | int) -> np.ndarray:
    """int[B, colour]: the lighted-window stack by colour where the viewer looks through it
    for a gift (R9.2)."""
    lights = (state.phase == _GIFT_LIGHTS) & (state.seat == viewer)
    if not lights.any():
        return np.zeros((len(state.phase), C), np.int8)
    return (state.lighted_stack[..., None] == _COLOURS).sum(axis=-2) * lights[:, None]


def _drawn_colours(drawn: np.ndarray, drawing: np.ndarray) -> np.ndarray:
    """int[B, colour]: the lighted windows each viewer is choosing from (none if not)."""
    if not drawing.any():  # the usual case; skips the histogram
        return np.zeros((len(drawn), C), np.int8)
    return (drawn[..., None] == _COLOURS).sum(axis=-2) * drawing[:, None]


def _constants(cfg: GameConfig, batch: int) -> NDArray[np.int8]:
    """int8[batch, 5]: the source's constants 0, 1, pro, genie, gifts (cached)."""
    key = (cfg, batch)
    if key not in _CONSTANTS:
        if len(_CONSTANTS) > 64:
            _CONSTANTS.clear()
        flags = [0, 1, cfg.pro, cfg.has_genie, cfg.has_gifts]
        _CONSTANTS[key] = np.tile(np.array(flags, np.int8), (batch, 1))
    return _CONSTANTS[key]


_CONSTANTS: dict[tuple[GameConfig, int], NDArray[np.int8]] = {}
# numpy compares plain ints much faster than enums
_LIGHTS_KEEP = int(Phase.LIGHTS_KEEP)
_GIFT_CARD, _GIFT_LIGHTS = int(Phase.GIFT_CARD), int(Phase.GIFT_LIGHTS)
_COLOURS = np.arange(C)
_SLOTS: NDArray[np.int64] = np.arange(MAX_TOWERS_PER_COLOUR)
# int8[card, card, colour]: colour counts of a pair of cards; card -1 (index B) = none
_PAIR_COUNTS = np.zeros((B + 1, B + 1, B), np.int8)
for _a in range(B + 1):
    for _b in range(B + 1):
        for _card in (_a, _b):
            if _card < B:
                _PAIR_COUNTS[_a, _b, _card] += 1


def _hot_values(state: CoreState, viewer: np.ndarray | int) -> np.ndarray:
    """int[B, H]: the value of each one-hot of HOT_BASES, -1 for none."""
    batch = state.year.shape[0]
    seats = np.concatenate([h.read(state, viewer) for h in _SEAT_HOTS], axis=1)
    relative = RELATIVE[state.config.num_players][viewer, seats + 1]
    others = [h.read(state, viewer).reshape(batch, -1) for h in _OTHER_HOTS]
    return np.concatenate([relative, *others], axis=1)


def observe(
    state: CoreState, seat: int | np.integer | np.ndarray | None = None
) -> NDArray[np.float32]:
    """float32[B, OBS_DIM]: each game's observation for `seat` (an int or int[B]; by
    default the seat to decide, whose legal actions `legal_action_mask` gives)."""
    viewer, shared = _viewers(state, state.seat if seat is None else seat)
    source = _source(state, viewer)
    tables = _gather_tables(state.config.num_players)
    if shared is not None:
        out = np.take(source, tables[shared], axis=1)  # C-contiguous, unlike source[:, t]
    else:
        assert isinstance(viewer, np.ndarray)  # games with different viewers
        out = source[np.arange(len(source))[:, None], tables[viewer[:, 0]]]
    values = _hot_values(state, viewer)
    positions = HOT_BASES + values
    if len(out) > 1:
        positions += np.arange(0, out.size, OBS_DIM)[:, None]
    assert out.flags.c_contiguous  # so that reshape(-1) is a view
    out.reshape(-1)[positions[values >= 0]] = 1
    return out
