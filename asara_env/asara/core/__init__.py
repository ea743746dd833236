"""The vectorised rules core: B games of one configuration stepped at once with numpy.

    state = init(GameConfig(num_players=4, variant="pro"), batch=1024, seeds=0)
    while not is_terminal(state).all():
        mask = legal_action_mask(state)                 # bool[B, NUM_ACTIONS], seat to move
        step(state, pick(mask, observe(state)))         # int[B]; finished games ignore it
    score = scores(state)                               # int32[B, P]: the final prestige
    winners(score), terminal_rewards(score, "win")

The verb set every game's core has (`asara_env.games.CORE_VERBS`): `init`, `step`,
`legal_action_mask`, `observe`, `is_terminal`, `scores`. ASARA is turn-based: the mask,
the observation and the action are those of the seat to move (`current_seat`).
Game i of a batch seeded s plays exactly the reference game `new_game(config,
derived_seed(s, i))`. The core imports only numpy.
"""

from asara_env.asara.core.init import autoreset, init, reset_games, seeds_for
from asara_env.asara.core.mask import legal_action_mask
from asara_env.asara.core.observation import observe
from asara_env.asara.core.outcome import (
    REWARD_SCHEMES,
    current_seat,
    is_terminal,
    scores,
    terminal_rewards,
    winners,
)
from asara_env.asara.core.state import (
    ARRAY_FIELDS,
    FIELD_SPECS,
    CoreState,
    copy_state,
    states_equal,
    take,
)
from asara_env.asara.core.step import check_actions, step
from asara_env.asara.core.turns import TURNS, observe_games
from asara_env.common.seeding import derived_seed

__all__ = [
    "ARRAY_FIELDS",
    "FIELD_SPECS",
    "REWARD_SCHEMES",
    "CoreState",
    "init",
    "step",
    "legal_action_mask",
    "observe",
    "current_seat",
    "is_terminal",
    "scores",
    "winners",
    "terminal_rewards",
    "check_actions",
    "reset_games",
    "autoreset",
    "seeds_for",
    "derived_seed",
    "copy_state",
    "states_equal",
    "take",
    "TURNS",
    "observe_games",
]
