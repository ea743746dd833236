"""ASARA, version 0 of the PettingZoo environment: `asara_v0.env()` / `asara_v0.raw_env()`.

The version changes whenever a change could alter what an agent trained on it sees.
"""

from asara_env.asara.env import env, raw_env

__all__ = ["env", "raw_env"]
