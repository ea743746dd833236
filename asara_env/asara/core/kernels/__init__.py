"""numba kernels over the core's own state arrays, one game per loop iteration: the legal
mask (`mask`), the step (`step`) and the observation (`observe`). They are compiled on
first use and cached on disk (`cache=True`); `asara_env.asara.core.compiled` wraps them
into the core's verbs. Each mirrors its numpy counterpart in `asara_env.asara.core`
exactly (the tests compare them byte for byte).

The kernels that allocate nothing are decorated `UNCOUNTED` (compiled without reference
counting), the others `COUNTED` (`arrays.py` says why). numba's on-disk cache follows no
call from one file into another: after editing `mask.py`, clear the cache so that the
kernels of `step.py` are compiled again with the new mask."""
