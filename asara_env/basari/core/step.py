"""Stepping a batch: every seat's action is checked against its mask, then each game applies
its decisions and every automatic consequence up to its next decision point (E1)."""

from __future__ import annotations

from typing import Any

import numpy as np

from asara_env.basari.actions import (
    BARTER_ACCEPT,
    BARTER_ADD,
    BARTER_FORFEIT,
    BARTER_SUBMIT,
    ActionLayout,
)
from asara_env.basari.constants import N_COLOURS
from asara_env.basari.core import rules
from asara_env.basari.core.mask import write_mask
from asara_env.basari.core.observation import observe
from asara_env.basari.core.state import BasariState
from asara_env.basari.core.tables import tables
from asara_env.basari.phases import Phase
from asara_env.common.errors import IllegalActionError
from asara_env.common.validate import is_int


def illegal_seats(state: BasariState, actions: np.ndarray) -> np.ndarray:
    """bool[B, P]: which actions of `actions` int[B, P] are not in their seat's mask."""
    inside = (actions >= 0) & (actions < state.legal.shape[2])
    safe = np.where(inside, actions, 0)
    legal = np.take_along_axis(state.legal, safe[:, :, None], axis=2)[:, :, 0]
    return ~(inside & legal)


def check_actions(state: BasariState, actions: object) -> np.ndarray:
    """`actions` as int64[B, P] if every one is legal, else IllegalActionError naming the
    first bad game, seat and action as given (an unsigned 2**64 - 1 is not -1; nothing
    changes). Only an int array (or nested lists of ints) of shape [B, P] is accepted:
    sets, dicts, floats, bools and strings are refused."""
    shape = state.legal.shape[:2]
    if isinstance(actions, (list, tuple)):
        actions = _from_lists(state, actions)
    try:
        acts = np.asarray(actions)
    except (ValueError, TypeError, OverflowError):  # ragged lists and the like
        acts = np.empty(0, object)
    if acts.shape != shape or acts.dtype.kind not in "iu":
        raise IllegalActionError(
            -1,
            actions,
            "?",
            "-",
            f"actions must be ints of shape {shape}, got {acts.dtype} {acts.shape}",
        )
    bad = illegal_seats(state, acts)  # in the given dtype: nothing wraps
    if bad.any():
        game, seat = (int(i) for i in np.argwhere(bad)[0])
        a = int(acts[game, seat])
        n = state.legal.shape[2]
        lay = ActionLayout(state.config.n_archways)
        name = lay.describe(a) if 0 <= a < n else "?"
        phase = Phase(int(state.phase[game])).name
        allowed = np.flatnonzero(state.legal[game, seat]).tolist()
        why = (
            f"game {game}: not legal now (legal ids {allowed})"
            if 0 <= a < n
            else (f"game {game}: action ids are 0..{n - 1}")
        )
        raise IllegalActionError(seat, a, name, phase, why)
    return acts.astype(np.int64)


def _from_lists(state: BasariState, actions: list[Any] | tuple[Any, ...]) -> object:
    """Nested lists of ids as an int64 array, every id checked as given: a bool, float or
    string inside the lists (which numpy would convert) or an int outside int64 is an
    IllegalActionError naming the game and seat; rows of another form are left to the
    shape check."""
    n = state.legal.shape[2]
    rows = []
    for game, row in enumerate(actions):
        if not isinstance(row, (list, tuple)):
            return actions
        for seat, a in enumerate(row):
            phase = Phase(int(state.phase[game])).name if game < state.batch else "-"
            if not is_int(a):
                why = f"game {game}: an action id must be an int, got {type(a).__name__}"
                raise IllegalActionError(seat, a, "?", phase, why)
            if not 0 <= a < n:
                raise IllegalActionError(
                    seat, a, "?", phase, f"game {game}: action ids are 0..{n - 1}"
                )
        rows.append([int(a) for a in row])
    try:
        return np.array(rows, np.int64)
    except ValueError:  # ragged: refused by the shape check
        return actions


def step(state: BasariState, actions: object) -> None:
    """Apply `actions` int[B, P] (one id per seat; NOOP where a seat has no decision) to
    every game, in place. An illegal action raises IllegalActionError naming the game, the
    seat and the action, and leaves the whole batch unchanged. Finished games take NOOP
    and stay finished (see `autoreset`)."""
    acts = check_actions(state, actions)
    t = tables(state.config)
    phase_before = state.phase.copy()
    setup, select, barter = (np.flatnonzero(state.phase == p) for p in DECISION_PHASES)
    if setup.size:
        _setup(state, setup, acts[setup] - t.start_offset)
    nexts = []
    if select.size:
        cards = (acts[select] - t.card_offset).astype(np.int8)
        nexts.append(rules.resolve_cards(state, select, cards))
    if barter.size:
        nexts += _barter(state, barter, acts[barter, state.to_act[barter]] - t.accept)
    rules.go_on(state, nexts)
    write_mask(state, np.flatnonzero(state.phase != phase_before))


def step_observe(state: BasariState, actions: object) -> np.ndarray:
    """`step(state, actions)`, then `observe(state)` (float32[B, P, OBS_SIZE]), what a
    one-game env does every step (the numba core does both in one call)."""
    step(state, actions)
    return observe(state)


def _setup(state: BasariState, rows: np.ndarray, archways: np.ndarray) -> None:
    """B3.4: the start disks and merchants go where their seats chose, then the first
    movement."""
    state.start[rows] = state.position[rows] = archways
    state.progress[rows] = 0
    rules.movement(state, rows)


def _barter(state: BasariState, rows: np.ndarray, choice: np.ndarray) -> list[rules.Next]:
    """E2: the acting seat's `choice` (a BarterChoice: ACCEPT, FORFEIT, ADD + c or SUBMIT)
    in games `rows`. ADD and SUBMIT, the bulk of barter steps, are applied to the whole
    batch at once (`choice` spread over it, -1 elsewhere); ACCEPT and FORFEIT to their
    games, whose next step is returned for `rules.go_on`."""
    full = np.full(state.batch, -1, np.int64)
    full[rows] = choice
    np.add(
        state.pending,
        full[:, None] - BARTER_ADD == COLOURS,
        out=state.pending,
        casting="unsafe",
    )
    sub = full == BARTER_SUBMIT
    if sub.any():
        actor = state.to_act
        np.copyto(state.offer, state.pending, where=sub[:, None])
        state.pending[sub] = 0
        state.offers += sub
        state.offer_by[:] = np.where(sub, actor, state.offer_by)
        state.to_act[:] = np.where(sub, state.opener + state.responder - actor, actor)
    acc = np.flatnonzero(full == BARTER_ACCEPT)
    if acc.size:  # B7.5: the offerer gives the offer and carries out the card
        taker, giver = state.to_act[acc], state.offer_by[acc]
        state.gems[acc, giver] -= state.offer[acc]
        state.gems[acc, taker] += state.offer[acc]
    done = np.flatnonzero((full == BARTER_ACCEPT) | (full == BARTER_FORFEIT))
    if not done.size:
        return []
    # FORFEIT (B7.2): the other party carries out the card
    winner = np.where(full[done] == BARTER_ACCEPT, state.offer_by[done], state.responder[done])
    return [rules.finish_barter(state, done, winner)]


COLOURS = np.arange(N_COLOURS)
DECISION_PHASES = (int(Phase.SETUP), int(Phase.SELECT), int(Phase.BARTER))
