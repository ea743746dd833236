"""Independent jobs spread over a Ray cluster: the ladder's games and the tournament's chunks
(`--ray`, `--address A`). Ray is imported only here, only when asked for.

Each job is a call `fn(*args)` of a module-level function, run as a Ray task; the workers
of a local instance import this checkout (its root goes on their PYTHONPATH), the nodes of
a remote cluster need asara-env installed. Results come back as the tasks finish, each
with its job's index, so the caller can write them as they come (the ladder) or put them
back in order (the tournament).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = str(Path(__file__).resolve().parents[1])  # the checkout the local workers import


def import_ray() -> Any:
    """The `ray` module, or a RuntimeError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise RuntimeError(
            "--ray / --address need Ray, which is not installed: "
            "pip install 'asara-env[ray]' (or pip install ray)"
        ) from None
    return ray


def ray_jobs(
    fn: Callable[..., Any], jobs: Sequence[tuple[Any, ...]], address: str | None = None
) -> Iterator[tuple[int, Any]]:
    """(index, fn(*jobs[index])) for every job, run as Ray tasks and yielded as they finish
    (in any order). Connects to the cluster at `address` (None: a new local instance)
    unless Ray is already initialised."""
    ray = import_ray()
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    remote = ray.remote(fn).options(runtime_env={"env_vars": {"PYTHONPATH": ROOT}})
    pending = {remote.remote(*args): i for i, args in enumerate(jobs)}
    while pending:
        (ready,), _ = ray.wait(list(pending), num_returns=1)
        yield pending.pop(ready), ray.get(ready)
