"""The one batched-state container (asara_env.common.batch) and both cores' use of it:
every field declared once, with its meaning, and the blank states, copies and takes of
both games built from those declarations."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from asara_env.asara.config import GameConfig
from asara_env.asara.core import state as asara_state
from asara_env.basari.config import BasariConfig
from asara_env.basari.core import state as basari_state
from asara_env.common import batch
from asara_env.common.batch import FieldSpec


@dataclass
class Toy:
    config: int
    score: np.ndarray
    legal: np.ndarray


TOY_SPECS = {
    "score": FieldSpec(np.int32, ("P",), 0, "points"),
    "legal": FieldSpec(bool, ("P", "A"), True, "legal actions of every seat"),
}


def toy(n: int) -> Toy:
    return Toy(config=3, **batch.blank_arrays(TOY_SPECS, n, {"P": 3, "A": 5}))


def test_blank_arrays_have_the_declared_dtypes_shapes_and_values():
    state = toy(4)
    assert state.score.dtype == np.int32 and state.score.shape == (4, 3) and not state.score.any()
    assert state.legal.dtype == bool and state.legal.shape == (4, 3, 5) and state.legal.all()
    assert batch.field_shape(TOY_SPECS["legal"], {"P": 2, "A": 7}) == (2, 7)


def test_take_and_copy_are_independent_copies_and_states_equal_compares_them():
    state = toy(4)
    state.score[:] = np.arange(12).reshape(4, 3)
    two = batch.take(state, np.array([1, 3]))
    assert type(two) is Toy and two.config == 3 and two.score.tolist() == [[3, 4, 5], [9, 10, 11]]
    twin = batch.copy_state(state)
    assert batch.states_equal(twin, state)
    twin.score[0, 0] = 99
    assert not batch.states_equal(twin, state) and state.score[0, 0] == 0
    assert not batch.states_equal(batch.take(state, slice(0, 3)), state)


def test_concatenate_joins_batches_in_order_with_or_without_a_config():
    state = toy(4)
    state.score[:] = np.arange(12).reshape(4, 3)
    parts = [batch.take(state, slice(0, 1)), batch.take(state, slice(1, 4))]
    assert batch.states_equal(batch.concatenate(parts), state)

    @dataclass
    class Rows:
        x: np.ndarray
        y: np.ndarray

    joined = batch.concatenate([Rows(np.arange(2), np.zeros(2)), Rows(np.arange(3), np.ones(3))])
    assert joined.x.tolist() == [0, 1, 0, 1, 2] and joined.y.tolist() == [0, 0, 1, 1, 1]


def test_specs_that_disagree_with_the_dataclass_are_refused():
    batch.check_specs(Toy, TOY_SPECS)
    with pytest.raises(TypeError, match="disagree"):
        batch.check_specs(Toy, {"legal": TOY_SPECS["legal"], "score": TOY_SPECS["score"]})
    assert batch.array_fields(Toy) == ("score", "legal")


@pytest.mark.parametrize(
    "module, config",
    [(asara_state, GameConfig(num_players=3, variant="pro")), (basari_state, BasariConfig())],
    ids=["asara", "basari"],
)
def test_both_cores_declare_every_field_once_with_its_meaning(module, config):
    assert tuple(module.FIELD_SPECS) == module.ARRAY_FIELDS
    state = module.blank(config, 5)
    for name, spec in module.FIELD_SPECS.items():
        assert isinstance(spec, FieldSpec) and spec.meaning, name
        array = getattr(state, name)
        assert array.dtype == spec.dtype, name
        assert array.shape == (5, *module.field_shape(config, name)), name
        assert (array == spec.blank).all(), name
    assert module.take is batch.take and module.copy_state is batch.copy_state
