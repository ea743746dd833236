"""Legal-action masks for a batch, one function per decision group (docs/asara/rules.md R3-R7)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from asara_env.asara.constants import (
    CHEST_SPACES,
    LIGHTED_GIFT_COST,
    MARKET_AREAS,
    N_PARTS,
    N_TILE_COLOURS,
    Area,
)
from asara_env.asara.core.state import SPACE_VALUE, CoreState
from asara_env.asara.core.tables import (
    AFFORDABLE,
    BASE3,
    BLOCKS,
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
    GROUP,
    HOLDS_BITS,
    LIGHTS,
    LIGHTS_COST,
    MARKETS,
    MAX_TOWERS_PER_COLOUR,
    N_OPTIONS,
    N_PLOTS,
    N_TARGETS,
    PART,
    PHASE_BLOCKS,
    PRICES,
    SMALL,
    SPACE_BITS,
    TARGET_AREA,
    TARGET_BITS,
    TARGET_PART,
    TARGET_SPACES,
    any_gold,
    by_value,
    min_money,
    sum4,
    sumset,
)
from asara_env.asara.phases import Phase

# what a mask function gives: group -> bool[n, group size], its allowed actions per game
Masks = dict[int, np.ndarray]


def of_seat(field: np.ndarray, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """field[rows, seat] of a per-player field [B, P, ...] (on many rows np.take of a flat
    index is several times faster than two-axis fancy indexing)."""
    if len(rows) * 4 <= SMALL:
        return field[rows, seat]
    return np.take(field.reshape(-1, *field.shape[2:]), rows * field.shape[1] + seat, axis=0)


def _seat_rows(state: CoreState, rows: np.ndarray, field: np.ndarray) -> np.ndarray:
    """field[rows, seat to move] for a per-player field."""
    return of_seat(field, rows, state.seat[rows])


# ------------------------------------------------------------------------------ builds
def colour_features(
    parts: np.ndarray,
    lit: np.ndarray,
    n_towers: np.ndarray,
    supply: np.ndarray,
    lighted: np.ndarray,
) -> dict[str, np.ndarray]:
    """Build-relevant numbers of one player's colours. parts int[..., C, 4, part, gold],
    lit int[..., C, 4, gold], n_towers int[..., C], supply int[..., part, C, gold],
    lighted int[..., C]. Returns a dict of int[..., C]."""
    exists = np.take(_EXISTS, n_towers, axis=0)  # [..., C, 4]
    has_base = any_gold(parts[..., PART.BASE, :])  # [..., C, 4]
    has_turret = any_gold(parts[..., PART.TURRET, :])
    free = parts[..., PART.WINDOW, 0] + parts[..., PART.WINDOW, 1] - lit[..., 0] - lit[..., 1]
    by_part = supply[..., 0] + supply[..., 1]  # [..., part, C]
    return {
        "missing_base": sum4(exists & ~has_base),
        "missing_turret": sum4(exists & ~has_turret),
        "bases": by_part[..., PART.BASE, :],
        "trunks": by_part[..., PART.TRUNK, :],
        "windows": by_part[..., PART.WINDOW, :],
        "turrets": by_part[..., PART.TURRET, :],
        "lighted": lighted,
        "free": sum4(np.where(exists, free, 0)),
        "towers": n_towers,
    }


# bool[towers started, slot]: the slots holding a tower
_EXISTS = np.arange(MAX_TOWERS_PER_COLOUR) < np.arange(MAX_TOWERS_PER_COLOUR + 1)[:, None]
_IS_NEW = np.arange(MAX_TOWERS_PER_COLOUR) == np.arange(MAX_TOWERS_PER_COLOUR + 1)[:, None]


def colour_sizes(f: dict[str, np.ndarray]) -> np.ndarray:
    """uint8 bitmask of the build sizes each colour allows (reference build.colour_counts)."""
    feasible = (f["missing_base"] <= f["bases"]) & (f["missing_turret"] <= f["turrets"])
    max_new = np.minimum(
        np.minimum(f["bases"] - f["missing_base"], f["turrets"] - f["missing_turret"]),
        MAX_TOWERS_PER_COLOUR - f["towers"],
    )
    index = np.ravel_multi_index(  # mode="clip": coordinates past the table's edges clip
        (
            f["missing_base"] + f["missing_turret"],
            max_new,
            f["towers"] > 0,
            f["trunks"],
            f["windows"],
            f["lighted"],
            f["free"],
        ),
        COLOUR_SIZES.shape,
        mode="clip",
    )
    return np.where(feasible, _COLOUR_SIZES_FLAT[index], 0).astype(np.uint8)


_COLOUR_SIZES_FLAT = COLOUR_SIZES.ravel()


def total_sizes(per_colour: np.ndarray) -> np.ndarray:
    """The sumset over the last (colour) axis of uint8 size bitmasks."""
    total = np.ones(per_colour.shape[:-1], np.uint8)
    for c in range(per_colour.shape[-1]):
        total = sumset(total, per_colour[..., c])
    return total


def _others(per_colour: np.ndarray) -> np.ndarray:
    """[..., C] bitmask: the sumset of all colours but c."""
    ones = np.ones(per_colour.shape[:-1], np.uint8)
    prefix, suffix = [ones], [ones]
    for c in range(N_TILE_COLOURS - 1):
        prefix.append(sumset(prefix[-1], per_colour[..., c]))
        suffix.append(sumset(suffix[-1], per_colour[..., N_TILE_COLOURS - 1 - c]))
    last = N_TILE_COLOURS - 1
    return np.stack([sumset(prefix[c], suffix[last - c]) for c in range(N_TILE_COLOURS)], -1)


def player_works(
    state: CoreState, rows: np.ndarray, seat: np.ndarray | None = None
) -> tuple[np.ndarray, ...]:
    """The building materials of `seat` (default: the player to move) in games `rows`."""
    seat = state.seat[rows] if seat is None else seat
    fields = (state.tower_parts, state.tower_lit, state.n_towers, state.supply)
    return tuple(of_seat(f, rows, seat) for f in (*fields, state.lighted_supply))


def build_sizes(state: CoreState, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """uint8[len(rows)] bitmask of the build sizes `seat` can make in games `rows`."""
    return total_sizes(colour_sizes(colour_features(*player_works(state, rows, seat))))


def mask_build(state: CoreState, rows: np.ndarray) -> Masks:
    """Build tiles: the tile is in the supply, fits its tower (R4.2.2, R7.2) and the build
    can still be finished with exactly the tiles left afterwards (R4.2.6)."""
    n = len(rows)
    parts, lit, n_towers, supply, lighted = player_works(state, rows)
    f = colour_features(parts, lit, n_towers, supply, lighted)
    others = _others(colour_sizes(f))  # [n, C]
    # the features after each kind of placement, [9, C, n]: the game axis last keeps numpy's
    # inner loops long
    after = {k: f[k].T + DELTAS[:, i, None, None] for i, k in enumerate(FEATURES)}
    need = state.build_left[rows].astype(np.int64) - 1  # tiles left after this one
    finishes = (sumset(others.T, colour_sizes(after)) >> need) & 1 == 1
    finishes = finishes.transpose(2, 0, 1)  # [n, 9, C]

    is_old = np.take(_EXISTS, n_towers, axis=0)  # [n, C, 4]
    is_new = np.take(_IS_NEW, n_towers, axis=0)
    has_part = any_gold(parts)  # [n, C, 4, part]
    tiles = np.zeros((n, N_PARTS, N_TILE_COLOURS, 2, MAX_TOWERS_PER_COLOUR), bool)
    for part in range(N_PARTS):
        unique_ok = ~has_part[..., part] if part in (PART.BASE, PART.TURRET) else True
        old_ok = is_old & unique_ok & finishes[:, part, :, None]
        new_ok = is_new & finishes[:, N_PARTS + part, :, None]
        have = supply[:, part] > 0  # [n, C, gold]
        tiles[:, part] = have[..., None] & (old_ok | new_ok)[:, :, None, :]

    free_kind = parts[..., PART.WINDOW, :] - lit  # [n, C, 4, gold]
    lights = (lighted > 0)[..., None, None] & is_old[..., None] & (free_kind > 0)
    lights &= finishes[:, 2 * N_PARTS, :, None, None]
    return {GROUP.BUILD_TILE: tiles.reshape(n, -1), GROUP.BUILD_LIGHTED: lights.reshape(n, -1)}


# ------------------------------------------------------------------------------ placements


def space_taken(state: CoreState, rows: np.ndarray, target: np.ndarray) -> np.ndarray:
    """int[n]: the space a placement on `target` takes (the first vacant candidate)."""
    vacant = state.space_seat[rows] < 0
    return np.argmax(vacant & TARGET_SPACES[target], axis=1)


def _target_ok(
    state: CoreState, rows: np.ndarray, seat: np.ndarray, money: np.ndarray
) -> np.ndarray:
    """bool[n, target]: a vacant space exists and its move can be carried out (R3.5)."""
    vacant = (state.space_seat[rows] < 0) @ SPACE_BITS  # uint64[n]
    ok = (vacant[:, None] & TARGET_BITS) != 0
    ok &= money >= min_money(state.config.pro, state.config.has_genie)
    ok[:, MARKETS] &= _markets_ok(state, rows, money)
    costs = BUILD_COSTS[(vacant >> FIRST_PLOT) & (1 << N_PLOTS) - 1]  # [n, build n - 1]
    ok[:, BUILDS] &= _buildable(state, rows, seat) & (costs <= money)
    ok[:, LIGHTS] &= state.lighted_len[rows, None] > 0
    return ok


def _markets_ok(state: CoreState, rows: np.ndarray, money: np.ndarray) -> np.ndarray:
    """bool[n, part]: the market's display shows a tile `money` (int[n, 1]) can pay for."""
    shown = any_gold(state.displays[rows]) @ COLOUR_BITS  # uint8[n, part] colours shown
    return (shown & np.take(AFFORDABLE, money, mode="clip")) != 0


