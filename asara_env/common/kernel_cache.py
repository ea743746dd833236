"""numba's on-disk cache of the kernels, keyed by every source file a kernel can depend on.

numba checks a cached kernel only against the file that defines it, yet a kernel also
bakes in the helpers it inlines from other files and the tables it reads from other
modules (`<game>/core/tables.py`): after a change to those alone, a cache that numba
keeps would run the old rules. Every module that compiles kernels therefore calls

    use_source_digest_cache()        # before its first @numba.njit

which puts `SourceDigestLocator` first among numba's cache locators. For a kernel of
this project it keeps numba's own choice of folder (`__pycache__` beside the source, or
$NUMBA_CACHE_DIR) and numba's file names, but adds to each name a digest of the kernel's
module and of every project module that module imports, directly or not (read from the
sources, a module's opening docstring and `if TYPE_CHECKING:` imports aside). Edit any
of them and the kernels whose closure holds it look for files that do not exist yet:
they compile again, and a stale cache can never be loaded. A module's cache files under
any other digest (or none) are removed when the locator of its first kernel is made; a
process that still runs the old sources and finds its files gone compiles again, it
never loads the new ones (their names differ).

Reading and hashing the closures of all the kernel modules (~90 files, ~0.5 MB; the
imports found with a regular expression, not parsed) costs a few tens of milliseconds of
CPU once a process. numba's other caches (another package's kernels) are left as they are.
"""

from __future__ import annotations

import hashlib
import os
import re
from functools import cache
from pathlib import Path
from types import FunctionType
from typing import Any

from numba.core import caching

PROJECT_PACKAGES = ("asara_env", "agents")
"""Top-level packages whose kernels are cached by digest and whose modules a digest
follows; others (numpy, numba, the standard library) are versioned by their installs, and
numba keys its cache by its own version."""

CACHE_IMPL: Any = vars(caching).get("CacheImpl") or vars(caching)["_CacheImpl"]
"""numba's cache implementation, whose `_locator_classes` it tries in order for each
kernel (`_CacheImpl` before numba 0.68)."""

_digested: set[str] = set()  # the top-level packages use_source_digest_cache was given

DIGEST_CHARS = 16
"""Hex characters of the sha256 digest put into the cache files' names."""

CACHE_SUFFIXES = (".nbi", ".nbc")
"""numba's cache files: an index per kernel and one data file per compiled signature."""


@cache
def module_file(root: Path, module: str) -> Path | None:
    """The source of `module` under `root` (`a/b.py` or `a/b/__init__.py`), or None."""
    base = os.path.join(root, *module.split("."))
    for path in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(path):
            return Path(path)
    return None


IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+([.\w]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)|import[ \t]+([^\n]+))",
    re.MULTILINE,
)
"""An `import a.b, c as d` or `from .a import (b, c as d)` statement, wherever it stands
(a docstring's example too: the closure may hold a module too many, never one too few)."""

MODULE_DOCSTRING = re.compile(r'\A(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*[rRuU]?("""|\'\'\')[\s\S]*?\1')
"""The docstring that opens a module, whose examples import what the module does not (cut
at its first closing quotes: an escaped one would leave more text to read, never less)."""

TYPE_CHECKING_BLOCK = re.compile(r"^if (?:typing\.)?TYPE_CHECKING:\n(?:[ \t]+.*\n|[ \t]*\n)*", re.M)
"""A top-level `if TYPE_CHECKING:` block: imports for the type checker, never run."""


def _names(clause: str) -> list[str]:
    """The imported names of `a, b as c` or `(a,\n b,  # note\n)`."""
    clause = re.sub(r"#[^\n]*", "", clause).strip("() \t\n\\")
    return [part.split()[0] for part in clause.replace("\\\n", " ").split(",") if part.split()]


