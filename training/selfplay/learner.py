"""The learner: the network fitted to the replay buffer's targets.

The loss of a minibatch is the cross-entropy of the masked policy to the search's
improved policy (over the positions whose policy is a target: a fast search's is not)
plus `value_weight` times the mean squared error of the seat values to
the seats' final rewards (every seat's, deciding seat first). Adam, with its moments kept
in the checkpoints so that a resumed run continues exactly where it stopped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from .buffer import Positions, ReplayBuffer
from .network import SeatValuePolicy

MASKED = -1e8  # the logit of an action off the mask


@dataclass(frozen=True)
class LearnerSettings:
    """How each iteration's updates are made."""

    updates: int  # minibatch steps per iteration
    batch_size: int  # positions per minibatch
    learning_rate: float
    value_weight: float  # weight of the value loss beside the policy's cross-entropy
    weight_decay: float = 1e-4


def losses(policy: SeatValuePolicy, batch: Positions) -> tuple[torch.Tensor, torch.Tensor]:
    """(cross-entropy of the masked policy to the improved policy, mean squared error of
    the seat values to the outcomes), each a mean over the positions."""
    obs = torch.as_tensor(batch.observations)
    legal = torch.as_tensor(batch.masks)
    logp = torch.log_softmax(policy.logits(obs).masked_fill(~legal, MASKED), dim=1)
    target = torch.as_tensor(batch.policies)
    rows = -(target * torch.where(legal, logp, torch.zeros_like(logp))).sum(1)
    has = torch.as_tensor(batch.targets, dtype=rows.dtype)
    cross_entropy = (rows * has).sum() / has.sum().clamp(min=1.0)
    values = policy.seat_values(obs)
    value_error = ((values - torch.as_tensor(batch.outcomes)) ** 2).mean()
    return cross_entropy, value_error


class Learner:
    """Adam on the policy's parameters; `update` makes one iteration's steps."""

    def __init__(self, policy: SeatValuePolicy, settings: LearnerSettings):
        self.policy, self.settings = policy, settings
        self.optimizer = torch.optim.Adam(
            policy.parameters(), lr=settings.learning_rate, weight_decay=settings.weight_decay
        )

    def update(self, buffer: ReplayBuffer, rng: np.random.Generator) -> dict[str, float]:
        """`settings.updates` minibatch steps on samples of `buffer`; the mean losses."""
        s = self.settings
        self.policy.set_training_mode(True)
        totals = np.zeros(2)
        for _ in range(s.updates):
            ce, mse = losses(self.policy, buffer.sample(rng, s.batch_size))
            self.optimizer.zero_grad()
            (ce + s.value_weight * mse).backward()
            self.optimizer.step()
            totals += (ce.item(), mse.item())
        self.policy.set_training_mode(False)
        mean = totals / max(s.updates, 1)
        return {"policy_loss": float(mean[0]), "value_loss": float(mean[1])}

    def state(self) -> dict[str, Any]:
        """The optimizer's state, for a checkpoint."""
        return self.optimizer.state_dict()

    def load_state(self, state: dict[str, Any]) -> None:
        """The optimizer's state from a checkpoint."""
        self.optimizer.load_state_dict(state)
