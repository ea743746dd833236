"""AgileRL: IPPO (one PPO learner per seat) on any game's parallel env.

    python -m examples.agilerl_ippo --game basari --players 2 --envs 2 --steps 2048

AgileRL reads the legal actions from `infos[agent]["action_mask"]` (every game's default
env puts them there, with the same keys and shapes at every step) and refuses observations
that still hold a mask: `asara_env.integrations.agilerl_ippo.ParallelFactory` builds the
game's parallel env (BASARI's own, ASARA's through `turn_based_aec_to_parallel`, where
only the seat to move acts and the others' mask is all zeros) with array observations.
AgileRL's `AsyncPettingZooVecEnv` steps several games in subprocesses; the loop is
AgileRL's own on-policy loop (`agilerl.training.train_multi_agent_on_policy`) without its
evolutionary population. AgileRL 2.58's IPPO fails on numpy action masks
(`masked_ippo_class` fixes it), and its PPO update recomputes log-probabilities without
the masks. Needs the `integration` extra (AgileRL 2.58 also needs `peft`, imported by
`agilerl.algorithms` without being declared, and pins `pettingzoo<1.27`).

Checked: no illegal action (`infos[...]["illegal"] == 0`), every finished game's rewards
sum over the seats as the game's `win` reward says (0 for ASARA, 1 for BASARI), and each
seat's return per game is recorded.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

from examples.checks import add_game_arguments, check_games


def run(
    game: str = "asara",
    num_players: int = 2,
    envs: int = 2,
    steps: int = 2048,
    learn_step: int = 256,
    seed: int = 0,
) -> dict[str, Any]:
    """IPPO for about `steps` env steps (games x vector steps), learning every
    `learn_step`."""
    import torch
    from agilerl.vector.pz_async_vec_env import AsyncPettingZooVecEnv

    from asara_env.integrations.agilerl_ippo import ParallelFactory, masked_ippo_class

    torch.manual_seed(seed)
    factory = ParallelFactory(game, num_players=num_players)
    vec_env = AsyncPettingZooVecEnv([factory for _ in range(envs)])
    agent_ids = vec_env.possible_agents
    agent = masked_ippo_class()(
        observation_spaces=[vec_env.single_observation_space(a) for a in agent_ids],
        action_spaces=[vec_env.single_action_space(a) for a in agent_ids],
        agent_ids=agent_ids,
        net_config={"head_config": {"hidden_size": [64]}},
        batch_size=64,
        learn_step=learn_step,
        update_epochs=2,
        device="cpu",
    )
    obs, info = vec_env.reset(seed=seed)
    scores = np.zeros((envs, num_players))
    game_returns: list[list[float]] = []
    illegal, done_steps = 0, 0
    while done_steps < steps:
        buffers: list[dict[str, list[Any]]] = [{a: [] for a in agent_ids} for _ in range(6)]
        states, actions, log_probs, rewards, dones, values = buffers
        done = {a: np.zeros(envs) for a in agent_ids}
        for _ in range(-(learn_step // -envs)):
            action, log_prob, _entropy, value = agent.get_action(obs=obs, infos=info)
            next_obs, reward, termination, truncation, info = vec_env.step(action)
            done_steps += envs
            for a in agent_ids:
                states[a].append(obs[a])
                rewards[a].append(reward[a])
                actions[a].append(action[a])
                log_probs[a].append(log_prob[a])
                values[a].append(value[a])
                dones[a].append(done[a])
            illegal += sum(int(np.sum(info[a]["illegal"])) for a in agent_ids if a in info)
            seat_rewards = np.column_stack([np.nan_to_num(reward[a]) for a in agent_ids])
            scores += seat_rewards
            next_done = {
                a: np.logical_or(termination[a], truncation[a]).astype(float) for a in agent_ids
            }
            for g in np.flatnonzero(np.all([next_done[a] for a in agent_ids], axis=0)):
                game_returns.append(scores[g].tolist())
                scores[g] = 0.0
            obs, done = next_obs, next_done
        agent.learn((states, actions, log_probs, rewards, dones, values, next_obs, next_done))
    vec_env.close()
    return {
        "game": game,
        "env_steps": done_steps,
        "illegal": illegal,
        "game_returns": game_returns,
    }


def check(result: dict[str, Any]) -> None:
    """What the recipe promises; raises AssertionError otherwise."""
    check_games(result["illegal"], result["game_returns"], game=result["game"])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_game_arguments(p)
    p.add_argument("--envs", type=int, default=2, help="games in subprocesses")
    p.add_argument("--steps", type=int, default=2048)
    p.add_argument("--learn-step", type=int, default=256)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    result = run(args.game, args.players, args.envs, args.steps, args.learn_step, args.seed)
    check(result)
    returns = np.asarray(result["game_returns"])
    print(
        f"AgileRL IPPO on {args.game}: {result['env_steps']} env steps, {len(returns)} games, "
        f"mean return by seat {np.round(returns.mean(axis=0), 3).tolist()}, "
        f"illegal actions {result['illegal']}"
    )


if __name__ == "__main__":
    main()
