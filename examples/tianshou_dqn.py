"""Tianshou (2.x): a collector over any game's default AEC env and a short masked DQN.

    python -m examples.tianshou_dqn --game basari --players 2 --epochs 1 --epoch-steps 1000

Tianshou's `PettingZooEnv` wraps the default AEC env (`asara_env.make(game)`; BASARI's is
the AEC form of its parallel env) as it is (it reads the mask from the observation dict);
`MultiAgentOffPolicyAlgorithm` gives seat 0 a DQN learner (Q-values and epsilon-greedy
exploration both restricted to the legal actions) and the other seats Tianshou's masked
random player. The infos keep the same keys and shapes at every step,
so they go into Tianshou's replay buffer as they are. Needs the `integration` extra
(tianshou) and torch.

Checked: the learner's return of every test game is recorded and lies in [-1, 1], every
game's returns sum over the seats as the game's `win` reward says (0 for ASARA, 1 for
BASARI), and no illegal action was
taken (`info["illegal"]` is 0 in the whole buffer).
"""

from __future__ import annotations

import argparse
from functools import partial
from typing import Any

import numpy as np

from examples.checks import add_game_arguments, check_games


def make_env(game: str, num_players: int) -> Any:
    """The game's default AEC env in Tianshou's PettingZoo wrapper."""
    from tianshou.env.pettingzoo_env import PettingZooEnv

    import asara_env

    return PettingZooEnv(asara_env.make(game, num_players=num_players))


def run(
    game: str = "asara",
    num_players: int = 2,
    epochs: int = 1,
    epoch_steps: int = 1000,
    envs: int = 4,
    seed: int = 0,
) -> dict[str, Any]:
    """Train the seat-0 DQN for `epochs` x `epoch_steps` env steps, then play test games."""
    import torch
    from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, CollectStats, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net

    torch.manual_seed(seed)
    np.random.seed(seed)
    factory = partial(make_env, game, num_players)
    env = factory()
    obs_space = env.observation_space["observation"]
    net = Net(state_shape=obs_space.shape, action_shape=env.action_space.n, hidden_sizes=[64, 64])
    learner = DQN(
        policy=DiscreteQLearningPolicy(
            model=net, action_space=env.action_space, eps_training=0.2, eps_inference=0.0
        ),
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.99,
        n_step_return_horizon=1,
        target_update_freq=100,
    )
    others = [
        MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
        for _ in range(num_players - 1)
    ]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, *others], env=env)

    train_envs = DummyVectorEnv([factory for _ in range(envs)])
    test_envs = DummyVectorEnv([factory for _ in range(envs)])
    train_envs.seed(seed)
    test_envs.seed(seed + 10_000)
    buffer = VectorReplayBuffer(max(epoch_steps * epochs, 1000), len(train_envs))
    train_collector = Collector[CollectStats](algorithm, train_envs, buffer, exploration_noise=True)
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=False)
    train_collector.reset()
    algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=train_collector,
            test_collector=None,
            max_epochs=epochs,
            epoch_num_steps=epoch_steps,
            collection_step_num_env_steps=10 * envs,
            batch_size=64,
            update_step_num_gradient_steps_per_sample=0.1,
            test_in_training=False,
            multi_agent_return_reduction=lambda rews: rews[:, 0],
        )
    )
    test = test_collector.collect(n_episode=envs, reset_before_collect=True)
    returns = np.asarray(test.returns, np.float64).reshape(-1, num_players)
    illegal = int(np.asarray(buffer.info["illegal"][: len(buffer)]).sum())
    return {
        "game": game,
        "train_steps": len(buffer),
        "illegal": illegal,
        "returns": returns.tolist(),
        "learner_returns": returns[:, 0].tolist(),
    }


def check(result: dict[str, Any]) -> None:
    """What the recipe promises; raises AssertionError otherwise."""
    check_games(result["illegal"], result["returns"], what="test game", game=result["game"])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_game_arguments(p)
    p.add_argument("--epochs", type=int, default=1)
    p.add_argument("--epoch-steps", type=int, default=1000)
    p.add_argument("--envs", type=int, default=4)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    result = run(args.game, args.players, args.epochs, args.epoch_steps, args.envs, args.seed)
    check(result)
    learner = np.asarray(result["learner_returns"])
    print(
        f"Tianshou DQN on {args.game}: {result['train_steps']} training steps in the buffer, "
        f"{len(learner)} test games, learner's mean return {learner.mean():+.3f}, "
        f"illegal actions {result['illegal']}"
    )


if __name__ == "__main__":
    main()
