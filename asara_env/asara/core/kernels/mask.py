"""The legal mask of each game's seat to move, written per game (numba). One function per
decision phase, mirroring `asara_env.asara.core.mask` (whose tables it reads)."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from asara_env.asara.actions import GROUPS, OFFSETS, Group
from asara_env.asara.constants import (
    LIGHTED_GIFT_COST,
    MAX_LIGHTS_DRAWN,
    MAX_TOWERS_PER_COLOUR,
    N_CARD_COLOURS,
    N_GOLD,
    N_LIGHTED,
    N_PARTS,
    N_TILE_COLOURS,
    Area,
    Part,
)
from asara_env.asara.core.kernels.arrays import Arrays, Rules
from asara_env.asara.core.state import N_SPACES, SPACE_VALUE
from asara_env.asara.core.tables import (
    AFFORDABLE,
    BASE3,
    BUILD_COSTS,
    BUILDABLE,
    BUILDS,
    COLOUR_BITS,
    COLOUR_SIZES,
    DELTAS,
    FEATURES,
    FIRST_PLOT,
    FOLLOWS_BITS,
    GENIE_BUILDS,
    GENIE_LIGHTS,
    GENIE_MARKETS,
    GENIE_NEED,
    HOLDS_BITS,
    LIGHTS,
    LIGHTS_COST,
    MARKETS,
    N_OPTIONS,
    N_PLOTS,
    N_TARGETS,
    PRICES,
    SPACE_BITS,
    SUMSET,
    TARGET_AREA,
    TARGET_BITS,
    TARGET_PART,
    TARGET_SPACES,
)
from asara_env.asara.phases import Phase
from asara_env.common.kernel_cache import use_source_digest_cache
from asara_env.common.kernels import COUNTED, ENTRY, INLINED

use_source_digest_cache()  # before the first kernel: the cache follows every source it reads

C, K, W = N_TILE_COLOURS, N_CARD_COLOURS, MAX_TOWERS_PER_COLOUR
BASE, TRUNK, WINDOW, TURRET = (int(p) for p in Part)
LIGHTS_AREA = int(Area.LIGHTS)
AT = np.array(OFFSETS, np.int64)  # [group] first action id
PLACE, PLACE_COLOURED, BUY, BRIBE_STACK, BRIBE_TAKE, BRIBE_NOTHING = (
    int(Group.PLACE), int(Group.PLACE_COLOURED), int(Group.BUY), int(Group.BRIBE_STACK),
    int(Group.BRIBE_TAKE), int(Group.BRIBE_NOTHING),
)  # fmt: skip
LIGHTS_OPTION, LIGHTS_KEEP, BUILD_TILE, BUILD_LIGHTED, GENIE_MOVE, GIFT_CARD = (
    int(Group.LIGHTS_OPTION), int(Group.LIGHTS_KEEP), int(Group.BUILD_TILE),
    int(Group.BUILD_LIGHTED), int(Group.GENIE_MOVE), int(Group.GIFT_CARD),
)  # fmt: skip
PH_PLACE, PH_BUY, PH_BRIBE_STACK, PH_BRIBE_TAKE = (
    int(Phase.PLACE), int(Phase.BUY), int(Phase.BRIBE_STACK), int(Phase.BRIBE_TAKE),
)  # fmt: skip
PH_LIGHTS_OPTION, PH_LIGHTS_KEEP, PH_BUILD, PH_GENIE = (
    int(Phase.LIGHTS_OPTION), int(Phase.LIGHTS_KEEP), int(Phase.BUILD), int(Phase.GENIE),
)  # fmt: skip
PH_GIFT_CARD, PH_GIFT_BUY, PH_GIFT_LIGHTS = (
    int(Phase.GIFT_CARD), int(Phase.GIFT_BUY), int(Phase.GIFT_LIGHTS),
)  # fmt: skip
N_GENIE_MOVES = GROUPS[Group.GENIE_MOVE].size
BASE3_I64, COLOUR_BITS_I64 = BASE3.astype(np.int64), COLOUR_BITS.astype(np.int64)
PLOT_BITS = (1 << N_PLOTS) - 1
# the target (and Genie move) ranges as (start, stop) ints
MARKET_SPAN, BUILD_SPAN = (MARKETS.start, MARKETS.stop), (BUILDS.start, BUILDS.stop)
LIGHTS_AT = LIGHTS.start
GENIE_MARKET_SPAN = (GENIE_MARKETS.start, GENIE_MARKETS.stop)
GENIE_BUILD_SPAN, GENIE_LIGHTS_AT = (GENIE_BUILDS.start, GENIE_BUILDS.stop), GENIE_LIGHTS.start
DELTAS_I64 = DELTAS.astype(np.int64)  # [placement kind, feature]
TARGET_PART_I64 = TARGET_PART.astype(np.int64)
MIN_LIGHTS_COST = int(LIGHTS_COST.min())
CS = COLOUR_SIZES.shape
assert FEATURES == (
    "missing_base", "missing_turret", "bases", "trunks", "windows", "turrets", "lighted",
    "free", "towers",
)  # fmt: skip
N_FEATURES = len(FEATURES)  # a colour's build numbers (colour_features)
N_KINDS = len(DELTAS_I64)  # placements: a tile of each part, old or new tower; a lighted window
# the kernels' int64 scratch (`work`, N_SCRATCH long, given by the caller): each colour's
# features, then the features after a placement, each colour's build sizes, and whether
# each placement of each colour leaves the build finishable
AFTER_AT = C * N_FEATURES
SIZES_AT = AFTER_AT + N_FEATURES
FINISHES_AT = SIZES_AT + C
N_SCRATCH = FINISHES_AT + N_KINDS * C
assert N_SPACES <= 64 and N_LIGHTED and MAX_LIGHTS_DRAWN


# ------------------------------------------------------------------------------ shared pieces
@numba.njit(**INLINED)
def markets_ok(s: Arrays, b: int, part: int, money: int) -> bool:
    """The display of `part` shows a tile `money` can pay for."""
    shown = 0
    for c in range(C):
        if s.displays[b, part, c, 0] != 0 or s.displays[b, part, c, 1] != 0:
            shown |= COLOUR_BITS_I64[c]
    return (shown & AFFORDABLE[min(max(money, 0), len(AFFORDABLE) - 1)]) != 0


@numba.njit(**INLINED)
def vacant_bits(s: Arrays, b: int) -> np.uint64:
    """uint64: bit k set where space k is vacant."""
    bits = np.uint64(0)
    for sp in range(N_SPACES):
        if s.space_seat[b, sp] < 0:
            bits |= SPACE_BITS[sp]
    return bits


@numba.njit(**INLINED)
def space_taken(s: Arrays, b: int, target: int) -> int:
    """The space a placement on `target` takes: the first vacant candidate."""
    for sp in range(N_SPACES):
        if TARGET_SPACES[target, sp] and s.space_seat[b, sp] < 0:
            return sp
    return 0


# ------------------------------------------------------------------------------ builds
@numba.njit(**INLINED)
def colour_features(s: Arrays, b: int, seat: int, c: int, f: np.ndarray) -> None:
    """f[feature] (int64[N_FEATURES], `FEATURES` order): the build numbers of one colour."""
    towers = s.n_towers[b, seat, c]
    missing_base = missing_turret = free = 0
    for k in range(towers):
        parts = s.tower_parts[b, seat, c, k]
        if parts[BASE, 0] == 0 and parts[BASE, 1] == 0:
            missing_base += 1
        if parts[TURRET, 0] == 0 and parts[TURRET, 1] == 0:
            missing_turret += 1
        lit = s.tower_lit[b, seat, c, k]
        free += parts[WINDOW, 0] + parts[WINDOW, 1] - lit[0] - lit[1]
    f[0], f[1], f[7], f[8] = missing_base, missing_turret, free, towers
    supply = s.supply[b, seat]
    f[2] = supply[BASE, c, 0] + supply[BASE, c, 1]
    f[3] = supply[TRUNK, c, 0] + supply[TRUNK, c, 1]
    f[4] = supply[WINDOW, c, 0] + supply[WINDOW, c, 1]
    f[5] = supply[TURRET, c, 0] + supply[TURRET, c, 1]
    f[6] = s.lighted_supply[b, seat, c]


@numba.njit(**INLINED)
def clip(x: int, n: int) -> int:
    return min(max(x, 0), n - 1)


@numba.njit(**INLINED)
def colour_sizes(f: np.ndarray) -> int:
    """The bitmask of build sizes a colour with features `f` allows (mask.colour_sizes)."""
    mb, mt, bases, trunks, windows, turrets, lighted, free, towers = (
        f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]
    )  # fmt: skip
    if mb > bases or mt > turrets:
        return 0
    max_new = min(min(bases - mb, turrets - mt), W - towers)
    return COLOUR_SIZES[
        clip(mb + mt, CS[0]), clip(max_new, CS[1]), 1 if towers > 0 else 0,
        clip(trunks, CS[3]), clip(windows, CS[4]), clip(lighted, CS[5]), clip(free, CS[6]),
    ]  # fmt: skip


@numba.njit(**INLINED)
def build_sizes(s: Arrays, b: int, seat: int, f: np.ndarray) -> int:
    """The bitmask of build sizes `seat` can make (mask.build_sizes); f: int64 scratch,
    N_FEATURES long or longer."""
    total = 1
    for c in range(C):
        colour_features(s, b, seat, c, f)
        total = SUMSET[total, colour_sizes(f)]
    return total


@numba.njit(**INLINED)
def write_finishes(s: Arrays, b: int, seat: int, work: np.ndarray) -> None:
    """work[FINISHES_AT + kind * C + colour] = 1 where placing that tile (a kind of `DELTAS_I64`)
    of that colour leaves a build of exactly the tiles still to place possible (R4.2.6),
    else 0; the rest of `work` (int64[N_SCRATCH]) is its scratch."""
    for c in range(C):
        f = work[c * N_FEATURES : (c + 1) * N_FEATURES]
        colour_features(s, b, seat, c, f)
        work[SIZES_AT + c] = colour_sizes(f)
    need = s.build_left[b] - 1
    after = work[AFTER_AT : AFTER_AT + N_FEATURES]
    for c in range(C):
        others = 1
        for o in range(C):
            if o != c:
                others = SUMSET[others, work[SIZES_AT + o]]
        for kind in range(N_KINDS):
            for i in range(N_FEATURES):
                after[i] = work[c * N_FEATURES + i] + DELTAS_I64[kind, i]
            work[FINISHES_AT + kind * C + c] = (SUMSET[others, colour_sizes(after)] >> need) & 1


@numba.njit(**INLINED)
def mask_build(s: Arrays, b: int, seat: int, row: np.ndarray, work: np.ndarray) -> None:
    """Build tiles: in the supply, fitting their tower (R4.2.2, R7.2), the build still
    finishable; lighted windows onto free windows likewise. work: int64[N_SCRATCH]."""
    write_finishes(s, b, seat, work)
    finishes = work[FINISHES_AT : FINISHES_AT + N_KINDS * C]
    for c in range(C):
        towers = s.n_towers[b, seat, c]
        for part in range(N_PARTS):
            for k in range(W):
                parts = s.tower_parts[b, seat, c, k, part]
                unique_ok = part in (TRUNK, WINDOW) or (parts[0] == 0 and parts[1] == 0)
                old = k < towers and unique_ok and finishes[part * C + c] != 0
                if old or (k == towers and finishes[(N_PARTS + part) * C + c] != 0):
                    mask_supply(s, b, seat, part, c, k, row)
        if s.lighted_supply[b, seat, c] > 0 and finishes[2 * N_PARTS * C + c] != 0:
            for k in range(towers):
                for g in range(N_GOLD):
                    free = s.tower_parts[b, seat, c, k, WINDOW, g] - s.tower_lit[b, seat, c, k, g]
                    if free > 0:
                        row[AT[BUILD_LIGHTED] + (c * W + k) * N_GOLD + g] = True


@numba.njit(**INLINED)
def mask_supply(s: Arrays, b: int, seat: int, part: int, c: int, k: int, row: np.ndarray) -> None:
    """The supply's tiles of `part` and colour c, plain or gold, onto tower slot k."""
    for g in range(N_GOLD):
        if s.supply[b, seat, part, c, g] > 0:
            row[AT[BUILD_TILE] + ((part * C + c) * N_GOLD + g) * W + k] = True