def _buildable(state: CoreState, rows: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """bool[n, build target]: `seat` can build exactly that many tiles (cached sizes)."""
    return np.take(BUILDABLE, of_seat(state.build_sizes, rows, seat), axis=0)


def mask_place(state: CoreState, rows: np.ndarray) -> Masks:
    """Placements: the options (as bits) the hand holds and the colour rule allows, on
    targets whose move can be carried out."""
    n = len(rows)
    seat = state.seat[rows]
    money = of_seat(state.money, rows, seat)[:, None]
    hand = of_seat(state.hands, rows, seat)  # [n, card colour]
    holds = HOLDS_BITS[np.minimum(hand, 2) @ BASE3]  # [n] options the hand holds
    follows = FOLLOWS_BITS[state.area_colour[rows]][:, TARGET_AREA]  # [n, target]
    bits = np.where(_target_ok(state, rows, seat, money), follows & holds[:, None], 0)
    octets = np.ascontiguousarray(bits, dtype="<u4").view(np.uint8).reshape(n, N_TARGETS, 4)
    place = np.unpackbits(octets, axis=2, count=N_OPTIONS, bitorder="little")
    return {GROUP.PLACE: place.reshape(n, -1), GROUP.PLACE_COLOURED: hand >= 1}


# ------------------------------------------------------------------------------ other decisions
def mask_buy(state: CoreState, rows: np.ndarray) -> Masks:
    out = {}
    money = _seat_rows(state, rows, state.money)[:, None, None, None]
    part_ok = (np.arange(N_PARTS)[None, :] == state.market[rows][:, None])[:, :, None, None]
    ok = part_ok & (state.displays[rows] > 0) & (PRICES[None, None, :, None] <= money)
    out[GROUP.BUY] = ok.reshape(len(rows), -1)
    return out


def mask_bribe_stack(state: CoreState, rows: np.ndarray) -> Masks:
    out = {}
    out[GROUP.BRIBE_STACK] = np.ones((len(rows), N_PARTS), bool)
    return out


def mask_bribe_take(state: CoreState, rows: np.ndarray) -> Masks:
    out = {}
    money = _seat_rows(state, rows, state.money)[:, None, None, None]
    part_ok = (np.arange(N_PARTS)[None, :] == state.bribe_stack[rows][:, None])[:, :, None, None]
    ok = part_ok & (state.stacks[rows] > 0) & (PRICES[None, None, :, None] <= money)
    out[GROUP.BRIBE_TAKE] = ok.reshape(len(rows), -1)
    out[GROUP.BRIBE_NOTHING] = np.ones((len(rows), 1), bool)
    return out


def mask_lights_option(state: CoreState, rows: np.ndarray) -> Masks:
    out = {}
    money = _seat_rows(state, rows, state.money)[:, None]
    out[GROUP.LIGHTS_OPTION] = LIGHTS_COST[None, :] <= money
    return out


def mask_lights_keep(state: CoreState, rows: np.ndarray) -> Masks:
    out = {}
    drawn = state.lights_drawn[rows]
    out[GROUP.LIGHTS_KEEP] = (drawn[:, :, None] == np.arange(N_TILE_COLOURS)).any(axis=1)
    return out


# ------------------------------------------------------------------------------ expansions (R9)


def mask_genie(state: CoreState, rows: np.ndarray) -> Masks:
    """R9.1: any space's move but the Caliph's, vacant or not, paying its own cost."""
    seat = state.seat[rows]
    money = of_seat(state.money, rows, seat)[:, None]
    ok = money >= GENIE_NEED
    ok[:, GENIE_MARKETS] &= _markets_ok(state, rows, money)
    ok[:, GENIE_BUILDS] &= _buildable(state, rows, seat)
    ok[:, GENIE_LIGHTS] &= state.lighted_len[rows, None] > 0
    return {GROUP.GENIE_MOVE: ok}


def mask_gift_card(state: CoreState, rows: np.ndarray) -> Masks:
    return {GROUP.GIFT_CARD: state.draw_pile[rows] > 0}


# _move_possible knows the moves of markets, plots and the lighted windows only
assert all(a in (*MARKET_AREAS, Area.BUILDING, Area.LIGHTS) for a, _ in CHEST_SPACES)


def _move_possible(
    state: CoreState, rows: np.ndarray, left: np.ndarray, shown: np.ndarray
) -> np.ndarray:
    """bool[n, K]: whether the move waiting behind the gifts (R9.2 with R3.5) can be
    carried out with `left` Asari [n, K]; `shown` [n, K, colour]: the tile colours its
    market's display would still show (used where the move is a market's)."""
    target = state.pending_target[rows].astype(np.int64)
    lights = TARGET_AREA[target] == Area.LIGHTS  # else plot 4: its value
    need = np.where(lights, LIGHTS_COST.min(), SPACE_VALUE[state.pending_space[rows]])
    market_ok = (shown & (left[..., None] >= PRICES)).any(axis=-1)
    return np.where((TARGET_PART[target] >= 0)[:, None], market_ok, left >= need[:, None])


def _pending_display(state: CoreState, rows: np.ndarray) -> np.ndarray:
    """int[n, colour]: tiles by colour in the display of the waiting move's market (part 0
    where the move is not a market's)."""
    part = np.maximum(TARGET_PART[state.pending_target[rows].astype(np.int64)], 0)
    return state.displays[rows, part].sum(axis=-1)


def mask_gift_buy(state: CoreState, rows: np.ndarray) -> Masks:
    """R9.2: a tile of the gift's part the player can pay and still make their move."""
    n, part = len(rows), state.market[rows].astype(np.int64)
    money = _seat_rows(state, rows, state.money)
    tiles = state.displays[rows, part] > 0  # [n, colour, gold]
    left = money[:, None] - PRICES  # [n, colour]
    pending = TARGET_PART[state.pending_target[rows].astype(np.int64)]
    same = (pending == part)[:, None, None] & np.eye(N_TILE_COLOURS, dtype=bool)  # [n, c, c']
    shown = (_pending_display(state, rows)[:, None, :] - same) > 0
    ok = tiles & ((left >= 0) & _move_possible(state, rows, left, shown))[..., None]
    out = np.zeros((n, N_PARTS, N_TILE_COLOURS, 2), bool)
    out[np.arange(n), part] = ok
    return {GROUP.BUY: out.reshape(n, -1)}


def mask_gift_lights(state: CoreState, rows: np.ndarray) -> Masks:
    """R9.2: a window of the stack, paid with LIGHTED_GIFT_COST, leaving the move possible
    (the lighted windows' own move needs a window left in the stack)."""
    money = _seat_rows(state, rows, state.money)
    present = (state.lighted_stack[rows][..., None] == np.arange(N_TILE_COLOURS)).any(axis=1)
    left = (money - LIGHTED_GIFT_COST)[:, None]
    shown = _pending_display(state, rows)[:, None, :] > 0
    ok = (left >= 0) & _move_possible(state, rows, left, shown)
    area = TARGET_AREA[state.pending_target[rows].astype(np.int64)]
    ok &= ((area != Area.LIGHTS) | (state.lighted_len[rows] > 1))[:, None]
    return {GROUP.LIGHTS_KEEP: present & ok}


# a phase's mask: (state, rows) -> {group: bool[n, group size]}
MaskFn = Callable[[CoreState, np.ndarray], Masks]
PHASE_MASKS: dict[Phase, MaskFn] = {
    Phase.PLACE: mask_place,
    Phase.BUY: mask_buy,
    Phase.BRIBE_STACK: mask_bribe_stack,
    Phase.BRIBE_TAKE: mask_bribe_take,
    Phase.LIGHTS_OPTION: mask_lights_option,
    Phase.LIGHTS_KEEP: mask_lights_keep,
    Phase.BUILD: mask_build,
    Phase.GENIE: mask_genie,
    Phase.GIFT_CARD: mask_gift_card,
    Phase.GIFT_BUY: mask_gift_buy,
    Phase.GIFT_LIGHTS: mask_gift_lights,
}
_FILL: tuple[MaskFn | None, ...] = tuple(PHASE_MASKS.get(p) for p in Phase)
GIFT_MASKS: dict[int, MaskFn] = {
    p: PHASE_MASKS[p] for p in (Phase.GIFT_CARD, Phase.GIFT_BUY, Phase.GIFT_LIGHTS)
}  # [phase] mask function, None: no decision


def write_mask(state: CoreState, rows: np.ndarray, previous: np.ndarray | None = None) -> None:
    """Recompute `state.legal` for games `rows`; `previous` (their phases when the mask was
    last written) limits the clearing to the blocks that can be set: the new phase's blocks
    are overwritten anyway, so games still in the same phase clear nothing."""
    phase = state.phase[rows]
    if previous is None:
        state.legal[rows] = False
    else:
        changed = previous != phase
        if changed.any():
            cleared = rows[changed]
            for value, pick in by_value(previous[changed], len(Phase)):
                for blk in PHASE_BLOCKS[value]:
                    state.legal[cleared[pick], blk] = False
    for value, pick in by_value(phase, len(Phase)):
        fill = _FILL[value]
        if fill is not None:
            games = rows[pick]
            for group, allowed in fill(state, games).items():
                state.legal[games, BLOCKS[group]] = allowed


def legal_action_mask(state: CoreState) -> NDArray[np.bool_]:
    """bool[B, NUM_ACTIONS]: the legal actions of the player to move in each game (all
    False in a finished game). The state's own array: read it, do not change it."""
    return state.legal
