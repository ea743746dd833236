"""The heuristic agents' choice compiled (numba), for the search's playouts.

`choose(plan, observations, masks, u)` returns, for games without expansions (basic and
professional: no Bottle Genie, no gifts), exactly the action `HeuristicAgent.choose` would
with the same `plan` and uniforms `u`: every score is computed in the same dtype and the
same order of operations as agents/asara/heuristic.py (numpy's float32 where the numpy
agent mixes an observation's float32 with a Python float, float64 elsewhere), and the best
is picked as `agents.base.pick_best` does. A row's scores are computed only for the action
groups legal in that row (the numpy agent scores a group where any row of the batch has
one legal; a row's choice does not depend on its batch). `choose_games(plan, state, games,
masks, u)` does the same for games of a core batch, reading the few entries of each
observation the scores use from the state's arrays (the search's playouts call it).
`supports(config)` says where it applies; the search falls back to the numpy agent
elsewhere.
"""

from __future__ import annotations

from functools import cache

import numba
import numpy as np
from numpy.typing import NDArray

from agents.base import LOWEST
from asara_env.asara.actions import GROUPS, OFFSETS, Group
from asara_env.asara.config import GameConfig
from asara_env.asara.constants import (
    LIGHTS_OPTIONS,
    MAX_PLAYERS,
    N_BUILD_MAX,
    N_CARD_COLOURS,
    N_GOLD,
    N_PARTS,
    N_TILE_COLOURS,
    N_YEARS,
    PRICE,
    SPACE_VALUES,
    Area,
    Part,
)
from asara_env.asara.core.kernels.arrays import Arrays, arrays
from asara_env.asara.core.observation import OBS_INDEX
from asara_env.asara.core.state import CoreState
from asara_env.asara.core.tables import OPTION_CARDS, OPTION_FACE_UP, TARGET_AREA, TARGET_BUILD_N
from asara_env.common.kernel_cache import use_source_digest_cache
from asara_env.common.kernels import COUNTED, INLINED

from .features import PLOT_SPACES, SHAPES, TOWER_EXISTS, TOWER_LIT_GOLD, TOWER_LIT_PLAIN
from .heuristic import Plan

use_source_digest_cache()  # before the first kernel: the cache follows every source it reads

C, K, G = N_TILE_COLOURS, N_CARD_COLOURS, N_GOLD
N_SLOTS = SHAPES["towers"][2]  # towers started per colour
TOWER_ROW = SHAPES["towers"][3]
SPACE_ROW = SHAPES["spaces"][1]
N_SPACES_SEEN = SHAPES["spaces"][0]
BASE, TRUNK, WINDOW, TURRET = (int(p) for p in Part)
N_TARGETS = len(TARGET_AREA)
N_OPTIONS = len(OPTION_CARDS)
YEAR_LAST = N_YEARS  # the last year: Asari count less (heuristic.asari_value)

# the first entry of each observation slice read here
O_YEAR, O_MONEY, O_HAND = OBS_INDEX["year"].start, OBS_INDEX["money"].start, OBS_INDEX["hand"].start
O_DRAW, O_CALIPH = OBS_INDEX["draw_pile_size"].start, OBS_INDEX["caliph"].start
O_STACKS, O_DISPLAYS = OBS_INDEX["stacks"].start, OBS_INDEX["displays"].start
O_SUPPLY, O_TOWERS = OBS_INDEX["supply"].start, OBS_INDEX["towers"].start
O_SPACES = OBS_INDEX["spaces"].start
TILE_STRIDE = N_PARTS * C * G  # [part, colour, gold] block

# the action groups' first ids
A_PLACE, A_COLOURED = OFFSETS[Group.PLACE], OFFSETS[Group.PLACE_COLOURED]
A_BUY, A_STACK = OFFSETS[Group.BUY], OFFSETS[Group.BRIBE_STACK]
A_TAKE, A_NOTHING = OFFSETS[Group.BRIBE_TAKE], OFFSETS[Group.BRIBE_NOTHING]
A_LIGHTS, A_KEEP = OFFSETS[Group.LIGHTS_OPTION], OFFSETS[Group.LIGHTS_KEEP]
A_BUILD, A_LIGHTED = OFFSETS[Group.BUILD_TILE], OFFSETS[Group.BUILD_LIGHTED]
A_END = OFFSETS[Group.BUILD_LIGHTED] + GROUPS[Group.BUILD_LIGHTED].size

