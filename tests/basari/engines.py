"""Run BASARI's rule scenario tests on both engines, as ASARA's (tests/asara/engines.py).

Every test module named `test_rules_*.py` runs three times (`[reference]`, `[core]` and
`[core-numba]`, see conftest.py). Under `[core]` and `[core-numba]` (the core on its numpy
and numba backends) the hand-made positions stay reference `State`s, but every joint
action, every legality question and every new game goes through the vectorised core via
the bridge (`asara_env.basari.bridge`): `step` converts the position to a core
batch of one, steps it there and writes the core's result back; `legal_actions` reads the
core's own mask; `new_game` sets the game up in the core; B8's `higher`, B9's `end_round`
and B10's `ranking_score`/`winners`/`ranks` are the core's functions. Each is also played by the
reference engine on a copy and the two results compared (the same state, or both
refusing), so a rule broken in either engine fails a test named after its id.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from types import ModuleType

import numpy as np
import pytest

from asara_env.basari import reference
from asara_env.basari.bridge import PER_GAME, from_reference, to_reference
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import is_terminal, ranking_score
from asara_env.basari.core.tables import bundle_key
from asara_env.basari.reference import State
from asara_env.basari.reference.scoring import end_round as _reference_end_round
from asara_env.common import outcome
from asara_env.games import CoreVerbs, load_core

ENGINES = ("reference", "core", "core-numba")
BACKEND_OF = {"core": "numpy", "core-numba": "numba"}
_core: CoreVerbs = load_core("basari", "numpy")  # the core `use_core` routes through
_reference_step = reference.step
_reference_new_game = reference.new_game
_reference_legal_actions = reference.legal_actions
_reference_ranking_score = reference.ranking_score
_reference_higher = reference.higher


def _differences(a: State, b: State) -> list[str]:
    return [n for n in PER_GAME if not np.array_equal(getattr(a, n), getattr(b, n))]


def _adopt(state: State, result: State) -> None:
    for name in PER_GAME:
        setattr(state, name, getattr(result, name))


def core_step(state: State, actions: Sequence[object]) -> None:
    """reference.step through the core, checked against the reference on a copy: a joint
    action one engine refuses, the other must refuse too (the reference's error raised)."""
    expected = state.copy()
    try:
        _reference_step(expected, actions)
        refused: Exception | None = None
    except Exception as error:  # noqa: BLE001 - any refusal, compared below
        refused = error
    core = from_reference([state])
    if is_terminal(core)[0] and refused is not None:
        # a batch steps on past its finished games, which keep their state: the core's
        # form of the reference's "the game is over"
        _core.step(core, np.zeros((1, state.num_players), np.int64))
        assert not _differences(to_reference(core, 0), state), "a finished game changed"
        raise refused
    try:
        _core.step(core, np.asarray([actions]))
    except Exception as error:  # noqa: BLE001
        if refused is None:
            raise AssertionError(
                f"the core refuses {actions} the reference plays: {error}"
            ) from error
        raise refused from None
    if refused is not None:
        raise AssertionError(f"the core plays {actions} the reference refuses: {refused}")
    after = to_reference(core, 0)
    differ = _differences(after, expected)
    assert not differ, f"core and reference differ after {actions} in {differ}"
    _adopt(state, after)


def core_legal_actions(state: State, seat: int) -> np.ndarray:
    """legal_actions through the core's own mask (int8, as the reference's), checked
    against the reference's."""
    mask = _core.legal_action_mask(from_reference([state]))[0, seat].astype(np.int8)
    expected = _reference_legal_actions(state, seat)
    assert mask.tolist() == expected.tolist(), f"seat {seat}: the engines' masks differ"
    return mask


def core_new_game(config: BasariConfig | None = None, seed: int = 0) -> State:
    """new_game set up by the core (game 0 of a batch of one seeded `seed`), checked
    against the reference's."""
    config = BasariConfig() if config is None else config
    expected = _reference_new_game(config, seed)
    game = to_reference(_core.init(config, 1, seeds=np.array([seed], np.uint64)), 0)
    differ = _differences(game, expected)
    assert not differ, f"new_game({config}, {seed}) differs in {differ}"
    return game


def core_end_round(state: State) -> None:
    """B9's round-end scoring by the core's `score_round`, checked against the reference's."""
    expected = state.copy()
    _reference_end_round(expected)
    core = from_reference([state])
    _core.score_round(core, np.array([0]))
    after = to_reference(core, 0)
    differ = _differences(after, expected)
    assert not differ, f"the engines' round-end scoring differs in {differ}"
    _adopt(state, after)


def core_ranking_score(state: State) -> np.ndarray:
    """B10's order as one number by the core's `ranking_score`, checked against the
    reference's."""
    folded = np.asarray(ranking_score(state.score[None], state.gems[None])[0], np.int64)
    assert folded.tolist() == _reference_ranking_score(state).tolist(), "B10 orders differ"
    return folded


def core_winners(state: State) -> np.ndarray:
    return np.asarray(outcome.winners(core_ranking_score(state)))


def core_ranks(state: State) -> np.ndarray:
    return np.asarray(outcome.ranks(core_ranking_score(state)))


def core_higher(x: np.ndarray, y: np.ndarray) -> bool:
    """B8's comparison by the core's `bundle_key`, checked against the reference's."""
    result = bool(bundle_key(np.asarray(x)[None])[0] > bundle_key(np.asarray(y)[None])[0])
    assert result == _reference_higher(x, y), f"B8: the engines order {x} and {y} differently"
    return result


ROUTED = {
    "step": core_step,
    "new_game": core_new_game,
    "legal_actions": core_legal_actions,
    "end_round": core_end_round,
    "ranking_score": core_ranking_score,
    "winners": core_winners,
    "ranks": core_ranks,
    "higher": core_higher,
}


def use_core(monkeypatch: pytest.MonkeyPatch, module: ModuleType, engine: str = "core") -> None:
    """Route the rule tests of `module` (and tests/basari/helpers.py) through the core on
    the backend of `engine` ("core" or "core-numba")."""
    from tests.basari import helpers

    monkeypatch.setattr(sys.modules[__name__], "_core", load_core("basari", BACKEND_OF[engine]))
    monkeypatch.setattr(reference, "new_game", core_new_game)
    for where in (module, helpers):
        for name, routed in ROUTED.items():
            if hasattr(where, name):
                monkeypatch.setattr(where, name, routed)
