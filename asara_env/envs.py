"""The environments' plumbing, written once for every game's PettingZoo and gymnasium envs
(each game's `env.py` and `gym_env.py` are thin: its rules, observations and infos).

- Seeds (`EpisodeSeeds`): `reset(seed=s)` plays the game seeded s; later `reset()` calls
  without a seed play `derived_seed(s, 1)`, `derived_seed(s, 2)`, …; a first `reset()`
  without a seed draws s from the OS.
- Saved games (`saved_state`): `reset(options={"state": saved})` continues a saved game
  instead (other option keys are ignored, as gymnasium and PettingZoo expect).
- The constructor's choices (`check_env_choices`), each refused with a `ValueError`
  naming the argument; the Dict observation and Discrete action spaces (`masked_spaces`);
  `copy.deepcopy(env)` an independent env in the same position (`DeepCopyable`).
- The illegal-action policy, `illegal_action="penalize"` (the default, as in PettingZoo's
  classic environments) or `"raise"`: an int action that is not legal now (ids out of
  range included) either ends the game with `ILLEGAL_PENALTY` (-1) to the offender
  (`penalty_rewards`) and a warning naming the agent, the action and why, or raises the
  game's `IllegalActionError` with the same words and changes nothing (`raise_or_warn`).
  Actions that are not ints (or 0-d int arrays) always raise.
- `OrderEnforcing`: PettingZoo's order-enforcing wrapper, with `last()` in one call and
  `load_game`.
- `SimultaneousAEC`: the AEC form of a simultaneous-move parallel env. Agents act one at
  a time on the observations of the step's start (no choice leaks to a later agent); each
  action is checked at its own agent's step, and the buffered actions are played together
  once the last live agent has acted.
- `OpponentsEnv` (`asara_env/opponents_env.py`): one seat of a game's AEC env as a
  single-agent gymnasium env, the other seats played by opponents.
- The normalised observation (`normalize_obs=True` of every env; `normalizer`,
  `normalized_high`): every entry mapped into [0, 1] by the game's `ObsNormalizer`
  (`asara_env.common.layout`, built from its observation's slice tables), the observation
  space (and the state space) a [0, 1] box.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from numpy.typing import NDArray
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from asara_env.common.errors import CorruptStateError
from asara_env.common.layout import ObsNormalizer
from asara_env.common.seeding import derived_seed
from asara_env.common.validate import check_choice, check_seed, check_type

ILLEGAL_ACTION_MODES = ("raise", "penalize")
ILLEGAL_PENALTY = -1.0  # the offender's reward under illegal_action="penalize"
StepResults = tuple[
    dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]
]


# ------------------------------------------------------------------------------ choices
def check_env_choices(
    reward: object,
    reward_schemes: Iterable[str],
    illegal_action: object,
    render_mode: object,
    render_modes: Sequence[str],
) -> None:
    """The choices every env takes, each a ValueError naming the argument."""
    check_choice("reward", reward, tuple(reward_schemes))
    check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
    check_choice("render_mode", render_mode, (None, *render_modes))


def masked_spaces(
    agents: Sequence[str], obs_high: NDArray[np.float32], n_actions: int
) -> tuple[dict[str, spaces.Space[Any]], dict[str, spaces.Space[Any]]]:
    """Every agent's observation space, `{"observation": float32[obs_size] in
    [0, obs_high] (each entry's bound), "action_mask": int8[n_actions]}`, and its
    `Discrete(n_actions)`."""
    observation = spaces.Dict(
        {
            "observation": observation_box(obs_high),
            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
        }
    )
    observations = {a: copy.deepcopy(observation) for a in agents}
    actions: dict[str, spaces.Space[Any]] = {a: spaces.Discrete(n_actions) for a in agents}
    return cast(dict[str, spaces.Space[Any]], observations), actions


def normalizer(
    normalize: ObsNormalizer, on: bool
) -> Callable[[NDArray[np.float32]], NDArray[np.float32]]:
    """What an env applies to its observations: `normalize` with `normalize_obs=True`, else
    nothing (the raw observation)."""
    return normalize if on else _unchanged


def _unchanged(obs: NDArray[np.float32]) -> NDArray[np.float32]:
    return obs


def normalized_high(high: NDArray[np.float32], on: bool) -> NDArray[np.float32]:
    """The observation's bounds: `high`, or ones with `normalize_obs=True`."""
    return np.ones_like(high) if on else high


def learner_observations(
    raw: spaces.Space[Any], normalize: ObsNormalizer, on: object
) -> tuple[spaces.Space[Any], ObsNormalizer | None]:
    """A gymnasium env's observation space and what its learner's observations go through:
    the game's `raw` space and nothing, or with `normalize_obs=True` (`on`) a [0, 1] box
    and `normalize`; a ValueError naming normalize_obs if `on` is not a bool."""
    if not check_type("normalize_obs", on, bool):
        return raw, None
    return observation_box(np.ones(normalize.size, np.float32)), normalize


def observation_box(high: NDArray[np.float32]) -> spaces.Box:
    """float32 observations from 0 to `high`, entry by entry."""
    return spaces.Box(np.zeros_like(high), np.array(high, np.float32), dtype=np.float32)


# ------------------------------------------------------------------------------ episodes
class EpisodeSeeds:
    """The per-episode game seeds of an env (see the module docstring)."""

    def __init__(self) -> None:
        self.base: int | None = None  # the seed of the last reset(seed=...)
        self.episode = 0  # resets since then

    def next(self, seed: object) -> int:
        """The game seed of `reset(seed=seed)`; a ValueError naming `seed` if it is not
        an int from 0 to 2**64 - 1 (nothing changes then)."""
        if seed is not None:
            self.base, self.episode = check_seed("seed", seed), 0
            return self.base
        if self.base is None:
            self.base, self.episode = cast(int, np.random.SeedSequence().entropy) % 2**64, 0
            return self.base
        self.episode += 1
        return derived_seed(self.base, self.episode)

    def restart(self, base: int) -> None:
        """Later resets without a seed play `derived_seed(base, 1)`, … (after loading a
        game seeded `base`)."""
        self.base, self.episode = base, 0


def game_to_load(saved: object) -> dict[str, Any]:
    """`saved`, the argument of a `load_game`, if it is a dict (a saved game, checked in
    full when loaded); anything else (None included: it would start a new game) is a
    CorruptStateError, before anything changes."""
    if not isinstance(saved, dict):
        raise CorruptStateError(f"a saved game is a dict, got {short_repr(saved)}", "(top)")
    return saved


def short_repr(value: object, limit: int = 60) -> str:
    """repr(value), cut to `limit` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def saved_state(seed: object, options: object) -> dict[str, Any] | None:
    """`options["state"]` of `reset(seed, options)`, or None for a new game; a ValueError
    if `options` is not a dict, or if both a seed and a saved game are given."""
    if options is None:
        return None
    saved = check_type("reset options", options, dict).get("state")
    if saved is not None and seed is not None:
        raise ValueError("reset: pass either a seed or options['state'], not both")
    return saved


class DeepCopyable:
    """`copy.deepcopy(env)`: an independent env in the same position (EzPickle's pickling,
    which rebuilds the env from its constructor's arguments, is for sending a fresh env
    elsewhere)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        twin = object.__new__(type(self))
        memo[id(self)] = twin
        for name, value in self.__dict__.items():
            setattr(twin, name, copy.deepcopy(value, memo))
        return twin


# ------------------------------------------------------------------------------ illegal
class IllegalActionErrorType(Protocol):
    """A game's `IllegalActionError` class, called with keywords."""

    def __call__(
        self, *, action: object, name: str, seat: int, phase: str, reason: str
    ) -> Exception: ...


@dataclass(frozen=True)
class Illegal:
    """One illegal action: who gave it, what it is and why it is illegal now."""

    agent: str
    seat: int
    action: int
    name: str  # the action's name, "?" for an id out of range
    phase: str
    reason: str

    def error(self, error_type: IllegalActionErrorType) -> Exception:
        return error_type(
            action=self.action,
            name=self.name,
            seat=self.seat,
            phase=self.phase,
            reason=f"{self.reason} ({self.agent} may not play it)",
        )

    def warning(self) -> str:
        return (
            f"illegal action {self.action} ({self.name}) by {self.agent} in phase "
            f"{self.phase}: {self.reason}; the game ends and {self.agent} is penalised "
            f"({ILLEGAL_PENALTY})"
        )


def raise_or_warn(
    mode: str,
    illegal: Sequence[Illegal],
    error_type: IllegalActionErrorType,
    stacklevel: int = 4,
) -> None:
    """The policy for illegal actions (at least one): under "raise" the first one's
    `error_type` is raised; under "penalize" each is warned about, and the caller ends the
    game with `penalty_rewards`."""
    if mode == "raise":
        raise illegal[0].error(error_type)
    for one in illegal:
        warnings.warn(one.warning(), stacklevel=stacklevel)


def penalty_rewards(players: int, offenders: Sequence[int]) -> NDArray[np.float64]:
    """float64[players] by seat: ILLEGAL_PENALTY to each offender, 0 to the others (as
    PettingZoo's classic environments do, zero-sum games such as chess included)."""
    rewards = np.zeros(players)
    rewards[list(offenders)] = ILLEGAL_PENALTY
    return rewards


# ------------------------------------------------------------------------------ AEC
class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper with `last()` handed to the env in one call and
    `agents` and `agent_selection` read from it directly (the base class reaches each of
    these through `__getattr__`, which `agent_iter` does at every step); each still raises
    AttributeError before `reset()`, as the base class does."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if observe and not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return cast(list[str], self.env.agents)

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return cast(str, self.env.agent_selection)

    def load_game(self, saved: dict[str, Any]) -> None:
        """Continue the saved game `saved` (counts as the reset the wrapper asks for)."""
        self.reset(options={"state": game_to_load(saved)})


class Simultaneous(Protocol):
    """What `SimultaneousAEC` needs of a simultaneous-move parallel env. Agents leave
    `agents` only when the game ends."""

    possible_agents: list[str]
    agents: list[str]
    metadata: dict[str, Any]
    render_mode: str | None

    def observation_space(self, agent: str) -> spaces.Space[Any]: ...
    def action_space(self, agent: str) -> spaces.Space[Any]: ...
    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]: ...
    def step(self, actions: dict[str, Any]) -> StepResults: ...
    def check_action(self, agent: str, action: object) -> Illegal | None:
        """Why `action` is illegal for `agent` now, or None; raises if it is not an int."""

    def refuse(self, illegal: Sequence[Illegal]) -> StepResults:
        """Raises under "raise"; else ends the game penalised, returning what step does."""

    def state(self) -> NDArray[np.float32]: ...
    def render(self) -> Any: ...
    def save_game(self) -> dict[str, Any]: ...
    def close(self) -> None: ...


