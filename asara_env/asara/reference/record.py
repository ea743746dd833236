"""Game records: configuration, seed and actions, replayed to the identical final state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from asara_env.asara.actions import NUM_ACTIONS
from asara_env.asara.config import GameConfig
from asara_env.asara.reference.engine import new_game, step
from asara_env.asara.reference.serialize import state_from_dict, state_to_dict
from asara_env.asara.reference.state import State
from asara_env.common.errors import CorruptStateError
from asara_env.common.record import Rules, replay_actions
from asara_env.common.validate import check_int, check_seed, check_type

RECORD_KEYS = ("config", "seed", "actions")


@dataclass
class GameRecord:
    """Everything needed to replay a game: configuration, seed and actions."""

    config: GameConfig
    seed: int
    actions: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_type("config", self.config, GameConfig)
        self.seed = check_seed("seed", self.seed)
        if not isinstance(self.actions, (list, tuple)):
            raise ValueError(f"actions must be a list of ints, got {type(self.actions).__name__}")
        self.actions = [
            check_int(f"actions[{i}]", a, 0, NUM_ACTIONS - 1) for i, a in enumerate(self.actions)
        ]

    def to_dict(self) -> dict[str, Any]:
        return {"config": self.config.to_dict(), "seed": self.seed, "actions": list(self.actions)}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> GameRecord:
        """The record saved by `to_dict`; CorruptStateError names the first bad field."""
        if not isinstance(d, dict):
            raise CorruptStateError(f"a game record is a dict, got {type(d).__name__}")
        if set(d) != set(RECORD_KEYS):
            raise CorruptStateError(
                f"a game record has the keys {list(RECORD_KEYS)}, got {sorted(map(str, d))}"
            )
        try:
            config = GameConfig.from_dict(d["config"])
        except ValueError as exc:
            raise CorruptStateError(f"malformed game record: config: {exc}") from exc
        try:
            return cls(config, d["seed"], d["actions"])
        except ValueError as exc:
            raise CorruptStateError(f"malformed game record: {exc}") from exc


def replay(record: GameRecord) -> State:
    """The state reached by playing the record's actions from its seed."""
    return replay_actions(
        new_game(record.config, record.seed), record.actions, step, CorruptStateError
    )


# what resuming a saved game of any format needs (`asara_env.common.record.resume`)
RULES: Rules[State, Any] = Rules(
    game="asara",
    new_game=new_game,
    step=step,
    state_from_dict=state_from_dict,
    state_to_dict=state_to_dict,
    record=GameRecord,
    config_of=lambda state: state.config,
    saved_seed=lambda state: 0,  # ASARA's positions carry their chance, not a seed
)
