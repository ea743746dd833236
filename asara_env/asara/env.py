"""ASARA as a PettingZoo AEC environment, a thin adapter over the vectorised core (B = 1).

    from asara_env import asara_v0
    env = asara_v0.env(num_players=3, variant="pro")
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(obs, info)
        env.step(action)

Agents are `player_0` … `player_{n-1}`; `player_i` sits in seat i (seat 0 starts). One
agent often decides several times in a row: a turn is a placement followed by its
sub-decisions (what to buy, which tile to take, where each build tile goes), each a step.

- Observation: `{"observation": float32[2266], "action_mask": int8[803]}`; the layout is
  docs/asara/observation.md, the action ids docs/asara/actions.md. The mask is all zeros for every
  agent but the one to move, and for everybody once the game is over.
- Rewards arrive when the game ends (plus optional shaping), from the final prestige:
  `reward="win"` winners share +1 and the others share -1 (all 0 if everybody ties),
  `"rank"` +1 for first down to -1 for last (tied places averaged), `"margin"` (own
  prestige - the best opponent's) / 50. `shaping=c` adds, every step, c x (the prestige
  each player gained - the mean gained by all) (zero-sum). `last()` gives the reward
  accumulated since the agent last acted, as PettingZoo specifies.
- `infos[agent]` has the same keys and shapes at every step (what batching libraries
  need): `action_mask` (int8[803], as in the observation), `phase` (the pending decision's
  `Phase` value; `asara_env.asara.phases.Phase(v).name` names it), `year` (1..4), `win` (the
  agent's share of the win, 1/k with k winners; 0 until the end), `final_prestige` (0 until
  the end), `scoring` (int32[8]: the agent's final-scoring points by `FINAL_CATEGORIES`; 0
  until the end) and `illegal` (1 if this agent's illegal action ended the game).
- Illegal actions, as in PettingZoo's classic environments (the policy every env of the
  package shares, `asara_env.envs`): by default (`illegal_action="penalize"`) any int
  action that is not legal (ids out of range included) ends the game, the offender gets
  `ILLEGAL_PENALTY` (-1), the others 0 (PettingZoo's convention, kept although ASARA's
  reward schemes are zero-sum), and a warning names the agent, the action and why it is illegal.
  `illegal_action="raise"` (for debugging) raises `IllegalActionError` with the same
  words and changes nothing. Actions that are not ints (or 0-d int arrays) always raise.
- `reset(seed=s)` plays the reference game `new_game(config, s)`; later `reset()` calls
  without a seed play seeds `derived_seed(s, 1)`, `derived_seed(s, 2)`, …; a first
  `reset()` without a seed draws one from the OS (`env.game_seed` tells it).
- `state()` is the global state for centralised critics: float32[4 x 2266], every seat's
  observation in seat order (hidden information included), zeros for absent seats;
  `state_space` is its Box.
- Saved games: `save_game()` returns the whole game as a saved-game dict (docs/asara/state.md);
  `load_game(saved)` (or `reset(options={"state": saved})`) continues it (validated: a
  corrupt one raises `CorruptStateError`), as it does a game record, a terminal game's
  save or the web page's download, at its last position. `copy.deepcopy(env)` gives an
  independent env that continues identically.
- Backend: `backend="numba"` steps and observes the game with the compiled core (numba
  kernels, `asara_env.asara.core.compiled`), `"numpy"` with the vectorised numpy core; both
  play the same games to the byte. By default (`None`) $ASARA_ENV_BACKEND, else numba
  where it can be imported (`asara_env.common.backend.resolve_backend`); `env.backend`
  tells the one chosen.
- Rendering: `render_mode="ansi"` returns the board as the agent to move sees it,
  `"human"` prints it, `"svg"` returns it as an SVG picture and `"rgb_array"` as pixels
  (uint8[H, W, 3]; listed where resvg-py and Pillow are installed), both drawn by
  `asara_env.asara.render_svg`; `full_view()` draws the whole game as text, for debugging.
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv

from asara_env.asara.actions import NUM_ACTIONS, action_id, as_int, describe_action
from asara_env.asara.bridge import TrackedGame
from asara_env.asara.card import CARD
from asara_env.asara.config import GameConfig
from asara_env.asara.constants import FINAL_CATEGORIES, MAX_PLAYERS
from asara_env.asara.core import is_terminal
from asara_env.asara.core.observation import OBS_DIM, OBS_HIGH, OBS_NORMALIZER
from asara_env.asara.core.outcome import REWARD_SCHEMES, terminal_rewards, winners
from asara_env.asara.core.state import CoreState
from asara_env.asara.phases import Phase
from asara_env.asara.reference.record import RULES
from asara_env.common.backend import resolve_backend
from asara_env.common.errors import IllegalActionError
from asara_env.common.record import position_to_load
from asara_env.common.svg import pixel_render_modes
from asara_env.common.validate import check_type
from asara_env.envs import (
    DeepCopyable,
    EpisodeSeeds,
    Illegal,
    OrderEnforcing,
    check_env_choices,
    game_to_load,
    masked_spaces,
    normalized_high,
    normalizer,
    observation_box,
    penalty_rewards,
    raise_or_warn,
    saved_state,
)

PHASE_NAMES = tuple(p.name for p in Phase)
GAME_OVER = int(Phase.GAME_OVER)


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped in PettingZoo's OrderEnforcingWrapper (reset before use)."""
    return OrderEnforcing(raw_env(**kwargs))


