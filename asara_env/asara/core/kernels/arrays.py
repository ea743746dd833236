"""The core state's arrays as one namedtuple, the form numba kernels take them in."""

from __future__ import annotations

from collections import namedtuple

from asara_env.asara.core.state import ARRAY_FIELDS, CoreState

# every array field of CoreState, by name (numba types a namedtuple field by field)
Arrays = namedtuple("Arrays", ARRAY_FIELDS)  # type: ignore[misc]


def arrays(state: CoreState) -> Arrays:
    """The state's own arrays (no copies): kernels write into them in place."""
    return Arrays(*[getattr(state, name) for name in ARRAY_FIELDS])
