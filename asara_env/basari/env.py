"""BASARI as a PettingZoo `ParallelEnv`: every agent sends an action every step; a thin
adapter over the vectorised core (one game).

    from asara_env import basari_v0
    env = basari_v0.parallel_env(num_players=4, start_mode="choose", reward="win")
    observations, infos = env.reset(seed=7)
    while env.agents:
        actions = {a: policy(observations[a]) for a in env.agents}
        observations, rewards, terminations, truncations, infos = env.step(actions)

Agents are `player_0` ... `player_{P-1}` (seat = index). Decision points (E1): SETUP (every
agent picks a start archway; skipped with `start_mode="random"`), SELECT (every agent picks
a card), BARTER (exactly one agent decides, every other agent has only NOOP).

- Observation: `{"observation": float32[OBS_SIZE], "action_mask": int8[N_ACTIONS]}`
  (364 and 39 on the default board; docs/basari/observation.md, docs/basari/actions.md);
  once the game is over every mask is all zeros.
- Rewards are 0 until the game ends, then from `asara_env.common.outcome` under
  `reward="win" | "rank" | "margin"` (E5: `win` 1/k to each of k co-winners, 0 to the
  others; `rank` +1 for a sole winner down to -1 for a sole last, players still tied
  sharing a place; both by the B10 order with its tie-breaks; `margin` own score minus the
  mean of the others', / 50). There is no truncation.
- `infos[agent]` has the same keys and shapes at every step, all numbers or numeric
  arrays (what batching libraries need): `action_mask` (int8[N_ACTIONS], as in the
  observation), `acting` (bool: a real decision, not only NOOP), `phase` (the pending
  decision's `Phase` value; `asara_env.basari.phases.Phase(v).name` names it), `round`
  and `turn` (1-based), the final
  fields `final_scores` (int64[P]), `ranking_score` (int64[P], the B10 order as one number)
  and `winners` (bool[P]), all zeros until the game is over, and `illegal` (1 if this
  agent's illegal action ended the game).
- `observe(agent)` is that agent's observation now (PettingZoo's parallel API leaves it
  out; every agent's `act_env(env, agent)` reads it).
- `state()` is the global state, float32[OBS_SIZE] (`state_space`): seat 0's view with the
  bundle being built filled in (nothing else is hidden between steps).
- Illegal actions, as in PettingZoo's classic environments (the policy every env of the
  package shares, `asara_env.envs`): by default (`illegal_action="penalize"`) an int
  action that is not legal for its agent (ids out of range included) ends the game: each
  offender gets -1, the others 0 (PettingZoo's convention), and a warning names the agent,
  the action and why. `illegal_action="raise"` raises `IllegalActionError` (a
  ValueError) with the same words instead and changes nothing. Actions that are not ints
  (or 0-d int arrays), a missing agent or an unknown one always raise.
- The AEC form, `basari_v0.env()`, is `asara_env.envs.SimultaneousAEC` over this env:
  agents act one at a time on the observations of the step's start, each action is
  checked (and refused or penalised) at its own agent's step, and the actions are played
  together once the last agent has acted.
- One seat as a single-agent gymnasium env, the others played by agent objects:
  `asara_env.basari.gym_env.BasariGymEnv` (`gymnasium.make("asara_env/Basari-v0")`).
- `reset(seed=s)` plays the game seeded s; later `reset()` calls without a seed play
  `derived_seed(s, 1)`, `derived_seed(s, 2)`, ...; `env.game_seed` tells the seed.
- Saving: `save_game()` returns the game as a JSON-compatible dict (the reference
  engine's validated format, docs/basari/state.md); `load_game(saved)` or
  `reset(options={"state": saved})` continues it, as it does a game record, a terminal
  game's save or the web page's download, at its last position; `copy.deepcopy(env)` is
  an independent env in the same position.
- `backend="numpy" | "numba"` picks the implementation of the core that steps and
  observes the game (default: `$ASARA_ENV_BACKEND`, else numba where it can be imported;
  `asara_env.common.backend`); both play identical games, numba's is faster
  (docs/performance.md).
- Rendering: `render_mode="ansi"` returns the board, players, barter and the turn's
  events as text; `"human"` prints it; `"svg"` returns the game as an SVG picture and
  `"rgb_array"` as pixels (uint8[H, W, 3]; listed where resvg-py and Pillow are
  installed), both drawn by `asara_env.basari.render_svg` in full: BASARI hides nothing
  between steps but the bundle being built, which the text shows too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv, ParallelEnv

from asara_env.basari.actions import Group
from asara_env.basari.bridge import from_reference, to_reference
from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import BOARD, CARD_NAMES
from asara_env.basari.core import ranking_score, scores, terminal_rewards
from asara_env.basari.core import winners as core_winners
from asara_env.basari.core.observation import config_obs_high, obs_normalizer
from asara_env.basari.core.outcome import REWARD_SCHEMES
from asara_env.basari.core.state import BasariState
from asara_env.basari.phases import Phase
from asara_env.basari.reference.record import RULES
from asara_env.basari.reference.rules import illegal_reason
from asara_env.basari.reference.serialize import state_from_dict, state_to_dict
from asara_env.basari.reference.state import State
from asara_env.basari.render import bundle_text, render_state
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
    SimultaneousAEC,
    StepResults,
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
from asara_env.games import load_core

PHASE_NAMES = tuple(p.name for p in Phase)
OVER = int(Phase.OVER)


def parallel_env(**kwargs: Any) -> BasariParallelEnv:
    """The parallel environment (see the module docstring for the arguments)."""
    return BasariParallelEnv(**kwargs)


def raw_env(**kwargs: Any) -> SimultaneousAEC:
    """The AEC form, unwrapped: `asara_env.envs.SimultaneousAEC` over
    `parallel_env(**kwargs)`. Each agent's action is checked (refused or penalised, as
    `illegal_action` says) at its own step and held until the last live agent has acted,
    so no choice leaks to an agent acting later in the same step."""
    return SimultaneousAEC(parallel_env(**kwargs))


def env(**kwargs: Any) -> AECEnv:
    """The AEC form wrapped in PettingZoo's OrderEnforcingWrapper (reset before use)."""
    return OrderEnforcing(raw_env(**kwargs))


