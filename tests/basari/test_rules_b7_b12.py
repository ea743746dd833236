"""Rule tests for docs/basari/rules.md B7-B12: bartering, the bundle order, round-end scoring,
game end and tie-breaks, information and invariants. Hand-made positions, numbers as the
spec writes them."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

import numpy as np
import pytest

from asara_env.basari.chance import coin
from asara_env.basari.config import BasariConfig
from asara_env.basari.phases import Phase
from asara_env.basari.reference import (
    State,
    higher,
    new_game,
    public_view,
    ranking_score,
    ranks,
    step,
    tie_break_key,
    violations,
    winners,
)
from asara_env.basari.reference.scoring import end_round
from tests.basari.helpers import (
    ACCEPT,
    ADD,
    BLUE,
    CARD,
    DIE,
    FORFEIT,
    GEMS,
    GREEN,
    NOOP,
    POINTS,
    RED,
    SUBMIT,
    YELLOW,
    barter,
    find_seed,
    legal,
    offer,
    play,
    position,
)


def _points_barter(
    score: Sequence[int] = (0, 0, 0), gems: Sequence[Sequence[int]] | None = None, seed: int = 0
) -> State:
    """Seats 0 and 1 play Points on archway 4 ("4 RRB"), seat 2 Gemstones: a barter."""
    state = position(3, seed=seed, start=[0, 0, 0], progress=[4, 4, 4], score=score, gems=gems)
    return play(state, [CARD[POINTS], CARD[POINTS], CARD[GEMS]])


# -------------------------------------------------------------------------------- B7 barter
def test_B7_1_the_player_with_more_points_opens() -> None:
    assert _points_barter(score=(5, 9, 0)).opener == 1
    assert _points_barter(score=(9, 5, 0)).opener == 0


def test_B7_1_tied_scores_a_coin_decides() -> None:
    low_opens = find_seed(lambda s: int(coin(s, 0, 0, 0)) == 0)
    high_opens = find_seed(lambda s: int(coin(s, 0, 0, 0)) == 1)
    assert _points_barter(score=(3, 3, 0), seed=low_opens).opener == 0
    assert _points_barter(score=(3, 3, 0), seed=high_opens).opener == 1
    share = np.mean([int(coin(s, 0, 0, 0)) for s in range(2000)])
    assert 0.45 < share < 0.55


def test_B7_2_the_opener_offers_any_bundle_or_forfeits() -> None:
    state = _points_barter(score=(5, 0, 0))
    assert legal(state, 0) == {FORFEIT} | {ADD[c] for c in range(4)}
    assert legal(state, 1) == {NOOP} and legal(state, 2) == {NOOP}
    barter(state, FORFEIT)  # the empty offer: B acts, no gems move
    assert state.score.tolist() == [5, 4, 0]
    assert state.gems[:2].tolist() == [[3, 3, 3, 3]] * 2
    assert state.phase == Phase.SELECT


def test_B7_2_a_player_with_no_gems_can_only_forfeit() -> None:
    gems = [[0, 0, 0, 0], [3, 3, 3, 3], [3, 3, 3, 3]]
    state = _points_barter(score=(5, 0, 0), gems=gems)
    assert legal(state, 0) == {FORFEIT}


def test_B7_3_facing_an_offer_accept_or_raise() -> None:
    state = offer(_points_barter(score=(5, 0, 0)), [0, 0, 0, 1])  # A offers 1 blue
    assert state.to_act == 1
    assert legal(state, 1) == {ACCEPT} | {ADD[c] for c in range(4)}
    assert FORFEIT not in legal(state, 1)


def test_B7_3_a_player_who_cannot_raise_must_accept() -> None:
    gems = [[3, 3, 3, 3], [0, 0, 1, 1], [3, 3, 3, 3]]
    state = offer(_points_barter(score=(5, 0, 0), gems=gems), [0, 0, 2, 0])  # 2 green
    assert legal(state, 1) == {ACCEPT}  # 1 green + 1 blue is lower than 2 green
    gems = [[3, 3, 3, 3], [0, 0, 2, 0], [3, 3, 3, 3]]
    state = offer(_points_barter(score=(5, 0, 0), gems=gems), [0, 0, 1, 1])
    assert legal(state, 1) == {ACCEPT, ADD[GREEN]}  # 2 green is the one raise


def test_B7_4_offers_alternate_and_may_take_back_earlier_gems() -> None:
    # the seed's example: 2 yellow, raised by 1 red + 1 yellow, raised by 3 blue
    state = _points_barter(score=(5, 0, 0))
    offer(state, [0, 2, 0, 0])
    assert state.offer_by == 0 and state.to_act == 1
    offer(state, [1, 1, 0, 0])
    assert state.offer_by == 1 and state.to_act == 0
    offer(state, [0, 0, 0, 3])
    assert state.offer.tolist() == [0, 0, 0, 3] and state.offer_by == 0 and state.offers == 3
    with pytest.raises(ValueError, match="not higher than the standing offer"):
        offer(state.copy(), [0, 0, 0, 2])  # B cannot lower the standing 3 blue
    offer(state, [0, 0, 1, 2])  # 1 green + 2 blue beats 3 blue
    assert state.offer.tolist() == [0, 0, 1, 2] and state.offer_by == 1


def test_B7_5_accepting_moves_exactly_the_offer_and_the_offerer_acts() -> None:
    state = offer(_points_barter(score=(5, 0, 0)), [1, 0, 0, 1])
    barter(state, ACCEPT)
    assert state.gems[0].tolist() == [2, 3, 3, 2] and state.gems[1].tolist() == [4, 3, 3, 4]
    assert state.score.tolist() == [5 + 4, 0, 0]
    state = offer(offer(_points_barter(score=(5, 0, 0)), [0, 0, 0, 1]), [0, 0, 1, 0])
    barter(state, ACCEPT)  # A accepts B's raise: B pays A and acts
    assert state.gems[1].tolist() == [3, 3, 2, 3] and state.gems[0].tolist() == [3, 3, 4, 3]
    assert state.score.tolist() == [5, 4, 0]


def test_B7_6_only_gems_in_possession_may_be_offered() -> None:
    gems = [[1, 0, 0, 0], [3, 3, 3, 3], [3, 3, 3, 3]]
    state = barter(_points_barter(score=(5, 0, 0), gems=gems), ADD[RED])
    assert legal(state, 0) == {SUBMIT}  # no second red, no other colour
    with pytest.raises(ValueError, match="all already in the bundle"):
        barter(state, ADD[RED])


def test_B7_7_every_barter_ends_even_with_minimal_raises() -> None:
    """Two bidders that always make the lowest raise walk up the B8 order and stop."""
    state = _points_barter(score=(5, 0, 0))
    offers = 0
    while state.phase == Phase.BARTER:
        seat, hold = state.to_act, state.gems[state.to_act]
        standing = state.offer if state.offer_by >= 0 else np.zeros(4, np.int64)
        raises = [
            np.array(x)
            for x in itertools.product(*(range(h + 1) for h in hold))
            if any(x) and higher(np.array(x), standing)
        ]
        if not raises:
            barter(state, ACCEPT)
            break
        offer(state, min(raises, key=lambda x: (x.sum(), *x)).tolist())
        offers += 1
        assert seat != state.to_act
    assert state.phase != Phase.BARTER and 1 < offers < 1820  # C(12 + 4, 4)


# --------------------------------------------------------------------------------- B8 order
def test_B8_1_more_gems_is_higher_whatever_the_colours() -> None:
    assert higher(np.array([0, 0, 0, 2]), np.array([1, 0, 0, 0]))
    assert not higher(np.array([1, 0, 0, 0]), np.array([0, 0, 0, 2]))


def test_B8_1_same_count_compares_red_then_yellow_then_green() -> None:
    assert higher(np.array([1, 0, 0, 1]), np.array([0, 2, 0, 0]))
    assert higher(np.array([0, 1, 0, 1]), np.array([0, 0, 2, 0]))
    assert higher(np.array([0, 0, 1, 1]), np.array([0, 0, 0, 2]))


def test_B8_2_a_total_order_and_an_identical_bundle_is_no_raise() -> None:
    bundles = [np.array(x) for x in itertools.product(range(3), repeat=4)]
    for x, y in itertools.product(bundles, repeat=2):
        same = np.array_equal(x, y)
        assert higher(x, y) + higher(y, x) + same == 1
    state = offer(_points_barter(score=(5, 0, 0)), [0, 1, 0, 0])
    with pytest.raises(ValueError, match="not higher"):
        offer(state, [0, 1, 0, 0])


def test_B8_3_seed_examples() -> None:
    def b(r: int = 0, y: int = 0, g: int = 0, bl: int = 0) -> np.ndarray:
        return np.array([r, y, g, bl])

    assert higher(b(bl=4), b(r=3))  # 3 red < 4 blue
    assert higher(b(y=1, bl=2), b(g=3))  # 3 green < 1 yellow + 2 blue
    assert higher(b(r=1, y=1), b(y=2))  # 2 yellow < 1 red + 1 yellow
    assert higher(b(bl=3), b(r=1, y=1))  # 1 red + 1 yellow < 3 blue
    state = offer(_points_barter(score=(5, 0, 0)), [0, 0, 3, 0])
    offer(state, [0, 1, 0, 2])  # raising 3 green by 1 yellow + 2 blue is legal
    assert state.offer.tolist() == [0, 1, 0, 2]


# --------------------------------------------------------------------------- B9 round end
def _round_end(
    gems: Sequence[Sequence[int]],
    progress: Sequence[int] = (1, 1, 1),
    score: Sequence[int] = (0, 0, 0),
    round_: int = 0,
) -> State:
    p = len(gems)
    state = position(p, start=[0] * p, progress=list(progress), gems=gems, round_=round_)
    state.score = np.array(score, np.int64)
    end_round(state)
    return state


def test_B9_1_a_round_ends_iff_someone_completed_a_lap() -> None:
    no_lap = position(3, seed=4, start=[0, 0, 0], progress=[27, 5, 5])
    play(no_lap, [CARD[DIE]] * 3)  # all cancelled; nobody has completed a lap
    assert no_lap.round == 0 and no_lap.turn == 1
    lapped = position(3, seed=4, start=[0, 0, 0], progress=[28, 5, 5])
    play(lapped, [CARD[DIE]] * 3)  # seat 0 landed on its disk in this turn's movement
    assert lapped.round == 1 and lapped.turn == 0


def test_B9_2_the_sole_majority_scores_and_returns_3() -> None:
    state = _round_end([[5, 0, 0, 0], [2, 0, 0, 0], [1, 0, 0, 0]])
    assert state.score.tolist() == [12, 0, 0] and state.gems[:, RED].tolist() == [2, 2, 1]
    assert state.carpet[RED] == 25 - 5


def test_B9_2_tied_majorities_split_rounded_down_and_return_2_each() -> None:
    state = _round_end([[0, 4, 0, 0], [0, 4, 0, 0], [0, 4, 0, 0]])
    assert state.score.tolist() == [3, 3, 3]  # floor(10 / 3)
    assert state.gems[:, YELLOW].tolist() == [2, 2, 2]


def test_B9_2_nobody_scores_a_colour_nobody_holds_and_returns_are_capped() -> None:
    state = _round_end([[0, 0, 1, 0], [0, 0, 0, 0], [0, 0, 0, 0]])
    assert state.score.tolist() == [8, 0, 0]  # green only; no red, yellow, blue scored
    assert state.gems[0].tolist() == [0, 0, 0, 0]  # returns min(3, 1) = 1


def test_B9_2_majority_values_per_round_and_colour() -> None:
    for round_ in range(3):
        state = _round_end([[1, 1, 1, 1], [0, 0, 0, 0], [0, 0, 0, 0]], round_=round_)
        assert state.score[0] == 12 + 10 + 8 + 6


def test_B9_3_every_lapped_player_scores_10() -> None:
    state = _round_end([[0, 0, 0, 0]] * 3, progress=(28, 30, 27))
    assert state.score.tolist() == [10, 10, 0]


def test_B9_4_majorities_and_lap_bonus_do_not_depend_on_their_order() -> None:
    from asara_env.basari.reference.scoring import score_laps, score_majorities

    gems = [[5, 0, 2, 1], [5, 3, 0, 1], [1, 3, 0, 0]]
    a = position(3, start=[0, 0, 0], progress=[28, 3, 30], gems=gems)
    b = a.copy()
    score_laps(a)
    score_majorities(a)
    score_majorities(b)
    score_laps(b)
    assert a.equals(b)
    assert a.score.tolist() == [10 + 6 + 8 + 3, 6 + 5 + 3, 10 + 5]


def test_B9_5_start_disks_move_to_the_merchants_and_progress_resets() -> None:
    state = _round_end([[3, 3, 3, 3]] * 3, progress=(29, 3, 9))
    assert state.start.tolist() == [1, 3, 9] and state.progress.tolist() == [0, 0, 0]
    assert state.position.tolist() == [1, 3, 9]


def test_B9_6_the_game_ends_after_the_third_scoring() -> None:
    state = position(3, start=[0, 0, 0], progress=[28, 1, 1], round_=2)
    play(state, [CARD[DIE], CARD[DIE], CARD[DIE]])
    assert state.phase == Phase.OVER
    assert legal(state, 0) == {NOOP}
    with pytest.raises(ValueError, match="game is over"):
        step(state, [NOOP] * 3)
    state = position(3, start=[0, 0, 0], progress=[28, 1, 1], round_=1)
    play(state, [CARD[DIE], CARD[DIE], CARD[DIE]])
    assert state.phase == Phase.SELECT and state.round == 2


def test_B9_7_example_two_tied_red_majorities() -> None:
    state = _round_end([[5, 0, 0, 0], [5, 0, 0, 0], [2, 0, 0, 0]])
    assert state.score.tolist() == [6, 6, 0]
    assert state.gems[:, RED].tolist() == [3, 3, 2]


# -------------------------------------------------------------------------------- B10 end
def _final(score: Sequence[int], gems: Sequence[Sequence[int]]) -> State:
    state = position(len(score), start=[0] * len(score), gems=gems)
    state.score = np.array(score, np.int64)
    return state


def test_B10_1_the_highest_score_wins() -> None:
    state = _final([30, 41, 12], [[9, 9, 9, 9], [0, 0, 0, 0], [3, 3, 3, 3]])
    assert winners(state).tolist() == [False, True, False]
    assert ranks(state).tolist() == [2.0, 1.0, 3.0]


def test_B10_2_ties_go_to_more_gems_then_red_yellow_green_blue() -> None:
    state = _final([40, 40, 12], [[1, 1, 1, 1], [0, 0, 0, 5], [9, 9, 0, 0]])
    assert winners(state).tolist() == [False, True, False]  # 5 gems beat 4
    state = _final([40, 40, 12], [[6, 2, 0, 0], [6, 0, 2, 0], [0, 0, 0, 0]])
    assert winners(state).tolist() == [True, False, False]  # the seed's example
    assert tie_break_key(state)[0].tolist() == [8, 6, 2, 0, 0]
    assert ranking_score(state)[0] > ranking_score(state)[1] > ranking_score(state)[2]


def test_B10_3_players_still_tied_share_the_win() -> None:
    state = _final([40, 40, 40], [[1, 2, 0, 0], [1, 2, 0, 0], [1, 1, 1, 0]])
    assert winners(state).tolist() == [True, True, False]
    assert ranks(state).tolist() == [1.5, 1.5, 3.0]


def test_B10_4_a_round_lasts_at_most_n_archways_turns() -> None:
    state = position(3, start=[0, 0, 0], progress=[27, 27, 27], turn=26)
    play(state, [CARD[POINTS]] * 3)  # turn 27, the 28th: every merchant moved >= 28
    assert state.turn == 27 and state.lapped.all()
    play(state, [CARD[POINTS]] * 3)
    assert state.round == 1 and state.turn == 0


# ------------------------------------------------------------------------- B11 information
def test_B11_1_every_seat_sees_the_same_public_state_rotated() -> None:
    state = offer(_points_barter(score=(5, 0, 0)), [0, 1, 0, 0])
    views = [public_view(state, s) for s in range(3)]
    for s in range(3):
        rotated = views[s]["seats"][-s:] + views[s]["seats"][:-s] if s else views[s]["seats"]
        assert rotated == views[0]["seats"]
        assert views[s]["carpet"] == views[0]["carpet"]
        assert views[s]["barter"]["offer"] == [0, 1, 0, 0]
        assert views[s]["barter"]["offer_by"] == (0 - s) % 3


def test_B11_2_the_bundle_being_built_is_seen_only_by_its_builder() -> None:
    state = barter(_points_barter(score=(5, 0, 0)), ADD[RED], ADD[BLUE])
    assert public_view(state, 0)["barter"]["pending"] == [1, 0, 0, 1]
    assert public_view(state, 1)["barter"]["pending"] == [0, 0, 0, 0]
    assert public_view(state, 2)["barter"]["pending"] == [0, 0, 0, 0]


def test_B11_3_future_rolls_are_in_no_view() -> None:
    a = position(3, seed=1, start=[0, 0, 0], progress=[3, 3, 3])
    b = position(3, seed=99, start=[0, 0, 0], progress=[3, 3, 3])
    assert all(public_view(a, s) == public_view(b, s) for s in range(3))


# -------------------------------------------------------------------------- B12 invariants
def test_B12_violations_detect_each_broken_invariant() -> None:
    def broken(edit: Callable[[State], object]) -> list[str]:
        state = _points_barter(score=(5, 0, 0))
        offer(state, [0, 1, 0, 0])
        edit(state)
        return violations(state)

    assert broken(lambda _: None) == []
    assert any("carpet + holdings" in v for v in broken(lambda s: s.carpet.__setitem__(0, 0)))
    assert any("negative" in v for v in broken(lambda s: s.score.__setitem__(1, -1)))
    assert any("lacks" in v for v in broken(lambda s: s.offer.__setitem__(0, 9)))
    assert any("alternate" in v for v in broken(lambda s: setattr(s, "to_act", 0)))
    assert any("builder lacks" in v for v in broken(lambda s: s.pending.__setitem__(3, 9)))
    assert any("start disk" in v for v in broken(lambda s: s.start.__setitem__(0, 5)))
    assert any("round did not end" in v for v in broken(lambda s: s.progress.__setitem__(2, 40)))


def test_B12_a_new_game_is_sound() -> None:
    for players, mode in itertools.product((2, 3, 4), ("choose", "random")):
        assert violations(new_game(BasariConfig(players, mode), 3)) == []


@pytest.mark.parametrize("card", [DIE, POINTS])
def test_B12_at_most_one_seat_takes_gems_per_turn(card: int) -> None:
    state = position(4, start=[0, 0, 0, 0], progress=[4, 4, 4, 4])  # all on "4 RRB"
    play(state, [CARD[card], CARD[card], CARD[GEMS], CARD[GEMS]])  # two barters
    while state.phase == Phase.BARTER:
        barter(state, FORFEIT)  # no gems change hands in a barter
    gains = state.gems - 3
    assert ((gains > 0).any(axis=1)).sum() == 1  # one seat took gems
    assert gains.sum(axis=0).tolist() == [2, 0, 0, 1] == (13 - state.carpet).tolist()
