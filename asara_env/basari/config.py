"""BASARI's game configuration: players, start mode, board (E1, B1, B3.4)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from asara_env.basari.actions import ActionLayout
from asara_env.basari.constants import BOARD, MAX_PLAYERS, MIN_PLAYERS, max_turns, validate_board

START_MODES = ("choose", "random")


@functools.lru_cache(maxsize=64)
def _layout(n_archways: int) -> ActionLayout:
    return ActionLayout(n_archways)


@dataclass(frozen=True, eq=False)
class BasariConfig:
    """One game's configuration. Invalid values raise `ValueError` naming the field.

    num_players: 3 or 4, or the non-standard 2 ([assumed], B1). start_mode: "choose" (every
    seat picks its start archway at once, B3.4) or "random" (drawn from the seed, C4).
    board: int[n_archways, 5] (points, R, Y, G, B per archway); default the [assumed] B2.4
    board.
    """

    num_players: int = 4
    start_mode: str = "choose"
    board: NDArray[np.int64] = field(default_factory=lambda: BOARD)

    def __post_init__(self) -> None:
        n = self.num_players
        if isinstance(n, (bool, np.bool_)) or not isinstance(n, (int, np.integer)):
            raise ValueError(f"num_players must be an int, got {n!r}")
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise ValueError(f"num_players must be in {MIN_PLAYERS}..{MAX_PLAYERS}, got {n}")
        object.__setattr__(self, "num_players", int(n))
        mode = self.start_mode
        if not isinstance(mode, str) or mode not in START_MODES:
            raise ValueError(f"start_mode must be one of {START_MODES}, got {mode!r}")
        object.__setattr__(self, "board", validate_board(self.board, "board"))

    @property
    def n_archways(self) -> int:
        return int(self.board.shape[0])

    @property
    def actions(self) -> ActionLayout:
        return _layout(self.n_archways)

    @property
    def n_actions(self) -> int:
        return self.actions.n_actions

    @property
    def max_turns(self) -> int:
        return max_turns(self.n_archways)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BasariConfig):
            return NotImplemented
        return (
            self.num_players == other.num_players
            and self.start_mode == other.start_mode
            and np.array_equal(self.board, other.board)
        )

    def __hash__(self) -> int:
        return hash((self.num_players, self.start_mode, self.board.tobytes()))

    def to_dict(self) -> dict[str, Any]:
        return {
            "num_players": self.num_players,
            "start_mode": self.start_mode,
            "board": self.board.tolist(),
        }

    @staticmethod
    def check(config: object, name: str = "config") -> BasariConfig:
        """`config` if it is a BasariConfig, else a TypeError naming `name`."""
        if not isinstance(config, BasariConfig):
            raise TypeError(f"{name} must be a BasariConfig, got {config!r:.60}")
        return config

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> BasariConfig:
        if not isinstance(d, dict):
            raise ValueError(f"config must be a dict, got {type(d).__name__}")
        unknown = set(d) - {"num_players", "start_mode", "board"}
        if unknown:
            raise ValueError(f"unknown config keys: {sorted(unknown)}")
        return cls(
            num_players=d.get("num_players", 4),
            start_mode=d.get("start_mode", "choose"),
            board=d.get("board", BOARD),
        )