# ------------------------------------------------------------------------------ placements
@numba.njit(**INLINED)
def mask_place(
    s: Arrays, b: int, seat: int, money: int, min_money: np.ndarray, row: np.ndarray
) -> None:
    """Placements the hand and the colour rule allow on targets whose move can be carried
    out (R3.5), and cards on the coloured building."""
    code = 0
    for c in range(K):
        code += min(s.hands[b, seat, c], 2) * BASE3_I64[c]
    holds = HOLDS_BITS[code]
    vacant = vacant_bits(s, b)
    plots = (vacant >> np.uint64(FIRST_PLOT)) & np.uint64(PLOT_BITS)
    for t in range(N_TARGETS):
        if (vacant & TARGET_BITS[t]) == 0 or money < min_money[t]:
            continue
        if MARKET_SPAN[0] <= t < MARKET_SPAN[1] and not markets_ok(s, b, t - MARKET_SPAN[0], money):
            continue
        if BUILD_SPAN[0] <= t < BUILD_SPAN[1]:
            j = t - BUILD_SPAN[0]
            if not BUILDABLE[s.build_sizes[b, seat], j] or BUILD_COSTS[plots, j] > money:
                continue
        if t == LIGHTS_AT and s.lighted_len[b] <= 0:
            continue
        colour = s.area_colour[b, TARGET_AREA[t]]
        bits = FOLLOWS_BITS[colour if colour >= 0 else C] & holds
        for o in range(N_OPTIONS):
            row[AT[PLACE] + t * N_OPTIONS + o] = (bits >> o) & 1 == 1
    for c in range(K):
        row[AT[PLACE_COLOURED] + c] = s.hands[b, seat, c] >= 1


