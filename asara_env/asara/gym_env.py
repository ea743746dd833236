"""One ASARA game as a single-agent gymnasium env: the learner plays one seat, agents the
others (through the AEC env).

    env = AsaraGymEnv(num_players=2, opponents=[agents.make_agent("towers")])
    # or, registered with gymnasium when this module is imported:
    env = gymnasium.make("asara_env/Asara-v0", num_players=2)
    obs, info = env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))

- Observation: the learner's `float32[2266]` (docs/asara/observation.md); its legal actions are
  `env.action_masks()` (bool[803], for sb3-contrib's MaskablePPO) and `info["action_mask"]`.
- Opponents: agent objects (anything with `act_batch(observations, masks)`, such as
  `agents.make_agent("towers")`), one per other seat (or one, then used for every other
  seat); they act on their own observations through the shared opponents' loop
  (`asara_env.common.opponents`). By default every other seat plays uniformly random legal
  moves. The library never imports the `agents` package.
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
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from numpy.typing import NDArray

from asara_env.asara.actions import NUM_ACTIONS
from asara_env.asara.core.observation import OBS_DIM
from asara_env.asara.env import OBS_HIGH, raw_env
from asara_env.common.opponents import Actor, TurnBased, play_opponents
from asara_env.common.validate import check_int, check_seed, check_type


class UniformRandom:
    """The default opponent: a uniformly random legal action, from its own generator."""

    def __init__(self, seed: int | None = None) -> None:
        self.reseed(seed)

    def reseed(self, seed: int | None) -> None:
        self.rng = np.random.default_rng(seed)

    def act_batch(
        self, observations: NDArray[np.float32], action_masks: NDArray[np.bool_]
    ) -> NDArray[np.int64]:
        legal = np.asarray(action_masks, bool)
        counts = legal.sum(axis=1)
        k = (self.rng.random(len(legal)) * counts).astype(np.int64)
        return np.argmax(np.cumsum(legal, axis=1) > k[:, None], axis=1).astype(np.int64)


def _seat_of(env: raw_env) -> NDArray[np.int64]:
    return np.array([env.possible_agents.index(env.agent_selection)], np.int64)


def _over(env: raw_env) -> NDArray[np.bool_]:
    return np.array([all(env.terminations.values())])


def _observe(
    env: raw_env, games: NDArray[np.int64], seats: NDArray[np.int64]
) -> NDArray[np.float32]:
    return env.observe(env.possible_agents[int(seats[0])])["observation"][None]


def _mask(env: raw_env, games: NDArray[np.int64]) -> NDArray[np.bool_]:
    return env.observe(env.agent_selection)["action_mask"][None].astype(bool)


def _step(env: raw_env, actions: NDArray[np.int64], games: NDArray[np.int64]) -> None:
    env.step(int(actions[0]))


# the AEC env as one game of the shared opponents' loop
AEC_TURNS: TurnBased[raw_env] = TurnBased(
    seat=_seat_of, is_terminal=_over, observe=_observe, mask=_mask, step=_step
)


class AsaraGymEnv(gym.Env):
    """See the module docstring."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(
        self,
        num_players: int = 2,
        variant: str = "basic",
        opponents: Sequence[Actor] | None = None,
        expansions: tuple[str, ...] = (),
        seat: int | None = None,
        reward: str = "win",
        render_mode: str | None = None,
        illegal_action: str = "penalize",
        shaping: float = 0.0,
    ):
        self.game = raw_env(
            num_players,
            variant,
            expansions,
            reward=reward,
            render_mode=render_mode,
            illegal_action=illegal_action,
            shaping=shaping,
        )
        self.opponents = _opponents(opponents, num_players)
        if seat is not None:
            seat = check_int("seat", seat, 0, num_players - 1)
        self.fixed_seat, self.render_mode = seat, render_mode
        self.observation_space = gym.spaces.Box(0.0, OBS_HIGH, (OBS_DIM,), np.float32)
        self.action_space = gym.spaces.Discrete(NUM_ACTIONS)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        options = {} if options is None else check_type("reset options", options, dict)
        if seed is not None:
            check_seed("seed", seed)
        if "game_seed" in options:
            check_seed("options['game_seed']", options["game_seed"])
        seat = options.get("seat", self.fixed_seat)
        if seat is not None:
            seat = check_int("options['seat']", seat, 0, self.game.max_num_agents - 1)
        super().reset(seed=seed)
        draw = self.np_random.integers(2**63, size=2 + len(self.opponents))
        game_seed = int(options.get("game_seed", draw[0]))
        players = self.game.max_num_agents
        self.seat = int(draw[1] % players if seat is None else seat)
        for agent, s in zip(self.opponents, draw[2:]):
            if hasattr(agent, "reseed"):
                agent.reseed(int(s))
        self.game.reset(seed=game_seed)
        self.learner = self.game.possible_agents[self.seat]
        others = [s for s in range(players) if s != self.seat]
        self._seat_actor = np.zeros((1, players), np.int64)
        self._seat_actor[0, others] = np.arange(players - 1)
        reward = self._play_opponents()
        return self._observation(), self._info(reward)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._over():
            raise RuntimeError("the game is over: call reset() first")
        self.game.step(action)
        reward = self.game.rewards.get(self.learner, 0.0) + self._play_opponents()
        terminated = self._over()
        return self._observation(), float(reward), terminated, False, self._info(reward)

    def action_masks(self) -> np.ndarray:
        """bool[NUM_ACTIONS]: the learner's legal actions (none once the game is over)."""
        return self.game.observe(self.learner)["action_mask"].astype(bool)

    def render(self) -> Any:
        return self.game.render()

    # ------------------------------------------------------------------------ inside
    def _over(self) -> bool:
        return all(self.game.terminations.values())

    def _play_opponents(self) -> float:
        """Opponents move until the learner is to move or the game is over; the learner's
        reward meanwhile."""
        gained = [0.0]

        def collect() -> None:
            gained[0] += self.game.rewards.get(self.learner, 0.0)

        learner = np.array([self.seat], np.int64)
        play_opponents(AEC_TURNS, self.game, learner, self._seat_actor, self.opponents, collect)
        return gained[0]

    def _observation(self) -> np.ndarray:
        return self.game.observe(self.learner)["observation"]

    def _info(self, reward: float) -> dict[str, Any]:
        own = self.game.infos[self.learner]
        info = {k: np.copy(v) if isinstance(v, np.ndarray) else v for k, v in own.items()}
        info["action_mask"] = self.action_masks().astype(np.int8)
        info["learner_seat"] = self.seat
        return info


def _opponents(opponents: Sequence[Actor] | None, players: int) -> list[Actor]:
    """One actor per other seat: `opponents` (one is used for every seat), or random."""
    if opponents is None:
        return [UniformRandom() for _ in range(players - 1)]
    if isinstance(opponents, str) or any(isinstance(o, str) for o in opponents):
        raise ValueError(
            "opponents must be agent objects with act_batch(observations, masks), e.g. "
            f"agents.make_agent('towers'), not names: got {opponents!r}"
        )
    others = list(opponents) * (players - 1) if len(opponents) == 1 else list(opponents)
    if len(others) != players - 1:
        raise ValueError(f"need 1 or {players - 1} opponents, got {len(opponents)}")
    return others


GYM_ID = "asara_env/Asara-v0"
if GYM_ID not in gym.registry:
    gym.register(id=GYM_ID, entry_point="asara_env.asara.gym_env:AsaraGymEnv")
