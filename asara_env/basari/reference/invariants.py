"""B12's invariants: `violations(state)` for one state, `transition_violations(before,
after)` for one step. Both return sentences; an empty list means none is broken."""

from __future__ import annotations

import numpy as np

from asara_env.basari.constants import DIE_FACES, GEMS_PER_COLOUR, N_CARDS, ROUNDS
from asara_env.basari.phases import Phase
from asara_env.basari.reference.rules import higher
from asara_env.basari.reference.state import State


def violations(state: State) -> list[str]:
    """Every invariant `state` breaks (B12 and the state's own consistency)."""
    out = _conservation(state) + _movement(state)
    if state.phase == Phase.BARTER:
        out += _barter(state)
    else:
        out += _no_barter(state)
    return out


def _conservation(state: State) -> list[str]:
    out = []
    total = state.carpet + state.gems.sum(axis=0)
    for c in np.flatnonzero(total != GEMS_PER_COLOUR):
        out.append(f"colour {c}: carpet + holdings = {total[c]}, not {GEMS_PER_COLOUR}")
    if (state.gems < 0).any() or (state.carpet < 0).any():
        out.append("a gem count is negative")
    if (state.score < 0).any():
        out.append("a score is negative")
    if not 0 <= state.round < ROUNDS:
        out.append(f"round {state.round} is not in 0..{ROUNDS - 1}")
    return out


def _movement(state: State) -> list[str]:
    if state.phase == Phase.SETUP:
        return _setup_movement(state)
    n, out = state.n_archways, []
    if ((state.position < 0) | (state.position >= n) | (state.start < 0)).any():
        out.append("a merchant or start disk is off the board")
    elif ((state.start + state.progress) % n != state.position).any():
        out.append("a merchant is not `progress` archways past its start disk (B4.3)")
    if state.phase == Phase.OVER:
        if state.progress.any() or state.round != ROUNDS - 1:
            out.append("the game ended before the last round's scoring (B9.5, B9.6)")
        return out
    return out + _turn_movement(state, n)


def _setup_movement(state: State) -> list[str]:
    out = []
    if (state.position != -1).any() or (state.start != -1).any():
        out.append("merchants are placed during SETUP")
    if state.round or state.turn or state.progress.any() or state.move_roll.any():
        out.append("the game has moved during SETUP")
    return out


def _turn_movement(state: State, n: int) -> list[str]:
    """The rolls and progress of a round under way."""
    out = []
    if not 0 <= state.turn < n:
        out.append(f"turn {state.turn} is not in 0..{n - 1} (B10.4)")
    if ((state.move_roll < 1) | (state.move_roll > DIE_FACES)).any():
        out.append("a movement roll is not a die face")
    if ((state.action_roll < 0) | (state.action_roll > DIE_FACES)).any():
        out.append("a Die-action roll is not a die face")
    if (state.progress < state.turn + 1).any():
        out.append("a merchant moved less than one archway per turn")
    if (state.progress - state.move_roll - state.action_roll >= n).any():
        out.append("a lap was completed before this turn but the round did not end (B9.1)")
    if ((state.action_roll > 0) & (state.revealed != 0)).any():
        out.append("a Die-action roll for a seat that did not play the Die card")
    return out


def _no_barter(state: State) -> list[str]:
    out = []
    fields = (state.barter_card, state.queued_card, state.opener, state.responder)
    if any(f != -1 for f in fields) or state.to_act != -1 or state.offer_by != -1:
        out.append("barter fields are set outside BARTER")
    if state.offers or state.offer.any() or state.pending.any():
        out.append("an offer or bundle exists outside BARTER")
    if state.phase == Phase.SELECT and (state.revealed != -1).any():
        out.append("a card is revealed before the reveal (B5.1)")
    return out


def _barter(state: State) -> list[str]:
    out = []
    cards = state.revealed
    if ((cards < 0) | (cards >= N_CARDS)).any():
        return ["a seat has no revealed card during a barter"]
    pair = {int(s) for s in np.flatnonzero(cards == state.barter_card)}
    if pair != {state.opener, state.responder} or state.opener == state.responder:
        return ["the barter's parties are not the two seats that played its card (B5.2)"]
    if state.queued_card >= 0 and (
        state.queued_card <= state.barter_card or (cards == state.queued_card).sum() != 2
    ):
        out.append("the queued barter is not a later contested card (B5.3)")
    if state.to_act not in pair:
        out.append("the seat to act is not a party")
    out += _offers(state)
    return out


def _offers(state: State) -> list[str]:
    out, seat = [], state.to_act
    if state.offers == 0:
        if state.offer_by != -1 or state.offer.any() or seat != state.opener:
            out.append("before the opening offer the opener must be to act (B7.2)")
    else:
        last = state.opener if state.offers % 2 == 1 else state.responder
        if state.offer_by != last or seat == last:
            out.append("offers do not alternate A, B, A, ... (B7.4)")
        if not state.offer.any():
            out.append("the standing offer is empty")
        if (state.offer > state.gems[state.offer_by]).any():
            out.append("the standing offer holds gems its offerer lacks (B7.6)")
    if (state.pending < 0).any() or (state.pending > state.gems[seat]).any():
        out.append("the bundle being built holds gems its builder lacks (B12)")
    if state.pending.any() and state.offers and not higher(state.gems[seat], state.offer):
        out.append("a bundle is being built that can never beat the standing offer (E2)")
    return out


def transition_violations(before: State, after: State) -> list[str]:
    """The B12 invariants of one step from `before` to `after` (that at most one seat takes
    gems from the carpets per turn is structural: only the Gemstones card's one performer)."""
    out = []
    if (after.score < before.score).any():
        out.append("a score decreased")
    scored = after.round != before.round or after.phase == Phase.OVER
    if before.phase != Phase.SETUP and not scored and (after.start != before.start).any():
        out.append("a start disk moved outside a round's end (B9.5)")
    if after.phase == Phase.BARTER and before.phase == Phase.BARTER:
        same = after.barter_card == before.barter_card and after.offers == before.offers + 1
        if same and before.offers and not higher(after.offer, before.offer):
            out.append("a submitted offer is not higher than the last (B7.4)")
    return out
