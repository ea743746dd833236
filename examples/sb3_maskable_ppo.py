"""Stable-Baselines3 (sb3-contrib's MaskablePPO) on the registered gymnasium id.

    python -m examples.sb3_maskable_ppo --players 2 --steps 2048

The learner plays one seat of `gymnasium.make("asara_env/Asara-v0")` (the others play
uniformly random legal moves); MaskablePPO reads the legal actions from
`env.action_masks()`. Needs the `train` extra (torch CPU, stable-baselines3, sb3-contrib).

Checked at the end: every step the learner took was legal (`info["illegal"] == 0`), and
the learner's return of every finished game is recorded and lies in [-1, 1] (the `win`
reward).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np

from examples.checks import check_games

if TYPE_CHECKING:  # SB3 (and torch) load only when the recipe runs
    from stable_baselines3.common.monitor import Monitor


def make_env(num_players: int, seed: int) -> Monitor:
    """The registered single-agent env, wrapped in SB3's Monitor (episode returns)."""
    from stable_baselines3.common.monitor import Monitor

    import asara_env.asara.gym_env  # noqa: F401  (registers asara_env/Asara-v0)

    env = gymnasium.make("asara_env/Asara-v0", num_players=num_players)
    env.reset(seed=seed)
    return Monitor(env)


def run(num_players: int = 2, steps: int = 2048, seed: int = 0) -> dict[str, Any]:
    """Train MaskablePPO for `steps` learner decisions; returns the returns and counts."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    class Watch(BaseCallback):
        """Counts the learner's illegal actions (the env would end the game on one)."""

        def __init__(self) -> None:
            super().__init__()
            self.illegal = 0
            self.steps = 0

        def _on_step(self) -> bool:
            self.illegal += sum(int(info["illegal"]) for info in self.locals["infos"])
            self.steps += len(self.locals["infos"])
            return True

    env = make_env(num_players, seed)
    n_steps = min(512, steps)
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=min(128, n_steps),
        n_epochs=2,
        policy_kwargs={"net_arch": [64, 64]},
        seed=seed,
        device="cpu",
        verbose=0,
    )
    watch = Watch()
    model.learn(total_timesteps=steps, callback=watch)
    returns = [float(r) for r in env.get_episode_rewards()]
    return {"steps": watch.steps, "illegal": watch.illegal, "returns": returns}


def check(result: dict[str, Any]) -> None:
    """What the recipe promises; raises AssertionError otherwise."""
    check_games(result["illegal"], result["returns"])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    p.add_argument("--steps", type=int, default=2048)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    result = run(args.players, args.steps, args.seed)
    check(result)
    returns = np.array(result["returns"])
    print(
        f"MaskablePPO: {result['steps']} learner steps, {len(returns)} games, "
        f"mean return {returns.mean():+.3f}, illegal actions {result['illegal']}"
    )


if __name__ == "__main__":
    main()
