"""Lookup tables the core gathers from, built once at import from the shared constants."""

from __future__ import annotations

import functools
from enum import IntEnum
from types import SimpleNamespace
from typing import cast

import numpy as np
from numpy.typing import NDArray

from asara_env.asara.actions import (
    CARD_OPTIONS,
    GENIE_MOVES,
    GROUPS,
    MAX_PLACEMENT_CARDS,
    NUM_ACTIONS,
    OFFSETS,
    TARGETS,
    Group,
    decode,
)
from asara_env.asara.constants import (
    CHEST_SPACES,
    GIFT_AMOUNT,
    GIFT_EFFECT,
    LIGHTS_OPTIONS,
    MARKET_AREAS,
    MAX_TOWERS_PER_COLOUR,
    N_BUILD_MAX,
    N_CARD_COLOURS,
    N_PARTS,
    N_TILE_COLOURS,
    PRICE,
    PRO_AREAS,
    Area,
    GiftEffect,
    Part,
    chests_in_play,
)
from asara_env.asara.core.state import COUNT, N_SPACES, SPACE_AREA, SPACE_VALUE, SPACES
from asara_env.asara.phases import PHASE_GROUPS, Phase


# ------------------------------------------------------------------------------ enums
def _ints(enum: type[IntEnum]) -> SimpleNamespace:
    """A plain-int copy of an IntEnum for hot code: numpy ops take an IntEnum member far
    more slowly than an int (each looks up numpy hooks on the enum class)."""
    return SimpleNamespace(**{m.name: int(m) for m in enum})


PHASE, AREA, GROUP, PART = _ints(Phase), _ints(Area), _ints(Group), _ints(Part)
N_GROUPS = len(Group)
ALL = slice(None)


def by_value(values: np.ndarray, size: int) -> list[tuple[int, slice | NDArray[np.bool_]]]:
    """(value, selector) for each value 0..size-1 present in `values` (ints >= 0), where
    values[selector] == value: `ALL` when every entry shares it, else a bool mask."""
    if len(values) == 1:
        return [(int(values[0]), ALL)]
    counts = np.bincount(values, minlength=size)
    present = counts.nonzero()[0].tolist()
    if len(present) == 1:
        return [(present[0], ALL)]
    return [(v, values == v) for v in present]


# ------------------------------------------------------------------------------ short axes
# numpy reductions over a short last axis are slow on large batches (a strided inner loop
# per element); these read the few bytes of such an axis as one wider integer instead.
# Small arrays (B=1) take the plain call: there the number of numpy calls is what counts.
SMALL = 256  # elements


def any_gold(tiles: np.ndarray) -> NDArray[np.bool_]:
    """bool[...]: tile counts [..., gold 2] (>= 0) not both 0."""
    if tiles.size > SMALL and tiles.dtype.itemsize == 1 and tiles.strides[-1] == 1:
        return tiles.view(np.int16)[..., 0] != 0
    return cast("NDArray[np.bool_]", tiles.any(axis=-1))


def any_count(x: np.ndarray) -> NDArray[np.bool_]:
    """bool[...]: whether counts [..., K] (>= 0) are not all 0."""
    if x.size <= SMALL:
        return cast("NDArray[np.bool_]", x.any(axis=-1))
    return functools.reduce(np.bitwise_or, [x[..., k] for k in range(x.shape[-1])]) != 0


def sum4(x: np.ndarray) -> np.ndarray:
    """int[...]: the sum over a last axis of 4 bools or small counts (sum < 128)."""
    if x.size > SMALL and x.dtype.itemsize == 1:
        v = np.ascontiguousarray(x).view(np.uint32)[..., 0]
        return ((v * np.uint32(0x01010101)) >> np.uint32(24)).astype(np.int8)
    return x.sum(axis=-1)


# ------------------------------------------------------------------------------ actions
MAX_FIELDS = max(len(g.fields) for g in GROUPS)
ACTION_GROUP = np.array([decode(a)[0] for a in range(NUM_ACTIONS)], np.int64)  # int[N]
ACTION_FIELDS = np.full((NUM_ACTIONS, MAX_FIELDS), -1, np.int64)  # int[N, 4] fields, -1 padded
for _a in range(NUM_ACTIONS):
    _f = decode(_a)[1]
    ACTION_FIELDS[_a, : len(_f)] = _f


