"""Legality: one predicate per action group, giving both the mask and the reason (E2).

Each `_reason_<group>(state, seat, arg)` returns None when the action is legal and else a
sentence saying why not; `legal_actions` is exactly the set of ids whose reason is None.
The bundle order of B8 is `bundle_key`.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from asara_env.basari.actions import Group
from asara_env.basari.constants import COLOUR_NAMES
from asara_env.basari.phases import Phase
from asara_env.basari.reference.state import State


def bundle_key(x: np.ndarray) -> tuple[int, ...]:
    """B8.1: bundles compare by gem count, then red, yellow, green (blue follows)."""
    counts = [int(v) for v in x]
    return (sum(counts), *counts)


def higher(x: np.ndarray, y: np.ndarray) -> bool:
    """B8.1-B8.2: bundle x is strictly higher than bundle y."""
    return bundle_key(x) > bundle_key(y)


def bundle_name(x: np.ndarray) -> str:
    """'2 red + 1 blue'; 'nothing' for the empty bundle."""
    parts = [f"{int(n)} {COLOUR_NAMES[c]}" for c, n in enumerate(x) if n]
    return " + ".join(parts) if parts else "nothing"


def acting_seats(state: State) -> list[int]:
    """The seats with a real decision now: all in SETUP and SELECT, the party to act in a
    BARTER, none when OVER."""
    if state.phase in (Phase.SETUP, Phase.SELECT):
        return list(range(state.num_players))
    if state.phase == Phase.BARTER:
        return [state.to_act]
    return []


def _reason_noop(state: State, seat: int, arg: int | None) -> str | None:
    if seat in acting_seats(state):
        return f"seat {seat} has a decision in phase {state.phase.name}; NOOP is not allowed"
    return None


def _reason_start(state: State, seat: int, arg: int | None) -> str | None:
    if state.phase != Phase.SETUP:
        return f"start archways are chosen only in SETUP (B3.4), not in {state.phase.name}"
    return None


def _reason_card(state: State, seat: int, arg: int | None) -> str | None:
    if state.phase != Phase.SELECT:
        return f"cards are chosen only in SELECT (B5.1), not in {state.phase.name}"
    return None


def _not_to_act(state: State, seat: int) -> str | None:
    if state.phase != Phase.BARTER:
        return f"there is no barter in phase {state.phase.name}"
    if seat != state.to_act:
        return f"seat {state.to_act} is to act in the barter, not seat {seat}"
    return None


def _started(state: State) -> str | None:
    if state.pending.any():
        return f"a started bundle ({bundle_name(state.pending)}) must be submitted (E2)"
    return None


def _reason_accept(state: State, seat: int, arg: int | None) -> str | None:
    if reason := _not_to_act(state, seat):
        return reason
    if state.offer_by < 0:
        return "there is no standing offer to accept (the opener offers or forfeits, B7.2)"
    return _started(state)


def _reason_forfeit(state: State, seat: int, arg: int | None) -> str | None:
    if reason := _not_to_act(state, seat):
        return reason
    if state.offer_by >= 0:
        return "only the opener forfeits, before any offer (B7.2); a standing offer is accepted"
    return _started(state)


def _reason_add(state: State, seat: int, arg: int | None) -> str | None:
    if reason := _not_to_act(state, seat):
        return reason
    assert arg is not None  # ADD names a colour
    held, built = int(state.gems[seat, arg]), int(state.pending[arg])
    if held <= built:
        return f"seat {seat} holds {held} {COLOUR_NAMES[arg]} gems, all already in the bundle"
    if state.offer_by >= 0 and not higher(state.gems[seat], state.offer):
        return (
            f"seat {seat}'s whole holding is not higher than the standing offer "
            f"({bundle_name(state.offer)}): no raise can be built, so it must accept (B7.3)"
        )
    return None


def _reason_submit(state: State, seat: int, arg: int | None) -> str | None:
    if reason := _not_to_act(state, seat):
        return reason
    if not state.pending.any():
        return "the bundle is empty (to offer nothing, forfeit, B7.2)"
    if state.offer_by >= 0 and not higher(state.pending, state.offer):
        return (
            f"the bundle ({bundle_name(state.pending)}) is not higher than the standing "
            f"offer ({bundle_name(state.offer)}) (B8)"
        )
    return None


REASONS: dict[Group, Callable[[State, int, int | None], str | None]] = {
    Group.NOOP: _reason_noop,
    Group.START: _reason_start,
    Group.CARD: _reason_card,
    Group.ACCEPT: _reason_accept,
    Group.FORFEIT: _reason_forfeit,
    Group.ADD: _reason_add,
    Group.SUBMIT: _reason_submit,
}


def as_action(action: object) -> int | None:
    """`action` as a plain int (ints, numpy integers, 0-d integer arrays), else None."""
    if isinstance(action, np.ndarray) and action.ndim == 0:
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        return None
    return int(action)


def illegal_reason(state: State, seat: int, action: object) -> str | None:
    """None if `seat` may play `action` now, else the reason it may not."""
    if not 0 <= seat < state.num_players:
        return f"seat {seat} is not in this {state.num_players}-player game"
    a = as_action(action)
    if a is None:
        return f"an action id must be an int, got {type(action).__name__}"
    layout = state.config.actions
    if not 0 <= a < layout.n_actions:
        return f"action ids are 0..{layout.n_actions - 1}, got {a}"
    group, arg = layout.decode(a)
    return REASONS[group](state, seat, arg)


def legal_actions(state: State, seat: int) -> np.ndarray:
    """int8[n_actions]: 1 for every action `seat` may play now (E2), exactly the ids whose
    `illegal_reason` is None. Only ADD's predicate reads its argument, so every other group
    is decided once for all its ids."""
    layout = state.config.actions
    mask = np.zeros(layout.n_actions, np.int8)
    for group, reason in REASONS.items():
        start, size = layout.offset(group), layout.size(group)
        if group == Group.ADD:
            for c in range(size):
                mask[start + c] = reason(state, seat, c) is None
        elif reason(state, seat, 0 if group in (Group.START, Group.CARD) else None) is None:
            mask[start : start + size] = 1
    return mask


def action_name(state: State, action: object) -> str:
    """The action's name, or '?' for an id outside the space."""
    a = as_action(action)
    if a is None or not 0 <= a < state.config.n_actions:
        return "?"
    return state.config.actions.describe(a)
