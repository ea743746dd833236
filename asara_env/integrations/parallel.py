"""Any game as a PettingZoo `ParallelEnv`, what SuperSuit's and AgileRL's vector envs step.

    from asara_env.integrations.parallel import parallel_env
    env = parallel_env("asara", num_players=3)

A simultaneous-move game (BASARI) has a parallel env of its own; a turn-based one (ASARA)
goes through PettingZoo's `turn_based_aec_to_parallel` (`aec_to_parallel` is not valid
for it): every seat gets an observation each step, only the action of the seat to move is
played, and the others' masks are all zeros. That conversion adds
`infos[agent]["active_agent"]` (a string) on the steps between the first and the last.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import ParallelEnv

from asara_env import games


def parallel_env(game: str, **kwargs: Any) -> ParallelEnv:
    """`game`'s parallel env (`kwargs` as for `asara_env.make(game, ...)`)."""
    if games.game_card(game).parallel_env is not None:
        return games.env_factory(game, "parallel_env")(**kwargs)
    from pettingzoo.utils.conversions import turn_based_aec_to_parallel

    return turn_based_aec_to_parallel(games.make(game, **kwargs))
