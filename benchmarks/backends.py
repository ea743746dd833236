"""The `--backend` choice the benchmarks share, and the compiled core's start-up cost.

`compile_seconds()` measures in fresh processes, with NUMBA_CACHE_DIR pointing at an empty
temporary folder: the import of the compiled core, and its first calls (`warm_up`) cold
(numba compiles every kernel) and then cached (a second process loads them from that
folder); and the numpy core's import for comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from asara_env.common.backend import BACKENDS, numba_available

ROOT = Path(__file__).resolve().parents[1]
_PROBE = """
import json, time
t0 = time.perf_counter()
import {module} as core
t1 = time.perf_counter()
getattr(core, "warm_up", lambda: None)()
t2 = time.perf_counter()
print(json.dumps({{"import_s": t1 - t0, "first_calls_s": t2 - t1}}))
"""


def add_backend_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--backend",
        nargs="+",
        choices=BACKENDS,
        default=list(BACKENDS),
        help="the cores to measure, side by side (default: both)",
    )


def backends(chosen: list[str]) -> list[str]:
    """The chosen backends that can run here (numba only where it imports), in order."""
    return [b for b in dict.fromkeys(chosen) if b == "numpy" or numba_available()]


def _probe(module: str, cache_dir: str) -> dict[str, float]:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, PYTHONPATH=str(ROOT))
    code = _PROBE.format(module=module)
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def compile_seconds() -> dict[str, float]:
    """Seconds: the numpy core's import; the compiled core's import and first calls, cold
    and cached (see the module docstring)."""
    with tempfile.TemporaryDirectory() as cache:
        numpy_core = _probe("asara_env.asara.core", cache)
        cold = _probe("asara_env.asara.core.compiled", cache)
        cached = _probe("asara_env.asara.core.compiled", cache)
    return {
        "numpy_import_s": round(numpy_core["import_s"], 3),
        "numba_import_s": round(cached["import_s"], 3),
        "numba_first_calls_cold_s": round(cold["first_calls_s"], 2),
        "numba_first_calls_cached_s": round(cached["first_calls_s"], 3),
    }


def print_compile_seconds(times: dict[str, float]) -> None:
    print("start-up (fresh processes): numpy core import", f"{times['numpy_import_s']:.2f} s;")
    print(
        f"  compiled core import {times['numba_import_s']:.2f} s, first calls "
        f"{times['numba_first_calls_cold_s']:.1f} s cold (compiling), "
        f"{times['numba_first_calls_cached_s']:.2f} s from numba's cache"
    )