# ------------------------------------------------------------------------------ other decisions
@numba.njit(**INLINED)
def mask_tiles(pile: np.ndarray, b: int, part: int, money: int, row: np.ndarray, at: int) -> None:
    """Tiles of `part` in a pile (a display or a stack) that `money` can pay for."""
    if part < 0:
        return
    for c in range(C):
        if PRICES[c] > money:
            continue
        for g in range(N_GOLD):
            if pile[b, part, c, g] > 0:
                row[at + (part * C + c) * N_GOLD + g] = True


@numba.njit(**INLINED)
def mask_genie(s: Arrays, b: int, seat: int, money: int, row: np.ndarray) -> None:
    """R9.1: any space's move but the Caliph's, vacant or not, paying its own cost."""
    for mv in range(N_GENIE_MOVES):
        ok = money >= GENIE_NEED[mv]
        if ok and GENIE_MARKET_SPAN[0] <= mv < GENIE_MARKET_SPAN[1]:
            ok = markets_ok(s, b, mv - GENIE_MARKET_SPAN[0], money)
        elif ok and GENIE_BUILD_SPAN[0] <= mv < GENIE_BUILD_SPAN[1]:
            ok = BUILDABLE[s.build_sizes[b, seat], mv - GENIE_BUILD_SPAN[0]]
        elif ok and mv == GENIE_LIGHTS_AT:
            ok = s.lighted_len[b] > 0
        row[AT[GENIE_MOVE] + mv] = ok


