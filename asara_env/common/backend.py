"""Which implementation runs a core's verbs: the readable vectorised numpy path, or numba
kernels compiled over the same state arrays (a game's `core.compiled` module).

    resolve_backend(None)      # $ASARA_ENV_BACKEND if set, else DEFAULT_BACKEND if it loads
    resolve_backend("numpy")   # always available

Both backends give bit-identical games; they differ only in speed. The compiled path pays
where few games are stepped at a time (the envs, search playouts); the numpy path is the
reference for reading and runs wherever numba cannot be imported.
"""

from __future__ import annotations

import importlib.util
import os
from functools import cache

BACKENDS = ("numpy", "numba")
BACKEND_ENV_VAR = "ASARA_ENV_BACKEND"
DEFAULT_BACKEND = "numba"


@cache
def numba_available() -> bool:
    """Whether numba can be imported in this process (checked once)."""
    if importlib.util.find_spec("numba") is None:
        return False
    try:
        import numba  # noqa: F401
    except Exception:  # a broken install (e.g. llvmlite without its shared library)
        return False
    return True


def resolve_backend(backend: str | None = None) -> str:
    """The backend to use: `backend` if given, else $ASARA_ENV_BACKEND, else DEFAULT_BACKEND
    where numba loads and "numpy" where it does not. A ValueError names a bad choice, and
    asking for "numba" explicitly without numba installed is an ImportError saying so."""
    source = "backend"
    if backend is None:
        backend = os.environ.get(BACKEND_ENV_VAR) or None
        source = BACKEND_ENV_VAR
    if backend is None:
        return DEFAULT_BACKEND if numba_available() else "numpy"
    if backend not in BACKENDS:
        raise ValueError(f"{source} must be one of {list(BACKENDS)}, got {backend!r}")
    if backend == "numba" and not numba_available():
        raise ImportError(f'{source}="numba" needs numba: pip install numba (or use "numpy")')
    return backend
