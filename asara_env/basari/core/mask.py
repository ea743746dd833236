"""Legal-action masks of every seat (E2), written into the state's `legal` cache."""

from __future__ import annotations

import numpy as np

from asara_env.basari.actions import (
    BARTER_ACCEPT,
    BARTER_ADD,
    BARTER_FORFEIT,
    BARTER_SUBMIT,
    N_BARTER_IDS,
)
from asara_env.basari.constants import N_COLOURS
from asara_env.basari.core.state import BasariState
from asara_env.basari.core.tables import bundle_key, tables


def barter_block(state: BasariState) -> np.ndarray:
    """bool[B, N_BARTER_IDS]: the ACCEPT, FORFEIT, ADD(R, Y, G, B), SUBMIT ids of the seat to act in
    each game's barter (E2; "no dead ends": a raise can be built iff the holding beats the
    standing offer). Rows of games not in a barter are meaningless."""
    actor = np.maximum(state.to_act, 0).astype(np.intp)
    held = np.take_along_axis(state.gems, actor[:, None, None], axis=1)[:, 0]
    pending = state.pending
    exists = state.offer_by >= 0
    empty = ~pending.any(axis=1)
    offer_key = bundle_key(state.offer)
    can_raise = ~exists | (bundle_key(held) > offer_key)
    add = slice(BARTER_ADD, BARTER_ADD + N_COLOURS)
    block = np.empty((len(actor), N_BARTER_IDS), bool)
    block[:, BARTER_ACCEPT] = exists & empty
    block[:, BARTER_FORFEIT] = ~exists & empty
    np.logical_and(held > pending, can_raise[:, None], out=block[:, add])
    block[:, BARTER_SUBMIT] = ~empty & (~exists | (bundle_key(pending) > offer_key))
    return block


def write_mask(state: BasariState, rows: np.ndarray | None = None) -> None:
    """Bring `state.legal` up to date: all seats pick in SETUP and SELECT; in BARTER the
    acting seat has its barter ids and every other seat NOOP; OVER is NOOP only.

    Every id but NOOP and the barter ids depends on the phase alone, so those columns are
    rewritten only in games `rows` (the games whose phase changed; None = every game); the
    NOOP and barter columns are rewritten everywhere."""
    t = tables(state.config)
    legal = state.legal
    if rows is None:
        np.copyto(legal, t.templates[state.phase][:, None, :])
    elif rows.size:
        legal[rows] = t.templates[state.phase[rows]][:, None, :]
    # to_act is -1 outside barters, so is_actor is all False there
    is_actor = np.arange(legal.shape[1]) == state.to_act[:, None]  # [B, P]
    block = barter_block(state)[:, None, :]
    np.logical_and(is_actor[:, :, None], block, out=legal[:, :, t.accept : t.accept + N_BARTER_IDS])
    np.logical_and(t.templates[state.phase, 0][:, None], ~is_actor, out=legal[:, :, 0])


def legal_action_mask(state: BasariState) -> np.ndarray:
    """bool[B, P, A]: the legal actions of every seat of every game (a copy)."""
    return state.legal.copy()
