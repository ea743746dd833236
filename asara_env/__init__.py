"""asara-env: the board game ASARA as a reinforcement-learning environment.

`asara_env.env(...)` / `asara_env.raw_env(...)` (the PettingZoo AEC environment, also as
`asara_env.asara_v0`) are imported on first use, so that the numpy core can be used without
PettingZoo or gymnasium installed.
"""

from typing import Any

from asara_env.asara.actions import NUM_ACTIONS, decode, describe_action, encode
from asara_env.asara.config import GameConfig
from asara_env.common.errors import CorruptStateError, IllegalActionError

__all__ = [
    "NUM_ACTIONS",
    "GameConfig",
    "IllegalActionError",
    "CorruptStateError",
    "decode",
    "describe_action",
    "encode",
    "env",
    "raw_env",
    "asara_v0",
]


def __getattr__(name: str) -> Any:
    if name in ("env", "raw_env", "asara_v0"):
        import importlib

        asara_v0 = importlib.import_module(".asara_v0", __name__)
        return asara_v0 if name == "asara_v0" else getattr(asara_v0, name)
    raise AttributeError(f"module 'asara_env' has no attribute {name!r}")
