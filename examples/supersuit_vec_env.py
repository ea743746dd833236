"""SuperSuit vector envs of any game, trained by MaskablePPO in self-play (one policy for
every seat).

    python -m examples.supersuit_vec_env --game basari --players 2 --envs 4 --steps 4096

`asara_env.integrations.sb3.supersuit_vec_env` stacks the game's parallel env (BASARI's
own; ASARA's through `turn_based_aec_to_parallel`, where only the seat to move acts and the
other rows carry an all-zero mask) with `supersuit.pettingzoo_env_to_vec_env_v1` and
`supersuit.concat_vec_envs_v1` into one SB3 VecEnv whose `action_masks()` MaskablePPO
reads. Needs the `integration` extra (supersuit) and the `train` extra.

Checked: no illegal action (`infos[...]["illegal"] == 0`), the rewards of each finished
game sum over its seats as the game's `win` reward says (0 for ASARA, 1 for BASARI), and
the games are counted.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from examples.checks import add_game_arguments, check_games, win_reward_sum


def run(
    game: str = "asara", num_players: int = 2, games: int = 4, steps: int = 4096, seed: int = 0
) -> dict[str, Any]:
    """Self-play MaskablePPO over the vector env for `steps` rows x steps."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from asara_env.integrations.sb3 import supersuit_vec_env

    class Watch(BaseCallback):
        """Rewards of each game summed over its seats, illegal actions, finished games."""

        def __init__(self) -> None:
            super().__init__()
            self.illegal, self.games, self.steps = 0, 0, 0
            self.game_sums: list[float] = []

        def _on_step(self) -> bool:
            rewards = np.asarray(self.locals["rewards"]).reshape(games, num_players)
            dones = np.asarray(self.locals["dones"]).reshape(games, num_players)
            self.illegal += sum(int(info.get("illegal", 0)) for info in self.locals["infos"])
            self.steps += 1
            for g in np.flatnonzero(dones.all(axis=1)):
                self.game_sums.append(float(rewards[g].sum()))
            return True

    venv = supersuit_vec_env(game, games, num_players=num_players)
    venv.seed(seed)
    n_steps = 64
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=n_steps,
        batch_size=min(256, n_steps * venv.num_envs),
        n_epochs=2,
        policy_kwargs={"net_arch": [64, 64]},
        seed=seed,
        device="cpu",
        verbose=0,
    )
    watch = Watch()
    model.learn(total_timesteps=steps, callback=watch)
    venv.close()
    return {
        "game": game,
        "rows": venv.num_envs,
        "vec_steps": watch.steps,
        "illegal": watch.illegal,
        "game_sums": watch.game_sums,
    }


def check(result: dict[str, Any]) -> None:
    """What the recipe promises; raises AssertionError otherwise."""
    check_games(result["illegal"], result["game_sums"])  # each game's sum over its seats
    total = win_reward_sum(result["game"])
    assert np.allclose(result["game_sums"], total), f"not {total}: {result['game_sums']}"


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_game_arguments(p)
    p.add_argument("--envs", type=int, default=4, help="games stepped side by side")
    p.add_argument("--steps", type=int, default=4096, help="rows x vector steps")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    result = run(args.game, args.players, args.envs, args.steps, args.seed)
    check(result)
    print(
        f"SuperSuit + MaskablePPO on {args.game}: {result['rows']} rows, "
        f"{result['vec_steps']} vector steps, {len(result['game_sums'])} games, "
        f"illegal actions {result['illegal']}"
    )


if __name__ == "__main__":
    main()
