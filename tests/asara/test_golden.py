"""Golden playthroughs: seeded random games written out decision by decision. A change in
the rules, the chance draws or the action names shows up as a diff of these files.

Regenerate after an intended change: ASARA_REGEN_GOLDEN=1 pytest tests/asara/test_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from asara_env import GameConfig, describe_action
from asara_env.asara.reference import engine
from asara_env.asara.reference.rules import legal_actions
from tests.asara.players import choose

GOLDEN = Path(__file__).parent / "golden"
GAMES = [(2, "basic", 1), (3, "pro", 2), (4, "pro", 3)]


def transcript(players: int, variant: str, seed: int) -> str:
    state = engine.new_game(GameConfig(num_players=players, variant=variant), seed)
    chooser = np.random.default_rng(seed)
    lines = [f"# {players} players, {variant}, seed {seed}"]
    lines.append(
        f"hands {state.hands.tolist()} displays {state.displays.sum(axis=(1, 2)).tolist()}"
    )
    year = state.year
    while not state.is_over:
        actions = legal_actions(state)
        action = choose(actions, chooser, "builder")
        lines.append(f"y{state.year} seat {state.seat}: {action} {describe_action(action)}")
        engine.step(state, action)
        if state.year != year or state.is_over:
            lines.append(f"-- prestige {state.prestige} money {state.money}")
            year = state.year
    lines.append(f"final {state.final}")
    lines.append(f"winners {engine.winners(state)}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("players, variant, seed", GAMES)
def test_golden_playthrough(players, variant, seed):
    path = GOLDEN / f"{players}p_{variant}_seed{seed}.txt"
    text = transcript(players, variant, seed)
    if os.environ.get("ASARA_REGEN_GOLDEN"):
        path.write_text(text)
    assert path.read_text() == text
