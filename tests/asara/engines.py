"""Run the rule scenario tests on both engines.

Every test module named `test_rules_*.py` runs twice (`[reference]` and `[core]`, see
conftest.py). Under `[core]` the hand-made positions stay reference `State`s, but every
move, every legality question and every new game goes through the vectorised core via the
bridge: `engine.step` converts the position to the core, steps it there and writes the
result back; `legal_actions` reads the core's own mask; `engine.new_game` sets the game up
in the core. So a rule broken in either engine fails a test named after its id.
"""

from __future__ import annotations

from dataclasses import fields
from typing import cast

import numpy as np
import pytest

from asara_env.asara.actions import NUM_ACTIONS, action_id
from asara_env.asara.bridge import TrackedGame, from_reference, generator_at, to_reference
from asara_env.asara.config import GameConfig
from asara_env.asara.core import legal_action_mask
from asara_env.asara.core import step as step_core
from asara_env.asara.reference import engine
from asara_env.asara.reference import rules as reference_rules
from asara_env.asara.reference.state import State
from asara_env.common.errors import IllegalActionError

ENGINES = ("reference", "core")
_reference_step = engine.step


def core_step(state: State, action: int) -> None:
    """engine.step through the core: the core decides legality and carries the move out."""
    a = action_id(action)  # ids that are not actions are refused as the reference refuses them
    origin = state.rng.bit_generator.state
    core = from_reference([state])
    try:
        step_core(core, np.array([a], np.int64))
    except IllegalActionError as refused:
        reason = reference_rules.illegal_reason(state, a) or "legal for the reference engine"
        raise IllegalActionError(refused.seat, a, refused.name, refused.phase, reason) from None
    after = to_reference(core, 0, generator_at(origin, int(core.tape_pos[0])))
    for f in fields(State):
        setattr(state, f.name, getattr(after, f.name))


def core_legal_actions(state: State) -> list[int]:
    """legal_actions through the core's own mask."""
    if state.is_over:
        return []
    return np.flatnonzero(legal_action_mask(from_reference([state]))[0]).tolist()


def core_new_game(config: GameConfig | None = None, seed=None) -> State:
    """new_game set up by the core (a Generator seed stays with the reference engine)."""
    if isinstance(seed, np.random.Generator):
        return _reference_new_game(config, seed)
    if seed is None:
        seed = cast(int, np.random.SeedSequence().entropy) % 2**63  # an int when unseeded
    return TrackedGame.new(config or GameConfig(), int(seed)).reference()


_reference_new_game = engine.new_game


def use_core(monkeypatch: pytest.MonkeyPatch, module) -> None:
    """Route the rule tests of `module` (and tests/asara/helpers.py) through the core."""
    from tests.asara import helpers

    monkeypatch.setattr(engine, "step", core_step)
    monkeypatch.setattr(engine, "new_game", core_new_game)
    for where in (module, helpers):
        if hasattr(where, "legal_actions"):
            monkeypatch.setattr(where, "legal_actions", core_legal_actions)
    assert NUM_ACTIONS > 0
