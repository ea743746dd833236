"""Search agents for ASARA: determinised flat Monte Carlo on the batched core.

A search agent simulates the game, so unlike the baselines it reads the game state, not
the observation, but only through what the deciding seat knows: every decision begins by
drawing determinisations of the hidden information (`asara_env.hidden.determinise`: the
others' hands, the draw pile, the face-down buyers, the unknown lighted windows and all
future chance redrawn from the agent's own generator). Two states the seat cannot tell
apart give the same decision, whatever the true hidden cards (tested).

FlatMCAgent ("flatmc"), per decision with A > 1 legal actions:

1. draw k determinisations and stack them as one core batch (`from_reference`);
2. repeat each A times and play every legal action once in every determinisation (the
   same chance for all A actions of a determinisation: common random numbers);
3. play all k*A games to the end at once in the core with the playout policy;
4. score each action by the mean reward of the deciding seat (`value`: the `win` share
   scheme of asara_env.common.outcome, or `margin`, or `rank`) and play the best
   (ties broken with the agent's generator).

Budget: `sims` playouts per decision (k = max(1, round(sims / A)), so at least one per
legal action), played `batch` at a time; or `seconds` per decision, rounds of
max(1, batch // A) determinisations until the time is spent. A decision with one legal
action costs nothing (no search, no random numbers). With `sims` the agent is
deterministic given its seed and the sequence of decisions it is asked; with `seconds` the
number of rounds depends on the machine.

Playout policies (`playout`): "random" (uniform legal actions, no observation needed) or
any registered agent name (its `act_batch` on the core's observations, seeded from the
agent's seed), or an `Agent` instance (e.g. a `PolicyAgent`).

Where agents are played: `arena.play_batch` (tournaments, ladder) calls `act_core` for the
games where the agent is to move; the AEC env paths (`arena.play_game`, `asara play`) call
`act_env`. `act_batch` (observations only) refuses: there is no state to search.
"""

from __future__ import annotations

import time

import numpy as np

from asara_env.common.outcome import check_scheme, terminal_rewards
from asara_env.core import final_prestige, is_terminal, legal_action_mask, step, take
from asara_env.core.convert import from_reference, to_reference
from asara_env.core.observation import observe
from asara_env.core.state import CoreState
from asara_env.hidden import determinise
from asara_env.reference.rules import legal_actions
from asara_env.reference.serialize import state_from_dict
from asara_env.reference.state import State

from .base import Agent, pick_best

COMPACT_BELOW = 0.6  # playouts drop finished games once fewer than this share are live


def _uniform_legal(masks: np.ndarray, u: np.ndarray) -> np.ndarray:
    """int64[B]: the floor(u * n)-th of each row's n legal actions (as `pick_best` with
    equal scores, from the mask's non-zeros)."""
    rows, cols = np.nonzero(masks)
    n = np.bincount(rows, minlength=len(masks))
    first = np.cumsum(n) - n
    return cols[first + (u * n).astype(np.int64)].astype(np.int64)


class SearchAgent(Agent):
    """Base of the agents that search the game: they act on states, not observations."""

    needs_state = True

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        raise TypeError(
            f"{self.name} searches the game and needs its state: call act_state, act_core "
            "or act_env (agents.arena does)"
        )

    def act_state(self, state: State) -> int:
        """The action of the seat to move in a reference state (reads only what it knows)."""
        raise NotImplementedError

    def act_core(self, state: CoreState, rows) -> np.ndarray:
        """int64[len(rows)]: the action in each of games `rows` of a core batch, in order.
        The games' chance tapes are not carried over (`to_reference` without a generator)."""
        return np.array([self.act_state(to_reference(state, int(i))) for i in rows], np.int64)

    def act_env(self, env) -> int:
        """The action of the agent to move in a PettingZoo ASARA env."""
        return self.act_state(state_from_dict(env.unwrapped.state()))


