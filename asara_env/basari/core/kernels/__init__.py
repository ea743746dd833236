"""numba kernels over BASARI's core state arrays, one game per loop iteration: the draws
(`chance`), the step with the legal masks it leaves (`step`) and the observation
(`observe`). They are compiled on first use and cached on disk (`cache=True`);
`asara_env.basari.core.compiled` wraps them into the core's verbs. Each mirrors its numpy
counterpart in `asara_env.basari.core` exactly: the tests compare the two byte for byte."""
