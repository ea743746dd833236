"""Hidden information (R10) for tests: the resampling lives in asara_env/asara/hidden.py; here
the positions to test and the changes of what a seat does know."""

from __future__ import annotations

import numpy as np

from asara_env.asara.hidden import resample_hidden
from asara_env.asara.phases import Phase
from asara_env.asara.reference.state import State
from tests.asara.games import CONFIGS, EXPANSION_CONFIGS, game_states

__all__ = ["OWN_SECRET_CHANGES", "r10_states", "resample_hidden"]


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
