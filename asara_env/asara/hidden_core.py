"""Determinisations on the core's arrays (numba): `asara_env.asara.hidden.determinise`
without the reference engine.

`determinise_games(roots, games, viewers, rng)` returns one world per entry of `games`:
game games[i] of the core batch `roots`, with everything viewers[i] cannot know redealt
from the pool of those items (the others' hands, the draw pile, the others' face-down
buyers and coloured-building cards; the others' unbuilt lighted windows, the stack
positions the viewer did not put back and a draw that is not its own) and a fresh tape of
chance. The items are dealt as `hidden.determinise` deals them, from a uniformly shuffled
pool into slots of the same sizes, so a world has the same distribution; the generator's
stream is another one. Every world takes the same count of doubles from `rng`
(`N_UNIFORMS` for the deal, `TAPE_LENGTH` for the tape), and the pools and slot sizes are
what the viewer knows, so two games the viewer cannot tell apart give the same worlds.
"""

from __future__ import annotations

import numba
import numpy as np
from numpy.typing import NDArray

from asara_env.asara.constants import N_CARD_COLOURS, N_CARDS, N_LIGHTED, N_TILE_COLOURS
from asara_env.asara.core.kernels.arrays import Arrays, arrays, rules_of
from asara_env.asara.core.kernels.mask import N_FEATURES, N_SCRATCH, build_sizes, write_masks
from asara_env.asara.core.state import ARRAY_FIELDS, TAPE_LENGTH, CoreState
from asara_env.asara.phases import Phase
from asara_env.common.kernel_cache import use_source_digest_cache
from asara_env.common.kernels import COUNTED, ENTRY, INLINED

use_source_digest_cache()  # before the first kernel: the cache follows every source it reads

# the doubles of one world's deal: the cards, the windows, and the order of a stack the
# viewer looked through (R9.2)
WINDOWS_U = N_CARDS  # the first double of the windows' deal
STACK_U = WINDOWS_U + N_LIGHTED
N_UNIFORMS = STACK_U + N_LIGHTED
N_POOL = max(N_CARD_COLOURS, N_TILE_COLOURS)  # a pool's colours
N_ITEMS = max(N_CARDS, N_LIGHTED)  # the most items a pool spreads into
GIFT_CARD, LIGHTS_KEEP = int(Phase.GIFT_CARD), int(Phase.LIGHTS_KEEP)
GIFT_LIGHTS = int(Phase.GIFT_LIGHTS)


def determinise_games(
    roots: CoreState,
    games: NDArray[np.int64],
    viewers: NDArray[np.int64],
    rng: np.random.Generator,
) -> CoreState:
    """One world per entry of `games` (see the module docstring): game games[i] of
    `roots` as viewers[i] may imagine it, its hidden items and its chance from `rng`."""
    worlds = _copies(roots, np.asarray(games, np.int64))
    n = len(worlds.phase)
    u = rng.random((n, N_UNIFORMS))
    rng.random(out=worlds.tape)  # TAPE_LENGTH doubles a world, row by row
    worlds.tape_pos[:] = 0
    worlds.seed[:] = 0
    viewers = np.ascontiguousarray(viewers, np.int64)
    state = arrays(worlds)
    redeal(state, viewers, u)
    write_masks(state, rules_of(worlds.config), np.arange(n), np.empty(N_SCRATCH, np.int64))
    return worlds


def _copies(roots: CoreState, games: NDArray[np.int64]) -> CoreState:
    """Game games[i] of `roots` for each i, copied (as `take`), the chance tape left
    unfilled: the determinisation draws it."""
    fields = {f: getattr(roots, f)[games] for f in ARRAY_FIELDS if f != "tape"}
    return CoreState(config=roots.config, tape=np.empty((len(games), TAPE_LENGTH)), **fields)


@numba.njit(**COUNTED)
def shuffle(items: NDArray[np.int64], n: int, u: NDArray[np.float64]) -> None:
    """Fisher-Yates on items[:n] with the doubles u[1:n]."""
    for i in range(n - 1, 0, -1):
        j = int(u[i] * (i + 1))
        items[i], items[j] = items[j], items[i]


