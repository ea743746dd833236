"""The legal mask of each game's seat to move, written per game (numba). One function per
decision phase, mirroring `asara_env.asara.core.mask` (whose tables it reads)."""

from __future__ import annotations

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
from asara_env.asara.core import mask as m
from asara_env.asara.core.kernels.arrays import COUNTED, UNCOUNTED, Arrays
from asara_env.asara.core.state import N_SPACES, SPACE_VALUE
from asara_env.asara.core.tables import (
    COLOUR_SIZES,
    GENIE_NEED,
    LIGHTS_COST,
    N_OPTIONS,
    N_TARGETS,
    PRICES,
    SUMSET,
    TARGET_AREA,
    TARGET_SPACES,
)
from asara_env.asara.phases import Phase

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
TARGET_BITS = m._TARGET_BITS
SPACE_BITS = m._SPACE_BITS
FOLLOWS_BITS, HOLDS_BITS, BASE3 = m._FOLLOWS_BITS, m._HOLDS_BITS, m._BASE3.astype(np.int64)
AFFORDABLE, BUILDABLE, BUILD_COSTS = m._AFFORDABLE, m._BUILDABLE, m._BUILD_COSTS
COLOUR_BITS = m._COLOUR_BITS.astype(np.int64)
FIRST_PLOT, PLOT_BITS = m._FIRST_PLOT, (1 << m._N_PLOTS) - 1
MARKETS, BUILDS, LIGHTS = (
    (m._MARKETS.start, m._MARKETS.stop),
    (m._BUILDS.start, m._BUILDS.stop),
    m._LIGHTS.start,
)  # noqa: E501
G_MARKETS, G_BUILDS, G_LIGHTS = (
    (m._GENIE_MARKETS.start, m._GENIE_MARKETS.stop),
    (m._GENIE_BUILDS.start, m._GENIE_BUILDS.stop),
    m._GENIE_LIGHTS.start,
)
DELTAS = m._DELTAS.astype(np.int64)  # [placement kind, feature]
TARGET_PART = m._TARGET_PART.astype(np.int64)
MIN_LIGHTS_COST = int(LIGHTS_COST.min())
CS = COLOUR_SIZES.shape
assert m._FEATURES == (
    "missing_base", "missing_turret", "bases", "trunks", "windows", "turrets", "lighted",
    "free", "towers",
)  # fmt: skip
N_FEATURES = len(m._FEATURES)  # a colour's build numbers (colour_features)
N_KINDS = len(DELTAS)  # placements: a tile of each part, old or new tower; a lighted window
# the kernels' int64 scratch (`work`, N_SCRATCH long, given by the caller): each colour's
# features, then the features after a placement, each colour's build sizes, and whether
# each placement of each colour leaves the build finishable
AFTER_AT = C * N_FEATURES
SIZES_AT = AFTER_AT + N_FEATURES
FINISHES_AT = SIZES_AT + C
N_SCRATCH = FINISHES_AT + N_KINDS * C
assert N_SPACES <= 64 and N_LIGHTED and MAX_LIGHTS_DRAWN


# ------------------------------------------------------------------------------ shared pieces
@UNCOUNTED
def markets_ok(s, b, part, money):  # type: ignore[no-untyped-def]
    """The display of `part` shows a tile `money` can pay for."""
    shown = 0
    for c in range(C):
        if s.displays[b, part, c, 0] != 0 or s.displays[b, part, c, 1] != 0:
            shown |= COLOUR_BITS[c]
    return (shown & AFFORDABLE[min(max(money, 0), len(AFFORDABLE) - 1)]) != 0


@UNCOUNTED
def vacant_bits(s, b):  # type: ignore[no-untyped-def]
    """uint64: bit k set where space k is vacant."""
    bits = np.uint64(0)
    for sp in range(N_SPACES):
        if s.space_seat[b, sp] < 0:
            bits |= SPACE_BITS[sp]
    return bits


@UNCOUNTED
def space_taken(s, b, target):  # type: ignore[no-untyped-def]
    """The space a placement on `target` takes: the first vacant candidate."""
    for sp in range(N_SPACES):
        if TARGET_SPACES[target, sp] and s.space_seat[b, sp] < 0:
            return sp
    return 0


