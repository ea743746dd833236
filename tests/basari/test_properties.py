"""Properties of the BASARI reference engine on random games and positions: invariants at
every step (B12), exact masks with no dead ends (E2), refusals that leave the state
unchanged, determinism and counter-based chance (E4)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from asara_env.basari.chance import Kind, die
from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import ROUNDS
from asara_env.basari.phases import Phase
from asara_env.basari.reference import (
    State,
    acting_seats,
    higher,
    illegal_reason,
    legal_actions,
    new_game,
    public_view,
    state_to_dict,
    step,
    transition_violations,
    violations,
)
from asara_env.common.errors import IllegalActionError
from tests.basari.helpers import (
    ADD,
    CARD,
    CONFIGS,
    GEMS,
    NOOP,
    POINTS,
    SUBMIT,
    barter,
    play,
    position,
    random_game,
    random_joint,
)


def _check_games(n_games: int, seed: int) -> dict[str, int]:
    """Play random games, checking every invariant at every step; return tallies."""
    rng = np.random.default_rng(seed)
    tally = {"steps": 0, "barters": 0, "max_barter_steps": 0, "scorings": 0}
    for g in range(n_games):
        config = CONFIGS[g % len(CONFIGS)]
        barter_steps = 0
        for before, _, after in random_game(config, 1000 * seed + g, rng):
            tally["steps"] += 1
            broken = violations(after) + transition_violations(before, after)
            assert not broken, (g, broken)
            if after.round != before.round or after.phase == Phase.OVER:
                tally["scorings"] += 1
            if before.phase == Phase.BARTER:
                barter_steps += 1
            if after.phase != Phase.BARTER or after.barter_card != before.barter_card:
                if barter_steps:
                    tally["barters"] += 1
                    tally["max_barter_steps"] = max(tally["max_barter_steps"], barter_steps)
                barter_steps = 0
        assert after.phase == Phase.OVER and after.round == ROUNDS - 1
    assert tally["scorings"] == ROUNDS * n_games  # B12: exactly ROUNDS bonus scorings
    return tally


def test_B12_invariants_hold_at_every_step_of_random_games() -> None:
    tally = _check_games(120, seed=1)
    assert tally["barters"] > 120  # the games do reach the barter code


@pytest.mark.slow
def test_B12_invariants_hold_at_every_step_of_1000_random_games() -> None:
    _check_games(1000, seed=2)


def _positions(n_games: int, seed: int, every: int = 3) -> list[State]:
    rng = np.random.default_rng(seed)
    out = []
    for g in range(n_games):
        for i, (before, _, _) in enumerate(random_game(CONFIGS[g % 6], seed * 100 + g, rng)):
            if i % every == 0 or before.phase == Phase.BARTER and before.pending.any():
                out.append(before)
    return out


def test_E2_masks_are_exact_on_random_positions() -> None:
    """Every masked-in id has no reason against it; every other id is refused by `step`
    with the state unchanged."""
    positions = _positions(6, seed=3)
    assert any(s.phase == Phase.BARTER and s.offer_by >= 0 for s in positions)
    for state in positions[::2]:
        saved = state_to_dict(state)
        for seat in range(state.num_players):
            mask = legal_actions(state, seat)
            assert mask.any()  # no dead end
            assert (mask[NOOP] == 1) == (seat not in acting_seats(state))
            for action in range(len(mask)):
                assert (illegal_reason(state, seat, action) is None) == bool(mask[action])
            for action in np.flatnonzero(mask == 0)[:6]:
                joint = [
                    int(np.flatnonzero(legal_actions(state, s))[0])
                    for s in range(state.num_players)
                ]
                joint[seat] = int(action)
                with pytest.raises(IllegalActionError, match=f"for seat {seat}"):
                    step(state, joint)
                assert state_to_dict(state) == saved


def test_E2_a_started_bundle_can_always_be_completed() -> None:
    """From every position with a bundle under way, adding every remaining gem and then
    submitting is legal at each step (B12: no dead end)."""
    started = [s for s in _positions(12, seed=4, every=10**9) if s.pending.any()]
    assert len(started) > 20
    for state in started:
        seat = state.to_act
        for c in range(4):
            for _ in range(int(state.gems[seat, c] - state.pending[c])):
                assert legal_actions(state, seat)[ADD[c]]
                barter(state, ADD[c])
        assert legal_actions(state, seat)[SUBMIT]
        barter(state, SUBMIT)
        assert state.to_act != seat


def _barter_position(rng: np.random.Generator, big: bool) -> State:
    """Seats 0 and 1 barter for Points with random holdings (up to 12 a colour if `big`)."""
    top = 12 if big else 3
    gems = rng.integers(0, top + 1, (3, 4))
    gems[2] = 0
    state = position(3, start=[0, 0, 0], progress=[4, 4, 4], score=[5, 0, 0], gems=gems.tolist())
    play(state, [CARD[POINTS], CARD[POINTS], CARD[GEMS]])
    if rng.random() < 0.7 and state.gems[0].any():  # a standing offer by the opener
        x = np.array([rng.integers(0, h + 1) for h in state.gems[0]])
        if x.any():
            for c in range(4):
                barter(state, *[ADD[c]] * int(x[c]))
            barter(state, SUBMIT)
    return state


@pytest.mark.parametrize("big", [False, True])
def test_E2_exactly_the_legal_offers_can_be_built_in_any_order(big: bool) -> None:
    """Every bundle x <= holding that is non-empty and higher than the standing offer can be
    built gem by gem in any order and submitted; no other bundle can be submitted."""
    rng = np.random.default_rng(5 + big)
    outcomes = set()
    for _ in range(40 if big else 60):
        state = _barter_position(rng, big)
        if state.phase != Phase.BARTER:
            continue
        seat, hold = state.to_act, state.gems[state.to_act]
        ranges = [range(h + 1) for h in hold]
        bundles = list(itertools.product(*ranges))
        picks = rng.choice(len(bundles), min(len(bundles), 25), replace=False)
        for x in (np.array(bundles[i]) for i in picks):
            standing = state.offer_by >= 0
            ok = x.any() and (not standing or higher(x, state.offer))
            trial = state.copy()
            order = rng.permutation(np.repeat(np.arange(4), x))
            built = True
            for c in order:
                if not legal_actions(trial, seat)[ADD[c]]:
                    built = False
                    break
                barter(trial, ADD[int(c)])
            built = built and bool(legal_actions(trial, seat)[SUBMIT])
            assert built == ok, (x, state.offer, hold)
            outcomes.add((bool(ok), standing))
    assert outcomes == {(True, True), (True, False), (False, True), (False, False)}


def test_E2_a_barter_ends_within_the_bound() -> None:
    """Random barters with many gems end; no offer is larger than the larger holding."""
    rng = np.random.default_rng(7)
    for _ in range(30):
        state = _barter_position(rng, big=True)
        m = max(int(state.gems[0].sum()), int(state.gems[1].sum()))
        steps = 0
        while state.phase == Phase.BARTER:
            joint = random_joint(state, rng)
            step(state, joint)
            steps += 1
            assert int(state.offer.sum()) <= m
        assert steps < 10_000


def test_illegal_joint_actions_are_refused_naming_the_seat_and_action() -> None:
    state = new_game(BasariConfig(3), 5)
    saved = state_to_dict(state)
    with pytest.raises(IllegalActionError, match=r"illegal action 30 \(card: Points\) for seat 1"):
        step(state, [1, CARD[POINTS], 1])
    with pytest.raises(IllegalActionError, match="need 3 actions"):
        step(state, [1, 1])
    with pytest.raises(IllegalActionError, match="must be an int"):
        step(state, [1, "2", 1])
    with pytest.raises(IllegalActionError, match="action ids are 0..38, got 39"):
        step(state, [1, 39, 1])
    with pytest.raises(IllegalActionError, match="seat 2"):
        step(state, [1, 1, True])
    assert state_to_dict(state) == saved
    step(state, [np.int64(1), np.array(2), 3])  # numpy integers are ids too
    assert state.start.tolist() == [0, 1, 2]


# ----------------------------------------------------------------------- determinism, chance
def _trajectory(
    config: BasariConfig, seed: int, policy_seed: int
) -> tuple[list[Any], dict[str, Any]]:
    rng = np.random.default_rng(policy_seed)
    joints, last = [], None
    for _, joint, after in random_game(config, seed, rng):
        joints.append(joint)
        last = after
    assert last is not None
    return joints, state_to_dict(last)


@pytest.mark.parametrize("config", CONFIGS[::2] + CONFIGS[1::4])
def test_E4_same_seed_and_actions_give_the_same_game(config: BasariConfig) -> None:
    joints, final = _trajectory(config, 42, 0)
    state = new_game(config, 42)
    for joint in joints:
        step(state, joint)
    assert state_to_dict(state) == final
    assert _trajectory(config, 42, 0) == (joints, final)


def test_E4_different_seeds_give_different_games() -> None:
    finals = {str(_trajectory(BasariConfig(4, "random"), seed, 0)[1]) for seed in range(6)}
    assert len(finals) == 6
    starts = {tuple(new_game(BasariConfig(4, "random"), s).move_roll) for s in range(6)}
    assert len(starts) > 1


def test_E4_the_dice_do_not_depend_on_decisions() -> None:
    """Two games from one seed with different choices see the same movement dice on every
    (round, turn) both reach, and every roll is the counter-based draw."""
    rolls: list[dict[tuple[int, int], tuple[int, ...]]] = []
    for policy in (1, 2):
        rng = np.random.default_rng(policy)
        seen = {}
        for before, _, after in random_game(BasariConfig(4), 9, rng):
            if (
                after.phase == Phase.SELECT
                and before.phase != Phase.SELECT
                or (after.phase == Phase.SELECT and after.turn != before.turn)
            ):
                seen[(after.round, after.turn)] = tuple(after.move_roll)
            for s in np.flatnonzero(after.action_roll):
                assert after.action_roll[s] == die(9, after.round, after.turn, s, Kind.DIE_ACTION)
        rolls.append(seen)
    common = set(rolls[0]) & set(rolls[1])
    assert len(common) >= 5
    for key in common:
        r, t = key
        assert rolls[0][key] == rolls[1][key] == tuple(die(9, r, t, np.arange(4), Kind.MOVE))


def test_E4_draws_are_vectorised_and_uniform() -> None:
    seeds = np.arange(20_000, dtype=np.uint64)
    faces = die(seeds, 1, 2, 3, Kind.MOVE)
    assert [int(die(int(s), 1, 2, 3, Kind.MOVE)) for s in seeds[:50]] == faces[:50].tolist()
    counts = np.bincount(faces, minlength=7)[1:]
    assert counts.min() > 20_000 / 6 * 0.93 and counts.max() < 20_000 / 6 * 1.07
    kinds = [die(seeds[:200], 0, 0, 0, k) for k in Kind]
    assert not np.array_equal(kinds[0], kinds[1])  # the kinds are different streams


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, True, "3", None])
def test_E4_an_unusable_seed_is_refused(seed: Any) -> None:
    with pytest.raises(ValueError, match="seed must be an int"):
        new_game(BasariConfig(3), seed)


def test_public_view_carries_phase_acting_seats_and_masks() -> None:
    rng = np.random.default_rng(8)
    for before, _, _ in itertools.islice(random_game(BasariConfig(4), 3, rng), 60):
        for seat in range(4):
            view = public_view(before, seat)
            assert view["phase"] == int(before.phase)
            assert view["acting"] == (seat in acting_seats(before))
            assert view["mask"] == legal_actions(before, seat).tolist()
            assert view["seats"][0]["score"] == before.score[seat]
