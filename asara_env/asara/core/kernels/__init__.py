"""numba kernels over the core's own state arrays, one game per loop iteration: the legal
mask (`mask`), the step (`step`) and the observation (`observe`). They are compiled on
first use and cached on disk (`cache=True`); `asara_env.asara.core.compiled` wraps them
into the core's verbs. Each mirrors its numpy counterpart in `asara_env.asara.core`
exactly (the tests compare them byte for byte).

The kernels follow the convention of every game's (docs/architecture.md, "Compiled
kernels"): the entry points `apply_actions`, `write_masks`, `observe_games` take the
state as one plain tuple (`arrays.arrays(state)`) and the configuration as another
(`arrays.rules_of(config)`); the helpers are inlined into them (`INLINED`), but
`write_mask`, which two entry points share, and the few that allocate (`COUNTED`).
Their on-disk cache is keyed by every source a kernel's module imports
(`asara_env.common.kernel_cache`): after an edit to `mask.py` or `tables.py`, the kernels
of `step.py` compile again with the new rules."""