# ------------------------------------------------------------------------------ builds
@UNCOUNTED
def colour_features(s, b, seat, c, f):  # type: ignore[no-untyped-def]
    """f[feature] (int64[N_FEATURES], `m._FEATURES` order): the build numbers of one colour."""
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


@numba.njit(cache=True, inline="always")
def _clip(x, n):  # type: ignore[no-untyped-def]
    return min(max(x, 0), n - 1)


@UNCOUNTED
def colour_sizes(f):  # type: ignore[no-untyped-def]
    """The bitmask of build sizes a colour with features `f` allows (mask.colour_sizes)."""
    mb, mt, bases, trunks, windows, turrets, lighted, free, towers = (
        f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8]
    )  # fmt: skip
    if mb > bases or mt > turrets:
        return 0
    max_new = min(min(bases - mb, turrets - mt), W - towers)
    return COLOUR_SIZES[
        _clip(mb + mt, CS[0]), _clip(max_new, CS[1]), 1 if towers > 0 else 0,
        _clip(trunks, CS[3]), _clip(windows, CS[4]), _clip(lighted, CS[5]), _clip(free, CS[6]),
    ]  # fmt: skip


@UNCOUNTED
def build_sizes(s, b, seat, f):  # type: ignore[no-untyped-def]
    """The bitmask of build sizes `seat` can make (mask.build_sizes); f: int64 scratch,
    N_FEATURES long or longer."""
    total = 1
    for c in range(C):
        colour_features(s, b, seat, c, f)
        total = SUMSET[total, colour_sizes(f)]
    return total


@UNCOUNTED
def _finishes(s, b, seat, work):  # type: ignore[no-untyped-def]
    """work[FINISHES_AT + kind * C + colour] = 1 where placing that tile (a kind of `DELTAS`)
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
                after[i] = work[c * N_FEATURES + i] + DELTAS[kind, i]
            work[FINISHES_AT + kind * C + c] = (SUMSET[others, colour_sizes(after)] >> need) & 1


@UNCOUNTED
def _mask_build(s, b, seat, row, work):  # type: ignore[no-untyped-def]
    """Build tiles: in the supply, fitting their tower (R4.2.2, R7.2), the build still
    finishable; lighted windows onto free windows likewise. work: int64[N_SCRATCH]."""
    _finishes(s, b, seat, work)
    finishes = work[FINISHES_AT : FINISHES_AT + N_KINDS * C]
    for c in range(C):
        towers = s.n_towers[b, seat, c]
        for part in range(N_PARTS):
            for k in range(W):
                parts = s.tower_parts[b, seat, c, k, part]
                unique_ok = part in (TRUNK, WINDOW) or (parts[0] == 0 and parts[1] == 0)
                old = k < towers and unique_ok and finishes[part * C + c] != 0
                if old or (k == towers and finishes[(N_PARTS + part) * C + c] != 0):
                    _mask_supply(s, b, seat, part, c, k, row)
        if s.lighted_supply[b, seat, c] > 0 and finishes[2 * N_PARTS * C + c] != 0:
            for k in range(towers):
                for g in range(N_GOLD):
                    free = s.tower_parts[b, seat, c, k, WINDOW, g] - s.tower_lit[b, seat, c, k, g]
                    if free > 0:
                        row[AT[BUILD_LIGHTED] + (c * W + k) * N_GOLD + g] = True


@UNCOUNTED
def _mask_supply(s, b, seat, part, c, k, row):  # type: ignore[no-untyped-def]
    """The supply's tiles of `part` and colour c, plain or gold, onto tower slot k."""
    for g in range(N_GOLD):
        if s.supply[b, seat, part, c, g] > 0:
            row[AT[BUILD_TILE] + ((part * C + c) * N_GOLD + g) * W + k] = True


