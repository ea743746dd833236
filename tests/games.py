"""Reference states along random legal games, for the core's conformance tests."""

from __future__ import annotations

import numpy as np
from players import choose

from asara_env import GameConfig
from asara_env.reference import engine
from asara_env.reference.rules import legal_actions
from asara_env.reference.state import State

CONFIGS = [GameConfig(num_players=p, variant=v) for p in (2, 3, 4) for v in ("basic", "pro")]
IDS = [f"{c.num_players}p-{c.variant}" for c in CONFIGS]


def game_states(config: GameConfig, seed: int) -> list[State]:
    """Every state of one random legal game (odd seeds play the 'builder' style)."""
    style = "builder" if seed % 2 else "uniform"
    state, chooser = engine.new_game(config, seed), np.random.default_rng(seed + 77)
    states = [state.copy()]
    while not state.is_over:
        engine.step(state, choose(legal_actions(state), chooser, style))
        states.append(state.copy())
    return states
