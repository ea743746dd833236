"""The reference engine: one BASARI game, stepped by joint actions (one id per seat).

`step` checks every seat's action first and raises `IllegalActionError` naming the first
illegal one, leaving the state unchanged; then applies the decisions and runs every
automatic step up to the next decision (E1): movement, reveal, solo actions, barter
openings, round-end scoring. Chance comes only from `chance` draws of the game seed (E4).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

from asara_env.basari.actions import Group
from asara_env.basari.chance import Kind, check_seed, coin, die, start_archway
from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import DIE_ACTION_BASE, N_CARDS, ROUNDS, Card
from asara_env.basari.phases import Phase
from asara_env.basari.reference.rules import action_name, as_action, illegal_reason
from asara_env.basari.reference.scoring import RoundEnd, end_round
from asara_env.basari.reference.state import State
from asara_env.common.errors import IllegalActionError


def new_game(config: BasariConfig | None = None, seed: int = 0) -> State:
    """A new game (B3). With start_mode "random" the start archways are drawn (C4) and the
    first movement is made; otherwise the game waits in SETUP."""
    config = BasariConfig() if config is None else BasariConfig.check(config)
    state = State.initial(config, check_seed(seed))
    if config.start_mode == "random":
        seats = np.arange(config.num_players)
        _place(state, start_archway(state.seed, seats, config.n_archways))
    return state


def check_actions(state: State, actions: Sequence[object]) -> list[int]:
    """The joint action as ints, or IllegalActionError naming the first bad seat. The
    joint action is a list, tuple or one-dimensional array of one id per seat (a set or a
    dict is refused: it has no seat order); each id an int or numpy integer, reported as
    given when out of range."""
    p = state.num_players
    if state.phase == Phase.OVER:
        raise IllegalActionError(-1, actions, "-", "OVER", "the game is over")
    ordered = isinstance(actions, (list, tuple)) or (
        isinstance(actions, np.ndarray) and actions.ndim == 1
    )
    if not ordered:  # a set or a dict has no seat order; a string is not ids
        raise IllegalActionError(
            -1,
            actions,
            "-",
            state.phase.name,
            f"need a list of one id per seat, got {type(actions).__name__}",
        )
    joint = list(actions)
    if len(joint) != p:
        raise IllegalActionError(
            -1, actions, "-", state.phase.name, f"need {p} actions (one per seat), got {len(joint)}"
        )
    for seat, action in enumerate(joint):
        reason = illegal_reason(state, seat, action)
        if reason is not None:
            name = action_name(state, action)
            raise IllegalActionError(seat, action, name, state.phase.name, reason)
    return cast("list[int]", [as_action(a) for a in joint])  # illegal_reason refused non-ints


def step(state: State, actions: Sequence[object]) -> RoundEnd | None:
    """Play one joint action (in place). NOOP for seats without a decision. Returns what
    the round's end scored if the step ended a round (B9), else None."""
    joint = check_actions(state, actions)
    layout = state.config.actions
    if state.phase == Phase.SETUP:
        _place(state, np.array([layout.decode(a)[1] for a in joint], np.int64))
        return None
    if state.phase == Phase.SELECT:
        return _reveal(state, cast("list[int]", [layout.decode(a)[1] for a in joint]))
    group, arg = layout.decode(joint[state.to_act])
    return _barter(state, group, arg)


def _place(state: State, archways: np.ndarray) -> None:
    """B3.4: start disks and merchants on the chosen archways; then the first movement."""
    state.start = archways.astype(np.int64)
    state.position = state.start.copy()
    state.progress[:] = 0
    _movement(state)


def _movement(state: State) -> None:
    """B4.2: every seat rolls its own die (C1) and moves clockwise; then SELECT."""
    seats = np.arange(state.num_players)
    state.revealed[:] = -1
    state.action_roll[:] = 0
    state.move_roll = die(state.seed, state.round, state.turn, seats, Kind.MOVE)
    state.position = (state.position + state.move_roll) % state.n_archways
    state.progress += state.move_roll
    state.phase = Phase.SELECT