# ------------------------------------------------------------------------------ placements
@UNCOUNTED
def _mask_place(s, b, seat, money, min_money, row):  # type: ignore[no-untyped-def]
    """Placements the hand and the colour rule allow on targets whose move can be carried
    out (R3.5), and cards on the coloured building."""
    code = 0
    for c in range(K):
        code += min(s.hands[b, seat, c], 2) * BASE3[c]
    holds = HOLDS_BITS[code]
    vacant = vacant_bits(s, b)
    plots = (vacant >> np.uint64(FIRST_PLOT)) & np.uint64(PLOT_BITS)
    for t in range(N_TARGETS):
        if (vacant & TARGET_BITS[t]) == 0 or money < min_money[t]:
            continue
        if MARKETS[0] <= t < MARKETS[1] and not markets_ok(s, b, t - MARKETS[0], money):
            continue
        if BUILDS[0] <= t < BUILDS[1]:
            j = t - BUILDS[0]
            if not BUILDABLE[s.build_sizes[b, seat], j] or BUILD_COSTS[plots, j] > money:
                continue
        if t == LIGHTS and s.lighted_len[b] <= 0:
            continue
        colour = s.area_colour[b, TARGET_AREA[t]]
        bits = FOLLOWS_BITS[colour if colour >= 0 else C] & holds
        for o in range(N_OPTIONS):
            row[AT[PLACE] + t * N_OPTIONS + o] = (bits >> o) & 1 == 1
    for c in range(K):
        row[AT[PLACE_COLOURED] + c] = s.hands[b, seat, c] >= 1


# ------------------------------------------------------------------------------ other decisions
@UNCOUNTED
def _mask_tiles(pile, b, part, money, row, at):  # type: ignore[no-untyped-def]
    """Tiles of `part` in a pile (a display or a stack) that `money` can pay for."""
    if part < 0:
        return
    for c in range(C):
        if PRICES[c] > money:
            continue
        for g in range(N_GOLD):
            if pile[b, part, c, g] > 0:
                row[at + (part * C + c) * N_GOLD + g] = True


@UNCOUNTED
def _mask_genie(s, b, seat, money, row):  # type: ignore[no-untyped-def]
    """R9.1: any space's move but the Caliph's, vacant or not, paying its own cost."""
    for mv in range(N_GENIE_MOVES):
        ok = money >= GENIE_NEED[mv]
        if ok and G_MARKETS[0] <= mv < G_MARKETS[1]:
            ok = markets_ok(s, b, mv - G_MARKETS[0], money)
        elif ok and G_BUILDS[0] <= mv < G_BUILDS[1]:
            ok = BUILDABLE[s.build_sizes[b, seat], mv - G_BUILDS[0]]
        elif ok and mv == G_LIGHTS:
            ok = s.lighted_len[b] > 0
        row[AT[GENIE_MOVE] + mv] = ok


@UNCOUNTED
def _move_possible(s, b, left, shown):  # type: ignore[no-untyped-def]
    """The move waiting behind the gifts (R9.2 with R3.5) can be carried out with `left`
    Asari; `shown[c]`: its market's display would still show colour c."""
    target = s.pending_target[b]
    if TARGET_PART[target] >= 0:
        for c in range(C):  # noqa: SIM110 (numba compiles no generator expressions)
            if shown[c] and left >= PRICES[c]:
                return True
        return False
    lights = TARGET_AREA[target] == LIGHTS_AREA
    need = MIN_LIGHTS_COST if lights else SPACE_VALUE[s.pending_space[b]]
    return left >= need


@UNCOUNTED
def _pending_display(s, b, out):  # type: ignore[no-untyped-def]
    """out[c]: tiles of colour c in the waiting move's market (part 0 if not a market)."""
    part = max(TARGET_PART[s.pending_target[b]], 0)
    for c in range(C):
        out[c] = s.displays[b, part, c, 0] + s.displays[b, part, c, 1]