class raw_env(DeepCopyable, AECEnv, EzPickle):
    """ASARA for 2-4 players; see the module docstring."""

    _game: TrackedGame  # set by reset()
    _core: CoreState  # the game's core batch (B = 1), set by reset()
    metadata = {
        "render_modes": ["ansi", "human", "svg", *pixel_render_modes()],
        "name": "asara_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 4,
        variant: str = "basic",
        expansions: tuple[str, ...] = (),
        reward: str = "win",
        render_mode: str | None = None,
        illegal_action: str = "penalize",
        shaping: float = 0.0,
        backend: str | None = None,
        normalize_obs: bool = False,
    ):
        EzPickle.__init__(
            self,
            num_players,
            variant,
            expansions,
            reward,
            render_mode,
            illegal_action,
            shaping,
            backend,
            normalize_obs,
        )
        super().__init__()
        self.backend = resolve_backend(backend)
        core = CARD.load_core(self.backend)
        self._step_core, self._observe = core.step, core.observe
        self.config = GameConfig(num_players=num_players, variant=variant, expansions=expansions)
        modes = cast(list[str], self.metadata["render_modes"])
        check_env_choices(reward, REWARD_SCHEMES, illegal_action, render_mode, modes)
        number = isinstance(shaping, (int, float)) and not isinstance(shaping, bool)
        if not number or not np.isfinite(shaping) or shaping < 0:
            raise ValueError(f"shaping must be a finite number >= 0, got {shaping!r}")
        self.reward_scheme, self.illegal_action, self.shaping = reward, illegal_action, shaping
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._seat = {agent: i for i, agent in enumerate(self.possible_agents)}
        self.normalize_obs = check_type("normalize_obs", normalize_obs, bool)
        self._normalize = normalizer(OBS_NORMALIZER, normalize_obs)
        high = normalized_high(OBS_HIGH, normalize_obs)
        self.observation_spaces, self.action_spaces = masked_spaces(
            self.possible_agents, high, NUM_ACTIONS
        )
        self.state_space = observation_box(np.tile(high, MAX_PLAYERS))
        self._no_moves = np.zeros(NUM_ACTIONS, np.int8)
        # read-only zeros shared by the infos of agents not to move (nothing can alter them)
        self._no_moves_info = np.zeros(NUM_ACTIONS, np.int8)
        self._no_moves_info.flags.writeable = False
        self._no_scoring = np.zeros(len(FINAL_CATEGORIES), np.int32)
        self._no_scoring.flags.writeable = False
        self._seeds = EpisodeSeeds()
        self.game_seed: int | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game; see the module docstring for how `seed` is used.
        `options={"state": saved}` continues a saved game (a `state()` dict) instead."""
        saved = saved_state(seed, options)
        if saved is None:
            self.game_seed = self._seeds.next(seed)
            self._game = TrackedGame.new(self.config, self.game_seed)
        else:
            self._game = TrackedGame.load(position_to_load(RULES, saved), self.config)
            self.game_seed = None
        self._core = self._game.core
        self._prestige = self._core.prestige[0].copy()
        self._obs_cache: dict[int, np.ndarray] = {}
        self._over = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        if is_terminal(self._core)[0]:  # a saved game that is already over
            self._end_game()
        self._update_turn()

    # ------------------------------------------------------------------------ acting
    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = as_int(action)
        if not (0 <= a < NUM_ACTIONS and self._core.legal[0, a]):
            if self.illegal_action == "raise":
                action_id(a)  # names an out-of-range id
            self._illegal(agent, a)
            return
        self._cumulative_rewards[agent] = 0.0
        self._step_core(self._core, np.array([a]))  # legal: checked just above
        self._obs_cache.clear()
        rewards = self._shaping_rewards() if self.shaping else None
        if self._core.phase[0] == GAME_OVER:
            final = terminal_rewards(self._core.prestige, self.reward_scheme)[0]
            rewards = final if rewards is None else rewards + final
            self._end_game()
        self._settle(rewards)
        self._update_turn()
        if self.render_mode == "human":
            self.render()

    def _settle(self, rewards: np.ndarray | None) -> None:
        """The one place rewards are handed out: `rewards` float[P] by seat, or None."""
        if rewards is None:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            return
        self.rewards = {a: float(rewards[self._seat[a]]) for a in self.agents}
        self._accumulate_rewards()

    def _shaping_rewards(self) -> np.ndarray:
        now = self._core.prestige[0].astype(np.float64)
        gained = now - self._prestige
        self._prestige = now
        return self.shaping * (gained - gained.mean())

    def _illegal(self, agent: str, a: int) -> None:
        if 0 <= a < NUM_ACTIONS:
            reason = self._game.illegal_reason(a)
        else:
            reason = f"action ids are 0..{NUM_ACTIONS - 1}"
        name = describe_action(a) if 0 <= a < NUM_ACTIONS else "?"
        phase = PHASE_NAMES[self._core.phase[0]]
        seat = self._seat[agent]
        raise_or_warn(
            self.illegal_action, [Illegal(agent, seat, a, name, phase, reason)], IllegalActionError
        )
        self._cumulative_rewards[agent] = 0.0
        rewards = penalty_rewards(self.num_agents, [seat])
        self._end_game()
        self._settle(rewards)
        self.infos[agent]["illegal"] = 1
        for other in self.agents:
            self.infos[other]["action_mask"] = self._no_moves_info

    def _end_game(self) -> None:
        self._over = True
        self.terminations = dict.fromkeys(self.agents, True)

    def _update_turn(self) -> None:
        """Select the agent to move and write the infos of the new position."""
        core = self._core
        mover = self.possible_agents[core.seat[0]]
        self.agent_selection = mover
        if core.phase[0] == GAME_OVER:
            won = winners(core.prestige[0])
            self.infos = {a: self._info(a, mover, True, won) for a in self.agents}
            return
        phase, year, idle = int(core.phase[0]), int(core.year[0]), self._no_moves_info
        self.infos = {
            a: {
                "action_mask": idle,
                "phase": phase,
                "year": year,
                "win": 0.0,
                "final_prestige": 0,
                "scoring": self._no_scoring,
                "illegal": 0,
            }
            for a in self.agents
        }
        if mover in self.infos:
            self.infos[mover]["action_mask"] = core.legal[0].astype(np.int8)

    def _info(self, agent: str, mover: str, over: bool, won: np.ndarray | None) -> dict[str, Any]:
        """`infos[agent]`: the same keys and shapes at every step (module docstring;
        `_update_turn` writes the same during the game in one pass)."""
        core, seat = self._core, self._seat[agent]
        moving = agent == mover and not over
        info: dict[str, Any] = {
            "action_mask": core.legal[0].astype(np.int8) if moving else self._no_moves_info,
            "phase": int(core.phase[0]),
            "year": int(core.year[0]),
            "win": 0.0,
            "final_prestige": 0,
            "scoring": self._no_scoring,
            "illegal": 0,
        }
        if won is not None:
            info["win"] = float(won[seat] / won.sum())
            info["final_prestige"] = int(core.prestige[0, seat])
            info["scoring"] = core.final[0, seat].astype(np.int32)
        return info

    # ------------------------------------------------------------------------ seeing
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        obs = self._obs_cache.get(seat)
        if obs is None:
            obs = self._obs_cache[seat] = self._normalize(self._observe(self._core, seat)[0])
        moving = agent == self.agent_selection and not self._over
        mask = self._core.legal[0].astype(np.int8) if moving else self._no_moves.copy()
        return {"observation": obs.copy(), "action_mask": mask}

    def render(self) -> str | np.ndarray | None:
        """The board as the agent to move sees it (R10): returned as text ("ansi"), as an
        SVG document ("svg") or as uint8[H, W, 3] pixels ("rgb_array"), or printed
        ("human")."""
        if self.render_mode is None:
            return None
        from asara_env.asara.render import render_view

        view = self._game.seat_view(self._seat[self.agent_selection])
        if self.render_mode in ("svg", "rgb_array"):
            from asara_env.asara.render_svg import svg_view, to_rgb_array

            svg = svg_view(view)
            return svg if self.render_mode == "svg" else to_rgb_array(svg)
        text = render_view(view)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def state(self) -> np.ndarray:
        """float32[4 x 2266]: every seat's observation in seat order, hidden information
        included, zeros for absent seats (the global state a centralised critic wants)."""
        out = np.zeros((MAX_PLAYERS, OBS_DIM), np.float32)
        for seat in range(self.config.num_players):
            out[seat] = self._normalize(self._observe(self._core, seat)[0])
        return out.reshape(-1)

    @property
    def core(self) -> CoreState:
        """The game's core batch (B = 1), hidden information included: for agents that
        read the state through what the seat to move knows (the search agents)."""
        return self._core

    def save_game(self) -> dict[str, Any]:
        """The whole game, hidden information included, as a saved-game dict
        (docs/asara/state.md)."""
        return self._game.save()

    def load_game(self, saved: dict[str, Any]) -> None:
        """Continue the saved game `saved` (validated): a `save_game()` dict, or any other
        format the project writes (a game record, a terminal game's save, the web page's
        download: `asara_env.common.record.saved_game_from_dict`), at its last position."""
        self.reset(options={"state": game_to_load(saved)})

    def full_view(self) -> str:
        """The whole game drawn as text, hidden information included (for debugging)."""
        from asara_env.asara.render import render_full

        return render_full(self._game.reference())

    def close(self) -> None:
        pass
