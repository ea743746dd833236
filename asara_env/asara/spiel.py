"""ASARA as OpenSpiel's adapter drives it (`asara_env.integrations.openspiel`): one game
held in the PettingZoo env (`asara_env.asara.env.raw_env`), moved, observed, saved and
determinised through the env and the game's own modules, never through rules of its own.

- `AsaraWorld.new(params, seed)`: the env's game `reset(seed=seed)`; `params` are the
  OpenSpiel parameters `players`, `variant`, `expansions` (names joined by "+", "" for
  none) and `reward` (one of the env's reward schemes).
- Actions are the env's ids (docs/asara/actions.md), observations the env's (docs/asara/
  observation.md), rewards the env's; an illegal action raises `IllegalActionError` and
  changes nothing (the env's `illegal_action="raise"`).
- A world pickles as its saved game (`env.save_game()`, docs/asara/state.md) and unpickles
  through `env.load_game`; `copy.deepcopy` copies the env.
- `determinise(seat, rng)`: the game as `seat` may imagine it, through R10's
  `asara_env.asara.hidden.determinise` on the saved game (the hidden cards and windows
  redealt, the future chance drawn from `rng`).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from asara_env.asara.actions import NUM_ACTIONS, describe_action
from asara_env.asara.config import GameConfig
from asara_env.asara.core.observation import OBS_DIM
from asara_env.asara.core.state import CoreState
from asara_env.asara.env import raw_env
from asara_env.asara.hidden import determinise
from asara_env.asara.reference.serialize import state_from_dict, state_to_dict

PARAMETERS: dict[str, int | str] = {"variant": "basic", "expansions": ""}  # beyond the shared


def expansion_names(text: str) -> tuple[str, ...]:
    """The expansions of the OpenSpiel parameter `expansions` ("genie+gifts"; "" none):
    joined by "+", since OpenSpiel's game strings separate parameters with commas."""
    return tuple(sorted(name.strip() for name in text.split("+") if name.strip()))


def game_config(params: Mapping[str, Any]) -> GameConfig:
    """The game's config from the OpenSpiel parameters (a ValueError naming a bad one)."""
    return GameConfig(
        num_players=int(params["players"]),
        variant=str(params["variant"]),
        expansions=expansion_names(str(params["expansions"])),
    )


class AsaraWorld:
    """One ASARA game for the OpenSpiel adapter; see the module docstring."""

    PARAMETERS = PARAMETERS

    def __init__(self, env: raw_env, params: Mapping[str, Any]) -> None:
        self.env = env
        self.params = dict(params)
        self.agents = list(env.possible_agents)

    @staticmethod
    def make_env(params: Mapping[str, Any]) -> raw_env:
        """An env of this configuration that raises on an illegal action."""
        config = game_config(params)
        return raw_env(
            num_players=config.num_players,
            variant=config.variant,
            expansions=config.expansions,
            reward=str(params["reward"]),
            illegal_action="raise",
        )

    @classmethod
    def new(cls, params: Mapping[str, Any], seed: int) -> AsaraWorld:
        """The game the env deals with `reset(seed=seed)`."""
        env = cls.make_env(params)
        env.reset(seed=seed)
        return cls(env, params)

    @classmethod
    def load(cls, params: Mapping[str, Any], saved: dict[str, Any]) -> AsaraWorld:
        """The saved game `saved` (docs/asara/state.md) continued in a new env."""
        env = cls.make_env(params)
        env.load_game(saved)
        return cls(env, params)

    @staticmethod
    def sizes(params: Mapping[str, Any]) -> tuple[int, int]:
        """(actions, observation size): the same for every configuration."""
        return NUM_ACTIONS, OBS_DIM

    @staticmethod
    def max_game_length(params: Mapping[str, Any]) -> int:
        """The most decisions a game of this configuration can take."""
        return int(game_config(params).max_decisions)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its saved game, rebuilt by `load`."""
        return (AsaraWorld.load, (self.params, self.save()))

    def __deepcopy__(self, memo: dict[int, Any]) -> AsaraWorld:
        """A copy of the env in the same position (not through the saved game)."""
        twin = object.__new__(AsaraWorld)
        memo[id(self)] = twin
        twin.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return twin

    # ------------------------------------------------------------------------ the game
    def current_seat(self) -> int:
        """The seat to decide (in a finished game, the one that decided last)."""
        return self.agents.index(self.env.agent_selection)

    def is_terminal(self) -> bool:
        return all(self.env.terminations.values())

    def legal_actions(self, seat: int) -> list[int]:
        """The ids `seat` may play now, ascending (none unless it is to move)."""
        mask = self.env.infos[self.agents[seat]]["action_mask"]
        return [int(a) for a in np.flatnonzero(mask)]

    def apply(self, actions: Sequence[int]) -> NDArray[np.float64]:
        """Play the mover's action (`actions` holds one id); the step's rewards by seat."""
        (action,) = actions
        self.env.step(int(action))
        return np.array([self.env.rewards[a] for a in self.agents], np.float64)

    def observation(self, seat: int) -> NDArray[np.float32]:
        """float32[2266]: what `seat` knows (the env's observation)."""
        obs: NDArray[np.float32] = self.env.observe(self.agents[seat])["observation"]
        return obs

    def action_name(self, seat: int, action: int) -> str:
        return describe_action(int(action))

    def save(self) -> dict[str, Any]:
        """The whole game as a saved-game dict (docs/asara/state.md)."""
        return self.env.save_game()

    def determinise(self, seat: int, rng: np.random.Generator) -> AsaraWorld:
        """The game as `seat` may imagine it, its future chance drawn from `rng` (R10)."""
        twin = determinise(state_from_dict(self.save()), seat, rng)
        return AsaraWorld.load(self.params, state_to_dict(twin))

    @property
    def core(self) -> CoreState:
        """The game's core batch (B = 1), for agents that read the state (the search)."""
        return self.env.core

    def __str__(self) -> str:
        """The whole game: its saved game as JSON (keys sorted)."""
        return json.dumps(self.save(), sort_keys=True)
