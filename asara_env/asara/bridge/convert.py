"""Conversion between reference states and the core's batched `CoreState`.

`from_reference` stacks B reference games of one configuration (their chance included: each
game's tape holds the doubles its generator would yield next); `to_reference` gives one
game back as a reference `State` for lockstep comparisons via `state_to_dict`. The core's
caches (`build_sizes`, `legal`) are computed by the core itself, so a converted position
tests the core's rules, not the reference's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np
from numpy.typing import ArrayLike, NDArray

from asara_env.asara.actions import NUM_ACTIONS, TARGETS
from asara_env.asara.constants import (
    FINAL_CATEGORIES,
    GIFT_SLOTS,
    MAX_LIGHTS_DRAWN,
    MAX_TOWERS_PER_COLOUR,
    N_AREAS,
    N_CARD_COLOURS,
    N_LIGHTED,
    N_PARTS,
    N_TILE_COLOURS,
    SPACE_VALUES,
    Area,
)
from asara_env.asara.core.mask import build_sizes, write_mask
from asara_env.asara.core.state import FIELD_SPECS, N_SPACES, SPACES, TAPE_LENGTH, CoreState
from asara_env.asara.phases import Phase
from asara_env.asara.reference.state import Buyer, State, Tower

# field name -> dtype, for the fields built by stacking one array per game
_DTYPES = {name: spec.dtype for name, spec in FIELD_SPECS.items()}


# ------------------------------------------------------------------------------ to the core
def _padded(values: Sequence[int], length: int) -> NDArray[np.int64]:
    out = np.full(length, -1, np.int64)
    out[: len(values)] = values
    return out


def _tape(rng: np.random.Generator) -> np.ndarray:
    """The next TAPE_LENGTH doubles of `rng`, drawn from a copy (rng is left untouched)."""
    twin = np.random.Generator(type(rng.bit_generator)())
    twin.bit_generator.state = rng.bit_generator.state
    return twin.random(TAPE_LENGTH)


def _towers(state: State) -> dict[str, np.ndarray]:
    p = state.num_players
    parts = np.zeros((p, N_TILE_COLOURS, MAX_TOWERS_PER_COLOUR, N_PARTS, 2), np.int64)
    lit = np.zeros((p, N_TILE_COLOURS, MAX_TOWERS_PER_COLOUR, 2), np.int64)
    n = np.zeros((p, N_TILE_COLOURS), np.int64)
    for s, seat in enumerate(state.towers):
        for c, col in enumerate(seat):
            n[s, c] = len(col)
            for k, t in enumerate(col):
                parts[s, c, k] = t.parts
                lit[s, c, k] = t.lit_plain, t.lit_gold
    return {"tower_parts": parts, "tower_lit": lit, "n_towers": n}


def _spaces(state: State) -> dict[str, np.ndarray]:
    seat = np.full(N_SPACES, -1, np.int64)
    cards = np.full((N_SPACES, 2), -1, np.int64)
    face_up = np.zeros(N_SPACES, bool)
    for k, (area, i) in enumerate(SPACES):
        b = state.spaces[area][i]
        if b is not None:
            seat[k], cards[k], face_up[k] = b.seat, _padded(sorted(b.cards), 2), b.face_up
    return {"space_seat": seat, "space_cards": cards, "space_face_up": face_up}


def _coloured(state: State) -> np.ndarray:
    counts = np.zeros((state.num_players, N_CARD_COLOURS), np.int64)
    for b in state.coloured:
        for card in b.cards:
            counts[b.seat, card] += 1
    return counts


def _space_index(target: int, space: int) -> int:
    """The SPACES index of space `space` of a placement target's area; -1 for none."""
    return -1 if target < 0 else SPACES.index((int(TARGETS[target].area), space))


def _final(state: State) -> np.ndarray:
    final = np.zeros((state.num_players, len(FINAL_CATEGORIES)), np.int64)
    for s, points in enumerate(state.final or []):
        final[s] = [points[k] for k in FINAL_CATEGORIES]
    return final