@numba.njit(**INLINED)
def move_possible(s: Arrays, b: int, left: int, shown: np.ndarray) -> bool:
    """The move waiting behind the gifts (R9.2 with R3.5) can be carried out with `left`
    Asari; `shown[c]`: its market's display would still show colour c."""
    target = s.pending_target[b]
    if TARGET_PART_I64[target] >= 0:
        for c in range(C):  # noqa: SIM110 (numba compiles no generator expressions)
            if shown[c] and left >= PRICES[c]:
                return True
        return False
    lights = TARGET_AREA[target] == LIGHTS_AREA
    need = MIN_LIGHTS_COST if lights else SPACE_VALUE[s.pending_space[b]]
    return left >= need


@numba.njit(**INLINED)
def pending_display(s: Arrays, b: int, out: np.ndarray) -> None:
    """out[c]: tiles of colour c in the waiting move's market (part 0 if not a market)."""
    part = max(TARGET_PART_I64[s.pending_target[b]], 0)
    for c in range(C):
        out[c] = s.displays[b, part, c, 0] + s.displays[b, part, c, 1]


@numba.njit(**COUNTED)
def mask_gift_buy(s: Arrays, b: int, money: int, row: np.ndarray) -> bool:
    """R9.2: a tile of the gift's part the player can pay and still make their move;
    returns whether there is one."""
    part = s.market[b]
    pending = TARGET_PART_I64[s.pending_target[b]]
    display = np.empty(C, np.int64)
    pending_display(s, b, display)
    shown = np.empty(C, np.bool_)
    found = False
    for c in range(C):
        left = money - PRICES[c]
        for o in range(C):
            shown[o] = display[o] - (1 if pending == part and o == c else 0) > 0
        if left < 0 or not move_possible(s, b, left, shown):
            continue
        for g in range(N_GOLD):
            if s.displays[b, part, c, g] > 0:
                row[AT[BUY] + (part * C + c) * N_GOLD + g] = True
                found = True
    return found


