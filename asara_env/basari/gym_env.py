"""One BASARI game as a single-agent gymnasium env: the learner plays one seat, agents the
others (through the AEC form of the parallel env).

    env = BasariGymEnv(num_players=4, opponents=[agents.registry.make_agent("basari", "value")])
    # or through gymnasium (the id is registered by `import asara_env`):
    env = gymnasium.make("asara_env/Basari-v0", num_players=4)
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))

- Observation: the learner's `float32[OBS_SIZE]` (364 on the default board;
  docs/basari/observation.md); its legal actions are `env.action_masks()` (bool[N_ACTIONS],
  for sb3-contrib's MaskablePPO) and `info["action_mask"]`.
- The learner is asked only at its real decisions (its start archway, its cards, its
  barter steps); where NOOP is its only legal action, NOOP is played for it. Its
  simultaneous choices are made on the observation every agent had at the step's start.
- Opponents: agent objects (anything with `act_batch(observations, masks)`, such as
  `agents.registry.make_agent("basari", "value")`), one per other seat (or one, then used for
  every other seat); by default every other seat plays uniformly random legal moves. The
  library never imports the `agents` package.
- `reset(seed=s)` seeds everything (the game, the learner's seat unless fixed with
  `seat=`, the opponents' generators); `options={"game_seed": g, "seat": k}` picks the game
  and seat directly.
- Reward: the learner's terminal reward under `reward` ("win", "rank", "margin"; see
  asara_env/basari/env.py), 0 before the end; `terminated` when the game is over, never
  truncated. An illegal action ends the game with reward -1 and a warning
  (`illegal_action="penalize"`, the default), or with `illegal_action="raise"` raises
  `IllegalActionError` and changes nothing.
- `info`: the env's infos of the learner (same keys at every step) plus `action_mask` and
  `learner_seat`.
- Saved games: `save_game()` is the game's saved-game dict (docs/basari/state.md);
  `load_game(saved, seat=None)` (or `reset(options={"state": saved, "seat": k})`)
  continues it with the learner in seat k. `copy.deepcopy(env)` is an independent env
  that continues identically (opponents included).
- `backend`: the core's implementation, "numpy" or "numba" (see asara_env/basari/env.py).
- `normalize_obs=True`: the learner's observation normalised into [0, 1] (as the
  PettingZoo envs' option), its space a [0, 1] box; the opponents see the raw observations
  they expect.

Everything but BASARI's arguments is `asara_env.opponents_env.OpponentsEnv`, shared with ASARA's
gymnasium env.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import gymnasium as gym

from asara_env.basari.actions import NOOP
from asara_env.basari.core.observation import obs_normalizer
from asara_env.basari.env import parallel_env
from asara_env.common.opponents import Actor
from asara_env.envs import SimultaneousAEC, learner_observations
from asara_env.opponents_env import OpponentsEnv


class BasariGymEnv(OpponentsEnv):
    """See the module docstring."""

    def __init__(
        self,
        num_players: int = 4,
        start_mode: str = "choose",
        opponents: Sequence[Actor] | None = None,
        board: Any = None,
        seat: int | None = None,
        reward: str = "win",
        render_mode: str | None = None,
        illegal_action: str = "penalize",
        backend: str | None = None,
        normalize_obs: bool = False,
    ):
        parallel = parallel_env(
            num_players=num_players,
            start_mode=start_mode,
            reward=reward,
            board=board,
            render_mode=render_mode,
            illegal_action=illegal_action,
            backend=backend,
        )
        game = SimultaneousAEC(parallel)  # the AEC form (`basari_v0.raw_env`)
        spaces = cast(gym.spaces.Dict, game.observation_space(game.possible_agents[0]))
        observations, normalize = learner_observations(
            spaces["observation"], obs_normalizer(parallel.config), normalize_obs
        )
        super().__init__(
            game, opponents, seat, render_mode, observations, NOOP, normalize=normalize
        )
