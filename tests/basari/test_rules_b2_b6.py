"""Rule tests for docs/basari/rules.md B2-B6: board, set-up, movement, cards, actions.

Each test builds a hand-made position (basari_helpers.position), plays through the reference
engine and checks what the rule says, with the numbers written out as the spec states them.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from asara_env.basari.chance import Kind, die, start_archway
from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import BOARD, validate_board
from asara_env.basari.phases import Phase
from asara_env.basari.reference import State, new_game, public_view, step
from tests.basari.helpers import (
    CARD,
    DIE,
    GEMS,
    NOOP,
    POINTS,
    find_seed,
    legal,
    play,
    position,
)

# B2.4's table as the spec prints it: (points, gems as letters), ids 0..27
SPEC_BOARD = """
5 RYG, 7 BB, 4 RYGB, 6 YG, 4 RRB, 6 GBB, 5 YYG,
5 YGB, 7 RR, 4 RYGB, 6 GB, 4 RYY, 6 RRB, 5 GGB,
5 RGB, 7 YY, 4 RYGB, 6 RB, 4 YGG, 6 RYY, 5 RBB,
5 RYB, 7 GG, 4 RYGB, 6 RY, 4 GBB, 6 YGG, 5 RRY
"""


def _spec_board() -> np.ndarray:
    rows = []
    for cell in SPEC_BOARD.replace("\n", " ").split(","):
        points, letters = cell.split()
        rows.append([int(points)] + [letters.count(c) for c in "RYGB"])
    return np.array(rows)


def _cancel_all(state: State) -> list[int]:
    """A joint action in which every seat plays Points (3+ players: cancelled, B5.2)."""
    return [CARD[POINTS]] * state.num_players


# ----------------------------------------------------------------------------------- B2 board
def test_B2_1_movement_is_clockwise_and_wraps_round_the_loop() -> None:
    seed = find_seed(lambda s: int(die(s, 0, 1, 0, Kind.MOVE)) == 5)
    state = position(3, seed=seed, start=[20, 0, 0], progress=[7, 1, 1])
    assert state.position[0] == 27
    play(state, _cancel_all(state))  # all cancelled: the turn ends, the next movement runs
    assert state.turn == 1 and state.move_roll[0] == 5
    assert state.position[0] == 4  # 27 + 5 = 32, i.e. archway 4 of 28
    assert state.progress[0] == 12


def test_B2_2_an_archway_gives_its_points_and_its_gems() -> None:
    state = position(3, start=[0, 0, 0], progress=[4, 6, 1])  # archways 4, 6, 1
    play(state, [CARD[POINTS], CARD[GEMS], CARD[DIE]])
    assert state.score[0] == 4  # archway 4 is "4 RRB"
    assert state.gems[1].tolist() == [3, 5, 4, 3]  # archway 6 is "5 YYG": +2 yellow +1 green


def test_B2_2_merchants_and_disks_share_archways_and_passing_has_no_effect() -> None:
    state = position(3, start=[3, 3, 3], progress=[2, 2, 2])
    assert len(set(state.position.tolist())) == 1
    assert legal(state, 0) == legal(state, 1) == {CARD[c] for c in (DIE, POINTS, GEMS)}
    play(state, [CARD[DIE], CARD[POINTS], CARD[GEMS]])
    assert state.score[1] == 6  # archway 5 is "6 GBB", shared by all three


def test_B2_4_default_board_is_the_spec_table() -> None:
    assert BOARD.shape == (28, 5)
    assert np.array_equal(BOARD, _spec_board())
    assert BOARD[:, 1:].sum(axis=0).tolist() == [20, 20, 20, 20]
    assert (BOARD[:, 1:] > 0).sum(axis=0).tolist() == [16, 16, 16, 16]
    assert BOARD[:, 0].sum() == 148
    assert sorted(np.bincount(BOARD[:, 0])[4:].tolist()) == [4, 8, 8, 8]
    assert BOARD[:, 0].min() == 4 and BOARD[:, 0].max() == 7
    assert BOARD[:, 1:].sum(axis=1).min() == 2 and BOARD[:, 1:].sum(axis=1).max() == 4


def test_B2_4_a_user_board_replaces_the_default() -> None:
    board: Any = [[9, 1, 0, 0, 0]] * 10  # a list: the config takes any integer array-like
    config = BasariConfig(3, board=board)
    assert config.n_archways == 10 and config.n_actions == 21
    state = position(config=config, start=[0, 0, 0], progress=[3, 3, 3])
    card = config.actions.card
    assert (card(DIE), card(POINTS), card(GEMS)) == (11, 12, 13)
    play(state, [card(POINTS), card(GEMS), card(DIE)])
    assert state.score[0] == 9 and state.gems[1].tolist() == [4, 3, 3, 3]


@pytest.mark.parametrize(
    ("board", "message"),
    [
        ([[5, 1, 1, 1]], "shape"),
        ([[5, 1, 1, 1, -1]], r"board\[0\].blue must be from 0 to 25, got -1"),
        ([[5, 1, 1, 1, 1], [5, 0, 26, 0, 0]], r"board\[1\].yellow must be from 0 to 25, got 26"),
        ([[5.5, 1, 1, 1, 1]], "board\\[0\\].points must be an integer, got 5.5"),
        ([[float("inf"), 1, 1, 1, 1]], "must be an integer, got inf"),
        ([[1e300, 1, 1, 1, 1]], "points must be from 0 to 1000, got 1e\\+300"),
        ([[2.0**63, 1, 1, 1, 1]], "got 9.223372036854776e\\+18"),
        ([[2**64 - 1, 1, 1, 1, 1]], "got 18446744073709551615"),
        (np.array([[2**64 - 1, 1, 1, 1, 1]], np.uint64), "got 18446744073709551615"),
        ([[2**40, 1, 1, 1, 1]], "points must be from 0 to 1000, got 1099511627776"),
        ([[True, 1, 1, 1, 1]], "must be an integer, got True"),
        (np.zeros((0, 5)), "1..1000 archways"),
    ],
)
def test_B2_4_a_bad_board_is_refused_naming_what_is_wrong(board: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        validate_board(board)
    with pytest.raises(ValueError, match=message):
        BasariConfig(3, board=board)


def test_B2_3_carpets_hold_the_supply_and_scores_run_past_the_80_track() -> None:
    state = position(3, start=[0, 0, 0], progress=[1, 2, 1], score=[78, 0, 0])
    state.score[0] = 78
    play(state, [CARD[POINTS], CARD[GEMS], CARD[DIE]])  # "7 BB"; seat 1 on "4 RYGB"
    assert state.score[0] == 85  # the track wraps, the score does not
    assert state.carpet.tolist() == [15, 15, 15, 15]  # seat 1 took one of each colour
    assert (state.carpet + state.gems.sum(axis=0)).tolist() == [25, 25, 25, 25]


# ----------------------------------------------------------------------------------- B3 set-up
@pytest.mark.parametrize(("players", "carpet"), [(2, 19), (3, 16), (4, 13)])
def test_B3_1_each_player_takes_3_of_each_colour(players: int, carpet: int) -> None:
    state = new_game(BasariConfig(players), 1)
    assert state.gems.tolist() == [[3, 3, 3, 3]] * players
    assert state.carpet.tolist() == [carpet] * 4


def test_B3_2_every_seat_sees_every_seats_gems() -> None:
    gems = [[5, 0, 1, 2], [0, 7, 3, 3], [4, 5, 5, 4]]
    state = position(3, gems=gems)
    for viewer in range(3):
        seats = public_view(state, viewer)["seats"]
        assert [seats[(s - viewer) % 3]["gems"] for s in range(3)] == gems


def test_B3_3_points_markers_start_at_zero() -> None:
    assert new_game(BasariConfig(4), 7).score.tolist() == [0, 0, 0, 0]


def test_B3_4_start_archways_chosen_at_once_and_may_be_shared() -> None:
    state = new_game(BasariConfig(3), 11)
    assert state.phase == Phase.SETUP
    starts = {1 + k for k in range(28)}
    assert all(legal(state, s) == starts for s in range(3))
    step(state, [1 + 5, 1 + 5, 1 + 20])  # two seats share archway 5
    assert state.start.tolist() == [5, 5, 20]
    rolls = [int(die(11, 0, 0, s, Kind.MOVE)) for s in range(3)]
    assert state.position.tolist() == [(5 + rolls[0]) % 28, (5 + rolls[1]) % 28, 20 + rolls[2]]
    assert state.phase == Phase.SELECT


def test_B3_4_random_start_archways_come_from_the_seed() -> None:
    for seed in range(5):
        state = new_game(BasariConfig(4, start_mode="random"), seed)
        assert state.phase == Phase.SELECT
        expected = [int(start_archway(seed, s, 28)) for s in range(4)]
        assert state.start.tolist() == expected
    starts = {int(start_archway(seed, 0, 28)) for seed in range(300)}
    assert starts == set(range(28))


def test_B3_5_every_card_is_available_on_every_turn() -> None:
    state = new_game(BasariConfig(3), 2)
    step(state, [1, 1, 1])
    cards = {CARD[c] for c in (DIE, POINTS, GEMS)}
    for _ in range(12):
        if state.phase != Phase.SELECT:
            break
        assert all(legal(state, s) == cards for s in range(3))
        play(state, [CARD[DIE]] * 3)  # the same card every turn: cancelled, still available


def test_B3_6_no_start_player_every_seat_decides_at_once() -> None:
    state = new_game(BasariConfig(4), 3)
    assert all(NOOP not in legal(state, s) for s in range(4))
    step(state, [1, 2, 3, 4])
    assert all(NOOP not in legal(state, s) for s in range(4))


# --------------------------------------------------------------------------------- B4 movement
def test_B4_1_three_rounds_of_turns_each_a_movement_then_an_action_phase() -> None:
    state = new_game(BasariConfig(3), 21)
    step(state, [1, 10, 19])
    rounds_seen, turns = {0}, 0
    while state.phase != Phase.OVER:
        assert state.move_roll.min() >= 1 and (state.revealed == -1).all()  # moved, not acted
        before = state.progress.copy()
        play(state, [CARD[POINTS]] * 3)  # the action phase (all cancelled)
        turns += 1
        if state.phase == Phase.SELECT and state.turn > 0:
            assert (state.progress - before == state.move_roll).all()  # the next movement
        rounds_seen.add(state.round)
    assert rounds_seen == {0, 1, 2} and 3 <= turns <= 84


def test_B4_2_every_seat_moves_by_its_own_die() -> None:
    state = position(4, seed=5, start=[0, 7, 14, 21], progress=[1, 1, 1, 1])
    play(state, [CARD[POINTS]] * 4)  # all four cancelled
    rolls = [int(die(5, 0, 1, s, Kind.MOVE)) for s in range(4)]
    assert state.move_roll.tolist() == rolls
    assert state.position.tolist() == [(k + 1 + r) % 28 for k, r in zip([0, 7, 14, 21], rolls)]
    assert len(set(int(die(5, 0, t, s, Kind.MOVE)) for t in range(6) for s in range(4))) > 1


def test_B4_3_a_lap_is_completed_on_or_past_the_own_start_disk() -> None:
    # seat 0 is 2 short of its disk; seat 1's disk lies on the way and does not count
    short = find_seed(lambda s: int(die(s, 0, 1, 0, Kind.MOVE)) == 1)
    state = position(3, seed=short, start=[10, 9, 0], progress=[26, 1, 1])
    play(state, _cancel_all(state))
    assert state.progress[0] == 27 and not state.lapped[0]  # passed seat 1's disk only
    land = find_seed(lambda s: int(die(s, 0, 1, 0, Kind.MOVE)) == 2)
    state = position(3, seed=land, start=[10, 0, 0], progress=[26, 1, 1])
    play(state, _cancel_all(state))
    assert state.position[0] == 10 and state.lapped[0]  # landed on its own disk


def test_B4_3_a_die_action_adds_to_progress_and_can_complete_the_lap() -> None:
    seed = find_seed(lambda s: int(die(s, 0, 0, 0, Kind.DIE_ACTION)) == 3)
    state = position(3, seed=seed, start=[0, 0, 0], progress=[26, 1, 1])
    play(state, [CARD[DIE], CARD[POINTS], CARD[GEMS]])
    # 26 + 3 = 29 >= 28: the lap is complete and the round ends (B9.1). Seat 2 took 2 blue
    # at archway 1 ("7 BB"); red, yellow, green are tied three ways (4 + 3 + 2 each).
    assert state.round == 1 and state.turn == 0
    assert state.score.tolist() == [6 - 3 + 10 + 9, 7 + 9, 6 + 9]


def test_B4_4_a_lap_does_not_interrupt_the_turn() -> None:
    seed = find_seed(lambda s: int(die(s, 0, 1, 1, Kind.MOVE)) == 6)
    state = position(3, seed=seed, start=[0, 0, 0], progress=[1, 25, 1], turn=0)
    play(state, _cancel_all(state))  # next movement: seat 1 laps (25 + 6 >= 28)
    assert state.lapped[1] and state.phase == Phase.SELECT and state.round == 0
    pos = [int(p) for p in state.position]
    points = [int(BOARD[p, 0]) for p in pos]
    play(state, [CARD[GEMS], CARD[POINTS], CARD[DIE]])  # the action phase is played as usual
    assert state.round == 1  # and the round ends after it
    assert state.score[1] >= points[1] + 10


# ------------------------------------------------------------------------------------ B5 cards
def test_B5_1_cards_are_revealed_together() -> None:
    state = position(4, start=[0, 1, 2, 3], progress=[1, 1, 1, 1])
    play(state, [CARD[POINTS], CARD[POINTS], CARD[GEMS], CARD[GEMS]])
    assert state.phase == Phase.BARTER
    assert state.revealed.tolist() == [POINTS, POINTS, GEMS, GEMS]


def test_B5_2_one_acts_two_barter_three_cancel() -> None:
    state = position(4, start=[0, 0, 0, 0], progress=[4, 4, 4, 4])  # all on "4 RRB"
    play(state, [CARD[POINTS], CARD[GEMS], CARD[GEMS], CARD[DIE]])
    assert state.score[0] == 4  # k = 1: acts
    assert state.phase == Phase.BARTER and state.barter_card == GEMS  # k = 2: barter
    assert {state.opener, state.responder} == {1, 2}
    state = position(4, start=[0, 0, 0, 0], progress=[4, 4, 4, 4])
    play(state, [CARD[POINTS], CARD[POINTS], CARD[POINTS], CARD[GEMS]])
    assert state.score.tolist() == [0, 0, 0, 0]  # k = 3: cancelled
    assert state.gems[3].tolist() == [5, 3, 3, 4] and state.phase == Phase.SELECT


def test_B5_3_solo_actions_come_before_the_barters() -> None:
    state = position(3, start=[0, 0, 0], progress=[4, 4, 4])
    play(state, [CARD[POINTS], CARD[POINTS], CARD[GEMS]])
    assert state.phase == Phase.BARTER
    assert state.gems[2].tolist() == [5, 3, 3, 4]  # already taken while the barter waits


def test_B5_3_barters_run_die_points_gemstones() -> None:
    state = position(4, start=[0, 0, 0, 0], progress=[4, 4, 4, 4])
    play(state, [CARD[GEMS], CARD[DIE], CARD[GEMS], CARD[DIE]])
    assert state.barter_card == DIE and state.queued_card == GEMS
    state = position(4, start=[0, 0, 0, 0], progress=[4, 4, 4, 4])
    play(state, [CARD[GEMS], CARD[POINTS], CARD[GEMS], CARD[POINTS]])
    assert state.barter_card == POINTS and state.queued_card == GEMS


def test_B5_4_a_cancelled_player_does_nothing_else() -> None:
    state = position(4, start=[0, 0, 0, 0], progress=[4, 4, 4, 4])
    play(state, [CARD[DIE], CARD[DIE], CARD[DIE], CARD[POINTS]])
    assert state.score[:3].tolist() == [0, 0, 0] and state.action_roll.tolist() == [0] * 4
    assert state.gems[:3].tolist() == [[3, 3, 3, 3]] * 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_B5_5_conflict_patterns(players: int) -> None:
    patterns = set()
    for cards in itertools.product(range(3), repeat=players):
        state = position(players, start=[0] * players, progress=[4] * players)
        play(state, [CARD[c] for c in cards])
        counts = tuple(sorted((c for c in np.bincount(cards, minlength=3) if c), reverse=True))
        patterns.add(counts)
        if players == 4:
            assert state.phase == Phase.BARTER or max(counts) >= 3  # pigeonhole
        if players == 2:
            assert state.phase == Phase.BARTER or counts == (1, 1)  # never cancelled
    expected = {
        2: {(1, 1), (2,)},
        3: {(1, 1, 1), (2, 1), (3,)},
        4: {(2, 2), (2, 1, 1), (3, 1), (4,)},
    }[players]
    assert patterns == expected


# ---------------------------------------------------------------------------------- B6 actions
def test_B6_1_gemstones_take_the_archway_gems_capped_by_the_carpets() -> None:
    gems = [[10, 3, 3, 3], [14, 3, 3, 3], [0, 3, 3, 3]]  # red carpet holds 1
    state = position(3, start=[0, 0, 0], progress=[4, 1, 1], gems=gems)  # seat 0 on "4 RRB"
    play(state, [CARD[GEMS], CARD[POINTS], CARD[DIE]])
    assert state.gems[0].tolist() == [11, 3, 3, 4]  # only 1 red was left
    assert state.carpet.tolist() == [0, 16, 16, 15]


def test_B6_2_points_score_the_archway_number() -> None:
    state = position(3, start=[0, 0, 0], progress=[1, 2, 3])  # "7 BB", "4 RYGB", "6 YG"
    play(state, [CARD[DIE], CARD[POINTS], CARD[GEMS]])
    assert state.score[1] == 4


def test_B6_3_die_action_seed_example_roll_4_moves_4_and_scores_2() -> None:
    seed = find_seed(lambda s: int(die(s, 0, 0, 0, Kind.DIE_ACTION)) == 4)
    state = position(3, seed=seed, start=[0, 0, 0], progress=[3, 1, 1])
    play(state, [CARD[DIE], CARD[POINTS], CARD[GEMS]])
    next_roll = int(die(seed, 0, 1, 0, Kind.MOVE))
    assert state.score[0] == 2
    assert state.progress[0] == 3 + 4 + next_roll  # moved 4, then the next turn's move
    assert state.position[0] == 7 + next_roll


def test_B6_4_the_action_uses_the_archway_after_the_movement_phase() -> None:
    seed = find_seed(lambda s: int(die(s, 0, 1, 0, Kind.MOVE)) == 3)
    state = position(3, seed=seed, start=[0, 0, 0], progress=[1, 1, 1])
    play(state, _cancel_all(state))
    assert state.position[0] == 4  # moved from archway 1 ("7 BB") to archway 4 ("4 RRB")
    play(state, [CARD[POINTS], CARD[GEMS], CARD[DIE]])
    assert state.score[0] == 4
