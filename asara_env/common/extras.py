"""The optional parts of the package, known by the modules they import: which extra of
`pip install 'asara-env[EXTRA]'` brings a module that is missing, and the one error and
one line that say so.

`require(what, modules)` raises `MissingExtraError` before any work when a module is not
installed; `missing_extra(error)` turns a `ModuleNotFoundError` caught later into one. A
console script prints either as one line on stderr and exits with status 2
(`apps/scripts.py`, `commandline/command.py`'s `run_main`).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable

DISTRIBUTION = "asara-env"
# an optional module (its top-level import name) -> the smallest extra that installs it
EXTRAS: dict[str, str] = {
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "tensorboard": "train",
    "openskill": "tournament",
    "matplotlib": "tournament",
    "choix": "tournament",
    "fastapi": "web",
    "uvicorn": "web",
    "resvg_py": "web",
    "PIL": "web",
    "ray": "ray",
}


class MissingExtraError(ImportError):
    """`what` needs `module`, which is not installed; `extra` is the extra bringing it."""

    def __init__(self, what: str, module: str, extra: str) -> None:
        super().__init__(
            f"{what} needs the {extra!r} extra (module {module!r} is not installed): "
            f"pip install '{DISTRIBUTION}[{extra}]'",
            name=module,
        )
        self.what, self.module, self.extra = what, module, extra


def extra_of(module: str) -> str | None:
    """The extra that installs `module` (a dotted name: its top level counts), None for a
    module no extra brings."""
    return EXTRAS.get(module.partition(".")[0])


def is_installed(module: str) -> bool:
    """Whether `module` (a top-level name) can be imported, without importing it."""
    return importlib.util.find_spec(module) is not None


def require(what: str, modules: Iterable[str]) -> None:
    """`MissingExtraError` for the first of `modules` that is not installed, saying `what`
    needs it and which extra installs it; every module must be one of `EXTRAS`."""
    for module in modules:
        extra = EXTRAS[module]
        if not is_installed(module):
            raise MissingExtraError(what, module, extra)


def missing_extra(error: BaseException, what: str) -> MissingExtraError | None:
    """`error` as a `MissingExtraError` when it is one or is the `ModuleNotFoundError` of a
    module an extra installs (`what` needed it), else None."""
    if isinstance(error, MissingExtraError):
        return error
    if not isinstance(error, ModuleNotFoundError) or error.name is None:
        return None
    module = error.name.partition(".")[0]
    extra = extra_of(module)
    return None if extra is None else MissingExtraError(what, module, extra)
