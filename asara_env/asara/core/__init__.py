"""The vectorised rules core: B games of one configuration stepped at once with numpy.

    state = init(GameConfig(num_players=4, variant="pro"), batch=1024, seeds=0)
    while not is_terminal(state).all():
        mask = legal_action_mask(state)                 # bool[B, NUM_ACTIONS]
        step(state, pick(mask))                         # int[B]; finished games ignore it
    final_prestige(state), winners(final_prestige(state)), terminal_rewards(prestige, "win")

Game i of a batch seeded s plays exactly the reference game `new_game(config,
derived_seed(s, i))`. The core imports only numpy.
"""

from asara_env.asara.core.init import autoreset, init, reset_games, seeds_for
from asara_env.asara.core.mask import legal_action_mask
from asara_env.asara.core.outcome import (
    current_seat,
    final_prestige,
    is_terminal,
    terminal_rewards,
    winners,
)
from asara_env.asara.core.state import CoreState, copy_state, take
from asara_env.asara.core.step import check_actions, step
from asara_env.asara.core.turns import TURNS, observe_games
from asara_env.common.seeding import derived_seed

__all__ = [
    "CoreState",
    "init",
    "step",
    "legal_action_mask",
    "current_seat",
    "is_terminal",
    "final_prestige",
    "winners",
    "terminal_rewards",
    "check_actions",
    "reset_games",
    "autoreset",
    "seeds_for",
    "derived_seed",
    "copy_state",
    "take",
    "TURNS",
    "observe_games",
]
