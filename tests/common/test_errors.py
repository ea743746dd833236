"""One exception hierarchy for every game: `asara_env.IllegalActionError` and
`asara_env.CorruptStateError` catch ASARA's and BASARI's refusals alike, with the same
fields in the same order."""

from __future__ import annotations

import numpy as np
import pytest

import asara_env
from asara_env.asara import core as asara_core
from asara_env.asara.config import GameConfig
from asara_env.basari import core as basari_core
from asara_env.basari.config import BasariConfig
from asara_env.basari.reference import state_from_dict
from asara_env.common.errors import CorruptStateError, IllegalActionError


def _asara_refusal() -> IllegalActionError:
    state = asara_core.init(GameConfig(num_players=2), 1, seeds=0)
    bad = int(np.flatnonzero(~asara_core.legal_action_mask(state)[0])[0])
    with pytest.raises(asara_env.IllegalActionError) as refused:
        asara_core.step(state, np.array([bad]))
    return refused.value


def _basari_refusal() -> IllegalActionError:
    state = basari_core.init(BasariConfig(num_players=3), 1, seeds=0)
    actions = np.zeros((1, 3), np.int64)  # NOOP, never legal in SETUP
    with pytest.raises(asara_env.IllegalActionError) as refused:
        basari_core.step(state, actions)
    return refused.value


@pytest.mark.parametrize("refusal", [_asara_refusal, _basari_refusal], ids=["asara", "basari"])
def test_the_package_exception_catches_every_games_refusal_with_the_same_fields(refusal):
    error = refusal()
    assert type(error) is IllegalActionError is asara_env.IllegalActionError
    assert isinstance(error, ValueError)
    assert error.seat == 0 and error.phase and error.reason
    text = str(error)
    assert text.startswith(f"illegal action {error.action!r} ({error.name}) for seat 0 (player_0)")
    assert f"in phase {error.phase}: {error.reason}" in text


def test_the_fields_are_in_one_order_seat_first():
    error = IllegalActionError(2, 17, "card: Points", "SELECT", "not legal now")
    assert (error.seat, error.action, error.name, error.phase, error.reason) == (
        2,
        17,
        "card: Points",
        "SELECT",
        "not legal now",
    )
    assert str(error) == (
        "illegal action 17 (card: Points) for seat 2 (player_2) in phase SELECT: not legal now"
    )
    assert "(no single seat)" in str(IllegalActionError(-1, "x", "?", "-", "not an int"))


def test_corrupt_saves_of_both_games_are_the_package_exception():
    from asara_env.asara.reference.serialize import state_from_dict as asara_from_dict

    for load in (asara_from_dict, state_from_dict):
        with pytest.raises(asara_env.CorruptStateError):
            load({"schema": "nonsense"})
    assert asara_env.CorruptStateError is CorruptStateError
    assert str(CorruptStateError("must be 1", "version")) == "version: must be 1"
    assert CorruptStateError("must be 1", "version").field == "version"