def _fields(state: State) -> dict[str, Any]:
    """Every CoreState field of one game, without the batch axis."""
    stack = state.lighted_stack
    return {
        "year": state.year,
        "phase": int(state.phase),
        "seat": state.seat,
        "caliph": state.caliph,
        "decisions": state.decisions,
        "money": state.money,
        "prestige": state.prestige,
        "hands": state.hands,
        "draw_pile": state.draw_pile,
        "supply": state.supply,
        "lighted_supply": state.lighted_supply,
        **_towers(state),
        "build_sizes": np.zeros(state.num_players),  # the core computes its caches
        "stacks": state.stacks,
        "displays": state.displays,
        "lighted_stack": _padded([c for c, _ in stack], N_LIGHTED),
        "lighted_owner": _padded([s for _, s in stack], N_LIGHTED),
        "lighted_len": len(stack),
        "area_colour": state.area_colour,
        **_spaces(state),
        "coloured": _coloured(state),
        "market": state.market,
        "bribe_stack": state.bribe_stack,
        "lights_drawn": _padded(state.lights_drawn, MAX_LIGHTS_DRAWN),
        "lights_keep": state.lights_keep,
        "build_left": state.build_left,
        "gift_pile": state.gift_pile,
        "gifts": np.stack([_padded(chest, GIFT_SLOTS) for chest in state.gifts]),
        "gift_queue": _padded(state.gift_queue, GIFT_SLOTS),
        "gift_chest": state.gift_chest,
        "pending_target": state.pending_target,
        "pending_space": _space_index(state.pending_target, state.pending_space),
        "legal": np.zeros(NUM_ACTIONS, bool),
        "final": _final(state),
        "seed": 0,
        "tape": _tape(state.rng),
        "tape_pos": 0,
    }


def from_reference(states: list[State], seeds: ArrayLike | None = None) -> CoreState:
    """B reference games of one configuration as one CoreState (chance included); the
    caches (build sizes, masks) are computed by the core. A reference state does not know
    its seed: `seeds` (B ints, default 0) fills `seed`."""
    if not states:
        raise ValueError("from_reference needs at least one state")
    config = states[0].config
    if any(s.config != config for s in states):
        raise ValueError("all states of a batch must share one configuration")
    per_game = [_fields(s) for s in states]
    arrays: dict[str, np.ndarray] = {
        name: np.stack([np.asarray(g[name]) for g in per_game]).astype(dtype)
        for name, dtype in _DTYPES.items()
    }
    if seeds is not None:
        arrays["seed"] = np.broadcast_to(np.asarray(seeds, np.uint64), (len(states),)).copy()
    core = CoreState(config=config, **arrays)
    _compute_caches(core)
    return core


def _compute_caches(core: CoreState) -> None:
    """The core's own build sizes of every seat and legal masks, from the state's fields."""
    rows = np.arange(len(core.phase))
    for seat in range(core.config.num_players):
        core.build_sizes[:, seat] = build_sizes(core, rows, np.full(len(rows), seat))
    write_mask(core, rows)


# ------------------------------------------------------------------------------ back
def _ints(a: np.ndarray) -> list[Any]:
    return a.astype(np.int64).tolist()


def _towers_back(core: CoreState, i: int) -> list[list[list[Tower]]]:
    p = core.config.num_players
    return [
        [
            [
                Tower(
                    c,
                    core.tower_parts[i, s, c, k].astype(np.int64),
                    *_ints(core.tower_lit[i, s, c, k]),
                )
                for k in range(int(core.n_towers[i, s, c]))
            ]
            for c in range(N_TILE_COLOURS)
        ]
        for s in range(p)
    ]