PRICES = np.array(PRICE, np.float64)
BANK = np.array(SPACE_VALUES[Area.BANK], np.float64)
SPIES = np.array(SPACE_VALUES[Area.SPIES], np.float64)
TENT = np.array(SPACE_VALUES[Area.TENT], np.float64)
LIGHTS_COST = np.array([cost for cost, _, _ in LIGHTS_OPTIONS], np.int64)
LIGHTS_KEPT = np.array([kept for _, _, kept in LIGHTS_OPTIONS], np.int64)
TARGET_AREAS = np.asarray(TARGET_AREA, np.int64)
TARGET_N = np.asarray(TARGET_BUILD_N, np.int64)
OPTION_COLOUR = np.maximum(np.asarray(OPTION_CARDS)[:, 0], 0).astype(np.int64)
OPTION_UP = np.asarray(OPTION_FACE_UP, np.bool_)
PLOTS = np.asarray(PLOT_SPACES, np.int64)
MARKET_LAST, BUILDING, BANK_AREA = int(Area.MARKET_TURRET), int(Area.BUILDING), int(Area.BANK)
SPIES_AREA, CALIPH_AREA, TENT_AREA = int(Area.SPIES), int(Area.CALIPH), int(Area.TENT)
LIGHTS_AREA = int(Area.LIGHTS)
NO_PLOT = 99  # `Seen.plot_cost` of a build with no plot free
ROW_SIZE = O_SPACES + N_SPACES_SEEN * SPACE_ROW  # the observation's entries up to those read

# the plan's weights, packed into one float64 vector
W_ASARI, W_CARD, W_GOLD, W_PAIR, W_GROW, W_GLUT, W_BUILD = range(7)
W_NEW_TOWER, W_TALLEST, W_CALIPH, W_LIGHTED, W_THRIFT, W_COLOUR = range(7, 13)
W_PART = W_COLOUR + C
N_WEIGHTS = W_PART + N_PARTS


def supports(config: GameConfig) -> bool:
    """Whether the compiled choice covers `config`'s games (no expansions)."""
    return not config.has_genie and not config.has_gifts


@cache
def pack(plan: Plan) -> NDArray[np.float64]:
    """float64[N_WEIGHTS]: the plan's weights in the kernel's order (one array per plan,
    which the kernels only read)."""
    head = (plan.asari, plan.card, plan.gold, plan.pair, plan.grow, plan.glut, plan.build)
    mid = (plan.new_tower, plan.tallest, plan.caliph, plan.lighted, plan.thrift)
    return np.array([*head, *mid, *plan.colour, *plan.part], np.float64)


def choose(
    plan: Plan, observations: NDArray[np.float32], masks: NDArray[np.bool_], u: NDArray[np.float64]
) -> NDArray[np.int64]:
    """int64[B]: `HeuristicAgent.choose` with `plan` for games without expansions."""
    obs = np.ascontiguousarray(observations, np.float32)
    legal = np.ascontiguousarray(masks, np.bool_)
    out = np.empty(len(obs), np.int64)
    choose_rows(pack(plan), obs, legal, np.ascontiguousarray(u, np.float64), out)
    return out


# ------------------------------------------------------------------------------ the row's facts
@numba.njit(**COUNTED)
def asari_value(w: NDArray[np.float64], money: np.float32, year: int) -> np.float32:
    """`heuristic.asari_value` (float32, as numpy computes it from the observation)."""
    short = max(np.float32(0.0), np.float32(12.0) - money) / np.float32(12.0)
    value = np.float32(w[W_ASARI]) * (np.float32(1.0) + np.float32(w[W_THRIFT]) * short)
    if year == YEAR_LAST:
        return max(np.float32(0.1), np.float32(0.6) * value)
    return value


@numba.njit(**COUNTED)
def tile_values(
    w: NDArray[np.float64], row: NDArray[np.float32], year: int, n_towers: NDArray[np.int64]
) -> NDArray[np.float64]:
    """float64[part, colour, gold]: `heuristic.tile_values` of one row."""
    value = np.empty((N_PARTS, C, G))
    scale = 0.6 if year == YEAR_LAST else 1.0
    for c in range(C):
        bases = row[O_SUPPLY + (BASE * C + c) * G] + row[O_SUPPLY + (BASE * C + c) * G + 1]
        turrets = row[O_SUPPLY + (TURRET * C + c) * G] + row[O_SUPPLY + (TURRET * C + c) * G + 1]
        can_grow = n_towers[c] > 0 or min(bases, turrets) > 0
        for p in range(N_PARTS):
            held = row[O_SUPPLY + (p * C + c) * G] + row[O_SUPPLY + (p * C + c) * G + 1]
            glut = np.float64(np.float32(w[W_GLUT]) * held)
            for g in range(G):
                v = w[W_PART + p] * w[W_COLOUR + c] + w[W_GOLD] * g
                if p == BASE:
                    v += w[W_PAIR] * (1.0 if turrets > bases else 0.0)
                elif p == TURRET:
                    v += w[W_PAIR] * (1.0 if bases > turrets else 0.0)
                else:
                    v += w[W_GROW] * (1.0 if can_grow else 0.0)
                value[p, c, g] = (v - glut) * scale
    return value


