"""One seat of a game's AEC env as a single-agent gymnasium env (`OpponentsEnv`), the other
seats played by opponents (agent objects with `act_batch`, default `UniformRandom`) through
the shared opponents' loop (`asara_env.common.opponents`); each game's `gym_env.py` builds
the AEC env and the spaces. Seeds, saved games and the normalised observation are those of
asara_env/envs.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray
from pettingzoo import AECEnv

from asara_env.common.opponents import Actor, TurnBased, play_opponents
from asara_env.common.sampling import uniform_legal
from asara_env.common.svg import pixel_render_modes
from asara_env.common.validate import check_int, check_seed, check_type
from asara_env.envs import game_to_load


def _unchanged(obs: NDArray[np.float32]) -> NDArray[np.float32]:
    return obs


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
        return uniform_legal(legal, self.rng.random(len(legal)))


def _seat_of(env: AECEnv) -> NDArray[np.int64]:
    return np.array([env.possible_agents.index(env.agent_selection)], np.int64)


def _over(env: AECEnv) -> NDArray[np.bool_]:
    return np.array([all(env.terminations.values())])


def _observe(
    env: AECEnv, games: NDArray[np.int64], seats: NDArray[np.int64]
) -> NDArray[np.float32]:
    return np.asarray(env.observe(env.possible_agents[int(seats[0])])["observation"])[None]


def _mask(env: AECEnv, games: NDArray[np.int64]) -> NDArray[np.bool_]:
    return np.asarray(env.observe(env.agent_selection)["action_mask"])[None].astype(bool)


def _step(env: AECEnv, actions: NDArray[np.int64], games: NDArray[np.int64]) -> None:
    env.step(int(actions[0]))


# an AEC env as one game of the shared opponents' loop
AEC_TURNS: TurnBased[AECEnv] = TurnBased(
    seat=_seat_of, is_terminal=_over, observe=_observe, mask=_mask, step=_step
)


class OpponentsEnv(gym.Env):
    """One seat of an AEC env (`game`: a raw env, not wrapped) as a single-agent
    gymnasium env; a game's `gym_env.py` builds `game` and the spaces. See the module
    docstring and `asara_env/asara/gym_env.py`.

    `pass_action`: an id the learner is never asked for: where it is the learner's only
    legal action, it is played for it (BASARI's NOOP; None: the learner plays every one of
    its steps). `normalize`: what the learner's observations go through (the game's
    `ObsNormalizer` with `normalize_obs=True`; `observation_space` is then its [0, 1] box);
    the opponents see the game's own observations.
    """

    metadata = {"render_modes": ["ansi", "human", "svg", *pixel_render_modes()], "render_fps": 1}

    def __init__(
        self,
        game: AECEnv,
        opponents: Sequence[Actor] | None,
        seat: int | None,
        render_mode: str | None,
        observation_space: spaces.Space[Any],
        pass_action: int | None = None,
        normalize: Callable[[NDArray[np.float32]], NDArray[np.float32]] | None = None,
    ) -> None:
        self.game = game
        self._normalize = _unchanged if normalize is None else normalize
        players = len(game.possible_agents)
        self.opponents = opponents_for(opponents, players)
        if seat is not None:
            seat = check_int("seat", seat, 0, players - 1)
        self.fixed_seat, self.render_mode = seat, render_mode
        self.observation_space = observation_space
        self.action_space = game.action_space(game.possible_agents[0])
        self.pass_action = pass_action

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """A new game (`options`: "game_seed" picks the game, "seat" the learner's seat),
        or the saved game `options["state"]` continued; `seed` seeds the seat, the
        opponents and, for a new game, the game."""
        options = {} if options is None else check_type("reset options", options, dict)
        game_seed, seat, saved = self._reset_options(seed, options)
        if saved is not None:
            self.game.reset(options={"state": saved})  # validated before anything changes
        super().reset(seed=seed)
        draw = self.np_random.integers(2**63, size=2 + len(self.opponents))
        players = len(self.game.possible_agents)
        self.seat = int(draw[1] % players if seat is None else seat)
        for agent, s in zip(self.opponents, draw[2:]):
            if hasattr(agent, "reseed"):
                agent.reseed(int(s))
        if saved is None:
            self.game.reset(seed=int(draw[0] if game_seed is None else game_seed))
        self.learner = self.game.possible_agents[self.seat]
        others = [s for s in range(players) if s != self.seat]
        self._seat_actor = np.zeros((1, players), np.int64)
        self._seat_actor[0, others] = np.arange(players - 1)
        reward = self._play_opponents()
        return self._observation(), self._info(reward)

    def _reset_options(
        self, seed: object, options: dict[str, Any]
    ) -> tuple[int | None, int | None, dict[str, Any] | None]:
        """(game seed, seat, saved game) of reset's options, checked."""
        if seed is not None:
            check_seed("seed", seed)
        game_seed = None
        if "game_seed" in options:
            game_seed = check_seed("options['game_seed']", options["game_seed"])
        saved = options.get("state")
        if saved is not None and game_seed is not None:
            raise ValueError("reset: pass either options['game_seed'] or options['state']")
        seat = options.get("seat", self.fixed_seat)
        if seat is not None:
            seat = check_int("options['seat']", seat, 0, len(self.game.possible_agents) - 1)
        return game_seed, seat, saved

    def step(self, action: Any) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        if self._over():
            raise RuntimeError("the game is over: call reset() first")
        self.game.step(action)
        reward = self.game.rewards.get(self.learner, 0.0) + self._play_opponents()
        terminated = self._over()
        return self._observation(), float(reward), terminated, False, self._info(reward)

    def action_masks(self) -> NDArray[np.bool_]:
        """bool[n_actions]: the learner's legal actions (none once the game is over)."""
        return np.asarray(self.game.observe(self.learner)["action_mask"]).astype(bool)

    def render(self) -> Any:
        return self.game.render()

    def save_game(self) -> dict[str, Any]:
        """The game as its saved-game dict (the learner's seat is not part of it)."""
        return cast(dict[str, Any], self.game.save_game())

    def load_game(
        self, saved: dict[str, Any], seat: int | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Continue the saved game `saved` with the learner in `seat` (default: the fixed
        seat, else drawn); returns what `reset` returns."""
        state = game_to_load(saved)
        return self.reset(options={"state": state, **({} if seat is None else {"seat": seat})})

    def close(self) -> None:
        self.game.close()

    # ------------------------------------------------------------------------ inside
    def _over(self) -> bool:
        return all(self.game.terminations.values())

    def _play_opponents(self) -> float:
        """Opponents move (and the learner's pass actions are played) until the learner
        is to decide or the game is over; the learner's reward meanwhile."""
        gained = [0.0]

        def collect() -> None:
            gained[0] += self.game.rewards.get(self.learner, 0.0)

        learner = np.array([self.seat], np.int64)
        while True:
            play_opponents(AEC_TURNS, self.game, learner, self._seat_actor, self.opponents, collect)
            if self._over() or not self._passing():
                return gained[0]
            self.game.step(self.pass_action)
            collect()

    def _passing(self) -> bool:
        """The learner is to move and has only the pass action."""
        if self.pass_action is None:
            return False
        legal = np.flatnonzero(self.game.observe(self.learner)["action_mask"])
        return legal.tolist() == [self.pass_action]

    def _observation(self) -> NDArray[np.float32]:
        raw = np.array(self.game.observe(self.learner)["observation"], np.float32)
        return self._normalize(raw)

    def _info(self, reward: float) -> dict[str, Any]:
        own = self.game.infos[self.learner]
        info = {k: np.copy(v) if isinstance(v, np.ndarray) else v for k, v in own.items()}
        info["action_mask"] = self.action_masks().astype(np.int8)
        info["learner_seat"] = self.seat
        return info


def opponents_for(opponents: Sequence[Actor] | None, players: int) -> list[Actor]:
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
