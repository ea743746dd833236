"""Baseline agents that act on observations and action masks."""

from .random_agent import RandomAgent

__all__ = ["RandomAgent"]