@numba.njit(**COUNTED)
def spread(pool: NDArray[np.int64], items: NDArray[np.int64]) -> int:
    """items[:n]: a colour-count pool as its n items, colour by colour; returns n."""
    n = 0
    for c in range(len(pool)):
        for _ in range(pool[c]):
            items[n] = c
            n += 1
    return n


@numba.njit(**COUNTED)
def redeal(state: tuple[np.ndarray, ...], viewers: np.ndarray, u: np.ndarray) -> None:
    """Redeal, in place, every world's cards and windows its viewer cannot know, and
    recompute every seat's build sizes (their lighted windows may have changed); `state`:
    the `Arrays` as a plain tuple; u: float64[B, N_UNIFORMS]."""
    s = Arrays(*state)
    features = np.empty(N_FEATURES, np.int64)
    pool, items = np.empty(N_POOL, np.int64), np.empty(N_ITEMS, np.int64)
    phase, seat = s.phase, s.seat
    lighted_supply, lighted_stack, lighted_owner = (
        s.lighted_supply,
        s.lighted_stack,
        s.lighted_owner,
    )
    lighted_len, lights_drawn = s.lighted_len, s.lights_drawn
    for b in range(len(viewers)):
        v = viewers[b]
        pile_seen = phase[b] == GIFT_CARD and seat[b] == v  # R9.2: it looks through the pile
        redeal_cards(s, b, v, pile_seen, u[b, :WINDOWS_U], pool, items)
        drawn_hidden = phase[b] == LIGHTS_KEEP and seat[b] != v
        looked = phase[b] == GIFT_LIGHTS and seat[b] == v  # R9.2: it knows the stack's windows
        redeal_windows(
            b, v, drawn_hidden, looked, u[b, WINDOWS_U:STACK_U], u[b, STACK_U:], lighted_supply,
            lighted_stack, lighted_owner, lighted_len, lights_drawn, pool, items,
        )  # fmt: skip
        for p in range(s.hands.shape[1]):
            s.build_sizes[b, p] = build_sizes(s, b, p, features)


@numba.njit(**INLINED)
def hidden_buyer(s: Arrays, b: int, j: int, v: int) -> bool:
    """Whether space j holds another seat's face-down cards."""
    return s.space_seat[b, j] >= 0 and s.space_seat[b, j] != v and not s.space_face_up[b, j]


@numba.njit(**ENTRY)  # not inlined into `redeal`, which would count every array it reads
def redeal_cards(
    s: Arrays,
    b: int,
    v: int,
    pile_seen: bool,
    u: np.ndarray,
    pool: np.ndarray,
    items: np.ndarray,
) -> None:
    """The others' hands, face-down buyers and coloured cards, and the draw pile (unless
    the viewer looks through it), redealt from their pool. pool, items: scratch
    (N_POOL, N_ITEMS)."""
    card_pool(s, b, v, pile_seen, pool)
    n = spread(pool[:N_CARD_COLOURS], items)
    shuffle(items, n, u)
    at = 0
    for p in range(s.hands.shape[1]):
        if p != v:
            at = deal_counts(s.hands[b, p], items, at)
            at = deal_counts(s.coloured[b, p], items, at)
    for j in range(s.space_seat.shape[1]):
        if hidden_buyer(s, b, j, v):
            at = deal_buyer(s.space_cards, b, j, items, at)
    if not pile_seen:
        at = deal_counts(s.draw_pile[b], items, at)


@numba.njit(**INLINED)
def card_pool(s: Arrays, b: int, v: int, pile_seen: bool, pool: np.ndarray) -> None:
    """pool[colour]: the cards the viewer v cannot place, colour by colour."""
    pool[:] = 0
    for p in range(s.hands.shape[1]):
        if p != v:
            for c in range(N_CARD_COLOURS):
                pool[c] += s.hands[b, p, c] + s.coloured[b, p, c]
    if not pile_seen:
        for c in range(N_CARD_COLOURS):
            pool[c] += s.draw_pile[b, c]
    for j in range(s.space_seat.shape[1]):
        if hidden_buyer(s, b, j, v):
            for k in range(s.space_cards.shape[2]):
                if s.space_cards[b, j, k] >= 0:
                    pool[s.space_cards[b, j, k]] += 1


