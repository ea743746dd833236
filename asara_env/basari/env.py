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
  (364 and 39 on the default board; docs/basari/observation.md, docs/basari/actions.md).
- Rewards are 0 until the game ends, then from `asara_env.common.outcome` under
  `reward="win" | "rank" | "margin"` (E5: `win` 1/k to each of k co-winners, 0 to the
  others; `rank` +1 for a sole winner down to -1 for a sole last, players still tied
  sharing a place; both by the B10 order with its tie-breaks; `margin` own score minus the
  mean of the others', / 50). There is no truncation.
- `infos[agent]` has the same keys and shapes at every step: `acting` (bool: a real
  decision, not only NOOP), `phase` (name), `round` and `turn` (1-based), and the final
  fields `final_scores` (int64[P]), `ranking_score` (int64[P], the B10 order as one number)
  and `winners` (bool[P]), all zeros until the game is over.
- `state()` is the global state, float32[OBS_SIZE] (`state_space`): seat 0's view with the
  bundle being built filled in (nothing else is hidden between steps).
- Illegal actions raise `IllegalActionError` (a ValueError) naming the agent, the action
  and why; nothing changes.
- `reset(seed=s)` plays the game seeded s; later `reset()` calls without a seed play
  `derived_seed(s, 1)`, `derived_seed(s, 2)`, ...; `env.game_seed` tells the seed.
- Saving: `save_game()` returns the game as a JSON-compatible dict (the reference
  engine's validated format, docs/basari/state.md); `load_game(saved)` or
  `reset(options={"state": saved})` continues it; `copy.deepcopy(env)` is an independent
  env in the same position.
- Rendering: `render_mode="ansi"` returns the board, players, barter and the turn's
  events as text; `"human"` prints it.
"""

from __future__ import annotations

import copy
from typing import Any, cast

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import ParallelEnv

from asara_env.basari.actions import Group
from asara_env.basari.bridge import from_reference, to_reference
from asara_env.basari.chance import check_seed
from asara_env.basari.config import BasariConfig
from asara_env.basari.constants import BOARD, CARD_NAMES
from asara_env.basari.core import global_state, init, observe, ranking_score, step, terminal_rewards
from asara_env.basari.core import winners as core_winners
from asara_env.basari.core.outcome import REWARD_SCHEMES
from asara_env.basari.core.state import BasariState
from asara_env.basari.errors import IllegalActionError
from asara_env.basari.phases import Phase
from asara_env.basari.reference.rules import illegal_reason
from asara_env.basari.reference.serialize import state_from_dict, state_to_dict
from asara_env.basari.reference.state import State
from asara_env.basari.render import bundle_text, render_state
from asara_env.common.seeding import derived_seed

PHASE_NAMES = tuple(p.name for p in Phase)
OVER = int(Phase.OVER)
# observation entries are scaled counts (scores / 100 have no rule-given bound)
OBS_HIGH = float(np.finfo(np.float32).max)


class BasariParallelEnv(ParallelEnv, EzPickle):
    """BASARI for 2-4 players; see the module docstring."""

    metadata = {
        "render_modes": ["ansi", "human"],
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
    ) -> None:
        EzPickle.__init__(self, num_players, start_mode, reward, board, render_mode)
        self.config = BasariConfig(num_players, start_mode, BOARD if board is None else board)
        if reward not in REWARD_SCHEMES:
            raise ValueError(f"reward must be one of {sorted(REWARD_SCHEMES)}, got {reward!r}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.reward_scheme, self.render_mode = reward, render_mode
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agents: list[str] = []
        lay = self.config.actions
        self._layout, self._n_actions = lay, lay.n_actions
        size = observe(init(self.config, 1, seeds=0)).shape[-1]
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, OBS_HIGH, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (lay.n_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: copy.deepcopy(obs_space) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(lay.n_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(0.0, OBS_HIGH, (size,), np.float32)
        self._core: BasariState | None = None
        self._base_seed: int | None = None
        self._episode = 0
        self.game_seed: int | None = None
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
        saved = _saved_state(options)
        if saved is not None:
            if seed is not None:
                raise ValueError("reset: pass either a seed or options['state'], not both")
            self._core = self._load(saved)
        else:
            self.game_seed = self._next_game_seed(seed)
            self._core = init(self.config, 1, seeds=np.array([self.game_seed], np.uint64))
        self.agents = self.possible_agents[:]
        self._events = []
        over = self._over()
        if over:
            self.agents = []
        return self._observations(), self._infos()

    def _load(self, saved: dict[str, Any]) -> BasariState:
        game = state_from_dict(saved)
        if game.config != self.config:
            raise ValueError(
                f"reset: the saved game's config {game.config.to_dict()} is not this env's "
                f"{self.config.to_dict()}"
            )
        self.game_seed = self._base_seed = int(game.seed)
        self._episode = 0
        return from_reference([game])

    def _next_game_seed(self, seed: int | None) -> int:
        if seed is not None:
            self._base_seed, self._episode = check_seed(seed), 0
            return self._base_seed
        if self._base_seed is None:
            self._base_seed = cast(int, np.random.SeedSequence().entropy) % 2**64
            self._episode = 0
            return self._base_seed
        self._episode += 1
        return derived_seed(self._base_seed, self._episode)

    def save_game(self) -> dict[str, Any]:
        """The game as a JSON-compatible dict (the reference engine's validated format,
        docs/basari/state.md); `load_game` or `reset(options={"state": saved})` resumes it."""
        self._require_reset()
        return state_to_dict(to_reference(self.core, 0))

    def load_game(self, saved: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """Continue the saved game `saved` (a `save_game()` dict; validated); returns what
        `reset` returns."""
        return self.reset(options={"state": saved})

    def __deepcopy__(self, memo: dict[int, Any]) -> BasariParallelEnv:
        """An independent env in the same position (EzPickle's pickling rebuilds a fresh
        env from the constructor's arguments instead)."""
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        for name, value in self.__dict__.items():
            setattr(new, name, copy.deepcopy(value, memo))
        return new

    # ---------------------------------------------------------------------------- acting
    def step(self, actions: dict[str, Any]) -> tuple[dict[str, Any], ...]:
        """One parallel step: one action per live agent (NOOP where it has no decision)."""
        self._require_reset()
        if not self.agents:
            raise ValueError("step: the game is over; call reset()")
        joint = self._joint(actions)
        before = to_reference(self.core, 0) if self.render_mode else None
        step(self.core, joint[None, :])
        if before is not None:
            self._record(before, joint)
        over = self._over()
        rewards = dict.fromkeys(self.agents, 0.0)
        if over:
            final = terminal_rewards(self.core, self.reward_scheme)[0]
            rewards = {a: float(final[i]) for i, a in enumerate(self.possible_agents)}
        observations, infos = self._observations(), self._infos()
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _joint(self, actions: object) -> np.ndarray:
        """int64[P] from the action dict, or a ValueError naming the agent and action."""
        if not isinstance(actions, dict):
            raise ValueError(f"step: actions must be a dict agent -> id, got {type(actions)}")
        unknown = set(actions) - set(self.agents)
        if unknown:
            raise ValueError(f"step: unknown or finished agents {sorted(map(str, unknown))}")
        missing = [a for a in self.agents if a not in actions]
        if missing:
            raise ValueError(f"step: no action for {missing} (every agent acts; NOOP is 0)")
        joint = np.zeros(len(self.possible_agents), np.int64)
        for seat, agent in enumerate(self.possible_agents):
            joint[seat] = self._check(agent, seat, actions[agent])
        return joint

    def _check(self, agent: str, seat: int, action: object) -> int:
        a = action[()] if isinstance(action, np.ndarray) and action.ndim == 0 else action
        if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)):
            raise IllegalActionError(seat, action, "?", self._phase(), f"{agent}: not an int id")
        a = int(a)
        if 0 <= a < self._n_actions and self.core.legal[0, seat, a]:
            return a
        name = self._layout.describe(a) if 0 <= a < self._n_actions else "?"
        why = illegal_reason(to_reference(self.core, 0), seat, a) or "not legal now"
        raise IllegalActionError(seat, a, name, self._phase(), f"{agent} may not: {why}")

    def _phase(self) -> str:
        return PHASE_NAMES[int(self.core.phase[0])]

    def _over(self) -> bool:
        return int(self.core.phase[0]) == OVER

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
    def _observations(self) -> dict[str, Any]:
        obs = observe(self.core)[0]
        mask = self.core.legal[0].astype(np.int8)
        return {
            a: {"observation": obs[i], "action_mask": mask[i]}
            for i, a in enumerate(self.possible_agents)
            if a in self.agents or self._over()
        }

    def _infos(self) -> dict[str, Any]:
        core, p = self.core, len(self.possible_agents)
        over = self._over()
        finals = {
            "final_scores": core.score[0].astype(np.int64) if over else np.zeros(p, np.int64),
            "ranking_score": ranking_score(core.score, core.gems)[0]
            if over
            else np.zeros(p, np.int64),
            "winners": core_winners(core)[0] if over else np.zeros(p, bool),
        }
        acting: np.ndarray = np.asarray(core.legal[0, :, 1:].any(axis=1))
        common = {
            "phase": self._phase(),
            "round": int(core.round[0]) + 1,
            "turn": int(core.turn[0]) + 1,
        }
        return {
            a: {"acting": bool(acting[i]), **common, **{k: v.copy() for k, v in finals.items()}}
            for i, a in enumerate(self.possible_agents)
        }

    def state(self) -> np.ndarray:
        """float32[OBS_SIZE]: the global state (see the module docstring)."""
        self._require_reset()
        return global_state(self.core)[0]

    def render(self) -> str | None:
        """The game as text: returned ("ansi") or printed ("human")."""
        if self.render_mode is None:
            return None
        self._require_reset()
        text = render_state(to_reference(self.core, 0), self.possible_agents, self._events)
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


def _saved_state(options: object) -> dict[str, Any] | None:
    """options["state"]; other keys are ignored, as gymnasium and PettingZoo expect."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise ValueError(f"reset options must be a dict, got {type(options).__name__}")
    return options.get("state")


def _field(decoded: tuple[Group, int | None]) -> int:
    """The argument of a decoded action that has one (a START's archway, a CARD's card)."""
    group, field = decoded
    assert field is not None, f"{group.name} has no argument"
    return field
