"""Game records: configuration, seed and joint actions, replayed to the identical state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from asara_env.basari.chance import check_seed
from asara_env.basari.config import BasariConfig
from asara_env.basari.reference.engine import new_game, step
from asara_env.basari.reference.state import State
from asara_env.common.errors import CorruptStateError
from asara_env.common.record import replay_actions


@dataclass
class GameRecord:
    """Everything needed to replay a game: configuration, seed and the joint actions."""

    config: BasariConfig
    seed: int
    actions: list[list[int]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "config": self.config.to_dict(),
            "seed": self.seed,
            "actions": [list(joint) for joint in self.actions],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameRecord:
        try:
            actions = d["actions"]
            if not isinstance(actions, list) or not all(isinstance(j, list) for j in actions):
                raise TypeError("actions must be a list of joint actions (lists of ids)")
            joints = [[int(a) for a in joint] for joint in actions]
            return cls(BasariConfig.from_dict(d["config"]), check_seed(d["seed"]), joints)
        except (KeyError, TypeError, ValueError) as exc:
            raise CorruptStateError(f"malformed BASARI game record: {exc}") from exc


def replay(record: GameRecord) -> State:
    """The state reached by playing the record's joint actions from its seed."""
    return replay_actions(
        new_game(record.config, record.seed), record.actions, step, CorruptStateError
    )
