"""How every game's numba kernels are compiled: the keyword arguments of `numba.njit`
(`@numba.njit(**ENTRY)`), one set for each kind of kernel function. This module imports
no numba, so a core that only names these stays importable without it.

The convention (docs/architecture.md): an entry point, called from Python, takes the
state's arrays as ONE plain tuple (`arrays(state)`, in the core's `ARRAY_FIELDS` order)
and names it inside with the game's typed `Arrays` bundle (`s = Arrays(*state)`); the
other arguments are the configuration's tables, the actions and the outputs. A plain
tuple is the cheapest of the forms measured (benchmarks/bench_kernel_calls.py: ~0.2 µs a
call under one argument per array, half a namedtuple's); a namedtuple handed from Python
is much slower to type at the call.
"""

from __future__ import annotations

from typing import Any

ENTRY: dict[str, Any] = {"cache": True, "_nrt": False}
"""An entry point or helper that allocates nothing: cached on disk and compiled without
numba's reference counting, which would otherwise count (atomically) every array it
takes out of the state's ~40 on every call."""

COUNTED: dict[str, Any] = {"cache": True, "_nrt": True}
"""A function that allocates (an array it makes or returns): reference counted even when
called from an ENTRY one, which numba would otherwise compile it like. An array it returns
must go to a COUNTED caller, which frees it."""

INLINED: dict[str, Any] = {**ENTRY, "inline": "always"}
"""A helper inlined into every caller at numba's IR level (no call, no separate
compilation): for the small ones, and for those that take the whole state bundle, which a
call would otherwise copy. Not into a COUNTED caller: inlined there, every array the helper
reads from the bundle is reference counted; a bundle-taking helper of a COUNTED function is
an ENTRY one of its own (ASARA's `hidden_core.redeal_cards`: determinisation 7 times
faster so)."""
