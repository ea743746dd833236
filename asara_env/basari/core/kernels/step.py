"""The step of `asara_env.basari.core.step`, one game at a time: every action checked
against its seat's mask before anything changes, then each game's decisions and every
automatic consequence up to its next decision point (E1), then its legal masks
(`asara_env.basari.core.mask.write_mask`). Each function mirrors the numpy function of
the same name in `core/rules.py`, `core/step.py` or `core/mask.py` for one game `g`."""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from asara_env.basari.actions import (
    BARTER_ACCEPT,
    BARTER_ADD,
    BARTER_FORFEIT,
    BARTER_SUBMIT,
    N_BARTER_IDS,
)
from asara_env.basari.constants import (
    DIE_ACTION_BASE,
    LAP_BONUS,
    MAJORITY_RETURN,
    N_CARDS,
    N_COLOURS,
    ROUNDS,
    TIE_RETURN,
    Card,
)
from asara_env.basari.core.kernels.arrays import Arrays, Rules
from asara_env.basari.core.kernels.chance import DIE_ACTION, MOVE, coin, die
from asara_env.basari.phases import Phase
from asara_env.common.kernel_cache import use_source_digest_cache
from asara_env.common.kernels import ENTRY, INLINED

use_source_digest_cache()  # before the first kernel: the cache follows every source it reads

SETUP, SELECT, BARTER, OVER = (int(p) for p in Phase)
DIE, POINTS, GEMS = int(Card.DIE), int(Card.POINTS), int(Card.GEMS)
NO_BARTER = -1  # the sentinel of barter_card, queued_card, opener, responder, to_act, offer_by
ALL_LEGAL = -1  # what `first_illegal` returns when every action is legal


@numba.njit(**ENTRY)
def step_games(state: tuple[np.ndarray, ...], rules: tuple[Any, ...], actions: np.ndarray) -> int:
    """Apply `actions` int64[B, P] to every game of `state` (the `Arrays` as a plain
    tuple, `rules` the `Rules`), or change nothing and return the first illegal action's
    g * P + seat (see `first_illegal`); ALL_LEGAL once applied."""
    s, k = Arrays(*state), Rules(*rules)
    bad = first_illegal(s.legal, actions)
    if bad != ALL_LEGAL:
        return bad
    phase = s.phase
    for g in range(phase.shape[0]):
        before = phase[g]
        step_game(s, k, g, actions[g])
        write_mask(s, k, g, phase[g] != before)
    return ALL_LEGAL


@numba.njit(**ENTRY)
def first_illegal(legal: np.ndarray, actions: np.ndarray) -> int:
    """g * P + seat of the first action of `actions` int64[B, P] (games, then seats) that
    is not in its seat's mask `legal` bool[B, P, A], or ALL_LEGAL."""
    b, p, a = legal.shape
    for g in range(b):
        for seat in range(p):
            act = actions[g, seat]
            if act < 0 or act >= a or not legal[g, seat, act]:
                return g * p + seat
    return ALL_LEGAL


@numba.njit(**INLINED)
def step_game(s: Arrays, k: Rules, g: int, actions: np.ndarray) -> None:
    """Game g's decisions `actions` int64[P] (legal) and what follows them: the one place
    that sequences the rules, so that each is inlined as few times as it can be."""
    phase = s.phase[g]
    if phase == SETUP:  # B3.4: the start disks and merchants go where their seats chose
        for seat in range(actions.shape[0]):
            s.start[g, seat] = s.position[g, seat] = actions[seat] - k.start_offset
            s.progress[g, seat] = 0
        movement(s, k, g)
        return
    if phase == SELECT:
        card = resolve_cards(s, k, g, actions)
    elif phase == BARTER:
        winner = barter(s, g, int(actions[s.to_act[g]]) - k.accept)
        if winner == NO_BARTER:
            return
        card = finish_barter(s, k, g, winner)
    else:
        return
    if card != NO_BARTER:
        start_barter(s, g, card)
    elif end_turn(s, k, g):
        movement(s, k, g)


@numba.njit(**INLINED)
def movement(s: Arrays, k: Rules, g: int) -> None:
    """B4.2: every merchant moves by its own die; the turn's cards and rolls are cleared;
    the game waits for the card choice (SELECT)."""
    for seat in range(s.position.shape[1]):
        roll = die(s.seed[g], int(s.round[g]), int(s.turn[g]), seat, MOVE)
        s.revealed[g, seat] = -1
        s.action_roll[g, seat] = 0
        s.move_roll[g, seat] = roll
        s.position[g, seat] = (s.position[g, seat] + roll) % k.n_archways
        s.progress[g, seat] += roll
    s.phase[g] = SELECT


