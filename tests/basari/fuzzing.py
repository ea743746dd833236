"""Fuzzing BASARI's saved games (as tests/asara/fuzzing.py does ASARA's): positions from
every configuration the battery covers (2-4 players, both start modes, a 9- and a
40-archway board), hypothesis mutations of them, and the check each mutation must pass:
refused with a CorruptStateError naming a field of the format, or loaded, saved back
unchanged (by the reference and through the core's bridge) and played to the end
identically by the reference engine and the core."""

from __future__ import annotations

import copy
import re
from collections import Counter
from functools import lru_cache
from typing import Any

import numpy as np
from hypothesis import strategies as st

from asara_env.basari.actions import Group
from asara_env.basari.bridge import from_reference, to_reference
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import legal_action_mask, step
from asara_env.basari.reference import engine
from asara_env.basari.reference.invariants import violations
from asara_env.basari.reference.rules import legal_actions
from asara_env.basari.reference.serialize import state_from_dict, state_to_dict
from asara_env.basari.reference.state import State
from asara_env.common.errors import CorruptStateError
from tests.common.fuzzing import mutate

TALLY: Counter[str] = Counter()  # tried / refused / loaded, over a run

# a 9-archway board and a 40-archway one (user boards, B2.4 replaced)
BOARD_9 = np.array(
    [[4, 1, 1, 0, 0], [5, 0, 2, 0, 1], [6, 0, 0, 3, 0], [7, 0, 0, 0, 2], [4, 2, 0, 1, 1],
     [5, 1, 0, 0, 1], [6, 0, 1, 1, 0], [7, 1, 0, 0, 0], [4, 0, 0, 2, 2]]
)  # fmt: skip
BOARD_40 = np.array([[4 + k % 4, k % 3, (k + 1) % 3, (k + 2) % 4, k % 2] for k in range(40)])
BOARDS = {"9 archways": BOARD_9, "40 archways": BOARD_40}
CONFIGS = tuple(
    BasariConfig(p, mode, board)
    for board in BOARDS.values()
    for p in (2, 3, 4)
    for mode in ("choose", "random")
)


def random_joint(state: State, chooser: np.random.Generator, closing: float = 4.0) -> list[int]:
    """One legal id per seat, uniformly at random except in a barter, where ACCEPT,
    FORFEIT and SUBMIT weigh `closing` (so that barters end within a few dozen steps)."""
    lay = state.config.actions
    weights = np.ones(lay.n_actions)
    for group in (Group.ACCEPT, Group.FORFEIT, Group.SUBMIT):
        weights[lay.offset(group)] = closing
    joint = []
    for seat in range(state.num_players):
        w = legal_actions(state, seat) * weights
        joint.append(int(chooser.choice(lay.n_actions, p=w / w.sum())))
    return joint


@lru_cache(maxsize=1)
def positions() -> tuple[dict[str, Any], ...]:
    """Saved states from one random game of each configuration: the first state of every
    phase the game reaches, a few more along the way, and the finished game."""
    saves = []
    for k, config in enumerate(CONFIGS):
        state, chooser = engine.new_game(config, 100 + k), np.random.default_rng(k)
        seen: set[str] = set()
        while True:
            if state.phase.name not in seen or chooser.random() < 0.06:
                seen.add(state.phase.name)
                saves.append(state_to_dict(state))
            if state.phase.name == "OVER":
                break
            engine.step(state, random_joint(state, chooser))
    return tuple(saves)


INTS = st.one_of(
    st.integers(-3, 12),
    st.sampled_from(
        [-1, 2**7, 2**8, 2**15, 2**16, 2**31 - 1, 2**31 + 5, 2**32, 2**40, 2**63 - 1, 2**63]
        + [2**64 - 1, 2**64, 2**70, -(2**63) - 1]
    ),
    st.integers(),
)
WRONG_TYPES = st.sampled_from(
    ["7", "", 1.5, 1.0, float("inf"), float("nan"), 1e300, None, True, False, [], {}, [1, 2]]
    + [{"x": 1}]
)


@st.composite
def mutations(draw) -> dict[str, Any]:
    """A saved state with one random change: a changed or nudged int, a wrong type, a key
    deleted or added, a list shortened, extended, reordered, or a field taken from another
    position (of any configuration)."""
    return mutate(draw, positions(), INTS, WRONG_TYPES)


FIELD = re.compile(r"^[a-z_]+")


def check_saved(saved: dict[str, Any], seed: int) -> None:
    """`classify` (for hypothesis, which wants None back)."""
    classify(saved, seed)


@lru_cache(maxsize=1)
def saved_keys() -> frozenset[str]:
    return frozenset(positions()[0])


def classify(saved: object, seed: int) -> str:
    """'refused' (CorruptStateError naming a field of the format, the dict untouched) or
    'loaded' (saved back unchanged by the reference and through the core, then played to
    the end identically by both engines); anything else fails."""
    TALLY["tried"] += 1
    before = copy.deepcopy(saved)
    try:
        state = state_from_dict(saved)
    except CorruptStateError as exc:
        assert saved == before or saved != saved, "loading changed the dict it was given"
        assert exc.field, f"the error names no field: {exc}"
        top = FIELD.match(exc.field)
        assert exc.field == "(top)" or (top and top.group() in saved_keys()), exc
        assert str(exc).startswith(exc.field), exc
        TALLY["refused"] += 1
        return "refused"
    assert state_to_dict(state) == saved, "save -> load -> save is not the identity"
    core = from_reference([state.copy()])
    assert state_to_dict(to_reference(core, 0)) == saved, "the bridge does not round-trip"
    play_both_to_the_end(state, seed)
    TALLY["loaded"] += 1
    return "loaded"


def play_both_to_the_end(state: State, seed: int) -> int:
    """Play random legal actions from `state` in the reference engine and the core side by
    side: every seat's mask, the phase, scores and holdings agree at every decision, no
    dead end, and the finished games are the same game. Returns the decisions played."""
    core, ref = from_reference([state.copy()]), state.copy()
    chooser = np.random.default_rng(seed)
    p = ref.num_players
    for played in range(100_000):
        over = ref.phase.name == "OVER"
        masks = legal_action_mask(core)[0]
        for seat in range(p):
            assert masks[seat].tolist() == legal_actions(ref, seat).astype(bool).tolist(), seat
        assert int(core.phase[0]) == ref.phase
        assert core.score[0].tolist() == ref.score.tolist()
        assert core.gems[0].tolist() == ref.gems.tolist()
        if over:
            assert state_to_dict(to_reference(core, 0)) == state_to_dict(ref)
            assert not violations(ref), violations(ref)
            return played
        assert all(masks[s].any() for s in range(p)), f"dead end in {ref.phase.name}"
        joint = random_joint(ref, chooser)
        engine.step(ref, joint)
        step(core, np.array([joint]))
    raise AssertionError("the game did not end within 100,000 decisions")
