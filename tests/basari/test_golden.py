"""Golden BASARI playthroughs: seeded random games written out step by step. A change in
the rules, the chance draws or the action names shows up as a diff of these files.

Regenerate after an intended change: BASARI_REGEN_GOLDEN=1 pytest tests/basari/test_golden.py
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from asara_env.basari.config import BasariConfig
from asara_env.basari.phases import Phase
from asara_env.basari.reference import acting_seats, new_game, ranking_score, step, winners
from asara_env.basari.reference.rules import bundle_name
from tests.basari.helpers import random_joint

GOLDEN = Path(__file__).parent / "golden"
GAMES = [(2, "choose", 1), (3, "random", 2), (4, "choose", 3)]


def transcript(players: int, mode: str, seed: int) -> str:
    state = new_game(BasariConfig(players, mode), seed)
    rng = np.random.default_rng(seed)
    describe = state.config.actions.describe
    lines = [f"# {players} players, start {mode}, seed {seed}"]
    while state.phase != Phase.OVER:
        if state.phase == Phase.SELECT:
            lines.append(
                f"r{state.round} t{state.turn} rolls {state.move_roll.tolist()} "
                f"positions {state.position.tolist()} progress {state.progress.tolist()}"
            )
        joint = random_joint(state, rng)
        said = "; ".join(f"seat {s}: {describe(joint[s])}" for s in acting_seats(state))
        lines.append(f"  {state.phase.name.lower()} {said}")
        if state.phase == Phase.BARTER and state.offer_by >= 0:
            lines[-1] += f" (standing {bundle_name(state.offer)} by seat {state.offer_by})"
        round_ = state.round
        step(state, joint)
        if state.round != round_ or state.phase == Phase.OVER:
            lines.append(
                f"-- round end: scores {state.score.tolist()} gems {state.gems.tolist()} "
                f"carpet {state.carpet.tolist()}"
            )
    lines.append(f"ranking score {ranking_score(state).tolist()}")
    lines.append(f"winners {np.flatnonzero(winners(state)).tolist()}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("players", "mode", "seed"), GAMES)
def test_golden_playthrough(players: int, mode: str, seed: int) -> None:
    path = GOLDEN / f"{players}p_{mode}_seed{seed}.txt"
    text = transcript(players, mode, seed)
    if os.environ.get("BASARI_REGEN_GOLDEN"):
        path.write_text(text)
    assert path.read_text() == text
