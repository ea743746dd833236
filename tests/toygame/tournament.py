"""DICE AUCTION in the shared tournament (training/evaluation/tournament.py): `game()`."""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.registry import agent_specs, make_agent
from training.evaluation.tournament import TournamentGame

from . import core
from .card import CARD
from .rules import ToyConfig


def play(
    players: int, agents: list[Any], seating: np.ndarray, seeds: np.ndarray, bar: Any, record: Any
) -> np.ndarray:
    """Final scores int[G, P] of G games played together on the core."""
    state = core.init(ToyConfig(players), len(seeds), seeds=seeds)
    while not core.is_terminal(state).all():
        obs, mask = core.observe(state), core.legal_action_mask(state)
        live = ~core.is_terminal(state)
        actions = np.zeros((len(seeds), players), np.int64)
        for seat in range(players):
            for k, agent in enumerate(agents):
                rows = np.flatnonzero(live & (seating[:, seat] == k))
                if len(rows):
                    actions[rows, seat] = agent.act_batch(obs[rows, seat], mask[rows, seat])
        core.step(state, actions)
    if bar is not None:
        bar.update(len(seeds))
    return core.scores(state)


def game() -> TournamentGame:
    return TournamentGame(
        agent_names=agent_specs("toygame"),
        make_agent=lambda spec, seed: make_agent("toygame", spec, seed),
        play=play,
        player_counts=CARD.player_counts,
        title="toygame (dice auction)",
    )