@numba.njit(**COUNTED)
def deal_buyer(space_cards: np.ndarray, b: int, j: int, items: np.ndarray, at: int) -> int:
    """A face-down buyer's cards (first on its space, -1 past them) dealt from items[at:]
    and sorted; the next position."""
    held = 0
    for k in range(space_cards.shape[2]):
        if space_cards[b, j, k] >= 0:
            space_cards[b, j, k] = items[at]
            at += 1
            held += 1
    for k in range(1, held):  # insertion sort of the held cards
        x, i = space_cards[b, j, k], k
        while i > 0 and space_cards[b, j, i - 1] > x:
            space_cards[b, j, i] = space_cards[b, j, i - 1]
            i -= 1
        space_cards[b, j, i] = x
    return at


@numba.njit(**COUNTED)
def deal_counts(counts: np.ndarray, items: np.ndarray, at: int) -> int:
    """Refill a colour-count slot of the same size from items[at:]; the next position."""
    n = counts.sum()
    counts[:] = 0
    for i in range(at, at + n):
        counts[items[i]] += 1
    return at + n


@numba.njit(**COUNTED)
def redeal_windows(
    b: int,
    v: int,
    drawn_hidden: bool,
    looked: bool,
    u: np.ndarray,
    u_stack: np.ndarray,
    lighted_supply: np.ndarray,
    lighted_stack: np.ndarray,
    lighted_owner: np.ndarray,
    lighted_len: np.ndarray,
    lights_drawn: np.ndarray,
    pool: np.ndarray,
    items: np.ndarray,
) -> None:
    """The others' unbuilt lighted windows, the stack positions the viewer did not put
    back and a draw that is not its own, redealt from their pool; a stack the viewer
    looked through keeps its windows in another order. pool, items: scratch (N_POOL,
    N_ITEMS)."""
    size, players, drawn = lighted_len[b], lighted_supply.shape[1], lights_drawn.shape[1]
    if looked:
        reorder(lighted_stack[b, :size], lighted_owner[b, :size] != v, u_stack)
    window_pool(b, v, drawn_hidden, looked, lighted_supply, lighted_stack, lighted_owner,
                size, lights_drawn, pool)  # fmt: skip
    n = spread(pool[:N_TILE_COLOURS], items)
    shuffle(items, n, u)
    at = 0
    for s in range(players):
        if s != v:
            at = deal_counts(lighted_supply[b, s], items, at)
    for k in range(size):
        if not looked and lighted_owner[b, k] != v:
            lighted_stack[b, k] = items[at]
            at += 1
    for k in range(drawn):
        if drawn_hidden and lights_drawn[b, k] >= 0:
            lights_drawn[b, k] = items[at]
            at += 1


@numba.njit(**COUNTED)
def window_pool(
    b: int,
    v: int,
    drawn_hidden: bool,
    looked: bool,
    lighted_supply: np.ndarray,
    lighted_stack: np.ndarray,
    lighted_owner: np.ndarray,
    size: int,
    lights_drawn: np.ndarray,
    pool: np.ndarray,
) -> None:
    """pool[colour]: the lighted windows the viewer v cannot place, colour by colour (a
    stack it looked through is known)."""
    pool[:] = 0
    for s in range(lighted_supply.shape[1]):
        if s != v:
            for c in range(N_TILE_COLOURS):
                pool[c] += lighted_supply[b, s, c]
    for k in range(size):
        if not looked and lighted_owner[b, k] != v:
            pool[lighted_stack[b, k]] += 1
    for k in range(lights_drawn.shape[1]):
        if drawn_hidden and lights_drawn[b, k] >= 0:
            pool[lights_drawn[b, k]] += 1


@numba.njit(**COUNTED)
def reorder(stack: np.ndarray, positions: np.ndarray, u: np.ndarray) -> None:
    """The windows at `positions` of a stack, shuffled among those positions."""
    items = np.empty(len(positions), np.int64)
    n = 0
    for k in range(len(positions)):
        if positions[k]:
            items[n] = stack[k]
            n += 1
    items[:n].sort()  # the order the viewer does not know must not matter
    shuffle(items, n, u)
    n = 0
    for k in range(len(positions)):
        if positions[k]:
            stack[k] = items[n]
            n += 1
