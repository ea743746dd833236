"""TorchRL: PPO with one shared masked policy for every seat (self-play), on any game.

    python -m examples.torchrl_ppo --game basari --players 2 --frames 2048

The env is TorchRL's `PettingZooWrapper` over the game's default AEC env
(`asara_env.integrations.torchrl_env`: every agent in one group, the legal actions as
TorchRL's masked action spec). The policy samples from `MaskedCategorical`, so only legal
actions are drawn; `Collector` gathers `--batch` frames (one frame: the agent to
move acts), GAE and `ClipPPOLoss` update the actor and the critic. Needs the `torchrl`
extra in a venv of its own (`.venv-torchrl`, built by `make test-integration`).

Checked: no illegal action (`info["illegal"]` is 0 in every frame), games finished, and
every game's rewards over its seats sum as the game's `win` reward says (0 for ASARA, 1
for BASARI), each seat's return in [-1, 1].
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from examples.checks import add_game_arguments, check_games


def run(
    game: str = "asara", num_players: int = 2, frames: int = 2048, batch: int = 512, seed: int = 0
) -> dict[str, Any]:
    """PPO for `frames` frames, collected and learnt from `batch` at a time."""
    import torch
    from tensordict.nn import TensorDictModule
    from torch import nn
    from torchrl.collectors import Collector
    from torchrl.modules import MLP, MaskedCategorical, ProbabilisticActor
    from torchrl.objectives import ClipPPOLoss, ValueEstimators

    from asara_env.integrations.torchrl_env import GROUP, torchrl_env

    torch.manual_seed(seed)
    env = torchrl_env(game, seed=seed, num_players=num_players)
    obs_key, n_actions = (
        (GROUP, "observation", "observation"),
        env.full_action_spec[GROUP, "action"].n,
    )
    size = env.observation_spec[obs_key].shape[-1]
    actor = ProbabilisticActor(
        TensorDictModule(
            MLP(in_features=size, out_features=n_actions, num_cells=[64, 64]),
            in_keys=[obs_key],
            out_keys=[(GROUP, "logits")],
        ),
        in_keys={"logits": (GROUP, "logits"), "mask": (GROUP, "action_mask")},
        out_keys=[env.action_key],
        distribution_class=MaskedCategorical,
        return_log_prob=True,
        log_prob_key=(GROUP, "action_log_prob"),
    )
    critic = TensorDictModule(
        MLP(in_features=size, out_features=1, num_cells=[64, 64]),
        in_keys=[obs_key],
        out_keys=[(GROUP, "state_value")],
    )
    loss = ClipPPOLoss(actor, critic, entropy_coeff=0.01)
    loss.set_keys(
        reward=(GROUP, "reward"),
        action=env.action_key,
        sample_log_prob=(GROUP, "action_log_prob"),
        value=(GROUP, "state_value"),
        done=(GROUP, "done"),
        terminated=(GROUP, "terminated"),
    )
    loss.make_value_estimator(ValueEstimators.GAE, gamma=0.99, lmbda=0.95)
    optimiser = torch.optim.Adam(loss.parameters(), lr=3e-4)
    collector = Collector(env, actor, frames_per_batch=batch, total_frames=frames)
    totals, game_returns, illegal, seen = np.zeros(num_players), [], 0, 0
    for data in collector:
        seen += data.numel()
        illegal += int(data["next", GROUP, "info", "illegal"].sum())
        rewards = data["next", GROUP, "reward"].reshape(len(data), num_players).numpy()
        for row, done in zip(rewards, data["next", "done"].reshape(-1).numpy()):
            totals += row
            if done:
                game_returns.append(totals.tolist())
                totals = np.zeros(num_players)
        with torch.no_grad():
            loss.value_estimator(data, params=loss.critic_network_params, target_params=None)
        parts = loss(data)
        total = parts["loss_objective"] + parts["loss_critic"] + parts["loss_entropy"]
        optimiser.zero_grad()
        total.backward()
        nn.utils.clip_grad_norm_(loss.parameters(), 1.0)
        optimiser.step()
        collector.update_policy_weights_()
    collector.shutdown()
    return {"game": game, "frames": seen, "illegal": illegal, "game_returns": game_returns}


def check(result: dict[str, Any]) -> None:
    """What the recipe promises; raises AssertionError otherwise."""
    check_games(result["illegal"], result["game_returns"], game=result["game"])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_game_arguments(p)
    p.add_argument("--frames", type=int, default=2048)
    p.add_argument("--batch", type=int, default=512, help="frames per PPO update")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    result = run(args.game, args.players, args.frames, args.batch, args.seed)
    check(result)
    returns = np.asarray(result["game_returns"])
    print(
        f"TorchRL PPO on {args.game}: {result['frames']} frames, {len(returns)} games, "
        f"mean return by seat {np.round(returns.mean(axis=0), 3).tolist()}, "
        f"illegal actions {result['illegal']}"
    )


if __name__ == "__main__":
    main()
