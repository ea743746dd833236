"""numba's on-disk cache of the kernels follows every source a kernel reads
(`asara_env.common.kernel_cache`): a table changed in another module is never served from
a cache compiled before the change. Each case runs fresh processes over a toy package
whose kernel inlines a constant imported from another module."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

numba = pytest.importorskip("numba")

from asara_env.common import kernel_cache  # noqa: E402

REPO = Path(__file__).resolve().parents[2]
GUARD = (
    "from asara_env.common.kernel_cache import use_source_digest_cache\n"
    'use_source_digest_cache(("toykernels",))\n'
)
KERNEL = """import numba

from toykernels.tables import VALUE
{guard}

@numba.njit(cache=True)
def value() -> int:
    return VALUE
"""
RUN = (
    "from toykernels.kernel import value\n"
    "print(value(), sum(value.stats.cache_hits.values()), value.stats.cache_path)"
)


def toy_package(root: Path, guarded: bool) -> None:
    """`toykernels` under `root`: `kernel.value()` returns `tables.VALUE` (1)."""
    package = root / "toykernels"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "tables.py").write_text("VALUE = 1\n")
    (package / "kernel.py").write_text(KERNEL.format(guard=GUARD if guarded else ""))


def run_kernel(root: Path, cache_dir: Path | None) -> tuple[int, int, Path]:
    """A fresh process's `value()`, how many calls it loaded from the cache, and where."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env |= {"PYTHONPATH": f"{root}{os.pathsep}{REPO}", "PYTHONDONTWRITEBYTECODE": "1"}
    if cache_dir is not None:
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    done = subprocess.run(
        [sys.executable, "-c", RUN], env=env, cwd=root, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    value, hits, path = done.stdout.split()
    return int(value), int(hits), Path(path)


@pytest.fixture(params=["in-tree", "NUMBA_CACHE_DIR"])
def cache_dir(request, tmp_path) -> Path | None:
    """Where numba caches: `__pycache__` beside the source, or $NUMBA_CACHE_DIR."""
    return tmp_path / "numba-cache" if request.param == "NUMBA_CACHE_DIR" else None


def test_a_changed_table_is_compiled_again_and_the_old_files_go(tmp_path, cache_dir):
    root = tmp_path / "src"
    root.mkdir()
    toy_package(root, guarded=True)
    assert run_kernel(root, cache_dir)[:2] == (1, 0)  # compiled
    value, hits, path = run_kernel(root, cache_dir)
    assert (value, hits) == (1, 1)  # loaded from the cache
    if cache_dir is not None:
        assert cache_dir in path.parents
    stray = path / "kernel.value-3.py311.nbi"  # numba's own name, without a digest
    stray.write_bytes(b"")
    (root / "toykernels" / "tables.py").write_text("VALUE = 20\n")
    assert run_kernel(root, cache_dir)[:2] == (20, 0)  # the new table, compiled
    assert not stray.exists()
    assert run_kernel(root, cache_dir)[:2] == (20, 1)  # and cached in its turn
    indexes = sorted(p.name for p in path.glob("kernel.value-*.nbi"))
    assert len(indexes) == 1, indexes  # the old sources' files are removed
    (root / "toykernels" / "tables.py").write_text("VALUE = 1\n")
    assert run_kernel(root, cache_dir)[:2] == (1, 0)


def test_numba_alone_serves_the_old_table(tmp_path):
    """Why the guard exists: without it numba checks only `kernel.py`, and keeps running
    the value inlined before `tables.py` changed."""
    root = tmp_path / "src"
    root.mkdir()
    toy_package(root, guarded=False)
    assert run_kernel(root, None)[:2] == (1, 0)
    (root / "toykernels" / "tables.py").write_text("VALUE = 20\n")
    assert run_kernel(root, None)[:2] == (1, 1)  # stale


def test_the_digest_follows_imports_and_only_them(tmp_path):
    root = tmp_path / "src"
    root.mkdir()
    toy_package(root, guarded=True)
    (root / "toykernels" / "unrelated.py").write_text("X = 1\n")
    kernel_file = str(root / "toykernels" / "kernel.py")
    before = kernel_cache.source_digest("toykernels.kernel", kernel_file)
    kernel_cache.source_digest.cache_clear()
    kernel_cache._file_facts.cache_clear()
    (root / "toykernels" / "unrelated.py").write_text("X = 2\n")
    assert kernel_cache.source_digest("toykernels.kernel", kernel_file) == before
    kernel_cache.source_digest.cache_clear()
    kernel_cache._file_facts.cache_clear()
    (root / "toykernels" / "tables.py").write_text("VALUE = 2\n")
    assert kernel_cache.source_digest("toykernels.kernel", kernel_file) != before


def test_imports_are_read_in_every_form():
    source = (
        '"""A module.\n\n    from asara_env import basari_v0   # an example\n"""\n'
        "import numpy as np, asara_env.common.batch\n"
        "from . import tables\n"
        "from .arrays import (\n    Arrays,  # the bundle\n    rules_of as r,\n)\n"
        "from ..state import CoreState\n"
        "if TYPE_CHECKING:\n    from asara_env.envs import Env\n"
    )
    found = kernel_cache._imports(source, "asara_env.asara.core.kernels.step", False)
    assert {
        "numpy",
        "asara_env.common.batch",
        "asara_env.common",
        "asara_env.asara.core.kernels.tables",
        "asara_env.asara.core.kernels.arrays.Arrays",
        "asara_env.asara.core.kernels.arrays.rules_of",
        "asara_env.asara.core.state.CoreState",
    } <= found
    assert not any(name.startswith(("asara_env.envs", "asara_env.basari")) for name in found)


def kernel_modules() -> list[str]:
    """Every module of the project that compiles numba kernels."""
    names = []
    for top in kernel_cache.PROJECT_PACKAGES:
        for path in sorted((REPO / top).rglob("*.py")):
            if "numba.njit(" in path.read_text() and path.name != "kernels.py":
                names.append(".".join(path.relative_to(REPO).with_suffix("").parts))
    return names


@pytest.mark.parametrize("module", kernel_modules())
def test_every_cached_kernel_is_cached_by_digest(module):
    loaded = importlib.import_module(module)
    kernels = [k for k in vars(loaded).values() if isinstance(k, numba.core.dispatcher.Dispatcher)]
    if module == "asara_env.common.sampling":
        kernels = [loaded._compiled_pick()]
    cached = [k for k in kernels if isinstance(k._cache, numba.core.caching.FunctionCache)]
    assert cached, f"{module} defines no cached kernel"
    for kernel in cached:
        locator = kernel._cache._impl.locator
        assert isinstance(locator, kernel_cache.SourceDigestLocator), kernel
