"""BASARI, version 0 of the PettingZoo environments (see `asara_env.basari.env`).

    from asara_env import basari_v0
    par = basari_v0.parallel_env(num_players=4)   # every agent acts each step
    aec = basari_v0.env(num_players=4)            # AEC, via PettingZoo's parallel_to_aec

The version changes whenever a change could alter what an agent trained on it sees.
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils.conversions import parallel_to_aec

from asara_env.basari.env import BasariParallelEnv


def parallel_env(**kwargs: Any) -> BasariParallelEnv:
    """The parallel environment (see `asara_env.basari.env` for the arguments)."""
    return BasariParallelEnv(**kwargs)


def env(**kwargs: Any) -> AECEnv:
    """The AEC form: PettingZoo's `parallel_to_aec` over `parallel_env(**kwargs)`; it
    buffers the agents' actions until the last one has acted, so no choice leaks."""
    return parallel_to_aec(parallel_env(**kwargs))


__all__ = ["BasariParallelEnv", "env", "parallel_env"]
