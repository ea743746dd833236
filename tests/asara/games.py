"""Reference states along random legal games, for the core's conformance tests."""

from __future__ import annotations

import numpy as np

from asara_env import GameConfig
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.serialize import state_to_dict
from asara_env.asara.reference.state import State
from tests.asara.players import choose

CONFIGS = [GameConfig(num_players=p, variant=v) for p in (2, 3, 4) for v in ("basic", "pro")]
IDS = [f"{c.num_players}p-{c.variant}" for c in CONFIGS]
# every combination of expansions (R9; the Genie needs pro), for 2/3/4 players
EXPANSIONS: list[tuple[str, tuple[str, ...]]] = [
    ("basic", ("gifts",)),
    ("pro", ("genie",)),
    ("pro", ("gifts",)),
]
EXPANSIONS += [("pro", ("genie", "gifts"))]
EXPANSION_CONFIGS = [
    GameConfig(num_players=p, variant=v, expansions=e) for p in (2, 3, 4) for v, e in EXPANSIONS
]


def config_id(c: GameConfig) -> str:
    return "-".join([f"{c.num_players}p", c.variant, *c.expansions])


EXPANSION_IDS = [config_id(c) for c in EXPANSION_CONFIGS]
ALL_CONFIGS, ALL_IDS = CONFIGS + EXPANSION_CONFIGS, IDS + EXPANSION_IDS


def game_states(config: GameConfig, seed: int) -> list[State]:
    """Every state of one random legal game (odd seeds play the 'builder' style)."""
    style = "builder" if seed % 2 else "uniform"
    state, chooser = engine.new_game(config, seed), np.random.default_rng(seed + 77)
    states = [state.copy()]
    while not state.is_over:
        engine.step(state, choose(legal_actions(state), chooser, style))
        states.append(state.copy())
    return states


def play_on_side_by_side(state: State, loaded: State, chooser: np.random.Generator) -> None:
    """Random legal actions played on `state` and on `loaded` (a saved and loaded copy) to
    the end: both offer the same actions at every step and end as the same saved game."""
    while not state.is_over:
        actions = legal_actions(state)
        assert legal_actions(loaded) == actions
        action = actions[int(chooser.integers(len(actions)))]
        engine.step(state, action)
        engine.step(loaded, action)
    assert state_to_dict(loaded) == state_to_dict(state)