def _reveal(state: State, cards: list[int]) -> RoundEnd | None:
    """B5.2-B5.3: solo cards act at once (Die, Points, Gemstones); three or more cancel;
    pairs barter in card order."""
    state.revealed = np.array(cards, np.int64)
    counts = np.bincount(state.revealed, minlength=N_CARDS)
    for card in range(N_CARDS):
        if counts[card] == 1:
            carry_out(state, int(np.flatnonzero(state.revealed == card)[0]), card)
    pairs = [card for card in range(N_CARDS) if counts[card] == 2]
    if pairs:
        state.queued_card = pairs[1] if len(pairs) > 1 else -1
        _open_barter(state, pairs[0])
        return None
    return _end_turn(state)


def carry_out(state: State, seat: int, card: int) -> None:
    """B6: the action of `card` for `seat`, at the archway its merchant stands on."""
    pos = state.position[seat]
    if card == Card.DIE:
        roll = int(die(state.seed, state.round, state.turn, seat, Kind.DIE_ACTION))
        state.action_roll[seat] = roll
        state.position[seat] = (pos + roll) % state.n_archways
        state.progress[seat] += roll
        state.score[seat] += DIE_ACTION_BASE - roll
    elif card == Card.POINTS:
        state.score[seat] += state.board[pos, 0]
    else:
        taken = np.minimum(state.board[pos, 1:], state.carpet)
        state.gems[seat] += taken
        state.carpet -= taken


def _open_barter(state: State, card: int) -> None:
    """B7.1: the two seats that played `card`; the higher score opens, a tie by the coin."""
    low, high = (int(s) for s in np.flatnonzero(state.revealed == card))
    if state.score[low] != state.score[high]:
        opener = low if state.score[low] > state.score[high] else high
    else:
        opener = high if coin(state.seed, state.round, state.turn, low) else low
    state.phase = Phase.BARTER
    state.barter_card = card
    state.opener, state.responder = opener, high if opener == low else low
    state.to_act = opener
    state.offer_by, state.offers = -1, 0
    state.offer[:] = 0
    state.pending[:] = 0


def _barter(state: State, group: Group, arg: int | None) -> RoundEnd | None:
    """E2, B7.2-B7.5: one decision of the party to act."""
    seat = state.to_act
    if group == Group.ADD:
        state.pending[arg] += 1
    elif group == Group.SUBMIT:
        state.offer = state.pending.copy()
        state.pending[:] = 0
        state.offer_by = seat
        state.offers += 1
        state.to_act = state.responder if seat == state.opener else state.opener
    elif group == Group.FORFEIT:
        return _close_barter(state, state.responder)
    else:  # ACCEPT: the offerer pays the acceptor and acts
        payer = state.offer_by
        state.gems[payer] -= state.offer
        state.gems[seat] += state.offer
        return _close_barter(state, payer)
    return None


def _close_barter(state: State, winner: int) -> RoundEnd | None:
    """B7.5: the winner carries out the card; then the next barter or the turn's end."""
    card, queued = state.barter_card, state.queued_card
    state.barter_card = state.queued_card = -1
    state.opener = state.responder = state.to_act = state.offer_by = -1
    state.offers = 0
    state.offer[:] = 0
    state.pending[:] = 0
    carry_out(state, winner, card)
    if queued >= 0:
        _open_barter(state, queued)
        return None
    return _end_turn(state)


def _end_turn(state: State) -> RoundEnd | None:
    """B9.1, B9.6: a round ends after a turn in which some merchant completed its lap;
    after the last round the game is over; otherwise the next movement."""
    scored = None
    if state.lapped.any():
        scored = end_round(state)
        if state.round == ROUNDS - 1:
            state.phase = Phase.OVER
            return scored
        state.round += 1
        state.turn = 0
    else:
        state.turn += 1
    _movement(state)
    return scored
