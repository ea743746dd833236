"""Stable-Baselines3 (sb3-contrib's MaskablePPO) on a game's registered gymnasium id.

    python -m examples.sb3_maskable_ppo --game basari --players 2 --steps 2048 --envs 2

The learner plays one seat of `gymnasium.make("asara_env/Asara-v0")` (or
`"asara_env/Basari-v0"`; the ids are registered by `import asara_env`); the others play
uniformly random legal moves. SB3's own `make_vec_env` builds `--envs` copies, in
subprocesses (`SubprocVecEnv`) when there are more than one: each worker finds the id
because it re-imports this module, which imports `asara_env`. MaskablePPO reads the legal
actions from each env's `action_masks()`. Needs the `train` extra (torch CPU,
stable-baselines3, sb3-contrib).

Checked at the end: every step the learner took was legal (`info["illegal"] == 0`), and
the learner's return of every finished game is recorded and lies in [-1, 1] (the `win`
reward).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

import numpy as np

import asara_env  # noqa: F401 - registers the games' gymnasium ids, here and in every worker
from asara_env import games
from examples.checks import add_game_arguments, check_games

if TYPE_CHECKING:  # SB3 (and torch) load only when the recipe runs
    from stable_baselines3.common.vec_env import VecEnv


def make_vec_env(game: str, num_players: int, envs: int, seed: int) -> VecEnv:
    """`envs` copies of `game`'s registered single-agent env, each in SB3's Monitor
    (episode returns), by SB3's `make_vec_env`: in subprocesses if `envs` > 1."""
    from stable_baselines3.common.env_util import make_vec_env as sb3_make_vec_env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    gym_id = games.game_card(game).gym_id
    assert gym_id is not None, f"{game} has no gymnasium id"
    return sb3_make_vec_env(
        gym_id,
        n_envs=envs,
        seed=seed,
        # SB3 asks for render_mode="rgb_array" unless told (listed only with the web extra)
        env_kwargs={"num_players": num_players, "render_mode": None},
        vec_env_cls=SubprocVecEnv if envs > 1 else DummyVecEnv,
    )


def run(
    game: str = "asara", num_players: int = 2, steps: int = 2048, envs: int = 1, seed: int = 0
) -> dict[str, Any]:
    """Train MaskablePPO for `steps` learner decisions; returns the returns and counts."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    class Watch(BaseCallback):
        """Counts the learner's illegal actions (the env would end the game on one)."""

        def __init__(self) -> None:
            super().__init__()
            self.illegal = 0
            self.steps = 0
            self.returns: list[float] = []

        def _on_step(self) -> bool:
            infos = self.locals["infos"]
            self.illegal += sum(int(info["illegal"]) for info in infos)
            self.steps += len(infos)
            self.returns += [float(i["episode"]["r"]) for i in infos if "episode" in i]
            return True

    env = make_vec_env(game, num_players, envs, seed)
    n_steps = min(512, max(steps // envs, 64))
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
    env.close()
    return {"game": game, "steps": watch.steps, "illegal": watch.illegal, "returns": watch.returns}


def check(result: dict[str, Any]) -> None:
    """What the recipe promises; raises AssertionError otherwise."""
    check_games(result["illegal"], result["returns"], game=result["game"])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_game_arguments(p)
    p.add_argument("--steps", type=int, default=2048)
    p.add_argument("--envs", type=int, default=1, help="envs, in subprocesses if > 1")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    result = run(args.game, args.players, args.steps, args.envs, args.seed)
    check(result)
    returns = np.array(result["returns"])
    print(
        f"MaskablePPO on {args.game}: {result['steps']} learner steps, {len(returns)} games, "
        f"mean return {returns.mean():+.3f}, illegal actions {result['illegal']}"
    )


if __name__ == "__main__":
    main()
