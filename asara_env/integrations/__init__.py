"""Adapters for RL libraries that need more than the PettingZoo API.

Nothing here is imported by `asara_env` itself: importing `asara_env.integrations.rllib`
is what loads Ray.
"""
