"""The gymnasium ids of the games, read from their cards (`gym_id`, `gym_env`) and
registered by `import asara_env`.

    import asara_env
    import gymnasium
    env = gymnasium.make("asara_env/Basari-v0", num_players=3)

`import asara_env` does not import gymnasium (the numpy cores need neither gymnasium nor
PettingZoo): if gymnasium is loaded already, the ids are registered at once, otherwise
right after gymnasium's own import finishes. Either way a process that imports
`asara_env` (a subprocess worker re-importing the main script included) finds the ids;
one that imports nothing of the package can name the module in the id instead,
`gymnasium.make("asara_env:asara_env/Asara-v0")`. The entry points are import strings, so
registering loads no game (only the cards' small modules).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any


def gym_entry_points() -> dict[str, str]:
    """gymnasium id -> "module:Class" of its single-agent env, from every registered game
    card that names both (`GameCard.gym_id`, `GameCard.gym_env`)."""
    from asara_env.games import GAMES

    return {card.gym_id: card.gym_env for card in GAMES.values() if card.gym_id and card.gym_env}


def register_gym_ids() -> None:
    """Register every id of `gym_entry_points()` that gymnasium does not know yet."""
    import gymnasium

    for gym_id, entry_point in gym_entry_points().items():
        if gym_id not in gymnasium.registry:
            gymnasium.register(id=gym_id, entry_point=entry_point)


def register_when_gymnasium_loads() -> None:
    """`register_gym_ids()` now if gymnasium is imported, else once it is."""
    if "gymnasium" in sys.modules:
        register_gym_ids()
    elif not any(isinstance(f, _AfterGymnasium) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterGymnasium())


class _AfterGymnasium(importlib.abc.MetaPathFinder):
    """Finds gymnasium as the other finders do, with a loader that registers the ids
    after gymnasium's module has run; removes itself on first use."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "gymnasium":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is not None and spec.loader is not None:
            spec.loader = _ThenRegister(spec.loader)
        return spec


class _ThenRegister(importlib.abc.Loader):
    """A module loader that calls `register_gym_ids` once the module has run."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        register_gym_ids()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)
