"""DICE AUCTION for the shared self-play trainer (training/selfplay/): `SPEC`, what the
trainer is told of a game it has no code for. Every seat with a real choice decides at
once; the network alone (its most probable legal bid) is evaluated against copies of a
baseline, seats rotated."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch

from agents.registry import check_agent, make_agent
from asara_env.common.outcome import terminal_rewards, win_shares
from asara_env.common.seeding import derived_seeds
from asara_env.games import load_core
from training.imitation import CoreSelfPlay, Decisions
from training.selfplay.network import seat_policy
from training.selfplay.spec import SelfPlaySpec

from .core import OBS_SIZE, REWARD_SCHEMES
from .rules import N_ACTIONS, ToyConfig

Z = 1.959964  # the Wilson interval's 95% quantile


class ToySelfPlay(CoreSelfPlay):
    """The toy core as the trainer plays it: simultaneous bids."""

    def decisions(self, state: Any) -> Decisions:
        masks = self.core.legal_action_mask(state)
        live = ~self.core.is_terminal(state)
        games, seats = np.nonzero(live[:, None] & (masks.sum(axis=2) > 1))
        obs = self.core.observe(state)[games, seats]
        return games.astype(np.int64), seats.astype(np.int64), obs, masks[games, seats]

    def step(self, state: Any, games: np.ndarray, seats: np.ndarray, actions: np.ndarray) -> None:
        joint = self.core.legal_action_mask(state).argmax(axis=2).astype(np.int64)
        joint[games, seats] = actions
        self.core.step(state, joint)

    def rewards(self, state: Any, reward: str) -> np.ndarray:
        rewards: np.ndarray = terminal_rewards(self.core.scores(state), reward, REWARD_SCHEMES)
        return rewards


def _wilson(wins: float, n: int) -> tuple[float, float]:
    p = wins / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return centre - half, centre + half


def win_rate(model: Any, config: ToyConfig, opponent: str, games: int, seed: int) -> dict[str, Any]:
    """The network alone in seat g mod P of game g against copies of `opponent`."""
    core, players = load_core("toygame", "numpy"), config.num_players
    state = core.init(config, games, seeds=derived_seeds(seed, np.arange(games)))
    other = make_agent("toygame", opponent, seed)
    mine = np.arange(games) % players
    policy = seat_policy(model)
    while not core.is_terminal(state).all():
        obs, masks = core.observe(state), core.legal_action_mask(state)
        joint = np.zeros((games, players), np.int64)
        for seat in range(players):
            joint[:, seat] = other.act_batch(obs[:, seat], masks[:, seat])
        rows = np.arange(games)
        with torch.no_grad():
            logits = policy.logits(torch.as_tensor(obs[rows, mine])).numpy()
        joint[rows, mine] = np.where(masks[rows, mine], logits, -np.inf).argmax(axis=1)
        core.step(state, joint)
    shares = win_shares(core.scores(state))[np.arange(games), mine]
    low, high = _wilson(float(shares.sum()), games)
    rate = float(shares.mean())
    return {"opponent": opponent, "win_rate": rate, "ci_low": low, "ci_high": high,
            "fair_share": 1 / players, "games": games}  # fmt: skip


SPEC = SelfPlaySpec(
    game="toygame",
    prog="toygame-selfplay",
    config=lambda args: ToyConfig(args.players),
    self_play=lambda config, backend: ToySelfPlay(config, load_core("toygame", backend)),
    sizes=lambda config: (OBS_SIZE, N_ACTIONS),
    shipped_model=lambda name: None,
    start_model=lambda players: "scratch",
    eval_opponents=lambda players: ["random"],
    agent_names=lambda: ["random", "high"],
    check_agent=lambda spec: check_agent("toygame", spec),
    win_rate=win_rate,
)
