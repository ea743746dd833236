"""The automatic parts of a turn, one function per rule, each on a set of games `rows`
(int64 indices, distinct): movement (B4.2), the actions (B6), the start and end of a
barter (B7), the end of a turn and of a round (B9). All chance comes from the counter-based
draws of each game's seed (E4)."""

from __future__ import annotations

import numpy as np

from asara_env.basari import chance
from asara_env.basari.constants import (
    DIE_ACTION_BASE,
    LAP_BONUS,
    MAJORITY_BONUS,
    MAJORITY_RETURN,
    ROUNDS,
    TIE_RETURN,
    Card,
)
from asara_env.basari.core.state import BasariState
from asara_env.basari.core.tables import tables
from asara_env.basari.phases import Phase

I8, I16, I32 = np.int8, np.int16, np.int32
CARDS = np.arange(len(Card))
SELECT, BARTER, OVER = int(Phase.SELECT), int(Phase.BARTER), int(Phase.OVER)


def movement(state: BasariState, rows: np.ndarray) -> None:
    """B4.2: every merchant moves by its own die; the turn's cards and rolls are cleared;
    the games wait for the card choice (SELECT)."""
    if rows.size == 0:
        return
    n = state.config.n_archways
    seats = np.arange(state.config.num_players)
    roll = chance.die(
        state.seed[rows, None],
        state.round[rows, None],
        state.turn[rows, None],
        seats[None, :],
        chance.Kind.MOVE,
    )
    state.revealed[rows] = -1
    state.action_roll[rows] = 0
    state.move_roll[rows] = roll
    state.position[rows] = (state.position[rows] + roll) % n
    state.progress[rows] += roll.astype(I16)
    state.phase[rows] = SELECT


def act(state: BasariState, rows: np.ndarray, seats: np.ndarray, cards: np.ndarray) -> None:
    """B6: seat `seats[j]` of game `rows[j]` carries out card `cards[j]`."""
    for card, action in ACTIONS:
        pick = cards == card
        if pick.any():
            action(state, rows[pick], seats[pick])


def _die_action(state: BasariState, rows: np.ndarray, seats: np.ndarray) -> None:
    """B6.3: roll, move that far (counts for the lap), score 6 - roll."""
    roll = chance.die(
        state.seed[rows], state.round[rows], state.turn[rows], seats, chance.Kind.DIE_ACTION
    )
    n = state.config.n_archways
    state.action_roll[rows, seats] = roll
    state.position[rows, seats] = (state.position[rows, seats] + roll) % n
    state.progress[rows, seats] += roll.astype(I16)
    state.score[rows, seats] += (DIE_ACTION_BASE - roll).astype(I32)


def _points(state: BasariState, rows: np.ndarray, seats: np.ndarray) -> None:
    """B6.2: score the archway's number."""
    state.score[rows, seats] += tables(state.config).points[state.position[rows, seats]]


def _gems(state: BasariState, rows: np.ndarray, seats: np.ndarray) -> None:
    """B6.1: take the archway's gems from the carpets, all that are left where too few."""
    shown = tables(state.config).board_gems[state.position[rows, seats]]
    taken = np.minimum(shown, state.carpet[rows])
    state.gems[rows, seats] += taken
    state.carpet[rows] -= taken


ACTIONS = ((int(Card.DIE), _die_action), (int(Card.POINTS), _points), (int(Card.GEMS), _gems))


def start_barter(state: BasariState, rows: np.ndarray, cards: np.ndarray) -> None:
    """B7.1: the two seats that revealed `cards` barter; the higher score opens, a coin
    (C3, drawn for the lower seat) decides between equal scores."""
    if rows.size == 0:
        return
    p = state.config.num_players
    chose = state.revealed[rows] == cards[:, None]
    low = np.argmax(chose, axis=1)
    high = p - 1 - np.argmax(chose[:, ::-1], axis=1)
    s_low, s_high = state.score[rows, low], state.score[rows, high]
    coin = chance.coin(state.seed[rows], state.round[rows], state.turn[rows], low)
    low_opens = (s_low > s_high) | ((s_low == s_high) & (coin == 0))
    opener = np.where(low_opens, low, high).astype(I8)
    state.barter_card[rows] = cards
    state.opener[rows] = opener
    state.responder[rows] = np.where(low_opens, high, low)
    state.to_act[rows] = opener
    state.offer[rows] = 0
    state.offer_by[rows] = -1
    state.offers[rows] = 0
    state.pending[rows] = 0
    state.phase[rows] = BARTER


