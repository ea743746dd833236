"""The core state's arrays as one namedtuple, the form numba kernels take them in."""

from __future__ import annotations

from collections import namedtuple
from operator import attrgetter
from typing import Any, cast

import numba

from asara_env.asara.core.state import ARRAY_FIELDS, CoreState

# every array field of CoreState, by name (numba types a namedtuple field by field); its
# fields are made from ARRAY_FIELDS at import, so to mypy an instance is Any
Arrays: Any = cast(Any, namedtuple)("Arrays", ARRAY_FIELDS)


# the decorator of the kernels that allocate nothing: compiled without numba's reference
# counting, a call skips the atomic increments and decrements of every array it is handed
# (the state's ~40), which would otherwise cost more than the rules themselves
_njit: Any = numba.njit  # `_nrt` is numba's own option, absent from its type stubs
UNCOUNTED = _njit(cache=True, _nrt=False)
# the decorator of the kernels that allocate: reference counted even when called from an
# UNCOUNTED one (numba would otherwise compile them as their caller is). An array one
# returns must go to a COUNTED caller, which frees it: an UNCOUNTED one would leak it
COUNTED = _njit(cache=True, _nrt=True)


def fields(state: CoreState) -> tuple[Any, ...]:
    """The state's own arrays in ARRAY_FIELDS order (no copies), the kernels' `*fields`:
    passed one by one, numba types each far faster than inside a tuple."""
    return _GET(state)


_GET = attrgetter(*ARRAY_FIELDS)