@numba.njit(**INLINED)
def act(s: Arrays, k: Rules, g: int, seat: int, card: int) -> None:
    """B6: `seat` carries out `card`: the Die action (B6.3: roll, move that far, score
    6 - roll), Points (B6.2: the archway's number) or Gemstones (B6.1: the archway's gems,
    all that are left where too few)."""
    if card == DIE:
        roll = die(s.seed[g], int(s.round[g]), int(s.turn[g]), seat, DIE_ACTION)
        s.action_roll[g, seat] = roll
        s.position[g, seat] = (s.position[g, seat] + roll) % k.n_archways
        s.progress[g, seat] += roll
        s.score[g, seat] += DIE_ACTION_BASE - roll
    elif card == POINTS:
        s.score[g, seat] += k.points[s.position[g, seat]]
    elif card == GEMS:
        here = s.position[g, seat]
        for c in range(N_COLOURS):
            taken = min(k.board_gems[here, c], s.carpet[g, c])
            s.gems[g, seat, c] += taken
            s.carpet[g, c] -= taken


@numba.njit(**INLINED)
def resolve_cards(s: Arrays, k: Rules, g: int, actions: np.ndarray) -> int:
    """B5.2-B5.3: reveal the cards of `actions` int64[P] (CARD ids); solo cards act at
    once in card order, cards chosen by three or more are cancelled, pairs barter in card
    order: the first pair's card is returned (NO_BARTER if none), the second's queued."""
    p = actions.shape[0]
    for seat in range(p):
        s.revealed[g, seat] = actions[seat] - k.card_offset
    for card in range(N_CARDS):
        if chosen_by(s, g, card) == 1:
            for seat in range(p):
                if s.revealed[g, seat] == card:
                    act(s, k, g, seat, card)
    first = second = NO_BARTER
    for card in range(N_CARDS):
        if chosen_by(s, g, card) == 2:
            if first == NO_BARTER:
                first = card
            elif second == NO_BARTER:
                second = card
    if first != NO_BARTER:
        s.queued_card[g] = second
    return first


@numba.njit(**INLINED)
def chosen_by(s: Arrays, g: int, card: int) -> int:
    """How many seats of game g revealed `card`."""
    count = 0
    for seat in range(s.revealed.shape[1]):
        count += s.revealed[g, seat] == card
    return count


@numba.njit(**INLINED)
def start_barter(s: Arrays, g: int, card: int) -> None:
    """B7.1: the two seats that revealed `card` barter; the higher score opens, a coin
    (C3, drawn for the lower seat) decides between equal scores."""
    low = high = NO_BARTER
    for seat in range(s.revealed.shape[1]):
        if s.revealed[g, seat] == card:
            if low == NO_BARTER:
                low = seat
            high = seat
    s_low, s_high = s.score[g, low], s.score[g, high]
    tails = coin(s.seed[g], int(s.round[g]), int(s.turn[g]), low)
    low_opens = s_low > s_high or (s_low == s_high and tails == 0)
    opener, responder = (low, high) if low_opens else (high, low)
    s.barter_card[g] = card
    s.opener[g] = opener
    s.responder[g] = responder
    s.to_act[g] = opener
    s.offer_by[g] = NO_BARTER
    s.offers[g] = 0
    for c in range(N_COLOURS):
        s.offer[g, c] = s.pending[g, c] = 0
    s.phase[g] = BARTER


@numba.njit(**INLINED)
def barter(s: Arrays, g: int, choice: int) -> int:
    """E2: the acting seat's `choice` (a BarterChoice: ACCEPT, FORFEIT, ADD + c or
    SUBMIT); returns the seat that carries out the card once the barter ends, else
    NO_BARTER."""
    actor = s.to_act[g]
    if BARTER_ADD <= choice < BARTER_ADD + N_COLOURS:
        s.pending[g, choice - BARTER_ADD] += 1
    elif choice == BARTER_SUBMIT:
        for c in range(N_COLOURS):
            s.offer[g, c] = s.pending[g, c]
            s.pending[g, c] = 0
        s.offers[g] += 1
        s.offer_by[g] = actor
        s.to_act[g] = s.opener[g] + s.responder[g] - actor
    elif choice == BARTER_ACCEPT:  # B7.5: the offerer gives the offer and carries out the card
        giver = s.offer_by[g]
        for c in range(N_COLOURS):
            s.gems[g, giver, c] -= s.offer[g, c]
            s.gems[g, actor, c] += s.offer[g, c]
        return int(giver)
    elif choice == BARTER_FORFEIT:  # B7.2: the other party carries out the card
        return int(s.responder[g])
    return NO_BARTER


@numba.njit(**INLINED)
def finish_barter(s: Arrays, k: Rules, g: int, winner: int) -> int:
    """B7.5: the barter's winner carries out its card; returns the card of the turn's
    next barter (NO_BARTER if none: the turn ends)."""
    act(s, k, g, winner, int(s.barter_card[g]))
    queued = int(s.queued_card[g])
    s.queued_card[g] = NO_BARTER
    return queued