class FlatMCAgent(SearchAgent):
    """Determinised flat Monte Carlo on the core; see the module docstring."""

    name = "flatmc"

    def __init__(
        self,
        seed: int | None = None,
        sims: int = 128,
        seconds: float | None = None,
        playout: str | Agent = "random",
        value: str = "win",
        batch: int = 512,
    ):
        if sims < 1 or batch < 1:
            raise ValueError(f"sims and batch must be at least 1, got {sims} and {batch}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"seconds must be positive, got {seconds}")
        self.sims, self.seconds, self.batch = int(sims), seconds, int(batch)
        self.value = check_scheme(value)
        self.playout_name = playout if isinstance(playout, str) else playout.name
        self._playout_spec = playout
        self.simulations = 0  # playouts run so far (for rates)
        self.searches = 0  # decisions searched (more than one legal action)
        super().__init__(seed)

    def reseed(self, seed: int | None) -> None:
        super().reseed(seed)
        self.policy = self._make_playout(self._playout_spec, seed)

    @staticmethod
    def _make_playout(spec: str | Agent, seed: int | None) -> Agent | None:
        if not isinstance(spec, str):
            return spec
        if spec == "random":
            return None
        from . import make_agent

        if seed is None:
            return make_agent(spec)
        return make_agent(spec, int(np.random.SeedSequence([seed, 1]).generate_state(1)[0]))

    # ---------------------------------------------------------------- the decision
    def act_state(self, state: State) -> int:
        if state.is_over:
            raise ValueError("the game is over: there is no decision to take")
        actions = np.array(legal_actions(state), np.int64)
        if len(actions) == 1:
            return int(actions[0])
        totals, counts = np.zeros(len(actions)), np.zeros(len(actions))
        start = time.perf_counter()
        for k in self._rounds(len(actions), start):
            values = self._simulate(state, actions, k)
            totals += values.sum(axis=0)
            counts += len(values)
        self.searches += 1
        return int(actions[pick_best((totals / counts)[None], self.rng.random(1))[0]])

    def _rounds(self, n_actions: int, start: float):
        """Determinisations per round: the whole `sims` budget in batches, or rounds until
        `seconds` are spent."""
        per_round = max(1, self.batch // n_actions)
        if self.seconds is None:
            left = max(1, round(self.sims / n_actions))
            while left > 0:
                yield min(per_round, left)
                left -= per_round
            return
        yield per_round
        while time.perf_counter() - start < self.seconds:
            yield per_round

    def _simulate(self, state: State, actions: np.ndarray, k: int) -> np.ndarray:
        """float[k, A]: the deciding seat's reward after each action in k determinisations."""
        seat, n = state.seat, len(actions)
        worlds = from_reference([determinise(state, seat, self.rng) for _ in range(k)])
        games = take(worlds, np.repeat(np.arange(k), n))
        step(games, np.tile(actions, k))
        prestige = self.playout(games)
        self.simulations += k * n
        return terminal_rewards(prestige, self.value)[:, seat].reshape(k, n)

    def playout(self, games: CoreState) -> np.ndarray:
        """int[B, P]: final prestige of every game played to its end with the playout
        policy (the batch is advanced in place; finished games are dropped as it goes)."""
        rows = np.arange(len(games.seat))
        out = np.zeros((len(rows), games.config.num_players), np.int64)
        while True:
            done = is_terminal(games)
            if done.all() or done.mean() > 1 - COMPACT_BELOW:
                out[rows[done]] = final_prestige(games)[done]
                if done.all():
                    return out
                rows, games = rows[~done], take(games, np.flatnonzero(~done))
            step(games, self._playout_actions(games))

    def _playout_actions(self, games: CoreState) -> np.ndarray:
        masks = legal_action_mask(games)
        live = ~is_terminal(games)
        if not live.all():  # finished games ignore their action; keep their rows pickable
            masks = masks.copy()
            masks[~live, 0] = True
        if self.policy is None:
            return _uniform_legal(masks, self.rng.random(len(masks)))
        actions = np.zeros(len(masks), np.int64)
        rows = np.flatnonzero(live)
        view = take(games, rows)
        actions[rows] = self.policy.act_batch(observe(view, view.seat), masks[rows])
        return actions
