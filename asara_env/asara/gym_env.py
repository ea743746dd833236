"""One ASARA game as a single-agent gymnasium env: the learner plays one seat, agents the
others (through the AEC env).

    env = AsaraGymEnv(num_players=2, opponents=[agents.make_agent("towers")])
    # or through gymnasium (the id is registered by `import asara_env`):
    env = gymnasium.make("asara_env/Asara-v0", num_players=2)
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))

- Players: 4 by default, as for `asara_env.env()`.
- Observation: the learner's `float32[2266]` (docs/asara/observation.md); its legal actions are
  `env.action_masks()` (bool[803], for sb3-contrib's MaskablePPO) and `info["action_mask"]`.
- Opponents: agent objects (anything with `act_batch(observations, masks)`, such as
  `agents.make_agent("towers")`), one per other seat (or one, then used for every other
  seat); they act on their own observations through the shared opponents' loop
  (`asara_env.common.opponents`). By default every other seat plays uniformly random legal
  moves. The library never imports the `agents` package. Everything but ASARA's arguments
  is `asara_env.opponents_env.OpponentsEnv`, shared with BASARI's gymnasium env.
- `reset(seed=s)` seeds everything (the game, the learner's seat unless fixed with `seat=`,
  the opponents' generators); `options={"game_seed": g, "seat": k}` picks the reference game
  and seat directly (the vectorised training env's games can be replayed this way).
- Reward: the learner's terminal reward under `reward` ("win", "rank", "margin"; see
  asara_env/asara/env.py), 0 before the end; `terminated` when the game is over, never truncated
  (every game ends within `GameConfig.max_decisions`). An illegal action ends the game
  with reward -1 and a warning (`illegal_action="penalize"`, the default, what checkers
  that sample unmasked actions need), or with `illegal_action="raise"` raises
  `IllegalActionError` and changes nothing.
- `info`: the AEC env's infos of the learner (same keys at every step) plus
  `learner_seat`.
- `backend`: the core that plays the game ("numpy", "numba" or None for the default), as
  the AEC env's.
- `normalize_obs=True`: the learner's observation normalised into [0, 1] (as the AEC env's
  option), its space a [0, 1] box; the opponents see the raw observations they expect.
- Saved games: `save_game()` is the game's saved-game dict (docs/asara/state.md);
  `load_game(saved, seat=None)` (or `reset(options={"state": saved, "seat": k})`)
  continues it with the learner in seat k (the fixed seat, else drawn). `copy.deepcopy(env)`
  is an independent env that continues identically (opponents included).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import gymnasium as gym

from asara_env.asara.core.observation import OBS_NORMALIZER
from asara_env.asara.env import raw_env
from asara_env.common.opponents import Actor
from asara_env.envs import learner_observations
from asara_env.opponents_env import OpponentsEnv


class AsaraGymEnv(OpponentsEnv):
    """See the module docstring."""

    game: raw_env

    def __init__(
        self,
        num_players: int = 4,
        variant: str = "basic",
        opponents: Sequence[Actor] | None = None,
        expansions: tuple[str, ...] = (),
        seat: int | None = None,
        reward: str = "win",
        render_mode: str | None = None,
        illegal_action: str = "penalize",
        shaping: float = 0.0,
        backend: str | None = None,
        normalize_obs: bool = False,
    ):
        game = raw_env(
            num_players,
            variant,
            expansions,
            reward=reward,
            render_mode=render_mode,
            illegal_action=illegal_action,
            shaping=shaping,
            backend=backend,
        )
        spaces = cast(gym.spaces.Dict, game.observation_space(game.possible_agents[0]))
        observations, normalize = learner_observations(
            spaces["observation"], OBS_NORMALIZER, normalize_obs
        )
        super().__init__(game, opponents, seat, render_mode, observations, normalize=normalize)
