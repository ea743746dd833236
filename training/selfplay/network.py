"""The self-play trainer's network: the project's MaskablePPO policy (log1p features, a
policy MLP and a value MLP, training/policy.py) with a value head of one output per seat.

`SeatValuePolicy` is `MaskedPolicy` whose `value_net` gives P values, in seat order from
the observer: output k is the final reward of seat (observer + k) mod P under the run's
reward scheme. Why this network rather than the one-value head of the shipped models:
a game of more than two players has no single value to back up (each seat wants its own
reward), and one evaluation of the observer's position gives every seat's value for the
search and for the learner. Output 0 is the observer's own value, so everything that
reads the shipped models' value head (`agents.network.PolicyValueNet`, `value=net`)
reads this one unchanged, and the model is a normal MaskablePPO file: the evaluation,
the tournaments and `policy:model=FILE` play it like any other.

`new_model(spaces, players, seed, start)` builds one: from scratch (`start` None, the
training scripts' network sizes), or from a saved MaskablePPO (a shipped model's file):
its policy and value bodies copied, its first layers widened with zero weights where the
observation has grown since it was trained (so it plays exactly as before), and the seat
head started from its one value: output 0 the old value, the others what the reward
scheme implies where its rewards have a constant sum S (`scheme_total`: 0 for the
zero-sum schemes, 1 for win shares), each other seat (S - v) / (P - 1); where the sum
is not constant the other outputs start at 0.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from numpy.typing import NDArray
from sb3_contrib import MaskablePPO

from training.policy import MaskedPolicy, policy_kwargs

SEATS = "seats"  # the policy keyword of the number of seat values


class SeatValuePolicy(MaskedPolicy):
    """`MaskedPolicy` with `seats` value outputs, observer first (module docstring)."""

    def __init__(self, *args: Any, seats: int = 1, **kwargs: Any) -> None:
        self.seats = seats
        super().__init__(*args, **kwargs)

    def _build(self, lr_schedule: Any) -> None:
        super()._build(lr_schedule)
        self.value_net = torch.nn.Linear(self.mlp_extractor.latent_dim_vf, self.seats)
        optimizer: Any = self.optimizer_class  # Adam, which takes lr (typed as Optimizer)
        self.optimizer = optimizer(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def seat_values(self, observations: torch.Tensor) -> torch.Tensor:
        """float[B, P]: every seat's value, in seat order from each row's observer."""
        features: Any = self.extract_features(observations, self.vf_features_extractor)
        out: torch.Tensor = self.value_net(self.mlp_extractor.forward_critic(features))
        return out

    def logits(self, observations: torch.Tensor) -> torch.Tensor:
        """float[B, A]: the policy's unmasked logits."""
        features: Any = self.extract_features(observations, self.pi_features_extractor)
        out: torch.Tensor = self.action_net(self.mlp_extractor.forward_actor(features))
        return out


def spaces(observation_size: int, actions: int) -> tuple[gym.spaces.Box, gym.spaces.Discrete]:
    """The observation and action spaces of a game's learner (observations are counts)."""
    box = gym.spaces.Box(0.0, np.inf, (observation_size,), np.float32)
    return box, gym.spaces.Discrete(actions)


def _empty_model(
    box: gym.spaces.Box, actions: gym.spaces.Discrete, kwargs: dict[str, Any], seed: int
) -> MaskablePPO:
    """A MaskablePPO holding a freshly initialised `SeatValuePolicy` (no environment)."""
    model = MaskablePPO(
        SeatValuePolicy,
        None,  # type: ignore[arg-type]  # spaces set below; the model never collects
        policy_kwargs=kwargs,
        seed=seed,
        device="cpu",
        verbose=0,
        _init_setup_model=False,
    )
    model.observation_space, model.action_space, model.n_envs = box, actions, 1
    model._setup_model()
    return model


