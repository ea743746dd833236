"""SuperSuit vector envs on PettingZoo's turn-based parallel conversion, trained by
MaskablePPO in self-play (one policy for every seat).

    python -m examples.supersuit_vec_env --players 2 --envs 4 --steps 4096

ASARA is turn-based, so the parallel view comes from
`pettingzoo.utils.conversions.turn_based_aec_to_parallel` (`aec_to_parallel` is not
valid for it): every seat is a row of the vector env, only the action of the seat to move
is used, the other rows carry an all-zero mask. `supersuit.pettingzoo_env_to_vec_env_v1`
and `supersuit.concat_vec_envs_v1` stack the seats of several games into one SB3 VecEnv;
`MaskedObservations` splits the observation dict into the array SB3 learns from and the
mask MaskablePPO asks for. Needs the `integration` extra (supersuit) and the `train` extra.

Checked: no illegal action (`infos[...]["illegal"] == 0`), the rewards of each finished
game sum to zero over its seats (the `win` reward is zero-sum), and the games are counted.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv, VecEnvWrapper
from stable_baselines3.common.vec_env.base_vec_env import VecEnvObs

from examples.checks import check_games


class MaskedObservations(VecEnvWrapper):
    """An SB3 VecEnv of `{"observation", "action_mask"}` dicts as plain observations, with
    the masks kept for MaskablePPO (`env_method("action_masks")`)."""

    def __init__(self, venv: VecEnv) -> None:
        observations, actions = venv.observation_space, venv.action_space
        if not isinstance(observations, spaces.Dict) or not isinstance(actions, spaces.Discrete):
            raise TypeError("needs dict observations (observation, action_mask), discrete actions")
        super().__init__(venv, observation_space=observations["observation"])
        self.masks = np.zeros((venv.num_envs, int(actions.n)), bool)
        self._seed: int | None = None

    def seed(self, seed: int | None = None) -> list[int | None]:
        """Seed the next reset (SuperSuit's SB3 wrapper has no `seed`): game i of the
        stack is seeded `seed + i`."""
        self._seed = seed
        return [seed]

    def _split(self, obs: VecEnvObs) -> np.ndarray:
        if not isinstance(obs, dict):
            raise TypeError(f"expected a dict of observations, got {type(obs).__name__}")
        self.masks = np.asarray(obs["action_mask"], bool)
        return np.asarray(obs["observation"], np.float32)

    def reset(self) -> np.ndarray:
        if self._seed is None:
            return self._split(self.venv.reset())
        wrapper = self.venv
        assert isinstance(wrapper, VecEnvWrapper)  # SuperSuit's SB3VecEnvWrapper
        stack: Any = wrapper.venv  # SuperSuit's ConcatVecEnv: gymnasium's reset(seed=...)
        obs, wrapper.reset_infos = stack.reset(seed=self._seed)
        self._seed = None
        return self._split(obs)

    def step_wait(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[dict[str, Any]]]:
        obs, rewards, dones, infos = self.venv.step_wait()
        return self._split(obs), rewards, dones, infos

    def has_attr(self, attr_name: str) -> bool:
        return attr_name == "action_masks" or hasattr(self.venv, attr_name)

    def env_method(
        self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any
    ) -> list[Any]:
        if method_name == "action_masks":
            return list(self.masks)
        return self.venv.env_method(method_name, *args, indices=indices, **kwargs)


def make_vec_env(num_players: int, games: int) -> MaskedObservations:
    """`games` ASARA games x `num_players` seats as one SB3 VecEnv."""
    import supersuit as ss
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    import asara_env

    parallel = turn_based_aec_to_parallel(asara_env.env(num_players=num_players))
    vec = ss.pettingzoo_env_to_vec_env_v1(parallel)
    vec = ss.concat_vec_envs_v1(vec, games, num_cpus=0, base_class="stable_baselines3")
    return MaskedObservations(vec)


def run(num_players: int = 2, games: int = 4, steps: int = 4096, seed: int = 0) -> dict[str, Any]:
    """Self-play MaskablePPO over the vector env for `steps` rows x steps."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

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

    venv = make_vec_env(num_players, games)
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
        "rows": venv.num_envs,
        "vec_steps": watch.steps,
        "illegal": watch.illegal,
        "game_sums": watch.game_sums,
    }


def check(result: dict[str, Any]) -> None:
    """What the recipe promises; raises AssertionError otherwise."""
    check_games(result["illegal"], result["game_sums"])  # each game's sum over its seats
    assert np.allclose(result["game_sums"], 0.0), f"not zero-sum: {result['game_sums']}"


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    p.add_argument("--envs", type=int, default=4, help="games stepped side by side")
    p.add_argument("--steps", type=int, default=4096, help="rows x vector steps")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    result = run(args.players, args.envs, args.steps, args.seed)
    check(result)
    print(
        f"SuperSuit + MaskablePPO: {result['rows']} rows, {result['vec_steps']} vector steps, "
        f"{len(result['game_sums'])} games (each zero-sum), illegal actions {result['illegal']}"
    )


if __name__ == "__main__":
    main()
