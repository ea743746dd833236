"""The batched-state container every game's vectorised core uses: a dataclass holding the
game's `config` and one numpy array per field, batch axis first, each field declared once
as a `FieldSpec` (dtype, shape after the batch axis, blank value, meaning).

    FIELD_SPECS = {"score": FieldSpec(np.int32, ("P",), 0, "points so far"), ...}
    arrays = blank_arrays(FIELD_SPECS, batch=64, dims={"P": 4})    # name -> array
    state = MyState(config=config, **arrays)
    take(state, rows), copy_state(state), states_equal(a, b)

A shape names its per-configuration sizes by letter ("P" = players, "A" = action ids):
`dims` maps each letter to its size for one configuration. Imports only numpy.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

    S = TypeVar("S", bound=DataclassInstance)
else:
    S = TypeVar("S")

MAX_BATCH = 2**31 - 1  # the most games a core's `init` sets up at once (int32 row indices)

__all__ = [
    "MAX_BATCH",
    "FieldSpec",
    "array_fields",
    "blank_arrays",
    "check_specs",
    "copy_state",
    "field_shape",
    "states_equal",
    "take",
]


@dataclass(frozen=True)
class FieldSpec:
    """dtype, shape after the batch axis (ints, or letters named in `dims`: "P" = players,
    "A" = action ids) and the value of a blank game, with the field's meaning."""

    dtype: type
    shape: tuple[int | str, ...]
    blank: object
    meaning: str


def field_shape(spec: FieldSpec, dims: Mapping[str, int]) -> tuple[int, ...]:
    """`spec`'s shape after the batch axis with its letters replaced by their `dims`."""
    return tuple(dims[d] if isinstance(d, str) else d for d in spec.shape)


def blank_arrays(
    specs: Mapping[str, FieldSpec], batch: int, dims: Mapping[str, int]
) -> dict[str, NDArray[Any]]:
    """name -> array[batch, *shape] of every field of `specs` at its blank value."""
    return {
        name: np.full((batch, *field_shape(spec, dims)), spec.blank, spec.dtype)
        for name, spec in specs.items()
    }


@cache
def array_fields(state_type: type) -> tuple[str, ...]:
    """The array fields of a state dataclass: every field but `config`, in order."""
    return tuple(f.name for f in dataclasses.fields(state_type) if f.name != "config")


def check_specs(state_type: type, specs: Mapping[str, FieldSpec]) -> None:
    """TypeError unless `specs` declares exactly the array fields of `state_type`, in order."""
    if tuple(specs) != array_fields(state_type):
        raise TypeError(
            f"FIELD_SPECS {tuple(specs)} and {state_type.__name__}'s fields "
            f"{array_fields(state_type)} disagree"
        )


def take(state: S, index: object) -> S:
    """The games `index` (an int, slice, index array or bool mask) of a batch, copied."""
    make: Callable[..., S] = type(state)  # the state's dataclass: config + its arrays
    arrays = {n: getattr(state, n)[index].copy() for n in array_fields(type(state))}
    return make(config=getattr(state, "config"), **arrays)  # noqa: B009


def concatenate(parts: Sequence[S]) -> S:
    """The batches `parts` (of one configuration, where they carry one) as one batch, their
    rows in order."""
    make: Callable[..., S] = type(parts[0])
    arrays = {n: np.concatenate([getattr(p, n) for p in parts]) for n in array_fields(make)}
    config = {"config": parts[0].config} if hasattr(parts[0], "config") else {}
    return make(**config, **arrays)


def copy_state(state: S) -> S:
    """A deep copy of the whole batch (the config is immutable and shared)."""
    return take(state, slice(None))


def states_equal(a: S, b: S) -> bool:
    """True when both batches hold the same configuration and identical arrays."""
    return getattr(a, "config", None) == getattr(b, "config", None) and all(
        np.array_equal(getattr(a, n), getattr(b, n)) for n in array_fields(type(a))
    )