def block(group: Group) -> slice:
    """The ids of one group, as a slice of the action axis."""
    return slice(OFFSETS[group], OFFSETS[group] + GROUPS[group].size)


BLOCKS = tuple(block(g) for g in Group)  # [group] slice of the action axis
PHASE_BLOCKS = tuple(tuple(BLOCKS[g] for g in PHASE_GROUPS[p]) for p in Phase)  # [phase]


# ------------------------------------------------------------------------------ placements
N_TARGETS = len(TARGETS)
TARGET_AREA = np.array([t.area for t in TARGETS], np.int64)  # int[target]
# bool[target, space]: spaces a placement on the target may take, the lowest vacant first
TARGET_SPACES = np.zeros((N_TARGETS, N_SPACES), bool)
for _t, _target in enumerate(TARGETS):
    for _s, (_area, _i) in enumerate(SPACES):
        if _area != _target.area:
            continue
        if _target.area == Area.BUILDING:
            assert _target.arg is not None  # a plot target names its plot
            TARGET_SPACES[_t, _s] = _i >= _target.arg - 1
        else:
            TARGET_SPACES[_t, _s] = _target.arg is None or _i == _target.arg
TARGET_BUILD_N = np.array([t.arg if t.area == Area.BUILDING else 0 for t in TARGETS], np.int64)

N_OPTIONS = len(CARD_OPTIONS)
OPTION_CARDS = np.array(
    [c + (-1,) * (MAX_PLACEMENT_CARDS - len(c)) for c in CARD_OPTIONS], np.int64
)
OPTION_FACE_UP = np.array([len(c) == 1 for c in CARD_OPTIONS])  # bool[option]
OPTION_COLOUR = np.where(OPTION_FACE_UP, OPTION_CARDS[:, 0], -1)  # face-up colour or -1

PRICES = np.array(PRICE, np.int64)  # int[tile colour]
LIGHTS_COST = np.array([c for c, _, _ in LIGHTS_OPTIONS], np.int64)
LIGHTS_DRAWN = np.array([d for _, d, _ in LIGHTS_OPTIONS], np.int64)
LIGHTS_KEPT = np.array([k for _, _, k in LIGHTS_OPTIONS], np.int64)

SPACE_IS_AREA = np.stack([a == SPACE_AREA for a in range(len(Area))])  # bool[area, space]

# ------------------------------------------------------------------------------ builds
# A set of build sizes 0..7 is a uint8 bitmask. SUMSET[a, b] = {i + j <= 7 : i in a, j in b}.
_BITS = (np.arange(256)[:, None] >> np.arange(8)) & 1  # int[mask, bit]
SUMSET = np.zeros((256, 256), np.int64)
for _i in range(8):
    for _j in range(8 - _i):
        SUMSET |= (np.outer(_BITS[:, _i], _BITS[:, _j]) << (_i + _j)).astype(np.int64)
SUMSET = SUMSET.astype(np.uint8)
_SUMSET_FLAT = SUMSET.ravel()


