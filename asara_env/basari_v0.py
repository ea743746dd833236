"""BASARI, version 0 of the PettingZoo environments (see `asara_env.basari.env`).

    from asara_env import basari_v0
    par = basari_v0.parallel_env(num_players=4)   # every agent acts each step
    aec = basari_v0.env(num_players=4)            # AEC: the agents one after another

The version changes whenever a change could alter what an agent trained on it sees.
"""

from asara_env.basari.env import BasariParallelEnv, env, parallel_env, raw_env

__all__ = ["BasariParallelEnv", "env", "parallel_env", "raw_env"]
