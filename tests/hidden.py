"""Hidden information (R10) for tests: resample what a seat cannot know, or change what it
does know, in reference states."""

from __future__ import annotations

import numpy as np
from games import CONFIGS, EXPANSION_CONFIGS, game_states

from asara_env.phases import Phase
from asara_env.reference.state import State


def _deal(pool: np.ndarray, rng: np.random.Generator) -> list[int]:
    """The cards (or windows) of a colour-count pool in random order."""
    items = np.repeat(np.arange(len(pool)), pool)
    return [int(x) for x in rng.permutation(items)]


def _resample_cards(state: State, viewer: int, rng: np.random.Generator) -> None:
    """Redeal every card the viewer cannot see: other hands, the draw pile, and the
    face-down cards of the others on the board and the coloured building (R3.6, R10.3)."""
    others = [s for s in range(state.num_players) if s != viewer]
    hidden = [
        (a, i)
        for a, area in enumerate(state.spaces)
        for i, b in enumerate(area)
        if b is not None and not b.face_up and b.seat != viewer
    ]
    hidden_coloured = [k for k, b in enumerate(state.coloured) if b.seat != viewer]
    # R9.2: who chooses a gift card looks through the draw pile
    pile_seen = state.phase == Phase.GIFT_CARD and state.seat == viewer
    pool = state.hands[others].sum(axis=0) + (0 if pile_seen else state.draw_pile)
    for a, i in hidden:
        pool += np.bincount(state.spaces[a][i].cards, minlength=5)
    for k in hidden_coloured:
        pool += np.bincount(state.coloured[k].cards, minlength=5)
    cards = _deal(pool, rng)
    for s in others:
        n = int(state.hands[s].sum())
        state.hands[s] = np.bincount(cards[:n], minlength=5)
        cards = cards[n:]
    for a, i in hidden:
        b = state.spaces[a][i]
        state.spaces[a][i] = type(b)(b.seat, tuple(sorted(cards[:2])), False)
        cards = cards[2:]
    for k in hidden_coloured:
        state.coloured[k] = type(state.coloured[k])(state.coloured[k].seat, (cards.pop(0),), False)
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


def r10_states() -> list[State]:
    picks = []
    for config in CONFIGS:
        picks += game_states(config, 21)[::4] + game_states(config, 22)[::9]
    for config in EXPANSION_CONFIGS:  # every position of an expansion decision, and some
        states = game_states(config, 23)
        picks += [s for s in states if s.phase >= Phase.GENIE] + states[::12]
    return picks


def _swap_own_card(state: State, viewer: int) -> bool:
    """Swap one card of the viewer's hand with a different colour from the draw pile."""
    for a in np.flatnonzero(state.hands[viewer]):
        for b in np.flatnonzero(state.draw_pile):
            if a != b:
                state.hands[viewer, [a, b]] += (-1, 1)
                state.draw_pile[[a, b]] += (1, -1)
                return True
    return False


def _swap_own_window(state: State, viewer: int) -> bool:
    """Swap one of the viewer's unbuilt lighted windows with a different one in the stack."""
    for a in np.flatnonzero(state.lighted_supply[viewer]):
        for entry in state.lighted_stack:
            if entry[0] != a:
                state.lighted_supply[viewer, [a, entry[0]]] += (-1, 1)
                entry[0] = int(a)
                return True
    return False


def _recolour_own_face_down(state: State, viewer: int) -> bool:
    """Swap a card of one of the viewer's face-down pairs with a different one from the pile."""
    for area in state.spaces:
        for i, b in enumerate(area):
            if b is None or b.face_up or b.seat != viewer:
                continue
            for c in np.flatnonzero(state.draw_pile):
                if c != b.cards[0]:
                    state.draw_pile[[c, b.cards[0]]] += (-1, 1)
                    area[i] = type(b)(viewer, tuple(sorted((int(c), b.cards[1]))), False)
                    return True
    return False


OWN_SECRET_CHANGES = (_swap_own_card, _swap_own_window, _recolour_own_face_down)
