"""Hidden information (R10): what a seat cannot know, resampled.

`resample_hidden(state, viewer, rng)` redeals everything `viewer` cannot see (the others'
hands, the draw pile, the others' face-down buyers and coloured-building cards, the
unknown lighted windows) from the pool of those items, keeping every count the viewer
knows; the result is a state the viewer cannot tell from `state`. `determinise` does the
same and also replaces the game's chance generator, so future chance (draws, shuffles)
is the caller's too: what it returns depends on the state only through what the viewer
knows. The information-leak tests and the search agents (agents/asara/search.py) use these.
"""

from __future__ import annotations

import numpy as np

from asara_env.asara.phases import Phase
from asara_env.asara.reference.state import Buyer, State


def _deal(pool: np.ndarray, rng: np.random.Generator) -> list[int]:
    """The cards (or windows) of a colour-count pool in random order."""
    items = np.repeat(np.arange(len(pool)), pool)
    return [int(x) for x in rng.permutation(items)]


def _resample_cards(state: State, viewer: int, rng: np.random.Generator) -> None:
    """Redeal every card the viewer cannot see: other hands, the draw pile, and the
    face-down cards of the others on the board and the coloured building (R3.6, R10.3)."""
    others = [s for s in range(state.num_players) if s != viewer]
    hidden = [
        (a, i, b)
        for a, area in enumerate(state.spaces)
        for i, b in enumerate(area)
        if b is not None and not b.face_up and b.seat != viewer
    ]
    hidden_coloured = [k for k, b in enumerate(state.coloured) if b.seat != viewer]
    # R9.2: who chooses a gift card looks through the draw pile
    pile_seen = state.phase == Phase.GIFT_CARD and state.seat == viewer
    pool = state.hands[others].sum(axis=0) + (0 if pile_seen else state.draw_pile)
    for _, _, b in hidden:
        pool += np.bincount(b.cards, minlength=5)
    for k in hidden_coloured:
        pool += np.bincount(state.coloured[k].cards, minlength=5)
    cards = _deal(pool, rng)
    for s in others:
        n = int(state.hands[s].sum())
        state.hands[s] = np.bincount(cards[:n], minlength=5)
        cards = cards[n:]
    for a, i, b in hidden:
        state.spaces[a][i] = Buyer(b.seat, tuple(sorted(cards[:2])), False)
        cards = cards[2:]
    for k in hidden_coloured:
        state.coloured[k] = Buyer(state.coloured[k].seat, (cards.pop(0),), False)
    if not pile_seen:
        state.draw_pile = np.bincount(cards, minlength=5).astype(np.int64)


def _resample_lighted(state: State, viewer: int, rng: np.random.Generator) -> None:
    """Reshuffle every lighted window the viewer cannot know: the others' unbuilt ones, the
    stack positions it did not put back, and a draw that is not its own (R7.2, R10.2)."""
    others = [s for s in range(state.num_players) if s != viewer]
    unknown = [k for k, (_, owner) in enumerate(state.lighted_stack) if owner != viewer]
    drawn_hidden = state.phase == Phase.LIGHTS_KEEP and state.seat != viewer
    if state.phase == Phase.GIFT_LIGHTS and state.seat == viewer:
        # R9.2: the viewer looks through the stack: it knows what is in it, not the order
        colours = [state.lighted_stack[k][0] for k in unknown]
        for k, c in zip(unknown, _deal(np.bincount(colours, minlength=5), rng)):
            state.lighted_stack[k][0] = c
        unknown = []
    pool = state.lighted_supply[others].sum(axis=0)
    pool += np.bincount([state.lighted_stack[k][0] for k in unknown], minlength=5)
    if drawn_hidden:
        pool += np.bincount(state.lights_drawn, minlength=5)
    windows = _deal(pool, rng)
    for s in others:
        n = int(state.lighted_supply[s].sum())
        state.lighted_supply[s] = np.bincount(windows[:n], minlength=5)
        windows = windows[n:]
    for k in unknown:
        state.lighted_stack[k][0] = windows.pop(0)
    if drawn_hidden:
        state.lights_drawn = [int(c) for c in windows]


def resample_hidden(state: State, viewer: int, rng: np.random.Generator) -> State:
    """A state the viewer cannot tell from `state`."""
    twin = state.copy()
    _resample_cards(twin, viewer, rng)
    _resample_lighted(twin, viewer, rng)
    return twin


def determinise(state: State, viewer: int, rng: np.random.Generator) -> State:
    """A state the viewer cannot tell from `state`, its hidden items and its future chance
    drawn from `rng` (the state's own generator is not looked at)."""
    twin = resample_hidden(state, viewer, rng)
    twin.rng = np.random.default_rng(rng.integers(2**63))
    return twin