def _spaces_back(core: CoreState, i: int) -> list[list[Buyer | None]]:
    spaces: list[list[Buyer | None]] = [[None] * len(SPACE_VALUES[Area(a)]) for a in range(N_AREAS)]
    for k, (area, j) in enumerate(SPACES):
        seat = int(core.space_seat[i, k])
        if seat >= 0:
            cards = tuple(c for c in _ints(core.space_cards[i, k]) if c >= 0)
            spaces[area][j] = Buyer(seat, cards, bool(core.space_face_up[i, k]))
    return spaces


def _coloured_back(core: CoreState, i: int) -> list[Buyer]:
    """The coloured building's cards, seat by seat and colour by colour (order is not kept)."""
    counts = core.coloured[i]
    return [
        Buyer(s, (b,), False)
        for s in range(counts.shape[0])
        for b in range(N_CARD_COLOURS)
        for _ in range(int(counts[s, b]))
    ]


def _space_back(space: int) -> int:
    """The index within its area of a SPACES index; -1 for none."""
    return -1 if space < 0 else SPACES[space][1]


def generator_at(origin: Mapping[str, Any], doubles_used: int) -> np.random.Generator:
    """The generator whose state was `origin` (a PCG64 `bit_generator.state`) after it has
    yielded `doubles_used` doubles: each double takes one 64-bit step."""
    bits = np.random.PCG64()
    bits.state = cast(Any, origin)  # a PCG64 state dict, as `bit_generator.state` gives
    bits.advance(int(doubles_used))
    return np.random.Generator(bits)


def _final_back(core: CoreState, i: int) -> list[dict[str, Any]] | None:
    if core.phase[i] != Phase.GAME_OVER:
        return None
    final = []
    for row in _ints(core.final[i]):
        points = dict(zip(FINAL_CATEGORIES, row))
        points["total"] = sum(row)
        final.append(points)
    return final


def to_reference(core: CoreState, i: int, rng: np.random.Generator | None = None) -> State:
    """Game `i` of a batch as a reference State. Chance is carried back only if `rng` is
    the game's generator at this point (see `generator_at`); by default the state gets a
    fresh PCG64 generator."""
    n = int(core.lighted_len[i])
    return State(
        config=core.config,
        rng=rng if rng is not None else np.random.Generator(np.random.PCG64()),
        year=int(core.year[i]),
        phase=Phase(int(core.phase[i])),
        seat=int(core.seat[i]),
        caliph=int(core.caliph[i]),
        money=_ints(core.money[i]),
        prestige=_ints(core.prestige[i]),
        hands=core.hands[i].astype(np.int64),
        draw_pile=core.draw_pile[i].astype(np.int64),
        stacks=core.stacks[i].astype(np.int64),
        displays=core.displays[i].astype(np.int64),
        supply=core.supply[i].astype(np.int64),
        lighted_supply=core.lighted_supply[i].astype(np.int64),
        lighted_stack=[
            list(x) for x in zip(_ints(core.lighted_stack[i, :n]), _ints(core.lighted_owner[i, :n]))
        ],
        towers=_towers_back(core, i),
        area_colour=_ints(core.area_colour[i]),
        spaces=_spaces_back(core, i),
        coloured=_coloured_back(core, i),
        market=int(core.market[i]),
        bribe_stack=int(core.bribe_stack[i]),
        lights_drawn=[c for c in _ints(core.lights_drawn[i]) if c >= 0],
        lights_keep=int(core.lights_keep[i]),
        build_left=int(core.build_left[i]),
        gift_pile=core.gift_pile[i].astype(np.int64),
        gifts=[[k for k in _ints(chest) if k >= 0] for chest in core.gifts[i]],
        gift_queue=[k for k in _ints(core.gift_queue[i]) if k >= 0],
        gift_chest=int(core.gift_chest[i]),
        pending_target=int(core.pending_target[i]),
        pending_space=_space_back(int(core.pending_space[i])),
        decisions=int(core.decisions[i]),
        final=_final_back(core, i),
    )