def sumset(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """SUMSET[a, b] for uint8 size bitmasks (broadcast); a flat np.take on large arrays."""
    if a.size + b.size <= SMALL:
        return SUMSET[a, b]
    return np.take(_SUMSET_FLAT, (a.astype(np.uint16) << 8) | b)


# COLOUR_SIZES[fixed, max_new, has_tower, trunks, windows, lighted, free] = the build sizes
# one colour allows (reference.build.colour_counts): `fixed` tiles are owed (missing bases
# and turrets), up to `max_new` new towers of 2 tiles each, then any trunks, windows and
# lighted windows (each needing a free window, old or new).
FIXED_MAX, NEW_MAX, TRUNK_MAX, WINDOW_MAX, LIT_MAX, FREE_MAX = 8, MAX_TOWERS_PER_COLOUR, 4, 5, 3, 3


def _colour_sizes_table() -> np.ndarray:
    limits = (FIXED_MAX, NEW_MAX, 1, TRUNK_MAX, WINDOW_MAX, LIT_MAX, FREE_MAX)
    shape = tuple(x + 1 for x in limits)
    fixed, max_new, has, trunks, windows, lit, free = np.indices(shape)
    table = np.zeros(shape, np.int64)
    for new in range(NEW_MAX + 1):
        base = fixed + 2 * new
        allowed = new <= max_new
        bare = allowed & (has == 0) & (new == 0)
        table |= np.where(bare & (base <= N_BUILD_MAX), 1 << np.minimum(base, 7), 0)
        for w in range(WINDOW_MAX + 1):
            ok = allowed & ~bare & (w <= windows)
            low, high = base + w, base + w + trunks + np.minimum(lit, free + w)
            for size in range(N_BUILD_MAX + 1):
                table |= np.where(ok & (low <= size) & (size <= high), 1 << size, 0)
    return table.astype(np.uint8)


COLOUR_SIZES = _colour_sizes_table()


# ------------------------------------------------------------------------------ the Genie (R9.1)
def span(selected: np.ndarray) -> slice:
    """The positions of a bool[...] selection, which must be consecutive, as a slice."""
    (index,) = np.nonzero(selected)
    assert (np.diff(index) == 1).all(), "the selected entries must be consecutive"
    return slice(int(index[0]), int(index[-1]) + 1)


def _genie_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """[move]: each Genie move's area (-1: the coloured building), space value, build size
    (a build of n pays plot n's value n) and the money it needs (its space's cost, a build
    of n: n, the lighted windows: the cheapest option)."""
    area = np.array([-1 if m.area is None else int(m.area) for m in GENIE_MOVES], np.int64)
    value = np.zeros(len(GENIE_MOVES), np.int64)
    build = np.zeros(len(GENIE_MOVES), np.int64)
    need = np.zeros(len(GENIE_MOVES), np.int64)
    for k, m in enumerate(GENIE_MOVES):
        if m.area == Area.BUILDING:
            assert m.arg is not None  # a build move names its size
            value[k] = build[k] = need[k] = m.arg
        elif m.area is not None and m.arg is not None:
            value[k] = SPACE_VALUE[SPACES.index((int(m.area), m.arg))]
        if m.area in (Area.SPIES, Area.TENT):
            need[k] = value[k]
        elif m.area == Area.LIGHTS:
            need[k] = LIGHTS_COST.min()
    return area, value, build, need


GENIE_AREA, GENIE_VALUE, GENIE_BUILD, GENIE_NEED = _genie_tables()


# ------------------------------------------------------------------------------ the mask's
# (shared by the numpy core's `mask` and the kernels)
FEATURES: tuple[str, ...] = ("missing_base", "missing_turret", "bases", "trunks", "windows")
FEATURES += ("turrets", "lighted", "free", "towers")
SUPPLY_FEATURE = ("bases", "trunks", "windows", "turrets")  # by part


def placement_deltas() -> np.ndarray:
    """int[9, feature]: how one placed tile changes a colour's build features: a tile of
    each part on an old tower (rows 0-3), starting a new tower (4-7), a lighted window (8)."""
    rows = []
    for new in (False, True):
        for part in range(N_PARTS):
            d = dict.fromkeys(FEATURES, 0)
            d[SUPPLY_FEATURE[part]] = -1
            d["free"] = int(part == Part.WINDOW)
            if new:
                d["missing_base"] = int(part != Part.BASE)
                d["missing_turret"] = int(part != Part.TURRET)
                d["towers"] = 1
            else:
                d["missing_base"] = -int(part == Part.BASE)
                d["missing_turret"] = -int(part == Part.TURRET)
            rows.append([d[k] for k in FEATURES])
    lit = dict.fromkeys(FEATURES, 0)
    lit["lighted"], lit["free"] = -1, -1
    return np.array(rows + [[lit[k] for k in FEATURES]], np.int8)


DELTAS = placement_deltas()


MARKETS = span(np.isin(TARGET_AREA, MARKET_AREAS))  # one target per market, base first
BUILDS = span(TARGET_AREA == Area.BUILDING)  # targets build 1..7
LIGHTS = span(TARGET_AREA == Area.LIGHTS)
PLOTS = np.flatnonzero(SPACE_IS_AREA[Area.BUILDING])  # the 7 plot spaces, plot 1 first
assert (np.diff(PLOTS) == 1).all()
FIRST_PLOT, N_PLOTS = int(PLOTS[0]), len(PLOTS)
# vacant spaces as bits of a uint64 (space k = bit k); the spaces of each target
SPACE_BITS = np.uint64(1) << np.arange(N_SPACES, dtype=np.uint64)
TARGET_BITS = (TARGET_SPACES.astype(np.uint64) * SPACE_BITS).sum(axis=1).astype(np.uint64)
NEVER = 1 << 20  # more money than any player has
COLOUR_BITS = (1 << np.arange(N_TILE_COLOURS)).astype(np.uint8)
assert (np.diff(PRICES) > 0).all(), "tile colours must be in increasing order of price"


def build_costs() -> np.ndarray:
    """int[vacant plots as 7 bits, k]: the value of the plot a build of k + 1 tiles takes
    (the lowest vacant plot >= k + 1, R4.2), NEVER where none is vacant."""
    table = np.full((1 << N_PLOTS, N_PLOTS), NEVER)
    for vacant in range(1 << N_PLOTS):
        for k in range(N_PLOTS):
            free = [j for j in range(k, N_PLOTS) if vacant >> j & 1]
            if free:
                table[vacant, k] = SPACE_VALUE[PLOTS[free[0]]]
    return table


BUILD_COSTS = build_costs()
BUILD_N = TARGET_BUILD_N[BUILDS]  # tiles of each build target
BUILDABLE = (np.arange(256)[:, None] >> BUILD_N) & 1 == 1  # [size bitmask, build target]
# uint8[money up to the dearest price]: the tile colours (as bits) that money can pay for
AFFORDABLE = (np.arange(PRICES[-1] + 1)[:, None] >= PRICES) @ COLOUR_BITS


_MIN_MONEY: dict[tuple[bool, bool], NDArray[np.int64]] = {}  # (pro, genie) -> int[target]


def min_money(pro: bool, genie: bool) -> NDArray[np.int64]:
    """int64[target]: the money a placement there needs (R3.5: spies, tent and the Genie
    cost their value, the lighted windows their cheapest option); NEVER for areas not in
    play (the pro areas unless `pro`, the Genie's unless `genie`)."""
    key = (pro, genie)
    if key not in _MIN_MONEY:
        enabled = np.ones(len(Area), bool)
        enabled[list(PRO_AREAS)] = key[0]
        enabled[Area.GENIE] = key[1]
        pays = np.isin(TARGET_AREA, (Area.SPIES, Area.TENT, Area.GENIE))
        need = np.where(pays, SPACE_VALUE[TARGET_SPACES.argmax(axis=1)], -NEVER)
        need[LIGHTS] = LIGHTS_COST.min()
        _MIN_MONEY[key] = np.where(enabled[TARGET_AREA], need, NEVER).astype(np.int64)
    return _MIN_MONEY[key]


OPTION_BITS = (np.uint32(1) << np.arange(N_OPTIONS, dtype=np.uint32)).astype(np.uint32)
# uint32[required colour, with -1 (none) last]: the options the colour rule allows (R3.2, R3.3)
FOLLOWS_BITS = np.array(
    [
        sum(
            1 << o
            for o, (up, c) in enumerate(zip(OPTION_FACE_UP, OPTION_COLOUR))
            if ((r < 0 or r == c) if up else r >= 0)
        )
        for r in (*range(N_TILE_COLOURS), -1)
    ],
    np.uint32,
)
# uint32[hand as base-3 digits min(count, 2), colour 0 lowest]: the options it holds
BASE3 = 3 ** np.arange(N_TILE_COLOURS)


def holds_bits() -> np.ndarray:
    hands = (np.arange(3**N_TILE_COLOURS)[:, None] // BASE3) % 3  # [pattern, colour]
    first, second = (
        OPTION_CARDS[:, 0],
        np.where(OPTION_FACE_UP, OPTION_CARDS[:, 0], OPTION_CARDS[:, 1]),
    )
    same = (first == second) & ~OPTION_FACE_UP
    holds = np.where(same, hands[:, first] >= 2, (hands[:, first] >= 1) & (hands[:, second] >= 1))
    return (holds.astype(np.uint32) @ OPTION_BITS).astype(np.uint32)


HOLDS_BITS = holds_bits()


GENIE_MARKETS = span(np.isin(GENIE_AREA, MARKET_AREAS))
GENIE_BUILDS = span(GENIE_AREA == Area.BUILDING)
GENIE_LIGHTS = span(GENIE_AREA == Area.LIGHTS)
assert (GENIE_AREA[GENIE_MARKETS] == np.arange(N_PARTS)).all()
assert (GENIE_NEED[GENIE_BUILDS] == BUILD_N).all()

TARGET_PART = np.where(np.isin(TARGET_AREA, MARKET_AREAS), TARGET_AREA, -1)  # [target], -1


# ------------------------------------------------------------------------------ the step's
# (shared by the numpy core's `step` and the kernels)
def chest_of_space(pro: bool) -> np.ndarray:
    """int[space]: the chest on each space in play (R9.2), -1 none."""
    table = np.full(len(SPACES), -1, np.int64)
    for chest in chests_in_play(pro):
        table[SPACES.index(tuple(int(x) for x in CHEST_SPACES[chest]))] = chest
    return table


CHEST_OF_SPACE = {pro: chest_of_space(pro) for pro in (False, True)}
# the decision each gift effect asks for, PLACE (none) for those carried out at once
GIFT_PHASE = np.full(len(GiftEffect), PHASE.PLACE, np.int64)
GIFT_PHASE[[GiftEffect.CARD, GiftEffect.BUY, GiftEffect.LIGHTED]] = (
    PHASE.GIFT_CARD,
    PHASE.GIFT_BUY,
    PHASE.GIFT_LIGHTS,
)
EFFECT = np.array(GIFT_EFFECT, np.int64)  # [kind]
AMOUNT = np.array(GIFT_AMOUNT, np.int64)  # [kind]


def option_hand() -> np.ndarray:
    """int8[option, card colour]: the cards an option takes from the hand."""
    table = np.zeros((len(OPTION_CARDS), N_CARD_COLOURS), COUNT)
    for option, cards in enumerate(OPTION_CARDS):
        for card in cards[cards >= 0]:
            table[option, card] += 1
    return table


OPTION_HAND = option_hand()


def area_table(default: int, **values: int) -> np.ndarray:
    """int[area]: `values` by area name, `default` elsewhere."""
    table = np.full(len(Area), default, np.int64)
    for name, value in values.items():
        table[AREA.__dict__[name]] = value
    return table


# what a placement in each area leads to (R4): the next phase (PLACE: the turn ends), the
# market opened (-1 none) and the sign of the space value in the player's money
NEXT_PHASE = area_table(
    PHASE.PLACE,
    BUILDING=PHASE.BUILD,
    SPIES=PHASE.BRIBE_STACK,
    LIGHTS=PHASE.LIGHTS_OPTION,
    GENIE=PHASE.GENIE,
)
NEXT_PHASE[list(MARKET_AREAS)] = PHASE.BUY
MARKET = area_table(-1)
MARKET[list(MARKET_AREAS)] = MARKET_AREAS
MONEY_SIGN = area_table(0, BUILDING=-1, SPIES=-1, TENT=-1, BANK=1, GENIE=-1)


# decisions that change the acting player's supply, lighted windows or towers (gift cards
# do not; a turn's gift purchases are followed by a move that is one of these)
_MATERIAL_GROUPS = (
    Group.BUY, Group.BRIBE_TAKE, Group.LIGHTS_KEEP, Group.BUILD_TILE, Group.BUILD_LIGHTED,
)  # fmt: skip
CHANGES_MATERIALS = np.array([g in _MATERIAL_GROUPS for g in Group])  # bool[group]