class BasariParallelEnv(DeepCopyable, ParallelEnv, EzPickle):
    """BASARI for 2-4 players; see the module docstring."""

    metadata = {
        "render_modes": ["ansi", "human", "svg", *pixel_render_modes()],
        "name": "basari_v0",
        "is_parallelizable": True,
        "render_fps": 1,
    }

    def __init__(
        self,
        num_players: int = 4,
        start_mode: str = "choose",
        reward: str = "win",
        board: Any = None,
        render_mode: str | None = None,
        illegal_action: str = "penalize",
        backend: str | None = None,
        normalize_obs: bool = False,
    ) -> None:
        EzPickle.__init__(
            self,
            num_players,
            start_mode,
            reward,
            board,
            render_mode,
            illegal_action,
            backend,
            normalize_obs,
        )
        self.config = BasariConfig(num_players, start_mode, BOARD if board is None else board)
        self.backend = resolve_backend(backend)
        self._engine = load_core("basari", self.backend)  # the core's verbs, bound once
        modes = cast(list[str], self.metadata["render_modes"])
        check_env_choices(reward, REWARD_SCHEMES, illegal_action, render_mode, modes)
        self.reward_scheme, self.render_mode = reward, render_mode
        self.illegal_action = illegal_action
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agents: list[str] = []
        lay = self.config.actions
        self._layout, self._n_actions = lay, lay.n_actions
        self._deciding = np.ones(lay.n_actions, bool)  # the ids that are decisions
        self._deciding[lay.noop] = False
        self.normalize_obs = check_type("normalize_obs", normalize_obs, bool)
        self._normalize = normalizer(obs_normalizer(self.config), normalize_obs)
        high = normalized_high(config_obs_high(self.config), normalize_obs)
        self.observation_spaces, self.action_spaces = masked_spaces(
            self.possible_agents, high, lay.n_actions
        )
        self.state_space = observation_box(high)
        self._core: BasariState | None = None
        self._seeds = EpisodeSeeds()
        self.game_seed: int | None = None
        self._offenders: list[str] = []  # whose illegal action ended the game
        self._events: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ---------------------------------------------------------------------------- episode
    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a game (see the module docstring for seeds); `options={"state": saved}`
        continues a saved game instead."""
        saved = saved_state(seed, options)
        if saved is not None:
            self._core = self._load(saved)
        else:
            self.game_seed = self._seeds.next(seed)
            self._core = self._engine.init(
                self.config, 1, seeds=np.array([self.game_seed], np.uint64)
            )
        self.agents = self.possible_agents[:]
        self._events, self._offenders = [], []
        over = self._over()
        if over:
            self.agents = []
        return self._observations_and_infos()

    def _load(self, saved: dict[str, Any]) -> BasariState:
        game = state_from_dict(position_to_load(RULES, saved))
        if game.config != self.config:
            raise ValueError(
                f"reset: the saved game's config {game.config.to_dict()} is not this env's "
                f"{self.config.to_dict()}"
            )
        self.game_seed = int(game.seed)
        self._seeds.restart(self.game_seed)
        return from_reference([game])

    def save_game(self) -> dict[str, Any]:
        """The game as a JSON-compatible dict (the reference engine's validated format,
        docs/basari/state.md); `load_game` or `reset(options={"state": saved})` resumes it."""
        self._require_reset()
        return state_to_dict(to_reference(self.core, 0))

    def load_game(self, saved: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Continue the saved game `saved` (validated) at its last position: a `save_game()`
        dict, or any other format the project writes (a game record, a terminal game's
        save, the web page's download: `asara_env.common.record.saved_game_from_dict`);
        returns what `reset` returns. Anything but a dict (None included) is a CorruptStateError and
        changes nothing."""
        return self.reset(options={"state": game_to_load(saved)})

    # ---------------------------------------------------------------------------- acting
    def step(self, actions: dict[str, Any]) -> StepResults:
        """One parallel step: one action per live agent (NOOP where it has no decision)."""
        self._require_reset()
        if not self.agents:
            raise ValueError("step: the game is over; call reset()")
        joint = self._legal_joint(actions)
        if joint is None:
            joint, illegal = self._joint(actions)
            if illegal:
                return self.refuse(illegal)
        core = self.core
        before = to_reference(core, 0) if self.render_mode else None
        obs = self._normalize(self._engine.step_observe(core, joint)[0])
        if before is not None:
            self._record(before, joint[0])
        over = int(core.phase[0]) == OVER
        if over:
            final = terminal_rewards(scores(core), self.reward_scheme)[0]
            rewards = {a: float(final[i]) for i, a in enumerate(self.possible_agents)}
        else:
            rewards = dict.fromkeys(self.agents, 0.0)
        observations, infos = self._observations_and_infos(obs)
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _legal_joint(self, actions: object) -> np.ndarray | None:
        """int64[1, P]: the actions if `actions` is a dict giving every agent an int id
        legal for it now (nothing else); else None (`_joint` then says what is wrong)."""
        if type(actions) is not dict or len(actions) != len(self.possible_agents):
            return None
        legal, n_actions = self.core.legal[0], self._n_actions
        joint = []
        for seat, agent in enumerate(self.possible_agents):
            a = actions.get(agent)
            if type(a) is not int:
                if not isinstance(a, np.integer):
                    return None
                a = int(a)
            if not (0 <= a < n_actions and legal[seat, a]):
                return None
            joint.append(a)
        return np.array([joint], np.int64)

    def _joint(self, actions: object) -> tuple[np.ndarray, list[Illegal]]:
        """int64[1, P] from the action dict, and the illegal ones; a ValueError naming the
        agent for a missing, unknown or non-int action."""
        if not isinstance(actions, dict):
            raise ValueError(f"step: actions must be a dict agent -> id, got {type(actions)}")
        unknown = set(actions) - set(self.agents)
        if unknown:
            raise ValueError(f"step: unknown or finished agents {sorted(map(str, unknown))}")
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise ValueError(f"step: no action for {missing} (every agent acts; NOOP is 0)")
        checked = [self.check_action(agent, actions[agent]) for agent in self.possible_agents]
        illegal = [x for x in checked if x is not None]
        if illegal:
            return np.zeros((1, 0), np.int64), illegal
        joint = [int(np.asarray(actions[a])) for a in self.possible_agents]
        return np.array([joint], np.int64), []

    def check_action(self, agent: str, action: object) -> Illegal | None:
        """Why `action` is illegal for `agent` now, or None if it is legal; an
        `IllegalActionError` naming the agent if it is not an int (or 0-d int array)."""
        self._require_reset()
        seat = self.possible_agents.index(agent)
        a = action[()] if isinstance(action, np.ndarray) and action.ndim == 0 else action
        if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
            raise IllegalActionError(seat, action, "?", self._phase(), f"{agent}: not an int id")
        a = int(a)
        if 0 <= a < self._n_actions and self.core.legal[0, seat, a]:
            return None
        name = self._layout.describe(a) if 0 <= a < self._n_actions else "?"
        why = illegal_reason(to_reference(self.core, 0), seat, a) or "not legal now"
        return Illegal(agent, seat, a, name, self._phase(), why)

    def refuse(self, illegal: Sequence[Illegal]) -> StepResults:
        """The illegal-action policy (module docstring) for these illegal actions: raises
        under "raise"; else ends the game, penalising each offender, and returns what
        `step` returns."""
        raise_or_warn(self.illegal_action, illegal, IllegalActionError)
        self._offenders = [x.agent for x in illegal]
        seats = [x.seat for x in illegal]
        penalty = penalty_rewards(len(self.possible_agents), seats)
        rewards = {a: float(penalty[i]) for i, a in enumerate(self.possible_agents)}
        terminations = dict.fromkeys(self.agents, True)
        truncations = dict.fromkeys(self.agents, False)
        observations, infos = self._observations_and_infos()
        self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _phase(self) -> str:
        return PHASE_NAMES[int(self.core.phase[0])]

    def _over(self) -> bool:
        """The game is over: played to its end, or ended by an illegal action."""
        return int(self.core.phase[0]) == OVER or bool(self._offenders)

    @property
    def core(self) -> BasariState:
        """The game's core batch (B = 1); a RuntimeError before the first reset."""
        if self._core is None:
            raise RuntimeError("call reset() before using the environment")
        return self._core

    def _require_reset(self) -> None:
        if self._core is None:
            raise RuntimeError("call reset() before using the environment")

    # ---------------------------------------------------------------------------- seeing
    def _observations_and_infos(
        self, obs: np.ndarray | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Every agent's observation and info (module docstring) from `obs`, every seat's
        observation float32[P, OBS_SIZE] (None: observed now). Each array is its own:
        rows of arrays made afresh for this call, so that no two agents' values (nor an
        observation and an info) share memory, and nothing the env writes later does."""
        core, agents = self.core, self.possible_agents
        p = len(agents)
        if obs is None:
            obs = self._normalize(self._engine.observe(core)[0])
        phase = int(core.phase[0])
        if phase == OVER or self._offenders:  # nobody acts any more
            masks = np.zeros((p, self._n_actions), np.int8)
            acting = [False] * p
            finals, won = self._finals(p) if phase == OVER else self._no_finals(p)
        else:
            legal = core.legal[0]
            masks = legal.astype(np.int8)
            acting = (legal @ self._deciding).tolist()
            finals, won = self._no_finals(p)
        game_round, turn = int(core.round[0]) + 1, int(core.turn[0]) + 1
        offenders = self._offenders
        observations = {
            a: {"observation": o, "action_mask": m} for a, o, m in zip(agents, obs, masks)
        }
        infos = {
            a: {
                "action_mask": m,
                "acting": act,
                "phase": phase,
                "round": game_round,
                "turn": turn,
                "final_scores": final_scores,
                "ranking_score": key,
                "winners": w,
                "illegal": int(a in offenders),
            }
            for a, m, act, final_scores, key, w in zip(
                agents, masks.copy(), acting, finals[0], finals[1], won
            )
        }
        return observations, infos

    @staticmethod
    def _no_finals(p: int) -> tuple[np.ndarray, np.ndarray]:
        """The infos' final fields before the end: int64[2, P, P] scores and ranking
        scores, bool[P, P] winners (one row per agent), all zeros."""
        return np.zeros((2, p, p), np.int64), np.zeros((p, p), bool)

    def _finals(self, p: int) -> tuple[np.ndarray, np.ndarray]:
        """The infos' final fields of a finished game, one row per agent (`_no_finals`)."""
        core = self.core
        finals = np.empty((2, p, p), np.int64)
        finals[0] = core.score[0]
        finals[1] = ranking_score(core.score, core.gems)[0]
        return finals, np.repeat(core_winners(scores(core)), p, axis=0)

    def observe(self, agent: str) -> dict[str, Any]:
        """`agent`'s observation now, as the last `reset` or `step` returned it (what an
        agent's `act_env(env, agent)` reads)."""
        self._require_reset()
        if agent not in self.possible_agents:
            raise ValueError(f"observe: unknown agent {agent!r}; agents: {self.possible_agents}")
        observation: dict[str, Any] = self._observations_and_infos()[0][agent]
        return observation

    def state(self) -> np.ndarray:
        """float32[OBS_SIZE]: the global state (see the module docstring)."""
        self._require_reset()
        return self._normalize(self._engine.global_state(self.core)[0])

    def render(self) -> str | np.ndarray | None:
        """The game as text, returned ("ansi") or printed ("human"), or as a picture: an
        SVG document ("svg") or uint8[H, W, 3] pixels ("rgb_array")."""
        if self.render_mode is None:
            return None
        self._require_reset()
        game = to_reference(self.core, 0)
        if self.render_mode in ("svg", "rgb_array"):
            from asara_env.basari.render_svg import svg_full, to_rgb_array

            svg = svg_full(game)
            return svg if self.render_mode == "svg" else to_rgb_array(svg)
        text = render_state(game, self.possible_agents, self._events)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _record(self, before: State, joint: np.ndarray) -> None:
        """The events of one step, for the rendering: picks, the reveal, each offer."""
        agents, lay = self.possible_agents, self._layout
        if before.phase == Phase.SETUP:
            self._events = [
                f"{a} starts at archway {lay.decode(int(joint[s]))[1]}"
                for s, a in enumerate(agents)
            ]
        elif before.phase == Phase.SELECT:
            cards = [CARD_NAMES[_field(lay.decode(int(joint[s])))] for s in range(len(agents))]
            self._events = ["cards: " + ", ".join(f"{a} {c}" for a, c in zip(agents, cards))]
        elif before.phase == Phase.BARTER:
            actor = before.to_act
            group, _ = lay.decode(int(joint[actor]))
            card = CARD_NAMES[before.barter_card]
            if group == Group.SUBMIT:
                self._events.append(f"{agents[actor]} offers {bundle_text(before.pending)}")
            elif group == Group.ACCEPT:
                giver = agents[before.offer_by]
                self._events.append(
                    f"{agents[actor]} accepts {bundle_text(before.offer)} from {giver}, "
                    f"who carries out {card}"
                )
            elif group == Group.FORFEIT:
                self._events.append(
                    f"{agents[actor]} offers nothing: {agents[before.responder]} carries out {card}"
                )
        gained = self.core.score[0] - before.score
        if gained.any():
            self._events.append(
                "points: " + ", ".join(f"{a} +{int(g)}" for a, g in zip(agents, gained) if g)
            )

    def close(self) -> None:
        pass


def _field(decoded: tuple[Group, int | None]) -> int:
    """The argument of a decoded action that has one (a START's archway, a CARD's card)."""
    group, field = decoded
    assert field is not None, f"{group.name} has no argument"
    return field