@numba.njit(**COUNTED)
def mask_gift_lights(s: Arrays, b: int, money: int, row: np.ndarray) -> bool:
    """R9.2: a window of the stack, paid with LIGHTED_GIFT_COST, leaving the move possible;
    returns whether there is one."""
    display = np.empty(C, np.int64)
    pending_display(s, b, display)
    left = money - LIGHTED_GIFT_COST
    ok = left >= 0 and move_possible(s, b, left, display > 0)
    if TARGET_AREA[s.pending_target[b]] == LIGHTS_AREA and s.lighted_len[b] <= 1:
        ok = False
    found = False
    if ok:
        for i in range(s.lighted_stack.shape[1]):
            colour = s.lighted_stack[b, i]
            if colour >= 0:
                row[AT[LIGHTS_KEEP] + colour] = True
                found = True
    return found


@numba.njit(**INLINED)
def mask_gift_card(s: Arrays, b: int, row: np.ndarray) -> bool:
    """R9.2: a card of the draw pile; returns whether there is one."""
    found = False
    for c in range(K):
        if s.draw_pile[b, c] > 0:
            row[AT[GIFT_CARD] + c] = True
            found = True
    return found


# ------------------------------------------------------------------------------ the mask
@numba.njit(**ENTRY)  # called by two entry points: compiled once, not inlined into each
def write_mask(s: Arrays, b: int, min_money: np.ndarray, work: np.ndarray) -> None:
    """Recompute s.legal[b] for game b's phase (all False once it is over); work: the
    scratch, int64[N_SCRATCH]."""
    row = s.legal[b]
    row[:] = False
    phase, seat = s.phase[b], s.seat[b]
    money = s.money[b, seat]
    if phase == PH_PLACE:
        mask_place(s, b, seat, money, min_money, row)
    elif phase == PH_BUILD:
        mask_build(s, b, seat, row, work)
    elif phase == PH_GENIE:
        mask_genie(s, b, seat, money, row)
    elif phase in (PH_GIFT_CARD, PH_GIFT_BUY, PH_GIFT_LIGHTS):
        mask_gift(s, b, phase, money, row)
    else:
        mask_move(s, b, phase, money, row)


@numba.njit(**INLINED)
def mask_move(s: Arrays, b: int, phase: int, money: int, row: np.ndarray) -> None:
    """The sub-decisions of a market, the spies and the lighted windows (none if over)."""
    if phase == PH_BUY:
        mask_tiles(s.displays, b, s.market[b], money, row, AT[BUY])
    elif phase == PH_BRIBE_STACK:
        row[AT[BRIBE_STACK] : AT[BRIBE_STACK] + N_PARTS] = True
    elif phase == PH_BRIBE_TAKE:
        mask_tiles(s.stacks, b, s.bribe_stack[b], money, row, AT[BRIBE_TAKE])
        row[AT[BRIBE_NOTHING]] = True
    elif phase == PH_LIGHTS_OPTION:
        for o in range(len(LIGHTS_COST)):
            row[AT[LIGHTS_OPTION] + o] = LIGHTS_COST[o] <= money
    elif phase == PH_LIGHTS_KEEP:
        for j in range(s.lights_drawn.shape[1]):
            if s.lights_drawn[b, j] >= 0:
                row[AT[LIGHTS_KEEP] + s.lights_drawn[b, j]] = True


@numba.njit(**INLINED)
def mask_gift(s: Arrays, b: int, phase: int, money: int, row: np.ndarray) -> bool:
    """A gift's decision (R9.2); whether it has a legal choice."""
    if phase == PH_GIFT_CARD:
        return mask_gift_card(s, b, row)
    if phase == PH_GIFT_BUY:
        return mask_gift_buy(s, b, money, row)
    return mask_gift_lights(s, b, money, row)


@numba.njit(**ENTRY)
def write_masks(
    state: tuple[np.ndarray, ...], rules: tuple[Any, ...], games: np.ndarray, work: np.ndarray
) -> None:
    """write_mask for each of `games`; `state`: the `Arrays` as a plain tuple, `rules` the
    `Rules`, work: int64[N_SCRATCH] of scratch."""
    s, k = Arrays(*state), Rules(*rules)
    for b in games:
        write_mask(s, b, k.min_money, work)
