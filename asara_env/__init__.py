"""asara-env: the board game ASARA as a reinforcement-learning environment."""

from .actions import NUM_ACTIONS, decode, describe_action, encode
from .config import GameConfig
from .errors import CorruptStateError, IllegalActionError

__all__ = [
    "NUM_ACTIONS",
    "GameConfig",
    "IllegalActionError",
    "CorruptStateError",
    "decode",
    "describe_action",
    "encode",
]
