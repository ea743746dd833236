"""BASARI's vectorised rules core: B games of one configuration stepped at once with numpy.

    state = init(BasariConfig(num_players=4), batch=1024, seeds=0)
    while not is_terminal(state).all():
        mask = legal_action_mask(state)                 # bool[B, P, N_ACTIONS]
        step(state, pick(mask, observe(state)))         # int[B, P]: one id per seat
    score = scores(state)                               # int64[B, P]: B10 order as one number
    winners(score), terminal_rewards(score, "rank")

The verb set every game's core has (`asara_env.games.CORE_VERBS`): `init`, `step`,
`legal_action_mask`, `observe`, `is_terminal`, `scores`. BASARI is simultaneous: every
seat has a mask and an observation and sends an action every step (NOOP when it has no
decision). Game i of a batch seeded s plays exactly the reference game `new_game(config,
derived_seed(s, i))`; `autoreset` starts finished games afresh (seed `derived_seed(seed,
1)`). The core imports only numpy, `asara_env.common` and BASARI's definition modules.
"""

from asara_env.basari.core.init import autoreset, init, reset_games, seeds_for
from asara_env.basari.core.mask import legal_action_mask
from asara_env.basari.core.observation import global_state, obs_index, obs_size, observe
from asara_env.basari.core.outcome import (
    REWARD_SCHEMES,
    is_terminal,
    points,
    ranking_score,
    scores,
    terminal_rewards,
    winners,
)
from asara_env.basari.core.rules import score_round
from asara_env.basari.core.state import (
    ARRAY_FIELDS,
    FIELD_SPECS,
    BasariState,
    copy_state,
    states_equal,
    take,
)
from asara_env.basari.core.step import check_actions, illegal_seats, step, step_observe

__all__ = [
    "ARRAY_FIELDS",
    "FIELD_SPECS",
    "REWARD_SCHEMES",
    "BasariState",
    "autoreset",
    "check_actions",
    "copy_state",
    "global_state",
    "illegal_seats",
    "init",
    "is_terminal",
    "legal_action_mask",
    "obs_index",
    "obs_size",
    "observe",
    "points",
    "ranking_score",
    "reset_games",
    "score_round",
    "scores",
    "seeds_for",
    "states_equal",
    "step",
    "step_observe",
    "take",
    "terminal_rewards",
    "winners",
]
