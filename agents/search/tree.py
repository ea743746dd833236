"""The search tree: one node per information set of the searching seat (the observer),
each seat's choices at a node kept apart (decoupled: `SeatStats`), shared by every
determinisation.

An edge of a seat is keyed by what the observer sees of it: the observer's own moves by
their action id, another seat's by its public key (`SearchGame.public_key`). A child is
keyed by the joint key, one key per seat with a legal action, in seat order. At a node
each seat with a choice picks its key alone, by its own bandit over its own statistics
(decoupled UCT, or PUCT with a prior): at a simultaneous node the seats choose without
seeing each other's choice, as in the game; at a turn-based node only the mover chooses.
Only the keys legal in the iteration's world are available (the subset-armed bandit of
ISMCTS, `agents.search.selection`), and each available key's availability count goes up
by one.
"""

from __future__ import annotations

import numpy as np


class Edge:
    """One seat's statistics for one key at one node."""

    __slots__ = ("avail", "backed", "prior", "total", "visits")

    def __init__(self, prior: float = 0.0) -> None:
        self.visits = 0  # iterations that chose it (counted at selection: a virtual visit)
        self.backed = 0  # of them, those already backed up
        self.total = 0.0  # the seat's summed backed-up reward
        self.avail = 0  # iterations that reached the node with it legal
        self.prior = prior  # the seat's prior probability mass on it (0 without a network)

    def mean(self, default: float) -> float:
        return self.total / self.backed if self.backed else default


class Node:
    """An information set of the observer; see the module docstring."""

    __slots__ = ("backed", "children", "edges", "has_prior", "total")

    def __init__(self, players: int) -> None:
        self.children: dict[tuple[int, ...], Node] = {}
        self.edges: list[dict[int, Edge]] = [{} for _ in range(players)]  # per seat, by key
        self.has_prior = [False] * players  # per seat: its edges' priors are set
        self.backed = 0
        self.total = [0.0] * players  # per seat: summed backed-up reward

    def mean(self, seat: int) -> float:
        return self.total[seat] / self.backed if self.backed else 0.0

    def edge(self, seat: int, key: int) -> Edge:
        edges = self.edges[seat]
        found = edges.get(key)
        if found is None:
            found = edges[key] = Edge()
        return found

    def set_priors(self, seat: int, keys: list[int], probabilities: list[float]) -> None:
        """The seat's priors: each key's summed probability (the actions behind it)."""
        for key, p in zip(keys, probabilities):
            self.edge(seat, key).prior += p
        self.has_prior[seat] = True


def backup(path: list[tuple[Node, list[tuple[int, int]]]], reward: np.ndarray) -> None:
    """Add one iteration's rewards (float[P]) to every node of its path and to the edge
    each seat took there."""
    values = reward.tolist()
    for node, taken in path:
        node.backed += 1
        for s, v in enumerate(values):
            node.total[s] += v
        for seat, key in taken:
            e = node.edges[seat][key]
            e.backed += 1
            e.total += values[seat]