@numba.njit(**COUNTED)
def best_net(
    row: NDArray[np.float32],
    pile: int,
    part: int,
    values: NDArray[np.float64],
    a: np.float32,
    budget: float,
) -> float:
    """`heuristic.best_from` of one part: the best tile in the pile starting at `pile`, net
    of its price, among those `budget` affords (-inf if none)."""
    best = -np.inf
    for c in range(C):
        if PRICES[c] > budget:
            continue
        for g in range(G):
            if row[pile + (part * C + c) * G + g] > 0:
                best = max(best, values[part, c, g] - np.float64(a) * PRICES[c])
    return best


@numba.njit(**COUNTED)
def free_windows(row: NDArray[np.float32]) -> float:
    """`Seen.free_windows().sum()`: the viewer's windows without a lighted window, built or
    in supply."""
    free = 0.0
    for c in range(C):
        for k in range(N_SLOTS):
            base = O_TOWERS + (c * N_SLOTS + k) * TOWER_ROW
            windows = row[base + WINDOW * G] + row[base + WINDOW * G + 1]
            lit = row[base + TOWER_LIT_PLAIN] + row[base + TOWER_LIT_GOLD]
            free += max(windows - lit, np.float32(0.0))
        free += row[O_SUPPLY + (WINDOW * C + c) * G] + row[O_SUPPLY + (WINDOW * C + c) * G + 1]
    return free


@numba.njit(**COUNTED)
def free_windows_of(row: NDArray[np.float32], c: int) -> float:
    """`Seen.free_windows()[c]`."""
    free = 0.0
    for k in range(N_SLOTS):
        base = O_TOWERS + (c * N_SLOTS + k) * TOWER_ROW
        windows = row[base + WINDOW * G] + row[base + WINDOW * G + 1]
        lit = row[base + TOWER_LIT_PLAIN] + row[base + TOWER_LIT_GOLD]
        free += max(windows - lit, np.float32(0.0))
    return free + row[O_SUPPLY + (WINDOW * C + c) * G] + row[O_SUPPLY + (WINDOW * C + c) * G + 1]


@numba.njit(**COUNTED)
def tower_heights(row: NDArray[np.float32]) -> NDArray[np.float64]:
    """float64[colour, slot]: `Seen.tower_height` (small whole numbers)."""
    height = np.zeros((C, N_SLOTS))
    for c in range(C):
        for k in range(N_SLOTS):
            base = O_TOWERS + (c * N_SLOTS + k) * TOWER_ROW
            for i in range(N_PARTS * G):
                height[c, k] += row[base + i]
    return height


@numba.njit(**COUNTED)
def n_towers_of(row: NDArray[np.float32]) -> NDArray[np.int64]:
    """int64[colour]: `Seen.n_towers`."""
    n = np.zeros(C, np.int64)
    for c in range(C):
        for k in range(N_SLOTS):
            if row[O_TOWERS + (c * N_SLOTS + k) * TOWER_ROW + TOWER_EXISTS] > 0:
                n[c] += 1
    return n


# ------------------------------------------------------------------------------ the scores
@numba.njit(**COUNTED)
def target_values(
    w: NDArray[np.float64],
    row: NDArray[np.float32],
    values: NDArray[np.float64],
    a: np.float32,
    year: int,
) -> NDArray[np.float64]:
    """float64[target]: `heuristic.target_values` without expansions (genie targets 0)."""
    out = np.zeros(N_TARGETS)
    tile_targets(row, values, a, out)
    build_targets(w, row, a, YEAR_LAST - year + 1, out)
    draw = np.float64(min(np.float32(2.0), row[O_DRAW]) * np.float32(w[W_CARD]))
    lit = w[W_LIGHTED] * (1.0 if free_windows(row) > 0 else 0.0)
    lights = lit - np.float64(a * np.float32(LIGHTS_COST[0]))
    bank = tent = 0
    for t in range(N_TARGETS):
        area = TARGET_AREAS[t]
        if area == BANK_AREA:
            out[t] = np.float64(a) * BANK[bank]
            bank += 1
        elif area == CALIPH_AREA:
            out[t] = 0.2 * w[W_CALIPH] if row[O_CALIPH] > 0 else w[W_CALIPH]
        elif area == TENT_AREA:
            out[t] = draw - np.float64(a) * TENT[tent]
            tent += 1
        elif area == LIGHTS_AREA:
            out[t] = lights
    return out