def _imports(source: str, module: str, is_package: bool) -> set[str]:
    """Every module name the source of `module` may import at run time: each `import a.b`
    and `from a import b` as `a.b` and its parents (the name `b` may be a module or an
    attribute; only the names with a file are followed)."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    code = TYPE_CHECKING_BLOCK.sub("", MODULE_DOCSTRING.sub("", source, count=1))
    for origin, names, plain in IMPORT.findall(code):
        if plain:
            found.update(_names(plain))
            continue
        level = len(origin) - len(origin.lstrip("."))
        if level:
            parts = package.split(".")
            parent = ".".join(parts[: len(parts) - level + 1])
            relative = origin[level:]
            origin = f"{parent}.{relative}" if relative else parent
        found.add(origin)
        found.update(f"{origin}.{name}" for name in _names(names))
    with_parents = set(found)
    for name in found:
        parts = name.split(".")
        with_parents.update(".".join(parts[:n]) for n in range(1, len(parts)))
    return with_parents


@cache
def _file_facts(path: Path, module: str) -> tuple[bytes, frozenset[str]]:
    """The sha256 of `path` and the modules its source imports (read once a process)."""
    source = path.read_bytes()
    imports = _imports(source.decode(), module, path.name == "__init__.py")
    return hashlib.sha256(source).digest(), frozenset(imports)


@cache
def source_digest(module: str, py_file: str) -> str:
    """The digest of `module` (at `py_file`) and of every project module it imports,
    directly or not, but this one: the relative paths and sha256s of their files,
    sorted."""
    path = Path(py_file).resolve()
    depth = module.count(".") + (1 if path.name == "__init__.py" else 0)
    root = path.parents[depth]
    packages = _digested | {module.partition(".")[0]}
    seen: dict[str, Path] = {}
    todo = [module]
    while todo:
        name = todo.pop()
        if name in seen or name == __name__ or name.partition(".")[0] not in packages:
            continue  # this module places the cache files, it is compiled into no kernel
        found = module_file(root, name)
        if found is None:
            continue
        seen[name] = found
        todo.extend(_file_facts(found, name)[1])
    digest = hashlib.sha256()
    for name in sorted(seen):
        digest.update(seen[name].relative_to(root).as_posix().encode() + b"\0")
        digest.update(_file_facts(seen[name], name)[0])
    return digest.hexdigest()[:DIGEST_CHARS]


@cache
def remove_other_digests(folder: str, stem: str, digest: str) -> None:
    """Remove numba's files in `folder` of the module file `stem` (`stem.py`) whose
    names hold no `digest`: its kernels compiled from other sources (or at other lines,
    or before the digest was kept). Once a process per module; a file another process
    removes first, or is still writing under a temporary name, is left alone."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        other = f"-{digest}." not in name
        if name.startswith(f"{stem}.") and name.endswith(CACHE_SUFFIXES) and other:
            try:
                os.remove(os.path.join(folder, name))
            except OSError:
                pass


class SourceDigestLocator:
    """numba's own locator for a project kernel (the folder it would pick), with the
    digest of the kernel's source closure in the files' names and in the index's stamp.
    It has the methods of numba's locators (`numba.core.caching`), the only ones numba
    calls."""

    def __init__(self, inner: Any, digest: str) -> None:
        self._inner = inner
        self._digest = digest

    def ensure_cache_path(self) -> None:
        self._inner.ensure_cache_path()

    def get_cache_path(self) -> str:
        path: str = self._inner.get_cache_path()
        return path

    def get_source_stamp(self) -> object:
        return (self._inner.get_source_stamp(), self._digest)

    def get_disambiguator(self) -> str:
        return f"{self._inner.get_disambiguator()}-{self._digest}"

    @classmethod
    def from_function(cls, py_func: FunctionType, py_file: str) -> SourceDigestLocator | None:
        module = py_func.__module__
        if module.partition(".")[0] not in _digested:
            return None
        for other in CACHE_IMPL._locator_classes:
            if other is cls:
                continue
            inner = other.from_function(py_func, py_file)
            if inner is not None:
                break
        else:
            return None
        digest = source_digest(module, py_file)
        remove_other_digests(inner.get_cache_path(), Path(py_file).stem, digest)
        return cls(inner, digest)


def use_source_digest_cache(packages: tuple[str, ...] = PROJECT_PACKAGES) -> None:
    """Make numba cache the kernels of `packages` (top-level names) under
    `SourceDigestLocator` (idempotent); call it before the first `numba.njit` of a module
    that compiles kernels."""
    _digested.update(packages)
    locators = CACHE_IMPL._locator_classes
    if SourceDigestLocator not in locators:
        locators.insert(0, SourceDigestLocator)