def scheme_total(scheme: Callable[..., NDArray[Any]], players: int) -> float | None:
    """The sum of every seat's reward under `scheme` (a reward-scheme function on scores
    int[..., P]) if it is the same for a spread of outcomes (ties included), else None."""
    rng = np.random.default_rng(0)
    scores = np.concatenate([rng.integers(0, 40, (64, players)), np.zeros((1, players), np.int64)])
    sums = np.asarray(scheme(scores), np.float64).sum(axis=-1)
    return float(sums[0]) if np.allclose(sums, sums[0], atol=1e-6) else None


def new_model(
    observation_size: int,
    actions: int,
    players: int,
    seed: int,
    start: Path | None = None,
    total: float | None = None,
    hidden: tuple[int, ...] | None = None,
) -> MaskablePPO:
    """A model of `players` seat values for a game of these sizes: from scratch (its
    policy and value MLPs of `hidden` widths, default the training scripts'), or from
    the saved MaskablePPO at `start` (module docstring; `total`: the constant sum of the
    scheme's rewards, `scheme_total`). ValueError if `start` is for
    another game (its actions) or reads more of the observation than there is."""
    box, discrete = spaces(observation_size, actions)
    if start is None:
        kwargs = policy_kwargs()
        if hidden is not None:
            kwargs["net_arch"] = {"pi": list(hidden), "vf": list(hidden)}
        return _empty_model(box, discrete, {**kwargs, SEATS: players}, seed)
    old = MaskablePPO.load(start, device="cpu")
    have_obs = int(np.prod(old.observation_space.shape or (0,)))
    have_actions = int(getattr(old.action_space, "n", -1))
    if have_actions != actions or have_obs > observation_size:
        raise ValueError(
            f"{start} plays {have_obs} observation entries and {have_actions} actions; this "
            f"game has {observation_size} and {actions}: a model of another game?"
        )
    kwargs = {k: v for k, v in old.policy_kwargs.items() if k != SEATS}
    model = _empty_model(box, discrete, {**kwargs, SEATS: players}, seed)
    _copy_weights(old.policy, model.policy, players, total)
    return model


def model_like(
    kwargs: dict[str, Any], observation_size: int, actions: int, seed: int
) -> MaskablePPO:
    """A model of the architecture `kwargs` (another model's `policy_kwargs`)."""
    box, discrete = spaces(observation_size, actions)
    return _empty_model(box, discrete, kwargs, seed)


def _copy_weights(old: Any, new: Any, players: int, total: float | None) -> None:
    """`old`'s weights into `new`: first layers zero-padded to the wider observation, the
    seat head from the one value (module docstring)."""
    state = new.state_dict()
    for name, tensor in old.state_dict().items():
        if name.startswith("value_net.") and tensor.shape != state[name].shape:
            continue
        target = state[name]
        if tensor.shape == target.shape:
            state[name] = tensor.clone()
        elif tensor.ndim == 2 and tensor.shape[0] == target.shape[0]:
            state[name] = torch.zeros_like(target)
            state[name][:, : tensor.shape[1]] = tensor
        else:
            raise ValueError(
                f"cannot copy {name}: {tuple(tensor.shape)} into {tuple(target.shape)}"
            )
    weight, bias = old.value_net.weight.detach(), old.value_net.bias.detach()
    if weight.shape[0] == 1 and players > 1:
        others, scale = players - 1, 0.0 if total is None else 1.0
        rest_w = (-scale * weight / others).expand(others, -1)
        rest_b = (scale * (total or 0.0) - scale * bias) / others
        state["value_net.weight"] = torch.cat([weight, rest_w])
        state["value_net.bias"] = torch.cat([bias, rest_b.expand(others)])
    new.load_state_dict(state)


def seat_policy(model: MaskablePPO) -> SeatValuePolicy:
    """The model's policy, checked to be a `SeatValuePolicy`."""
    policy = model.policy
    if not isinstance(policy, SeatValuePolicy):
        raise TypeError(f"the model's policy is a {type(policy).__name__}, not SeatValuePolicy")
    return policy
