"""Behaviour cloning: a warm start for MaskablePPO from a baseline agent's games.

`collect` plays games of the expert against itself in the batched core and records, for
every decision, the mover's observation, mask and action, and the terminal reward that seat
went on to get (the training reward scheme). `clone` fits the policy (cross-entropy of the
expert's action under the masked distribution) and the value head (squared error to the
outcome) of a MaskablePPO model to those samples.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from tqdm import tqdm

from agents.registry import make_agent
from asara_env import GameConfig
from asara_env.asara.core import (
    derived_seed,
    init,
    is_terminal,
    scores,
    step,
    terminal_rewards,
)
from asara_env.asara.core.observation import observe


@dataclass
class Samples:
    observations: np.ndarray  # float32[N, OBS_DIM]
    masks: np.ndarray  # bool[N, NUM_ACTIONS]
    actions: np.ndarray  # int64[N]
    outcomes: np.ndarray  # float32[N]: the mover's terminal reward

    def __len__(self) -> int:
        return len(self.actions)


def collect(
    config: GameConfig, expert: str, games: int, seed: int, reward: str = "win", batch: int = 256
) -> Samples:
    """Every decision of `games` self-play games of `expert` (game g seeded
    derived_seed(seed, g)); outcomes are the mover's terminal reward under `reward`."""
    agent = make_agent("asara", expert, seed)
    parts: list[Samples] = []
    for start in tqdm(range(0, games, batch), desc=f"{expert} games", unit="batch"):
        seeds = [derived_seed(seed, g) for g in range(start, min(start + batch, games))]
        parts.append(_play(config, agent, np.array(seeds, np.uint64), reward))
    return Samples(
        *(np.concatenate([getattr(p, f) for p in parts]) for f in Samples.__annotations__)
    )


def _play(config: GameConfig, agent, seeds: np.ndarray, reward: str) -> Samples:
    state = init(config, len(seeds), seeds=seeds)
    obs, masks, actions, games, seats = [], [], [], [], []
    while not is_terminal(state).all():
        live = np.flatnonzero(~is_terminal(state))
        o, m = observe(state, state.seat)[live], state.legal[live].copy()
        a = agent.act_batch(o, m)
        for log, item in zip((obs, masks, actions, games), (o, m, a, live)):
            log.append(item)
        seats.append(state.seat[live].astype(np.int64))
        step(state, a, games=live)
    rewards = terminal_rewards(scores(state), reward)
    outcome = rewards[np.concatenate(games), np.concatenate(seats)].astype(np.float32)
    return Samples(np.concatenate(obs), np.concatenate(masks), np.concatenate(actions), outcome)


def clone(
    model, samples: Samples, epochs: int, batch_size: int = 512, lr: float = 1e-3, seed: int = 0
) -> list[dict]:
    """Fit `model.policy` to the samples; returns per-epoch loss and action accuracy."""
    policy = model.policy
    optimizer = torch.optim.Adam(policy.parameters(), lr=lr)
    rng, history = np.random.default_rng(seed), []
    for epoch in tqdm(range(epochs), desc="cloning", unit="epoch"):
        order = rng.permutation(len(samples))
        loss_sum = hits = 0.0
        for start in range(0, len(order), batch_size):
            j = order[start : start + batch_size]
            loss, hit = _clone_step(policy, optimizer, samples, j)
            loss_sum, hits = loss_sum + loss * len(j), hits + hit
        history.append(
            {"epoch": epoch, "loss": loss_sum / len(samples), "accuracy": hits / len(samples)}
        )
    return history


def _clone_step(policy, optimizer, samples: Samples, j: np.ndarray) -> tuple[float, int]:
    obs = torch.as_tensor(samples.observations[j], device=policy.device)
    dist = policy.get_distribution(obs, action_masks=samples.masks[j])
    actions = torch.as_tensor(samples.actions[j], device=policy.device)
    values = policy.predict_values(obs).squeeze(-1)
    target = torch.as_tensor(samples.outcomes[j], device=policy.device)
    loss = -dist.log_prob(actions).mean() + 0.5 * ((values - target) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    hits = int((dist.distribution.probs.argmax(dim=1) == actions).sum())
    return loss.item(), hits