# what follows a resolution in games `rows`: (games starting a barter, its card, games
# whose turn ends); `go_on` carries it out
Next = tuple[np.ndarray, np.ndarray, np.ndarray]


def finish_barter(state: BasariState, rows: np.ndarray, winners: np.ndarray) -> Next:
    """B7.5: the barter's winner carries out its card; then the turn's next barter starts,
    or the turn ends (returned for `go_on`)."""
    act(state, rows, winners, state.barter_card[rows])
    queued = state.queued_card[rows]
    more = queued >= 0
    state.queued_card[rows] = -1
    return rows[more], queued[more], rows[~more]


def go_on(state: BasariState, nexts: list[Next]) -> None:
    """Start the barters and end the turns of every `Next` at once (their games are
    distinct)."""
    if not nexts:
        return
    start_barter(
        state, np.concatenate([n[0] for n in nexts]), np.concatenate([n[1] for n in nexts])
    )
    end_turn(state, np.concatenate([n[2] for n in nexts]))


def resolve_cards(state: BasariState, rows: np.ndarray, cards: np.ndarray) -> Next:
    """B5.2-B5.3: reveal `cards` [n, P]; solo cards act at once in card order, cards chosen
    by three or more are cancelled, pairs barter in card order (the first one's start, or
    the end of the turn, is returned for `go_on`)."""
    state.revealed[rows] = cards
    chosen = cards[:, :, None] == CARDS  # [n, P, card]
    count = chosen.sum(axis=1)
    for card, action in ACTIONS:
        solo = count[:, card] == 1
        if solo.any():
            action(state, rows[solo], np.argmax(chosen[solo, :, card], axis=1))
    pair = count == 2
    barter = pair.any(axis=1)
    first = np.argmax(pair, axis=1)
    pair[np.arange(len(rows)), first] = False
    second = np.where(pair.any(axis=1), np.argmax(pair, axis=1), -1)
    state.queued_card[rows[barter]] = second[barter]
    return rows[barter], first[barter].astype(I8), rows[~barter]


def end_turn(state: BasariState, rows: np.ndarray) -> None:
    """B9.1: clear the barter; a round ends after a turn in which some merchant completed
    its lap (bonus scoring, then the next round or the end of the game, B9.6); otherwise
    the next turn. Every game not over moves on to its next movement."""
    if rows.size == 0:
        return
    state.barter_card[rows] = state.queued_card[rows] = -1
    state.opener[rows] = state.responder[rows] = state.to_act[rows] = state.offer_by[rows] = -1
    state.offer[rows] = state.pending[rows] = 0
    state.offers[rows] = 0
    lapped = (state.progress[rows] >= state.config.n_archways).any(axis=1)
    state.turn[rows[~lapped]] += 1
    ended = rows[lapped]
    if ended.size:
        score_round(state, ended)
        last = state.round[ended] == ROUNDS - 1
        state.phase[ended[last]] = OVER
        state.round[ended[~last]] += 1
        state.turn[ended[~last]] = 0
    movement(state, rows[state.phase[rows] != OVER])


def score_round(state: BasariState, rows: np.ndarray) -> None:
    """B9.2 majorities (returns to the carpets), B9.3 lap bonus, B9.5 start disks."""
    gems = state.gems[rows].astype(I32)  # [n, P, colour]
    most = gems.max(axis=1, keepdims=True)
    holds = (gems == most) & (most > 0)
    k = holds.sum(axis=1, keepdims=True)
    bonus = MAJORITY_BONUS[state.round[rows]][:, None, :] // np.maximum(k, 1)
    back = np.where(k == 1, np.minimum(MAJORITY_RETURN, most), np.minimum(TIE_RETURN, most))
    back = holds * back
    lapped = state.progress[rows] >= state.config.n_archways
    state.score[rows] += (holds * bonus).sum(axis=2).astype(I32) + LAP_BONUS * lapped
    state.gems[rows] -= back.astype(I8)
    state.carpet[rows] += back.sum(axis=1).astype(I8)
    state.start[rows] = state.position[rows]
    state.progress[rows] = 0
