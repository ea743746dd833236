"""BASARI as OpenSpiel's adapter drives it (`asara_env.integrations.openspiel`): one game
held in the PettingZoo parallel env (`asara_env.basari.env.BasariParallelEnv`), moved,
observed, saved and determinised through the env and the game's own modules, never
through rules of its own.

- `BasariWorld.new(params, seed)`: the env's game `reset(seed=seed)`; `params` are the
  OpenSpiel parameters `players`, `start_mode` and `reward` (one of the env's schemes).
- Every seat acts at every step (the env's joint actions; NOOP for a seat without a
  decision); actions, observations and rewards are the env's; an illegal action raises
  `IllegalActionError` and changes nothing (the env's `illegal_action="raise"`).
- A world pickles as its saved game (`env.save_game()`, docs/basari/state.md) and unpickles
  through `env.load_game`; `copy.deepcopy` copies the env.
- `determinise(seat, rng)`: the game as `seat` may imagine it. A seat sees the whole
  board, every holding and every revealed card; it does not see the future chance (E4:
  every die and coin still to come is a function of the game `seed`, which no observation
  shows: a world gets a fresh seed from `rng`; the chance already drawn is in the state
  and stays) nor the bundle another seat is building in a barter (`pending`, E2: its size
  is public, one step per gem added, its colours are not: redrawn gem by gem, each
  uniform among the colours of which the builder holds more than the bundle has): the
  game's determinisation, `asara_env.basari.hidden.determinise`, whose world is saved
  and loaded (and so validated) by a new env.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from asara_env.basari.bridge import to_reference
from asara_env.basari.config import BasariConfig
from asara_env.basari.core.observation import obs_size
from asara_env.basari.core.state import BasariState
from asara_env.basari.env import BasariParallelEnv
from asara_env.basari.hidden import determinise
from asara_env.basari.reference.serialize import state_to_dict

PARAMETERS: dict[str, int | str] = {"start_mode": "choose"}  # beyond the shared ones
# every step of a game is a turn's SELECT, one of its barters' decisions or the SETUP; a
# barter's offers rise strictly (B8) through at most every bundle, so the true bound is far
# above OpenSpiel's int: its largest int stands for "no bound OpenSpiel can hold"
MAX_GAME_LENGTH = 2**31 - 1


def game_config(params: Mapping[str, Any]) -> BasariConfig:
    """The game's config from the OpenSpiel parameters (a ValueError naming a bad one)."""
    return BasariConfig(num_players=int(params["players"]), start_mode=str(params["start_mode"]))


class BasariWorld:
    """One BASARI game for the OpenSpiel adapter; see the module docstring."""

    PARAMETERS = PARAMETERS

    def __init__(self, env: BasariParallelEnv, params: Mapping[str, Any]) -> None:
        self.env = env
        self.params = dict(params)
        self.agents = list(env.possible_agents)
        self._observations: dict[str, Any] = {}
        self._infos: dict[str, Any] = {}

    @staticmethod
    def make_env(params: Mapping[str, Any]) -> BasariParallelEnv:
        """An env of this configuration that raises on an illegal action."""
        config = game_config(params)
        return BasariParallelEnv(
            num_players=config.num_players,
            start_mode=config.start_mode,
            reward=str(params["reward"]),
            illegal_action="raise",
        )

    @classmethod
    def new(cls, params: Mapping[str, Any], seed: int) -> BasariWorld:
        """The game the env deals with `reset(seed=seed)`."""
        world = cls(cls.make_env(params), params)
        world._observations, world._infos = world.env.reset(seed=seed)
        return world

    @classmethod
    def load(cls, params: Mapping[str, Any], saved: dict[str, Any]) -> BasariWorld:
        """The saved game `saved` (docs/basari/state.md) continued in a new env."""
        world = cls(cls.make_env(params), params)
        world._observations, world._infos = world.env.load_game(saved)
        return world

    @staticmethod
    def sizes(params: Mapping[str, Any]) -> tuple[int, int]:
        """(actions, observation size) of this configuration."""
        config = game_config(params)
        return config.n_actions, obs_size(config.n_archways)

    @staticmethod
    def max_game_length(params: Mapping[str, Any]) -> int:
        """OpenSpiel's largest int (see MAX_GAME_LENGTH)."""
        return MAX_GAME_LENGTH

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its saved game, rebuilt by `load`."""
        return (BasariWorld.load, (self.params, self.save()))

    def __deepcopy__(self, memo: dict[int, Any]) -> BasariWorld:
        """A copy of the env in the same position (not through the saved game)."""
        twin = object.__new__(BasariWorld)
        memo[id(self)] = twin
        twin.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return twin

    # ------------------------------------------------------------------------ the game
    def current_seat(self) -> None:
        """None: every seat acts at every step."""
        return None

    def is_terminal(self) -> bool:
        return not self.env.agents

    def legal_actions(self, seat: int) -> list[int]:
        """The ids `seat` may play now, ascending (NOOP alone without a decision)."""
        mask = self._infos[self.agents[seat]]["action_mask"]
        return [int(a) for a in np.flatnonzero(mask)]

    def apply(self, actions: Sequence[int]) -> NDArray[np.float64]:
        """Play one joint action (an id per seat); the step's rewards by seat."""
        joint = {agent: int(a) for agent, a in zip(self.agents, actions, strict=True)}
        self._observations, rewards, _, _, self._infos = self.env.step(joint)
        return np.array([rewards.get(a, 0.0) for a in self.agents], np.float64)

    def observation(self, seat: int) -> NDArray[np.float32]:
        """float32[OBS_SIZE]: what `seat` knows (the env's observation)."""
        obs: NDArray[np.float32] = self._observations[self.agents[seat]]["observation"]
        return obs

    def action_name(self, seat: int, action: int) -> str:
        return str(self.env.config.actions.describe(int(action)))

    def save(self) -> dict[str, Any]:
        """The whole game as a saved-game dict (docs/basari/state.md)."""
        return self.env.save_game()

    def determinise(self, seat: int, rng: np.random.Generator) -> BasariWorld:
        """The game as `seat` may imagine it (see the module docstring)."""
        world = determinise(self.env.core, np.zeros(1, np.int64), np.array([seat]), rng)
        return BasariWorld.load(self.params, state_to_dict(to_reference(world, 0)))

    @property
    def core(self) -> BasariState:
        """The game's core batch (B = 1), for agents that read the state."""
        return self.env.core

    def __str__(self) -> str:
        """The whole game: its saved game as JSON (keys sorted)."""
        return json.dumps(self.save(), sort_keys=True)
