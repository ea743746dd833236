"""Ray RLlib: multi-agent PPO with action masking, every seat one shared policy, on any
game.

    python -m examples.rllib_ppo --game basari --players 2 --iterations 2

`asara_env.integrations.rllib` holds the adapter (a turn-based `MultiAgentEnv` over the
game's default AEC env, observations `{"observations", "action_mask"}` as RLlib's
`ActionMaskingTorchRLModule` expects) and `masked_ppo_config`. On one machine the env
runs in the driver (`num_env_runners=0`); for more machines raise `num_env_runners`
(and `ray.init(address=...)`): nothing else changes. Needs the `integration` extra
(`ray[rllib]`).

Checked: RLlib records each seat's mean episode return, the seats' means sum as the game's
`win` reward says (0 for ASARA, 1 for BASARI; every seat plays every game), and no game
ended on an illegal action (the `illegal_actions` metric of `masked_ppo_config`'s
callback).
"""

from __future__ import annotations

import argparse
import os
from typing import Any

from examples.checks import add_game_arguments, win_reward_sum


def run(
    game: str = "asara", num_players: int = 2, iterations: int = 2, batch: int = 512, seed: int = 0
) -> dict[str, Any]:
    """`iterations` PPO iterations of `batch` env steps each on a local Ray."""
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    import ray

    from asara_env.integrations.rllib import masked_ppo_config

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        config = (
            masked_ppo_config(game, num_players=num_players, hidden=(64, 64))
            .env_runners(num_env_runners=0, rollout_fragment_length="auto")
            .training(train_batch_size_per_learner=batch, minibatch_size=128, num_epochs=2)
            .debugging(seed=seed)
        )
        algo = config.build_algo()
        returns: dict[str, float] = {}
        illegal, logged, episodes = 0, False, 0
        for _ in range(iterations):
            result = algo.train()
            runners = result["env_runners"]
            returns = dict(runners.get("agent_episode_returns_mean", returns))
            logged = logged or "illegal_actions" in runners
            illegal = max(illegal, int(runners.get("illegal_actions", 0)))  # a lifetime sum
            episodes = int(runners.get("num_episodes_lifetime", episodes))
        algo.stop()
    finally:
        ray.shutdown()
    return {
        "game": game,
        "agent_returns": returns,
        "illegal": illegal,
        "illegal_logged": logged,
        "episodes": episodes,
    }


def check(result: dict[str, Any]) -> None:
    """What the recipe promises; raises AssertionError otherwise."""
    assert result["illegal_logged"], "the illegal-action callback logged nothing"
    assert result["illegal"] == 0, f"{result['illegal']} games ended on an illegal action"
    returns = result["agent_returns"]
    assert returns, "RLlib recorded no episode return: train for more iterations"
    total = win_reward_sum(result["game"])
    assert abs(sum(returns.values()) - total) < 1e-6, f"not summing to {total}: {returns}"


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_game_arguments(p)
    p.add_argument("--iterations", type=int, default=2)
    p.add_argument("--batch", type=int, default=512, help="env steps per iteration")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    result = run(args.game, args.players, args.iterations, args.batch, args.seed)
    check(result)
    shown = {a: round(r, 3) for a, r in sorted(result["agent_returns"].items())}
    print(
        f"RLlib PPO on {args.game}: {result['episodes']} games, mean return by seat {shown}, "
        f"games ended by an illegal action {result['illegal']}"
    )


if __name__ == "__main__":
    main()
