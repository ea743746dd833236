"""What self-play hands the learner: the `Positions` of finished games, and the replay
buffer that keeps the newest of them.

A position is one seat's decision: its observation, its legal mask, the search's
improved policy over the legal actions (the Gumbel root's completed-Q policy, a
distribution over the mask; a target only where `targets` says so: a fast search's policy
is not one), and the final reward of every seat under the run's reward
scheme, in seat order from the deciding seat (`relative_outcomes`), the targets of the
network's seat values.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from commandline.outputs import atomic_open


@dataclass
class Positions:
    """A batch of decisions with their targets, one row each."""

    observations: NDArray[np.float32]  # float32[N, OBS]: the deciding seat's observation
    masks: NDArray[np.bool_]  # bool[N, A]: its legal actions
    policies: NDArray[np.float32]  # float32[N, A]: the improved policy (0 off the mask)
    outcomes: NDArray[np.float32]  # float32[N, P]: final rewards, deciding seat first
    games: NDArray[np.int64]  # int64[N]: the game of each position (its index in the run)
    # bool[N]: whether the policy is a target (a fast search's is not: value data only)
    targets: NDArray[np.bool_]

    def __len__(self) -> int:
        return len(self.games)

    def take(self, rows: NDArray[np.integer]) -> Positions:
        """The positions `rows`."""
        return Positions(*(getattr(self, f.name)[rows] for f in fields(Positions)))

    @staticmethod
    def empty(observation_size: int, actions: int, players: int) -> Positions:
        """No positions, with the shapes of a game's."""
        return Positions(
            np.zeros((0, observation_size), np.float32),
            np.zeros((0, actions), bool),
            np.zeros((0, actions), np.float32),
            np.zeros((0, players), np.float32),
            np.zeros(0, np.int64),
            np.zeros(0, bool),
        )

    @staticmethod
    def join(parts: list[Positions]) -> Positions:
        """The parts one after the other (at least one part)."""
        return Positions(
            *(np.concatenate([getattr(p, f.name) for p in parts]) for f in fields(Positions))
        )


def relative_outcomes(
    rewards: NDArray[np.floating], games: NDArray[np.integer], seats: NDArray[np.integer]
) -> NDArray[np.float32]:
    """float32[N, P]: row i holds the final rewards of game games[i] (rewards float[B, P])
    in seat order from seat seats[i]: column k is seat (seats[i] + k) mod P."""
    players = rewards.shape[1]
    order = (np.asarray(seats)[:, None] + np.arange(players)) % players
    out: NDArray[np.float32] = rewards[np.asarray(games)[:, None], order].astype(np.float32)
    return out


def check_policies(policies: NDArray[np.floating], masks: NDArray[np.bool_]) -> None:
    """ValueError unless every row is a distribution over its mask's actions."""
    if (policies < 0).any() or (policies[~masks] != 0).any():
        raise ValueError("an improved policy puts weight on an action its mask does not allow")
    if not np.allclose(policies.sum(axis=1), 1.0, atol=1e-4):
        raise ValueError("an improved policy does not sum to 1")


class ReplayBuffer:
    """The newest `capacity` positions, first in first out, sampled uniformly."""

    def __init__(self, capacity: int, observation_size: int, actions: int, players: int):
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, got {capacity}")
        self.capacity = capacity
        self.data = Positions.empty(observation_size, actions, players)
        self.added = 0  # positions added since the run began

    def __len__(self) -> int:
        return len(self.data)

    def add(self, positions: Positions) -> None:
        """Keep `positions`, dropping the oldest beyond the capacity."""
        check_policies(positions.policies, positions.masks)
        joined = Positions.join([self.data, positions])
        self.data = joined.take(np.arange(max(len(joined) - self.capacity, 0), len(joined)))
        self.added += len(positions)

    def sample(self, rng: np.random.Generator, size: int) -> Positions:
        """`size` positions drawn uniformly with replacement (ValueError when empty)."""
        if not len(self):
            raise ValueError("the replay buffer is empty")
        return self.data.take(rng.integers(0, len(self), size))

    def save(self, path: Path) -> None:
        """Written atomically as one compressed .npz (positions and counters)."""
        with atomic_open(path, "wb") as f:
            np.savez_compressed(f, added=np.int64(self.added), **asdict(self.data))

    def load(self, path: Path) -> None:
        """The positions and counters saved by `save` (the capacity stays this one's)."""
        with np.load(path) as saved:
            stored = {k: saved[k] for k in saved.files}
        stored.setdefault("targets", np.ones(len(stored["games"]), bool))  # an older buffer
        data = Positions(*(stored[f.name] for f in fields(Positions)))
        self.added = int(stored["added"])
        self.data = data.take(np.arange(max(len(data) - self.capacity, 0), len(data)))
