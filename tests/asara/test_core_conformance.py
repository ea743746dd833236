"""ASARA's own conformance checks of the vectorised core: the error's words, the R9
expansion decisions, the report mode and `games=` of its `step`, autoreset against the
reference engine, the colour-size table. The generic checks (dtypes and shapes, masks,
determinism, batch independence, refused actions, autoreset, reward sums, the lockstep
differential) are the battery's, tests/common/conformance.py, run on every game."""

from __future__ import annotations

from dataclasses import fields

import numpy as np
import pytest

from asara_env import GameConfig, IllegalActionError
from asara_env.asara.actions import NUM_ACTIONS
from asara_env.asara.core import (
    CoreState,
    autoreset,
    copy_state,
    derived_seed,
    init,
    legal_action_mask,
    step,
    take,
)
from asara_env.asara.core.mask import colour_features, colour_sizes
from asara_env.asara.phases import Phase
from asara_env.asara.reference import engine
from asara_env.asara.reference.build import colour_counts
from asara_env.asara.reference.state import Tower
from tests.asara.games import ALL_CONFIGS, ALL_IDS

CONFIGS, IDS = ALL_CONFIGS, ALL_IDS  # with every combination of expansions
ARRAYS = [f.name for f in fields(CoreState) if f.name != "config"]


def random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noise = np.where(mask, rng.random(mask.shape), -1.0)
    return np.argmax(noise, axis=1)


def states_equal(a: CoreState, b: CoreState) -> bool:
    return all(np.array_equal(getattr(a, n), getattr(b, n)) for n in ARRAYS)


def test_an_illegal_action_raises_naming_game_and_action_and_changes_nothing():
    state = init(GameConfig(num_players=3, variant="pro"), 8, seeds=2)
    mask = legal_action_mask(state)
    actions = random_actions(mask, np.random.default_rng(1))
    bad = int(np.flatnonzero(~mask[5])[0])
    actions[5] = bad
    before = copy_state(state)
    with pytest.raises(IllegalActionError, match=f"illegal action {bad} .*game 5 of the batch"):
        step(state, actions)
    assert states_equal(state, before)


EXPANSION_PHASES = (Phase.GENIE, Phase.GIFT_CARD, Phase.GIFT_BUY, Phase.GIFT_LIGHTS)


@pytest.mark.parametrize("phase", EXPANSION_PHASES, ids=[p.name for p in EXPANSION_PHASES])
def test_R9_an_illegal_action_in_an_expansion_decision_changes_nothing(phase):
    """Play random batches with both expansions until a game waits in `phase`; an action
    outside its mask there raises naming the game, and leaves the batch as it was."""
    config = GameConfig(num_players=3, variant="pro", expansions=("genie", "gifts"))
    state, rng = init(config, 64, seeds=5), np.random.default_rng(3)
    while not (state.phase == phase).any():
        step(state, random_actions(legal_action_mask(state), rng))
        autoreset(state)
    game = int(np.flatnonzero(state.phase == phase)[0])
    mask = legal_action_mask(state)
    actions = random_actions(mask, rng)
    actions[game] = bad = int(np.flatnonzero(~mask[game])[0])
    before = copy_state(state)
    with pytest.raises(IllegalActionError, match=f"illegal action {bad} .*game {game} of"):
        step(state, actions)
    assert states_equal(state, before)


def test_report_mode_flags_bad_games_and_steps_the_others():
    state = init(GameConfig(num_players=4), 6, seeds=4)
    mask = legal_action_mask(state)
    actions = random_actions(mask, np.random.default_rng(2))
    actions[[1, 4]] = NUM_ACTIONS - 1  # a gift id: never legal without the expansion
    before = copy_state(state)
    flagged = step(state, actions, on_illegal="report")
    assert flagged.tolist() == [False, True, False, False, True, False]
    for i in range(6):
        same = states_equal(take(state, [i]), take(before, [i]))
        assert same == flagged[i]


@pytest.mark.parametrize("config", CONFIGS[::2], ids=IDS[::2])
def test_stepping_some_games_moves_exactly_those(config):
    state, rng = init(config, 32, seeds=4), np.random.default_rng(4)
    for _ in range(40):
        rows = np.flatnonzero(rng.random(32) < 0.5)
        actions = random_actions(legal_action_mask(state), rng)
        whole = copy_state(state)
        picked = take(state, rows)
        step(state, actions[rows], games=rows)
        step(picked, actions[rows])
        assert states_equal(take(state, rows), picked)
        others = np.setdiff1d(np.arange(32), rows)
        assert states_equal(take(state, others), take(whole, others))
    bad = legal_action_mask(state)[0].argmin()
    with pytest.raises(IllegalActionError, match="game 0 of the batch"):
        step(state, np.array([bad]), games=np.array([0]))
    with pytest.raises(IllegalActionError, match="shape"):
        step(state, np.array([0, 0]), games=np.array([0]))


def test_autoreset_continues_as_the_reference_game_seeded_derived_seed():
    """ASARA's own form of the battery's autoreset check: the restarted game is the
    reference game seeded derived_seed(s, 1)."""
    config = GameConfig(num_players=2)
    state = init(config, 4, seeds=5)
    rng = np.random.default_rng(3)
    while not (state.phase == Phase.GAME_OVER).any():
        step(state, random_actions(legal_action_mask(state), rng))
    finished = np.flatnonzero(state.phase == Phase.GAME_OVER)
    seeds = state.seed[finished].copy()
    autoreset(state)
    for i, s in zip(finished, seeds):
        fresh = engine.new_game(config, derived_seed(int(s), 1))
        assert state.hands[i].tolist() == fresh.hands.tolist()
        assert state.displays[i].tolist() == fresh.displays.tolist()
        assert state.phase[i] == Phase.PLACE and state.year[i] == 1


def test_init_rejects_bad_arguments():
    with pytest.raises(ValueError, match="batch"):
        init(GameConfig(), 0)
    with pytest.raises(ValueError, match="seeds"):
        init(GameConfig(), 3, seeds=[1, 2])


def test_the_colour_size_table_matches_the_reference_on_random_positions():
    """The core's lookup table gives the reference's achievable build sizes (R4.2)."""
    rng = np.random.default_rng(5)
    for _ in range(300):
        towers = []
        for _ in range(int(rng.integers(0, 4))):
            t = Tower(0)
            t.parts[:, :] = rng.integers(0, 2, size=(4, 2))
            t.parts[1:3, 0] += rng.integers(0, 2, size=2)
            t.lit_plain = int(rng.integers(0, t.parts[2, 0] + 1))
            towers.append(t)
        supply = rng.integers(0, 3, size=(4, 2))
        lighted = int(rng.integers(0, 3))
        expected = sum(1 << n for n in colour_counts(towers, supply, lighted) if n <= 7)
        parts = np.zeros((1, 4, 4, 2), np.int64)
        lit = np.zeros((1, 4, 2), np.int64)
        for k, t in enumerate(towers):
            parts[0, k], lit[0, k, 0] = t.parts, t.lit_plain

        f = colour_features(
            parts, lit, np.array([len(towers)]), supply[:, None, :], np.array([lighted])
        )
        assert int(colour_sizes(f)[0]) == expected
