"""asara-env: the board games ASARA and BASARI as reinforcement-learning environments.

    import asara_env
    asara_env.available_games()                      # ('asara', 'basari')
    env = asara_env.make("basari", num_players=3)    # any game's PettingZoo env, by name
    env = asara_env.env(num_players=2)               # ASARA's AEC env (also asara_v0.env)
    from asara_env import basari_v0                  # BASARI's parallel_env / env

This face is lazy (PEP 562): importing `asara_env` loads only the exceptions, and every
other public name is imported on first use, so `import asara_env.basari.core` loads
nothing of ASARA (and the reverse), and the numpy cores need neither PettingZoo nor
gymnasium. The names kept from when ASARA was the only game (`env`, `raw_env`,
`GameConfig`, `NUM_ACTIONS`, `encode`, `decode`, `describe_action`) are ASARA's.
`IllegalActionError` and `CorruptStateError` are every game's. The games' gymnasium ids
(`asara_env/Asara-v0`, `asara_env/Basari-v0`) are registered by this import, once
gymnasium is loaded (`asara_env.gym_ids`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from asara_env.common.errors import CorruptStateError, IllegalActionError
from asara_env.gym_ids import register_when_gymnasium_loads

if TYPE_CHECKING:
    from asara_env import asara_v0, basari_v0
    from asara_env.asara.actions import NUM_ACTIONS, decode, describe_action, encode
    from asara_env.asara.config import GameConfig
    from asara_env.asara.env import env, raw_env
    from asara_env.games import GAMES, GameCard, available_games, make, register

__all__ = [
    "GAMES",
    "NUM_ACTIONS",
    "CorruptStateError",
    "GameCard",
    "GameConfig",
    "IllegalActionError",
    "asara_v0",
    "available_games",
    "basari_v0",
    "decode",
    "describe_action",
    "encode",
    "env",
    "make",
    "raw_env",
    "register",
]

# public name -> "module" or "module:attribute", imported on first use
_LAZY = {
    "asara_v0": "asara_env.asara_v0",
    "basari_v0": "asara_env.basari_v0",
    "env": "asara_env.asara_v0:env",
    "raw_env": "asara_env.asara_v0:raw_env",
    "GameConfig": "asara_env.asara.config:GameConfig",
    "NUM_ACTIONS": "asara_env.asara.actions:NUM_ACTIONS",
    "encode": "asara_env.asara.actions:encode",
    "decode": "asara_env.asara.actions:decode",
    "describe_action": "asara_env.asara.actions:describe_action",
    "GAMES": "asara_env.games:GAMES",
    "GameCard": "asara_env.games:GameCard",
    "available_games": "asara_env.games:available_games",
    "make": "asara_env.games:make",
    "register": "asara_env.games:register",
}


register_when_gymnasium_loads()


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'asara_env' has no attribute {name!r}")
    module, _, attribute = _LAZY[name].partition(":")
    loaded = importlib.import_module(module)
    value = getattr(loaded, attribute) if attribute else loaded
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
