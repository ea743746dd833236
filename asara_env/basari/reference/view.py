"""What each seat may see (B11), in ego order, for encoders and the differential test.

`public_view(state, seat)` holds every public fact an observation is made of (E3) plus the
seat's own pending bundle when it is the one building it; never anything hidden (a chosen
card is applied in the same step it is chosen, so the state never holds an unrevealed one).
"""

from __future__ import annotations

from typing import Any

from asara_env.basari.phases import Phase
from asara_env.basari.reference.rules import acting_seats, legal_actions
from asara_env.basari.reference.state import State


def ego(state: State, viewer: int, seat: int) -> int:
    """The seat's place in `viewer`'s ego order (viewer 0, then clockwise); -1 stays -1."""
    return -1 if seat < 0 else (seat - viewer) % state.num_players


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """The public facts about one seat."""
    pos = int(state.position[seat])
    return {
        "score": int(state.score[seat]),
        "gems": state.gems[seat].tolist(),
        "position": pos,
        "start": int(state.start[seat]),
        "progress": int(state.progress[seat]),
        "archways_left": max(state.n_archways - int(state.progress[seat]), 0),
        "lapped": bool(state.lapped[seat]),
        "archway": state.board[pos].tolist() if pos >= 0 else [0] * 5,
        "revealed": int(state.revealed[seat]),
        "move_roll": int(state.move_roll[seat]),
        "action_roll": int(state.action_roll[seat]),
        "is_party": seat in (state.opener, state.responder),
        "is_opener": seat == state.opener,
        "is_to_act": seat == state.to_act,
    }


def public_view(state: State, viewer: int) -> dict[str, Any]:
    """Everything `viewer` may see now, seats in ego order, with its mask and whether it
    acts. The pending bundle is zeros unless `viewer` is the one building it."""
    order = [(viewer + i) % state.num_players for i in range(state.num_players)]
    own_bundle = state.phase == Phase.BARTER and viewer == state.to_act
    return {
        "phase": int(state.phase),
        "round": state.round,
        "turn": state.turn,
        "carpet": state.carpet.tolist(),
        "seats": [seat_view(state, s) for s in order],
        "barter": {
            "card": state.barter_card,
            "queued_card": state.queued_card,
            "offer": state.offer.tolist(),
            "offer_by": ego(state, viewer, state.offer_by),
            "has_offer": state.offer_by >= 0,
            "offers": state.offers,
            "raises": max(state.offers - 1, 0),
            "pending": state.pending.tolist() if own_bundle else [0, 0, 0, 0],
        },
        "acting": viewer in acting_seats(state),
        "mask": legal_actions(state, viewer).tolist(),
    }
