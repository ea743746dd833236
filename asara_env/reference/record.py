"""Game records: configuration, seed and actions, replayed to the identical final state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..config import GameConfig
from ..errors import CorruptStateError
from .engine import new_game, step
from .serialize import as_int
from .state import State


@dataclass
class GameRecord:
    """Everything needed to replay a game: configuration, seed and actions."""

    config: GameConfig
    seed: int
    actions: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"config": self.config.to_dict(), "seed": self.seed, "actions": list(self.actions)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameRecord:
        try:
            return cls(
                GameConfig.from_dict(d["config"]),
                as_int(d["seed"], "seed"),
                [as_int(a, "action") for a in d["actions"]],
            )
        except (KeyError, TypeError) as exc:
            raise CorruptStateError(f"malformed game record: {exc}") from exc


def replay(record: GameRecord) -> State:
    """The state reached by playing the record's actions from its seed."""
    state = new_game(record.config, record.seed)
    for i, action in enumerate(record.actions):
        try:
            step(state, action)
        except ValueError as exc:
            raise CorruptStateError(f"record action #{i} cannot be replayed: {exc}") from exc
    return state