@numba.njit(**COUNTED)
def tile_targets(
    row: NDArray[np.float32], values: NDArray[np.float64], a: np.float32, out: NDArray[np.float64]
) -> None:
    """out[market and spies targets]: the best tile of the display, or of any stack net of
    the spies' cost."""
    money = np.float64(row[O_MONEY])
    spy = 0
    for t in range(N_TARGETS):
        area = TARGET_AREAS[t]
        if area <= MARKET_LAST:
            out[t] = best_net(row, O_DISPLAYS, area, values, a, money)
        elif area == SPIES_AREA:
            best = -np.inf
            for p in range(N_PARTS):
                best = max(best, best_net(row, O_STACKS, p, values, a, money - SPIES[spy]))
            out[t] = best - np.float64(a) * SPIES[spy]
            spy += 1


@numba.njit(**COUNTED)
def build_targets(
    w: NDArray[np.float64],
    row: NDArray[np.float32],
    a: np.float32,
    years_left: int,
    out: NDArray[np.float64],
) -> None:
    """out[build targets]: `heuristic.build_values` paying the lowest free plot >= n."""
    pairs = np.float32(0.0)
    for c in range(C):
        b = row[O_SUPPLY + (BASE * C + c) * G] + row[O_SUPPLY + (BASE * C + c) * G + 1]
        t = row[O_SUPPLY + (TURRET * C + c) * G] + row[O_SUPPLY + (TURRET * C + c) * G + 1]
        pairs += min(b, t)
    for t in range(N_TARGETS):
        if TARGET_AREAS[t] != BUILDING:
            continue
        n = TARGET_N[t]
        cost = NO_PLOT
        for j in range(len(PLOTS) - 1, n - 2, -1):
            if not occupied(row, PLOTS[j]):
                cost = j + 1
        towers = min(np.float64(pairs), np.float64(n // 2))
        bonus = w[W_NEW_TOWER] * towers * years_left
        paid = np.float64(a) * min(cost, N_BUILD_MAX)
        out[t] = w[W_BUILD] * n + bonus - paid


@numba.njit(**COUNTED)
def occupied(row: NDArray[np.float32], space: int) -> bool:
    """Whether some seat is on `space` (`Seen.occupied`)."""
    total = np.float32(0.0)
    for i in range(MAX_PLAYERS):  # the one-hot seat on the space
        total += row[O_SPACES + space * SPACE_ROW + i]
    return total > 0


@numba.njit(**COUNTED)
def any_legal(mask: NDArray[np.bool_], start: int, stop: int) -> bool:
    """Whether any of mask[start:stop] is set."""
    return bool(mask[start:stop].any())


@numba.njit(**COUNTED)
def score_row(
    w: NDArray[np.float64],
    row: NDArray[np.float32],
    mask: NDArray[np.bool_],
    out: NDArray[np.float64],
) -> None:
    """out[A]: the scores of the row's legal groups (`HeuristicAgent.scores`)."""
    year = 1
    for y in range(YEAR_LAST):
        if row[O_YEAR + y] > row[O_YEAR + year - 1]:
            year = y + 1
    a = asari_value(w, row[O_MONEY], year)
    values = tile_values(w, row, year, n_towers_of(row))
    if any_legal(mask, A_PLACE, A_COLOURED):
        place_rows(w, row, target_values(w, row, values, a, year), out)
    if any_legal(mask, A_COLOURED, A_BUY):
        gain = np.float32(5.0) * a - np.float32(w[W_CARD])
        for k in range(K):
            out[A_COLOURED + k] = gain + np.float32(0.02) * row[O_HAND + k]
    tile_rows(row, mask, values, a, out)
    out[A_NOTHING] = 0.0
    if any_legal(mask, A_LIGHTS, A_BUILD) or any_legal(mask, A_LIGHTED, A_END):
        lights_rows(w, row, a, out)
    if any_legal(mask, A_BUILD, A_LIGHTED):
        build_rows(w, row, out)


@numba.njit(**COUNTED)
def place_rows(
    w: NDArray[np.float64],
    row: NDArray[np.float32],
    targets: NDArray[np.float64],
    out: NDArray[np.float64],
) -> None:
    """`heuristic.score_place`: each target's value less the cards of each option."""
    for o in range(N_OPTIONS):
        held = np.float32(0.02) * row[O_HAND + OPTION_COLOUR[o]]
        up = held * np.float32(1.0 if OPTION_UP[o] else 0.0)
        n_cards = 1.0 if OPTION_UP[o] else 2.0
        cost = w[W_CARD] * n_cards - np.float64(up)
        for t in range(N_TARGETS):
            out[A_PLACE + t * N_OPTIONS + o] = targets[t] - cost


@numba.njit(**COUNTED)
def tile_rows(
    row: NDArray[np.float32],
    mask: NDArray[np.bool_],
    values: NDArray[np.float64],
    a: np.float32,
    out: NDArray[np.float64],
) -> None:
    """The tiles bought or taken (net of price, -inf unaffordable) and the stacks searched."""
    money = np.float64(row[O_MONEY])
    for start in (A_BUY, A_TAKE):
        if not any_legal(mask, start, start + TILE_STRIDE):
            continue
        for p in range(N_PARTS):
            for c in range(C):
                for g in range(G):
                    net = values[p, c, g] - np.float64(a) * PRICES[c]
                    out[start + (p * C + c) * G + g] = net if PRICES[c] <= money else -np.inf
    if any_legal(mask, A_STACK, A_TAKE):
        for p in range(N_PARTS):
            out[A_STACK + p] = best_net(row, O_STACKS, p, values, a, money)


@numba.njit(**COUNTED)
def lights_rows(
    w: NDArray[np.float64], row: NDArray[np.float32], a: np.float32, out: NDArray[np.float64]
) -> None:
    """The lighted-window groups: options, the window kept, the window built."""
    free = np.float32(free_windows(row))
    for i in range(len(LIGHTS_COST)):
        kept = min(free, np.float32(LIGHTS_KEPT[i]))
        worth = np.float32(w[W_LIGHTED]) * kept - a * np.float32(LIGHTS_COST[i])
        out[A_LIGHTS + i] = worth
    for c in range(C):
        out[A_KEEP + c] = (1.0 if free_windows_of(row, c) > 0 else 0.0) + 0.1 * w[W_COLOUR + c]
    for i in range(A_END - A_LIGHTED):
        out[A_LIGHTED + i] = 1.0 - (i % 2)


@numba.njit(**COUNTED)
def build_rows(w: NDArray[np.float64], row: NDArray[np.float32], out: NDArray[np.float64]) -> None:
    """`heuristic.score_build_tile`: gold first, the plan's colours, the tallest towers."""
    height = tower_heights(row)
    for c in range(C):
        top = height[c].max()
        for p in range(N_PARTS):
            grows = 1.0 if p in (TRUNK, WINDOW) else 0.0
            for g in range(G):
                for k in range(N_SLOTS):
                    tallest = 1.0 if height[c, k] == top else 0.0
                    lift = w[W_TALLEST] * grows * tallest * height[c, k]
                    out[A_BUILD + ((p * C + c) * G + g) * N_SLOTS + k] = w[W_COLOUR + c] + g + lift


@numba.njit(**COUNTED)
def choose_rows(
    w: NDArray[np.float64],
    obs: NDArray[np.float32],
    masks: NDArray[np.bool_],
    u: NDArray[np.float64],
    out: NDArray[np.int64],
) -> None:
    """out[B]: each row's best legal action, ties broken as `agents.base.pick_best`."""
    scores = np.zeros(masks.shape[1])
    for b in range(len(obs)):
        score_row(w, obs[b], masks[b], scores)
        out[b] = pick_best(scores, masks[b], u[b])


@numba.njit(**COUNTED)
def pick_best(scores: NDArray[np.float64], mask: NDArray[np.bool_], u: float) -> int:
    """`agents.base.pick_best` of one row: the floor(u * n)-th of the n best legal
    actions (scores floored at LOWEST)."""
    best, count = -np.inf, 0
    for i in range(len(mask)):
        if mask[i]:
            s = max(scores[i], LOWEST)
            if s > best:
                best, count = s, 1
            elif s == best:
                count += 1
    k = np.int64(u * count)
    for i in range(len(mask)):
        if mask[i] and max(scores[i], LOWEST) == best:
            if k == 0:
                return i
            k -= 1
    return -1


# ------------------------------------------------------------------------------ from the state
def choose_games(
    plan: Plan,
    state: CoreState,
    games: NDArray[np.int64],
    masks: NDArray[np.bool_],
    u: NDArray[np.float64],
) -> NDArray[np.int64]:
    """int64[len(games)]: `choose` for the seat to move in each of `games` of a core
    batch, reading the state's arrays instead of its observations (the same entries the
    observation would hold)."""
    out = np.empty(len(games), np.int64)
    choose_state_rows(
        arrays(state), pack(plan), np.ascontiguousarray(games, np.int64),
        np.ascontiguousarray(masks, np.bool_), np.ascontiguousarray(u, np.float64), out,
    )  # fmt: skip
    return out


@numba.njit(**COUNTED)
def choose_state_rows(
    state: tuple[np.ndarray, ...],
    w: NDArray[np.float64],
    games: NDArray[np.int64],
    masks: NDArray[np.bool_],
    u: NDArray[np.float64],
    out: NDArray[np.int64],
) -> None:
    """out[i]: the best legal action of game games[i]'s seat to move (`choose_state_row`).
    `state`: the `Arrays` as a plain tuple."""
    s = Arrays(*state)
    row = np.zeros(ROW_SIZE, np.float32)
    scores = np.zeros(masks.shape[1])
    for i in range(len(games)):
        out[i] = choose_state_row(s, w, games[i], masks[i], u[i], row, scores)


@numba.njit(**INLINED)  # allocates in score_row: called by COUNTED functions only
def choose_state_row(
    s: Arrays,
    w: NDArray[np.float64],
    b: int,
    mask: NDArray[np.bool_],
    u: float,
    row: NDArray[np.float32],
    scores: NDArray[np.float64],
) -> int:
    """The best legal action (`mask`) of game b's seat to move, ties broken by `u`: the
    entries of its observation the scores read are written into `row` (float32[ROW_SIZE],
    reusable from game to game), the scores into `scores` (float64[A] of scratch)."""
    year, seat, caliph, money, hands = s.year, s.seat, s.caliph, s.money, s.hands
    draw_pile, stacks, displays, supply = s.draw_pile, s.stacks, s.displays, s.supply
    tower_parts, tower_lit, n_towers, space_seat = (
        s.tower_parts, s.tower_lit, s.n_towers, s.space_seat
    )  # fmt: skip
    v = seat[b]
    for y in range(N_YEARS):
        row[O_YEAR + y] = 1.0 if y == year[b] - 1 else 0.0
    row[O_MONEY] = money[b, v]
    row[O_CALIPH] = 1.0 if caliph[b] == v else 0.0
    row[O_DRAW] = draw_pile[b].sum()
    for k in range(K):
        row[O_HAND + k] = hands[b, v, k]
    for t in range(TILE_STRIDE):
        p, rest = t // (C * G), t % (C * G)
        row[O_STACKS + t] = stacks[b, p, rest // G, rest % G]
        row[O_DISPLAYS + t] = displays[b, p, rest // G, rest % G]
        row[O_SUPPLY + t] = supply[b, v, p, rest // G, rest % G]
    write_towers(row, b, v, tower_parts, tower_lit, n_towers)
    for j in range(N_SPACES_SEEN):
        row[O_SPACES + j * SPACE_ROW] = 1.0 if space_seat[b, j] >= 0 else 0.0
    score_row(w, row, mask, scores)
    return pick_best(scores, mask, u)


@numba.njit(**COUNTED)
def write_towers(
    row: NDArray[np.float32],
    b: int,
    v: int,
    tower_parts: np.ndarray,
    tower_lit: np.ndarray,
    n_towers: np.ndarray,
) -> None:
    """The viewer's towers as the observation's `towers` slice holds them."""
    for c in range(C):
        for k in range(N_SLOTS):
            at = O_TOWERS + (c * N_SLOTS + k) * TOWER_ROW
            for p in range(N_PARTS):
                for g in range(G):
                    row[at + p * G + g] = tower_parts[b, v, c, k, p, g]
            row[at + TOWER_LIT_PLAIN] = tower_lit[b, v, c, k, 0]
            row[at + TOWER_LIT_GOLD] = tower_lit[b, v, c, k, 1]
            row[at + TOWER_EXISTS] = 1.0 if k < n_towers[b, v, c] else 0.0
