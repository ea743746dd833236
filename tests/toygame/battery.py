"""DICE AUCTION's adapter for the conformance battery: the lockstep differential."""

from __future__ import annotations

import numpy as np

from asara_env.common.seeding import derived_seed

from . import core, reference
from .rules import ToyConfig


def lockstep(config: ToyConfig, seed: int) -> None:
    """Four random games in the core and the reference engine, compared every round."""
    state = core.init(config, 4, seeds=seed)
    games = [reference.new_game(config, derived_seed(seed, i)) for i in range(4)]
    rng = np.random.default_rng(seed)
    while not core.is_terminal(state).all():
        mask = core.legal_action_mask(state)
        for i, game in enumerate(games):
            for seat in range(config.num_players):
                assert np.flatnonzero(mask[i, seat]).tolist() == reference.legal_actions(game, seat)
        bids = np.argmax(np.where(mask, rng.random(mask.shape), -1), axis=-1)
        core.step(state, bids)
        for i, game in enumerate(games):
            reference.step(game, bids[i].tolist())
            assert state.coins[i].tolist() == game.coins and state.points[i].tolist() == game.points
    assert all(g.is_over for g in games)
