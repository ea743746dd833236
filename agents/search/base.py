"""The search's types: its `Settings`, the network callback `Evaluate` and the policy
output `Decision` (mctx's `base.py`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

# (observations float32[n, N], masks bool[n, A]) -> (logits float[n, A], values): the
# network, batched. values: float[n], the observing seat's expected win share (0 to 1), or
# float[n, P], every seat's, column j for the seat j places clockwise of the observer.
Evaluate = Callable[
    [NDArray[np.float32], NDArray[np.bool_]], tuple[NDArray[np.floating], NDArray[np.floating]]
]
ROOTS = ("puct", "gumbel")
EXPANSIONS = ("random", "policy")  # which untried key a seat takes first at a node
# the Gumbel root's move: the survivor of most g + logits + sigma(q) (its Gumbel noise g
# included, as self-play explores), or the improved policy's most probable action
PICKS = ("root", "improved")
C_VISIT = 50.0  # Gumbel's sigma (Danihelka et al. 2022, their default)
C_SCALE = 0.1  # Gumbel's sigma scale, mctx's default value_scale
NO_FORCE = -1  # no forced root action (`loop.iterate`)


@dataclass(frozen=True)
class Settings:
    """How one search runs (see `agents.search.mcts`)."""

    sims: int = 128  # iterations (playouts for flat MC) per decision
    seconds: float | None = None  # or wall seconds per decision (instead of sims)
    wave: int = 32  # iterations per decision stepped as one batch
    c: float = 0.7  # the exploration constant of UCT / PUCT
    playout: str = "random"  # the playout policy's name (SearchGame.playout_names)
    horizon: int | None = None  # playout decisions before leaf_scores (None: to the end)
    value: str = "win"  # the reward scheme of the game's card the search maximises
    root: str = "puct"  # "puct" or "gumbel"
    considered: int = 16  # Gumbel: actions drawn at the root
    c_scale: float = C_SCALE  # Gumbel: sigma's scale of q
    batch: int = 1024  # worlds per core batch at most
    flat: bool = False  # flat Monte Carlo instead of the tree
    # flat only: (playout name, weight) of the other seats' policies, drawn per world
    # (`agents.search.policies.flatmc`); empty: every seat plays `playout`
    opponents: tuple[tuple[str, float], ...] = ()
    # progressive widening below the root: a seat takes an untried key at a node only
    # while it has tried fewer than floor(visits ** widen) there (1: whenever one is left)
    widen: float = 1.0
    expand: str = "random"  # the untried key taken: drawn, or the playout policy's move
    pick: str = "root"  # Gumbel: the move played (PICKS)

    def __post_init__(self) -> None:
        checks = {
            "sims": self.sims >= 1,
            "seconds": self.seconds is None or (math.isfinite(self.seconds) and self.seconds > 0),
            "wave": self.wave >= 1,
            "c": math.isfinite(self.c) and self.c >= 0,
            "horizon": self.horizon is None or self.horizon >= 0,
            "root": self.root in ROOTS,
            "considered": self.considered >= 1,
            "c_scale": math.isfinite(self.c_scale) and self.c_scale > 0,
            "batch": self.batch >= 1,
            "opponents": (self.flat or not self.opponents)
            and all(math.isfinite(w) and w > 0 for _, w in self.opponents),
            "widen": math.isfinite(self.widen) and 0 < self.widen <= 1,
            "expand": self.expand in EXPANSIONS,
            "pick": self.pick == "root" or (self.pick in PICKS and self.root == "gumbel"),
        }
        bad = [name for name, ok in checks.items() if not ok]
        if bad:
            raise ValueError(f"search option {bad[0]}={getattr(self, bad[0])!r} is out of range")


class Decision(NamedTuple):
    """A search's answer for n decisions."""

    actions: NDArray[np.int64]  # int64[n]
    policies: NDArray[np.float32]  # float32[n, A]: improved policy (gumbel) or visit shares
    values: NDArray[np.float64]  # float[n]: the root's mean reward for the seat
    # float[n, A]: each action's mean reward for the seat at the root (NaN: not tried)
    q: NDArray[np.float64]
