"""Legal-action masks of every seat (E2), written into the state's `legal` cache."""

from __future__ import annotations

import numpy as np

from ..phases import Phase
from .state import BasariState
from .tables import bundle_key, tables


def barter_block(state: BasariState, rows: np.ndarray) -> np.ndarray:
    """bool[n, 7]: the acting seat's ACCEPT, FORFEIT, ADD(R, Y, G, B), SUBMIT in barter
    games `rows` (E2; "no dead ends": a raise can be built iff the holding beats the offer)."""
    actor = state.to_act[rows]
    held = state.gems[rows, actor]
    pending = state.pending[rows]
    offer = state.offer[rows]
    exists = state.offer_by[rows] >= 0
    empty = pending.sum(axis=1) == 0
    offer_key = bundle_key(offer)
    can_raise = ~exists | (bundle_key(held) > offer_key)
    block = np.empty((len(rows), 7), bool)
    block[:, 0] = exists & empty
    block[:, 1] = ~exists & empty
    block[:, 2:6] = (held > pending) & can_raise[:, None]
    block[:, 6] = ~empty & (~exists | (bundle_key(pending) > offer_key))
    return block


def write_mask(state: BasariState, rows: np.ndarray | None = None) -> None:
    """Recompute `state.legal` of every game (or of games `rows`): all seats pick in SETUP
    and SELECT; in BARTER the acting seat has its barter ids and every other seat NOOP;
    OVER is NOOP only."""
    t = tables(state.config)
    if rows is None:
        np.copyto(state.legal, t.templates[state.phase][:, None, :])
        rows = np.flatnonzero(state.phase == Phase.BARTER)
    else:
        state.legal[rows] = t.templates[state.phase[rows]][:, None, :]
        rows = rows[state.phase[rows] == Phase.BARTER]
    if rows.size:
        actor = state.to_act[rows]
        state.legal[rows, actor, 0] = False
        state.legal[rows, actor, t.accept : t.accept + 7] = barter_block(state, rows)


def legal_action_mask(state: BasariState) -> np.ndarray:
    """bool[B, P, A]: the legal actions of every seat of every game (a copy)."""
    return state.legal.copy()
