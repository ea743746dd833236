"""The reference engine's state: one game, plain numpy arrays (see DESIGN.md's table)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, fields

import numpy as np

from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import GEMS_PER_COLOUR, N_COLOURS, START_GEMS
from asara_env.basari.phases import Phase

ARRAY_FIELDS = (
    "score",
    "gems",
    "carpet",
    "position",
    "start",
    "progress",
    "move_roll",
    "action_roll",
    "revealed",
    "offer",
    "pending",
)


@dataclass(eq=False)
class State:
    """One BASARI game. Seats are 0..P-1; colours and cards index as in `constants`."""

    config: BasariConfig
    seed: int  # the 64-bit game seed, the only source of chance (E4)
    score: np.ndarray  # int64[P], points (unbounded)
    gems: np.ndarray  # int64[P, 4], holdings per colour (public, B3.2)
    carpet: np.ndarray  # int64[4], the supply per colour
    position: np.ndarray  # int64[P], merchant's archway; -1 during SETUP
    start: np.ndarray  # int64[P], start disk's archway; -1 during SETUP
    progress: np.ndarray  # int64[P], archways moved this round (B4.3)
    move_roll: np.ndarray  # int64[P], this turn's movement die; 0 before the first
    action_roll: np.ndarray  # int64[P], this turn's Die-action roll; 0 = none
    revealed: np.ndarray  # int64[P], card revealed this turn; -1 = none
    offer: np.ndarray  # int64[4], the standing offer; zeros if none
    pending: np.ndarray  # int64[4], the bundle `to_act` is building
    phase: Phase = Phase.SETUP
    round: int = 0  # 0..ROUNDS-1; stays ROUNDS-1 when OVER
    turn: int = 0  # 0-based turn within the round
    barter_card: int = -1  # card of the running barter; -1 = none
    queued_card: int = -1  # card of the barter still to come this turn; -1 = none
    opener: int = -1  # seat A of the running barter (B7.1); -1 = none
    responder: int = -1  # seat B; -1 = none
    to_act: int = -1  # the seat to act in the barter; -1 = none
    offer_by: int = -1  # seat that made the standing offer; -1 = none
    offers: int = 0  # offers submitted in the running barter

    @classmethod
    def initial(cls, config: BasariConfig, seed: int) -> State:
        """B3: 3 gems of each colour per seat, the rest on the carpets, scores 0, no
        merchant placed yet (phase SETUP)."""
        p = config.num_players

        def ints(n: int, value: int = 0) -> np.ndarray:
            return np.full(n, value, np.int64)

        return cls(
            config=config,
            seed=seed,
            score=ints(p),
            gems=np.full((p, N_COLOURS), START_GEMS, np.int64),
            carpet=ints(N_COLOURS, GEMS_PER_COLOUR - START_GEMS * p),
            position=ints(p, -1),
            start=ints(p, -1),
            progress=ints(p),
            move_roll=ints(p),
            action_roll=ints(p),
            revealed=ints(p, -1),
            offer=ints(N_COLOURS),
            pending=ints(N_COLOURS),
        )

    @property
    def num_players(self) -> int:
        return self.config.num_players

    @property
    def n_archways(self) -> int:
        return self.config.n_archways

    @property
    def board(self) -> np.ndarray:
        return self.config.board

    @property
    def lapped(self) -> np.ndarray:
        """bool[P]: the seat's merchant completed a lap this round (B4.3)."""
        return self.progress >= self.n_archways

    def copy(self) -> State:
        """An independent copy (the configuration is immutable and shared)."""
        new = copy.copy(self)
        for name in ARRAY_FIELDS:
            setattr(new, name, getattr(self, name).copy())
        return new

    def equals(self, other: State) -> bool:
        """Field-by-field equality (arrays compared by value)."""
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            if f.name in ARRAY_FIELDS:
                if not np.array_equal(a, b):
                    return False
            elif a != b:
                return False
        return True
