"""Behaviour cloning: a warm start for MaskablePPO from a baseline agent's games, for every
game.

`collect` plays games of the expert against itself in a game's batched core and records,
for every decision, the deciding seat's observation, mask and action, and the terminal
reward that seat went on to get (the training reward scheme). A game comes in as a
`SelfPlay` (training/<game>/imitation.py): who decides now, how the core steps, the
rewards. `clone` fits the policy (cross-entropy of the expert's action under the masked
distribution) and the value head (squared error to the outcome) of a MaskablePPO model to
those samples.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import torch
from tqdm import tqdm

from asara_env.common.batch import concatenate
from asara_env.common.opponents import Actor
from asara_env.common.seeding import derived_seeds
from asara_env.games import CoreVerbs


@dataclass
class Samples:
    observations: np.ndarray  # float32[N, OBS_DIM]
    masks: np.ndarray  # bool[N, NUM_ACTIONS]
    actions: np.ndarray  # int64[N]
    outcomes: np.ndarray  # float32[N]: the mover's terminal reward

    def __len__(self) -> int:
        return len(self.actions)


Decisions = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # games, seats, obs, masks


class SelfPlay(Protocol):
    """A game's batched core as `collect` plays it (training/<game>/imitation.py)."""

    def init(self, seeds: np.ndarray) -> Any:
        """The state of len(seeds) new games."""
        ...

    def over(self, state: Any) -> bool:
        """Whether every game is over."""
        ...

    def decisions(self, state: Any) -> Decisions:
        """(games int64[N], seats int64[N], observations float32[N, D], masks bool[N, A]) of
        the decisions to make now: every seat with a real choice."""
        ...

    def step(self, state: Any, games: np.ndarray, seats: np.ndarray, actions: np.ndarray) -> None:
        """Apply the actions chosen for those decisions."""
        ...

    def rewards(self, state: Any, reward: str) -> np.ndarray:
        """float[B, P]: every seat's terminal reward under the scheme `reward`."""
        ...


@dataclass(frozen=True)
class CoreSelfPlay:
    """A game's batched core (`core`: the numpy or the compiled one, `asara_env.games`
    verbs) with the config its games are made of, as `collect` and the self-play trainer
    play it: `init`, `over` and `rewards` are the same for every game; a game's subclass
    (training/<game>/imitation.py) says who decides (`decisions`) and how their actions
    step the core (`step`)."""

    config: Any  # the game's config, passed to the core whole
    core: CoreVerbs

    def init(self, seeds: np.ndarray) -> Any:
        """The state of len(seeds) new games."""
        return self.core.init(self.config, len(seeds), seeds=seeds)

    def over(self, state: Any) -> bool:
        """Whether every game is over."""
        return bool(self.core.is_terminal(state).all())

    def rewards(self, state: Any, reward: str) -> np.ndarray:
        """float[B, P]: every seat's terminal reward under the scheme `reward`."""
        rewards: np.ndarray = self.core.terminal_rewards(self.core.scores(state), reward)
        return rewards


def collect(
    game: SelfPlay, expert: Actor, label: str, games: int, seed: int, reward: str, batch: int = 256
) -> Samples:
    """Every decision of `games` self-play games of `expert` (called `label` on the progress
    bar), in batches of `batch` games, game g seeded derived_seed(seed, g); outcomes are
    the deciding seat's terminal reward under `reward`."""
    parts = []
    for start in tqdm(range(0, games, batch), desc=f"{label} games", unit="batch"):
        seeds = derived_seeds(seed, np.arange(start, min(start + batch, games)))
        parts.append(_play(game, expert, seeds, reward))
    return concatenate(parts)


def _play(game: SelfPlay, expert: Actor, seeds: np.ndarray, reward: str) -> Samples:
    state = game.init(np.asarray(seeds, np.uint64))
    logs: tuple[list[np.ndarray], ...] = ([], [], [], [], [])
    while not game.over(state):
        g, s, o, m = game.decisions(state)
        a = expert.act_batch(o, m)
        for log, item in zip(logs, (g, s, o, m, a)):
            log.append(item)
        game.step(state, g, s, a)
    g, s, o, m, a = (np.concatenate(log) for log in logs)
    outcome = game.rewards(state, reward)[g, s].astype(np.float32)
    return Samples(o.astype(np.float32), m.astype(bool), a.astype(np.int64), outcome)


def clone(
    model: Any,
    samples: Samples,
    epochs: int,
    batch_size: int = 512,
    lr: float = 1e-3,
    seed: int = 0,
) -> list[dict[str, float]]:
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


def _clone_step(
    policy: Any, optimizer: torch.optim.Optimizer, samples: Samples, j: np.ndarray
) -> tuple[float, int]:
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
