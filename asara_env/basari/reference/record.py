"""Game records: configuration, seed and joint actions, replayed to the identical state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from asara_env.basari.chance import check_seed
from asara_env.basari.config import BasariConfig
from asara_env.basari.reference.engine import new_game, step
from asara_env.basari.reference.serialize import state_from_dict, state_to_dict
from asara_env.basari.reference.state import State
from asara_env.common.errors import CorruptStateError
from asara_env.common.record import Rules, replay_actions
from asara_env.common.validate import check_int, check_type

RECORD_KEYS = ("config", "seed", "actions")


@dataclass
class GameRecord:
    """Everything needed to replay a game: configuration, seed and the joint actions (one
    int id per seat each; bools, floats and strings are refused, never converted)."""

    config: BasariConfig
    seed: int
    actions: list[list[int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        check_type("config", self.config, BasariConfig)
        self.seed = check_seed(self.seed)
        if not isinstance(self.actions, (list, tuple)):
            raise ValueError(f"actions must be a list of joint actions, got {self.actions!r:.60}")
        p, n = self.config.num_players, self.config.n_actions
        joints = []
        for i, joint in enumerate(self.actions):
            if not isinstance(joint, (list, tuple)) or len(joint) != p:
                raise ValueError(f"actions[{i}] must be a list of {p} ids, got {joint!r:.60}")
            joints.append(
                [check_int(f"actions[{i}][{s}]", a, 0, n - 1) for s, a in enumerate(joint)]
            )
        self.actions = joints

    def to_dict(self) -> dict[str, Any]:
        return {
            "config": self.config.to_dict(),
            "seed": self.seed,
            "actions": [list(joint) for joint in self.actions],
        }

    @classmethod
    def from_dict(cls, d: object) -> GameRecord:
        """The record saved by `to_dict`; CorruptStateError naming the first bad field."""
        if not isinstance(d, dict):
            raise CorruptStateError(f"a game record is a dict, got {type(d).__name__}", "(top)")
        if set(d) != set(RECORD_KEYS):
            raise CorruptStateError(
                f"a game record has the keys {list(RECORD_KEYS)}, got {sorted(map(str, d))}",
                "(top)",
            )
        try:
            config = BasariConfig.from_dict(d["config"])
        except ValueError as exc:
            raise CorruptStateError(f"malformed BASARI game record: {exc}", "config") from exc
        try:
            return cls(config, d["seed"], d["actions"])
        except ValueError as exc:
            field = "seed" if "seed" in str(exc).split(" ")[0] else "actions"
            raise CorruptStateError(f"malformed BASARI game record: {exc}", field) from exc


def replay(record: GameRecord) -> State:
    """The state reached by playing the record's joint actions from its seed."""
    return replay_actions(
        new_game(record.config, record.seed), record.actions, step, CorruptStateError
    )


# what resuming a saved game of any format needs (`asara_env.common.record.resume`)
RULES: Rules[State, Any] = Rules(
    game="basari",
    new_game=new_game,
    step=step,
    state_from_dict=state_from_dict,
    state_to_dict=state_to_dict,
    record=GameRecord,
    config_of=lambda state: state.config,
    saved_seed=lambda state: int(state.seed),
)
