"""Decode BASARI observations (`asara_env.basari.core.observation`) into named arrays.

Agents read only the observation and the mask; this turns the flat, scaled vector back into
integers by the slice table declared in the core, so no agent hard-codes an offset.
Everything is batched: `View.of(obs)` takes float32[B, OBS_SIZE] (ego-centric: seat 0 of
every per-seat array is the viewer, then the following seats clockwise).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from asara_env.basari.core.observation import (
    GEM_SCALE,
    POINTS_SCALE,
    SCORE_SCALE,
    obs_index,
    seat_index,
)

MAX_SEATS = 4


def n_archways_of(obs_size: int) -> int:
    """The board size N from OBS_SIZE = 112 + 9 N."""
    n, rest = divmod(obs_size - 112, 9)
    if rest or n < 1:
        raise ValueError(f"{obs_size} is not a BASARI observation size (112 + 9 N)")
    return n


def _int(x: np.ndarray, scale: float) -> np.ndarray:
    return np.rint(x * scale).astype(np.int64)


def _one_hot_index(x: np.ndarray) -> np.ndarray:
    """int64[...]: the index of the 1 in the last axis, -1 where it is all zeros."""
    return np.where(x.any(axis=-1), np.argmax(x, axis=-1), -1)


@dataclass(frozen=True)
class View:
    """One batch of observations as named integer arrays (ego seats: 0 = the viewer)."""

    n_archways: int
    phase: np.ndarray  # int64[B]: Phase value
    round: np.ndarray  # int64[B]: 0..ROUNDS-1
    carpets: np.ndarray  # int64[B, 4]: gems left per colour
    board_points: np.ndarray  # int64[B, N]
    board_gems: np.ndarray  # int64[B, N, 4]
    present: np.ndarray  # bool[B, 4]
    score: np.ndarray  # int64[B, 4]
    gems: np.ndarray  # int64[B, 4, 4]: [ego seat, colour]
    position: np.ndarray  # int64[B, 4]: archway, -1 before SETUP or for absent seats
    lap_left: np.ndarray  # int64[B, 4]: archways left to complete the lap (0 once done)
    lap_done: np.ndarray  # bool[B, 4]
    card: np.ndarray  # int64[B, 4]: card revealed this turn, -1 = none
    party: np.ndarray  # bool[B, 4]: a party of the running barter
    opener: np.ndarray  # bool[B, 4]
    to_act: np.ndarray  # bool[B, 4]
    barter_card: np.ndarray  # int64[B]: -1 = no barter
    offer: np.ndarray  # int64[B, 4]: the standing offer (zeros if none)
    offer_by: np.ndarray  # int64[B]: ego seat of the offerer, -1 = none
    offer_exists: np.ndarray  # bool[B]
    pending: np.ndarray  # int64[B, 4]: the bundle the viewer is building

    @property
    def players(self) -> np.ndarray:
        """int64[B]: players in each game."""
        return self.present.sum(axis=1)

    @classmethod
    def of(cls, obs: np.ndarray) -> View:
        obs = np.asarray(obs, np.float64)
        n = n_archways_of(obs.shape[1])
        ix, sx = obs_index(n), seat_index(n)
        b = obs.shape[0]
        board = obs[:, ix["board"]].reshape(b, n, 5)
        seats = obs[:, ix["seats"]].reshape(b, MAX_SEATS, -1)
        role = seats[:, :, sx["barter_role"]] > 0.5
        present = seats[:, :, sx["present"].start] > 0.5
        pos = _one_hot_index(seats[:, :, sx["position"]])
        return cls(
            n_archways=n,
            phase=_one_hot_index(obs[:, ix["phase"]]),
            round=_one_hot_index(obs[:, ix["round"]]),
            carpets=_int(obs[:, ix["carpets"]], GEM_SCALE),
            board_points=_int(board[:, :, 0], POINTS_SCALE),
            board_gems=_int(board[:, :, 1:], GEM_SCALE),
            present=present,
            score=_int(seats[:, :, sx["score"].start], SCORE_SCALE),
            gems=_int(seats[:, :, sx["gems"]], GEM_SCALE),
            position=pos,
            lap_left=_int(seats[:, :, sx["lap_left"].start], n),
            lap_done=seats[:, :, sx["lap_done"].start] > 0.5,
            card=_one_hot_index(seats[:, :, sx["card"]]) - 1,
            party=role[:, :, 0],
            opener=role[:, :, 1],
            to_act=role[:, :, 2],
            barter_card=_one_hot_index(obs[:, ix["barter_card"]]),
            offer=_int(obs[:, ix["offer"]], GEM_SCALE),
            offer_by=_one_hot_index(obs[:, ix["offer_by"]]),
            offer_exists=obs[:, ix["offer_exists"].start] > 0.5,
            pending=_int(obs[:, ix["pending"]], GEM_SCALE),
        )
