"""B12's invariants: `violations(state)` for one state, `transition_violations(before,
after)` for one step. Both return sentences; an empty list means none is broken."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from asara_env.basari.constants import DIE_FACES, GEMS_PER_COLOUR, N_CARDS, ROUNDS
from asara_env.basari.phases import Phase
from asara_env.basari.reference.rules import higher
from asara_env.basari.reference.state import State

Located = list[tuple[str, str]]  # (field path, sentence)


def violations(state: State) -> list[str]:
    """Every invariant `state` breaks (B12 and the state's own consistency)."""
    return [problem for _, problem in located_violations(state)]


def located_violations(state: State) -> Located:
    """`violations`, each with the saved-state field it is found in (the first field of
    the format that shows it)."""
    out = _conservation(state) + _movement(state)
    if state.phase == Phase.BARTER:
        out += _barter(state)
    else:
        out += _no_barter(state)
    return out


def _first(state: State, names: tuple[str, ...], bad: Callable[[str], Any] | None = None) -> str:
    """The first of `names` whose value is nonzero (or, with `bad`, the first where the
    bool array `bad(name)` holds somewhere), with its first index; names[0] if none."""
    for name in names:
        value = np.asarray(getattr(state, name) if bad is None else bad(name))
        hits = np.argwhere(value) if value.ndim else ([()] if value else [])
        if len(hits):
            return name + "".join(f"[{int(i)}]" for i in hits[0])
    return names[0]


def _conservation(state: State) -> Located:
    out = []
    total = state.carpet + state.gems.sum(axis=0)
    for c in np.flatnonzero(total != GEMS_PER_COLOUR):
        out.append(
            (f"carpet[{c}]", f"colour {c}: carpet + holdings = {total[c]}, not {GEMS_PER_COLOUR}")
        )
    if (state.gems < 0).any() or (state.carpet < 0).any():
        out.append(
            (
                _first(state, ("gems", "carpet"), lambda n: getattr(state, n) < 0),
                "a gem count is negative",
            )
        )
    if (state.score < 0).any():
        out.append(("score", "a score is negative"))
    if not 0 <= state.round < ROUNDS:
        out.append(("round", f"round {state.round} is not in 0..{ROUNDS - 1}"))
    return out


def _movement(state: State) -> Located:
    if state.phase == Phase.SETUP:
        return _setup_movement(state)
    n, out = state.n_archways, []
    off = (state.position < 0) | (state.position >= n) | (state.start < 0) | (state.start >= n)
    if off.any():
        where = _first(
            state,
            ("position", "start"),
            lambda f: (getattr(state, f) < 0) | (getattr(state, f) >= n),
        )
        out.append((where, "a merchant or start disk is off the board"))
    elif ((state.start + state.progress) % n != state.position).any():
        seat = int(np.flatnonzero((state.start + state.progress) % n != state.position)[0])
        out.append(
            (
                f"position[{seat}]",
                "a merchant is not `progress` archways past its start disk (B4.3)",
            )
        )
    if state.phase == Phase.OVER:
        if state.progress.any() or state.round != ROUNDS - 1:
            where = _first(state, ("progress",)) if state.progress.any() else "round"
            out.append((where, "the game ended before the last round's scoring (B9.5, B9.6)"))
        return out
    return out + _turn_movement(state, n)


def _setup_movement(state: State) -> Located:
    out = []
    if (state.position != -1).any() or (state.start != -1).any():
        where = _first(state, ("position", "start"), lambda f: getattr(state, f) != -1)
        out.append((where, "merchants are placed during SETUP"))
    if state.round or state.turn or state.progress.any() or state.move_roll.any():
        where = _first(state, ("round", "turn", "progress", "move_roll"))
        out.append((where, "the game has moved during SETUP"))
    return out


def _turn_movement(state: State, n: int) -> Located:
    """The rolls and progress of a round under way."""
    out = []
    if not 0 <= state.turn < n:
        out.append(("turn", f"turn {state.turn} is not in 0..{n - 1} (B10.4)"))
    bad = (state.move_roll < 1) | (state.move_roll > DIE_FACES)
    if bad.any():
        out.append(
            (_first(state, ("move_roll",), lambda _: bad), "a movement roll is not a die face")
        )
    bad = (state.action_roll < 0) | (state.action_roll > DIE_FACES)
    if bad.any():
        out.append(
            (_first(state, ("action_roll",), lambda _: bad), "a Die-action roll is not a die face")
        )
    bad = state.progress < state.turn + 1
    if bad.any():
        out.append(
            (
                _first(state, ("progress",), lambda _: bad),
                "a merchant moved less than one archway per turn",
            )
        )
    bad = state.progress - state.move_roll - state.action_roll >= n
    if bad.any():
        out.append(
            (
                _first(state, ("progress",), lambda _: bad),
                "a lap was completed before this turn but the round did not end (B9.1)",
            )
        )
    bad = (state.action_roll > 0) & (state.revealed != 0)
    if bad.any():
        out.append(
            (
                _first(state, ("action_roll",), lambda _: bad),
                "a Die-action roll for a seat that did not play the Die card",
            )
        )
    return out


BARTER_FIELDS = ("barter_card", "queued_card", "opener", "responder", "to_act", "offer_by")


def _no_barter(state: State) -> Located:
    out = []
    unset = lambda f: np.asarray(getattr(state, f) != -1)  # noqa: E731
    if any(getattr(state, f) != -1 for f in BARTER_FIELDS):
        out.append((_first(state, BARTER_FIELDS, unset), "barter fields are set outside BARTER"))
    if state.offers or state.offer.any() or state.pending.any():
        out.append(
            (
                _first(state, ("offers", "offer", "pending")),
                "an offer or bundle exists outside BARTER",
            )
        )
    if state.phase == Phase.SELECT and (state.revealed != -1).any():
        out.append(
            (_first(state, ("revealed",), unset), "a card is revealed before the reveal (B5.1)")
        )
    return out


def _barter(state: State) -> Located:
    out = []
    cards = state.revealed
    if ((cards < 0) | (cards >= N_CARDS)).any():
        return [("revealed", "a seat has no revealed card during a barter")]
    pair = {int(s) for s in np.flatnonzero(cards == state.barter_card)}
    if pair != {state.opener, state.responder} or state.opener == state.responder:
        where = (
            "barter_card"
            if len(pair) != 2
            else ("opener" if state.opener not in pair else "responder")
        )
        return [(where, "the barter's parties are not the two seats that played its card (B5.2)")]
    if state.queued_card >= 0 and (
        state.queued_card <= state.barter_card or (cards == state.queued_card).sum() != 2
    ):
        out.append(("queued_card", "the queued barter is not a later contested card (B5.3)"))
    if state.to_act not in pair:
        out.append(("to_act", "the seat to act is not a party"))
    out += _offers(state)
    return out


def _offers(state: State) -> Located:
    out, seat = [], state.to_act
    if state.offers == 0:
        if state.offer_by != -1 or state.offer.any() or seat != state.opener:
            where = (
                "offer_by" if state.offer_by != -1 else ("offer" if state.offer.any() else "to_act")
            )
            out.append((where, "before the opening offer the opener must be to act (B7.2)"))
    else:
        last = state.opener if state.offers % 2 == 1 else state.responder
        if state.offer_by != last or seat == last:
            out.append(
                (
                    "offer_by" if state.offer_by != last else "to_act",
                    "offers do not alternate A, B, A, ... (B7.4)",
                )
            )
        if not state.offer.any():
            out.append(("offer", "the standing offer is empty"))
        elif state.offer_by >= 0 and (state.offer > state.gems[state.offer_by]).any():
            out.append(("offer", "the standing offer holds gems its offerer lacks (B7.6)"))
    if seat >= 0 and ((state.pending < 0).any() or (state.pending > state.gems[seat]).any()):
        out.append(("pending", "the bundle being built holds gems its builder lacks (B12)"))
    if (
        seat >= 0
        and state.pending.any()
        and state.offers
        and not higher(state.gems[seat], state.offer)
    ):
        out.append(
            ("pending", "a bundle is being built that can never beat the standing offer (E2)")
        )
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