@numba.njit(**INLINED)
def end_turn(s: Arrays, k: Rules, g: int) -> bool:
    """B9.1: clear the barter; a round ends after a turn in which some merchant completed
    its lap (bonus scoring, then the next round or the end of the game, B9.6); otherwise
    the next turn. Returns whether the game goes on (to its next movement)."""
    s.barter_card[g] = s.queued_card[g] = NO_BARTER
    s.opener[g] = s.responder[g] = s.to_act[g] = s.offer_by[g] = NO_BARTER
    for c in range(N_COLOURS):
        s.offer[g, c] = s.pending[g, c] = 0
    s.offers[g] = 0
    lapped = False
    for seat in range(s.progress.shape[1]):
        lapped |= s.progress[g, seat] >= k.n_archways
    if not lapped:
        s.turn[g] += 1
    else:
        score_round(s, k, g)
        if s.round[g] == ROUNDS - 1:
            s.phase[g] = OVER
        else:
            s.round[g] += 1
            s.turn[g] = 0
    return s.phase[g] != OVER


@numba.njit(**INLINED)
def score_round(s: Arrays, k: Rules, g: int) -> None:
    """B9.2 majorities (returns to the carpets), B9.3 lap bonus, B9.5 start disks."""
    p = s.gems.shape[1]
    for c in range(N_COLOURS):
        most = 0
        for seat in range(p):
            most = max(most, int(s.gems[g, seat, c]))
        if most <= 0:
            continue
        holders = 0
        for seat in range(p):
            holders += s.gems[g, seat, c] == most
        bonus = k.majority_bonus[s.round[g], c] // holders
        back = min(MAJORITY_RETURN if holders == 1 else TIE_RETURN, most)
        for seat in range(p):
            if s.gems[g, seat, c] == most:
                s.score[g, seat] += bonus
                s.gems[g, seat, c] -= back
                s.carpet[g, c] += back
    for seat in range(p):
        if s.progress[g, seat] >= k.n_archways:
            s.score[g, seat] += LAP_BONUS
        s.start[g, seat] = s.position[g, seat]
        s.progress[g, seat] = 0


@numba.njit(**INLINED)
def barter_id_legal(
    choice: int, exists: bool, empty: bool, can_add: bool, can_submit: bool
) -> bool:
    """Whether barter id ACCEPT + `choice` is legal for the acting seat (`can_add`: for
    the ADD of this colour)."""
    if choice == BARTER_ACCEPT:
        return exists and empty
    if choice == BARTER_FORFEIT:
        return not exists and empty
    if choice == BARTER_SUBMIT:
        return can_submit
    return can_add


@numba.njit(**INLINED)
def write_mask(s: Arrays, k: Rules, g: int, phase_changed: bool) -> None:
    """Game g's masks: the phase's template where the phase changed (every seat picks in
    SETUP and SELECT; NOOP only otherwise), then the acting seat's barter ids (E2, "no
    dead ends": a raise can be built iff the holding beats the standing offer) and every
    other seat's NOOP."""
    legal, templates, weights = s.legal, k.templates, k.key_weights
    gems, pending, offer = s.gems, s.pending, s.offer
    phase = s.phase[g]
    p, a = legal.shape[1], legal.shape[2]
    if phase_changed:
        for seat in range(p):
            for i in range(a):
                legal[g, seat, i] = templates[phase, i]
    to_act = int(s.to_act[g])
    actor = max(to_act, 0)
    exists = s.offer_by[g] >= 0
    empty = True
    offer_key = held_key = pending_key = 0  # the B8 order as one number (tables.bundle_key)
    for c in range(N_COLOURS):
        empty &= pending[g, c] == 0
        offer_key += int(offer[g, c]) * int(weights[c])
        held_key += int(gems[g, actor, c]) * int(weights[c])
        pending_key += int(pending[g, c]) * int(weights[c])
    can_raise = not exists or held_key > offer_key
    can_submit = not empty and (not exists or pending_key > offer_key)
    for seat in range(p):
        is_actor = seat == to_act
        for j in range(N_BARTER_IDS):
            c = min(max(j - BARTER_ADD, 0), N_COLOURS - 1)  # the colour of an ADD id
            can_add = gems[g, actor, c] > pending[g, c] and can_raise
            ok = barter_id_legal(j, exists, empty, can_add, can_submit)
            legal[g, seat, k.accept + j] = is_actor and ok
        legal[g, seat, 0] = templates[phase, 0] and not is_actor


@numba.njit(**ENTRY)
def score_rounds(state: tuple[np.ndarray, ...], rules: tuple[Any, ...], rows: np.ndarray) -> None:
    """`score_round` of every game of `rows` int64[n] (`state` and `rules` as for
    `step_games`)."""
    s, k = Arrays(*state), Rules(*rules)
    for g in rows:
        score_round(s, k, g)
