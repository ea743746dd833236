"""One validation of the arguments every entry point takes (configurations, seeds, batch
sizes, game indices), for every game of the package. Imports only numpy.

Each check returns the value in a plain form (an `int`, a tuple, an int64 array) or raises
a `ValueError` naming the argument and the accepted range. Integers may be Python or numpy
integers; bools, floats (even 1.0) and strings of digits are refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeGuard, TypeVar

import numpy as np
from numpy.typing import NDArray

T = TypeVar("T")

SEED_LIMIT = 2**64  # seeds are 0 .. 2**64 - 1 (numpy's SeedSequence takes any of them)


def is_int(value: object) -> TypeGuard[int | np.integer[Any]]:
    """True for a Python or numpy integer that is not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def check_int(name: str, value: object, low: int, high: int) -> int:
    """`value` as an int in low..high (both included)."""
    if is_int(value) and low <= int(value) <= high:
        return int(value)
    raise ValueError(f"{name} must be an int from {low} to {high}, got {value!r}")


def check_seed(name: str, value: object) -> int:
    """A seed: an int from 0 to 2**64 - 1."""
    if is_int(value) and 0 <= int(value) < SEED_LIMIT:
        return int(value)
    raise ValueError(f"{name} must be an int from 0 to 2**64 - 1, got {value!r}")


def check_seeds(name: str, value: object, batch: int) -> NDArray[np.uint64]:
    """uint64[batch]: `batch` seeds given as a sequence or array of ints (each checked)."""
    values = _int_array(name, value, "seeds")
    if values.shape != (batch,):
        raise ValueError(f"{name} must hold {batch} seeds, got {values.shape[0]}")
    _check_range(name, values, 0, SEED_LIMIT - 1, "seeds")
    return values.astype(np.uint64)


def check_indices(name: str, games: object, batch: int) -> NDArray[np.int64]:
    """int64[n]: distinct game indices, each from 0 to batch - 1."""
    values = _int_array(name, games, "game indices")
    _check_range(name, values, 0, batch - 1, "game indices")
    values = values.astype(np.int64)
    if len(np.unique(values)) != len(values):
        seen, counts = np.unique(values, return_counts=True)
        raise ValueError(
            f"{name} must hold distinct game indices, got {int(seen[counts > 1][0])} twice"
        )
    return values


def check_choice(name: str, value: object, choices: Sequence[Any]) -> object:
    """`value`, one of `choices`."""
    if isinstance(value, (list, dict, set, np.ndarray)) or value not in choices:
        raise ValueError(f"{name} must be one of {list(choices)}, got {value!r}")
    return value


def check_names(
    name: str, value: object, known: Sequence[str], what: str = "name"
) -> tuple[str, ...]:
    """One name or a sequence of distinct names (each a `what`), each one of `known`;
    returned sorted."""
    names = (value,) if isinstance(value, str) else value
    if not isinstance(names, (Sequence, np.ndarray, set, frozenset)):
        raise ValueError(
            f"{name} must be one {what} or a sequence of {what}s from {list(known)}, got {value!r}"
        )
    for item in names:
        if not isinstance(item, str) or item not in known:
            raise ValueError(f"{name}: unknown {what} {item!r}; known: {list(known)}")
    if len(set(names)) != len(names):
        raise ValueError(f"{name} names one {what} more than once: {list(names)}")
    return tuple(sorted(names))


def check_type(name: str, value: object, kind: type[T]) -> T:
    """`value`, an instance of `kind`."""
    if not isinstance(value, kind):
        raise ValueError(f"{name} must be a {kind.__name__}, got {type(value).__name__}")
    return value


def _int_array(name: str, value: object, what: str) -> np.ndarray:
    """`value` (a one-dimensional sequence or array of ints) as an integer array (object
    dtype where Python ints do not fit one numpy type)."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "iu" or value.ndim != 1:
            raise ValueError(
                f"{name} must be a one-dimensional array of {what} (ints), "
                f"got {value.dtype} of shape {value.shape}"
            )
        return value
    if not isinstance(value, (list, tuple, range)):
        raise ValueError(f"{name} must be a sequence of {what} (ints), got {value!r}")
    bad = [v for v in value if not is_int(v)]
    if bad:
        raise ValueError(f"{name} must hold ints ({what}), got {bad[0]!r}")
    return np.array([int(v) for v in value], dtype=object)


def _check_range(name: str, values: np.ndarray, low: int, high: int, what: str) -> None:
    """Every one of `values` in low..high, else a ValueError naming the first outside."""
    if len(values) and (int(values.min()) < low or int(values.max()) > high):
        bad = next(int(v) for v in values if not low <= int(v) <= high)
        top = "2**64 - 1" if high == SEED_LIMIT - 1 else high
        raise ValueError(f"{name} must hold {what} from {low} to {top}, got {bad}")
