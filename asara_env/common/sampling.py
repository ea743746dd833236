"""A uniformly random legal action per row of a mask, for every game: the floor(u * n)-th of
a row's n legal actions for a uniform double u drawn per row.

    actions = random_legal(mask, rng)         # mask bool[..., A], one rng.random() per row
    actions = uniform_legal(mask, u)          # the same, given the doubles

The pick is compiled with numba where it loads and vectorised with numpy otherwise; both
give the same actions for the same doubles (the doubles are always drawn by numpy, row by
row in C order, as `rng.random(mask.shape[:-1])`). A row without a legal action gets 0.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
from numpy.typing import ArrayLike, NDArray

from asara_env.common.backend import BACKENDS, numba_available

__all__ = ["random_legal", "uniform_legal"]

Picker = Callable[[NDArray[np.uint8], NDArray[np.float64], NDArray[np.int64]], None]


def random_legal(
    mask: ArrayLike, rng: np.random.Generator, backend: str | None = None
) -> NDArray[np.int64]:
    """int64[...]: one uniformly random legal action id per row of `mask` [..., A], from
    one `rng.random()` double per row (0 where a row has none)."""
    mask = np.asarray(mask)
    return uniform_legal(mask, rng.random(mask.shape[:-1]), backend)


def uniform_legal(mask: ArrayLike, u: ArrayLike, backend: str | None = None) -> NDArray[np.int64]:
    """int64[...]: per row of `mask` [..., A] with n legal actions, the floor(u * n)-th of
    them for its double u in [0, 1) (`u` shaped as mask.shape[:-1]; 0 where n is 0).
    `backend`: "numba" or "numpy" (by default numba where it loads)."""
    mask = np.asarray(mask, bool)
    u = np.asarray(u, np.float64)
    if u.shape != mask.shape[:-1]:
        raise ValueError(f"u must have shape {mask.shape[:-1]}, got {u.shape}")
    rows = np.ascontiguousarray(mask.reshape(-1, mask.shape[-1])).view(np.uint8)
    out = np.zeros(len(rows), np.int64)
    _picker(backend)(rows, np.ascontiguousarray(u.reshape(-1)), out)
    return out.reshape(u.shape)


def _picker(backend: str | None) -> Picker:
    if backend is None:
        backend = "numba" if numba_available() else "numpy"
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {list(BACKENDS)}, got {backend!r}")
    return _compiled_pick() if backend == "numba" else _numpy_pick


def _numpy_pick(rows: NDArray[np.uint8], u: NDArray[np.float64], out: NDArray[np.int64]) -> None:
    if rows.shape[1] == 0:
        return
    ranks = np.cumsum(rows, axis=1, dtype=np.int64)
    k = (u * ranks[:, -1]).astype(np.int64)
    out[:] = np.argmax(ranks > k[:, None], axis=1)


def _pick_rows(rows: NDArray[np.uint8], u: NDArray[np.float64], out: NDArray[np.int64]) -> None:
    """out[i]: the floor(u[i] * n)-th non-zero of rows[i] (n its non-zeros; untouched if 0)."""
    width = rows.shape[1]
    for i in range(rows.shape[0]):
        row = rows[i]
        n = 0
        for a in range(width):
            n += row[a]
        if n == 0:
            continue
        k = np.int64(u[i] * n)
        for a in range(width):
            if row[a]:
                if k == 0:
                    out[i] = a
                    break
                k -= 1


@cache
def _compiled_pick() -> Picker:
    import numba

    from asara_env.common.kernel_cache import use_source_digest_cache

    use_source_digest_cache()
    picker: Picker = numba.njit(cache=True, nogil=True)(_pick_rows)
    return picker
