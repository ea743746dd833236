"""Property tests over random legal games: 2/3/4 players x basic/pro, and with every
combination of expansions (R9).

Thousands of games finish after 4 years; at every decision the player to move has a legal
action, no money goes negative, prestige never decreases and games stay under the
documented maximum length; every component is in exactly one place (the invariants)."""

from __future__ import annotations

import numpy as np
import pytest

from asara_env import GameConfig, IllegalActionError
from asara_env.asara.actions import NUM_ACTIONS
from asara_env.asara.reference import engine
from asara_env.asara.reference.invariants import violations
from asara_env.asara.reference.rules import illegal_reason, legal_actions
from asara_env.asara.reference.serialize import state_to_dict
from asara_env.asara.reference.state import State
from tests.asara.games import EXPANSION_CONFIGS, EXPANSION_IDS
from tests.asara.players import choose

CONFIGS = [GameConfig(num_players=p, variant=v) for p in (2, 3, 4) for v in ("basic", "pro")]
IDS = [f"{c.num_players}p-{c.variant}" for c in CONFIGS]


def play(config: GameConfig, seed: int, every_decision: bool = False, visit=None) -> State:
    """Play one random legal game, checking the properties as it goes. Odd seeds play the
    'builder' style, which builds more towers and lighted windows."""
    style = "builder" if seed % 2 else "uniform"
    state = engine.new_game(config, seed)
    chooser = np.random.default_rng(seed + 1_000_003)
    year = state.year
    assert not violations(state)
    while not state.is_over:
        actions = legal_actions(state)
        assert actions, f"seat {state.seat} has no legal action in {state.phase.name}"
        if visit is not None:
            visit(state, actions, chooser)
        before = list(state.prestige)
        engine.step(state, choose(actions, chooser, style))
        assert all(a <= b for a, b in zip(before, state.prestige)), "prestige decreased"
        assert min(state.money) >= 0, "money went negative"
        assert state.decisions <= config.max_decisions
        if every_decision or state.year != year or state.is_over:
            assert not violations(state), violations(state)
            year = state.year
    assert state.year == 4 and state.final is not None
    return state


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_random_games_keep_every_invariant_at_every_decision(config):
    for seed in range(15):
        play(config, seed, every_decision=True)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_thousands_of_random_games_finish_after_four_years(config):
    lengths = [play(config, seed).decisions for seed in range(100, 440)]
    assert max(lengths) <= config.max_decisions
    assert len(set(lengths)) > 10, "different seeds should give different games"


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_many_more_random_games_with_every_invariant(config):
    for seed in range(10_000, 10_500):
        play(config, seed, every_decision=True)


def _check_mask_against_every_action(state: State, actions: list[int], chooser) -> None:
    if chooser.random() < 0.1:
        expected = [a for a in range(NUM_ACTIONS) if illegal_reason(state, a) is None]
        assert actions == expected


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_mask_equals_the_per_action_legality_check(config):
    """The fast listing of legal actions agrees with checking all ids one by one."""
    for seed in range(3):
        play(config, seed, visit=_check_mask_against_every_action)


def _illegal_actions_raise_and_change_nothing(state: State, actions: list[int], chooser) -> None:
    if chooser.random() < 0.2:
        legal = set(actions)
        illegal = [a for a in chooser.integers(NUM_ACTIONS, size=20).tolist() if a not in legal]
        before = state_to_dict(state)
        for action in illegal[:3]:
            with pytest.raises(IllegalActionError, match=f"illegal action {action} "):
                engine.step(state, action)
            assert state_to_dict(state) == before


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_illegal_actions_raise_and_leave_the_state_unchanged(config):
    play(config, 7, visit=_illegal_actions_raise_and_change_nothing)


@pytest.mark.parametrize("bad", [-1, NUM_ACTIONS, 3.0, "12", None, True])
def test_non_action_inputs_are_rejected_clearly(bad):
    state = engine.new_game(GameConfig(), 0)
    before = state_to_dict(state)
    with pytest.raises(IllegalActionError, match="action"):
        engine.step(state, bad)
    assert state_to_dict(state) == before


def test_actions_after_the_end_are_rejected():
    state = play(GameConfig(num_players=2), 3)
    with pytest.raises(IllegalActionError, match="the game is over"):
        engine.step(state, 0)
    assert legal_actions(state) == []


# ------------------------------------------------------------------------------ expansions (R9)
@pytest.mark.parametrize("config", EXPANSION_CONFIGS, ids=EXPANSION_IDS)
def test_R9_random_games_with_expansions_keep_every_invariant_and_never_dead_end(config):
    """Every decision has a legal action (masked-in gift and Genie decisions never lead to
    a dead end) and every invariant holds, in 8 games; 60 more games finish within the
    documented length."""
    for seed in range(8):
        play(config, seed, every_decision=True)
    lengths = [play(config, seed).decisions for seed in range(100, 160)]
    assert max(lengths) <= config.max_decisions and len(set(lengths)) > 10


@pytest.mark.parametrize("config", EXPANSION_CONFIGS[::3], ids=EXPANSION_IDS[::3])
def test_R9_mask_equals_the_per_action_legality_check_with_expansions(config):
    play(config, 1, visit=_check_mask_against_every_action)
    play(config, 2, visit=_illegal_actions_raise_and_change_nothing)


@pytest.mark.slow
@pytest.mark.parametrize("config", EXPANSION_CONFIGS, ids=EXPANSION_IDS)
def test_R9_many_more_random_games_with_expansions_and_every_invariant(config):
    for seed in range(20_000, 20_250):
        play(config, seed, every_decision=True)
