"""Fuzzing saved games: positions from every configuration, hypothesis mutations of them, and
the check each mutation must pass (refused naming a field, or loaded, saved back unchanged
and played to the end identically by the reference engine and the core)."""

from __future__ import annotations

import copy
import re
from collections import Counter
from functools import lru_cache
from typing import Any

import numpy as np
from hypothesis import strategies as st

from asara_env.asara.bridge import from_reference, generator_at, to_reference
from asara_env.asara.core import legal_action_mask, step
from asara_env.asara.reference import engine
from asara_env.asara.reference.invariants import violations
from asara_env.asara.reference.rules import legal_actions
from asara_env.asara.reference.serialize import state_from_dict, state_to_dict
from asara_env.asara.reference.state import State
from asara_env.common.errors import CorruptStateError
from tests.asara.games import ALL_CONFIGS
from tests.common.fuzzing import mutate

TALLY: Counter[str] = Counter()  # tried / refused / loaded, over a run


@lru_cache(maxsize=1)
def positions() -> tuple[dict[str, Any], ...]:
    """Saved states from one random game of each of the 18 configurations: the first state
    of every phase the game reaches, a few more along the way, and the finished game."""
    saves = []
    for k, config in enumerate(ALL_CONFIGS):
        state, chooser = engine.new_game(config, 100 + k), np.random.default_rng(k)
        seen: set[str] = set()
        while True:
            if state.phase.name not in seen or chooser.random() < 0.02:
                seen.add(state.phase.name)
                saves.append(state_to_dict(state))
            if state.is_over:
                break
            actions = legal_actions(state)
            engine.step(state, actions[int(chooser.integers(len(actions)))])
    return tuple(saves)


INTS = st.one_of(
    st.integers(-3, 12),
    st.sampled_from([-1, 2**7, 2**8, 2**15, 2**31 - 1, 2**31, 2**32, 2**63 - 1, 2**63, 2**64]),
    st.integers(),
)
WRONG_TYPES = st.sampled_from(["7", "", 1.5, 1.0, None, True, False, [], {}, [1, 2], {"x": 1}])


@st.composite
def mutations(draw) -> dict[str, Any]:
    """A saved state with one random change: a changed or nudged int, a wrong type, a key
    deleted or added, a list shortened, extended, reordered or made ragged, or a field taken
    from another position (of any configuration)."""
    return mutate(draw, positions(), INTS, WRONG_TYPES)


FIELD = re.compile(r"^[a-z_]+")


def check_saved(saved: dict[str, Any], seed: int) -> None:
    """`classify` (for hypothesis, which wants None back)."""
    classify(saved, seed)


def classify(saved: dict[str, Any], seed: int) -> str:
    """'refused' (CorruptStateError naming a field of the format) or 'loaded' (saved back
    unchanged, then played to the end identically by both engines); anything else fails."""
    TALLY["tried"] += 1
    before = copy.deepcopy(saved)
    try:
        state = state_from_dict(saved)
    except CorruptStateError as exc:
        assert saved == before, "loading changed the dict it was given"
        assert exc.field, f"the error names no field: {exc}"
        top = FIELD.match(exc.field)
        assert exc.field == "(top)" or (top and top.group() in state_to_dict_keys()), exc
        assert str(exc).startswith(exc.field)
        TALLY["refused"] += 1
        return "refused"
    assert state_to_dict(state) == saved, "save -> load -> save is not the identity"
    play_both_to_the_end(state, seed)
    TALLY["loaded"] += 1
    return "loaded"


@lru_cache(maxsize=1)
def state_to_dict_keys() -> frozenset[str]:
    return frozenset(positions()[0])


def _comparable(d: dict[str, Any]) -> dict[str, Any]:
    """A saved state with the coloured building's cards sorted (the core keeps counts)."""
    return {**d, "coloured": sorted(d["coloured"], key=lambda b: (b["seat"], b["cards"]))}


def play_both_to_the_end(state: State, seed: int) -> int:
    """Play random legal actions from `state` in the reference engine and the core side by
    side: masks, seat, phase, money and prestige agree at every decision, no dead end, and
    the finished games are the same game. Returns the decisions played."""
    origin = state.rng.bit_generator.state
    core, ref = from_reference([state.copy()]), state.copy()
    chooser = np.random.default_rng(seed)
    for played in range(ref.config.max_decisions + 1):
        legal = [] if ref.is_over else legal_actions(ref)
        assert np.flatnonzero(legal_action_mask(core)[0]).tolist() == legal, ref.phase.name
        assert (int(core.phase[0]), int(core.seat[0])) == (ref.phase, ref.seat)
        assert core.money[0].tolist() == ref.money and core.prestige[0].tolist() == ref.prestige
        if ref.is_over:
            back = to_reference(core, 0, generator_at(origin, int(core.tape_pos[0])))
            assert _comparable(state_to_dict(back)) == _comparable(state_to_dict(ref))
            assert not violations(ref), violations(ref)
            return played
        assert legal, f"dead end: no legal action in {ref.phase.name}"
        action = legal[int(chooser.integers(len(legal)))]
        engine.step(ref, action)
        step(core, np.array([action]))
    raise AssertionError(f"the game did not end within {ref.config.max_decisions} decisions")