@COUNTED
def mask_gift_buy(s, b, money, row):  # type: ignore[no-untyped-def]
    """R9.2: a tile of the gift's part the player can pay and still make their move;
    returns whether there is one."""
    part = s.market[b]
    pending = TARGET_PART[s.pending_target[b]]
    display = np.empty(C, np.int64)
    _pending_display(s, b, display)
    shown = np.empty(C, np.bool_)
    found = False
    for c in range(C):
        left = money - PRICES[c]
        for o in range(C):
            shown[o] = display[o] - (1 if pending == part and o == c else 0) > 0
        if left < 0 or not _move_possible(s, b, left, shown):
            continue
        for g in range(N_GOLD):
            if s.displays[b, part, c, g] > 0:
                row[AT[BUY] + (part * C + c) * N_GOLD + g] = True
                found = True
    return found


@COUNTED
def mask_gift_lights(s, b, money, row):  # type: ignore[no-untyped-def]
    """R9.2: a window of the stack, paid with LIGHTED_GIFT_COST, leaving the move possible;
    returns whether there is one."""
    display = np.empty(C, np.int64)
    _pending_display(s, b, display)
    left = money - LIGHTED_GIFT_COST
    ok = left >= 0 and _move_possible(s, b, left, display > 0)
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


@UNCOUNTED
def mask_gift_card(s, b, row):  # type: ignore[no-untyped-def]
    """R9.2: a card of the draw pile; returns whether there is one."""
    found = False
    for c in range(K):
        if s.draw_pile[b, c] > 0:
            row[AT[GIFT_CARD] + c] = True
            found = True
    return found


# ------------------------------------------------------------------------------ the mask
@UNCOUNTED
def write_mask(s, b, min_money, work):  # type: ignore[no-untyped-def]
    """Recompute s.legal[b] for game b's phase (all False once it is over); work: the
    scratch, int64[N_SCRATCH]."""
    row = s.legal[b]
    row[:] = False
    phase, seat = s.phase[b], s.seat[b]
    money = s.money[b, seat]
    if phase == PH_PLACE:
        _mask_place(s, b, seat, money, min_money, row)
    elif phase == PH_BUILD:
        _mask_build(s, b, seat, row, work)
    elif phase == PH_GENIE:
        _mask_genie(s, b, seat, money, row)
    elif phase in (PH_GIFT_CARD, PH_GIFT_BUY, PH_GIFT_LIGHTS):
        mask_gift(s, b, phase, money, row)
    else:
        _mask_move(s, b, phase, money, row)


@UNCOUNTED
def _mask_move(s, b, phase, money, row):  # type: ignore[no-untyped-def]
    """The sub-decisions of a market, the spies and the lighted windows (none if over)."""
    if phase == PH_BUY:
        _mask_tiles(s.displays, b, s.market[b], money, row, AT[BUY])
    elif phase == PH_BRIBE_STACK:
        row[AT[BRIBE_STACK] : AT[BRIBE_STACK] + N_PARTS] = True
    elif phase == PH_BRIBE_TAKE:
        _mask_tiles(s.stacks, b, s.bribe_stack[b], money, row, AT[BRIBE_TAKE])
        row[AT[BRIBE_NOTHING]] = True
    elif phase == PH_LIGHTS_OPTION:
        for o in range(len(LIGHTS_COST)):
            row[AT[LIGHTS_OPTION] + o] = LIGHTS_COST[o] <= money
    elif phase == PH_LIGHTS_KEEP:
        for j in range(s.lights_drawn.shape[1]):
            if s.lights_drawn[b, j] >= 0:
                row[AT[LIGHTS_KEEP] + s.lights_drawn[b, j]] = True


@UNCOUNTED
def mask_gift(s, b, phase, money, row):  # type: ignore[no-untyped-def]
    """A gift's decision (R9.2); whether it has a legal choice."""
    if phase == PH_GIFT_CARD:
        return mask_gift_card(s, b, row)
    if phase == PH_GIFT_BUY:
        return mask_gift_buy(s, b, money, row)
    return mask_gift_lights(s, b, money, row)


@COUNTED
def write_masks(games, min_money, *fields):  # type: ignore[no-untyped-def]
    """write_mask for each of `games`; `fields`: the state's arrays in ARRAY_FIELDS order."""
    s = Arrays(*fields)
    work = np.empty(N_SCRATCH, np.int64)
    for b in games:
        write_mask(s, b, min_money, work)