class SimultaneousAEC(DeepCopyable, AECEnv, EzPickle):
    """The AEC form of a simultaneous-move parallel env (see the module docstring).
    `save_game()` saves the position at the start of the step: actions already given in
    it are not part of the saved game."""

    def __init__(self, env: Simultaneous) -> None:
        EzPickle.__init__(self, env)  # pickled: a fresh env (deepcopy keeps the position)
        AECEnv.__init__(self)
        self.env = env
        self.metadata = {**env.metadata, "is_parallelizable": True}
        self.possible_agents = env.possible_agents[:]
        self.render_mode = env.render_mode
        self.state_space = getattr(env, "state_space", None)
        self.agents: list[str] = []
        self._actions: dict[str, int] = {}

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.env.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.env.action_space(agent)

    @property
    def unwrapped(self) -> Any:
        """The parallel env (as for PettingZoo's `parallel_to_aec`)."""
        return self.env

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        observations, infos = self.env.reset(seed=seed, options=options)
        over = not self.env.agents
        self.agents = self.possible_agents[:]
        self._observations, self.infos = observations, infos
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, over)
        self.truncations = dict.fromkeys(self.agents, False)
        self._actions = {}
        self.agent_selection = self.agents[0]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)  # refuses any action but None, changing nothing
            return
        illegal = self.env.check_action(agent, action)
        if illegal is not None:
            self._settle(self.env.refuse([illegal]), first=agent)
            return
        self._cumulative_rewards[agent] = 0.0
        self._actions[agent] = int(np.asarray(action))
        waiting = [a for a in self.agents if a not in self._actions]
        if waiting:
            self._clear_rewards()
            self.agent_selection = waiting[0]
            return
        self._settle(self.env.step(self._actions))

    def _settle(self, results: StepResults, first: str | None = None) -> None:
        """Take a parallel step's results: rewards accumulated, the next agent selected
        (`first`, else the first agent)."""
        observations, rewards, terminations, truncations, infos = results
        self._observations.update(observations)
        self.infos = {a: infos[a] for a in self.agents}
        self.rewards = {a: float(rewards.get(a, 0.0)) for a in self.agents}
        self._accumulate_rewards()
        self.terminations = {a: bool(terminations.get(a, True)) for a in self.agents}
        self.truncations = {a: bool(truncations.get(a, False)) for a in self.agents}
        self._actions = {}
        self.agent_selection = first or self.agents[0]

    def observe(self, agent: str) -> Any:
        return self._observations[agent]

    def state(self) -> NDArray[np.float32]:
        return self.env.state()

    def render(self) -> Any:
        return self.env.render()

    def save_game(self) -> dict[str, Any]:
        """The game at the start of the current step (see the class docstring)."""
        return self.env.save_game()

    def load_game(self, saved: dict[str, Any]) -> None:
        """Continue the saved game `saved` (validated): a `save_game()` dict or any other
        saved-game format (`asara_env.common.record.saved_game_from_dict`)."""
        self.reset(options={"state": game_to_load(saved)})

    def close(self) -> None:
        self.env.close()

    def __str__(self) -> str:
        return str(self.metadata.get("name", type(self).__name__))
